// FULLY_CONNECTED int8 for cores with the DSP extension (replaces
// kernels/fully_connected_int8.cc under the arm_dsp tag; prepare and op data
// are fully_connected.cc's).
//
// Per batch row the input is unpacked once, with the input offset, into a
// stack buffer of halfword pairs (per 4 input bytes: the words (0, 2) and
// (1, 3)), shared by every unit. Then four units per pass: per 4 input bytes
// two buffer words and one filter word per unit are loaded, each filter word
// unpacked (SXTB16, SXTB16 ROR #8) and multiplied into its unit's sum (2
// SMLADs): 22 instructions per 16 MACs (dsp::DotRows4, which unpacks the
// input in every pass: 25), the loads grouped so the core pipelines them.
// The four sums are requantized together on Int8Requantizer's fast path
// (dsp.h's SMMULR form when no accumulator can reach 2^30) and stored as one
// word. Integer sums are exact (modulo 2^32), so the outputs are bit-exact
// with the portable kernel.
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/fully_connected.h"

namespace micro_runtime {

namespace {

// Inputs per batch row unpacked on the stack (2 bytes each); longer rows take
// dsp::DotRows4, which unpacks the input in every pass.
constexpr int32_t kUnpackedMax = 640;

// buf[2j], buf[2j + 1] = halfword pairs (in[4j] + offset, in[4j + 2] + offset)
// and (in[4j + 1] + offset, in[4j + 3] + offset), j < blocks. The offset is
// minus an int8 zero point, so the sums lie in [-255, 255].
inline void UnpackInput(const int8_t* in, int32_t blocks, int32_t offset, uint32_t* buf) {
  const uint32_t off = dsp::Offset16x2(offset);
  int32_t j = 0;
  for (; j + 2 <= blocks; j += 2, in += 8, buf += 4) {  // two blocks per pass: less loop overhead
    const uint32_t x = dsp::Load4(in), y = dsp::Load4(in + 4);
    buf[0] = dsp::Sxtab16(off, x);
    buf[1] = dsp::Sxtab16Ror8(off, x);
    buf[2] = dsp::Sxtab16(off, y);
    buf[3] = dsp::Sxtab16Ror8(off, y);
  }
  for (; j < blocks; ++j, in += 4, buf += 2) {
    const uint32_t x = dsp::Load4(in);
    buf[0] = dsp::Sxtab16(off, x);
    buf[1] = dsp::Sxtab16Ror8(off, x);
  }
}

// Units per pass of the group kernel when it leaves the requantization to
// C++: their raw sums go to a stack array, then are requantized together.
constexpr int32_t kChunkUnits = 32;

// What DotGroups' assembly reads at the end of each group, stored right after
// the unpacked input (where its input pointer then points). Byte offsets in
// the comments: the assembly's.
struct GroupState {
  uint32_t counts;        // 0: (blocks / 8) << 8 | blocks % 8
  const uint32_t* start;  // 4: the buffer's start
  const int32_t* next;    // 8: the next group's four starting sums
  int32_t* sums;          // 12: where this group's four sums go (not kFused)
  const void* end;        // 16: sums or out after the last group
  int32_t advance;        // 20: filter pointer after a group to the next group's row 0: 3n + n % 4
  // kFused: the layer's requantization (per tensor, right shift in [1, 22]).
  int32_t multiplier;  // 24
  int32_t round_base;  // 28: ((2 zp + 1) << right) / 2
  int32_t right;       // 32
  uint32_t lo4;        // 36: dsp::Bytes4(act_min)
  uint32_t hi4;        // 40: dsp::Bytes4(act_max)
  int8_t* out;         // 44: where this group's four outputs go
};
constexpr int32_t kGroupStateWords = (sizeof(GroupState) + 3) / 4;
#if MR_DSP_ASM
static_assert(sizeof(GroupState) == 48, "DotGroups' assembly addresses GroupState by these offsets");
#endif

// Int8Requantizer's fast path before the clamp, with the layer's constants:
// x = (acc * m + 2^30) >> 31 in 64 bits (any acc), rounded half away from zero
// by the right shift, plus the zero point (filter_op_util.h, dsp.h).
inline int32_t RequantizeRight(int32_t acc, int32_t m, int32_t round_base, int32_t right) {
  const int32_t x = static_cast<int32_t>((static_cast<int64_t>(acc) * m + (int64_t{1} << 30)) >> 31);
  return SaturatingAddInt32(x - static_cast<int32_t>(static_cast<uint32_t>(x) >> 31), round_base) >> right;
}

#if MR_DSP_ASM
// One unit's 4 MACs: filter word %[w] unpacked into %[t] (bytes 0, 2) and
// itself (bytes 1, 3), times the input pairs.
#define MR_FC_UNIT(acc, w)                       \
  "sxtb16 %[t], %[" w "]\n"                      \
  "sxtb16 %[" w "], %[" w "], ror #8\n"          \
  "smlad %[" acc "], %[t], %[x02], %[" acc "]\n" \
  "smlad %[" acc "], %[" w "], %[x13], %[" acc "]\n"
// One block of 4 inputs for the four units: rows 1 and 2 at f0 + n and
// f0 + 2n, row 3 at f0 + 3n, row 0 last (its load advances f0). The loads come
// in two runs of back-to-back LDRs (each pipelined behind the one before; a
// base-updating one only last). The first block of a pass loads its input
// pair last, advancing the input pointer by `adv` bytes; the others load theirs
// at offsets o02, o13 from the advanced pointer.
#define MR_FC_ROWS                              \
  MR_FC_UNIT("a1", "wa") MR_FC_UNIT("a2", "wb") \
  "ldr %[wa], [%[f0], %[n3]]\n"                 \
  "ldr %[wb], [%[f0]], #4\n"                    \
  MR_FC_UNIT("a3", "wa") MR_FC_UNIT("a0", "wb")
#define MR_FC_FIRST(adv)                        \
  "ldr %[x13], [%[in], #4]\n"                   \
  "ldr %[wa], [%[f0], %[n]]\n"                  \
  "ldr %[wb], [%[f0], %[n], lsl #1]\n"          \
  "ldr %[x02], [%[in]], #" adv "\n" MR_FC_ROWS
#define MR_FC_NEXT(o02, o13)                    \
  "ldr %[x02], [%[in], #" o02 "]\n"             \
  "ldr %[x13], [%[in], #" o13 "]\n"             \
  "ldr %[wa], [%[f0], %[n]]\n"                  \
  "ldr %[wb], [%[f0], %[n], lsl #1]\n" MR_FC_ROWS
// RequantizeRight of sum %[a] (multiplier in %[t], round base in %[wa], right
// shift in %[wb]), saturated to int8.
#define MR_FC_REQUANTIZE(a)                          \
  "smull %[x02], %[x13], %[" a "], %[t]\n"           \
  "adds %[x02], %[x02], #0x40000000\n"               \
  "adc %[x13], %[x13], #0\n"                         \
  "lsls %[x13], %[x13], #1\n"                        \
  "orr %[" a "], %[x13], %[x02], lsr #31\n"          \
  "sub %[" a "], %[" a "], %[" a "], lsr #31\n"      \
  "qadd %[" a "], %[" a "], %[wa]\n"                 \
  "asr %[" a "], %[" a "], %[wb]\n"                  \
  "ssat %[" a "], #8, %[" a "]\n"
#endif

// For `groups` groups of four filter rows from f (row stride n, rows
// contiguous) and the unpacked input (buf, `blocks` >= 1 blocks of 4 bytes,
// then the GroupState): sum[4g + k] = init[4g + k] + the dot product of the
// input with row 4g + k's first 4 * blocks bytes. kFused: the sums are
// requantized with the state's constants and stored at state->out, four
// bytes per group; else stored at state->sums. The caller fills the state's
// next (= init), sums (not kFused) and requantization fields (kFused).
template <bool kFused>
inline void DotGroups(uint32_t* buf, int32_t blocks, const int8_t* f, int32_t n, int32_t groups,
                      GroupState* state) {
  const int32_t* init = state->next;
  state->counts = static_cast<uint32_t>(blocks >> 3) << 8 | static_cast<uint32_t>(blocks & 7);
  state->start = buf;
  state->next = init + 4;
  state->end = kFused ? static_cast<const void*>(state->out + 4 * groups)
                      : static_cast<const void*>(state->sums + 4 * groups);
  state->advance = 3 * n + (n & 3);
#if MR_DSP_ASM
  // LDM and STM take their lists in ascending register order: pin the sums.
  register int32_t a0 __asm__("r0") = init[0];
  register int32_t a1 __asm__("r1") = init[1];
  register int32_t a2 __asm__("r2") = init[2];
  register int32_t a3 __asm__("r3") = init[3];
  const uint32_t* in = buf;
  const int8_t* f0 = f;
  int32_t stride = n;
  int32_t stride3 = 3 * n;
  uint32_t count = state->counts;
  uint32_t x02, x13, wa, wb, t;
  // Per group: blocks % 8 single blocks (out of line: AD's layers have none
  // but the 8-input one), then blocks / 8 passes of 8 (two counts in one
  // register), then at the buffer's end (in == state) the sums are stored (or
  // requantized and stored) and the next group's loaded; the state's values
  // loaded in runs of back-to-back LDRs.
#define MR_FC_LOOP                                                                                              \
  "tst %[count], #7\n"                                                                                          \
  "bne 6f\n"                                                                                                    \
  "2:\n"                                                                                                        \
  "lsrs %[count], %[count], #8\n"                                                                               \
  "beq 4f\n"                                                                                                    \
  ".p2align 2\n"                                                                                                \
  "3:\n" MR_FC_FIRST("64") MR_FC_NEXT("-56", "-52") MR_FC_NEXT("-48", "-44") MR_FC_NEXT("-40", "-36")           \
      MR_FC_NEXT("-32", "-28") MR_FC_NEXT("-24", "-20") MR_FC_NEXT("-16", "-12") MR_FC_NEXT("-8", "-4")         \
  "subs %[count], %[count], #1\n"                                                                               \
  "bne 3b\n"                                                                                                    \
  "4:\n"
  // After the sums are out (t: the advanced output pointer, wa: the end, wb:
  // the next starting sums): the next group's sums, its first block.
#define MR_FC_NEXT_GROUP                        \
  "cmp %[t], %[wa]\n"                           \
  "beq 5f\n"                                    \
  "str %[t], [%[in], #" MR_FC_OUT_OFFSET "]\n"  \
  "ldmia %[wb]!, {%[a0], %[a1], %[a2], %[a3]}\n" \
  "str %[wb], [%[in], #8]\n"                    \
  "ldr %[in], [%[in], #4]\n"                    \
  "tst %[count], #7\n"                          \
  "bne 6f\n"                                    \
  "lsrs %[count], %[count], #8\n"               \
  "bne 3b\n"                                    \
  "b 4b\n"                                      \
  "6:\n" MR_FC_FIRST("8")                       \
  "sub %[count], %[count], #1\n"                \
  "tst %[count], #7\n"                          \
  "bne 6b\n"                                    \
  "b 2b\n"                                      \
  "5:\n"
  if (kFused) {
#define MR_FC_OPERANDS                                                                                    \
  [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [in] "+r"(in), [f0] "+r"(f0), [count] "+r"(count), \
      [n] "+r"(stride), [n3] "+r"(stride3), [x02] "=&r"(x02), [x13] "=&r"(x13), [wa] "=&r"(wa), [wb] "=&r"(wb),   \
      [t] "=&r"(t)
#define MR_FC_OUT_OFFSET "44"
    __asm__ volatile(
        MR_FC_LOOP
        "ldr %[t], [%[in], #24]\n"
        "ldr %[wa], [%[in], #28]\n"
        "ldr %[wb], [%[in], #32]\n"
        MR_FC_REQUANTIZE("a0") MR_FC_REQUANTIZE("a1") MR_FC_REQUANTIZE("a2") MR_FC_REQUANTIZE("a3")
        "bfi %[a0], %[a1], #8, #8\n"
        "bfi %[a0], %[a2], #16, #8\n"
        "bfi %[a0], %[a3], #24, #8\n"
        "ldr %[x02], [%[in], #36]\n"
        "ldr %[x13], [%[in], #40]\n"
        "ldr %[t], [%[in], #44]\n"
        "ldr %[wa], [%[in], #16]\n"
        "ldr %[wb], [%[in], #8]\n"
        "ldr %[count], [%[in], #0]\n"
        "ldr %[a1], [%[in], #20]\n"
        "ssub8 %[a3], %[a0], %[x02]\n"
        "sel %[a0], %[a0], %[x02]\n"
        "ssub8 %[a3], %[x13], %[a0]\n"
        "sel %[a0], %[a0], %[x13]\n"
        "str %[a0], [%[t]], #4\n"
        "add %[f0], %[f0], %[a1]\n"
        MR_FC_NEXT_GROUP
        : MR_FC_OPERANDS
        :
        : "cc", "memory");
#undef MR_FC_OUT_OFFSET
  } else {
#define MR_FC_OUT_OFFSET "12"
    __asm__ volatile(
        MR_FC_LOOP
        "ldr %[t], [%[in], #12]\n"
        "ldr %[wa], [%[in], #16]\n"
        "ldr %[wb], [%[in], #8]\n"
        "ldr %[count], [%[in], #0]\n"
        "ldr %[x02], [%[in], #20]\n"
        "stmia %[t]!, {%[a0], %[a1], %[a2], %[a3]}\n"
        "add %[f0], %[f0], %[x02]\n"
        MR_FC_NEXT_GROUP
        : MR_FC_OPERANDS
        :
        : "cc", "memory");
#undef MR_FC_OUT_OFFSET
  }
#undef MR_FC_LOOP
#undef MR_FC_OPERANDS
#undef MR_FC_NEXT_GROUP
#else
  for (int32_t g = 0; g < groups; ++g, f += 4 * n, init += 4) {
    int32_t a0 = init[0], a1 = init[1], a2 = init[2], a3 = init[3];
    const int8_t* w = f;
    for (int32_t j = 0; j < blocks; ++j, w += 4) {
      const uint32_t x02 = buf[2 * j], x13 = buf[2 * j + 1];
      a0 = dsp::Mac4(a0, dsp::Load4(w), x02, x13);
      a1 = dsp::Mac4(a1, dsp::Load4(w + n), x02, x13);
      a2 = dsp::Mac4(a2, dsp::Load4(w + 2 * n), x02, x13);
      a3 = dsp::Mac4(a3, dsp::Load4(w + 3 * n), x02, x13);
    }
    if (kFused) {
      const int32_t m = state->multiplier, rb = state->round_base, right = state->right;
      dsp::Store4(state->out + 4 * g,
                  dsp::PackClamp4(RequantizeRight(a0, m, rb, right), RequantizeRight(a1, m, rb, right),
                                  RequantizeRight(a2, m, rb, right), RequantizeRight(a3, m, rb, right),
                                  state->lo4, state->hi4));
    } else {
      int32_t* sums = state->sums + 4 * g;
      sums[0] = a0;
      sums[1] = a1;
      sums[2] = a2;
      sums[3] = a3;
    }
  }
#endif
}

// acc + the dot product of in[0..count) + offset with w[0..count) (wrapping,
// like SMLAD: acc may start at a model's bias).
inline int32_t DotTail(const int8_t* in, const int8_t* w, int32_t count, int32_t offset, int32_t acc) {
  uint32_t sum = static_cast<uint32_t>(acc);
  for (int32_t i = 0; i < count; ++i) sum += static_cast<uint32_t>(in[i] + offset) * static_cast<uint32_t>(w[i]);
  return static_cast<int32_t>(sum);
}

// Bit 31 set unless every value lies in [-2^30, 2^30): then dsp.h's SMMULR
// requantization applies.
inline uint32_t Beyond2To30(int32_t a) { return static_cast<uint32_t>(a ^ static_cast<int32_t>(static_cast<uint32_t>(a) << 1)); }

// out[k] for the sums acc[k], k < count (a multiple of 4), of units c0 + k.
// kFast: every channel on Int8Requantizer's fast path (right shifts in
// [1, 22]); then four sums below 2^30 in magnitude take dsp.h's kRight form.
template <bool kFast, bool kPerChannel>
inline void RequantizeSums(const Int8ChannelQuant& q, const Int8Requantizer& requantize,
                           const dsp::ChannelRequant& r_tensor, uint32_t lo4, uint32_t hi4, const int32_t* acc,
                           int32_t count, int32_t c0, int8_t* out) {
  for (int32_t k = 0; k < count; k += 4) {
    const int32_t a0 = acc[k], a1 = acc[k + 1], a2 = acc[k + 2], a3 = acc[k + 3];
    const int32_t c = c0 + k;
    if (kFast && ((Beyond2To30(a0) | Beyond2To30(a1) | Beyond2To30(a2) | Beyond2To30(a3)) >> 31) == 0) {
      const dsp::ChannelRequant r0 = kPerChannel ? dsp::LayerChannelRequant<dsp::kRight>(q, c) : r_tensor;
      const dsp::ChannelRequant r1 = kPerChannel ? dsp::LayerChannelRequant<dsp::kRight>(q, c + 1) : r_tensor;
      const dsp::ChannelRequant r2 = kPerChannel ? dsp::LayerChannelRequant<dsp::kRight>(q, c + 2) : r_tensor;
      const dsp::ChannelRequant r3 = kPerChannel ? dsp::LayerChannelRequant<dsp::kRight>(q, c + 3) : r_tensor;
      dsp::Store4(out + k, dsp::PackClamp4(dsp::RequantizeShifted<dsp::kRight>(a0, r0, requantize, c),
                                           dsp::RequantizeShifted<dsp::kRight>(a1, r1, requantize, c + 1),
                                           dsp::RequantizeShifted<dsp::kRight>(a2, r2, requantize, c + 2),
                                           dsp::RequantizeShifted<dsp::kRight>(a3, r3, requantize, c + 3), lo4,
                                           hi4));
    } else {
      out[k] = requantize(a0, c);
      out[k + 1] = requantize(a1, c + 1);
      out[k + 2] = requantize(a2, c + 2);
      out[k + 3] = requantize(a3, c + 3);
    }
  }
}

// One batch row, n <= kUnpackedMax; buf: kUnpackedMax / 2 + kGroupStateWords words.
template <bool kFast, bool kPerChannel>
void EvalRow(const Int8ChannelQuant& q, const Int8Requantizer& requantize, int32_t n, int32_t units,
             const int8_t* in, const int8_t* filter, const int32_t* bias, int8_t* out, uint32_t* buf) {
  const int32_t blocks = n >> 2;
  const int32_t tail = n & 3;
  const int32_t body = n - tail;
  const int32_t offset = q.input_offset;
  UnpackInput(in, blocks, offset, buf);
  GroupState* state = reinterpret_cast<GroupState*>(buf + 2 * blocks);
  const uint32_t lo4 = dsp::Bytes4(q.act_min), hi4 = dsp::Bytes4(q.act_max);
  const int32_t grouped = units & ~3;
  if (kFast && !kPerChannel && bias != nullptr && tail == 0 && blocks > 0) {
    // All groups in one call, requantized by the assembly: per tensor, right
    // shift in [1, 22] (kFast), starting at the biases.
    if (grouped > 0) {
      const dsp::ChannelRequant r = dsp::LayerChannelRequant<dsp::kRight>(q, 0);
      state->next = bias;
      state->multiplier = r.m;
      state->round_base = r.rb;
      state->right = r.right;
      state->lo4 = lo4;
      state->hi4 = hi4;
      state->out = out;
      DotGroups<true>(buf, blocks, filter, n, grouped >> 2, state);
    }
  } else {
    dsp::ChannelRequant r_tensor = {};
    if (kFast && !kPerChannel) r_tensor = dsp::LayerChannelRequant<dsp::kRight>(q, 0);
    int32_t sums[kChunkUnits];
    for (int32_t u = 0; u < grouped; u += kChunkUnits) {
      const int32_t count = grouped - u < kChunkUnits ? grouped - u : kChunkUnits;
      const int8_t* w = filter + u * n;
      // The starting sums: the biases themselves, or (no bias, or n % 4
      // inputs the group kernel leaves) computed here into sums[].
      const int32_t* init = bias != nullptr ? bias + u : sums;
      if (bias == nullptr || tail != 0) {
        for (int32_t k = 0; k < count; ++k) {
          sums[k] = DotTail(in + body, w + k * n + body, tail, offset, bias != nullptr ? bias[u + k] : 0);
        }
        init = sums;
      }
      if (blocks > 0) {
        state->next = init;
        state->sums = sums;
        DotGroups<false>(buf, blocks, w, n, count >> 2, state);
        init = sums;
      }
      RequantizeSums<kFast, kPerChannel>(q, requantize, r_tensor, lo4, hi4, init, count, u, out + u);
    }
  }
  const int8_t* w = filter + grouped * n;
  for (int32_t u = grouped; u < units; ++u, w += n) {
    int32_t acc = bias != nullptr ? bias[u] : 0;
    for (int32_t j = 0; j < blocks; ++j) acc = dsp::Mac4(acc, dsp::Load4(w + 4 * j), buf[2 * j], buf[2 * j + 1]);
    out[u] = requantize(DotTail(in + body, w + body, tail, offset, acc), u);
  }
}

}  // namespace

TfLiteStatus FullyConnectedEvalInt8(const Int8ChannelQuant& q, const FullyConnectedShape& shape,
                                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                                    int8_t* output) {
  const int32_t n = shape.input_size;
  if (n > kUnpackedMax) {
    return fully_connected::EvalInt8Rows(q, shape, input, filter, bias, output,
                                         [](const int8_t* in, const int8_t* w, int32_t count, int32_t offset,
                                            int32_t* acc) {
                                           // The offset fits the lanes: prepare keeps zero points in int8.
                                           dsp::DotRows4(in, w, count, count, offset, acc);
                                         });
  }
  alignas(8) uint32_t buf[kUnpackedMax / 2 + kGroupStateWords];  // 8: GroupState's pointers on 64-bit hosts
  const Int8Requantizer requantize(q);
  const bool fast = q.fast_requantize();
  const bool per_channel = q.per_channel();
  for (int32_t batch = 0; batch < shape.batches; ++batch) {
    const int8_t* in = input + batch * n;
    int8_t* out = output + batch * shape.units;
    if (fast && per_channel) {
      EvalRow<true, true>(q, requantize, n, shape.units, in, filter, bias, out, buf);
    } else if (fast) {
      EvalRow<true, false>(q, requantize, n, shape.units, in, filter, bias, out, buf);
    } else {
      EvalRow<false, false>(q, requantize, n, shape.units, in, filter, bias, out, buf);
    }
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
