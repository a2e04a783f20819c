// LOGISTIC and TANH (their shared prepare and invoke) and TFLM's int16
// sigmoid and tanh, which the integer UNIDIRECTIONAL_SEQUENCE_LSTM's gates
// use too: linear
// interpolation between 256 knots of sigmoid(i / 24) in 0.16 fixed point
// (tanh(x) = 2 sigmoid(2x) - 1), on an input at scale 1 / (3 * 4096), so
// x = +-10.67 is +-2^17; results at scale 2^-15.
#ifndef MICRO_RUNTIME_KERNELS_SIGMOID_INT16_H_
#define MICRO_RUNTIME_KERNELS_SIGMOID_INT16_H_

#include <stdint.h>

#include "micro_runtime/common.h"

namespace micro_runtime {

// sigmoid(x / 12288) * 32768 as TFLM computes it: knots 512 input steps
// apart (1/24), a 9-bit interpolation fraction, rounded to [16384, 32767].
int32_t SigmoidInt16(int32_t x);

// tanh(x / 12288) * 32768 as TFLM computes it: knots 256 input steps apart
// (sigmoid of 2x), an 8-bit fraction, rounded to [-32767, 32767].
int32_t TanhInt16(int32_t x);

// TFLite's CheckedLog2: true when log2(x) is within 1e-3 of an integer,
// which goes to *log2. Computed from x's binary exponent and mantissa
// (TFLite takes logf; the two agree except for scales within float rounding
// of the 1e-3 boundary).
bool NearPowerOfTwo(float x, int* log2);

// Prepare of LOGISTIC (tanh false) or TANH (tanh true): one input and one
// output of one type and shape; float32 is y = f(x); int8 takes
// PrepareInt8TableOp's table of f (output scale 1 / int8_scale_denominator,
// zero point int8_zero_point); int16 is TFLM's: zero points 0, output scale
// 2^-15 (to 1e-3 in log2), and the input rescaled to 1 / 12288 by an exact
// multiplier when its scale is 2^-12 (TANH: or 2^-11), otherwise by a 15-bit
// multiplier and a rounding right shift (TFLM's truncated multiplier,
// doubled until it exceeds 16383.5). int16 input scales whose multiplier does
// not fit 15 bits (above ~2.67, where TFLM's debug build aborts) or that
// round it to 0 (below ~4e-14) are refused.
TfLiteStatus PrepareSigmoidOp(const char* op, bool tanh, float (*f)(float), int int8_scale_denominator,
                              int32_t int8_zero_point, TfLiteContext* context, TfLiteNode* node);

// Invoke of a node prepared by PrepareSigmoidOp.
TfLiteStatus EvalSigmoidOp(const char* op, bool tanh, float (*f)(float), TfLiteContext* context, TfLiteNode* node);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_SIGMOID_INT16_H_
