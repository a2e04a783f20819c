// An int64 constant at 4 mod 8 in a real .tflite file: the flatbuffer format
// aligns vectors to 4 only, so a 16x8 FULLY_CONNECTED's int64 bias can sit
// there whatever the file's own alignment. The verifier accepts it and the
// kernel reads it with LoadInt64 (kernel_util.h); expected outputs are TFLM's
// (tflite_micro Python interpreter) and LiteRT's, which agree, on the model
// models/generate.py writes (int64_bias_4mod8).
#include <stdint.h>
#include <string.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_op_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/model_verifier.h"
#include "micro_runtime/models/fc_external_model_data.h"
#include "micro_runtime/models/int64_bias_4mod8_model_data.h"

namespace {

constexpr size_t kArenaSize = 2048;
alignas(16) uint8_t g_arena[kArenaSize];
alignas(16) uint8_t g_copy[1024];

// Index of the first occurrence of `needle` in `hay`, or -1.
int Find(const uint8_t* hay, size_t hay_size, const void* needle, size_t size) {
  for (size_t i = 0; i + size <= hay_size; ++i) {
    if (memcmp(hay + i, needle, size) == 0) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Int64BiasAtFourModEightRunsLikeTflm) {
  TF_LITE_MICRO_EXPECT(micro_runtime::VerifyModel(g_int64_bias_4mod8_model_data,
                                                  g_int64_bias_4mod8_model_data_size) != nullptr);
  MicroMutableOpResolver<1> resolver;
  resolver.AddBuiltin(tflite::BuiltinOperator::FULLY_CONNECTED, Register_FULLY_CONNECTED(), 1, 7);
  MicroInterpreter interpreter(g_int64_bias_4mod8_model_data, g_int64_bias_4mod8_model_data_size, resolver,
                               g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  // Tensor 2 is the bias: inside the (16-byte aligned) model, at 4 mod 8.
  const TfLiteTensor* bias = interpreter.tensor(2);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteInt64, bias->type);
  const uintptr_t offset = reinterpret_cast<uintptr_t>(bias->data.raw_const) -
                           reinterpret_cast<uintptr_t>(g_int64_bias_4mod8_model_data);
  TF_LITE_MICRO_EXPECT_EQ(4u, static_cast<unsigned>(offset % 8));
  const int16_t inputs[3][4] = {{1000, -2000, 32767, -32768}, {0, 0, 0, 0}, {12345, 23456, -3456, 456}};
  const int16_t expected[3][3] = {{67, 116, 30127}, {10, -17, 30141}, {-2, -372, 30159}};
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < 4; ++i) interpreter.input(0)->data.i16[i] = inputs[c][i];
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
    for (int u = 0; u < 3; ++u) TF_LITE_MICRO_EXPECT_EQ(expected[c][u], interpreter.output(0)->data.i16[u]);
  }
}

TF_LITE_MICRO_TEST(ConstantDataOffTheFourByteGridIsRefused) {
  // fc_external keeps its weights after the flatbuffer (Buffer.offset): moving
  // that offset by 2 leaves the float data 2-byte aligned, which is refused.
  const size_t size = g_fc_external_model_data_size;
  TF_LITE_MICRO_EXPECT(size <= sizeof(g_copy));
  if (size > sizeof(g_copy)) continue;
  memcpy(g_copy, g_fc_external_model_data, size);
  TF_LITE_MICRO_EXPECT(micro_runtime::VerifyModel(g_copy, size) != nullptr);
  const float weights[] = {1.0f, 2.0f, 3.0f, -1.0f, -2.0f, -3.0f};
  const int data_at = Find(g_copy, size, weights, sizeof(weights));
  TF_LITE_MICRO_EXPECT(data_at > 0);
  const uint64_t offset = static_cast<uint64_t>(data_at);
  const int field_at = Find(g_copy, static_cast<size_t>(data_at), &offset, sizeof(offset));
  TF_LITE_MICRO_EXPECT(field_at > 0);
  if (data_at <= 0 || field_at <= 0) continue;
  const uint64_t moved = offset + 2;
  memcpy(g_copy + field_at, &moved, sizeof(moved));
  TF_LITE_MICRO_EXPECT(micro_runtime::VerifyModel(g_copy, size) == nullptr);
}

TF_LITE_MICRO_TESTS_END
