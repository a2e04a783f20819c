#include "micro_runtime/builtin_parser.h"

#include <stddef.h>
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/micro_log.h"
#include "micro_runtime/micro_op_resolver.h"

namespace micro_runtime {
namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;

// How a field is read from the options table, checked and stored. One
// generic loop replaces a hand-written parser per options type, so the
// field reads and checks exist once in flash.
enum FieldKind : uint8_t {
  kPadding,        // int8 tflite::Padding -> TfLitePadding
  kActivation,     // int8 tflite::ActivationFunctionType -> TfLiteFusedActivation
  kWindowFactor,   // int32 stride or dilation, 1..kMaxWindowFactor
  kPositive,       // int32, at least 1
  kInt,            // int32, any value
  kBool,           // uint8 -> bool
  kFloat,          // float (copied bit for bit)
  kWeightsFormat,  // int8, only DEFAULT (0) is supported; not stored
  kTensorType,     // int8 tflite::TensorType -> TfLiteType (same values; the kernels check it)
};

struct FieldSpec {
  uint8_t vtable_offset;  // the schema's VT_* of the field
  uint8_t param_offset;   // offsetof in the TfLite*Params struct
  uint8_t kind;           // FieldKind
  uint8_t name;           // kFieldNames offset (window and positive fields)
};

// Offset of the n-th name in a NUL-separated list: names without a pointer
// each.
constexpr uint8_t NameOffset(const char* names, int n) {
  int offset = 0;
  for (; n > 0; --n) {
    while (names[offset] != '\0') ++offset;
    ++offset;
  }
  return static_cast<uint8_t>(offset);
}

constexpr char kFieldNames[] =
    "stride_w\0stride_h\0dilation_w_factor\0dilation_h_factor\0filter_width\0filter_height\0rank";
static_assert(sizeof(kFieldNames) <= 256, "FieldSpec::name is 8 bits");
constexpr uint8_t kStrideW = NameOffset(kFieldNames, 0);
constexpr uint8_t kStrideH = NameOffset(kFieldNames, 1);
constexpr uint8_t kDilationW = NameOffset(kFieldNames, 2);
constexpr uint8_t kDilationH = NameOffset(kFieldNames, 3);
constexpr uint8_t kFilterWidth = NameOffset(kFieldNames, 4);
constexpr uint8_t kFilterHeight = NameOffset(kFieldNames, 5);
constexpr uint8_t kRank = NameOffset(kFieldNames, 6);

// Schema defaults of the int32 fields: strides, filter sizes and the depth
// multiplier default to 0 (and then fail their checks); dilations to 1.
constexpr bool DefaultsToOne(uint8_t name) { return name == kDilationW || name == kDilationH; }

#define MR_FIELD(Options, vt, Params, member, kind, name) \
  { static_cast<uint8_t>(tflite::Options::vt), static_cast<uint8_t>(offsetof(Params, member)), kind, name }

// Entries are in check order: the first invalid field is the one reported.
constexpr FieldSpec kFields[] = {
    // CONV_2D: 0..6
    MR_FIELD(Conv2DOptions, VT_PADDING, TfLiteConvParams, padding, kPadding, 0),
    MR_FIELD(Conv2DOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteConvParams, activation, kActivation, 0),
    MR_FIELD(Conv2DOptions, VT_STRIDE_W, TfLiteConvParams, stride_width, kWindowFactor, kStrideW),
    MR_FIELD(Conv2DOptions, VT_STRIDE_H, TfLiteConvParams, stride_height, kWindowFactor, kStrideH),
    MR_FIELD(Conv2DOptions, VT_DILATION_W_FACTOR, TfLiteConvParams, dilation_width_factor, kWindowFactor,
             kDilationW),
    MR_FIELD(Conv2DOptions, VT_DILATION_H_FACTOR, TfLiteConvParams, dilation_height_factor, kWindowFactor,
             kDilationH),
    MR_FIELD(Conv2DOptions, VT_QUANTIZED_BIAS_TYPE, TfLiteConvParams, quantized_bias_type, kTensorType, 0),
    // DEPTHWISE_CONV_2D: 7..13
    MR_FIELD(DepthwiseConv2DOptions, VT_PADDING, TfLiteDepthwiseConvParams, padding, kPadding, 0),
    MR_FIELD(DepthwiseConv2DOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteDepthwiseConvParams, activation,
             kActivation, 0),
    MR_FIELD(DepthwiseConv2DOptions, VT_STRIDE_W, TfLiteDepthwiseConvParams, stride_width, kWindowFactor, kStrideW),
    MR_FIELD(DepthwiseConv2DOptions, VT_STRIDE_H, TfLiteDepthwiseConvParams, stride_height, kWindowFactor,
             kStrideH),
    MR_FIELD(DepthwiseConv2DOptions, VT_DEPTH_MULTIPLIER, TfLiteDepthwiseConvParams, depth_multiplier, kInt, 0),
    MR_FIELD(DepthwiseConv2DOptions, VT_DILATION_W_FACTOR, TfLiteDepthwiseConvParams, dilation_width_factor,
             kWindowFactor, kDilationW),
    MR_FIELD(DepthwiseConv2DOptions, VT_DILATION_H_FACTOR, TfLiteDepthwiseConvParams, dilation_height_factor,
             kWindowFactor, kDilationH),
    // AVERAGE_POOL_2D, MAX_POOL_2D: 14..19
    MR_FIELD(Pool2DOptions, VT_PADDING, TfLitePoolParams, padding, kPadding, 0),
    MR_FIELD(Pool2DOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLitePoolParams, activation, kActivation, 0),
    MR_FIELD(Pool2DOptions, VT_STRIDE_W, TfLitePoolParams, stride_width, kWindowFactor, kStrideW),
    MR_FIELD(Pool2DOptions, VT_STRIDE_H, TfLitePoolParams, stride_height, kWindowFactor, kStrideH),
    MR_FIELD(Pool2DOptions, VT_FILTER_WIDTH, TfLitePoolParams, filter_width, kPositive, kFilterWidth),
    MR_FIELD(Pool2DOptions, VT_FILTER_HEIGHT, TfLitePoolParams, filter_height, kPositive, kFilterHeight),
    // FULLY_CONNECTED: 20..23
    MR_FIELD(FullyConnectedOptions, VT_WEIGHTS_FORMAT, TfLiteFullyConnectedParams, activation, kWeightsFormat, 0),
    MR_FIELD(FullyConnectedOptions, VT_KEEP_NUM_DIMS, TfLiteFullyConnectedParams, keep_num_dims, kBool, 0),
    MR_FIELD(FullyConnectedOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteFullyConnectedParams, activation,
             kActivation, 0),
    MR_FIELD(FullyConnectedOptions, VT_QUANTIZED_BIAS_TYPE, TfLiteFullyConnectedParams, quantized_bias_type,
             kTensorType, 0),
    // SOFTMAX: 24
    MR_FIELD(SoftmaxOptions, VT_BETA, TfLiteSoftmaxParams, beta, kFloat, 0),
    // ADD, MUL, SUB, DIV: 25 (their tables keep the activation at the same vtable slot)
    MR_FIELD(AddOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteArithmeticParams, activation, kActivation, 0),
    // LEAKY_RELU: 26
    MR_FIELD(LeakyReluOptions, VT_ALPHA, TfLiteLeakyReluParams, alpha, kFloat, 0),
    // CONCATENATION: 27..28 (the kernel checks the activation is NONE)
    MR_FIELD(ConcatenationOptions, VT_AXIS, TfLiteConcatenationParams, axis, kInt, 0),
    MR_FIELD(ConcatenationOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteConcatenationParams, activation,
             kActivation, 0),
    // MEAN: 29
    MR_FIELD(ReducerOptions, VT_KEEP_DIMS, TfLiteReducerParams, keep_dims, kBool, 0),
    // STRIDED_SLICE: 30..35 (the kernel checks the masks)
    MR_FIELD(StridedSliceOptions, VT_BEGIN_MASK, TfLiteStridedSliceParams, begin_mask, kInt, 0),
    MR_FIELD(StridedSliceOptions, VT_END_MASK, TfLiteStridedSliceParams, end_mask, kInt, 0),
    MR_FIELD(StridedSliceOptions, VT_ELLIPSIS_MASK, TfLiteStridedSliceParams, ellipsis_mask, kInt, 0),
    MR_FIELD(StridedSliceOptions, VT_NEW_AXIS_MASK, TfLiteStridedSliceParams, new_axis_mask, kInt, 0),
    MR_FIELD(StridedSliceOptions, VT_SHRINK_AXIS_MASK, TfLiteStridedSliceParams, shrink_axis_mask, kInt, 0),
    MR_FIELD(StridedSliceOptions, VT_OFFSET, TfLiteStridedSliceParams, offset, kBool, 0),
    // PACK: 36..37, UNPACK: 38..39 (the kernels check counts and axes)
    MR_FIELD(PackOptions, VT_VALUES_COUNT, TfLitePackParams, values_count, kInt, 0),
    MR_FIELD(PackOptions, VT_AXIS, TfLitePackParams, axis, kInt, 0),
    MR_FIELD(UnpackOptions, VT_NUM, TfLiteUnpackParams, num, kInt, 0),
    MR_FIELD(UnpackOptions, VT_AXIS, TfLiteUnpackParams, axis, kInt, 0),
    // SPLIT: 40, SPLIT_V: 41 (the kernels check the count)
    MR_FIELD(SplitOptions, VT_NUM_SPLITS, TfLiteSplitParams, num_splits, kInt, 0),
    MR_FIELD(SplitVOptions, VT_NUM_SPLITS, TfLiteSplitVParams, num_splits, kInt, 0),
    // SVDF: 42..44 (rank 0 would divide by zero in the kernel's filter count)
    MR_FIELD(SVDFOptions, VT_RANK, TfLiteSVDFParams, rank, kPositive, kRank),
    MR_FIELD(SVDFOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteSVDFParams, activation, kActivation, 0),
    MR_FIELD(SVDFOptions, VT_ASYMMETRIC_QUANTIZE_INPUTS, TfLiteSVDFParams, asymmetric_quantize_inputs, kBool, 0),
    // TRANSPOSE_CONV: 45..48
    MR_FIELD(TransposeConvOptions, VT_PADDING, TfLiteTransposeConvParams, padding, kPadding, 0),
    MR_FIELD(TransposeConvOptions, VT_STRIDE_W, TfLiteTransposeConvParams, stride_width, kWindowFactor, kStrideW),
    MR_FIELD(TransposeConvOptions, VT_STRIDE_H, TfLiteTransposeConvParams, stride_height, kWindowFactor, kStrideH),
    MR_FIELD(TransposeConvOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteTransposeConvParams, activation, kActivation,
             0),
    // UNIDIRECTIONAL_SEQUENCE_LSTM: 49..54 (the kernel checks the activation and the hybrid/diagonal flags)
    MR_FIELD(UnidirectionalSequenceLSTMOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteUnidirectionalSequenceLSTMParams,
             activation, kActivation, 0),
    MR_FIELD(UnidirectionalSequenceLSTMOptions, VT_CELL_CLIP, TfLiteUnidirectionalSequenceLSTMParams, cell_clip, kFloat,
             0),
    MR_FIELD(UnidirectionalSequenceLSTMOptions, VT_PROJ_CLIP, TfLiteUnidirectionalSequenceLSTMParams, proj_clip, kFloat,
             0),
    MR_FIELD(UnidirectionalSequenceLSTMOptions, VT_TIME_MAJOR, TfLiteUnidirectionalSequenceLSTMParams, time_major,
             kBool, 0),
    MR_FIELD(UnidirectionalSequenceLSTMOptions, VT_ASYMMETRIC_QUANTIZE_INPUTS, TfLiteUnidirectionalSequenceLSTMParams,
             asymmetric_quantize_inputs, kBool, 0),
    MR_FIELD(UnidirectionalSequenceLSTMOptions, VT_DIAGONAL_RECURRENT_TENSORS, TfLiteUnidirectionalSequenceLSTMParams,
             diagonal_recurrent_tensors, kBool, 0),
    // L2_NORMALIZATION: 55 (the kernel checks the activation is NONE)
    MR_FIELD(L2NormOptions, VT_FUSED_ACTIVATION_FUNCTION, TfLiteL2NormParams, activation, kActivation, 0),
    // RESIZE_BILINEAR: 56..57, RESIZE_NEAREST_NEIGHBOR: 58..59
    MR_FIELD(ResizeBilinearOptions, VT_ALIGN_CORNERS, TfLiteResizeBilinearParams, align_corners, kBool, 0),
    MR_FIELD(ResizeBilinearOptions, VT_HALF_PIXEL_CENTERS, TfLiteResizeBilinearParams, half_pixel_centers, kBool, 0),
    MR_FIELD(ResizeNearestNeighborOptions, VT_ALIGN_CORNERS, TfLiteResizeNearestNeighborParams, align_corners, kBool,
             0),
    MR_FIELD(ResizeNearestNeighborOptions, VT_HALF_PIXEL_CENTERS, TfLiteResizeNearestNeighborParams,
             half_pixel_centers, kBool, 0),
    // GATHER: 60..61, ARG_MAX and ARG_MIN: 62, CAST: 63..64 (the kernels check them)
    MR_FIELD(GatherOptions, VT_AXIS, TfLiteGatherParams, axis, kInt, 0),
    MR_FIELD(GatherOptions, VT_BATCH_DIMS, TfLiteGatherParams, batch_dims, kInt, 0),
    MR_FIELD(ArgMaxOptions, VT_OUTPUT_TYPE, TfLiteArgMaxParams, output_type, kTensorType, 0),
    MR_FIELD(CastOptions, VT_IN_DATA_TYPE, TfLiteCastParams, in_data_type, kTensorType, 0),
    MR_FIELD(CastOptions, VT_OUT_DATA_TYPE, TfLiteCastParams, out_data_type, kTensorType, 0),
};
#undef MR_FIELD
static_assert(sizeof(kFields) / sizeof(kFields[0]) == 65, "update the kOps field ranges");
static_assert(static_cast<int>(tflite::MulOptions::VT_FUSED_ACTIVATION_FUNCTION) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION) &&
                  static_cast<int>(tflite::SubOptions::VT_FUSED_ACTIVATION_FUNCTION) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION) &&
                  static_cast<int>(tflite::DivOptions::VT_FUSED_ACTIVATION_FUNCTION) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION),
              "ADD, MUL, SUB and DIV share one field list");
