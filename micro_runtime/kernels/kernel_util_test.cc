// The node and tensor checks of kernel_util.h, and the test support they are
// tested with (KernelRunner, the tensor and quantization helpers).
#include "micro_runtime/kernels/kernel_util.h"

#include <string.h>

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

using namespace micro_runtime;

namespace {

// Records calls so the runner's call order and memory handling are checked.
int g_init_calls = 0;
int g_free_calls = 0;
void* ProbeInit(TfLiteContext* context, const char*, size_t length) {
  ++g_init_calls;
  int32_t* data = static_cast<int32_t*>(context->AllocatePersistentBuffer(context, sizeof(int32_t)));
  if (data != nullptr) *data = static_cast<int32_t>(length);
  return data;
}
void ProbeFree(TfLiteContext*, void*) { ++g_free_calls; }
TfLiteStatus ProbePrepare(TfLiteContext* context, TfLiteNode* node) {
  int index = -1;
  TF_LITE_ENSURE_OK(context, context->RequestScratchBufferInArena(context, 100, &index));
  TF_LITE_ENSURE_EQ(context, index, 0);
  return node->user_data != nullptr ? kTfLiteOk : kTfLiteError;
}
TfLiteStatus ProbeInvoke(TfLiteContext* context, TfLiteNode* node) {
  int32_t* scratch = static_cast<int32_t*>(context->GetScratchBuffer(context, 0));
  TF_LITE_ENSURE(context, scratch != nullptr);
  TF_LITE_ENSURE(context, context->GetScratchBuffer(context, 1) == nullptr);
  TfLiteTensor* in = GetInput(context, node, 0);
  TfLiteTensor* out = GetOutput(context, node, 0);
  out->data.i32[0] = in->data.i32[0] + *static_cast<int32_t*>(node->user_data);
  return kTfLiteOk;
}

void* GreedyInit(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, KERNEL_RUNNER_ARENA_SIZE + 1);
}
TfLiteStatus GreedyPrepare(TfLiteContext*, TfLiteNode* node) {
  return node->user_data != nullptr ? kTfLiteOk : kTfLiteError;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ShapesAndTypes) {
  const int32_t a_dims[] = {2, 2, 3};
  const int32_t b_dims[] = {2, 2, 3};
  const int32_t c_dims[] = {2, 3, 2};
  float a[6];
  float b[6];
  int8_t c[6];
  TfLiteTensor ta = CreateTensor(a, IntArrayFromInts(a_dims));
  TfLiteTensor tb = CreateTensor(b, IntArrayFromInts(b_dims));
  TfLiteTensor tc = CreateTensor(c, IntArrayFromInts(c_dims));
  TF_LITE_MICRO_EXPECT_TRUE(HaveSameShapes(&ta, &tb));
  TF_LITE_MICRO_EXPECT_FALSE(HaveSameShapes(&ta, &tc));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(24), ta.bytes);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(6), tc.bytes);
}

TF_LITE_MICRO_TEST(TestHelpersQuantize) {
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-5), Quantize(0.25f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), Quantize(100.0f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-128), Quantize(-100.0f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_NEAR(0.25f, Dequantize(-5, 0.05f, -10), 1e-6f);
  const int32_t dims[] = {2, 2, 2};
  const float values[] = {1.0f, -0.5f, 0.25f, -2.0f};
  int8_t q[4];
  float scales[3];
  TfLiteTensor t = CreatePerChannelQuantizedTensor(values, q, IntArrayFromInts(dims), scales, 0);
  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(t.params.scales->size));
  TF_LITE_MICRO_EXPECT_NEAR(1.0f / 127.0f, t.params.scales->data[0], 1e-9f);
  TF_LITE_MICRO_EXPECT_NEAR(2.0f / 127.0f, t.params.scales->data[1], 1e-9f);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), q[0]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-64), q[1]);  // -63.5 rounds away from zero
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(16), q[2]);   // 15.875
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-127), q[3]);
}

TF_LITE_MICRO_TEST(KernelRunnerDrivesAllFourCalls) {
  g_init_calls = 0;
  g_free_calls = 0;
  const int32_t dims[] = {1, 1};
  int32_t in_data[] = {40};
  int32_t out_data[] = {0};
  TfLiteTensor tensors[] = {CreateTensor(in_data, IntArrayFromInts(dims)),
                            CreateTensor(out_data, IntArrayFromInts(dims))};
  const int32_t inputs[] = {1, 0};
  const int32_t outputs[] = {1, 1};
  const TfLiteRegistration reg = {ProbeInit, ProbeFree, ProbePrepare, ProbeInvoke};
  const char custom[] = "ab";
  {
    KernelRunner runner(reg, tensors, 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        nullptr, custom, 2);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.Invoke());  // not prepared yet
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
    TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(16 + 112), runner.arena_used());
  }
  TF_LITE_MICRO_EXPECT_EQ(42, static_cast<int>(out_data[0]));
  TF_LITE_MICRO_EXPECT_EQ(1, g_init_calls);
  TF_LITE_MICRO_EXPECT_EQ(1, g_free_calls);
}

TF_LITE_MICRO_TEST(KernelRunnerReportsArenaExhaustion) {
  const int32_t dims[] = {1, 1};
  int32_t data[] = {0};
  TfLiteTensor tensors[] = {CreateTensor(data, IntArrayFromInts(dims))};
  const int32_t list[] = {1, 0};
  const TfLiteRegistration reg = {GreedyInit, nullptr, GreedyPrepare, nullptr};
  KernelRunner runner(reg, tensors, 1, IntArrayFromInts(list), IntArrayFromInts(list), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(0), runner.arena_used());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.Invoke());
}

