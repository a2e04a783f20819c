#include "micro_runtime/builtin_parser.h"

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/micro_log.h"
#include "micro_runtime/micro_op_resolver.h"

namespace micro_runtime {
namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;

struct ParseContext {
  const tflite::Operator* op;
  int32_t code;
  int op_index;
};

const char* OpName(const ParseContext& c) {
  const char* name = BuiltinOperatorName(c.code);
  return name != nullptr ? name : "?";
}

// The options table if it has the expected type; nullptr when the operator
// carries none (then schema defaults apply). *ok = false for a wrong type.
template <typename T>
const T* OptionsTable(const ParseContext& c, BuiltinOptions expected, const char* expected_name, bool* ok) {
  *ok = true;
  const BuiltinOptions type = c.op->builtin_options_type();
  if (type == BuiltinOptions::NONE || c.op->builtin_options() == nullptr) return nullptr;
  if (type != expected) {
    MicroPrintf("operator %d (%s) carries options of union type %d; expected %s. The model is corrupt", c.op_index,
                OpName(c), static_cast<int>(type), expected_name);
    *ok = false;
    return nullptr;
  }
  return static_cast<const T*>(c.op->builtin_options());
}

bool Activation(const ParseContext& c, tflite::ActivationFunctionType in, TfLiteFusedActivation* out) {
  const int value = static_cast<int>(in);
  if (value < kTfLiteActNone || value > kTfLiteActSignBit) {
    MicroPrintf("operator %d (%s) has unknown fused activation %d; the model is corrupt", c.op_index, OpName(c),
                value);
    return false;
  }
  *out = static_cast<TfLiteFusedActivation>(value);
  return true;
}

bool PaddingValue(const ParseContext& c, tflite::Padding in, TfLitePadding* out) {
  const int value = static_cast<int>(in);
  if (value != kTfLitePaddingSame && value != kTfLitePaddingValid) {
    MicroPrintf("operator %d (%s) has unknown padding %d; the model is corrupt", c.op_index, OpName(c), value);
    return false;
  }
  *out = static_cast<TfLitePadding>(value);
  return true;
}

bool Positive(const ParseContext& c, const char* field, int32_t value) {
  if (value < 1) {
    MicroPrintf("operator %d (%s) has %s %d; it must be at least 1", c.op_index, OpName(c), field,
                static_cast<int>(value));
    return false;
  }
  return true;
}

// Strides and dilations multiply row strides in the windowed kernels' int
// pointer arithmetic; a corrupt huge factor overflowed there (found by
// fuzzing). Real models use single or low double digits.
constexpr int32_t kMaxWindowFactor = 1024;

bool WindowFactor(const ParseContext& c, const char* field, int32_t value) {
  if (!Positive(c, field, value)) return false;
  if (value > kMaxWindowFactor) {
    MicroPrintf("operator %d (%s) has %s %d; micro_runtime supports at most %d (the model is likely corrupt)",
                c.op_index, OpName(c), field, static_cast<int>(value), static_cast<int>(kMaxWindowFactor));
    return false;
  }
  return true;
}

bool ParseConv(const ParseContext& c, TfLiteConvParams* p) {
  bool ok = false;
  const auto* o = OptionsTable<tflite::Conv2DOptions>(c, BuiltinOptions::Conv2DOptions, "Conv2DOptions", &ok);
  if (!ok) return false;
  p->stride_width = o ? o->stride_w() : 0;
  p->stride_height = o ? o->stride_h() : 0;
  p->dilation_width_factor = o ? o->dilation_w_factor() : 1;
  p->dilation_height_factor = o ? o->dilation_h_factor() : 1;
  return PaddingValue(c, o ? o->padding() : tflite::Padding::SAME, &p->padding) &&
         Activation(c, o ? o->fused_activation_function() : tflite::ActivationFunctionType::NONE, &p->activation) &&
         WindowFactor(c, "stride_w", p->stride_width) && WindowFactor(c, "stride_h", p->stride_height) &&
         WindowFactor(c, "dilation_w_factor", p->dilation_width_factor) &&
         WindowFactor(c, "dilation_h_factor", p->dilation_height_factor);
}

bool ParseDepthwise(const ParseContext& c, TfLiteDepthwiseConvParams* p) {
  bool ok = false;
  const auto* o = OptionsTable<tflite::DepthwiseConv2DOptions>(c, BuiltinOptions::DepthwiseConv2DOptions,
                                                               "DepthwiseConv2DOptions", &ok);
  if (!ok) return false;
  p->stride_width = o ? o->stride_w() : 0;
  p->stride_height = o ? o->stride_h() : 0;
  p->depth_multiplier = o ? o->depth_multiplier() : 0;
  p->dilation_width_factor = o ? o->dilation_w_factor() : 1;
  p->dilation_height_factor = o ? o->dilation_h_factor() : 1;
  return PaddingValue(c, o ? o->padding() : tflite::Padding::SAME, &p->padding) &&
         Activation(c, o ? o->fused_activation_function() : tflite::ActivationFunctionType::NONE, &p->activation) &&
         WindowFactor(c, "stride_w", p->stride_width) && WindowFactor(c, "stride_h", p->stride_height) &&
         WindowFactor(c, "dilation_w_factor", p->dilation_width_factor) &&
         WindowFactor(c, "dilation_h_factor", p->dilation_height_factor);
}

bool ParsePool(const ParseContext& c, TfLitePoolParams* p) {
  bool ok = false;
  const auto* o = OptionsTable<tflite::Pool2DOptions>(c, BuiltinOptions::Pool2DOptions, "Pool2DOptions", &ok);
  if (!ok) return false;
  p->stride_width = o ? o->stride_w() : 0;
  p->stride_height = o ? o->stride_h() : 0;
  p->filter_width = o ? o->filter_width() : 0;
  p->filter_height = o ? o->filter_height() : 0;
  return PaddingValue(c, o ? o->padding() : tflite::Padding::SAME, &p->padding) &&
         Activation(c, o ? o->fused_activation_function() : tflite::ActivationFunctionType::NONE, &p->activation) &&
         WindowFactor(c, "stride_w", p->stride_width) && WindowFactor(c, "stride_h", p->stride_height) &&
         Positive(c, "filter_width", p->filter_width) && Positive(c, "filter_height", p->filter_height);
}

bool ParseFullyConnected(const ParseContext& c, TfLiteFullyConnectedParams* p) {
  bool ok = false;
  const auto* o = OptionsTable<tflite::FullyConnectedOptions>(c, BuiltinOptions::FullyConnectedOptions,
                                                              "FullyConnectedOptions", &ok);
  if (!ok) return false;
  if (o != nullptr && o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat::DEFAULT) {
    MicroPrintf("operator %d (FULLY_CONNECTED) uses shuffled weights (weights_format %d); micro_runtime supports "
                "only the default format: re-convert without weight shuffling",
                c.op_index, static_cast<int>(o->weights_format()));
    return false;
  }
  p->keep_num_dims = o ? o->keep_num_dims() : false;
  return Activation(c, o ? o->fused_activation_function() : tflite::ActivationFunctionType::NONE, &p->activation);
}

bool ParseSoftmax(const ParseContext& c, TfLiteSoftmaxParams* p) {
  bool ok = false;
  const auto* o = OptionsTable<tflite::SoftmaxOptions>(c, BuiltinOptions::SoftmaxOptions, "SoftmaxOptions", &ok);
  if (!ok) return false;
  p->beta = o ? o->beta() : 0.0f;
  return true;
}

bool ParseArithmetic(const ParseContext& c, TfLiteArithmeticParams* p) {
  bool ok = false;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType::NONE;
  if (c.code == static_cast<int32_t>(BuiltinOperator::ADD)) {
    const auto* o = OptionsTable<tflite::AddOptions>(c, BuiltinOptions::AddOptions, "AddOptions", &ok);
    if (o != nullptr) act = o->fused_activation_function();
  } else {
    const auto* o = OptionsTable<tflite::MulOptions>(c, BuiltinOptions::MulOptions, "MulOptions", &ok);
    if (o != nullptr) act = o->fused_activation_function();
  }
  return ok && Activation(c, act, &p->activation);
}

bool ParseReshape(const ParseContext& c, TfLiteReshapeParams* p) {
  bool ok = false;
  const auto* o = OptionsTable<tflite::ReshapeOptions>(c, BuiltinOptions::ReshapeOptions, "ReshapeOptions", &ok);
  if (!ok) return false;
  p->num_dimensions = 0;
  if (o == nullptr || o->new_shape() == nullptr) return true;
  const auto* shape = o->new_shape();
  const uint32_t max_dims = sizeof(p->shape) / sizeof(p->shape[0]);
  if (shape->size() > max_dims) {
    MicroPrintf("operator %d (RESHAPE) has a %u-D new_shape; micro_runtime supports up to %u dimensions",
                c.op_index, static_cast<unsigned>(shape->size()), static_cast<unsigned>(max_dims));
    return false;
  }
  p->num_dimensions = static_cast<int32_t>(shape->size());
  for (uint32_t i = 0; i < shape->size(); ++i) p->shape[i] = shape->Get(i);
  return true;
}

}  // namespace

