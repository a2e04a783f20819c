// A resolver with every kernel micro_runtime ships (kernels/micro_ops.h).
// Convenient for tools and tests; firmware that wants the smallest image
// registers only its model's ops in a MicroMutableOpResolver<N>.
//
// Version ranges are the op versions our kernels implement (e.g. CONV_2D v3
// and DEPTHWISE_CONV_2D v2+ add dilation, FULLY_CONNECTED v4 and SOFTMAX v2
// are the int8 variants the converter writes; SUB v3, DIV v2 and
// MAXIMUM/MINIMUM v3 add broadcasting beyond 4-D, SUB v5, ABS v3,
// LEAKY_RELU v2, MAXIMUM/MINIMUM v4, ADD v3, MUL v4 and AVERAGE_POOL_2D,
// MAX_POOL_2D, LOGISTIC, TANH, RELU, RELU6, SOFTMAX v3 are int16; MUL v3 is
// int8 with a rescale of 1 or more). SUB v4 is int64, which
// prepare refuses by type. docs/ops.md lists ops x types.
#ifndef MICRO_RUNTIME_ALL_OPS_RESOLVER_H_
#define MICRO_RUNTIME_ALL_OPS_RESOLVER_H_

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_op_resolver.h"

namespace micro_runtime {

// The ops come in groups, each registered by one function, so a test of
// one group links only that group's kernels: every kernel together with the
// interpreter and a model no longer fits a 64 KB Blue Pill
// (all_ops_resolver_model_ops_test runs hello_world on the model ops;
// all_ops_resolver_elementwise_ops_test and all_ops_resolver_shape_ops_test
// check the others).

// Each group is an X-macro list of (op, first version, last version): the
// group's Add function registers the kernels, and all_ops_resolver_test
// compares the lists (OpVersionRange tables) without linking any kernel.
#define MR_ADD_BUILTIN(op, first, last) \
  resolver.AddBuiltin(tflite::BuiltinOperator::op, Register_##op(), first, last);

// The ops of the reference models (convolutions, pooling, FULLY_CONNECTED,
// SOFTMAX, ADD/MUL, activations, RESHAPE, (DE)QUANTIZE, SIN, Atan).
constexpr size_t kModelOpsCount = 17;
#define MR_MODEL_OPS(X) \
  X(ADD, 1, 3) \
  X(AVERAGE_POOL_2D, 1, 3) \
  X(CONV_2D, 1, 4) \
  X(DEPTHWISE_CONV_2D, 1, 5) \
  X(DEQUANTIZE, 1, 3) \
  X(FULLY_CONNECTED, 1, 7) \
  X(LOGISTIC, 1, 3) \
  X(MAX_POOL_2D, 1, 3) \
  X(MUL, 1, 4) \
  X(QUANTIZE, 1, 3) \
  X(RELU, 1, 3) \
  X(RELU6, 1, 3) \
  X(RESHAPE, 1, 1) \
  X(SIN, 1, 1) \
  X(SOFTMAX, 1, 3) \
  X(TANH, 1, 3)
template <class Resolver>
void AddModelOps(Resolver& resolver) {
  MR_MODEL_OPS(MR_ADD_BUILTIN)
  resolver.AddCustom("Atan", Register_ATAN(), 1, 1);
}

// The elementwise ops of issue 10 part 3 (SUB, DIV, MAXIMUM/MINIMUM,
// SQUARED_DIFFERENCE, PRELU, ABS, SQRT, RSQRT, EXP, LOG, LEAKY_RELU,
// HARD_SWISH).
constexpr size_t kElementwiseOpsCount = 13;
#define MR_ELEMENTWISE_OPS(X) \
  X(ABS, 1, 3) \
  X(DIV, 1, 2) \
  X(EXP, 1, 1) \
  X(HARD_SWISH, 1, 1) \
  X(LEAKY_RELU, 1, 2) \
  X(LOG, 1, 1) \
  X(MAXIMUM, 1, 4) \
  X(MINIMUM, 1, 4) \
  X(PRELU, 1, 1) \
  X(RSQRT, 1, 2) \
  X(SQRT, 1, 1) \
  X(SQUARED_DIFFERENCE, 1, 2) \
  X(SUB, 1, 5)
template <class Resolver>
void AddElementwiseOps(Resolver& resolver) {
  MR_ELEMENTWISE_OPS(MR_ADD_BUILTIN)
}

// The shape and data-movement ops of issue 10 part 3, second batch (PAD,
// PADV2, CONCATENATION, MEAN, STRIDED_SLICE, TRANSPOSE, SQUEEZE, EXPAND_DIMS):
// PAD/PADV2 v2-v4 are int8, int16 and 5-D; CONCATENATION v2/v3 int8/int16
// (v4 is uint32); MEAN v2/v3 int8/int16; STRIDED_SLICE v2 int8, v3 bool,
// v4 5-D (v6 and up need ellipsis/new-axis masks, uint32 or offset);
// TRANSPOSE v2-v6 int8, bool, 5-D, int16, 6-D. Second batch, group 2: PACK
// v2/v3 int8/int16 (v4 is uint32); UNPACK v2-v4 int8, bool, int16; SPLIT
// v2-v4 int8, int32, int16; SPLIT_V v2/v3 int8/int16; SHAPE v1; FILL v2
// bool, v3 int8/int16; ZEROS_LIKE v1.
constexpr size_t kShapeOpsCount = 15;
#define MR_SHAPE_OPS(X) \
  X(CONCATENATION, 1, 3) \
  X(EXPAND_DIMS, 1, 1) \
  X(FILL, 1, 3) \
  X(MEAN, 1, 3) \
  X(PACK, 1, 3) \
  X(PAD, 1, 4) \
  X(PADV2, 1, 4) \
  X(SHAPE, 1, 1) \
  X(SPLIT, 1, 4) \
  X(SPLIT_V, 1, 3) \
  X(SQUEEZE, 1, 1) \
  X(STRIDED_SLICE, 1, 4) \
  X(TRANSPOSE, 1, 6) \
  X(UNPACK, 1, 4) \
  X(ZEROS_LIKE, 1, 1)
template <class Resolver>
void AddShapeOps(Resolver& resolver) {
  MR_SHAPE_OPS(MR_ADD_BUILTIN)
}

// The signal-processing ops of issue 10 (TFLM's keyword and SEANet models):
// SVDF v1 float32, v3 int8 (v2 and v4 are hybrid: registered so prepare
// refuses them by name); TRANSPOSE_CONV v1 float32, v2 int8, v3 bias input,
// v4 fused activation, v5 16x8 with quantized_bias_type (an int32 bias, which
// TFLM reads as int64, is refused by prepare).
constexpr size_t kSignalOpsCount = 2;
#define MR_SIGNAL_OPS(X) \
  X(SVDF, 1, 4) \
  X(TRANSPOSE_CONV, 1, 5)
template <class Resolver>
void AddSignalOps(Resolver& resolver) {
  MR_SIGNAL_OPS(MR_ADD_BUILTIN)
}

// The index and type ops of issue 10 (GATHER, ARG_MAX/ARG_MIN, CAST,
// SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND): GATHER v2 int8, v3 bool, v4 int16,
// v5 batch_dims, v6 int16 positions (v7 is int4); ARG_MAX/ARG_MIN v2 int8,
// v3 bool; CAST v3 int8 (v2 is uint32, which prepare refuses by type);
// SPACE_TO_BATCH_ND/BATCH_TO_SPACE_ND v2 int8, v3 3-D, v4 int16.
constexpr size_t kIndexOpsCount = 6;
#define MR_INDEX_OPS(X) \
  X(ARG_MAX, 1, 3) \
  X(ARG_MIN, 1, 3) \
  X(BATCH_TO_SPACE_ND, 1, 4) \
  X(CAST, 1, 3) \
  X(GATHER, 1, 6) \
  X(SPACE_TO_BATCH_ND, 1, 4)
template <class Resolver>
void AddIndexOps(Resolver& resolver) {
  MR_INDEX_OPS(MR_ADD_BUILTIN)
}

// The image ops of issue 10: RESIZE_NEAREST_NEIGHBOR v2 int8, v3
// align_corners/half_pixel_centers, v4 int16; RESIZE_BILINEAR v2 int8, v3
// half_pixel_centers (v4 is int16, which TFLM lacks); L2_NORMALIZATION v2 int8.
constexpr size_t kImageOpsCount = 3;
#define MR_IMAGE_OPS(X) \
  X(L2_NORMALIZATION, 1, 2) \
  X(RESIZE_BILINEAR, 1, 3) \
  X(RESIZE_NEAREST_NEIGHBOR, 1, 4)
template <class Resolver>
void AddImageOps(Resolver& resolver) {
  MR_IMAGE_OPS(MR_ADD_BUILTIN)
}

// The recurrent ops of issue 10 (TFLM's LSTM models):
// UNIDIRECTIONAL_SEQUENCE_LSTM v1 float32 and int8 (8x8, int16 cell state),
// v5 int16 (16x8); v2-v3 (hybrid) and v4 (diagonal recurrent weights) are in
// the range so prepare refuses them by name.
constexpr size_t kLstmOpsCount = 1;
#define MR_LSTM_OPS(X) \
  X(UNIDIRECTIONAL_SEQUENCE_LSTM, 1, 5)
template <class Resolver>
void AddLstmOps(Resolver& resolver) {
  MR_LSTM_OPS(MR_ADD_BUILTIN)
}

// One builtin registration of a group, as data: what AddBuiltin is given
// apart from the kernel.
struct OpVersionRange {
  tflite::BuiltinOperator op;
  int first_version;
  int last_version;
};
#define MR_OP_VERSION_RANGE(op, first, last) {tflite::BuiltinOperator::op, first, last},
constexpr OpVersionRange kModelOpRanges[] = {MR_MODEL_OPS(MR_OP_VERSION_RANGE)};
constexpr OpVersionRange kElementwiseOpRanges[] = {MR_ELEMENTWISE_OPS(MR_OP_VERSION_RANGE)};
constexpr OpVersionRange kShapeOpRanges[] = {MR_SHAPE_OPS(MR_OP_VERSION_RANGE)};
constexpr OpVersionRange kSignalOpRanges[] = {MR_SIGNAL_OPS(MR_OP_VERSION_RANGE)};
constexpr OpVersionRange kIndexOpRanges[] = {MR_INDEX_OPS(MR_OP_VERSION_RANGE)};
constexpr OpVersionRange kImageOpRanges[] = {MR_IMAGE_OPS(MR_OP_VERSION_RANGE)};
constexpr OpVersionRange kLstmOpRanges[] = {MR_LSTM_OPS(MR_OP_VERSION_RANGE)};
#undef MR_OP_VERSION_RANGE
// AddModelOps also registers the custom op Atan.
static_assert(sizeof(kModelOpRanges) / sizeof(kModelOpRanges[0]) + 1 == kModelOpsCount, "kModelOpsCount");
static_assert(sizeof(kElementwiseOpRanges) / sizeof(kElementwiseOpRanges[0]) == kElementwiseOpsCount,
              "kElementwiseOpsCount");
static_assert(sizeof(kShapeOpRanges) / sizeof(kShapeOpRanges[0]) == kShapeOpsCount, "kShapeOpsCount");
static_assert(sizeof(kSignalOpRanges) / sizeof(kSignalOpRanges[0]) == kSignalOpsCount, "kSignalOpsCount");
static_assert(sizeof(kIndexOpRanges) / sizeof(kIndexOpRanges[0]) == kIndexOpsCount, "kIndexOpsCount");
static_assert(sizeof(kImageOpRanges) / sizeof(kImageOpRanges[0]) == kImageOpsCount, "kImageOpsCount");
static_assert(sizeof(kLstmOpRanges) / sizeof(kLstmOpRanges[0]) == kLstmOpsCount, "kLstmOpsCount");

// True when `resolver` registers every op of `ranges` at its first and last
// version and not at the next (each group's test checks its resolver against
// its list); logs the first op that differs.
template <class Resolver, size_t N>
bool RegistersExactly(const Resolver& resolver, const OpVersionRange (&ranges)[N]) {
  for (const OpVersionRange& r : ranges) {
    const int32_t code = static_cast<int32_t>(r.op);
    if (resolver.Find(code, nullptr, r.first_version) == nullptr ||
        resolver.Find(code, nullptr, r.last_version) == nullptr ||
        resolver.Find(code, nullptr, r.last_version + 1) != nullptr) {
      MicroPrintf("op %d is not registered for exactly versions %d..%d", static_cast<int>(code), r.first_version,
                  r.last_version);
      return false;
    }
  }
  return true;
}

constexpr size_t kAllOpsCount =
    kModelOpsCount + kElementwiseOpsCount + kShapeOpsCount + kSignalOpsCount + kIndexOpsCount + kImageOpsCount +
    kLstmOpsCount;

class AllOpsResolver : public MicroMutableOpResolver<kAllOpsCount> {
 public:
  AllOpsResolver() {
    AddModelOps(*this);
    AddElementwiseOps(*this);
    AddShapeOps(*this);
    AddSignalOps(*this);
    AddIndexOps(*this);
    AddImageOps(*this);
    AddLstmOps(*this);
  }
};

}  // namespace micro_runtime

// Public API: applications name it unqualified, as before the runtime had one namespace.
using micro_runtime::AllOpsResolver;

#endif  // MICRO_RUNTIME_ALL_OPS_RESOLVER_H_
