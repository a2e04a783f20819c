// CAST kernel tests: expected values from the conversion rules (truncation
// and saturation from float, wraparound between integers), worked out by hand.
#include <math.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

TfLiteStatus Cast(TfLiteTensor input, TfLiteTensor output, const TfLiteCastParams* params = nullptr) {
  return RunUnaryKernel(Register_CAST(), input, output, params);
}

const int32_t kElevenShape[] = {1, 11};
// Float inputs at the edges of the integer types, NaN and infinities.
float g_floats[11] = {-1.5f, 2.7f, 0.0f, 127.9f, -128.9f, 300.5f, -40000.5f, NAN, INFINITY, -INFINITY, -0.5f};

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatToIntegersTruncatesAndSaturates) {
  const TfLiteIntArray* dims = IntArrayFromInts(kElevenShape);
  TfLiteTensor input = CreateTensor(g_floats, dims);
  int8_t i8[11];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(input, CreateTensor(i8, dims)));
  const int8_t e8[] = {-1, 2, 0, 127, -128, 127, -128, 0, 127, -128, 0};
  for (int i = 0; i < 11; ++i) TF_LITE_MICRO_EXPECT_EQ(e8[i], i8[i]);
  int16_t i16[11];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(input, CreateTensor(i16, dims)));
  const int16_t e16[] = {-1, 2, 0, 127, -128, 300, -32768, 0, 32767, -32768, 0};
  for (int i = 0; i < 11; ++i) TF_LITE_MICRO_EXPECT_EQ(e16[i], i16[i]);
  int32_t i32[11];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(input, CreateTensor(i32, dims)));
  const int32_t e32[] = {-1, 2, 0, 127, -128, 300, -40000, 0, INT32_MAX, INT32_MIN, 0};
  for (int i = 0; i < 11; ++i) TF_LITE_MICRO_EXPECT_EQ(e32[i], i32[i]);
  int64_t i64[11];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(input, CreateTensor(i64, dims)));
  const int64_t e64[] = {-1, 2, 0, 127, -128, 300, -40000, 0, INT64_MAX, INT64_MIN, 0};
  for (int i = 0; i < 11; ++i) TF_LITE_MICRO_EXPECT(e64[i] == i64[i]);
  uint8_t u8[11];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(input, CreateTensor(u8, dims)));
  const uint8_t eu8[] = {0, 2, 0, 127, 0, 255, 0, 0, 255, 0, 0};
  for (int i = 0; i < 11; ++i) TF_LITE_MICRO_EXPECT_EQ(eu8[i], u8[i]);
  bool b[11];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(input, CreateTensor(b, dims)));
  const bool eb[] = {true, true, false, true, true, true, true, true, true, true, true};  // NaN != 0
  for (int i = 0; i < 11; ++i) TF_LITE_MICRO_EXPECT_EQ(eb[i], b[i]);
  // 2^31 exactly is out of int32's range, the float below it is not.
  float edges[] = {2147483648.0f, 2147483520.0f, -2147483648.0f, -2147483904.0f};
  const int32_t four[] = {1, 4};
  int32_t e[4];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(edges, IntArrayFromInts(four)),
                                          CreateTensor(e, IntArrayFromInts(four))));
  TF_LITE_MICRO_EXPECT(e[0] == INT32_MAX && e[1] == 2147483520 && e[2] == INT32_MIN && e[3] == INT32_MIN);
}

TF_LITE_MICRO_TEST(IntegersWrapAndExtend) {
  const int32_t five[] = {1, 5};
  const TfLiteIntArray* dims = IntArrayFromInts(five);
  int32_t wide[] = {INT32_MIN, INT32_MAX, 128, -129, 255};
  int8_t narrow[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(wide, dims), CreateTensor(narrow, dims)));
  const int8_t e8[] = {0, -1, -128, 127, -1};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(e8[i], narrow[i]);
  uint8_t bytes[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(wide, dims), CreateTensor(bytes, dims)));
  const uint8_t eu8[] = {0, 255, 128, 127, 255};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(eu8[i], bytes[i]);
  int16_t shorts[] = {-32768, 32767, -1, 255, 256};
  int8_t from16[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(shorts, dims), CreateTensor(from16, dims)));
  const int8_t e16[] = {0, -1, -1, -1, 0};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(e16[i], from16[i]);
  int64_t longs[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(shorts, dims), CreateTensor(longs, dims)));
  TF_LITE_MICRO_EXPECT(longs[0] == -32768 && longs[1] == 32767 && longs[2] == -1 && longs[4] == 256);
  int64_t big[] = {(1ll << 40) + 7, -(1ll << 33) - 1, -1, 0, 1ll << 31};
  int32_t from64[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(big, dims), CreateTensor(from64, dims)));
  const int32_t e64[] = {7, -1, -1, 0, INT32_MIN};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(e64[i], from64[i]);
  uint8_t unsigned_bytes[] = {0, 255, 128, 127, 1};
  int8_t signed_bytes[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(unsigned_bytes, dims), CreateTensor(signed_bytes, dims)));
  const int8_t es[] = {0, -1, -128, 127, 1};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(es[i], signed_bytes[i]);
}

