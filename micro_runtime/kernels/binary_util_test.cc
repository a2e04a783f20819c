// numpy-style broadcasting and the shared binary-op prepare and invoke.
#include "micro_runtime/kernels/binary_util.h"

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

using namespace micro_runtime;

namespace {

struct DiffOpData {
  ArithmeticQuantParams common;
};

TfLiteStatus DiffPrepare(TfLiteContext* context, TfLiteNode* node) {
  ArithmeticQuantParams* q = nullptr;
  return PrepareArithmetic("DIFF", context, node, sizeof(DiffOpData), &q);
}

TfLiteStatus DiffInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalArithmetic<DiffOpData>(
      "DIFF", context, node, [](const DiffOpData&, int32_t a, int32_t b) { return a - b; },
      [](float a, float b) { return a - b; });
}

const int32_t kInputs[] = {2, 0, 1};
const int32_t kOutputs[] = {1, 2};

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(BroadcastPlanWalksRowMajor) {
  const int32_t a_dims[] = {2, 2, 1};
  const int32_t b_dims[] = {1, 3};
  const int32_t out_dims[] = {2, 2, 3};
  BroadcastPlan plan;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PlanBroadcast("TEST", IntArrayFromInts(a_dims), IntArrayFromInts(b_dims),
                                                   IntArrayFromInts(out_dims), &plan));
  TF_LITE_MICRO_EXPECT_FALSE(plan.same_shape);
  TF_LITE_MICRO_EXPECT_EQ(6, static_cast<int>(plan.count));
  int32_t i1[6];
  int32_t i2[6];
  int n = 0;
  ForEachBroadcast(plan, [&](int32_t o, int32_t a, int32_t b) {
    TF_LITE_MICRO_EXPECT_EQ(n, static_cast<int>(o));
    i1[n] = a;
    i2[n] = b;
    ++n;
  });
  TF_LITE_MICRO_EXPECT_EQ(6, n);
  const int32_t expected1[] = {0, 0, 0, 1, 1, 1};
  const int32_t expected2[] = {0, 1, 2, 0, 1, 2};
  for (int i = 0; i < 6; ++i) {
    TF_LITE_MICRO_EXPECT_EQ(expected1[i], i1[i]);
    TF_LITE_MICRO_EXPECT_EQ(expected2[i], i2[i]);
  }
  const int32_t same[] = {2, 2, 3};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PlanBroadcast("TEST", IntArrayFromInts(same), IntArrayFromInts(same),
                                                   IntArrayFromInts(same), &plan));
  TF_LITE_MICRO_EXPECT_TRUE(plan.same_shape);
  // Incompatible shapes, an output that is not the broadcast, more than 6 dimensions.
  const int32_t two[] = {1, 2};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PlanBroadcast("TEST", IntArrayFromInts(two), IntArrayFromInts(b_dims),
                                                      IntArrayFromInts(out_dims), &plan));
  const int32_t wrong_out[] = {2, 2, 2};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PlanBroadcast("TEST", IntArrayFromInts(a_dims), IntArrayFromInts(b_dims),
                                                      IntArrayFromInts(wrong_out), &plan));
  const int32_t seven[] = {7, 1, 1, 1, 1, 1, 1, 2};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PlanBroadcast("TEST", IntArrayFromInts(seven), IntArrayFromInts(two),
                                                      IntArrayFromInts(seven), &plan));
}

TF_LITE_MICRO_TEST(ArithmeticFloatAndInt8) {
  const int32_t a_dims[] = {2, 2, 2};
  const int32_t b_dims[] = {1, 2};
  float a[] = {1.0f, 2.0f, 3.0f, 4.0f};
  float b[] = {0.5f, 1.0f};
  float out[4];
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(a_dims)), CreateTensor(b, IntArrayFromInts(b_dims)),
                            CreateTensor(out, IntArrayFromInts(a_dims))};
  const TfLiteRegistration reg = {nullptr, nullptr, DiffPrepare, DiffInvoke};
  KernelRunner runner(reg, tensors, 3, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(0.5f, out[0]);
  TF_LITE_MICRO_EXPECT_EQ(3.0f, out[3]);
  // int8: (a - zp_a) - (b - zp_b) + zp_out, clamped to the type.
  int8_t qa[] = {10, 20, 120, -120};
  int8_t qb[] = {-5, 100};
  int8_t qout[4];
  TfLiteTensor qtensors[] = {CreateQuantizedTensor(qa, IntArrayFromInts(a_dims), 1.0f, 2),
                             CreateQuantizedTensor(qb, IntArrayFromInts(b_dims), 1.0f, -3),
                             CreateQuantizedTensor(qout, IntArrayFromInts(a_dims), 1.0f, 1)};
  KernelRunner qrunner(reg, qtensors, 3, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, qrunner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, qrunner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(8 - -2 + 1), qout[0]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(18 - 103 + 1), qout[1]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(118 - -2 + 1), qout[2]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-128), qout[3]);
  // int16 is not in the default type set.
  int16_t sa[4];
  int16_t sb[2];
  int16_t sout[4];
  TfLiteTensor stensors[] = {CreateQuantizedTensor(sa, IntArrayFromInts(a_dims), 1.0f, 0),
                             CreateQuantizedTensor(sb, IntArrayFromInts(b_dims), 1.0f, 0),
                             CreateQuantizedTensor(sout, IntArrayFromInts(a_dims), 1.0f, 0)};
  KernelRunner srunner(reg, stensors, 3, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, srunner.InitAndPrepare());
}

TF_LITE_MICRO_TEST(CommonScaleIsTwiceTheLargerInputScale) {
  CommonScale s;
  const double common = PrepareCommonScale(0.5f, 0.25f, 20, &s);
  TF_LITE_MICRO_EXPECT_EQ(1.0, common);
  TF_LITE_MICRO_EXPECT_EQ(20, s.left_shift);
  // 0.5 and 0.25 of the common scale: x * 2^20 * ratio.
  TF_LITE_MICRO_EXPECT_EQ(3 << 19, s.Input1(3));
  TF_LITE_MICRO_EXPECT_EQ(3 << 18, s.Input2(3));
  TF_LITE_MICRO_EXPECT_EQ(-(3 << 18), s.Input2(-3));
}

TF_LITE_MICRO_TESTS_END
