#include "micro_runtime/model_structure.h"

namespace micro_runtime {
namespace {

// flatc's generated Verify() functions check every field of every table and
// inline the checks per field: about 2.5 KB of Cortex-M code. The runtime
// reads fields only through their table's vtable, so a field it never reads
// needs no check; the ones it does read are listed below and checked by one
// loop with the same flatbuffers::Verifier calls (bounds, alignment, offsets,
// strings, vector sizes, depth and table-count limits).

// What a field holds, and so how it is checked.
enum FieldKind : uint8_t {
  kU8,       // 1-byte scalar
  kU32,      // 4-byte scalar (int, uint, float)
  kU64,      // 8-byte scalar
  kString,
  kBytes,    // vector of 1-byte scalars
  kWords,    // vector of 4-byte scalars
  kLongs,    // vector of 8-byte scalars
  kTable,    // sub-table of type `table`
  kTables,   // vector of tables of type `table`
  kOptions,  // the Operator.builtin_options union; its type field comes first
};

// Tables of the schema subset; tables whose read fields have the same layout
// share one entry.
enum TableId : uint8_t {
  kModelT,
  kOperatorCodeT,
  kSubGraphT,
  kTensorT,
  kQuantizationT,
  kOperatorT,
  kBufferT,
  kConvT,
  kDepthwiseT,
  kPoolT,
  kFullyConnectedT,
  kOneByteT,   // AddOptions, MulOptions, SubOptions, DivOptions: fused_activation_function; ReducerOptions: keep_dims
  kFourByteT,  // SoftmaxOptions: beta; LeakyReluOptions: alpha
  kReshapeT,   // ReshapeOptions: new_shape; SqueezeOptions: squeeze_dims
  kConcatenationT,
  kStridedSliceT,
  kTwoIntT,  // PackOptions: values_count, axis; UnpackOptions: num, axis
  kSvdfT,
  kTransposeConvT,
  kLstmT,  // UnidirectionalSequenceLSTMOptions
  kResizeBilinearT,        // ResizeBilinearOptions: align_corners, half_pixel_centers
  kResizeNearestNeighborT,  // ResizeNearestNeighborOptions: the same two bools at other slots
  kTwoByteT,  // CastOptions: in_data_type, out_data_type
};

struct FieldSpec {
  uint8_t vtable_offset;  // the generated VT_ constant; 0 ends a table's list
  uint8_t kind;
  uint8_t table;
};

// One list per table, in TableId order, each ended by a {0} entry.
constexpr FieldSpec kFields[] = {
    // Model (description, metadata_buffer and metadata are never read)
    {tflite::Model::VT_VERSION, kU32, 0},
    {tflite::Model::VT_OPERATOR_CODES, kTables, kOperatorCodeT},
    {tflite::Model::VT_SUBGRAPHS, kTables, kSubGraphT},
    {tflite::Model::VT_BUFFERS, kTables, kBufferT},
    {0, 0, 0},
    // OperatorCode
    {tflite::OperatorCode::VT_DEPRECATED_BUILTIN_CODE, kU8, 0},
    {tflite::OperatorCode::VT_CUSTOM_CODE, kString, 0},
    {tflite::OperatorCode::VT_VERSION, kU32, 0},
    {tflite::OperatorCode::VT_BUILTIN_CODE, kU32, 0},
    {0, 0, 0},
    // SubGraph (name is never read)
    {tflite::SubGraph::VT_TENSORS, kTables, kTensorT},
    {tflite::SubGraph::VT_INPUTS, kWords, 0},
    {tflite::SubGraph::VT_OUTPUTS, kWords, 0},
    {tflite::SubGraph::VT_OPERATORS, kTables, kOperatorT},
    {0, 0, 0},
    // Tensor
    {tflite::Tensor::VT_SHAPE, kWords, 0},
    {tflite::Tensor::VT_TYPE, kU8, 0},
    {tflite::Tensor::VT_BUFFER, kU32, 0},
    {tflite::Tensor::VT_NAME, kString, 0},
    {tflite::Tensor::VT_QUANTIZATION, kTable, kQuantizationT},
    {tflite::Tensor::VT_IS_VARIABLE, kU8, 0},
    {0, 0, 0},
    // QuantizationParameters (min/max are never read; a details table is
    // rejected by its type before anything reads it)
    {tflite::QuantizationParameters::VT_SCALE, kWords, 0},
    {tflite::QuantizationParameters::VT_ZERO_POINT, kLongs, 0},
    {tflite::QuantizationParameters::VT_DETAILS_TYPE, kU8, 0},
    {tflite::QuantizationParameters::VT_QUANTIZED_DIMENSION, kU32, 0},
    {0, 0, 0},
    // Operator
    {tflite::Operator::VT_OPCODE_INDEX, kU32, 0},
    {tflite::Operator::VT_INPUTS, kWords, 0},
    {tflite::Operator::VT_OUTPUTS, kWords, 0},
    {tflite::Operator::VT_BUILTIN_OPTIONS_TYPE, kU8, 0},
    {tflite::Operator::VT_BUILTIN_OPTIONS, kOptions, 0},
    {tflite::Operator::VT_CUSTOM_OPTIONS, kBytes, 0},
    {tflite::Operator::VT_LARGE_CUSTOM_OPTIONS_SIZE, kU64, 0},
    {0, 0, 0},
    // Buffer
    {tflite::Buffer::VT_DATA, kBytes, 0},
    {tflite::Buffer::VT_OFFSET, kU64, 0},
    {tflite::Buffer::VT_SIZE, kU64, 0},
    {0, 0, 0},
    // Conv2DOptions
    {tflite::Conv2DOptions::VT_PADDING, kU8, 0},
    {tflite::Conv2DOptions::VT_STRIDE_W, kU32, 0},
    {tflite::Conv2DOptions::VT_STRIDE_H, kU32, 0},
    {tflite::Conv2DOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {tflite::Conv2DOptions::VT_DILATION_W_FACTOR, kU32, 0},
    {tflite::Conv2DOptions::VT_DILATION_H_FACTOR, kU32, 0},
    {tflite::Conv2DOptions::VT_QUANTIZED_BIAS_TYPE, kU8, 0},
    {0, 0, 0},
    // DepthwiseConv2DOptions
    {tflite::DepthwiseConv2DOptions::VT_PADDING, kU8, 0},
    {tflite::DepthwiseConv2DOptions::VT_STRIDE_W, kU32, 0},
    {tflite::DepthwiseConv2DOptions::VT_STRIDE_H, kU32, 0},
    {tflite::DepthwiseConv2DOptions::VT_DEPTH_MULTIPLIER, kU32, 0},
    {tflite::DepthwiseConv2DOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {tflite::DepthwiseConv2DOptions::VT_DILATION_W_FACTOR, kU32, 0},
    {tflite::DepthwiseConv2DOptions::VT_DILATION_H_FACTOR, kU32, 0},
    {0, 0, 0},
    // Pool2DOptions
    {tflite::Pool2DOptions::VT_PADDING, kU8, 0},
    {tflite::Pool2DOptions::VT_STRIDE_W, kU32, 0},
    {tflite::Pool2DOptions::VT_STRIDE_H, kU32, 0},
    {tflite::Pool2DOptions::VT_FILTER_WIDTH, kU32, 0},
    {tflite::Pool2DOptions::VT_FILTER_HEIGHT, kU32, 0},
    {tflite::Pool2DOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {0, 0, 0},
    // FullyConnectedOptions
    {tflite::FullyConnectedOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {tflite::FullyConnectedOptions::VT_WEIGHTS_FORMAT, kU8, 0},
    {tflite::FullyConnectedOptions::VT_KEEP_NUM_DIMS, kU8, 0},
    {tflite::FullyConnectedOptions::VT_QUANTIZED_BIAS_TYPE, kU8, 0},
    {0, 0, 0},
    // AddOptions, MulOptions
    {tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {0, 0, 0},
    // SoftmaxOptions
    {tflite::SoftmaxOptions::VT_BETA, kU32, 0},
    {0, 0, 0},
    // ReshapeOptions, SqueezeOptions
    {tflite::ReshapeOptions::VT_NEW_SHAPE, kWords, 0},
    {0, 0, 0},
    // ConcatenationOptions
    {tflite::ConcatenationOptions::VT_AXIS, kU32, 0},
    {tflite::ConcatenationOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {0, 0, 0},
    // StridedSliceOptions
    {tflite::StridedSliceOptions::VT_BEGIN_MASK, kU32, 0},
    {tflite::StridedSliceOptions::VT_END_MASK, kU32, 0},
    {tflite::StridedSliceOptions::VT_ELLIPSIS_MASK, kU32, 0},
    {tflite::StridedSliceOptions::VT_NEW_AXIS_MASK, kU32, 0},
    {tflite::StridedSliceOptions::VT_SHRINK_AXIS_MASK, kU32, 0},
    {tflite::StridedSliceOptions::VT_OFFSET, kU8, 0},
    {0, 0, 0},
    // PackOptions, UnpackOptions
    {tflite::PackOptions::VT_VALUES_COUNT, kU32, 0},
    {tflite::PackOptions::VT_AXIS, kU32, 0},
    {0, 0, 0},
    // SVDFOptions
    {tflite::SVDFOptions::VT_RANK, kU32, 0},
    {tflite::SVDFOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {tflite::SVDFOptions::VT_ASYMMETRIC_QUANTIZE_INPUTS, kU8, 0},
    {0, 0, 0},
    // TransposeConvOptions
    {tflite::TransposeConvOptions::VT_PADDING, kU8, 0},
    {tflite::TransposeConvOptions::VT_STRIDE_W, kU32, 0},
    {tflite::TransposeConvOptions::VT_STRIDE_H, kU32, 0},
    {tflite::TransposeConvOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {0, 0, 0},
    // UnidirectionalSequenceLSTMOptions
    {tflite::UnidirectionalSequenceLSTMOptions::VT_FUSED_ACTIVATION_FUNCTION, kU8, 0},
    {tflite::UnidirectionalSequenceLSTMOptions::VT_CELL_CLIP, kU32, 0},
    {tflite::UnidirectionalSequenceLSTMOptions::VT_PROJ_CLIP, kU32, 0},
    {tflite::UnidirectionalSequenceLSTMOptions::VT_TIME_MAJOR, kU8, 0},
    {tflite::UnidirectionalSequenceLSTMOptions::VT_ASYMMETRIC_QUANTIZE_INPUTS, kU8, 0},
    {tflite::UnidirectionalSequenceLSTMOptions::VT_DIAGONAL_RECURRENT_TENSORS, kU8, 0},
    {0, 0, 0},
    // ResizeBilinearOptions
    {tflite::ResizeBilinearOptions::VT_ALIGN_CORNERS, kU8, 0},
    {tflite::ResizeBilinearOptions::VT_HALF_PIXEL_CENTERS, kU8, 0},
    {0, 0, 0},
    // ResizeNearestNeighborOptions
    {tflite::ResizeNearestNeighborOptions::VT_ALIGN_CORNERS, kU8, 0},
    {tflite::ResizeNearestNeighborOptions::VT_HALF_PIXEL_CENTERS, kU8, 0},
    {0, 0, 0},
    // CastOptions
    {tflite::CastOptions::VT_IN_DATA_TYPE, kU8, 0},
    {tflite::CastOptions::VT_OUT_DATA_TYPE, kU8, 0},
    {0, 0, 0},
};

static_assert(static_cast<int>(tflite::MulOptions::VT_FUSED_ACTIVATION_FUNCTION) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION) &&
                  static_cast<int>(tflite::SubOptions::VT_FUSED_ACTIVATION_FUNCTION) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION) &&
                  static_cast<int>(tflite::DivOptions::VT_FUSED_ACTIVATION_FUNCTION) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION),
              "AddOptions, MulOptions, SubOptions and DivOptions share a field list");
static_assert(static_cast<int>(tflite::LeakyReluOptions::VT_ALPHA) ==
                  static_cast<int>(tflite::SoftmaxOptions::VT_BETA),
              "SoftmaxOptions and LeakyReluOptions share a field list");
static_assert(static_cast<int>(tflite::ReducerOptions::VT_KEEP_DIMS) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION) &&
                  static_cast<int>(tflite::SqueezeOptions::VT_SQUEEZE_DIMS) ==
                      static_cast<int>(tflite::ReshapeOptions::VT_NEW_SHAPE),
              "ReducerOptions shares AddOptions' field list, SqueezeOptions ReshapeOptions'");
static_assert(static_cast<int>(tflite::UnpackOptions::VT_NUM) == static_cast<int>(tflite::PackOptions::VT_VALUES_COUNT) &&
                  static_cast<int>(tflite::UnpackOptions::VT_AXIS) == static_cast<int>(tflite::PackOptions::VT_AXIS),
              "UnpackOptions shares PackOptions' field list");
static_assert(static_cast<int>(tflite::SplitOptions::VT_NUM_SPLITS) == static_cast<int>(tflite::SoftmaxOptions::VT_BETA) &&
                  static_cast<int>(tflite::SplitVOptions::VT_NUM_SPLITS) ==
                      static_cast<int>(tflite::SoftmaxOptions::VT_BETA),
              "SplitOptions and SplitVOptions share SoftmaxOptions' field list (one 4-byte field)");
static_assert(static_cast<int>(tflite::L2NormOptions::VT_FUSED_ACTIVATION_FUNCTION) ==
                  static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION),
              "L2NormOptions shares AddOptions' field list");
static_assert(static_cast<int>(tflite::GatherOptions::VT_AXIS) == static_cast<int>(tflite::PackOptions::VT_VALUES_COUNT) &&
                  static_cast<int>(tflite::GatherOptions::VT_BATCH_DIMS) ==
                      static_cast<int>(tflite::PackOptions::VT_AXIS) &&
                  static_cast<int>(tflite::ArgMaxOptions::VT_OUTPUT_TYPE) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION) &&
                  static_cast<int>(tflite::ArgMinOptions::VT_OUTPUT_TYPE) ==
                      static_cast<int>(tflite::AddOptions::VT_FUSED_ACTIVATION_FUNCTION),
              "GatherOptions shares PackOptions' field list, ArgMaxOptions and ArgMinOptions AddOptions'");
static_assert(tflite::Operator::VT_BUILTIN_OPTIONS_TYPE + 2 == tflite::Operator::VT_BUILTIN_OPTIONS,
              "a union's type field sits just before its value");

// The builtin_options union members the options parser reads; any other
// member is never read (the parser rejects it), so it needs no check.
constexpr uint8_t kOptionTables[][2] = {
    {static_cast<uint8_t>(tflite::BuiltinOptions::Conv2DOptions), kConvT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::DepthwiseConv2DOptions), kDepthwiseT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::Pool2DOptions), kPoolT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::FullyConnectedOptions), kFullyConnectedT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::SoftmaxOptions), kFourByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::AddOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::MulOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::ReshapeOptions), kReshapeT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::SubOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::DivOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::LeakyReluOptions), kFourByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::ConcatenationOptions), kConcatenationT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::ReducerOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::StridedSliceOptions), kStridedSliceT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::SqueezeOptions), kReshapeT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::PackOptions), kTwoIntT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::UnpackOptions), kTwoIntT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::SplitOptions), kFourByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::SplitVOptions), kFourByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::SVDFOptions), kSvdfT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::TransposeConvOptions), kTransposeConvT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::UnidirectionalSequenceLSTMOptions), kLstmT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::L2NormOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::ResizeBilinearOptions), kResizeBilinearT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::ResizeNearestNeighborOptions), kResizeNearestNeighborT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::GatherOptions), kTwoIntT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::ArgMaxOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::ArgMinOptions), kOneByteT},
    {static_cast<uint8_t>(tflite::BuiltinOptions::CastOptions), kTwoByteT},
};

