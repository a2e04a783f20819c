// SVDF kernel tests: hand-computed sequences of invocations (the state is
// carried from one Invoke() to the next: each filter keeps its last M feature
// values, oldest first), float32 and TFLM's integer arithmetic (int8 input,
// int16 or int8 weights_time and state), plus the refusals of prepare.
//
// The float case, I = 2 inputs, units = 2, rank 1 (F = 2 filters), M = 3:
//   weights_feature = [[1, 2], [0.5, -1]]   weights_time = [[1, 2, 3], [-1, 0.5, 2]]   bias = [0.5, -0.5]
//   input [1, 1]:  features (3, -0.5)  memories [0 0 3] [0 0 -0.5]  out = 0.5 + 3*3, -0.5 + 2*-0.5
//   input [2, -1]: features (0, 2)     memories [0 3 0] [0 -0.5 2]  out = 0.5 + 2*3, -0.5 - 0.25 + 4
//   input [0, 1]:  features (2, -1)    memories [3 0 2] [-0.5 2 -1] out = 0.5 + 3 + 6, -0.5 + 0.5 + 1 - 2
//   input [0, 0]:  features (0, 0)     memories [0 2 0] [2 -1 0]    out = 0.5 + 4, -0.5 - 2 - 0.5
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_compare.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kInputs[] = {5, 0, 1, 2, 3, 4};
const int32_t kInputsNoBias[] = {5, 0, 1, 2, -1, 4};
const int32_t kOutputs[] = {1, 5};

// Tensors 0..5: input, weights_feature, weights_time, bias, state, output.
struct Svdf {
  TfLiteTensor tensors[6];
  TfLiteSVDFParams params;
};

// The float model of the top comment (rank 1) or the same weights as one unit of rank 2 (bias [0.5]).
float g_input[4];
float g_weights_feature[] = {1, 2, 0.5f, -1};
float g_weights_time[] = {1, 2, 3, -1, 0.5f, 2};
float g_bias[] = {0.5f, -0.5f};
float g_state[12];
float g_output[4];

Svdf FloatSvdf(int batches, int rank, TfLiteFusedActivation activation) {
  static int32_t input_dims[3];
  static int32_t state_dims[3];
  static int32_t output_dims[3];
  static int32_t bias_dims[2];
  static const int32_t wf_dims[] = {2, 2, 2};
  static const int32_t wt_dims[] = {2, 2, 3};
  const int units = 2 / rank;
  input_dims[0] = 2, input_dims[1] = batches, input_dims[2] = 2;
  state_dims[0] = 2, state_dims[1] = batches, state_dims[2] = 6;
  output_dims[0] = 2, output_dims[1] = batches, output_dims[2] = units;
  bias_dims[0] = 1, bias_dims[1] = units;
  for (float& s : g_state) s = 0.0f;
  Svdf m = {{CreateTensor(g_input, IntArrayFromInts(input_dims)),
             CreateTensor(g_weights_feature, IntArrayFromInts(wf_dims), true),
             CreateTensor(g_weights_time, IntArrayFromInts(wt_dims), true),
             CreateTensor(g_bias, IntArrayFromInts(bias_dims), true),
             CreateTensor(g_state, IntArrayFromInts(state_dims)),
             CreateTensor(g_output, IntArrayFromInts(output_dims))},
            {rank, activation, false}};
  return m;
}

// Sets the input, invokes and compares the output (exactly: every value is a
// short sum of products of binary fractions).
void ExpectStep(KernelRunner& runner, const float* input, int input_count, const float* expected, int count) {
  for (int i = 0; i < input_count; ++i) g_input[i] = input[i];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectFloatsNear(expected, g_output, count, 0.0f, 0.0f);
}

// ---- int8: input scale 0.5 zero point -1, weights_feature scale 0.25 ->
// state scale 0.125 (feature ratio 1: state = the dot product); weights_time
// scale 0.5, bias scale 0.0625, output scale 0.25 zero point 3 (ratio 1/4).
//   weights_feature [[4, 8], [-2, 6]], weights_time [[3, 1], [2, -4]] (M = 2), bias [8, -16]
//   input [3, -1] (minus zero point: 4, 0): features 16, -8; time 16, 32; acc 24, 16 -> 6 + 3, 4 + 3
//   input [-1, 1] (0, 2): features 16, 12; memories [16 16] [-8 12]; time 64, -64; acc 72, -80 -> 21, -17
//   input [1, 0] (2, 1): features 16, 2; memories [16 16] [12 2]; time 64, 16; acc 72, 0 -> 21, 3
int8_t g_q_input[2];
int8_t g_q_weights_feature[] = {4, 8, -2, 6};
int16_t g_q_weights_time16[] = {3, 1, 2, -4};
int8_t g_q_weights_time8[] = {3, 1, 2, -4};
int32_t g_q_bias[] = {8, -16};
int16_t g_q_state16[4];
int8_t g_q_state8[4];
int8_t g_q_output[2];

