// UNIDIRECTIONAL_SEQUENCE_LSTM kernel tests: small LSTMs whose outputs are
// worked out by hand in the comments (TFLM's integer steps for int8 and int16:
// its sigmoid/tanh table interpolation and requantization), a float32
// reference written gate by gate in double, the state carried from one
// Invoke to the next, time-major layout, cell clipping and the variants the
// kernel refuses; and random int8 and int16 LSTMs against TFLM's outputs
// (testdata/unidirectional_sequence_lstm_cases.h, from
// micro_runtime/testing/gen_lstm_cases.py). TFLM's own models run bit-exact in
// tests/test_tflm_lstm_models.py and random single-op models in the
// differential tests.
#include <math.h>
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/unidirectional_sequence_lstm_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// Tensors of the test node: 0 input, 1-4 input weights (input, forget, cell,
// output gate), 5-8 recurrent weights, 9-12 biases, 13 hidden state, 14 cell
// state, 15 output, 16 a spare tensor for the optional inputs the kernel refuses.
constexpr int kTensors = 17;
constexpr int kSpare = 16;

// The node's 24 inputs; `extra` >= 0 puts the spare tensor at that input, and
// `drop` >= 0 removes an input (-1); `count` < 24 shortens the list.
const TfLiteIntArray* NodeInputs(int extra = -1, int drop = -1, int count = 24) {
  static int32_t ins[25];
  const int32_t base[25] = {24, 0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, 9, 10, 11, 12, -1, -1, 13, 14, -1, -1, -1, -1};
  memcpy(ins, base, sizeof(ins));
  if (extra >= 0) ins[1 + extra] = kSpare;
  if (drop >= 0) ins[1 + drop] = -1;
  ins[0] = count;
  return IntArrayFromInts(ins);
}

const TfLiteIntArray* NodeOutputs() {
  static int32_t outs[] = {1, 15};
  return IntArrayFromInts(outs);
}

TfLiteUnidirectionalSequenceLSTMParams Params(float cell_clip = 0.0f, bool time_major = false) {
  TfLiteUnidirectionalSequenceLSTMParams p;
  p.activation = kTfLiteActTanh;
  p.cell_clip = cell_clip;
  p.proj_clip = 0.0f;
  p.time_major = time_major;
  p.asymmetric_quantize_inputs = false;
  p.diagonal_recurrent_tensors = false;
  return p;
}

// Shapes of an LSTM with `batches` sequences of `steps` steps of `features`
// inputs and `units` units; storage for the dims arrays.
struct Dims {
  int32_t input[4];
  int32_t input_weights[3];
  int32_t recurrent_weights[3];
  int32_t bias[2];
  int32_t state[3];
  int32_t output[4];
  Dims(int batches, int steps, int features, int units, bool time_major = false) {
    const int32_t d0 = time_major ? steps : batches;
    const int32_t d1 = time_major ? batches : steps;
    const int32_t in[4] = {3, d0, d1, features};
    const int32_t iw[3] = {2, units, features};
    const int32_t rw[3] = {2, units, units};
    const int32_t b[2] = {1, units};
    const int32_t st[3] = {2, batches, units};
    const int32_t out[4] = {3, d0, d1, units};
    memcpy(input, in, sizeof(in));
    memcpy(input_weights, iw, sizeof(iw));
    memcpy(recurrent_weights, rw, sizeof(rw));
    memcpy(bias, b, sizeof(b));
    memcpy(state, st, sizeof(st));
    memcpy(output, out, sizeof(out));
  }
};

// ---- float32 ----

struct FloatLstm {
  const float* input;
  const float* input_weights[4];
  const float* recurrent_weights[4];
  const float* bias[4];
  float* hidden;
  float* cell;
  float* output;
};

void MakeFloatTensors(const FloatLstm& m, Dims& d, TfLiteTensor* t) {
  t[0] = CreateTensor(const_cast<float*>(m.input), IntArrayFromInts(d.input));
  for (int k = 0; k < 4; ++k) {
    t[1 + k] = CreateTensor(const_cast<float*>(m.input_weights[k]), IntArrayFromInts(d.input_weights), true);
    t[5 + k] = CreateTensor(const_cast<float*>(m.recurrent_weights[k]), IntArrayFromInts(d.recurrent_weights), true);
    t[9 + k] = CreateTensor(const_cast<float*>(m.bias[k]), IntArrayFromInts(d.bias), true);
  }
  t[13] = CreateTensor(m.hidden, IntArrayFromInts(d.state));
  t[14] = CreateTensor(m.cell, IntArrayFromInts(d.state));
  t[15] = CreateTensor(m.output, IntArrayFromInts(d.output));
  t[16] = CreateTensor(const_cast<float*>(m.bias[0]), IntArrayFromInts(d.bias), true);
}

