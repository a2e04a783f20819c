// A resolver with every kernel micro_runtime ships (kernels/micro_ops.h).
// Convenient for tools and tests; firmware that wants the smallest image
// registers only its model's ops in a MicroMutableOpResolver<N>.
//
// Version ranges are the op versions our kernels implement (e.g. CONV_2D v3
// and DEPTHWISE_CONV_2D v2+ add dilation, FULLY_CONNECTED v4 and SOFTMAX v2
// are the int8 variants the converter writes).
#ifndef MICRO_RUNTIME_ALL_OPS_RESOLVER_H_
#define MICRO_RUNTIME_ALL_OPS_RESOLVER_H_

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_op_resolver.h"

constexpr size_t kAllOpsCount = 17;

class AllOpsResolver : public MicroMutableOpResolver<kAllOpsCount> {
 public:
  AllOpsResolver() {
    using Op = tflite::BuiltinOperator;
    AddBuiltin(Op::ADD, Register_ADD(), 1, 2);
    AddBuiltin(Op::AVERAGE_POOL_2D, Register_AVERAGE_POOL_2D(), 1, 2);
    AddBuiltin(Op::CONV_2D, Register_CONV_2D(), 1, 3);
    AddBuiltin(Op::DEPTHWISE_CONV_2D, Register_DEPTHWISE_CONV_2D(), 1, 3);
    AddBuiltin(Op::DEQUANTIZE, Register_DEQUANTIZE(), 1, 2);
    AddBuiltin(Op::FULLY_CONNECTED, Register_FULLY_CONNECTED(), 1, 4);
    AddBuiltin(Op::LOGISTIC, Register_LOGISTIC(), 1, 2);
    AddBuiltin(Op::MAX_POOL_2D, Register_MAX_POOL_2D(), 1, 2);
    AddBuiltin(Op::MUL, Register_MUL(), 1, 2);
    AddBuiltin(Op::QUANTIZE, Register_QUANTIZE(), 1, 2);
    AddBuiltin(Op::RELU, Register_RELU(), 1, 2);
    AddBuiltin(Op::RELU6, Register_RELU6(), 1, 2);
    AddBuiltin(Op::RESHAPE, Register_RESHAPE(), 1, 1);
    AddBuiltin(Op::SIN, Register_SIN(), 1, 1);
    AddBuiltin(Op::SOFTMAX, Register_SOFTMAX(), 1, 2);
    AddBuiltin(Op::TANH, Register_TANH(), 1, 2);
    AddCustom("Atan", Register_ATAN(), 1, 1);
  }
};

#endif  // MICRO_RUNTIME_ALL_OPS_RESOLVER_H_