Svdf Int8Svdf(bool int8_state, int32_t state_zero_point) {
  static const int32_t input_dims[] = {2, 1, 2};
  static const int32_t wf_dims[] = {2, 2, 2};
  static const int32_t wt_dims[] = {2, 2, 2};
  static const int32_t bias_dims[] = {1, 2};
  static const int32_t state_dims[] = {2, 1, 4};
  static const int32_t output_dims[] = {2, 1, 2};
  for (int16_t& s : g_q_state16) s = 0;
  for (int8_t& s : g_q_state8) s = static_cast<int8_t>(state_zero_point);  // real 0, as the interpreter starts it
  TfLiteTensor bias = CreateTensor(g_q_bias, IntArrayFromInts(bias_dims), true);
  bias.params.scale = 0.0625f;
  const TfLiteIntArray* wt = IntArrayFromInts(wt_dims);
  const TfLiteIntArray* state = IntArrayFromInts(state_dims);
  Svdf m = {{CreateQuantizedTensor(g_q_input, IntArrayFromInts(input_dims), 0.5f, -1),
             CreateQuantizedTensor(g_q_weights_feature, IntArrayFromInts(wf_dims), 0.25f, 0, true),
             int8_state ? CreateQuantizedTensor(g_q_weights_time8, wt, 0.5f, 0, true)
                        : CreateQuantizedTensor(g_q_weights_time16, wt, 0.5f, 0, true),
             bias,
             int8_state ? CreateQuantizedTensor(g_q_state8, state, 0.125f, state_zero_point)
                        : CreateQuantizedTensor(g_q_state16, state, 0.125f, state_zero_point),
             CreateQuantizedTensor(g_q_output, IntArrayFromInts(output_dims), 0.25f, 3)},
            {1, kTfLiteActNone, false}};
  return m;
}

void ExpectInt8Step(KernelRunner& runner, int8_t in0, int8_t in1, int8_t out0, int8_t out1) {
  g_q_input[0] = in0;
  g_q_input[1] = in1;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(out0, g_q_output[0]);
  TF_LITE_MICRO_EXPECT_EQ(out1, g_q_output[1]);
}

// The int8 sequence of the top comment; an int8 state at zero point 2 stores values 2 higher and its time sums
// subtract it again.
void ExpectInt8Sequence(KernelRunner& runner) {
  ExpectInt8Step(runner, 3, -1, 9, 7);
  ExpectInt8Step(runner, -1, 1, 21, -17);
  ExpectInt8Step(runner, 1, 0, 21, 3);
}

