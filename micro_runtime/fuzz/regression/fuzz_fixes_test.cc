// Regression tests for bugs the model fuzzer found (micro_runtime/fuzz/
// FINDINGS.md): the arithmetic helpers that overflowed, and the smallest
// reproducers as embedded models, which must now end cleanly on every board
// (the fuzz build only checks the host, under sanitizers).
#include <stdint.h>

#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/fuzz/regression/models/add_int8_zero_point_overflow_model_data.h"
#include "micro_runtime/fuzz/regression/models/average_pool_zero_depth_huge_width_model_data.h"
#include "micro_runtime/fuzz/regression/models/constant_graph_input_written_model_data.h"
#include "micro_runtime/fuzz/regression/models/conv_dilation_row_stride_overflow_model_data.h"
#include "micro_runtime/fuzz/regression/models/conv_int8_multiplier_shift_out_of_range_model_data.h"
#include "micro_runtime/fuzz/regression/models/conv_out_size_overflow_model_data.h"
#include "micro_runtime/fuzz/regression/models/fully_connected_bias_accumulator_overflow_model_data.h"
#include "micro_runtime/kernels/padding.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

constexpr size_t kArenaSize = 8 * 1024;
alignas(16) uint8_t g_arena[kArenaSize];

struct Outcome {
  TfLiteStatus allocate;
  TfLiteStatus invoke;  // kTfLiteError when allocation failed
};

Outcome Run(const uint8_t* model, size_t size) {
  // The reproducers' ops only (ADD, AVERAGE_POOL_2D, CONV_2D, FULLY_CONNECTED), at the model ops' version
  // ranges: with every kernel of AllOpsResolver, or even all the model ops, this test does not fit
  // bluepill's 64 KB.
  static MicroMutableOpResolver<4> resolver;
  static const bool registered = [] {
    const struct {
      tflite::BuiltinOperator op;
      TfLiteRegistration (*registration)();
    } kOps[] = {{tflite::BuiltinOperator::ADD, Register_ADD},
                {tflite::BuiltinOperator::AVERAGE_POOL_2D, Register_AVERAGE_POOL_2D},
                {tflite::BuiltinOperator::CONV_2D, Register_CONV_2D},
                {tflite::BuiltinOperator::FULLY_CONNECTED, Register_FULLY_CONNECTED}};
    for (const auto& k : kOps) {
      for (const OpVersionRange& r : kModelOpRanges) {
        if (r.op == k.op) resolver.AddBuiltin(r.op, k.registration(), r.first_version, r.last_version);
      }
    }
    return true;
  }();
  (void)registered;
  MicroInterpreter interpreter(model, size, resolver, g_arena, kArenaSize);
  Outcome o = {interpreter.AllocateTensors(), kTfLiteError};
  if (o.allocate == kTfLiteOk) {
    for (size_t i = 0; i < interpreter.inputs_size(); ++i) {
      TfLiteTensor* t = interpreter.input(i);
      for (size_t b = 0; b < t->bytes; ++b) t->data.uint8[b] = static_cast<uint8_t>(b * 37u);
    }
    o.invoke = interpreter.Invoke();
  }
  MicroPrintf("  allocate %d, invoke %d", static_cast<int>(o.allocate), static_cast<int>(o.invoke));
  return o;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(QuantizeMultiplierSaturatesHugeRatios) {
  int32_t q = 0;
  int shift = 0;
  QuantizeMultiplier(1e38, &q, &shift);  // exponent 127: a shift of 32+ was UB
  TF_LITE_MICRO_EXPECT_EQ(30, shift);
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, q);
  const volatile double huge = 1e308;
  QuantizeMultiplier(huge * 10.0, &q, &shift);  // infinity (leaky_relu_infinite_scale_ratio): was UB
  TF_LITE_MICRO_EXPECT_EQ(30, shift);
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, q);
  const volatile double zero = 0.0;
  QuantizeMultiplier(zero / zero, &q, &shift);  // NaN: no multiplier
  TF_LITE_MICRO_EXPECT_EQ(0, shift);
  TF_LITE_MICRO_EXPECT_EQ(0, q);
  QuantizeMultiplier(0.75, &q, &shift);  // ordinary ratios unchanged
  TF_LITE_MICRO_EXPECT_EQ(0, shift);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int32_t>(1610612736), q);
}

