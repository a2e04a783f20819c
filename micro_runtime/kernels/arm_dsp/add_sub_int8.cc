// ADD/SUB int8 without broadcasting for cores with the DSP extension
// (replaces kernels/add_sub_int8.cc under the arm_dsp tag; prepare, op data
// and every other case are add_sub.h's general path).
//
// TFLite's scheme per element (CommonScale, then the output rescale):
//   s1 = MBQM((x1 + off1) << 20, m1, sh1), s2 = MBQM((x2 + off2) << 20, m2, sh2)
//   y  = clamp(out_off + MBQM(s1 +- s2, om, osh), act_min, act_max)
// (MBQM: MultiplyByQuantizedMultiplier, a doubling high multiply rounded to
// nearest, then RoundingDivideByPOT). Exact shortcuts, per layer:
//
// 1. The input with the larger scale (either, if equal) has the real
//    multiplier scale / (2 * scale) = 0.5 exactly, quantized as
//    (m, sh) = (2^30, 0) (checked, else no fast path). For it, with
//    v = x + off in [-255, 255]: SRDHM(v * 2^20, 2^30) = floor((v * 2^50 +
//    2^30) / 2^31) = v * 2^19 exactly, and RoundingDivideByPOT by 0 is the
//    identity: s_direct = v * 2^19, so 2 * s_direct = (x + off) * 2^20.
// 2. The other input's 2 * s depends on its byte only: a table of 256 int32
//    built per invoke (1 KB of stack; s_t = MBQM((x + off) << 20, m, sh) as
//    SMMULR((x + off) << 21, m) and a branch-free rounding shift, by 4's
//    argument), the direct input's offset term off * 2^20 (with SUB's sign)
//    folded in. So 2s = 2(s1 +- s2) = table[x_t] + x_d * k, k = +-2^20: one
//    load and one add with a shifted operand.
// 3. Bounds: |v| <= 255 and the table input's real multiplier is below 0.5
//    (it rounds to at most 0.5), so |s1|, |s2| <= 255 * 2^19 and
//    |2s| <= 255 * 2^21 < 2^29.
// 4. The output rescale, osh = -e <= 0 (PrepareAddSub refuses ratios >= 1):
//    SRDHM(s, om) = floor((s * om + 2^30) / 2^31) = floor((2s * om + 2^31) /
//    2^32) = SMMULR(2s, om) as 2s fits int32 (no INT32_MIN * INT32_MIN case).
//    Call it t; |t| <= |s| < 2^28 (om < 2^31), so MBQM's +-2^29 saturation
//    never acts. RoundingDivideByPOT(t, e), e >= 1, rounds half away from
//    zero: floor((t + 2^(e-1) - [t < 0]) / 2^e). s >= 0 gives t >= 0 and s < 0
//    gives t <= 0; where they differ in sign (s < 0, t = 0) both corrections
//    give floor((2^(e-1) - {0,1}) / 2^e) = 0 for e >= 1, so [t < 0] may be
//    [s < 0] = -(2s >> 31), known before the multiply. Adding out_off * 2^e
//    (a multiple of 2^e) inside the floor adds out_off after it. So
//      y = (SMMLAR(2s, om, h) >> e) with h = 2^(e-1) + out_off * 2^e + (2s >> 31)
//    (SMMLAR: acc + (a * b + 2^31) >> 32 in one instruction, = h + t), no
//    overflow for 1 <= e <= 23: |h + t| <= 2^22 + 128 * 2^23 + 1 + 2^28 < 2^31.
//    Other e (0: no rounding term; > 23: outputs a scale ~2^-4 of the inputs'
//    and more) take the general path.
// 5. Then SSAT to int8, four results packed into a word, and the fused
//    activation's narrower range (if any) applied to all four bytes at once
//    (SSUB8 + SEL per bound). clamp(ssat8(y)) = clamp(y) as the activation
//    range lies within int8.
// add_test.cc and sub_test.cc compare this with the general path's formula on
// all 65,536 input pairs for many quantization parameter sets.
//
// Per element: three loads (the two bytes, the table entry; runs of six
// pipeline), the add, the sign correction, SMMLAR, the shift, SSAT and (three
// in four) a BFI; eight elements per asm pass, about 9.5 estimated cycles per
// element on a Cortex-M4 (ResNet-8's residual ADDs: 145 before).
#include <string.h>

#include "micro_runtime/kernels/add_sub.h"
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/kernel_util.h"