size_t BuiltinOptionsSize(int32_t builtin_code) {
  switch (static_cast<BuiltinOperator>(builtin_code)) {
    case BuiltinOperator::CONV_2D:
      return sizeof(TfLiteConvParams);
    case BuiltinOperator::DEPTHWISE_CONV_2D:
      return sizeof(TfLiteDepthwiseConvParams);
    case BuiltinOperator::AVERAGE_POOL_2D:
    case BuiltinOperator::MAX_POOL_2D:
      return sizeof(TfLitePoolParams);
    case BuiltinOperator::FULLY_CONNECTED:
      return sizeof(TfLiteFullyConnectedParams);
    case BuiltinOperator::SOFTMAX:
      return sizeof(TfLiteSoftmaxParams);
    case BuiltinOperator::ADD:
    case BuiltinOperator::MUL:
      return sizeof(TfLiteArithmeticParams);
    case BuiltinOperator::RESHAPE:
      return sizeof(TfLiteReshapeParams);
    default:
      return 0;
  }
}

TfLiteStatus ParseBuiltinOptions(const tflite::Operator* op, int32_t builtin_code, int op_index,
                                 ParserAllocate allocate, void* allocator, const void** out) {
  *out = nullptr;
  const size_t size = BuiltinOptionsSize(builtin_code);
  if (size == 0) return kTfLiteOk;
  void* memory = allocate(allocator, size);
  if (memory == nullptr) return kTfLiteError;  // the allocator reported it
  const ParseContext c = {op, builtin_code, op_index};
  bool ok = false;
  switch (static_cast<BuiltinOperator>(builtin_code)) {
    case BuiltinOperator::CONV_2D:
      ok = ParseConv(c, static_cast<TfLiteConvParams*>(memory));
      break;
    case BuiltinOperator::DEPTHWISE_CONV_2D:
      ok = ParseDepthwise(c, static_cast<TfLiteDepthwiseConvParams*>(memory));
      break;
    case BuiltinOperator::AVERAGE_POOL_2D:
    case BuiltinOperator::MAX_POOL_2D:
      ok = ParsePool(c, static_cast<TfLitePoolParams*>(memory));
      break;
    case BuiltinOperator::FULLY_CONNECTED:
      ok = ParseFullyConnected(c, static_cast<TfLiteFullyConnectedParams*>(memory));
      break;
    case BuiltinOperator::SOFTMAX:
      ok = ParseSoftmax(c, static_cast<TfLiteSoftmaxParams*>(memory));
      break;
    case BuiltinOperator::ADD:
    case BuiltinOperator::MUL:
      ok = ParseArithmetic(c, static_cast<TfLiteArithmeticParams*>(memory));
      break;
    case BuiltinOperator::RESHAPE:
      ok = ParseReshape(c, static_cast<TfLiteReshapeParams*>(memory));
      break;
    default:
      break;
  }
  if (!ok) return kTfLiteError;
  *out = memory;
  return kTfLiteOk;
}

}  // namespace micro_runtime
