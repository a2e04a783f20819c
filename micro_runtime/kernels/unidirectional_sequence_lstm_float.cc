// UNIDIRECTIONAL_SEQUENCE_LSTM, float32: TFLM's reference arithmetic per
// value (each fully connected sum in index order, then its bias, clamped to
// the float range like TFLM's activation-free layers; sigmoid with TFLM's
// cut-offs; tanhf; products clamped the same way).
#include <float.h>
#include <math.h>

#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace micro_runtime {

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

}  // namespace

TfLiteStatus EvalFloat(const OpData& d, const Tensors& t) {
  const Sizes& s = d.sizes;
  const float clip = d.cell_clip;
  EvalSteps<float, float>(t, s, [&](const float* x, const float* h, float* c, int32_t u) {
    float in_acc[kGates];
    float rec_acc[kGates];
    GateDots<float>(t, s, u, x, 0, h, 0, in_acc, rec_acc);
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
    return Bound(tanhf(cell) * output_gate);
  });
  return kTfLiteOk;
}

}  // namespace lstm

}  // namespace micro_runtime