namespace micro_runtime {

namespace {

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
// acc + ((a * b + 2^31) >> 32).
inline int32_t Smmlar(int32_t a, int32_t b, int32_t acc) {
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}
inline int32_t Ssat8(int32_t x) { return __ssat(x, 8); }
// Per byte lane: max(a, lo) then min(., hi) (signed bytes): SSUB8 sets the
// GE flags SEL reads (one asm statement: the compiler does not see them).
inline uint32_t ClampBytes(uint32_t a, uint32_t lo, uint32_t hi) {
  uint32_t t;
  __asm__(
      "ssub8 %[t], %[a], %[lo]\n"  // GE: a >= lo
      "sel %[a], %[a], %[lo]\n"
      "ssub8 %[t], %[hi], %[a]\n"  // GE: hi >= a
      "sel %[a], %[a], %[hi]\n"
      : [a] "+r"(a), [t] "=&r"(t)
      : [lo] "r"(lo), [hi] "r"(hi)
      : "cc");
  return a;
}
#else
inline int32_t Smmlar(int32_t a, int32_t b, int32_t acc) {
  const int64_t p = static_cast<int64_t>(a) * b + (int64_t{1} << 31);
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(p >> 32));
}
inline int32_t Ssat8(int32_t x) { return x < -128 ? -128 : (x > 127 ? 127 : x); }
inline uint32_t ClampBytes(uint32_t a, uint32_t lo, uint32_t hi) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i += 8) {
    const int32_t v = ClampInt32(static_cast<int8_t>(a >> i), static_cast<int8_t>(lo >> i), static_cast<int8_t>(hi >> i));
    r |= (static_cast<uint32_t>(v) & 0xFFu) << i;
  }
  return r;
}
#endif

struct FastAddSub {
  // 2s minus the direct input's x * k, by the table input's byte (as uint8),
  // then the activation range in all four bytes (lo, hi).
  int32_t table[258];
  int32_t om;  // output multiplier
  int32_t h;   // 2^(e-1) + out_off * 2^e
  int32_t e;   // output right shift, 1..23
};

// One output before the activation clamp: xd the direct input, xt the table
// input's byte; kNeg: k = -2^20.
template <bool kNeg>
inline int32_t One(const FastAddSub& p, int32_t xd, uint32_t xt) {
  const int32_t s2 = kNeg ? p.table[xt] - xd * (1 << 20) : p.table[xt] + xd * (1 << 20);
  return Ssat8(Smmlar(s2, p.om, p.h + (s2 >> 31)) >> p.e);
}

inline uint32_t Lo4(const FastAddSub& p) { return static_cast<uint32_t>(p.table[256]); }
inline uint32_t Hi4(const FastAddSub& p) { return static_cast<uint32_t>(p.table[257]); }

#if MR_DSP_ASM
// Two elements, k0 and k1 (xt's bytes at k0, k1; xd's at dk0, dk1, the last
// load of the run, which may update xd): six pipelined loads (7 cycles; each
// table load's index was loaded two instructions earlier), then per element
// shortcut 2's add (ADD/SUB with LSL #20) and shortcut 4 (the correction from
// the sign of 2s, SMMLAR, the shift), then SSAT.
#define MR_ADDSUB_PAIR(op, k0, k1, dk1, dk0)       \
  "ldrb %[a0], [%[xt], #" k0 "]\n"                 \
  "ldrb %[a1], [%[xt], #" k1 "]\n"                 \
  "ldr %[a0], [%[tab], %[a0], lsl #2]\n"           \
  "ldr %[a1], [%[tab], %[a1], lsl #2]\n"           \
  "ldrsb %[q1], [%[xd]" dk1 "\n"                   \
  "ldrsb %[q0], [%[xd]" dk0 "\n"                   \
  op " %[a0], %[a0], %[q0], lsl #20\n"             \
  op " %[a1], %[a1], %[q1], lsl #20\n"             \
  "add %[q0], %[h], %[a0], asr #31\n"              \
  "add %[q1], %[h], %[a1], asr #31\n"              \
  "smmlar %[a0], %[a0], %[om], %[q0]\n"            \
  "smmlar %[a1], %[a1], %[om], %[q1]\n"            \
  "asr %[a0], %[a0], %[e]\n"                       \
  "asr %[a1], %[a1], %[e]\n"
