// UNIDIRECTIONAL_SEQUENCE_LSTM (versions 1 and 5): the standard LSTM over a
// sequence, float32, int8 (8x8, int16 cell state) and int16 (16x8), as TFLM
// computes it; see unidirectional_sequence_lstm.h. Hybrid models (float32
// activations with int8 weights, v2-3), diagonal recurrent weights (v4),
// peephole, projection, layer normalization and CIFG variants are refused in
// prepare with a message naming them (TFLM computes none of them).
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace micro_runtime {

namespace lstm {
namespace {

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckOpDataAndOptions(kOp, node));
  return PrepareLstm(context, node, static_cast<const TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data),
                     static_cast<OpData*>(node->user_data));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData& d = *static_cast<const OpData*>(node->user_data);
  const Tensors t = TensorsOf(context, node);
  switch (t.input->type) {
    case kTfLiteFloat32:
      return EvalFloat(d, t);
    case kTfLiteInt8:
      // A bias that is not a constant of the model is checked as it arrives.
      for (int k = 0; k < kGates; ++k) {
        TF_LITE_ENSURE_OK(context, CheckVariableBiasRange(kOp, t.input, t.input_weights[k], t.bias[k],
                                                          d.sizes.units, 0));
      }
      return EvalInt8(d, t);
    case kTfLiteInt16:
      return EvalInt16(d, t);
    default:
      MicroPrintf("%s: input type %s not supported (float32, int8 or int16)", kOp, TfLiteTypeName(t.input->type));
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace lstm

TfLiteRegistration Register_UNIDIRECTIONAL_SEQUENCE_LSTM() { return {lstm::Init, nullptr, lstm::Prepare, lstm::Eval}; }

}  // namespace micro_runtime
