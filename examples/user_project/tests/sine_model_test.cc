// The project's own model (tests/models/sine_int8.tflite, included as generated data) through
// micro_runtime's interpreter: the harness turns every .tflite beside a test or in its models/
// folder into "<folder>/<name>_model_data.h".
#include <stdint.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_op_resolver.h"
#include "micro_runtime/micro_test.h"
#include "smoothing.h"
#include "tests/models/sine_int8_model_data.h"

namespace {

constexpr int kArenaSize = 2048;
alignas(16) uint8_t g_arena[kArenaSize];

float Predict(MicroInterpreter& interpreter, float x) {
  TfLiteTensor* input = interpreter.input(0);
  const int16_t x_q15 = static_cast<int16_t>(x / 8.0f * 32767.0f);  // x in [0, 2 pi) scaled by 1/8
  input->data.int8[0] = QuantizeQ15(x_q15, input->params.scale / 8.0f, input->params.zero_point);
  if (interpreter.Invoke() != kTfLiteOk) return 99.0f;
  const TfLiteTensor* output = interpreter.output(0);
  return static_cast<float>(output->data.int8[0] - output->params.zero_point) * output->params.scale;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ModelLoadsAndPredictsASine) {
  MicroMutableOpResolver<1> resolver;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          resolver.AddBuiltin(tflite::BuiltinOperator::FULLY_CONNECTED, Register_FULLY_CONNECTED(), 1, 4));
  MicroInterpreter interpreter(g_sine_int8_model_data, g_sine_int8_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  TF_LITE_MICRO_EXPECT_NEAR(0.0f, Predict(interpreter, 0.0f), 0.1f);
  TF_LITE_MICRO_EXPECT_NEAR(1.0f, Predict(interpreter, 1.5708f), 0.1f);
  TF_LITE_MICRO_EXPECT_NEAR(-1.0f, Predict(interpreter, 4.7124f), 0.1f);
}

TF_LITE_MICRO_TESTS_END
