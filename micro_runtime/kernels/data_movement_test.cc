// The byte-moving kernels' shared prepare and invoke (copy, stacking,
// splitting), driven through small registrations made of them.
#include "micro_runtime/kernels/data_movement.h"

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

TfLiteStatus CopyPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareCopy("COPY", context, node, 1, 1);
}

TfLiteStatus PackPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareStacking("PACK", context, node, true, 1, 2);
}

TfLiteStatus PackInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalStacking("PACK", context, node, true);
}

TfLiteStatus UnpackPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareStacking("UNPACK", context, node, false, -1, 2);
}

TfLiteStatus UnpackInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalStacking("UNPACK", context, node, false);
}

const int32_t kSizes[] = {1, -1};

TfLiteStatus SplitPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareSplit("SPLIT_V", context, node, 0, 1, 2, kSizes);
}

TfLiteStatus SplitInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalSplit("SPLIT_V", context, node, 0);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(CopyMovesTheBytesOfAnyShape) {
  const int32_t in_dims[] = {2, 2, 3};
  const int32_t out_dims[] = {1, 6};
  const int32_t bad_dims[] = {1, 5};
  int16_t in[] = {1, 2, 3, 4, 5, 6};
  int16_t out[6] = {0, 0, 0, 0, 0, 0};
  TfLiteTensor tensors[] = {CreateTensor(in, IntArrayFromInts(in_dims)), CreateTensor(out, IntArrayFromInts(out_dims))};
  const int32_t inputs[] = {1, 0};
  const int32_t outputs[] = {1, 1};
  const TfLiteRegistration reg = {nullptr, nullptr, CopyPrepare, micro_runtime::EvalCopy};
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(in[i], out[i]);
  tensors[1] = CreateTensor(out, IntArrayFromInts(bad_dims));
  KernelRunner bad(reg, tensors, 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, bad.InitAndPrepare());  // 6 elements into 5
}

// PACK of two [2] tensors along axis 1 gives [2, 2] interleaved; UNPACK
// along the last axis takes it apart again.
TF_LITE_MICRO_TEST(StackingPacksAndUnpacks) {
  const int32_t part_dims[] = {1, 2};
  const int32_t whole_dims[] = {2, 2, 2};
  int32_t a[] = {1, 2};
  int32_t b[] = {3, 4};
  int32_t whole[4];
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(part_dims)), CreateTensor(b, IntArrayFromInts(part_dims)),
                            CreateTensor(whole, IntArrayFromInts(whole_dims))};
  const int32_t pack_in[] = {2, 0, 1};
  const int32_t pack_out[] = {1, 2};
  const TfLiteRegistration pack = {nullptr, nullptr, PackPrepare, PackInvoke};
  KernelRunner packer(pack, tensors, 3, IntArrayFromInts(pack_in), IntArrayFromInts(pack_out), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, packer.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, packer.Invoke());
  const int32_t expected[] = {1, 3, 2, 4};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], whole[i]);
  a[0] = a[1] = b[0] = b[1] = 0;
  const int32_t unpack_in[] = {1, 2};
  const int32_t unpack_out[] = {2, 0, 1};
  const TfLiteRegistration unpack = {nullptr, nullptr, UnpackPrepare, UnpackInvoke};
  KernelRunner unpacker(unpack, tensors, 3, IntArrayFromInts(unpack_in), IntArrayFromInts(unpack_out), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, unpacker.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, unpacker.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(1, static_cast<int>(a[0]));
  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(a[1]));
  TF_LITE_MICRO_EXPECT_EQ(3, static_cast<int>(b[0]));
  TF_LITE_MICRO_EXPECT_EQ(4, static_cast<int>(b[1]));
}

// SPLIT_V of a [2, 3] input along axis 1 into sizes {1, -1}: [2, 1] and [2, 2].
TF_LITE_MICRO_TEST(SplitCutsAlongTheAxis) {
  const int32_t in_dims[] = {2, 2, 3};
  const int32_t first_dims[] = {2, 2, 1};
  const int32_t second_dims[] = {2, 2, 2};
  float in[] = {1, 2, 3, 4, 5, 6};
  float first[2];
  float second[4];
  TfLiteTensor tensors[] = {CreateTensor(in, IntArrayFromInts(in_dims)),
                            CreateTensor(first, IntArrayFromInts(first_dims)),
                            CreateTensor(second, IntArrayFromInts(second_dims))};
  const int32_t inputs[] = {1, 0};
  const int32_t outputs[] = {2, 1, 2};
  const TfLiteRegistration reg = {nullptr, nullptr, SplitPrepare, SplitInvoke};
  KernelRunner runner(reg, tensors, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(1.0f, first[0]);
  TF_LITE_MICRO_EXPECT_EQ(4.0f, first[1]);
  const float expected[] = {2, 3, 5, 6};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], second[i]);
  // An output of the wrong shape is refused.
  tensors[2] = CreateTensor(second, IntArrayFromInts(first_dims));
  KernelRunner bad(reg, tensors, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, bad.InitAndPrepare());
}

TF_LITE_MICRO_TESTS_END