TF_LITE_MICRO_TEST(BiasHelpersUseInputTimesWeightScale) {
  const int32_t dims[] = {1, 2};
  const float values[] = {1.0f, -0.3f};
  int32_t q[2];
  TfLiteTensor t = CreateQuantizedBiasTensor(values, q, IntArrayFromInts(dims), 0.5f, 0.01f);
  TF_LITE_MICRO_EXPECT_EQ(200, static_cast<int>(q[0]));   // 1 / 0.005
  TF_LITE_MICRO_EXPECT_EQ(-60, static_cast<int>(q[1]));   // -0.3 / 0.005
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteInt32, t.type);
  float scales[] = {2, 0.01f, 0.1f};
  const TfLiteFloatArray* weight_scales = FloatArrayFromFloats(scales);
  CreatePerChannelQuantizedBiasTensor(values, q, IntArrayFromInts(dims), 0.5f, weight_scales);
  TF_LITE_MICRO_EXPECT_EQ(200, static_cast<int>(q[0]));  // 1 / (0.5 * 0.01)
  TF_LITE_MICRO_EXPECT_EQ(-6, static_cast<int>(q[1]));   // -0.3 / (0.5 * 0.1)
}

TF_LITE_MICRO_TEST(NodeIoCountsAndMessages) {
  const int32_t dims[] = {1, 1};
  int32_t a[1];
  int32_t b[1];
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(dims)), CreateTensor(b, IntArrayFromInts(dims))};
  const int32_t inputs[] = {1, 0};
  const int32_t outputs[] = {1, 1};
  const TfLiteRegistration reg = {nullptr, nullptr, nullptr, nullptr};
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckNodeIo("TEST", runner.context(), runner.node(), 1, 1, 1));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckNodeIo("TEST", runner.context(), runner.node(), 0, 2, 1));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckNodeIo("TEST", runner.context(), runner.node(), 2, 2, 1));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckNodeIo("TEST", runner.context(), runner.node(), 1, 1, 2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, ReportUnsupportedType("TEST", kTfLiteInt64, "float32"));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, ReportMissingOpData("TEST"));
  TF_LITE_MICRO_EXPECT(NodeOpData("TEST", runner.context(), runner.node(), 8) != nullptr);
  void* first = runner.node()->user_data;
  TF_LITE_MICRO_EXPECT(NodeOpData("TEST", runner.context(), runner.node(), 8) == first);  // allocated once
  TF_LITE_MICRO_EXPECT(AllocateOpData("TEST", runner.context(), KERNEL_RUNNER_ARENA_SIZE + 1) == nullptr);
}

TF_LITE_MICRO_TEST(TypeSetsRanksAndConstants) {
  TF_LITE_MICRO_EXPECT_TRUE(InTypeSet(kTfLiteInt8, kTypeFloat32 | kTypeInt8));
  TF_LITE_MICRO_EXPECT_FALSE(InTypeSet(kTfLiteInt16, kTypeFloat32 | kTypeInt8));
  const int32_t dims3[] = {3, 2, 1, 3};
  const int32_t dims2[] = {2, 2, 3};
  int32_t values[6] = {1, 2, 3, 4, 5, 6};
  int8_t q[6];
  TfLiteTensor t3 = CreateTensor(values, IntArrayFromInts(dims3), true);
  TfLiteTensor t2 = CreateTensor(values, IntArrayFromInts(dims2));
  TfLiteTensor tq = CreateQuantizedTensor(q, IntArrayFromInts(dims2), 0.5f, 1);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckRank("TEST", "input", &t3, 3));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckRank("TEST", "input", &t3, 2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckSameElementCount("TEST", &t3, &t2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckSameShape("TEST", &t3, &t2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckSameType("TEST", &t2, &tq));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckDataType("TEST", &t2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckQuantized("TEST", "input", &tq));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckSameQuantization("TEST", &tq, &tq));
  TfLiteTensor other = tq;
  other.params.zero_point = 2;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckSameQuantization("TEST", &tq, &other));
  const int32_t expected[] = {2, 1, 3};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckOutputShape("TEST", &t3, expected, 3));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckOutputShape("TEST", &t2, expected, 3));
  int32_t count = 0;
  TF_LITE_MICRO_EXPECT(ConstantInt32Data("TEST", "perm", &t3, -1, &count) == values);
  TF_LITE_MICRO_EXPECT_EQ(6, static_cast<int>(count));
  TF_LITE_MICRO_EXPECT(ConstantInt32Data("TEST", "perm", &t3, 5) == nullptr);  // wrong count
  TF_LITE_MICRO_EXPECT(ConstantInt32Data("TEST", "perm", &t2, 6) == nullptr);  // not constant
  char text[16];
  FormatDims(expected, 3, text, sizeof(text));
  TF_LITE_MICRO_EXPECT_EQ(0, strcmp("[2,1,3]", text));
  FormatShape(t2.dims, text, 4);  // truncated
  TF_LITE_MICRO_EXPECT_EQ(0, strcmp("[2,", text));
  const int64_t words[2] = {-5, int64_t{1} << 40};
  TF_LITE_MICRO_EXPECT(LoadInt64(words, 1) == (int64_t{1} << 40));
}

TF_LITE_MICRO_TESTS_END
