// UNIDIRECTIONAL_SEQUENCE_LSTM, float32: TFLM's reference arithmetic per
// value (each fully connected sum in index order, then its bias, clamped to
// the float range like TFLM's activation-free layers; sigmoid with TFLM's
// cut-offs; tanhf; products clamped the same way).
#include <float.h>
#include <math.h>
#include <string.h>

#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace lstm {
namespace {

// TFLM's float clamp with no fused activation: +-inf become +-FLT_MAX, NaN stays.
inline float Bound(float v) { return ClampFloat(v, -FLT_MAX, FLT_MAX); }

// TFLM's reference float logistic.
inline float Sigmoid(float v) {
  if (v > 16.619047164916992188f) return 1.0f;
  if (v < -9.0f) return expf(v);
  return 1.0f / (1.0f + expf(-v));
}

// sum_i x[i] * w_k[i] for the four gates' rows at once, each sum in index order.
inline void Dot4(const float* x, const float* const w[kGates], int32_t n, float acc[kGates]) {
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
  for (int32_t i = 0; i < n; ++i) {
    const float v = x[i];
    a0 += v * w[0][i];
    a1 += v * w[1][i];
    a2 += v * w[2][i];
    a3 += v * w[3][i];
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

}  // namespace

TfLiteStatus EvalFloat(const OpData& d, const Tensors& t) {
  const Sizes& s = d.sizes;
  const int32_t n_in = s.input_size;
  const int32_t units = s.units;
  const float clip = d.cell_clip;
  ForEachStep(s, [&](int32_t row, int32_t batch) {
    const float* x = t.input->data.f + static_cast<size_t>(row) * n_in;
    float* h = t.hidden->data.f + static_cast<size_t>(batch) * units;
    float* c = t.cell->data.f + static_cast<size_t>(batch) * units;
    float* out = t.output->data.f + static_cast<size_t>(row) * units;
    for (int32_t u = 0; u < units; ++u) {
      const float* in_rows[kGates];
      const float* rec_rows[kGates];
      for (int k = 0; k < kGates; ++k) {
        in_rows[k] = t.input_weights[k]->data.f + static_cast<size_t>(u) * n_in;
        rec_rows[k] = t.recurrent_weights[k]->data.f + static_cast<size_t>(u) * units;
      }
      float in_acc[kGates];
      float rec_acc[kGates];
      Dot4(x, in_rows, n_in, in_acc);
      Dot4(h, rec_rows, units, rec_acc);
      float pre[kGates];
      for (int k = 0; k < kGates; ++k) {
        // The recurrent layer has no bias: TFLM adds 0.
        pre[k] = Bound(in_acc[k] + t.bias[k]->data.f[u]) + Bound(rec_acc[k] + 0.0f);
      }
      const float input_gate = Sigmoid(pre[kInputGate]);
      const float forget_gate = Sigmoid(pre[kForgetGate]);
      const float cell_gate = tanhf(pre[kCellGate]);
      const float output_gate = Sigmoid(pre[kOutputGate]);
      float cell = Bound(forget_gate * c[u]) + Bound(input_gate * cell_gate);
      if (clip > 0.0f) {
        // std::max(std::min(clip, cell), -clip), NaN included.
        cell = cell < clip ? cell : clip;
        cell = cell < -clip ? -clip : cell;
      }
      c[u] = cell;
      out[u] = Bound(tanhf(cell) * output_gate);
    }
    memcpy(h, out, static_cast<size_t>(units) * sizeof(float));
  });
  return kTfLiteOk;
}

}  // namespace lstm