// Prepares and invokes `invokes` times (the state carries over).
TfLiteStatus RunFloat(const FloatLstm& m, Dims& d, const TfLiteUnidirectionalSequenceLSTMParams& params,
                      int invokes = 1, const TfLiteIntArray* inputs = nullptr) {
  TfLiteTensor t[kTensors];
  MakeFloatTensors(m, d, t);
  KernelRunner runner(Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), t, kTensors, inputs ? inputs : NodeInputs(),
                      NodeOutputs(), &params);
  TF_LITE_ENSURE_OK(nullptr, runner.InitAndPrepare());
  for (int i = 0; i < invokes; ++i) TF_LITE_ENSURE_OK(nullptr, runner.Invoke());
  return kTfLiteOk;
}

// The LSTM's definition, gate by gate in double precision.
void ReferenceLstm(const FloatLstm& m, int batches, int steps, int features, int units, bool time_major, float clip,
                   double* hidden, double* cell, double* output) {
  for (int b = 0; b < batches; ++b) {
    for (int t = 0; t < steps; ++t) {
      const int row = time_major ? t * batches + b : b * steps + t;
      double gate[4][8];
      for (int k = 0; k < 4; ++k) {
        for (int u = 0; u < units; ++u) {
          double v = m.bias[k][u];
          for (int i = 0; i < features; ++i) v += m.input[row * features + i] * m.input_weights[k][u * features + i];
          for (int j = 0; j < units; ++j) v += hidden[b * units + j] * m.recurrent_weights[k][u * units + j];
          gate[k][u] = k == 2 ? tanh(v) : 1.0 / (1.0 + exp(-v));
        }
      }
      for (int u = 0; u < units; ++u) {
        double c = gate[1][u] * cell[b * units + u] + gate[0][u] * gate[2][u];
        if (clip > 0) c = c > clip ? clip : (c < -clip ? -clip : c);
        cell[b * units + u] = c;
        output[row * units + u] = gate[3][u] * tanh(c);
      }
      for (int u = 0; u < units; ++u) hidden[b * units + u] = output[row * units + u];
    }
  }
}

// A float LSTM with 2 sequences of 3 steps, 2 features, 3 units and weights
// from TestRandom in [-1, 1].
struct RandomFloatLstm {
  static constexpr int kBatches = 2, kSteps = 3, kFeatures = 2, kUnits = 3;
  float input[kBatches * kSteps * kFeatures];
  float w_in[4][kUnits * kFeatures];
  float w_rec[4][kUnits * kUnits];
  float bias[4][kUnits];
  float hidden[kBatches * kUnits];
  float cell[kBatches * kUnits];
  float output[kBatches * kSteps * kUnits];

  explicit RandomFloatLstm(uint32_t seed) {
    TestRandom random(seed);
    auto next = [&random]() { return random.Next(-1000, 1000) / 1000.0f; };
    for (float& v : input) v = next();
    for (int k = 0; k < 4; ++k) {
      for (float& v : w_in[k]) v = next();
      for (float& v : w_rec[k]) v = next();
      for (float& v : bias[k]) v = next();
    }
    memset(hidden, 0, sizeof(hidden));
    memset(cell, 0, sizeof(cell));
    memset(output, 0, sizeof(output));
  }
  FloatLstm Model(const float* in) {
    return {in, {w_in[0], w_in[1], w_in[2], w_in[3]}, {w_rec[0], w_rec[1], w_rec[2], w_rec[3]},
            {bias[0], bias[1], bias[2], bias[3]}, hidden, cell, output};
  }
};

// ---- int8 / int16 ----