static_assert(static_cast<int>(tflite::ArgMinOptions::VT_OUTPUT_TYPE) ==
                      static_cast<int>(tflite::ArgMaxOptions::VT_OUTPUT_TYPE) &&
                  offsetof(TfLiteArgMinParams, output_type) == offsetof(TfLiteArgMaxParams, output_type) &&
                  sizeof(TfLiteArgMinParams) == sizeof(TfLiteArgMaxParams),
              "ARG_MAX and ARG_MIN share one field list");
static_assert(sizeof(TfLitePadding) == 4 && sizeof(TfLiteFusedActivation) == 4 && sizeof(float) == 4,
              "enum and float params are stored as 4-byte values");

struct OpSpec {
  uint8_t code;           // tflite::BuiltinOperator
  uint8_t options_type;   // tflite::BuiltinOptions expected
  uint8_t params_size;    // sizeof the TfLite*Params struct
  uint8_t first_field;    // kFields index
  uint8_t field_count;
};

#define MR_OP(code, Options, Params, first, count)                                                    \
  {                                                                                                   \
    static_cast<uint8_t>(BuiltinOperator::code), static_cast<uint8_t>(BuiltinOptions::Options),       \
        static_cast<uint8_t>(sizeof(Params)), first, count                                             \
  }

// Every op here has a BuiltinOperatorName(), which the messages use.
constexpr OpSpec kOps[] = {
    MR_OP(CONV_2D, Conv2DOptions, TfLiteConvParams, 0, 7),
    MR_OP(DEPTHWISE_CONV_2D, DepthwiseConv2DOptions, TfLiteDepthwiseConvParams, 7, 7),
    MR_OP(AVERAGE_POOL_2D, Pool2DOptions, TfLitePoolParams, 14, 6),
    MR_OP(MAX_POOL_2D, Pool2DOptions, TfLitePoolParams, 14, 6),
    MR_OP(FULLY_CONNECTED, FullyConnectedOptions, TfLiteFullyConnectedParams, 20, 4),
    MR_OP(SOFTMAX, SoftmaxOptions, TfLiteSoftmaxParams, 24, 1),
    MR_OP(ADD, AddOptions, TfLiteArithmeticParams, 25, 1),
    MR_OP(MUL, MulOptions, TfLiteArithmeticParams, 25, 1),
    MR_OP(RESHAPE, ReshapeOptions, TfLiteReshapeParams, 0, 0),
    MR_OP(SUB, SubOptions, TfLiteArithmeticParams, 25, 1),
    MR_OP(DIV, DivOptions, TfLiteArithmeticParams, 25, 1),
    MR_OP(LEAKY_RELU, LeakyReluOptions, TfLiteLeakyReluParams, 26, 1),
    MR_OP(CONCATENATION, ConcatenationOptions, TfLiteConcatenationParams, 27, 2),
    MR_OP(MEAN, ReducerOptions, TfLiteReducerParams, 29, 1),
    MR_OP(STRIDED_SLICE, StridedSliceOptions, TfLiteStridedSliceParams, 30, 6),
    MR_OP(SQUEEZE, SqueezeOptions, TfLiteSqueezeParams, 0, 0),
    MR_OP(PACK, PackOptions, TfLitePackParams, 36, 2),
    MR_OP(UNPACK, UnpackOptions, TfLiteUnpackParams, 38, 2),
    MR_OP(SPLIT, SplitOptions, TfLiteSplitParams, 40, 1),
    MR_OP(SPLIT_V, SplitVOptions, TfLiteSplitVParams, 41, 1),
    MR_OP(SVDF, SVDFOptions, TfLiteSVDFParams, 42, 3),
    MR_OP(TRANSPOSE_CONV, TransposeConvOptions, TfLiteTransposeConvParams, 45, 4),
    MR_OP(UNIDIRECTIONAL_SEQUENCE_LSTM, UnidirectionalSequenceLSTMOptions, TfLiteUnidirectionalSequenceLSTMParams,
          49, 6),
    MR_OP(L2_NORMALIZATION, L2NormOptions, TfLiteL2NormParams, 55, 1),
    MR_OP(RESIZE_BILINEAR, ResizeBilinearOptions, TfLiteResizeBilinearParams, 56, 2),
    MR_OP(RESIZE_NEAREST_NEIGHBOR, ResizeNearestNeighborOptions, TfLiteResizeNearestNeighborParams, 58, 2),
    MR_OP(GATHER, GatherOptions, TfLiteGatherParams, 60, 2),
    MR_OP(ARG_MAX, ArgMaxOptions, TfLiteArgMaxParams, 62, 1),
    MR_OP(ARG_MIN, ArgMinOptions, TfLiteArgMinParams, 62, 1),
    MR_OP(CAST, CastOptions, TfLiteCastParams, 63, 2),
};
#undef MR_OP