TF_LITE_MICRO_TEST(ToAndFromFloatAndBool) {
  const int32_t five[] = {1, 5};
  const TfLiteIntArray* dims = IntArrayFromInts(five);
  // 2^24 + 1 has no float: it rounds to the nearest (even) float, 2^24.
  int32_t ints[] = {16777217, -3, 0, 16777219, INT32_MIN};
  float floats[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(ints, dims), CreateTensor(floats, dims)));
  const float ef[] = {16777216.0f, -3.0f, 0.0f, 16777220.0f, -2147483648.0f};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(ef[i], floats[i]);
  bool flags[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(ints, dims), CreateTensor(flags, dims)));
  TF_LITE_MICRO_EXPECT(flags[0] && flags[1] && !flags[2] && flags[3] && flags[4]);
  int32_t back[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(flags, dims), CreateTensor(back, dims)));
  const int32_t eb[] = {1, 1, 0, 1, 1};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(eb[i], back[i]);
  float from_bool[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(flags, dims), CreateTensor(from_bool, dims)));
  TF_LITE_MICRO_EXPECT(from_bool[0] == 1.0f && from_bool[2] == 0.0f);
  int8_t q[] = {-128, 127, 0, -1, 5};
  float fq[5];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateQuantizedTensor(q, dims, 0.5f, 3), CreateTensor(fq, dims)));
  const float eq[] = {-128.0f, 127.0f, 0.0f, -1.0f, 5.0f};  // quantization is ignored
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(eq[i], fq[i]);
}

TF_LITE_MICRO_TEST(ManyElementsAndSameType) {
  // More elements than one conversion block.
  const int32_t shape[] = {2, 7, 10};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int8_t input[70];
  for (int i = 0; i < 70; ++i) input[i] = static_cast<int8_t>(i * 37);
  int32_t output[70];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(input, dims), CreateTensor(output, dims)));
  for (int i = 0; i < 70; ++i) TF_LITE_MICRO_EXPECT_EQ(static_cast<int32_t>(static_cast<int8_t>(i * 37)), output[i]);
  int8_t copy[70];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(CreateTensor(input, dims), CreateTensor(copy, dims)));
  for (int i = 0; i < 70; ++i) TF_LITE_MICRO_EXPECT_EQ(input[i], copy[i]);
}

TF_LITE_MICRO_TEST(BadModelsFailInPrepare) {
  const int32_t four[] = {1, 4};
  const int32_t two_by_two[] = {2, 2, 2};
  float input[4] = {};
  int32_t output[4] = {};
  TfLiteTensor in = CreateTensor(input, IntArrayFromInts(four));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Cast(in, CreateTensor(output, IntArrayFromInts(two_by_two))));
  TfLiteTensor half = in;
  half.type = kTfLiteFloat16;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Cast(half, CreateTensor(output, IntArrayFromInts(four))));
  // Options that contradict the tensors; FLOAT32 is the default of options that recorded nothing.
  const TfLiteCastParams agree = {kTfLiteFloat32, kTfLiteInt32};
  const TfLiteCastParams unset = {kTfLiteFloat32, kTfLiteFloat32};
  const TfLiteCastParams wrong_out = {kTfLiteFloat32, kTfLiteInt8};
  const TfLiteCastParams wrong_in = {kTfLiteInt16, kTfLiteInt32};
  TfLiteTensor out = CreateTensor(output, IntArrayFromInts(four));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(in, out, &agree));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Cast(in, out, &unset));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Cast(in, out, &wrong_out));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Cast(in, out, &wrong_in));
}

TF_LITE_MICRO_TESTS_END