// Prepares SVDF on m's tensors, then calls steps(runner): the invocations of a sequence on one runner.
template <typename Steps>
void RunSequence(Svdf& m, Steps steps, const int32_t* inputs = kInputs) {
  KernelRunner runner(Register_SVDF(), m.tensors, 6, IntArrayFromInts(inputs), IntArrayFromInts(kOutputs),
                      &m.params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  steps(runner);
}

TfLiteStatus Prepare(Svdf& m, const int32_t* inputs = kInputs) {
  KernelRunner runner(Register_SVDF(), m.tensors, 6, IntArrayFromInts(inputs), IntArrayFromInts(kOutputs),
                      &m.params);
  return runner.InitAndPrepare();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatSequenceCarriesTheState) {
  Svdf m = FloatSvdf(1, 1, kTfLiteActNone);
  RunSequence(m, [](KernelRunner& runner) {
    const float in1[] = {1, 1}, out1[] = {9.5f, -1.5f};
    const float in2[] = {2, -1}, out2[] = {6.5f, 3.25f};
    const float in3[] = {0, 1}, out3[] = {9.5f, -1.0f};
    const float in4[] = {0, 0}, out4[] = {4.5f, -3.0f};
    ExpectStep(runner, in1, 2, out1, 2);
    ExpectStep(runner, in2, 2, out2, 2);
    ExpectStep(runner, in3, 2, out3, 2);
    ExpectStep(runner, in4, 2, out4, 2);
  });
  // The state holds each filter's memory, oldest first.
  const float state[] = {0, 2, 0, 2, -1, 0};
  ExpectFloatsNear(state, g_state, 6, 0.0f, 0.0f);
}

TF_LITE_MICRO_TEST(FloatRelu) {
  Svdf m = FloatSvdf(1, 1, kTfLiteActRelu);
  RunSequence(m, [](KernelRunner& runner) {
    const float in1[] = {1, 1}, out1[] = {9.5f, 0.0f};
    const float in2[] = {2, -1}, out2[] = {6.5f, 3.25f};
    ExpectStep(runner, in1, 2, out1, 2);
    ExpectStep(runner, in2, 2, out2, 2);
  });
}

TF_LITE_MICRO_TEST(FloatRankTwoSumsTheUnitsFilters) {
  Svdf m = FloatSvdf(1, 2, kTfLiteActNone);  // one unit: bias[0] + both filters
  RunSequence(m, [](KernelRunner& runner) {
    const float in1[] = {1, 1}, out1[] = {0.5f + 9.0f - 1.0f};
    const float in2[] = {2, -1}, out2[] = {0.5f + 6.0f - 0.25f + 4.0f};
    ExpectStep(runner, in1, 2, out1, 1);
    ExpectStep(runner, in2, 2, out2, 1);
  });
}

TF_LITE_MICRO_TEST(FloatBatchesKeepTheirOwnState) {
  Svdf m = FloatSvdf(2, 1, kTfLiteActNone);
  RunSequence(m, [](KernelRunner& runner) {
    // Batch 1 starts with the second input of the sequence: features (0, 2), out 0.5 + 0, -0.5 + 2*2.
    const float in1[] = {1, 1, 2, -1}, out1[] = {9.5f, -1.5f, 0.5f, 3.5f};
    // Batch 0 continues the sequence; batch 1 gets [0, 1]: features (2, -1), memories [0 0 2] [0 2 -1].
    const float in2[] = {2, -1, 0, 1}, out2[] = {6.5f, 3.25f, 0.5f + 6.0f, -0.5f + 1.0f - 2.0f};
    ExpectStep(runner, in1, 4, out1, 4);
    ExpectStep(runner, in2, 4, out2, 4);
  });
}

TF_LITE_MICRO_TEST(FloatWithoutBias) {
  Svdf m = FloatSvdf(1, 1, kTfLiteActNone);
  RunSequence(
      m,
      [](KernelRunner& runner) {
        const float in1[] = {1, 1}, out1[] = {9.0f, -1.0f};
        ExpectStep(runner, in1, 2, out1, 2);
      },
      kInputsNoBias);
}

TF_LITE_MICRO_TEST(Int8WithInt16State) {
  Svdf m = Int8Svdf(false, 0);
  RunSequence(m, ExpectInt8Sequence);
  const int16_t state[] = {16, 16, 12, 2};
  ExpectIntsNear(state, g_q_state16, 4);
}

TF_LITE_MICRO_TEST(Int8WithInt8StateAndZeroPoint) {
  Svdf m = Int8Svdf(true, 2);
  RunSequence(m, ExpectInt8Sequence);
  const int8_t state[] = {18, 18, 14, 4};
  ExpectIntsNear(state, g_q_state8, 4);
}

TF_LITE_MICRO_TEST(Int8FeatureSaturatesToTheStateType) {
  // input [127, 127] (128 each above the zero point): feature 0 = 4*128 + 8*128 = 1536 fits int16 but
  // not int8 (127, stored at zero point 0); the output's 32-bit sum then saturates the int8 output.
  Svdf m8 = Int8Svdf(true, 0);
  // features: 1536 -> 127; -2*128 + 6*128 = 512 -> 127. time: 1*127, -4*127; acc 8 + 127 = 135 -> 34
  // (33.75) + 3; -16 - 508 = -524 -> -131 + 3 -> -128.
  RunSequence(m8, [](KernelRunner& runner) { ExpectInt8Step(runner, 127, 127, 37, -128); });
  Svdf m16 = Int8Svdf(false, 0);
  // int16 state keeps 1536 and 512: acc 8 + 1536 = 1544 -> 386 + 3 -> 127; -16 - 2048 -> -516 + 3 -> -128.
  RunSequence(m16, [](KernelRunner& runner) { ExpectInt8Step(runner, 127, 127, 127, -128); });
}

TF_LITE_MICRO_TEST(HybridModelsAreRefused) {
  Svdf m = FloatSvdf(1, 1, kTfLiteActNone);
  int8_t weights[4] = {1, 2, 3, 4};
  static const int32_t wf_dims[] = {2, 2, 2};
  m.tensors[1] = CreateQuantizedTensor(weights, IntArrayFromInts(wf_dims), 0.1f, 0, true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
}

TF_LITE_MICRO_TEST(BadModelsAreRefused) {
  {  // rank 3 does not divide 2 filters
    Svdf m = FloatSvdf(1, 1, kTfLiteActNone);
    m.params.rank = 3;
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
  }
  {  // a constant state
    Svdf m = FloatSvdf(1, 1, kTfLiteActNone);
    m.tensors[4].is_constant = true;
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
  }
  {  // a state of the wrong size
    Svdf m = FloatSvdf(1, 1, kTfLiteActNone);
    static const int32_t dims[] = {2, 1, 5};
    m.tensors[4].dims = IntArrayFromInts(dims);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
  }
  {  // tanh is not a supported float activation
    Svdf m = FloatSvdf(1, 1, kTfLiteActTanh);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
  }
  {  // int16 weights_time with an int8 state
    Svdf m = Int8Svdf(false, 0);
    static const int32_t dims[] = {2, 1, 4};
    m.tensors[4] = CreateQuantizedTensor(g_q_state8, IntArrayFromInts(dims), 0.125f, 0);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
  }
  {  // bias scale other than state scale x weights_time scale
    Svdf m = Int8Svdf(false, 0);
    m.tensors[3].params.scale = 0.07f;
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
  }
  {  // asymmetric weights
    Svdf m = Int8Svdf(false, 0);
    m.tensors[1].params.zero_point = 1;
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Prepare(m));
  }
  {  // the well-formed model prepares
    Svdf m = Int8Svdf(false, 0);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Prepare(m));
  }
}

TF_LITE_MICRO_TESTS_END