// The hand-computed integer LSTM: 1 unit, 1 feature, 2 steps, input 0.125
// at both steps (scale 1/128), hidden state and output at scale 1/128, cell
// state at 2^-11. Weights (scale 1/64): the cell gate's input and recurrent
// weights 64 (1.0), every other weight 0. Biases (scale 1/8192): the output
// gate's 8192 (1.0), the others 0.
//
// Both fully connected layers of a gate requantize by
// (1/128 * 1/64) / 2^-12 = 0.5 to int16 at 2^-12. Gate outputs are at 2^-15.
//   input, forget gate: pre 0      -> sigmoid: knot 0, 32768 << 9 + 2^9 >> 10 = 16384 (0.5)
//   output gate:        pre 4096   -> x3 = 12288 = knot 24 (47911) exactly:
//                                     (47911 << 9) + 2^9 >> 10 = 23956 (0.7311)
// Step 1: cell gate pre = 16 * 64 * 0.5 = 512 (0.125); tanh input x3 = 1536 = knot 6:
//           (36843 << 8) - 2^23 + 2^7 >> 8 = 4075 (tanh 0.125 = 0.1244)
//         cell = 16384 * 0 * 2^-15 + 16384 * 4075 * 2^-30 / 2^-11 = 127.34 -> 127
//         tanh(cell): input 127 * 6 = 762 (cell scale 2^-11: 3 << 1), knot 2 (34133),
//           next 34813, fraction 250: (34133 << 8) + 250 * 680 - 2^23 + 2^7 >> 8 = 2029
//         hidden = 2029 * 23956 * 2^-30 / 2^-7 = 5.79 -> 6
// Step 2: cell gate pre = 512 + 6 * 64 * 0.5 = 704; x3 = 2112: knot 8 (38180),
//           next 38841, fraction 64 -> 5577
//         cell = 16384 * 127 * 2^-15 = 63.5 -> 64, plus 16384 * 5577 * 2^-19 = 174.28 -> 174: 238
//         tanh(cell): 238 * 6 = 1428: knot 5 (36169), next 36843, fraction 148 -> 3791
//         hidden = 3791 * 23956 * 2^-23 = 10.83 -> 11
// With a cell clip of 0.05 (0.05 * 2048 = 102.4 -> 102):
// Step 1: cell 127 -> 102; tanh input 612: knot 2, fraction 100 -> 1631; hidden 1631 * 23956 * 2^-23 = 4.66 -> 5
// Step 2: pre 512 + 5 * 32 = 672 -> tanh 5329; cell 16384 * 102 * 2^-15 = 51 plus
//         16384 * 5329 * 2^-19 = 166.53 -> 167: 218 -> 102; hidden 5 again.
template <typename Act, typename Bias>
struct HandLstm {
  Act input[2];
  int8_t w_zero[1] = {0};
  int8_t w_one[1] = {64};
  Bias b_zero[1] = {0};
  Bias b_one[1] = {8192};
  Act hidden[1];
  int16_t cell[1] = {0};
  Act output[2];
  int32_t hidden_zp;

  HandLstm(int32_t input_zp, int32_t hidden_zp_) : hidden_zp(hidden_zp_) {
    input[0] = input[1] = static_cast<Act>(16 + input_zp);
    hidden[0] = static_cast<Act>(hidden_zp);  // the state starts at real 0
    output[0] = output[1] = 0;
  }

  TfLiteStatus Run(float cell_clip, int32_t input_zp, int extra = -1, int drop = -1, float cell_scale = 1.0f / 2048,
                   float output_scale = 1.0f / 128) {
    Dims d(1, 2, 1, 1);
    TfLiteTensor t[kTensors];
    t[0] = CreateQuantizedTensor(input, IntArrayFromInts(d.input), 1.0f / 128, input_zp);
    for (int k = 0; k < 4; ++k) {
      int8_t* w = k == 2 ? w_one : w_zero;
      t[1 + k] = CreateQuantizedTensor(w, IntArrayFromInts(d.input_weights), 1.0f / 64, 0, true);
      t[5 + k] = CreateQuantizedTensor(w, IntArrayFromInts(d.recurrent_weights), 1.0f / 64, 0, true);
      t[9 + k] = CreateTensor(k == 3 ? b_one : b_zero, IntArrayFromInts(d.bias), true);
    }
    t[13] = CreateQuantizedTensor(hidden, IntArrayFromInts(d.state), 1.0f / 128, hidden_zp);
    t[14] = CreateQuantizedTensor(cell, IntArrayFromInts(d.state), cell_scale, 0);
    t[15] = CreateQuantizedTensor(output, IntArrayFromInts(d.output), output_scale, hidden_zp);
    t[16] = CreateQuantizedTensor(w_zero, IntArrayFromInts(d.bias), 1.0f / 64, 0, true);
    const TfLiteUnidirectionalSequenceLSTMParams params = Params(cell_clip);
    return RunKernel(Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), t, kTensors, NodeInputs(extra, drop), NodeOutputs(),
                     &params);
  }
};

