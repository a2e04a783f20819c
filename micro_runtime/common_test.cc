// The kernel API helpers of common.h and TfLiteTypeName (common.cc).
#include "micro_runtime/common.h"

#include "micro_runtime/micro_test.h"

namespace {

bool Same(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(TypeNames) {
  TF_LITE_MICRO_EXPECT(Same("FLOAT32", TfLiteTypeName(kTfLiteFloat32)));
  TF_LITE_MICRO_EXPECT(Same("INT8", TfLiteTypeName(kTfLiteInt8)));
  TF_LITE_MICRO_EXPECT(Same("INT16", TfLiteTypeName(kTfLiteInt16)));
  TF_LITE_MICRO_EXPECT(Same("INT32", TfLiteTypeName(kTfLiteInt32)));
  TF_LITE_MICRO_EXPECT(Same("UINT8", TfLiteTypeName(kTfLiteUInt8)));
  TF_LITE_MICRO_EXPECT(Same("BOOL", TfLiteTypeName(kTfLiteBool)));
  TF_LITE_MICRO_EXPECT(Same("NOTYPE", TfLiteTypeName(kTfLiteNoType)));
  TF_LITE_MICRO_EXPECT(Same("UNKNOWN", TfLiteTypeName(static_cast<TfLiteType>(42))));
}

TF_LITE_MICRO_TEST(TypeSizesAndElementCounts) {
  TF_LITE_MICRO_EXPECT_EQ(4u, TypeSize(kTfLiteFloat32));
  TF_LITE_MICRO_EXPECT_EQ(8u, TypeSize(kTfLiteInt64));
  TF_LITE_MICRO_EXPECT_EQ(1u, TypeSize(kTfLiteInt8));
  TF_LITE_MICRO_EXPECT_EQ(0u, TypeSize(kTfLiteString));
  // Layout of TfLiteIntArray: the size, then the elements.
  const int32_t shape[] = {3, 2, 5, 7};
  const TfLiteIntArray* dims = reinterpret_cast<const TfLiteIntArray*>(shape);
  TF_LITE_MICRO_EXPECT_EQ(70, ElementCount(dims));
  const int32_t scalar[] = {0};
  TF_LITE_MICRO_EXPECT_EQ(1, ElementCount(reinterpret_cast<const TfLiteIntArray*>(scalar)));
}

TF_LITE_MICRO_TEST(GetTensorChecksIndices) {
  TfLiteTensor tensors[2] = {};
  TfLiteContext context = {};
  context.tensors = tensors;
  context.tensors_size = 2;
  const int32_t inputs[] = {3, 1, -1, 2};  // tensor 1, absent optional, out of range
  const int32_t outputs[] = {1, 0};
  TfLiteNode node = {};
  node.inputs = reinterpret_cast<const TfLiteIntArray*>(inputs);
  node.outputs = reinterpret_cast<const TfLiteIntArray*>(outputs);
  TF_LITE_MICRO_EXPECT_EQ(&tensors[1], GetInput(&context, &node, 0));
  TF_LITE_MICRO_EXPECT(GetInput(&context, &node, 1) == nullptr);
  TF_LITE_MICRO_EXPECT(GetInput(&context, &node, 2) == nullptr);
  TF_LITE_MICRO_EXPECT(GetInput(&context, &node, 3) == nullptr);
  TF_LITE_MICRO_EXPECT_EQ(&tensors[0], GetOutput(&context, &node, 0));
  TF_LITE_MICRO_EXPECT_EQ(3, NumInputs(&node));
}

TF_LITE_MICRO_TESTS_END
