// RESHAPE kernel tests: the data is the input's bytes unchanged (expected
// values are the inputs themselves), the shape comes from the output tensor.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kOneInput[] = {1, 0};
const int32_t kTwoInputs[] = {2, 0, 1};
const int32_t kOut2[] = {1, 2};  // output index when a shape tensor is input 1
const int32_t kOut1[] = {1, 1};

// With a shape tensor: tensors = {input, shape, output}.
TfLiteStatus RunWithShape(TfLiteTensor input, TfLiteTensor shape, TfLiteTensor output) {
  TfLiteTensor tensors[] = {input, shape, output};
  KernelRunner runner(Register_RESHAPE(), tensors, 3, IntArrayFromInts(kTwoInputs), IntArrayFromInts(kOut2),
                      nullptr);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

// Without a shape tensor, optionally with new_shape options.
TfLiteStatus RunWithOptions(TfLiteTensor input, TfLiteTensor output, const TfLiteReshapeParams* params) {
  TfLiteTensor tensors[] = {input, output};
  KernelRunner runner(Register_RESHAPE(), tensors, 2, IntArrayFromInts(kOneInput), IntArrayFromInts(kOut1),
                      params);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatWithShapeTensor) {
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t out_shape[] = {3, 3, 2, 1};
  const int32_t shape_shape[] = {1, 3};
  int32_t new_shape[] = {3, 2, 1};
  float input[] = {1.5f, -2, 3, 4, 5, 6.25f};
  float output[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunWithShape(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                  CreateTensor(new_shape, IntArrayFromInts(shape_shape), true),
                                                  CreateTensor(output, IntArrayFromInts(out_shape))));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(input[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8WithInferredDimension) {
  const int32_t in_shape[] = {4, 1, 2, 2, 1};
  const int32_t out_shape[] = {2, 1, 4};
  const int32_t shape_shape[] = {1, 2};
  int32_t new_shape[] = {1, -1};
  int8_t input[] = {-128, 0, 5, 127};
  int8_t output[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          RunWithShape(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 0),
                                       CreateTensor(new_shape, IntArrayFromInts(shape_shape), true),
                                       CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.1f, 0)));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(input[i], output[i]);
}

TF_LITE_MICRO_TEST(Int32WithOptions) {
  const int32_t in_shape[] = {1, 4};
  const int32_t out_shape[] = {2, 2, 2};
  int32_t input[] = {7, -8, 100000, -2147483647};
  int32_t output[4] = {0};
  const TfLiteReshapeParams params = {2, {2, 2, 0, 0, 0, 0, 0, 0}};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunWithOptions(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                    CreateTensor(output, IntArrayFromInts(out_shape)), &params));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(input[i], output[i]);
}

TF_LITE_MICRO_TEST(Int16Int64BoolUint8AreCopied) {
  // RESHAPE moves bytes whatever the type (TFLM's too): every byte of each
  // element must arrive, in order.
  const int32_t in_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {1, 4};
  const TfLiteReshapeParams params = {1, {4, 0, 0, 0, 0, 0, 0, 0}};
  int16_t i16[] = {-32768, -2, 258, 32767};
  int16_t i16_out[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          RunWithOptions(CreateQuantizedTensor(i16, IntArrayFromInts(in_shape), 0.5f, 0),
                                         CreateQuantizedTensor(i16_out, IntArrayFromInts(out_shape), 0.5f, 0),
                                         &params));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(i16[i], i16_out[i]);
  int64_t i64[] = {INT64_MIN, -1, 0x0102030405060708LL, INT64_MAX};
  int64_t i64_out[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunWithOptions(CreateTensor(i64, IntArrayFromInts(in_shape)),
                                                    CreateTensor(i64_out, IntArrayFromInts(out_shape)), &params));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(i64[i], i64_out[i]);
  bool b[] = {true, false, false, true};
  bool b_out[4] = {false, true, true, false};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunWithOptions(CreateTensor(b, IntArrayFromInts(in_shape)),
                                                    CreateTensor(b_out, IntArrayFromInts(out_shape)), &params));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(b[i], b_out[i]);
  uint8_t u8[] = {0, 1, 128, 255};
  uint8_t u8_out[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunWithOptions(CreateTensor(u8, IntArrayFromInts(in_shape)),
                                                    CreateTensor(u8_out, IntArrayFromInts(out_shape)), &params));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(u8[i], u8_out[i]);
}

TF_LITE_MICRO_TEST(SharedBufferIsLeftAlone) {
  const int32_t in_shape[] = {1, 4};
  const int32_t out_shape[] = {2, 4, 1};
  float data[] = {1, 2, 3, 4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunWithOptions(CreateTensor(data, IntArrayFromInts(in_shape)),
                                                    CreateTensor(data, IntArrayFromInts(out_shape)), nullptr));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(static_cast<float>(i + 1), data[i]);
}

TF_LITE_MICRO_TEST(OverlappingBuffersCopyCorrectly) {
  // Output starts one element after the input: a forward byte copy would
  // smear the first element; the result must still be the input's values.
  const int32_t shape[] = {1, 4};
  int8_t buffer[] = {1, 2, 3, 4, 5};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunWithOptions(CreateTensor(buffer, IntArrayFromInts(shape)),
                                                    CreateTensor(buffer + 1, IntArrayFromInts(shape)), nullptr));
  const int8_t expected[] = {1, 1, 2, 3, 4};
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], buffer[i]);
}

TF_LITE_MICRO_TEST(InconsistentShapesFail) {
  const int32_t in_shape[] = {1, 6};
  const int32_t out_shape[] = {2, 2, 3};
  const int32_t bad_out_shape[] = {2, 2, 2};
  const int32_t dynamic_out_shape[] = {2, -1, 3};
  const int32_t shape_shape[] = {1, 2};
  int32_t wrong_new_shape[] = {3, 2};
  float input[6] = {0};
  float output[6] = {0};
  int8_t q_out[6] = {0};
  // Element counts differ.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunWithOptions(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                       CreateTensor(output, IntArrayFromInts(bad_out_shape)),
                                                       nullptr));
  // Shape tensor disagrees with the output tensor.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError,
                          RunWithShape(CreateTensor(input, IntArrayFromInts(in_shape)),
                                       CreateTensor(wrong_new_shape, IntArrayFromInts(shape_shape), true),
                                       CreateTensor(output, IntArrayFromInts(out_shape))));
  // Options disagree with the output tensor.
  const TfLiteReshapeParams params = {2, {3, 2, 0, 0, 0, 0, 0, 0}};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunWithOptions(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                       CreateTensor(output, IntArrayFromInts(out_shape)),
                                                       &params));
  // Dynamic output shape.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunWithOptions(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                       CreateTensor(output, IntArrayFromInts(dynamic_out_shape)),
                                                       nullptr));
  // Type change.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError,
                          RunWithOptions(CreateTensor(input, IntArrayFromInts(in_shape)),
                                         CreateQuantizedTensor(q_out, IntArrayFromInts(out_shape), 0.1f, 0), nullptr));
}

TF_LITE_MICRO_TESTS_END