const OpSpec* FindOp(int32_t builtin_code) {
  for (const OpSpec& s : kOps) {
    if (s.code == builtin_code) return &s;
  }
  return nullptr;
}

// Strides and dilations multiply row strides in the windowed kernels' int
// pointer arithmetic; a corrupt huge factor overflowed there (found by
// fuzzing). Real models use single or low double digits.
constexpr int32_t kMaxWindowFactor = 1024;
constexpr char kWindowFactorTooLarge[] = "micro_runtime supports at most 1024 (the model is likely corrupt)";
static_assert(kMaxWindowFactor == 1024, "update kWindowFactorTooLarge");
constexpr char kCorrupt[] = "the model is corrupt";

// Reads, checks and stores one field; `table` is nullptr when the operator
// carries no options (then the schema default applies).
bool ParseField(int op_index, int32_t code, const flatbuffers::Table* table, const FieldSpec& f, uint8_t* params) {
  const bool is_byte = f.kind == kPadding || f.kind == kActivation || f.kind == kBool || f.kind == kWeightsFormat ||
                       f.kind == kTensorType;
  int32_t value = 0;
  if (is_byte) {
    if (table != nullptr) value = table->GetField<int8_t>(f.vtable_offset, 0);
  } else {
    const int32_t fallback = f.kind == kWindowFactor && DefaultsToOne(f.name) ? 1 : 0;
    value = table != nullptr ? table->GetField<int32_t>(f.vtable_offset, fallback) : fallback;
  }
  // The messages share "operator N (NAME) has WHAT VALUE; WHY", so the
  // format and the call are stored once.
  const char* what = kFieldNames + f.name;
  const char* why = nullptr;
  switch (f.kind) {
    case kPadding:
      what = "unknown padding";
      if (value != kTfLitePaddingSame && value != kTfLitePaddingValid) why = kCorrupt;
      break;
    case kActivation:
      what = "unknown fused activation";
      if (value < kTfLiteActNone || value > kTfLiteActSignBit) why = kCorrupt;
      break;
    case kWindowFactor:
    case kPositive:
      if (value < 1) {
        why = "it must be at least 1";
      } else if (f.kind == kWindowFactor && value > kMaxWindowFactor) {
        why = kWindowFactorTooLarge;
      }
      break;
    case kBool:
      params[f.param_offset] = value != 0;
      return true;
    case kTensorType:
      params[f.param_offset] = static_cast<uint8_t>(value);
      return true;
    case kWeightsFormat:
      if (value != static_cast<int32_t>(tflite::FullyConnectedOptionsWeightsFormat::DEFAULT)) {
        MicroPrintf("operator %d (FULLY_CONNECTED) uses shuffled weights (weights_format %d); micro_runtime "
                    "supports only the default format: re-convert without weight shuffling",
                    op_index, static_cast<int>(value));
        return false;
      }
      return true;
    default:
      break;
  }
  if (why != nullptr) {
    MicroPrintf("operator %d (%s) has %s %d; %s", op_index, BuiltinOperatorName(code), what,
                static_cast<int>(value), why);
    return false;
  }
  // Enums, int32 and float (its bits) are all 4-byte values; memcpy because
  // the params field may be a float.
  memcpy(params + f.param_offset, &value, sizeof(value));
  return true;
}