// Bytes 0-1 of the output word (acc), then bytes 2-3.
#define MR_ADDSUB_LOW                              \
  "ssat %[acc], #8, %[a0]\n"                       \
  "ssat %[a1], #8, %[a1]\n"                        \
  "bfi %[acc], %[a1], #8, #8\n"
#define MR_ADDSUB_HIGH                             \
  "ssat %[a0], #8, %[a0]\n"                        \
  "ssat %[a1], #8, %[a1]\n"                        \
  "bfi %[acc], %[a0], #16, #8\n"                   \
  "bfi %[acc], %[a1], #24, #8\n"
// The activation range on all four bytes (shortcut 5).
#define MR_ADDSUB_CLAMP                            \
  "ldr %[q0], [%[tab], #1024]\n"                   \
  "ldr %[q1], [%[tab], #1028]\n"                   \
  "ssub8 %[a0], %[acc], %[q0]\n"                   \
  "sel %[acc], %[acc], %[q0]\n"                    \
  "ssub8 %[a0], %[q1], %[acc]\n"                   \
  "sel %[acc], %[acc], %[q1]\n"
// Eight elements per pass, two words stored; xd advances with its first
// pair's element 0 load (the others are addressed back from it).
#define MR_ADDSUB_LOOP(op, clamp)                                                                  \
  __asm__ volatile(                                                                                \
      "1:\n" MR_ADDSUB_PAIR(op, "0", "1", ", #1]", "], #8") MR_ADDSUB_LOW                          \
      MR_ADDSUB_PAIR(op, "2", "3", ", #-5]", ", #-6]") MR_ADDSUB_HIGH clamp                         \
      "str %[acc], [%[out]], #4\n"                                                                 \
      MR_ADDSUB_PAIR(op, "4", "5", ", #-3]", ", #-4]") MR_ADDSUB_LOW                               \
      MR_ADDSUB_PAIR(op, "6", "7", ", #-1]", ", #-2]") MR_ADDSUB_HIGH clamp                         \
      "adds %[xt], %[xt], #8\n"                                                                    \
      "cmp %[xd], %[end]\n"                                                                        \
      "str %[acc], [%[out]], #4\n"                                                                 \
      "bne 1b\n"                                                                                   \
      : [xd] "+r"(xd), [xt] "+r"(xt), [out] "+r"(out), [acc] "=&r"(acc), [a0] "=&r"(a0),           \
        [a1] "=&r"(a1), [q0] "=&r"(q0), [q1] "=&r"(q1)                                             \
      : [end] "r"(end8), [tab] "r"(p.table), [om] "r"(p.om), [h] "r"(p.h), [e] "r"(p.e)            \
      : "cc", "memory")
#endif

template <bool kNeg, bool kClamp>
void Run(const FastAddSub& p, const int8_t* xd, const int8_t* xt, int8_t* out, int32_t n) {
#if MR_DSP_ASM
  const int8_t* const end8 = xd + (n & ~7);
  if (xd != end8) {
    uint32_t acc, a0, a1, q0, q1;
    if (kNeg) {
      if (kClamp) {
        MR_ADDSUB_LOOP("sub", MR_ADDSUB_CLAMP);
      } else {
        MR_ADDSUB_LOOP("sub", "");
      }
    } else {
      if (kClamp) {
        MR_ADDSUB_LOOP("add", MR_ADDSUB_CLAMP);
      } else {
        MR_ADDSUB_LOOP("add", "");
      }
    }
  }
  n &= 7;
#else
  const int8_t* const end4 = xd + (n & ~3);
  for (; xd != end4; xd += 4, xt += 4, out += 4) {
    const uint32_t wd = dsp::Load4(xd);
    const uint32_t wt = dsp::Load4(xt);
    const int32_t y0 = One<kNeg>(p, static_cast<int8_t>(wd), wt & 0xFFu);
    const int32_t y1 = One<kNeg>(p, static_cast<int8_t>(wd >> 8), (wt >> 8) & 0xFFu);
    const int32_t y2 = One<kNeg>(p, static_cast<int8_t>(wd >> 16), (wt >> 16) & 0xFFu);
    const int32_t y3 = One<kNeg>(p, static_cast<int32_t>(wd) >> 24, wt >> 24);
    uint32_t w = (static_cast<uint32_t>(y0) & 0xFFu) | ((static_cast<uint32_t>(y1) & 0xFFu) << 8) |
                 ((static_cast<uint32_t>(y2) & 0xFFu) << 16) | (static_cast<uint32_t>(y3) << 24);
    if (kClamp) w = ClampBytes(w, Lo4(p), Hi4(p));
    memcpy(out, &w, 4);
  }
  n &= 3;
#endif
  for (int32_t i = 0; i < n; ++i) {
    const uint32_t y = static_cast<uint32_t>(One<kNeg>(p, xd[i], static_cast<uint8_t>(xt[i]))) & 0xFFu;
    out[i] = static_cast<int8_t>(kClamp ? ClampBytes(y, Lo4(p), Hi4(p)) : y);
  }
}

