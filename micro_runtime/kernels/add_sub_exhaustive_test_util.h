// Exhaustive int8 ADD/SUB checks (add_test.cc, sub_test.cc): every input
// pair (x1, x2) in [-128, 127]^2, through the kernel without broadcasting
// (the DSP cores' fast path, arm_dsp/add_sub_int8.cc, or the general path),
// against TFLite's formula computed here from the portable fixed-point
// functions: y = clamp(zp_out + MBQM(s1 +- s2, om, osh)), s_i =
// CommonScale::Input_i(x_i - zp_i), for pseudo-random quantization parameter
// sets: scales over 2^-20..2^4 ratios (equal input scales, output scales up
// to the refusal limit and far below the inputs'), zero points at and near
// -128 and 127, and every fused activation.
#ifndef MICRO_RUNTIME_KERNELS_ADD_SUB_EXHAUSTIVE_TEST_UTIL_H_
#define MICRO_RUNTIME_KERNELS_ADD_SUB_EXHAUSTIVE_TEST_UTIL_H_

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace add_sub_exhaustive {

struct Params {
  float scale1, scale2, scale_out;
  int zp1, zp2, zp_out;
  TfLiteFusedActivation act;
};

// xorshift32: the same parameter sets on every board.
inline uint32_t Next(uint32_t* state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

// (1 + fraction) * 2^exponent, exponent in [lo, hi], without libm.
inline float RandomScale(uint32_t* state, int lo, int hi) {
  float s = 1.0f + static_cast<float>(Next(state) & 0xFFFFFF) * (1.0f / 16777216.0f);
  int exponent = lo + static_cast<int>(Next(state) % static_cast<uint32_t>(hi - lo + 1));
  for (; exponent > 0; --exponent) s *= 2.0f;
  for (; exponent < 0; ++exponent) s *= 0.5f;
  return s;
}

inline int RandomZeroPoint(uint32_t* state) {
  const uint32_t r = Next(state);
  switch (r & 7) {
    case 0: return -128;
    case 1: return 127;
    case 2: return -127;
    case 3: return 126;
    default: return static_cast<int>((r >> 8) & 0xFF) - 128;
  }
}

// Parameter set `i` of a seeded sequence.
inline Params RandomParams(uint32_t* state) {
  Params p;
  p.scale1 = RandomScale(state, -12, 0);
  const uint32_t shape = Next(state) % 8;
  // Equal scales (both inputs on the fast path's direct form), input 1 or 2
  // the larger, ratios down to 2^-20.
  p.scale2 = shape == 0 ? p.scale1 : p.scale1 * RandomScale(state, shape < 4 ? -4 : -20, shape < 6 ? 3 : 0);
  const float larger = p.scale1 > p.scale2 ? p.scale1 : p.scale2;
  // Output scale from 2^-18 of the larger input's (output shift 0 or 1, the
  // fast path's edge) to 2^6 of it (shift 25: the general path).
  const uint32_t out_kind = Next(state) % 8;
  p.scale_out = larger * (out_kind == 0 ? RandomScale(state, -18, -16) : RandomScale(state, out_kind == 1 ? 2 : -4, out_kind == 1 ? 6 : 2));
  p.zp1 = RandomZeroPoint(state);
  p.zp2 = RandomZeroPoint(state);
  p.zp_out = RandomZeroPoint(state);
  const TfLiteFusedActivation acts[] = {kTfLiteActNone, kTfLiteActRelu, kTfLiteActRelu6, kTfLiteActReluN1To1};
  p.act = acts[Next(state) % 4];
  return p;
}

// Inputs and output of one kernel run: a chunk of the 65,536 pairs, at a
// byte offset of 0..3 (unaligned words) and of odd length (tails).
constexpr int32_t kChunk = 1021;
inline int8_t g_in1[kChunk + 4];
inline int8_t g_in2[kChunk + 4];
inline int8_t g_out[kChunk + 4];
// Each input's rescaled value by byte (x + 128): bluepill's stack has no room for them.
inline int32_t s1[256];
inline int32_t s2[256];

// Runs every pair through `registration` (ADD, or SUB when `subtract`) with
// same-shape tensors and expects TFLite's formula exactly; a parameter set
// whose output multiplier reaches 1 must be refused instead.
inline void ExpectAllPairs(const TfLiteRegistration& registration, bool subtract, const Params& p) {
  using namespace micro_runtime;  // NOLINT
  CommonScale cs;
  const double common = PrepareCommonScale(p.scale1, p.scale2, 20, &cs);
  const double ratio = common / (static_cast<double>(1 << 20) * static_cast<double>(p.scale_out));
  int32_t shape[] = {1, 1};
  const TfLiteArithmeticParams params = {p.act};
  if (!(ratio < 1.0)) {
    shape[1] = 4;
    TF_LITE_MICRO_EXPECT_EQ(
        kTfLiteError,
        RunBinaryKernel(registration, CreateQuantizedTensor(g_in1, IntArrayFromInts(shape), p.scale1, p.zp1),
                        CreateQuantizedTensor(g_in2, IntArrayFromInts(shape), p.scale2, p.zp2),
                        CreateQuantizedTensor(g_out, IntArrayFromInts(shape), p.scale_out, p.zp_out), &params));
    return;
  }
  int32_t om;
  int os;
  QuantizeMultiplier(ratio, &om, &os);
  int32_t act_min;
  int32_t act_max;
  const TfLiteTensor out_tensor = CreateQuantizedTensor(g_out, IntArrayFromInts(shape), p.scale_out, p.zp_out);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CalculateActivationRangeQuantized(p.act, &out_tensor, &act_min, &act_max));
  for (int32_t x = -128; x < 128; ++x) {
    s1[x + 128] = cs.Input1(x - p.zp1);
    s2[x + 128] = cs.Input2(x - p.zp2);
  }
  int failures = 0;
  for (int32_t start = 0, chunk = 0; start < 65536; start += kChunk, ++chunk) {
    const int32_t n = 65536 - start < kChunk ? 65536 - start : kChunk;
    const int32_t skew = chunk & 3;
    for (int32_t j = 0; j < n; ++j) {
      g_in1[skew + j] = static_cast<int8_t>(((start + j) >> 8) - 128);
      g_in2[skew + j] = static_cast<int8_t>(((start + j) & 0xFF) - 128);
      g_out[skew + j] = 0x55;
    }
    g_out[skew + n] = 0x55;
    shape[1] = n;
    TF_LITE_MICRO_EXPECT_EQ(
        kTfLiteOk,
        RunBinaryKernel(registration,
                        CreateQuantizedTensor(g_in1 + skew, IntArrayFromInts(shape), p.scale1, p.zp1),
                        CreateQuantizedTensor(g_in2 + skew, IntArrayFromInts(shape), p.scale2, p.zp2),
                        CreateQuantizedTensor(g_out + skew, IntArrayFromInts(shape), p.scale_out, p.zp_out),
                        &params));
    for (int32_t j = 0; j < n; ++j) {
      const int32_t a = s1[g_in1[skew + j] + 128];
      const int32_t b = s2[g_in2[skew + j] + 128];
      const int32_t expected =
          ClampInt32(p.zp_out + MultiplyByQuantizedMultiplier(subtract ? a - b : a + b, om, os), act_min, act_max);
      if (g_out[skew + j] != expected && failures++ < 4) {
        MicroPrintf("x1 %d x2 %d: got %d, expected %d (scales %f %f %f, zero points %d %d %d, act %d)",
                    g_in1[skew + j], g_in2[skew + j], g_out[skew + j], static_cast<int>(expected),
                    static_cast<double>(p.scale1), static_cast<double>(p.scale2),
                    static_cast<double>(p.scale_out), p.zp1, p.zp2, p.zp_out, static_cast<int>(p.act));
      }
    }
    // Nothing written past the output.
    TF_LITE_MICRO_EXPECT_EQ(0x55, g_out[skew + n] & 0xFF);
  }
  TF_LITE_MICRO_EXPECT_EQ(0, failures);
}

// `sets` pseudo-random parameter sets from `seed`, then fixed edge sets.
inline void ExpectRandomSets(const TfLiteRegistration& registration, bool subtract, uint32_t seed, int sets) {
  uint32_t state = seed;
  for (int i = 0; i < sets; ++i) ExpectAllPairs(registration, subtract, RandomParams(&state));
  // Equal scales, zero points at both ends, no activation / ReLU.
  ExpectAllPairs(registration, subtract, {0.05f, 0.05f, 0.1f, -128, 127, -128, kTfLiteActNone});
  ExpectAllPairs(registration, subtract, {0.05f, 0.05f, 0.1f, 127, -128, 127, kTfLiteActRelu});
  // Input 2 far finer than input 1 (its multiplier ~2^-20), and the reverse.
  ExpectAllPairs(registration, subtract, {1.0f, 1e-6f, 0.03f, 3, -128, 0, kTfLiteActRelu6});
  ExpectAllPairs(registration, subtract, {1e-6f, 1.0f, 0.03f, -128, 3, 0, kTfLiteActReluN1To1});
  // An output scale just above the refusal limit (output shift 0), and one
  // just above 2^-19 of the inputs' common scale.
  ExpectAllPairs(registration, subtract, {0.5f, 0.25f, 1.0f / 1048576.0f * 1.0001f, 0, 0, 0, kTfLiteActNone});
  ExpectAllPairs(registration, subtract, {0.5f, 0.25f, 1.0f / 524288.0f * 1.0001f, -5, 7, 1, kTfLiteActNone});
  // Output shift 23 and 24 (the fast path's last, the general path's first).
  ExpectAllPairs(registration, subtract, {0.5f, 0.3f, 10.0f, 0, 0, -128, kTfLiteActNone});
  ExpectAllPairs(registration, subtract, {0.5f, 0.3f, 20.0f, 0, 0, 127, kTfLiteActNone});
}

}  // namespace add_sub_exhaustive

#endif  // MICRO_RUNTIME_KERNELS_ADD_SUB_EXHAUSTIVE_TEST_UTIL_H_