// RESHAPE's new_shape and SQUEEZE's squeeze_dims: one int vector, the first
// field of its table, into a {count, values[8]} params struct.
static_assert(static_cast<int>(tflite::ReshapeOptions::VT_NEW_SHAPE) ==
                      static_cast<int>(tflite::SqueezeOptions::VT_SQUEEZE_DIMS) &&
                  sizeof(TfLiteReshapeParams) == sizeof(TfLiteSqueezeParams) &&
                  offsetof(TfLiteSqueezeParams, squeeze_dims) == offsetof(TfLiteReshapeParams, shape),
              "RESHAPE and SQUEEZE share the int vector parser");
bool ParseIntVector(int op_index, int32_t code, const void* options, TfLiteReshapeParams* p) {
  p->num_dimensions = 0;
  const auto* table = static_cast<const flatbuffers::Table*>(options);
  const auto* values =
      table == nullptr ? nullptr
                       : table->GetPointer<const flatbuffers::Vector<int32_t>*>(tflite::ReshapeOptions::VT_NEW_SHAPE);
  if (values == nullptr) return true;
  const uint32_t max_dims = sizeof(p->shape) / sizeof(p->shape[0]);
  if (values->size() > max_dims) {
    MicroPrintf("operator %d (%s) has %u %s; micro_runtime supports up to %u", op_index, BuiltinOperatorName(code),
                static_cast<unsigned>(values->size()),
                code == static_cast<int32_t>(BuiltinOperator::RESHAPE) ? "new_shape dimensions" : "squeeze_dims",
                static_cast<unsigned>(max_dims));
    return false;
  }
  p->num_dimensions = static_cast<int32_t>(values->size());
  for (uint32_t i = 0; i < values->size(); ++i) p->shape[i] = values->Get(i);
  return true;
}

}  // namespace