template <typename Act, typename Bias>
void ExpectHandLstm(int32_t input_zp, int32_t hidden_zp, float clip, int32_t h1, int32_t h2, int32_t cell) {
  HandLstm<Act, Bias> m(input_zp, hidden_zp);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, m.Run(clip, input_zp));
  TF_LITE_MICRO_EXPECT_EQ(h1 + hidden_zp, static_cast<int32_t>(m.output[0]));
  TF_LITE_MICRO_EXPECT_EQ(h2 + hidden_zp, static_cast<int32_t>(m.output[1]));
  TF_LITE_MICRO_EXPECT_EQ(h2 + hidden_zp, static_cast<int32_t>(m.hidden[0]));
  TF_LITE_MICRO_EXPECT_EQ(cell, static_cast<int32_t>(m.cell[0]));
}

// A case of unidirectional_sequence_lstm_cases.h: its tensors, run once from
// a zero state; the output must equal TFLM's.
template <class C, typename Act, typename Bias>
void ExpectTflmCase() {
  constexpr int kRows = C::batches * C::steps;
  static Act input[kRows * C::features];
  static Act output[kRows * C::units];
  static Act hidden[C::batches * C::units];
  static int16_t cell[C::batches * C::units];
  memcpy(input, C::input, sizeof(input));
  for (Act& h : hidden) h = static_cast<Act>(C::hidden_zero_point);
  memset(cell, 0, sizeof(cell));
  memset(output, 0, sizeof(output));
  const int8_t* const input_weights[4] = {C::input_weights_0, C::input_weights_1, C::input_weights_2,
                                          C::input_weights_3};
  const int8_t* const recurrent_weights[4] = {C::recurrent_weights_0, C::recurrent_weights_1,
                                              C::recurrent_weights_2, C::recurrent_weights_3};
  const Bias* const biases[4] = {C::bias_0, C::bias_1, C::bias_2, C::bias_3};
  Dims d(C::batches, C::steps, C::features, C::units, C::time_major);
  TfLiteTensor t[kTensors];
  t[0] = CreateQuantizedTensor(input, IntArrayFromInts(d.input), C::input_scale, C::input_zero_point);
  for (int k = 0; k < 4; ++k) {
    t[1 + k] = CreateQuantizedTensor(const_cast<int8_t*>(input_weights[k]), IntArrayFromInts(d.input_weights),
                                     C::weight_scales[2 * k], 0, true);
    t[5 + k] = CreateQuantizedTensor(const_cast<int8_t*>(recurrent_weights[k]), IntArrayFromInts(d.recurrent_weights),
                                     C::weight_scales[2 * k + 1], 0, true);
    t[9 + k] = CreateTensor(const_cast<Bias*>(biases[k]), IntArrayFromInts(d.bias), true);
  }
  t[13] = CreateQuantizedTensor(hidden, IntArrayFromInts(d.state), C::hidden_scale, C::hidden_zero_point);
  t[14] = CreateQuantizedTensor(cell, IntArrayFromInts(d.state), C::cell_scale, 0);
  t[15] = CreateQuantizedTensor(output, IntArrayFromInts(d.output), C::hidden_scale, C::hidden_zero_point);
  t[16] = t[1];
  const TfLiteUnidirectionalSequenceLSTMParams params = Params(C::cell_clip, C::time_major);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernel(Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), t, kTensors, NodeInputs(),
                                               NodeOutputs(), &params));
  for (int i = 0; i < kRows * C::units; ++i) {
    TF_LITE_MICRO_EXPECT_EQ(static_cast<int32_t>(C::expected[i]), static_cast<int32_t>(output[i]));
  }
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatHandComputed) {
  // 1 unit, 1 feature, inputs 0.5 and -0.25. Input and forget gates: weights 0,
  // bias 0 -> 0.5; output gate: bias 1 -> sigmoid(1) = 0.7310586; cell gate:
  // input weight 1, recurrent weight 0.5, bias 0.
  // Step 1: g = tanh(0.5) = 0.4621172, c = 0.5 * g = 0.2310586, h = 0.7310586 * tanh(c) = 0.1659741
  // Step 2: g = tanh(-0.25 + 0.5 * 0.1659741) = -0.1654772, c = 0.5 * (c + g) = 0.0327907,
  //         h = 0.7310586 * tanh(c) = 0.0239633
  const float input[2] = {0.5f, -0.25f};
  const float zero[1] = {0.0f}, one[1] = {1.0f}, half[1] = {0.5f};
  float hidden[1] = {0.0f}, cell[1] = {0.0f}, output[2] = {0.0f, 0.0f};
  const FloatLstm m = {input, {zero, zero, one, zero}, {zero, zero, half, zero}, {zero, zero, zero, one}, hidden, cell,
                       output};
  Dims d(1, 2, 1, 1);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(m, d, Params()));
  TF_LITE_MICRO_EXPECT_NEAR(0.1659741f, output[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(0.0239633f, output[1], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(0.0327907f, cell[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_EQ(output[1], hidden[0]);
}

TF_LITE_MICRO_TEST(FloatCellClip) {
  // Every gate's bias 20, weights 0: input, forget and output gates are exactly
  // 1 (TFLM's sigmoid is 1 above 16.62), the cell gate tanh(20) = 1: the cell
  // state counts 1, 2, 3, clipped at 2.5; the output is tanh of it.
  const float input[3] = {0.0f, 0.0f, 0.0f};
  const float zero[1] = {0.0f}, twenty[1] = {20.0f};
  float hidden[1] = {0.0f}, cell[1] = {0.0f}, output[3];
  const FloatLstm m = {input, {zero, zero, zero, zero}, {zero, zero, zero, zero}, {twenty, twenty, twenty, twenty},
                       hidden, cell, output};
  Dims d(1, 3, 1, 1);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(m, d, Params(2.5f)));
  TF_LITE_MICRO_EXPECT_EQ(2.5f, cell[0]);
  TF_LITE_MICRO_EXPECT_EQ(tanhf(1.0f), output[0]);
  TF_LITE_MICRO_EXPECT_EQ(tanhf(2.0f), output[1]);
  TF_LITE_MICRO_EXPECT_EQ(tanhf(2.5f), output[2]);
}

TF_LITE_MICRO_TEST(FloatMatchesTheDefinition) {
  // 2 sequences, 3 units, cell clip 0.6 (reached): every unit's four rows of
  // weights and its recurrent inputs land where the definition puts them.
  for (int clip = 0; clip < 2; ++clip) {
    RandomFloatLstm r(7u + static_cast<uint32_t>(clip));
    const float cell_clip = clip ? 0.6f : 0.0f;
    Dims d(r.kBatches, r.kSteps, r.kFeatures, r.kUnits);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(r.Model(r.input), d, Params(cell_clip)));
    double hidden[r.kBatches * r.kUnits] = {}, cell[r.kBatches * r.kUnits] = {};
    double output[r.kBatches * r.kSteps * r.kUnits];
    ReferenceLstm(r.Model(r.input), r.kBatches, r.kSteps, r.kFeatures, r.kUnits, false, cell_clip, hidden, cell,
                  output);
    for (int i = 0; i < r.kBatches * r.kSteps * r.kUnits; ++i) {
      TF_LITE_MICRO_EXPECT_NEAR(output[i], static_cast<double>(r.output[i]), 1e-5);
    }
    for (int i = 0; i < r.kBatches * r.kUnits; ++i) {
      TF_LITE_MICRO_EXPECT_NEAR(cell[i], static_cast<double>(r.cell[i]), 1e-5);
      TF_LITE_MICRO_EXPECT_NEAR(hidden[i], static_cast<double>(r.hidden[i]), 1e-5);
    }
  }
}

TF_LITE_MICRO_TEST(FloatTimeMajorIsTheSameSequences) {
  // The batch-major input [2, 3, 2] transposed to [3, 2, 2] with time_major
  // gives the transposed output, bit for bit.
  RandomFloatLstm a(11u);
  Dims da(a.kBatches, a.kSteps, a.kFeatures, a.kUnits);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(a.Model(a.input), da, Params()));
  RandomFloatLstm b(11u);
  float transposed[sizeof(b.input) / sizeof(float)];
  for (int s = 0; s < b.kBatches; ++s) {
    for (int t = 0; t < b.kSteps; ++t) {
      for (int i = 0; i < b.kFeatures; ++i) {
        transposed[(t * b.kBatches + s) * b.kFeatures + i] = b.input[(s * b.kSteps + t) * b.kFeatures + i];
      }
    }
  }
  Dims db(b.kBatches, b.kSteps, b.kFeatures, b.kUnits, true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(b.Model(transposed), db, Params(0.0f, true)));
  for (int s = 0; s < a.kBatches; ++s) {
    for (int t = 0; t < a.kSteps; ++t) {
      for (int u = 0; u < a.kUnits; ++u) {
        TF_LITE_MICRO_EXPECT_EQ(a.output[(s * a.kSteps + t) * a.kUnits + u],
                                b.output[(t * b.kBatches + s) * b.kUnits + u]);
      }
    }
  }
  for (int i = 0; i < a.kBatches * a.kUnits; ++i) {
    TF_LITE_MICRO_EXPECT_EQ(a.cell[i], b.cell[i]);
    TF_LITE_MICRO_EXPECT_EQ(a.hidden[i], b.hidden[i]);
  }
}

TF_LITE_MICRO_TEST(FloatStateCarriesOverInvokes) {
  // One sequence of 2 steps equals the same two steps as two Invokes of a 1-step op.
  RandomFloatLstm a(5u);
  Dims d2(1, 2, a.kFeatures, a.kUnits);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(a.Model(a.input), d2, Params()));
  RandomFloatLstm b(5u);
  float steps[2][a.kUnits];
  for (int t = 0; t < 2; ++t) {
    Dims d1(1, 1, b.kFeatures, b.kUnits);
    // b's state is what the previous step left (the tensors persist like variables).
    const FloatLstm m = b.Model(b.input + t * b.kFeatures);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(m, d1, Params()));
    memcpy(steps[t], b.output, sizeof(steps[t]));
  }
  for (int t = 0; t < 2; ++t) {
    for (int u = 0; u < a.kUnits; ++u) TF_LITE_MICRO_EXPECT_EQ(a.output[t * a.kUnits + u], steps[t][u]);
  }
  // And a second Invoke of one runner continues from the first one's state.
  RandomFloatLstm c(5u);
  Dims d1(1, 1, c.kFeatures, c.kUnits);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(c.Model(c.input), d1, Params(), 2));
  TF_LITE_MICRO_EXPECT(c.output[0] != steps[0][0]);  // the second Invoke saw the first one's state
  for (int u = 0; u < c.kUnits; ++u) TF_LITE_MICRO_EXPECT_EQ(c.hidden[u], c.output[u]);
}