bool SameDims(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  if (a->size != b->size) return false;
  for (int i = 0; i < a->size; ++i) {
    if (a->data[i] != b->data[i]) return false;
  }
  return true;
}

}  // namespace

bool EvalAddSubInt8SameShape(TfLiteContext* context, TfLiteNode* node, bool subtract) {
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input1->type != kTfLiteInt8 || node->user_data == nullptr || !SameDims(input1->dims, output->dims) ||
      !SameDims(input2->dims, output->dims)) {
    return false;
  }
  const CommonScaleOpData& d = *static_cast<const CommonScaleOpData*>(node->user_data);
  const CommonScale& c = d.inputs;
  // Shortcut 1: the direct input's multiplier is exactly 0.5.
  const bool direct1 = c.input1_multiplier == (1 << 30) && c.input1_shift == 0;
  const bool direct2 = c.input2_multiplier == (1 << 30) && c.input2_shift == 0;
  const int32_t e = -d.output_shift;
  if (c.left_shift != 20 || !(direct1 || direct2) || e < 1 || e > 23) return false;
  const ArithmeticQuantParams& q = d.common;

  // 2s = table[x_t] + k * x_d (shortcut 2). Input 1 direct: table = off1 * 2^20 +- 2 * s2(x2), k = 2^20.
  // Input 2 direct: table = 2 * s1(x1) +- off2 * 2^20, k = +-2^20.
  const int32_t m = direct1 ? c.input2_multiplier : c.input1_multiplier;
  const int et = -(direct1 ? c.input2_shift : c.input1_shift);
  if (et < 0) return false;  // (a table input's multiplier is at most 0.5)
  const int32_t off = direct1 ? q.input2_offset : q.input1_offset;
  const int32_t base = (direct1 ? q.input1_offset : q.input2_offset) * (1 << 20);
  const bool negate_table = subtract && direct1;
  const bool negate_base = subtract && !direct1;
  FastAddSub p;
  for (int32_t i = 0; i < 256; ++i) {
    // s_t = MBQM((x + off) * 2^20, m, -et): SRDHM(v * 2^20, m) = SMMULR(v * 2^21, m) (shortcut 4's
    // argument: |v * 2^21| < 2^29), then RoundingDivideByPOT(t, et) as floor((t + 2^(et-1) - [t < 0]) / 2^et)
    // for et >= 1; |s_t| < 2^28, so MBQM's saturation never acts.
    const int32_t v = static_cast<int8_t>(i) + off;
    int32_t t = Smmlar(v * (1 << 21), m, 0);
    if (et > 0) t = (t + (1 << (et - 1)) + (t >> 31)) >> et;
    p.table[i] = (negate_base ? -base : base) + (negate_table ? -2 * t : 2 * t);
  }
  p.om = d.output_multiplier;
  p.h = (1 << (e - 1)) + q.output_offset * (1 << e);
  p.e = e;
  p.table[256] = static_cast<int32_t>((static_cast<uint32_t>(q.activation_min) & 0xFFu) * 0x01010101u);
  p.table[257] = static_cast<int32_t>((static_cast<uint32_t>(q.activation_max) & 0xFFu) * 0x01010101u);
  const int8_t* xd = TensorData<int8_t>(direct1 ? input1 : input2);
  const int8_t* xt = TensorData<int8_t>(direct1 ? input2 : input1);
  int8_t* out = TensorData<int8_t>(output);
  const int32_t n = ElementCount(output->dims);
  const bool neg = subtract && !direct1;
  const bool clamp = q.activation_min > -128 || q.activation_max < 127;
  if (neg) {
    clamp ? Run<true, true>(p, xd, xt, out, n) : Run<true, false>(p, xd, xt, out, n);
  } else {
    clamp ? Run<false, true>(p, xd, xt, out, n) : Run<false, false>(p, xd, xt, out, n);
  }
  return true;
}

}  // namespace micro_runtime
