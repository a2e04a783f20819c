// The shared prepare and invoke of elementwise unary ops, driven through
// small registrations made of them.
#include "micro_runtime/kernels/unary_util.h"

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

using namespace micro_runtime;

namespace {

float Twice(float x) { return 2.0f * x; }
constexpr char kTwice[] = "TWICE";

struct OffsetOpData {
  int32_t add;
};

TfLiteStatus OffsetPrepare(TfLiteContext* context, TfLiteNode* node) {
  void* data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareQuantizedUnary("OFFSET", context, node, kTypeFloat32 | kTypeInt8 | kTypeInt16,
                                                   "float32, int8, int16", sizeof(OffsetOpData), &data));
  if (data != nullptr) static_cast<OffsetOpData*>(data)->add = 100;
  return kTfLiteOk;
}

TfLiteStatus OffsetInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalQuantizedUnary<OffsetOpData, true>(
      "OFFSET", context, node, [](float x) { return x + 0.5f; },
      [](const OffsetOpData& d, int32_t q) { return q + d.add; });
}

TfLiteStatus TablePrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareInt8TableOp("TABLE", context, node, Twice, 256, -128);
}

TfLiteStatus TableInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalInt8TableOp("TABLE", context, node, Twice);
}

const int32_t kDims[] = {1, 4};
const int32_t kOtherDims[] = {1, 3};
const int32_t kInputs[] = {1, 0};
const int32_t kOutputs[] = {1, 1};

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatUnaryRegistrationMapsEveryElement) {
  float in[] = {1.0f, -2.0f, 0.5f, 0.0f};
  float out[4];
  TfLiteTensor tensors[] = {CreateTensor(in, IntArrayFromInts(kDims)), CreateTensor(out, IntArrayFromInts(kDims))};
  KernelRunner runner(FloatUnaryRegistration<kTwice, Twice>(), tensors, 2, IntArrayFromInts(kInputs),
                      IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(-4.0f, out[1]);
  TF_LITE_MICRO_EXPECT_EQ(1.0f, out[2]);
}

TF_LITE_MICRO_TEST(UnaryPrepareRefusesOtherTypesAndShapes) {
  int8_t in[4];
  float out[4];
  float small[3];
  TfLiteTensor tensors[] = {CreateTensor(in, IntArrayFromInts(kDims)), CreateTensor(out, IntArrayFromInts(kDims))};
  KernelRunner int8_runner(FloatUnaryRegistration<kTwice, Twice>(), tensors, 2, IntArrayFromInts(kInputs),
                           IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, int8_runner.InitAndPrepare());  // float32 only
  float fin[4];
  TfLiteTensor mismatched[] = {CreateTensor(fin, IntArrayFromInts(kDims)),
                               CreateTensor(small, IntArrayFromInts(kOtherDims))};
  KernelRunner shape_runner(FloatUnaryRegistration<kTwice, Twice>(), mismatched, 2, IntArrayFromInts(kInputs),
                            IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, shape_runner.InitAndPrepare());
}

TF_LITE_MICRO_TEST(QuantizedUnarySaturatesToTheType) {
  int8_t in[] = {-128, 0, 20, 100};
  int8_t out[4];
  TfLiteTensor tensors[] = {CreateQuantizedTensor(in, IntArrayFromInts(kDims), 0.5f, 0),
                            CreateQuantizedTensor(out, IntArrayFromInts(kDims), 0.5f, 0)};
  const TfLiteRegistration reg = {nullptr, nullptr, OffsetPrepare, OffsetInvoke};
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-28), out[0]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(100), out[1]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(120), out[2]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), out[3]);
  int16_t in16[] = {-32768, 0, 32700, 5};
  int16_t out16[4];
  TfLiteTensor tensors16[] = {CreateQuantizedTensor(in16, IntArrayFromInts(kDims), 0.5f, 0),
                              CreateQuantizedTensor(out16, IntArrayFromInts(kDims), 0.5f, 0)};
  KernelRunner runner16(reg, tensors16, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner16.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner16.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(-32668), out16[0]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(32767), out16[2]);
  float fin[] = {1.0f, 2.0f, 3.0f, 4.0f};
  float fout[4];
  TfLiteTensor ftensors[] = {CreateTensor(fin, IntArrayFromInts(kDims)), CreateTensor(fout, IntArrayFromInts(kDims))};
  KernelRunner frunner(reg, ftensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, frunner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, frunner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(4.5f, fout[3]);
}

// int8 with the fixed output quantization 1/256, zero point -128: the table
// holds quantize(2 * dequantize(q)).
TF_LITE_MICRO_TEST(Int8TableOpUsesTheTable) {
  int8_t in[] = {0, 10, -10, 127};
  int8_t out[4];
  TfLiteTensor tensors[] = {CreateQuantizedTensor(in, IntArrayFromInts(kDims), 1.0f / 512.0f, 0),
                            CreateQuantizedTensor(out, IntArrayFromInts(kDims), 1.0f / 256.0f, -128)};
  const TfLiteRegistration reg = {nullptr, nullptr, TablePrepare, TableInvoke};
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-128), out[0]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-118), out[1]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-128), out[2]);  // clamped
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-1), out[3]);
  // Another output quantization is refused.
  tensors[1].params.zero_point = 0;
  KernelRunner wrong(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, wrong.InitAndPrepare());
  int8_t table[256];
  BuildInt8Table(1.0f, 0, 1.0f, 0, Twice, table);
  int8_t x[] = {-100, 3, 70};
  int8_t y[3];
  ApplyInt8Table(table, x, y, 3);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-128), y[0]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(6), y[1]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), y[2]);
}

TF_LITE_MICRO_TESTS_END