TF_LITE_MICRO_TEST(Int8HandComputed) { ExpectHandLstm<int8_t, int32_t>(-128, 0, 0.0f, 6, 11, 238); }

TF_LITE_MICRO_TEST(Int8HiddenZeroPoint) {
  // The same real values with the hidden state at zero point -1 (stored 5 and
  // 10): the recurrent layer adds the offset back.
  ExpectHandLstm<int8_t, int32_t>(-128, -1, 0.0f, 6, 11, 238);
}

TF_LITE_MICRO_TEST(Int8CellClip) { ExpectHandLstm<int8_t, int32_t>(-128, 0, 0.05f, 5, 5, 102); }

TF_LITE_MICRO_TEST(Int16HandComputed) {
  // 16x8: the same LSTM with int16 activations (zero points 0) and int64 biases.
  ExpectHandLstm<int16_t, int64_t>(0, 0, 0.0f, 6, 11, 238);
  ExpectHandLstm<int16_t, int64_t>(0, 0, 0.05f, 5, 5, 102);
}

TF_LITE_MICRO_TEST(Int8MatchesTflm) { ExpectTflmCase<lstm_cases::Int8Lstm, int8_t, int32_t>(); }

TF_LITE_MICRO_TEST(Int8TimeMajorClipMatchesTflm) {
  ExpectTflmCase<lstm_cases::Int8TimeMajorClip, int8_t, int32_t>();
}