TF_LITE_MICRO_TEST(MultiplyByQuantizedMultiplierSaturates) {
  // +-1 * ~1.0 * 2^30 saturates, leaving room to add a zero point.
  TF_LITE_MICRO_EXPECT_EQ(kMaxRequantized, MultiplyByQuantizedMultiplier(1, INT32_MAX, 30));
  TF_LITE_MICRO_EXPECT_EQ(-kMaxRequantized, MultiplyByQuantizedMultiplier(-1, INT32_MAX, 30));
  TF_LITE_MICRO_EXPECT_EQ(100, MultiplyByQuantizedMultiplier(200, 1073741824, 0));  // 200 * 0.5
}

TF_LITE_MICRO_TEST(WindowSizesDoNotOverflow) {
  // filter 2^30 with dilation 4 overflowed (filter - 1) * dilation + 1.
  TF_LITE_MICRO_EXPECT_EQ(0, ComputeOutSize(kTfLitePaddingValid, 100, 1 << 30, 1, 4));
  TF_LITE_MICRO_EXPECT_EQ(1, ComputeOutSize(kTfLitePaddingSame, 100, 3, INT32_MAX, 1));
  TF_LITE_MICRO_EXPECT_EQ(49, ComputeOutSize(kTfLitePaddingValid, 100, 3, 2, 1));
  int offset = -1;
  const int pad = ComputePadding(1, 1 << 20, 100, 1 << 20, 100, &offset);
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX / 2, pad);
  TF_LITE_MICRO_EXPECT_EQ(1, offset);
}

TF_LITE_MICRO_TEST(WrappingAddWraps) {
  TF_LITE_MICRO_EXPECT_EQ(INT32_MIN, WrappingAdd(INT32_MAX, 1));
  TF_LITE_MICRO_EXPECT_EQ(-100, WrappingAdd(-40, -60));
}

TF_LITE_MICRO_TEST(AddWithZeroPointOutsideInt8IsRejected) {
  const Outcome o = Run(g_add_int8_zero_point_overflow_model_data, g_add_int8_zero_point_overflow_model_data_size);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, o.allocate);
}

TF_LITE_MICRO_TEST(EmptyPoolingOutputReturnsAtOnce) {
  const uint32_t start = MicroTicks();
  const Outcome o = Run(g_average_pool_zero_depth_huge_width_model_data,
                        g_average_pool_zero_depth_huge_width_model_data_size);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, o.allocate);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, o.invoke);
  // It walked 62 M empty output positions before (minutes on a Cortex-M3).
  TF_LITE_MICRO_EXPECT_LT(MicroTicks() - start, MicroTicksPerSecond());
}

TF_LITE_MICRO_TEST(ConstantGraphInputIsRejected) {
  // The model lists its weights (constant: their bytes are in the model, flash on a board) as the graph's
  // input. Accepted, Run() wrote the input there: SIGSEGV on host (the model is const data), HardFault on
  // the target. Now AllocateTensors refuses it, so nothing writes.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(g_constant_graph_input_written_model_data,
                                            g_constant_graph_input_written_model_data_size).allocate);
}

TF_LITE_MICRO_TEST(HugeStrideOrDilationIsRejected) {
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(g_conv_dilation_row_stride_overflow_model_data,
                                            g_conv_dilation_row_stride_overflow_model_data_size).allocate);
}

// These only have to end cleanly: the status depends on details (e.g. the
// arena) that the fix does not decide.
TF_LITE_MICRO_TEST(OtherReproducersEndCleanly) {
  Run(g_conv_out_size_overflow_model_data, g_conv_out_size_overflow_model_data_size);
  Run(g_conv_int8_multiplier_shift_out_of_range_model_data,
      g_conv_int8_multiplier_shift_out_of_range_model_data_size);
  Run(g_fully_connected_bias_accumulator_overflow_model_data,
      g_fully_connected_bias_accumulator_overflow_model_data_size);
  TF_LITE_MICRO_EXPECT_TRUE(true);
}

TF_LITE_MICRO_TESTS_END