bool VerifyTableAt(flatbuffers::Verifier& v, const uint8_t* table, uint8_t id);

bool VerifyFieldOf(flatbuffers::Verifier& v, const uint8_t* base, const FieldSpec& f) {
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(base);
  const flatbuffers::voffset_t at = table->GetOptionalFieldOffset(f.vtable_offset);
  if (at == 0) return true;  // absent: readers get the default
  if (f.kind <= kU64) {
    const size_t bytes = f.kind == kU8 ? 1 : (f.kind == kU32 ? 4 : 8);
    return v.VerifyFieldStruct(base, at, bytes, bytes);
  }
  if (v.VerifyOffset(base, at) == 0) return false;
  const uint8_t* target = base + at + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(base + at);
  switch (f.kind) {
    case kString:
      return v.VerifyString(reinterpret_cast<const flatbuffers::String*>(target));
    case kBytes:
      return v.VerifyVectorOrString(target, 1);
    case kWords:
      return v.VerifyVectorOrString(target, 4);
    case kLongs:
      return v.VerifyVectorOrString(target, 8);
    case kTable:
      return VerifyTableAt(v, target, f.table);
    case kTables: {
      if (!v.VerifyVectorOrString(target, 4)) return false;
      const flatbuffers::uoffset_t count = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(target);
      for (flatbuffers::uoffset_t i = 0; i < count; ++i) {
        const uint8_t* element = target + 4 + 4 * static_cast<size_t>(i);
        if (!VerifyTableAt(v, element + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(element), f.table)) {
          return false;
        }
      }
      return true;
    }
    default: {  // kOptions; the type field before it is already verified
      const uint8_t type = table->GetField<uint8_t>(static_cast<flatbuffers::voffset_t>(f.vtable_offset - 2), 0);
      for (const auto& member : kOptionTables) {
        if (member[0] == type) return VerifyTableAt(v, target, member[1]);
      }
      return true;
    }
  }
}

bool VerifyTableAt(flatbuffers::Verifier& v, const uint8_t* table, uint8_t id) {
  if (!v.VerifyTableStart(table)) return false;
  const FieldSpec* f = kFields;
  for (; id > 0; --id) {
    while (f->vtable_offset != 0) ++f;
    ++f;
  }
  for (; f->vtable_offset != 0; ++f) {
    if (!VerifyFieldOf(v, table, *f)) return false;
  }
  return v.EndTable();
}

}  // namespace

bool VerifyModelTable(flatbuffers::Verifier& verifier, const uint8_t* table) {
  return VerifyTableAt(verifier, table, kModelT);
}

}  // namespace micro_runtime