TF_LITE_MICRO_TEST(Int16MatchesTflm) { ExpectTflmCase<lstm_cases::Int16Lstm, int16_t, int64_t>(); }

TF_LITE_MICRO_TEST(RefusesWhatTflmDoesNotCompute) {
  HandLstm<int8_t, int32_t> m(-128, 0);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, m.Run(0.0f, -128));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, 9));   // peephole
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, 16));  // projection weights
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, 17));  // projection bias
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, 20));  // layer normalization
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, -1, 1));   // CIFG: no input gate
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, -1, 7));   // a required weight missing
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, -1, -1, 3.0f / 4096));    // cell scale not 2^p
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, m.Run(0.0f, -128, -1, -1, 1.0f / 2048, 1.0f / 64));  // output != hidden
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, m.Run(0.0f, -128, -1, -1, 1.0f / 8192));  // another power of two is fine
}

TF_LITE_MICRO_TEST(RefusesHybridAndOptions) {
  float input[2] = {0.5f, -0.25f};
  const float zero[1] = {0.0f};
  float hidden[1] = {0.0f}, cell[1] = {0.0f}, output[2];
  const FloatLstm m = {input, {zero, zero, zero, zero}, {zero, zero, zero, zero}, {zero, zero, zero, zero}, hidden,
                       cell, output};
  Dims d(1, 2, 1, 1);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(m, d, Params()));
  TfLiteUnidirectionalSequenceLSTMParams p = Params();
  p.activation = kTfLiteActRelu;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunFloat(m, d, p));
  p = Params();
  p.diagonal_recurrent_tensors = true;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunFloat(m, d, p));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunFloat(m, d, Params(), 1, NodeInputs(-1, -1, 20)));  // 20 inputs

  // Hybrid: float32 activations, int8 weights.
  Dims dh(1, 2, 1, 1);
  TfLiteTensor t[kTensors];
  MakeFloatTensors(m, dh, t);
  int8_t w[1] = {1};
  for (int k = 0; k < 4; ++k) t[1 + k] = CreateQuantizedTensor(w, IntArrayFromInts(dh.input_weights), 0.1f, 0, true);
  const TfLiteUnidirectionalSequenceLSTMParams params = Params();
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernel(Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), t, kTensors, NodeInputs(),
                                                  NodeOutputs(), &params));
}