size_t BuiltinOptionsSize(int32_t builtin_code) {
  const OpSpec* spec = FindOp(builtin_code);
  return spec != nullptr ? spec->params_size : 0;
}

TfLiteStatus ParseBuiltinOptions(const tflite::Operator* op, int32_t builtin_code, int op_index,
                                 ParserAllocate allocate, void* allocator, const void** out) {
  *out = nullptr;
  const OpSpec* spec = FindOp(builtin_code);
  if (spec == nullptr) return kTfLiteOk;
  void* memory = allocate(allocator, spec->params_size);
  if (memory == nullptr) return kTfLiteError;  // the allocator reported it
  // The options table if it has the expected type; nullptr when the
  // operator carries none (then schema defaults apply).
  const void* options = nullptr;
  const BuiltinOptions type = op->builtin_options_type();
  if (type != BuiltinOptions::NONE && op->builtin_options() != nullptr) {
    if (static_cast<int>(type) != spec->options_type) {
      MicroPrintf("operator %d (%s) carries options of union type %d; its options are union type %d. The model is "
                  "corrupt", op_index, BuiltinOperatorName(builtin_code), static_cast<int>(type),
                  static_cast<int>(spec->options_type));
      return kTfLiteError;
    }
    options = op->builtin_options();
  }
  const auto* table = static_cast<const flatbuffers::Table*>(options);
  uint8_t* params = static_cast<uint8_t*>(memory);
  for (int i = spec->first_field; i < spec->first_field + spec->field_count; ++i) {
    if (!ParseField(op_index, builtin_code, table, kFields[i], params)) return kTfLiteError;
  }
  if ((builtin_code == static_cast<int32_t>(BuiltinOperator::RESHAPE) ||
       builtin_code == static_cast<int32_t>(BuiltinOperator::SQUEEZE)) &&
      !ParseIntVector(op_index, builtin_code, options, static_cast<TfLiteReshapeParams*>(memory))) {
    return kTfLiteError;
  }
  *out = memory;
  return kTfLiteOk;
}

}  // namespace micro_runtime
