// gemmlowp's fixed-point functions that TFLite's integer kernels are written
// in, on raw int32 values: "Qm" is m integer bits and 31 - m fraction bits
// (Q0 holds [-1, 1), its 1.0 being INT32_MAX). Products are
// SaturatingRoundingDoublingHighMul (quantization_util.h), sums plain int32 sums.
// Bit-exact with gemmlowp's scalar code.
#ifndef MICRO_RUNTIME_KERNELS_FIXED_POINT_H_
#define MICRO_RUNTIME_KERNELS_FIXED_POINT_H_

#include <stdint.h>

namespace micro_runtime {

// 1 / (1 + a) for a in [0, 1) given as Q0, result Q0 (gemmlowp's
// one_over_one_plus_x_for_x_in_0_1: three Newton-Raphson steps in Q2 from
// the start 48/17 - 32/17 * d, d = (1 + a) / 2). DIV's reciprocal and
// SOFTMAX's normalization.
int32_t OneOverOnePlusX(int32_t a);

// exp(a) for a <= 0 given as Q5 (integer part down to -32), result Q0
// (gemmlowp's exp_on_negative_values for 5 integer bits): a Taylor polynomial
// around -1/8 on a's fraction modulo 1/4, times exp(-2^k) for each set bit
// k = -2..4 of the rest; exp(0) is INT32_MAX.
int32_t ExpOnNegativeValuesQ5(int32_t a);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_FIXED_POINT_H_
