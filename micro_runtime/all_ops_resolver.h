// A resolver with every kernel micro_runtime ships (kernels/micro_ops.h).
// Convenient for tools and tests; firmware that wants the smallest image
// registers only its model's ops in a MicroMutableOpResolver<N>.
//
// Version ranges are the op versions our kernels implement (e.g. CONV_2D v3
// and DEPTHWISE_CONV_2D v2+ add dilation, FULLY_CONNECTED v4 and SOFTMAX v2
// are the int8 variants the converter writes; SUB v3, DIV v2 and
// MAXIMUM/MINIMUM v3 add broadcasting beyond 4-D, SUB v5, ABS v3,
// LEAKY_RELU v2 and MAXIMUM/MINIMUM v4 are int16). SUB v4 is int64, which
// prepare refuses by type. docs/ops.md lists ops x types.
#ifndef MICRO_RUNTIME_ALL_OPS_RESOLVER_H_
#define MICRO_RUNTIME_ALL_OPS_RESOLVER_H_

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_op_resolver.h"

// The ops come in groups, each registered by one function, so a test of
// one group links only that group's kernels: every kernel together with the
// interpreter and a model no longer fits a 64 KB Blue Pill
// (all_ops_resolver_model_ops_test runs hello_world on the model ops;
// all_ops_resolver_elementwise_ops_test and all_ops_resolver_shape_ops_test
// check the others).

// The ops of the reference models (convolutions, pooling, FULLY_CONNECTED,
// SOFTMAX, ADD/MUL, activations, RESHAPE, (DE)QUANTIZE, SIN, Atan).
constexpr size_t kModelOpsCount = 17;
template <class Resolver>
void AddModelOps(Resolver& resolver) {
  using Op = tflite::BuiltinOperator;
  resolver.AddBuiltin(Op::ADD, Register_ADD(), 1, 2);
  resolver.AddBuiltin(Op::AVERAGE_POOL_2D, Register_AVERAGE_POOL_2D(), 1, 2);
  resolver.AddBuiltin(Op::CONV_2D, Register_CONV_2D(), 1, 3);
  resolver.AddBuiltin(Op::DEPTHWISE_CONV_2D, Register_DEPTHWISE_CONV_2D(), 1, 3);
  resolver.AddBuiltin(Op::DEQUANTIZE, Register_DEQUANTIZE(), 1, 2);
  resolver.AddBuiltin(Op::FULLY_CONNECTED, Register_FULLY_CONNECTED(), 1, 4);
  resolver.AddBuiltin(Op::LOGISTIC, Register_LOGISTIC(), 1, 2);
  resolver.AddBuiltin(Op::MAX_POOL_2D, Register_MAX_POOL_2D(), 1, 2);
  resolver.AddBuiltin(Op::MUL, Register_MUL(), 1, 2);
  resolver.AddBuiltin(Op::QUANTIZE, Register_QUANTIZE(), 1, 2);
  resolver.AddBuiltin(Op::RELU, Register_RELU(), 1, 2);
  resolver.AddBuiltin(Op::RELU6, Register_RELU6(), 1, 2);
  resolver.AddBuiltin(Op::RESHAPE, Register_RESHAPE(), 1, 1);
  resolver.AddBuiltin(Op::SIN, Register_SIN(), 1, 1);
  resolver.AddBuiltin(Op::SOFTMAX, Register_SOFTMAX(), 1, 2);
  resolver.AddBuiltin(Op::TANH, Register_TANH(), 1, 2);
  resolver.AddCustom("Atan", Register_ATAN(), 1, 1);
}

// The elementwise ops of issue 10 part 3 (SUB, DIV, MAXIMUM/MINIMUM,
// SQUARED_DIFFERENCE, PRELU, ABS, SQRT, RSQRT, EXP, LOG, LEAKY_RELU,
// HARD_SWISH).
constexpr size_t kElementwiseOpsCount = 13;
template <class Resolver>
void AddElementwiseOps(Resolver& resolver) {
  using Op = tflite::BuiltinOperator;
  resolver.AddBuiltin(Op::ABS, Register_ABS(), 1, 3);
  resolver.AddBuiltin(Op::DIV, Register_DIV(), 1, 2);
  resolver.AddBuiltin(Op::EXP, Register_EXP(), 1, 1);
  resolver.AddBuiltin(Op::HARD_SWISH, Register_HARD_SWISH(), 1, 1);
  resolver.AddBuiltin(Op::LEAKY_RELU, Register_LEAKY_RELU(), 1, 2);
  resolver.AddBuiltin(Op::LOG, Register_LOG(), 1, 1);
  resolver.AddBuiltin(Op::MAXIMUM, Register_MAXIMUM(), 1, 4);
  resolver.AddBuiltin(Op::MINIMUM, Register_MINIMUM(), 1, 4);
  resolver.AddBuiltin(Op::PRELU, Register_PRELU(), 1, 1);
  resolver.AddBuiltin(Op::RSQRT, Register_RSQRT(), 1, 2);
  resolver.AddBuiltin(Op::SQRT, Register_SQRT(), 1, 1);
  resolver.AddBuiltin(Op::SQUARED_DIFFERENCE, Register_SQUARED_DIFFERENCE(), 1, 2);
  resolver.AddBuiltin(Op::SUB, Register_SUB(), 1, 5);
}

// The shape and data-movement ops of issue 10 part 3, second batch (PAD,
// PADV2, CONCATENATION, MEAN, STRIDED_SLICE, TRANSPOSE, SQUEEZE, EXPAND_DIMS):
// PAD/PADV2 v2-v4 are int8, int16 and 5-D; CONCATENATION v2/v3 int8/int16
// (v4 is uint32); MEAN v2/v3 int8/int16; STRIDED_SLICE v2 int8, v3 bool,
// v4 5-D (v6 and up need ellipsis/new-axis masks, uint32 or offset);
// TRANSPOSE v2-v6 int8, bool, 5-D, int16, 6-D.
constexpr size_t kShapeOpsCount = 8;
template <class Resolver>
void AddShapeOps(Resolver& resolver) {
  using Op = tflite::BuiltinOperator;
  resolver.AddBuiltin(Op::CONCATENATION, Register_CONCATENATION(), 1, 3);
  resolver.AddBuiltin(Op::EXPAND_DIMS, Register_EXPAND_DIMS(), 1, 1);
  resolver.AddBuiltin(Op::MEAN, Register_MEAN(), 1, 3);
  resolver.AddBuiltin(Op::PAD, Register_PAD(), 1, 4);
  resolver.AddBuiltin(Op::PADV2, Register_PADV2(), 1, 4);
  resolver.AddBuiltin(Op::SQUEEZE, Register_SQUEEZE(), 1, 1);
  resolver.AddBuiltin(Op::STRIDED_SLICE, Register_STRIDED_SLICE(), 1, 4);
  resolver.AddBuiltin(Op::TRANSPOSE, Register_TRANSPOSE(), 1, 6);
}

constexpr size_t kAllOpsCount = kModelOpsCount + kElementwiseOpsCount + kShapeOpsCount;

class AllOpsResolver : public MicroMutableOpResolver<kAllOpsCount> {
 public:
  AllOpsResolver() {
    AddModelOps(*this);
    AddElementwiseOps(*this);
    AddShapeOps(*this);
  }
};

#endif  // MICRO_RUNTIME_ALL_OPS_RESOLVER_H_
