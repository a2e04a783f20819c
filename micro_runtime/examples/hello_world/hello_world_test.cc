// hello_world example: every reference case of both models (float and int8)
// through the runtime with a resolver holding only FULLY_CONNECTED, plus the
// application-level predictor.
#include <stdint.h>
#include <string.h>

#include "micro_runtime/examples/hello_world/models/hello_world_float_cases.h"
#include "micro_runtime/examples/hello_world/models/hello_world_float_model_data.h"
#include "micro_runtime/examples/hello_world/models/hello_world_int8_cases.h"
#include "micro_runtime/examples/hello_world/models/hello_world_int8_model_data.h"
#include "micro_runtime/examples/hello_world/output_handler.h"
#include "micro_runtime/examples/hello_world/sine_predictor.h"
#include "micro_runtime/micro_test.h"

namespace {

constexpr size_t kArenaSize = 2048;
alignas(16) uint8_t g_arena[kArenaSize];

float AbsF(float v) { return v < 0 ? -v : v; }

float ReadFloat(const unsigned char* bytes) {
  float value;
  memcpy(&value, bytes, sizeof(value));
  return value;
}

// Runs every case through `predictor`'s interpreter, comparing with the
// reference output: float within 1e-5 relative + 1e-6 absolute, int8 within
// one quantization step.
int CheckCases(SinePredictor& predictor, const MicroCase* cases, int count) {
  int failures = 0;
  MicroInterpreter& interpreter = predictor.interpreter();
  for (int c = 0; c < count; ++c) {
    const MicroCaseTensor& given = cases[c].inputs[0];
    const MicroCaseTensor& want = cases[c].expected[0];
    TfLiteTensor* input = interpreter.input(0);
    TF_LITE_MICRO_EXPECT_EQ(static_cast<int>(given.type), static_cast<int>(input->type));
    TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(given.bytes), input->bytes);
    if (given.bytes != input->bytes) return 1;
    memcpy(input->data.raw, given.data, given.bytes);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
    const TfLiteTensor* output = interpreter.output(0);
    TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(want.bytes), output->bytes);
    if (output->type == kTfLiteFloat32) {
      const float expected = ReadFloat(want.data);
      const float got = output->data.f[0];
      const float allowed = 1e-6f + 1e-5f * AbsF(expected);
      TF_LITE_MICRO_EXPECT_NEAR(expected, got, allowed);
      if (AbsF(expected - got) > allowed) ++failures;
    } else {
      const int expected = static_cast<int8_t>(want.data[0]);
      const int got = output->data.int8[0];
      TF_LITE_MICRO_EXPECT_NEAR(expected, got, 1);
      if (expected - got > 1 || got - expected > 1) ++failures;
    }
  }
  return failures;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatModelMatchesEveryReferenceCase) {
  SinePredictor predictor(g_hello_world_float_model_data, g_hello_world_float_model_data_size, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, predictor.Init());
  TF_LITE_MICRO_EXPECT_EQ(5, g_hello_world_float_case_count);
  TF_LITE_MICRO_EXPECT_EQ(0, CheckCases(predictor, g_hello_world_float_cases, g_hello_world_float_case_count));
}

TF_LITE_MICRO_TEST(Int8ModelMatchesEveryReferenceCase) {
  SinePredictor predictor(g_hello_world_int8_model_data, g_hello_world_int8_model_data_size, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, predictor.Init());
  TF_LITE_MICRO_EXPECT_EQ(6, g_hello_world_int8_case_count);
  TF_LITE_MICRO_EXPECT_EQ(0, CheckCases(predictor, g_hello_world_int8_cases, g_hello_world_int8_case_count));
}

TF_LITE_MICRO_TEST(PredictorApproximatesSine) {
  // The model is a small regressor: within 0.15 of sin(x) over one period
  // for both variants (known values, no libm needed).
  const float xs[] = {0.0f, 0.5235988f, 1.5707964f, 3.1415927f, 4.712389f};
  const float sines[] = {0.0f, 0.5f, 1.0f, 0.0f, -1.0f};
  SinePredictor float_model(g_hello_world_float_model_data, g_hello_world_float_model_data_size, g_arena,
                            kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, float_model.Init());
  for (int i = 0; i < 5; ++i) {
    float y = 99.0f;
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, float_model.Predict(xs[i], &y));
    TF_LITE_MICRO_EXPECT_NEAR(sines[i], y, 0.15f);
    HandleOutput(xs[i], y);
  }
  SinePredictor int8_model(g_hello_world_int8_model_data, g_hello_world_int8_model_data_size, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, int8_model.Init());
  for (int i = 0; i < 5; ++i) {
    float y = 99.0f;
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, int8_model.Predict(xs[i], &y));
    TF_LITE_MICRO_EXPECT_NEAR(sines[i], y, 0.15f);
  }
}

TF_LITE_MICRO_TEST(PredictBeforeInitIsRefused) {
  SinePredictor predictor(g_hello_world_int8_model_data, g_hello_world_int8_model_data_size, g_arena, kArenaSize);
  float y = 0.0f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, predictor.Predict(1.0f, &y));
}

TF_LITE_MICRO_TEST(ArenaTooSmallIsAnErrorNotACrash) {
  SinePredictor predictor(g_hello_world_int8_model_data, g_hello_world_int8_model_data_size, g_arena, 64);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, predictor.Init());
}

TF_LITE_MICRO_TESTS_END