TF_LITE_MICRO_TEST(RefusesPerChannelWeightsAndWrongBias) {
  HandLstm<int8_t, int32_t> m(-128, 0);
  Dims d(1, 2, 1, 1);
  TfLiteTensor t[kTensors];
  t[0] = CreateQuantizedTensor(m.input, IntArrayFromInts(d.input), 1.0f / 128, -128);
  static float scales[] = {1, 1.0f / 64};
  const TfLiteFloatArray* per_channel = FloatArrayFromFloats(scales);
  for (int k = 0; k < 4; ++k) {
    t[1 + k] = CreateQuantizedTensor(m.w_zero, IntArrayFromInts(d.input_weights), 1.0f / 64, 0, true);
    t[5 + k] = CreateQuantizedTensor(m.w_zero, IntArrayFromInts(d.recurrent_weights), 1.0f / 64, 0, true);
    t[9 + k] = CreateTensor(m.b_zero, IntArrayFromInts(d.bias), true);
  }
  t[13] = CreateQuantizedTensor(m.hidden, IntArrayFromInts(d.state), 1.0f / 128, 0);
  t[14] = CreateQuantizedTensor(m.cell, IntArrayFromInts(d.state), 1.0f / 2048, 0);
  t[15] = CreateQuantizedTensor(m.output, IntArrayFromInts(d.output), 1.0f / 128, 0);
  t[16] = t[1];
  const TfLiteUnidirectionalSequenceLSTMParams params = Params();
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernel(Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), t, kTensors, NodeInputs(),
                                               NodeOutputs(), &params));
  t[6] = CreatePerChannelQuantizedTensor(m.w_zero, IntArrayFromInts(d.recurrent_weights), per_channel, 0);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernel(Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), t, kTensors, NodeInputs(),
                                                  NodeOutputs(), &params));
  t[6] = t[5];
  int64_t wide_bias[1] = {0};
  t[10] = CreateTensor(wide_bias, IntArrayFromInts(d.bias), true);  // int8 LSTMs take int32 biases
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernel(Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), t, kTensors, NodeInputs(),
                                                  NodeOutputs(), &params));
}

TF_LITE_MICRO_TESTS_END
