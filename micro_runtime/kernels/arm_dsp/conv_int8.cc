// CONV_2D int8 eval for cores with the DSP extension (replaces
// kernels/conv_int8.cc under the arm_dsp tag; prepare and op data are conv.cc's).
//
// The paths, chosen per layer in ConvEvalInt8:
//  - tiles (ChannelsOfTile, the hot path): the windows of up to 24
//    consecutive output pixels unpacked into halfword pairs with the input
//    offset (pair buffers), four output channels' filter rows unpacked once
//    per tile, and Dot4x2 per pixel pair: 16 SMLADs per 4 window bytes for 8
//    outputs. 1x1 stride-1 layers (PointwiseTiles), windows of whole words
//    (EvalWindowTiles: IC's 3x3 layers, border windows with zero taps) and
//    windows over 1-3 input channels in a permuted order (EvalSmallWindow:
//    the models' first layers); output channels a multiple of 4. The tile is
//    an optional scratch buffer when prepare got one (ConvInt8ScratchBytes),
//    else the stack's, or for windows the output tensor's own tail until the
//    outputs reach it.
//  - pixel pairs (ChannelsOfPair, DotPair2): the same layers with other
//    output channel counts, and windows of whole words up to kPairMax bytes.
//  - single pixels (ChannelsOfColumn, Channels): dilated windows and the
//    rest, a window (or window row) dotted with four filter rows at a time
//    (dsp.h's DotRows4), border windows through a zero-point column.
// Requantization: dsp.h's RequantizeShifted per layer kind (kRight/kPre with
// one SMMULR where the accumulators provably stay below 2^30). Integer sums
// are exact and wrap like the portable kernel's, so the outputs are
// bit-exact with it in any summation order.
#include <cstddef>

#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/conv.h"

namespace micro_runtime {

namespace {

constexpr int kChannels = 4;

// acc[k] += sum((in[i] + offset) * f[k * f_stride + i]) for i < n, k < K
// (offset: minus an int8 zero point, so the halfword lanes hold it).
template <int K>
inline void DotRows(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t offset, int32_t* acc) {
  const uint32_t off = dsp::Offset16x2(offset);
  int32_t a[K];
  for (int k = 0; k < K; ++k) a[k] = acc[k];
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t x = dsp::Load4(in + i);
    const uint32_t x02 = dsp::Sxtab16(off, x);
    const uint32_t x13 = dsp::Sxtab16Ror8(off, x);
#pragma GCC unroll 4
    for (int k = 0; k < K; ++k) a[k] = dsp::Mac4(a[k], dsp::Load4(f + k * f_stride + i), x02, x13);
  }
  for (; i < n; ++i) {  // wrapping, like SMLAD
    const uint32_t x = static_cast<uint32_t>(in[i] + offset);
    for (int k = 0; k < K; ++k) {
      a[k] = static_cast<int32_t>(static_cast<uint32_t>(a[k]) + x * static_cast<uint32_t>(f[k * f_stride + i]));
    }
  }
  for (int k = 0; k < K; ++k) acc[k] = a[k];
}

// The hot case (4 channels): dsp.h's four-row dot product.
template <>
inline void DotRows<4>(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t offset, int32_t* acc) {
  dsp::DotRows4(in, f, f_stride, n, offset, acc);
}

// K output channels [oc, oc + K) of one output pixel, row by row (tap by tap
// when dilated) over the window's valid taps. Out of line (the rare path):
// inlined into the pixel loop, GCC 12 finds no 14 free registers for DotRows4.
template <int K>
__attribute__((noinline)) void Channels(const ConvOpData& data, const Int8Requantizer& requantize, const WindowPos& p,
                     const int8_t* in_win, const int8_t* filter, const int32_t* bias, int oc, int8_t* out) {
  const WindowGeometry& g = data.g;
  const int32_t offset = data.q.input_offset;
  const int in_ch = g.in_ch;
  const int f_row_stride = g.filter_w * in_ch;
  const int f_channel_stride = g.filter_h * f_row_stride;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  int32_t acc[K] = {};
  const int8_t* f_row = filter + oc * f_channel_stride + p.fy0 * f_row_stride + p.fx0 * in_ch;
  const int8_t* in_row = in_win;
  for (int y = 0; y < p.ny; ++y) {
    if (g.dilation_w == 1) {
      DotRows<K>(in_row, f_row, f_channel_stride, p.nx * in_ch, offset, acc);
    } else {
      for (int x = 0; x < p.nx; ++x) {
        DotRows<K>(in_row + x * g.dilation_w * in_ch, f_row + x * in_ch, f_channel_stride, in_ch, offset, acc);
      }
    }
    in_row += in_step_y;
    f_row += f_row_stride;
  }
  // As the portable kernel: the model's bias last, with a wrapping add
  // (corrupt biases must not overflow).
  for (int k = 0; k < K; ++k) out[k] = requantize(WrappingAdd(acc[k], bias != nullptr ? bias[oc + k] : 0), oc + k);
}

// Largest window (FH * FW * IC bytes) the column path copies to the stack.
constexpr int kColumnMax = 640;

// The window of output pixel p as one contiguous column of FH * FW * IC
// bytes in filter order, taps outside the input set to the input's zero
// point (-offset): (zp + offset) * f = 0, so every window is a full one.
// Needs dilation_w == 1. Copies word by word (loop pattern recognition off:
// the boards' memcpy/memset go byte by byte).
__attribute__((optimize("no-tree-loop-distribute-patterns"))) inline void FillColumn(const WindowGeometry& g, const WindowPos& p, const int8_t* in_win, int8_t zp,
                       int8_t* col) {
  const int in_ch = g.in_ch;
  const int row_len = g.filter_w * in_ch;
  const int before = p.fx0 * in_ch;
  const int valid = p.nx * in_ch;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  const uint32_t zp4 = dsp::Bytes4(zp);
  for (int fy = 0; fy < g.filter_h; ++fy, col += row_len) {
    if (fy < p.fy0 || fy >= p.fy1) {  // a row outside the input: zero points, a word at a time
      int i = 0;
      for (; i + 4 <= row_len; i += 4) dsp::Store4(col + i, zp4);
      for (; i < row_len; ++i) col[i] = zp;
      continue;
    }
    int i = 0;
    for (; i + 4 <= before; i += 4) dsp::Store4(col + i, zp4);
    for (; i < before; ++i) col[i] = zp;
    int j = 0;
    for (; j + 4 <= valid; j += 4) {
      const uint32_t w = dsp::Load4(in_win + j);
      __builtin_memcpy(col + i + j, &w, 4);
    }
    for (; j < valid; ++j) col[i + j] = in_win[j];
    for (i += valid; i + 4 <= row_len; i += 4) dsp::Store4(col + i, zp4);
    for (; i < row_len; ++i) col[i] = zp;
    in_win += in_step_y;
  }
}

// All output channels of one pixel from a contiguous window of n bytes (a
// whole window in one run, or a column). The requantizer is a local object,
// so its fields stay in registers across the int8 stores.
inline void ChannelsOfColumn(const ConvOpData& data, const int8_t* col, int n, const int8_t* filter,
                             const int32_t* bias, int8_t* out) {
  const Int8Requantizer requantize(data.q);
  const int32_t offset = data.q.input_offset;
  const int out_ch = data.g.out_ch;
  int oc = 0;
  // The sums start at the bias: they wrap, so a corrupt model bias cannot
  // overflow, and the result equals the portable kernel's bias-last sum.
  for (; oc + kChannels <= out_ch; oc += kChannels) {
    int32_t acc[kChannels] = {0, 0, 0, 0};
    if (bias != nullptr) {
      for (int k = 0; k < kChannels; ++k) acc[k] = bias[oc + k];
    }
    dsp::DotRows4(col, filter + oc * n, n, n, offset, acc);
    for (int k = 0; k < kChannels; ++k) out[oc + k] = requantize(acc[k], oc + k);
  }
  for (; oc < out_ch; ++oc) {
    int32_t acc = bias != nullptr ? bias[oc] : 0;
    DotRows<1>(col, filter + oc * n, n, n, offset, &acc);
    out[oc] = requantize(acc, oc);
  }
}

// ---- Two output pixels per pass (whole windows that are one run: 1x1) ----
//
// The two windows' bytes are unpacked once, with the input offset, into a
// stack buffer: per 4 input bytes the words (A 0,2), (A 1,3), (B 0,2),
// (B 1,3) as halfword pairs. Then per two output channels and 4 input bytes:
// one LDM of the four words, per channel one filter word loaded and unpacked
// (SXTB16, SXTB16 ROR #8) and used by both pixels: 4 SMLADs. 15 instructions
// + 2 of loop per 16 MACs (DotRows4: 25).
constexpr int kPairMax = 576;  // window bytes (stack: 4 bytes per byte)

// acc[0], acc[1] += pixel A's dots with filter rows f, f + n; acc[2], acc[3]
// the same for pixel B; `blocks` blocks of four bytes of `buf` (see above).
template <bool kUnroll2>
inline void DotPair2(const uint32_t* buf, int blocks, const int8_t* f, int n, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if MR_DSP_ASM
  // LDM fills its list in ascending register order: pin the four words.
  register uint32_t xa02 __asm__("r8");
  register uint32_t xa13 __asm__("r9");
  register uint32_t xb02 __asm__("r10");
  register uint32_t xb13 __asm__("r11");
  uint32_t w, t;
#define MR_PAIR_BLOCK                                 \
  "ldmia %[buf]!, {%[xa02], %[xa13], %[xb02], %[xb13]}\n" \
  "ldr %[w], [%[f], %[n]]\n"                          \
  "sxtb16 %[t], %[w]\n"                               \
  "sxtb16 %[w], %[w], ror #8\n"                       \
  "smlad %[a1], %[t], %[xa02], %[a1]\n"               \
  "smlad %[a3], %[t], %[xb02], %[a3]\n"               \
  "smlad %[a1], %[w], %[xa13], %[a1]\n"               \
  "smlad %[a3], %[w], %[xb13], %[a3]\n"               \
  "ldr %[w], [%[f]], #4\n"                            \
  "sxtb16 %[t], %[w]\n"                               \
  "sxtb16 %[w], %[w], ror #8\n"                       \
  "smlad %[a0], %[t], %[xa02], %[a0]\n"               \
  "smlad %[a2], %[t], %[xb02], %[a2]\n"               \
  "smlad %[a0], %[w], %[xa13], %[a0]\n"               \
  "smlad %[a2], %[w], %[xb13], %[a2]\n"
  // An odd block first, then two blocks per loop pass (one compare and
  // branch per 32 MACs).
  const uint32_t* end = buf + 4 * blocks;
  if (!kUnroll2) {
    if (blocks > 0) {
      __asm__ volatile(
          "1:\n" MR_PAIR_BLOCK
          "cmp %[buf], %[end]\n"
          "bne 1b\n"
          : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [buf] "+r"(buf), [f] "+r"(f), [n] "+r"(n),
            [end] "+r"(end), [xa02] "=&r"(xa02), [xa13] "=&r"(xa13), [xb02] "=&r"(xb02), [xb13] "=&r"(xb13),
            [w] "=&r"(w), [t] "=&r"(t)
          :
          : "cc", "memory");
    }
  } else if ((blocks & 1) != 0) {
    __asm__ volatile(MR_PAIR_BLOCK
                     : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [buf] "+r"(buf), [f] "+r"(f),
                       [n] "+r"(n), [xa02] "=&r"(xa02), [xa13] "=&r"(xa13), [xb02] "=&r"(xb02), [xb13] "=&r"(xb13),
                       [w] "=&r"(w), [t] "=&r"(t)
                     :
                     : "memory");
  }
  if (kUnroll2 && blocks >= 2) {
    __asm__ volatile(
        "1:\n" MR_PAIR_BLOCK MR_PAIR_BLOCK
        "cmp %[buf], %[end]\n"
        "bne 1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [buf] "+r"(buf), [f] "+r"(f), [n] "+r"(n),
          [end] "+r"(end), [xa02] "=&r"(xa02), [xa13] "=&r"(xa13), [xb02] "=&r"(xb02), [xb13] "=&r"(xb13),
          [w] "=&r"(w), [t] "=&r"(t)
        :
        : "cc", "memory");
  }
#undef MR_PAIR_BLOCK
#else
  for (int i = 0; i < blocks; ++i, buf += 4, f += 4) {
    const uint32_t w0 = dsp::Load4(f), w1 = dsp::Load4(f + n);
    a0 = dsp::Smlad(dsp::Sxtb16Ror8(w0), buf[1], dsp::Smlad(dsp::Sxtb16(w0), buf[0], a0));
    a2 = dsp::Smlad(dsp::Sxtb16Ror8(w0), buf[3], dsp::Smlad(dsp::Sxtb16(w0), buf[2], a2));
    a1 = dsp::Smlad(dsp::Sxtb16Ror8(w1), buf[1], dsp::Smlad(dsp::Sxtb16(w1), buf[0], a1));
    a3 = dsp::Smlad(dsp::Sxtb16Ror8(w1), buf[3], dsp::Smlad(dsp::Sxtb16(w1), buf[2], a3));
  }
#endif
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// One pixel's window into slot `slot` (0: A, 1: B) of the pair buffer: the n
// contiguous bytes at `a` (only whole blocks of 4; ChannelsOfPair does the rest).
#if MR_DSP_ASM
// Input word X (four bytes) plus the offset as the pair buffer's two halfword-pair words at PTR + OFF
// ((0, 2)) and PTR + OFF + 4 ((1, 3)), through %[t]: the window fills' step (FillPairRun, FillPairTile,
// PackPairs3x3x3).
#define MR_WIDEN_WORD(X, PTR, OFF)                        \
  "sxtab16 %[t], %[off], %[" X "], ror #8\n"              \
  "sxtab16 %[" X "], %[off], %[" X "]\n"                  \
  "str %[" X "], [%[" PTR "], #(" #OFF ")]\n"             \
  "str %[t], [%[" PTR "], #(" #OFF " + 4)]\n"
#endif

inline void FillPairRun(uint32_t* buf, int slot, const int8_t* a, int n, uint32_t off) {
  buf += 2 * slot;
  const int blocks = n >> 2;
#if MR_DSP_ASM
  // Four blocks per pass: the four loads in a row (pipelined), each word's
  // halves stored with two single-cycle STRs (STRD takes three); then the
  // blocks left one at a time.
  if (blocks >= 4) {
    const int8_t* end4 = a + 16 * (blocks >> 2);
    uint32_t x0, x1, x2, x3, t;
    __asm__ volatile(
        "1:\n"
        "ldr %[x0], [%[a]]\n"
        "ldr %[x1], [%[a], #4]\n"
        "ldr %[x2], [%[a], #8]\n"
        "ldr %[x3], [%[a], #12]\n"
        MR_WIDEN_WORD("x0", "buf", 0) MR_WIDEN_WORD("x1", "buf", 16) MR_WIDEN_WORD("x2", "buf", 32)
        MR_WIDEN_WORD("x3", "buf", 48)
        "add %[a], %[a], #16\n"
        "add %[buf], %[buf], #64\n"
        "cmp %[a], %[end]\n"
        "bne 1b\n"
        : [a] "+r"(a), [buf] "+r"(buf), [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),
          [t] "=&r"(t)
        : [off] "r"(off), [end] "r"(end4)
        : "cc", "memory");
  }
  for (int i = 0; i < (blocks & 3); ++i, a += 4, buf += 4) {
    const uint32_t w = dsp::Load4(a);
    buf[0] = dsp::Sxtab16(off, w);
    buf[1] = dsp::Sxtab16Ror8(off, w);
  }
#else
  for (int i = 0; i < blocks; ++i, a += 4, buf += 4) {
    const uint32_t w = dsp::Load4(a);
    buf[0] = dsp::Sxtab16(off, w);
    buf[1] = dsp::Sxtab16Ror8(off, w);
  }
#endif
}

// The window of output pixel p (dilation_w 1, in_ch a multiple of 4, so no
// block of 4 straddles a window row) into slot `slot` in filter order; taps
// outside the input are zero words ((zp + offset) = 0).
inline void FillPairWindow(const WindowGeometry& g, const WindowPos& p, const int8_t* in_win, uint32_t off,
                           int slot, uint32_t* buf) {
  const int row_blocks = g.filter_w * g.in_ch >> 2;
  const int before = p.fx0 * g.in_ch >> 2;
  const int valid = p.nx * g.in_ch;
  const int in_step_y = g.dilation_h * g.in_w * g.in_ch;
  buf += 2 * slot;
  for (int fy = 0; fy < g.filter_h; ++fy) {
    if (fy < p.fy0 || fy >= p.fy1) {
      for (int i = 0; i < row_blocks; ++i, buf += 4) buf[0] = buf[1] = 0;
      continue;
    }
    int i = 0;
    for (; i < before; ++i, buf += 4) buf[0] = buf[1] = 0;
    FillPairRun(buf - 2 * slot, slot, in_win, valid, off);
    buf += valid;  // 4 words per block of 4 bytes
    for (i += valid >> 2; i < row_blocks; ++i, buf += 4) buf[0] = buf[1] = 0;
    in_win += in_step_y;
  }
}


// acc += the n & 3 window bytes after the whole blocks (a[i], b[i] from the
// windows `a` and `b`, one-run windows only) times filter rows f and f + n:
// acc[0], acc[1] pixel A, acc[2], acc[3] pixel B (wrapping, like SMLAD).
inline void TailPair2(const int8_t* a, const int8_t* b, const int8_t* f, int done, int n, int32_t offset,
                      int32_t* acc) {
  for (int i = done; i < n; ++i) {
    const uint32_t xa = static_cast<uint32_t>(a[i] + offset), xb = static_cast<uint32_t>(b[i] + offset);
    const uint32_t f0 = static_cast<uint32_t>(f[i]), f1 = static_cast<uint32_t>(f[n + i]);
    acc[0] = static_cast<int32_t>(static_cast<uint32_t>(acc[0]) + xa * f0);
    acc[1] = static_cast<int32_t>(static_cast<uint32_t>(acc[1]) + xa * f1);
    acc[2] = static_cast<int32_t>(static_cast<uint32_t>(acc[2]) + xb * f0);
    acc[3] = static_cast<int32_t>(static_cast<uint32_t>(acc[3]) + xb * f1);
  }
}

// All output channels of two pixels from the pair buffer (n window bytes per
// pixel, n <= kPairMax); when n is not a multiple of 4 the last n & 3 bytes
// are read from the windows `a` and `b` (one-run windows only).
// Four channels at a time: dsp::ChannelRequant constants made per channel
// (kKind: what the layer's channels need), the four channels' bytes packed,
// clamped with SIMD and stored as one word per pixel.
template <dsp::RequantKind kKind>
__attribute__((noinline)) void ChannelsOfPair(const ConvOpData& data, const uint32_t* buf, const int8_t* a,
                                              const int8_t* b, int n, const int8_t* filter, const int32_t* bias,
                                              int8_t* out_a, int8_t* out_b) {
  const int32_t offset = data.q.input_offset;
  const int blocks = n >> 2;
  const int done = 4 * blocks;
  const Int8Requantizer requantize(data.q);
  const int out_ch = data.g.out_ch;
  int oc = 0;
  {
    // Four channels per pass: two DotPair2 passes over the buffer, then the
    // eight values requantized and stored as one word per pixel.
    const Int8ChannelQuant& q = data.q;
    const uint32_t lo4 = dsp::Bytes4(q.act_min), hi4 = dsp::Bytes4(q.act_max);
    for (; oc + 4 <= out_ch; oc += 4) {
      int32_t acc[8];
      for (int k = 0; k < 4; k += 2) {
        const int32_t b0 = bias != nullptr ? bias[oc + k] : 0, b1 = bias != nullptr ? bias[oc + k + 1] : 0;
        int32_t* ak = acc + 2 * k;  // pixel A k, k + 1, pixel B k, k + 1
        ak[0] = b0;
        ak[1] = b1;
        ak[2] = b0;
        ak[3] = b1;
        const int8_t* f = filter + (oc + k) * n;
        if (blocks > 0) DotPair2<true>(buf, blocks, f, n, ak);
        TailPair2(a, b, f, done, n, offset, ak);
      }
      int32_t v[8];  // pixel A's channels 0..3, then pixel B's
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
        const dsp::ChannelRequant r = dsp::LayerChannelRequant<kKind>(q, oc + k);
        const int i = (k & 2) * 2 + (k & 1);
        v[k] = dsp::RequantizeShifted<kKind>(acc[i], r, requantize, oc + k);
        v[4 + k] = dsp::RequantizeShifted<kKind>(acc[i + 2], r, requantize, oc + k);
      }
      dsp::Store4(out_a + oc, dsp::PackClamp4(v[0], v[1], v[2], v[3], lo4, hi4));
      dsp::Store4(out_b + oc, dsp::PackClamp4(v[4], v[5], v[6], v[7], lo4, hi4));
    }
  }
  for (; oc + 2 <= out_ch; oc += 2) {
    const int32_t b0 = bias != nullptr ? bias[oc] : 0, b1 = bias != nullptr ? bias[oc + 1] : 0;
    int32_t acc[4] = {b0, b1, b0, b1};
    const int8_t* f = filter + oc * n;
    if (blocks > 0) DotPair2<true>(buf, blocks, f, n, acc);
    TailPair2(a, b, f, done, n, offset, acc);
    out_a[oc] = requantize(acc[0], oc);
    out_a[oc + 1] = requantize(acc[1], oc + 1);
    out_b[oc] = requantize(acc[2], oc);
    out_b[oc + 1] = requantize(acc[3], oc + 1);
  }
  if (oc < out_ch) {  // odd channel count: the last channel from the buffer
    int32_t acc_a = bias != nullptr ? bias[oc] : 0, acc_b = acc_a;
    const int8_t* f = filter + oc * n;
    for (int i = 0; i < blocks; ++i) {
      const uint32_t w = dsp::Load4(f + 4 * i);
      const uint32_t f02 = dsp::Sxtb16(w), f13 = dsp::Sxtb16Ror8(w);
      acc_a = dsp::Smlad(f13, buf[4 * i + 1], dsp::Smlad(f02, buf[4 * i], acc_a));
      acc_b = dsp::Smlad(f13, buf[4 * i + 3], dsp::Smlad(f02, buf[4 * i + 2], acc_b));
    }
    for (int i = done; i < n; ++i) {  // wrapping, like SMLAD
      const uint32_t fi = static_cast<uint32_t>(f[i]);
      acc_a = static_cast<int32_t>(static_cast<uint32_t>(acc_a) + static_cast<uint32_t>(a[i] + offset) * fi);
      acc_b = static_cast<int32_t>(static_cast<uint32_t>(acc_b) + static_cast<uint32_t>(b[i] + offset) * fi);
    }
    out_a[oc] = requantize(acc_a, oc);
    out_b[oc] = requantize(acc_b, oc);
  }
}

using PairFn = void (*)(const ConvOpData&, const uint32_t*, const int8_t*, const int8_t*, int, const int8_t*,
                        const int32_t*, int8_t*, int8_t*);

// The ChannelsOfPair instance for the layer's quantization.
inline PairFn SelectPair(dsp::RequantKind kind) {
  return dsp::ForKind(kind, [](auto tag) -> PairFn { return ChannelsOfPair<decltype(tag)::kKind>; });
}

// ---- Tiles: several pixel pairs, four channels x two pixels per pass ----
//
// Per pixel pair, ChannelsOfPair unpacks every filter word again (SXTB16
// twice per word and pair) and streams the filter rows from flash: on a core
// whose flash has wait states and a small data cache (the L4R5: 5 wait
// states, 256 B) each 8-byte line of weights costs the wait states again for
// every pair. A tile holds the unpacked windows of up to 2 * kTilePairs
// consecutive output pixels (pair buffers side by side, n words per pair of
// n-byte windows). Four output channels at a time, their filter rows are
// unpacked once per tile into halfword pairs (UnpackQuad, kQuadChunkBlocks
// blocks at a time), and each pair of the tile is dotted with them by Dot4x2:
// per block of 4 window bytes 2 x 2 input words and 8 filter words loaded, 16
// SMLADs for 32 MACs, eight sums in registers (about 1.1 cycles per MAC on a
// Cortex-M4, against 1.6 for DotPair2). The requantization constants of the
// four channels are made once per tile. Needs window bytes and output
// channels multiples of 4. The tile lives on the stack (kPairMax words: 8
// pairs of windows up to 72 bytes, fewer of longer ones) or, when prepare got
// one, in an optional scratch buffer of kTilePairs pairs
// (ConvInt8ScratchBytes): measured on the L4R5 model, 8 pairs of IC's
// 288-byte windows instead of 2 save about a third of those layers' cycles.
constexpr int kTilePairs = 12;
// Pointwise layers' tiles: the whole layer in one tile where the arena has a gap for it (every filter quad
// unpacked once per layer: on VWW's 6x6 and 12x12 layers each extra tile unpacked 8-16 K weights again),
// up to kPointwiseLayerPairs pairs; else kPointwisePairs (windows keep 12: with 16, IC's 3x3 layers lost
// 7 % of their cycles); the stack's tile holds as many pairs as fit.
constexpr int kPointwisePairs = 16;
constexpr int kPointwiseLayerPairs = 128;
constexpr int kMaxTilePairs = kPointwisePairs > kTilePairs ? kPointwisePairs : kTilePairs;
#if defined(MICRO_RUNTIME_COVERAGE)
// A coverage build's frames are larger (gcov's counters, the C forms): a
// smaller unpacked-filter buffer keeps the kernel tests inside their boards'
// stacks (windows of more blocks take the chunked path).
constexpr int kQuadChunkBlocks = 8;
#else
constexpr int kQuadChunkBlocks = 36;
#endif
// A tile without unpacked-filter room (ChannelsOfTile's chunked path, whose sums are kept per pair) of windows
// longer than one chunk holds at most kMaxTilePairs pairs: the stack's, or EvalWindowTiles' tile in the output's
// tail (kTilePairs).
static_assert(kPairMax / (4 * (kQuadChunkBlocks + 1)) <= kMaxTilePairs && kTilePairs <= kMaxTilePairs,
              "the chunked path's pair sums");
// Windows of at least 16 bytes take Dot4x2's and the pair loop's four-block loop (measured: from 16 blocks as
// before the pair loop held the group setup, VWW's 16- and 32-channel layers paid a loop check per two blocks;
// from 4 blocks VWW -0.45 %, KWS and IC unchanged within 0.05 %).
constexpr int kUnroll4Blocks = 4;

#if MR_DSP_ASM
// SXTB16 of S (ROR: "" or ", ror #8") into D, stored at W + OFF.
#define MR_SX_STORE(D, S, ROR, W, OFF) "sxtb16 " D ", " S ROR "\n" "str " D ", [" W ", #(" OFF ")]\n"
// One block of four filter rows (words at F0..F3 + FOFF) unpacked to W + WOFF in UnpackQuad's order, through
// X0..X3 and T (register names or operand references): UnpackQuad's and the pair loop's group setup's.
#define MR_UNPACK_BLOCK_IN(F0, F1, F2, F3, X0, X1, X2, X3, T, W, FOFF, WOFF)                          \
  "ldr " X0 ", [" F0 ", #" FOFF "]\n"                                                                \
  "ldr " X1 ", [" F1 ", #" FOFF "]\n"                                                                \
  "ldr " X2 ", [" F2 ", #" FOFF "]\n"                                                                \
  "ldr " X3 ", [" F3 ", #" FOFF "]\n"                                                                \
  MR_SX_STORE(T, X0, "", W, WOFF) MR_SX_STORE(T, X1, "", W, WOFF " + 4")                             \
  MR_SX_STORE(T, X2, "", W, WOFF " + 8") MR_SX_STORE(T, X3, "", W, WOFF " + 12")                     \
  MR_SX_STORE(X0, X0, ", ror #8", W, WOFF " + 16") MR_SX_STORE(X1, X1, ", ror #8", W, WOFF " + 20") \
  MR_SX_STORE(X2, X2, ", ror #8", W, WOFF " + 24") MR_SX_STORE(X3, X3, ", ror #8", W, WOFF " + 28")
#endif

// Blocks [0, nb) of four filter rows (f + k * n, k < 4) as halfword pairs:
// per block w[0..3] rows 0..3 bytes 0 and 2, w[4..7] bytes 1 and 3 (the
// pair buffer's (0, 2) / (1, 3) order).
inline void UnpackQuad(const int8_t* f, int n, int nb, uint32_t* w) {
  const int8_t* f2 = f + 2 * n;
#if MR_DSP_ASM
  // Each block's four loads in a row without write-back (so each after the
  // first pipelines), the halves stored with single-cycle STRs at immediate
  // offsets; two blocks per pass for long windows only (with short ones the
  // tile's code must fit the L4R5's 1 KB instruction cache: two per pass for
  // every window cost VWW 10 % in cycles).
  uint32_t x0, x1, x2, x3, t;
#define MR_UNPACK_BLOCK(FOFF, WOFF)                                                                          \
  MR_UNPACK_BLOCK_IN("%[f]", "%[f1]", "%[f2]", "%[f3]", "%[x0]", "%[x1]", "%[x2]", "%[x3]", "%[t]", "%[w]", \
                     #FOFF, #WOFF)
  const int8_t* f1 = f + n;
  const int8_t* f3 = f2 + n;
#define MR_UNPACK_OPERANDS                                                                                  \
  [f] "+r"(f), [f1] "+r"(f1), [f2] "+r"(f2), [f3] "+r"(f3), [w] "+r"(w), [x0] "=&r"(x0), [x1] "=&r"(x1), \
      [x2] "=&r"(x2), [x3] "=&r"(x3), [t] "=&r"(t)
  if (nb >= 24) {  // long windows (IC's): two blocks per pass, a compare and branch per 2
    if ((nb & 1) != 0) {
      __asm__ volatile(MR_UNPACK_BLOCK(0, 0)
                       "add %[f], %[f], #4\n"
                       "add %[f1], %[f1], #4\n"
                       "add %[f2], %[f2], #4\n"
                       "add %[f3], %[f3], #4\n"
                       "add %[w], %[w], #32\n"
                       : MR_UNPACK_OPERANDS
                       :
                       : "memory");
    }
    const uint32_t* end = w + 8 * (nb & ~1);
    __asm__ volatile(
        "1:\n" MR_UNPACK_BLOCK(0, 0) MR_UNPACK_BLOCK(4, 32)
        "add %[f], %[f], #8\n"
        "add %[f1], %[f1], #8\n"
        "add %[f2], %[f2], #8\n"
        "add %[f3], %[f3], #8\n"
        "add %[w], %[w], #64\n"
        "cmp %[w], %[end]\n"
        "bne 1b\n"
        : MR_UNPACK_OPERANDS
        : [end] "r"(end)
        : "cc", "memory");
  } else if (nb > 0) {
    const uint32_t* end = w + 8 * nb;
    __asm__ volatile(
        "1:\n" MR_UNPACK_BLOCK(0, 0)
        "add %[f], %[f], #4\n"
        "add %[f1], %[f1], #4\n"
        "add %[f2], %[f2], #4\n"
        "add %[f3], %[f3], #4\n"
        "add %[w], %[w], #32\n"
        "cmp %[w], %[end]\n"
        "bne 1b\n"
        : MR_UNPACK_OPERANDS
        : [end] "r"(end)
        : "cc", "memory");
  }
#undef MR_UNPACK_OPERANDS
#undef MR_UNPACK_BLOCK
#else
  const int8_t* f1 = f + n;
  const int8_t* f3 = f2 + n;
  for (int i = 0; i < nb; ++i, w += 8) {
    const uint32_t x0 = dsp::Load4(f + 4 * i), x1 = dsp::Load4(f1 + 4 * i);
    const uint32_t x2 = dsp::Load4(f2 + 4 * i), x3 = dsp::Load4(f3 + 4 * i);
    w[0] = dsp::Sxtb16(x0);
    w[1] = dsp::Sxtb16(x1);
    w[2] = dsp::Sxtb16(x2);
    w[3] = dsp::Sxtb16(x3);
    w[4] = dsp::Sxtb16Ror8(x0);
    w[5] = dsp::Sxtb16Ror8(x1);
    w[6] = dsp::Sxtb16Ror8(x2);
    w[7] = dsp::Sxtb16Ror8(x3);
  }
#endif
}

#if MR_DSP_ASM
// Half a block of Dot4x2 (input words XOFF of pixels A and B, filter words
// WOFF..WOFF+15 of four channels): 6 loads, 8 SMLADs into a0..a7. Operands:
// a0..a7, xa, xb, w0, w1, buf, w.
#define MR_HALF(XOFF, WOFF)                                  \
  "ldr %[xa], [%[buf], #" #XOFF "]\n"                        \
  "ldr %[xb], [%[buf], #(" #XOFF " + 8)]\n"                  \
  "ldr %[w0], [%[w], #" #WOFF "]\n"                          \
  "ldr %[w1], [%[w], #(" #WOFF " + 4)]\n"                    \
  "smlad %[a0], %[w0], %[xa], %[a0]\n"                       \
  "smlad %[a4], %[w0], %[xb], %[a4]\n"                       \
  "smlad %[a1], %[w1], %[xa], %[a1]\n"                       \
  "smlad %[a5], %[w1], %[xb], %[a5]\n"                       \
  "ldr %[w0], [%[w], #(" #WOFF " + 8)]\n"                    \
  "ldr %[w1], [%[w], #(" #WOFF " + 12)]\n"                   \
  "smlad %[a2], %[w0], %[xa], %[a2]\n"                       \
  "smlad %[a6], %[w0], %[xb], %[a6]\n"                       \
  "smlad %[a3], %[w1], %[xa], %[a3]\n"                       \
  "smlad %[a7], %[w1], %[xb], %[a7]\n"
// Two and four blocks (buf advanced 16 bytes, w 32 per block).
#define MR_DOT2 MR_HALF(0, 0) MR_HALF(4, 16) MR_HALF(16, 32) MR_HALF(20, 48)
#define MR_DOT4 MR_DOT2 MR_HALF(32, 64) MR_HALF(36, 80) MR_HALF(48, 96) MR_HALF(52, 112)
#endif

// acc[k] += pixel A's dot with channel k, acc[4 + k] pixel B's (k < 4), over
// `blocks` blocks of the pair buffer `buf` (per block A 0,2; A 1,3; B 0,2;
// B 1,3) and of the unpacked filter `w` (UnpackQuad's order).
template <bool kUnroll4>
__attribute__((always_inline)) inline void Dot4x2(const uint32_t* buf, const uint32_t* w, int blocks,
                                                  int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
#if MR_DSP_ASM
  // 14 registers: 8 sums, 2 input and 2 filter words, 2 pointers; the loop
  // end is read from the stack once per two blocks. Loads go in runs of up
  // to four (each after the first pipelined) at immediate offsets.
  uint32_t xa, xb, w0, w1;
#define MR_OPERANDS                                                                                        \
  [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [a4] "+r"(a4), [a5] "+r"(a5), [a6] "+r"(a6), \
      [a7] "+r"(a7), [buf] "+r"(buf), [w] "+r"(w), [xa] "=&r"(xa), [xb] "=&r"(xb), [w0] "=&r"(w0), [w1] "=&r"(w1)
  // kUnroll4: the blocks beyond a multiple of 4 first (one pass each), then
  // four blocks per loop pass (the end check, a load from the stack, once
  // per 4); else (2 or 3 blocks) an odd block first, then two per pass.
  const uint32_t* end = buf + 4 * blocks;
  for (int rest = blocks & (kUnroll4 ? 3 : 1); rest > 0; --rest) {
    __asm__ volatile(MR_HALF(0, 0) MR_HALF(4, 16)
                     "add %[buf], %[buf], #16\n"
                     "add %[w], %[w], #32\n"
                     : MR_OPERANDS
                     :
                     : "memory");
  }
#define MR_LOOP_END(BUF, W)                 \
  "add %[buf], %[buf], #" #BUF "\n"         \
  "add %[w], %[w], #" #W "\n"               \
  "ldr %[w0], %[end]\n"                     \
  "cmp %[buf], %[w0]\n"                     \
  "bne 1b\n"
  if (kUnroll4 && blocks >= 4) {
    __asm__ volatile("1:\n" MR_DOT4 MR_LOOP_END(64, 128)
                     : MR_OPERANDS
                     : [end] "m"(end)
                     : "cc", "memory");
  } else if (!kUnroll4 && blocks >= 2) {
    __asm__ volatile("1:\n" MR_DOT2 MR_LOOP_END(32, 64)
                     : MR_OPERANDS
                     : [end] "m"(end)
                     : "cc", "memory");
  }
#undef MR_LOOP_END
#undef MR_OPERANDS
#else
  for (int i = 0; i < blocks; ++i, buf += 4, w += 8) {
    a0 = dsp::Smlad(w[4], buf[1], dsp::Smlad(w[0], buf[0], a0));
    a1 = dsp::Smlad(w[5], buf[1], dsp::Smlad(w[1], buf[0], a1));
    a2 = dsp::Smlad(w[6], buf[1], dsp::Smlad(w[2], buf[0], a2));
    a3 = dsp::Smlad(w[7], buf[1], dsp::Smlad(w[3], buf[0], a3));
    a4 = dsp::Smlad(w[4], buf[3], dsp::Smlad(w[0], buf[2], a4));
    a5 = dsp::Smlad(w[5], buf[3], dsp::Smlad(w[1], buf[2], a5));
    a6 = dsp::Smlad(w[6], buf[3], dsp::Smlad(w[2], buf[2], a6));
    a7 = dsp::Smlad(w[7], buf[3], dsp::Smlad(w[3], buf[2], a7));
  }
#endif
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
  acc[4] = a4;
  acc[5] = a5;
  acc[6] = a6;
  acc[7] = a7;
}

#if MR_DSP_ASM
// A run of 4-channel groups' whole pixel pairs of a tile for a kRight or kPre
// layer, in one loop of assembly (the C++ around it, which makes the groups'
// constants, then runs once per run of groups: the loop alone holds the
// L4R5's 1 KB instruction cache). Per group the four filter rows are unpacked
// (UnpackQuad's order) and per pair the sums start at the biases,
// Dot4x2's blocks run (the odd blocks first, then two or four per pass), and
// the eight sums are requantized in registers (RequantizeShifted's SMMULR
// form: doubled, SMMULR, the rounding fix, [>> pre], +sat rb, >> right, SSAT)
// and stored as two words (PackClamp4). Fields at the offsets the assembly
// reads (static_asserts below); the loop's own state (this struct's address,
// the pair's end and its odd blocks' end) on the stack, so the 14 registers
// are the dot's.
struct PairRun {
  const uint32_t* unused;  // 0: (the pair cursor stays in r4 from the group setup on)
  const uint32_t* wq;   // 4: the unpacked filter (UnpackQuad)
  uint32_t span;        // 8: bytes of one pair's buffer (16 per block)
  uint32_t rest;        // 12: bytes of the blocks before the unrolled loop
  int8_t* out;          // 16: pixel A's output of the next pair (channel oc)
  int32_t out_ch;       // 20
  int32_t pixels;       // 24: pixels left (>= 1; a pair's B is stored when >= 2)
  uint32_t lo4;         // 28: Bytes4 of the activation bounds
  uint32_t hi4;         // 32
  int32_t bias[4];      // 36
  int32_t m[4];         // 52
  int32_t rb[4];        // 68
  int32_t shift[4];     // 84: right | pre << 8 (ASR takes the low byte)
  // The groups: per group the four filter rows are unpacked into wq (as
  // UnpackQuad) and its constants copied into the fields above from `consts`.
  const uint32_t* buf0;  // 100: the tile's first pair
  int8_t* out0;          // 104: the next group's first output
  int32_t pixels0;       // 108: pixels in the tile (the pair count at 24 counts pixels down by 2)
  const int8_t* filter;  // 112: the next group's first filter row
  int32_t n;             // 116: window bytes (filter row stride)
  int32_t groups;        // 120: groups left (>= 1)
  const int32_t* consts; // 124: the next group's bias, m, rb, shift (16 words)
};
static_assert(offsetof(PairRun, bias) == 36 && offsetof(PairRun, m) == 52 && offsetof(PairRun, rb) == 68 &&
                  offsetof(PairRun, shift) == 84 && offsetof(PairRun, hi4) == 32 &&
                  offsetof(PairRun, buf0) == 100 && offsetof(PairRun, consts) == 124 &&
                  offsetof(PairRun, pixels) == 24 && offsetof(PairRun, pixels0) == 108,
              "PairRun's offsets are the assembly's");

// Channel C's two sums (aC: pixel A, aC4: pixel B) requantized to int8 values
// in one of four forms (FORM: MR_RIGHT, MR_RIGHT_MIN, MR_PRE, MR_PRE_MIN),
// after the channel's m (xa), rb (xb) and shift (w0: right | pre << 8) are
// loaded and both sums doubled (|acc| < 2^30: no overflow). With x the
// doubling high multiply, RequantizeShifted computes
// (((x - (x < 0)) >> pre) +sat rb) >> right, then SSAT:
//  - MR_RIGHT (kRight): SMMLAR(2 acc, m, rb - (acc < 0)) >> right, as the
//    depthwise kernel's buffer path (proof there: m >= 0, right >= 1; the add
//    never saturates, |x| <= 2^30 and |rb| < 2^29 + 2^21);
//  - MR_RIGHT_MIN (kRight, output zero point and activation minimum -128, so only
//    the upper bound is applied after SSAT): SMMLAR(2 acc, m, rb) >> right:
//    the fix only changes values with x < 0, and those are at most the zero
//    point -128 either way (rb = (zp << r) + 2^(r-1), so x + rb < (zp + 1/2) 2^r),
//    which SSAT and the activation clamp make the same value;
//  - MR_PRE (kPre): as RequantizeShifted;
//  - MR_PRE_MIN (kPre, zero point -128): without the fix, by the same argument,
//    and the two shifts as one: with R = pre + right and rb = -128 2^right +
//    2^(right-1), floor((floor(x / 2^pre) + rb) / 2^right) = floor((x + 2^(R-1))
//    / 2^R) - 128, so SMMLAR(2 acc, m, 2^(R-1)) >> R, then - 128 (x + 2^(R-1) <
//    2^31: |x| < 2^30, R <= 31), the - 128 after USAT (below); the constants
//    loop gives rb 2^(R-1) and the shift R for this form (a constant channel c:
//    rb 2c + 257, R 1).
// A constant channel (LayerChannelRequant: m 0, right 1, rb 2c + 1) gives c in each.
#define MR_DOUBLE(C)  "add %[" #C "], %[" #C "]\n"
#define MR_SAT(C, C4)                                \
  "ssat %[" #C "], #8, %[" #C "]\n"                  \
  "ssat %[" #C4 "], #8, %[" #C4 "]\n"
#define MR_SHIFT(C, C4, BY)                          \
  "asrs %[" #C "], %[" #C "], %[" BY "]\n"           \
  "asrs %[" #C4 "], %[" #C4 "], %[" BY "]\n"
#define MR_RIGHT(C, C4)                              \
  "add %[w1], %[xb], %[" #C "], asr #31\n"           \
  "smmlar %[" #C "], %[" #C "], %[xa], %[w1]\n"      \
  "add %[w1], %[xb], %[" #C4 "], asr #31\n"          \
  "smmlar %[" #C4 "], %[" #C4 "], %[xa], %[w1]\n" MR_SHIFT(C, C4, "w0") MR_SAT(C, C4)
#define MR_RIGHT_MIN(C, C4)                          \
  "smmlar %[" #C "], %[" #C "], %[xa], %[xb]\n"      \
  "smmlar %[" #C4 "], %[" #C4 "], %[xa], %[xb]\n" MR_SHIFT(C, C4, "w0") MR_SAT(C, C4)
#define MR_PRE_TAIL(C, C4)                           \
  "lsr %[w1], %[w0], #8\n" MR_SHIFT(C, C4, "w1")     \
  "qadd %[" #C "], %[" #C "], %[xb]\n"               \
  "qadd %[" #C4 "], %[" #C4 "], %[xb]\n" MR_SHIFT(C, C4, "w0")
#define MR_PRE(C, C4)                                \
  "smmulr %[" #C "], %[" #C "], %[xa]\n"             \
  "smmulr %[" #C4 "], %[" #C4 "], %[xa]\n"           \
  "sub %[" #C "], %[" #C "], %[" #C "], lsr #31\n"   \
  "sub %[" #C4 "], %[" #C4 "], %[" #C4 "], lsr #31\n" MR_PRE_TAIL(C, C4) MR_SAT(C, C4)
// MR_PRE_MIN leaves y = floor((x + 2^(R-1)) / 2^R) saturated to [0, 255] (USAT): SSAT(y - 128) is
// USAT(y) - 128, and the packing's EOR with 0x80 per byte (MR_PACK_HI_FLIP) makes the - 128 of four values.
#define MR_PRE_MIN(C, C4)                            \
  "smmlar %[" #C "], %[" #C "], %[xa], %[xb]\n"      \
  "smmlar %[" #C4 "], %[" #C4 "], %[xa], %[xb]\n" MR_SHIFT(C, C4, "w0") \
  "usat %[" #C "], #8, %[" #C "]\n"                  \
  "usat %[" #C4 "], #8, %[" #C4 "]\n"
// DBL: MR_DOUBLE, or MR_DOUBLED where the tile holds doubled values (the sums are 2 acc already).
#define MR_DOUBLED(C)
#define MR_REQUANT(C, C4, K, FORM, DBL)              \
  "ldr %[xa], [%[w], #(52 + 4 * " #K ")]\n"          \
  "ldr %[xb], [%[w], #(68 + 4 * " #K ")]\n"          \
  "ldr %[w0], [%[w], #(84 + 4 * " #K ")]\n"          \
  DBL(C) DBL(C4) FORM(C, C4)
// Four int8 values (SSAT'ed, in A, B, C, D) as one word in A, clamped to [lo4, hi4] (xa, xb); MR_PACK_HI
// to hi4 only, where the lower bound is -128 (SSAT's values are never below it); MR_PACK_HI_FLIP from
// four USAT'ed values v (the int8 value plus 128), each byte's v - 128 by an EOR with 0x80.
#define MR_BYTES4(A, B, C, D)                      \
  "bfi %[" #A "], %[" #B "], #8, #8\n"             \
  "bfi %[" #A "], %[" #C "], #16, #8\n"            \
  "bfi %[" #A "], %[" #D "], #24, #8\n"
#define MR_CLAMP_HI(A)                             \
  "ssub8 %[w0], %[xb], %[" #A "]\n"                \
  "sel %[" #A "], %[" #A "], %[xb]\n"
#define MR_PACK_HI(A, B, C, D) MR_BYTES4(A, B, C, D) MR_CLAMP_HI(A)
#define MR_PACK_HI_FLIP(A, B, C, D) \
  MR_BYTES4(A, B, C, D) "eor %[" #A "], %[" #A "], #0x80808080\n" MR_CLAMP_HI(A)
#define MR_PACK_CLAMP(A, B, C, D)                  \
  MR_BYTES4(A, B, C, D)                            \
  "ssub8 %[w0], %[" #A "], %[xa]\n"                \
  "sel %[" #A "], %[" #A "], %[xa]\n" MR_CLAMP_HI(A)

// The registers are fixed so that the loads, pointer steps and compares take
// the 16-bit encodings (low registers r0-r5, immediate offsets below 128): the
// loop then fits the L4R5's 1 KB instruction cache beside UnpackQuad.
// The requantization forms above, by layer kind and output zero point.
enum PairForm { kFormRight, kFormRightMin, kFormPre, kFormPreMin };

// kDoubled: the tile holds 2 (x + offset) (FillPairTile's doubled fill) and the bias is doubled, so the sums
// are already the doubled ones the requantization takes.
template <bool kUnroll4, PairForm kForm, bool kDoubled = false>
__attribute__((noinline)) void PairsInAsm(PairRun* run) {
  register uint32_t xa asm("r0");
  register uint32_t xb asm("r1");
  register uint32_t w0 asm("r2");
  register uint32_t w1 asm("r3");
  register const uint32_t* buf asm("r4");
  register void* w asm("r5") = run;
  register int32_t a0 asm("r6");
  register int32_t a1 asm("r7");
  register int32_t a2 asm("r8");
  register int32_t a3 asm("r9");
  register int32_t a4 asm("r10");
  register int32_t a5 asm("r11");
  register int32_t a6 asm("r12");
  register int32_t a7 asm("lr");
// One block of the four filter rows (at r6..r9 + SRC) unpacked to r4 + DST (UnpackQuad's order).
#define MR_UNPACK_BLOCK(SRC, DST) \
  MR_UNPACK_BLOCK_IN("r6", "r7", "r8", "r9", "r0", "r1", "r2", "r3", "r12", "r4", SRC, DST)
// A group's setup (w: the PairRun): its constants into the fields at 36..99,
// its four filter rows unpacked into wq (rows f, f + n, f + 2n, f + 3n,
// UnpackQuad's order): windows of 8 blocks or more two blocks per pass, an
// odd first block alone (IC's windows, unpacked per tile, -0.9 %; VWW's
// -0.3 %); shorter ones a block per pass (the first layers' tiles: the
// two-block loop's code beside the dot loop cost VWW's first layer 2 % in the
// 1 KB instruction cache); then the tile's first pair and output and the pair
// count. Explicit registers: the fixed ones above (r0 xa, r1 xb, r2 w0, r3 w1,
// r4 buf, r5 w, r6.. a0..; the sums' r10-r12 are free here: r10 the one-block
// loop's end, r11 the window's, r12 the unpacking's temporary).
#define MR_GROUP_SETUP                                \
  "ldr r0, [r5, #124]\n"                              \
  "add r1, r5, #36\n"                                 \
  "ldmia r0!, {r6, r7, r8, r9, r10, r11, r12, lr}\n"  \
  "stmia r1!, {r6, r7, r8, r9, r10, r11, r12, lr}\n"  \
  "ldmia r0!, {r6, r7, r8, r9, r10, r11, r12, lr}\n"  \
  "stmia r1!, {r6, r7, r8, r9, r10, r11, r12, lr}\n"  \
  "str r0, [r5, #124]\n"                              \
  "ldr r6, [r5, #112]\n"                              \
  "ldr r2, [r5, #116]\n"                              \
  "ldr r4, [r5, #4]\n"                                \
  "add r7, r6, r2\n"                                  \
  "add r8, r7, r2\n"                                  \
  "add r9, r8, r2\n"                                  \
  "add r10, r9, r2\n"                                 \
  "str r10, [r5, #112]\n"                             \
  "add r11, r4, r2, lsl #3\n"                         \
  "mov r10, r11\n"                                    \
  "cmp r2, #32\n"                                     \
  "blt 7f\n"                                          \
  "tst r2, #4\n"                                      \
  "beq 6f\n"                                          \
  "add r10, r4, #32\n"                                \
  "7:\n"                                              \
  MR_UNPACK_BLOCK("0", "0")                           \
  "adds r6, #4\n"                                     \
  "adds r7, #4\n"                                     \
  "add r8, r8, #4\n"                                  \
  "add r9, r9, #4\n"                                  \
  "adds r4, #32\n"                                    \
  "cmp r4, r10\n"                                     \
  "bne 7b\n"                                          \
  "cmp r4, r11\n"                                     \
  "beq 5f\n"                                          \
  "6:\n"                                              \
  MR_UNPACK_BLOCK("0", "0") MR_UNPACK_BLOCK("4", "32") \
  "adds r6, #8\n"                                     \
  "adds r7, #8\n"                                     \
  "add r8, r8, #8\n"                                  \
  "add r9, r9, #8\n"                                  \
  "adds r4, #64\n"                                    \
  "cmp r4, r11\n"                                     \
  "bne 6b\n"                                          \
  "5:\n"                                              \
  "ldr r4, [r5, #100]\n"                              \
  "ldr r0, [r5, #104]\n"                              \
  "str r0, [r5, #16]\n"                               \
  "adds r0, #4\n"                                     \
  "str r0, [r5, #104]\n"                              \
  "ldr r0, [r5, #108]\n"                              \
  "str r0, [r5, #24]\n"
#define MR_REQUANT_ALL(PRE, DBL)                                                              \
  MR_REQUANT(a0, a4, 0, PRE, DBL) MR_REQUANT(a1, a5, 1, PRE, DBL) MR_REQUANT(a2, a6, 2, PRE, DBL) \
      MR_REQUANT(a3, a7, 3, PRE, DBL)
#define MR_PAIRS_ASM(DOT, BYTES, PRE, PACK, DBL)                                                    \
  __asm__ volatile(                                                                          \
      "sub sp, sp, #16\n"                                                                    \
      "str %[w], [sp]\n"                                                                     \
      "ldr %[w0], [%[w], #4]\n"                                                              \
      "ldr %[w1], [%[w], #8]\n"                                                              \
      "add %[w1], %[w0], %[w1], lsl #1\n"                                                    \
      "str %[w1], [sp, #4]\n"                                                                \
      "ldr %[w1], [%[w], #12]\n"                                                             \
      "add %[w1], %[w0], %[w1], lsl #1\n"                                                    \
      "str %[w1], [sp, #8]\n"                                                                \
      "8:\n" MR_GROUP_SETUP                                                                  \
      "1:\n"                                                                                 \
      "ldr %[w], [sp]\n"                                                                     \
      "ldr %[a0], [%[w], #36]\n"                                                             \
      "ldr %[a1], [%[w], #40]\n"                                                             \
      "ldr %[a2], [%[w], #44]\n"                                                             \
      "ldr %[a3], [%[w], #48]\n"                                                             \
      "ldr %[w], [%[w], #4]\n"                                                               \
      "ldr %[w1], [sp, #8]\n"                                                                \
      "mov %[a4], %[a0]\n"                                                                   \
      "mov %[a5], %[a1]\n"                                                                   \
      "mov %[a6], %[a2]\n"                                                                   \
      "mov %[a7], %[a3]\n"                                                                   \
      "cmp %[w], %[w1]\n"                                                                    \
      "bne 2f\n"                                                                             \
      "4:\n" DOT                                                                             \
      "adds %[buf], %[buf], #" #BYTES "\n"                                                   \
      "adds %[w], %[w], #(2 * " #BYTES ")\n"                                                 \
      "ldr %[w0], [sp, #4]\n"                                                                \
      "cmp %[w], %[w0]\n"                                                                    \
      "bne 4b\n"                                                                             \
      "ldr %[w], [sp]\n" MR_REQUANT_ALL(PRE, DBL)                                            \
      "ldrd %[xa], %[xb], [%[w], #28]\n" PACK(a0, a1, a2, a3)                                \
      PACK(a4, a5, a6, a7)                                                                   \
      "ldrd %[xa], %[xb], [%[w], #16]\n"                                                     \
      "ldr %[w0], [%[w], #24]\n"                                                             \
      "str %[a0], [%[xa]]\n"                                                                 \
      "cmp %[w0], #2\n"                                                                      \
      "it ge\n"                                                                              \
      "strge %[a4], [%[xa], %[xb]]\n"                                                        \
      "add %[xa], %[xa], %[xb], lsl #1\n"                                                    \
      "str %[xa], [%[w], #16]\n"                                                             \
      "subs %[w0], %[w0], #2\n"                                                              \
      "str %[w0], [%[w], #24]\n"                                                             \
      "bgt 1b\n"                                                                             \
      "ldr %[xb], [%[w], #120]\n"                                                            \
      "subs %[xb], %[xb], #1\n"                                                              \
      "str %[xb], [%[w], #120]\n"                                                            \
      "bne 8b\n"                                                                             \
      "b 9f\n"                                                                               \
      "2:\n" MR_HALF(0, 0) MR_HALF(4, 16)                                                    \
      "adds %[buf], %[buf], #16\n"                                                           \
      "adds %[w], %[w], #32\n"                                                               \
      "ldr %[w0], [sp, #8]\n"                                                                \
      "cmp %[w], %[w0]\n"                                                                    \
      "bne 2b\n"                                                                             \
      "b 4b\n"                                                                               \
      "9:\n"                                                                                 \
      "add sp, sp, #16\n"                                                                    \
      : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [a4] "=&r"(a4),     \
        [a5] "=&r"(a5), [a6] "=&r"(a6), [a7] "=&r"(a7), [buf] "=&r"(buf), [w] "+r"(w),       \
        [xa] "=&r"(xa), [xb] "=&r"(xb), [w0] "=&r"(w0), [w1] "=&r"(w1)                       \
      :                                                                                      \
      : "cc", "memory")
#define MR_FORMS(DOT, BYTES, DBL)          \
  switch (kForm) {                           \
    case kFormRight:                         \
      MR_PAIRS_ASM(DOT, BYTES, MR_RIGHT, MR_PACK_CLAMP, DBL);       \
      break;                                 \
    case kFormRightMin:                      \
      MR_PAIRS_ASM(DOT, BYTES, MR_RIGHT_MIN, MR_PACK_HI, DBL);     \
      break;                                 \
    case kFormPre:                           \
      MR_PAIRS_ASM(DOT, BYTES, MR_PRE, MR_PACK_CLAMP, DBL);         \
      break;                                 \
    case kFormPreMin:                        \
      MR_PAIRS_ASM(DOT, BYTES, MR_PRE_MIN, MR_PACK_HI_FLIP, DBL);  \
      break;                                 \
  }
  if constexpr (kDoubled) {
    if (kUnroll4) {
      MR_FORMS(MR_DOT4, 64, MR_DOUBLED)
    } else {
      MR_FORMS(MR_DOT2, 32, MR_DOUBLED)
    }
  } else if (kUnroll4) {
    MR_FORMS(MR_DOT4, 64, MR_DOUBLE)
  } else {
    MR_FORMS(MR_DOT2, 32, MR_DOUBLE)
  }
#undef MR_FORMS
#undef MR_PAIRS_ASM
#undef MR_GROUP_SETUP
#undef MR_UNPACK_BLOCK
#undef MR_UNPACK_BLOCK_IN
#undef MR_SX_STORE
#undef MR_REQUANT_ALL
}
#undef MR_PACK_CLAMP
#undef MR_PACK_HI
#undef MR_PACK_HI_FLIP
#undef MR_CLAMP_HI
#undef MR_BYTES4
#undef MR_REQUANT
#undef MR_PRE_MIN
#undef MR_PRE
#undef MR_PRE_TAIL
#undef MR_RIGHT_MIN
#undef MR_RIGHT
#undef MR_SHIFT
#undef MR_SAT
#undef MR_DOUBLE
#undef MR_DOUBLED
#endif

// The pair loop's per-channel constants (bias, m, rb, shift: 16 words per group of four channels) of runs of up
// to kAsmGroups groups. The caller keeps them across its tiles: a layer of at most 4 * kAsmGroups channels has
// them built once per Invoke (IC's 16- and 32-channel layers, VWW's 16-channel pointwise: 16 tiles), larger
// ones once per run and tile; a caller that keeps none (nullptr) has them built per tile.
constexpr int kAsmGroups = 8;
struct TileConsts {
#if MR_DSP_ASM
  int32_t words[kAsmGroups][16];
#endif
  bool ready = false;  // words hold the layer's (all of its channels in one run)
  bool doubled = false;  // the caller's tiles hold doubled values (PointwiseTiles: PairAsmDoubles)
};

// The pair loop's forms for an output zero point and activation minimum of -128 (kFormRightMin, kFormPreMin).
inline bool PairMinZp(const Int8ChannelQuant& q) { return q.output_offset == -128 && q.act_min == -128; }

// Whether ChannelsOfTile's assembly takes a tile of windows of `blocks` blocks of a layer of this kind (`wq`:
// the caller's room for the unpacked filter, or nullptr): the pair loop's requantization kinds, at least one
// pass of its unrolled dot loop (2 or 4 blocks) per pair, the whole window's filter in the room there is.
inline bool PairAsmTakes(dsp::RequantKind kind, int blocks, const uint32_t* wq) {
  return MR_DSP_ASM && (kind == dsp::kRight || kind == dsp::kPre) && (wq != nullptr || blocks <= kQuadChunkBlocks) &&
         blocks >= 2;
}

// Whether a pointwise layer's tiles are filled doubled (FillPairTile): the assembly takes them, the input zero
// point is -128 (the doubled fill's masks: 2 (x + 128) from the byte x ^ 0x80), windows of whole double blocks,
// output zero point and activation minimum -128 (the forms with doubled variants), and more outputs than half
// the window (a doubled tile costs one instruction per input word, and saves two per pixel and output channel).
inline bool PairAsmDoubles(const ConvOpData& data, dsp::RequantKind kind, const uint32_t* wq) {
  const int n = data.g.in_ch;
  return PairAsmTakes(kind, n >> 2, wq) && data.q.input_offset == 128 && (n & 7) == 0 && PairMinZp(data.q) &&
         2 * data.g.out_ch > n;
}

// All output channels of the `pixels` consecutive output pixels at `out`
// whose windows (n bytes each) the tile `buf` holds (pair t at buf + t n; an
// odd count leaves the last pair's slot B out of every output). `wq`: room
// for the whole window's unpacked filter of four channels (2 n words, the
// optional scratch buffer's), or nullptr: the stack's, kQuadChunkBlocks
// blocks. A window that fits is unpacked once per tile and dotted per pair
// from the bias straight into the requantization; a longer one in chunks,
// the pairs' sums kept between them.
// ChannelsOfTile's C forms (the requantization kinds the assembly does not take, cores without it, windows
// longer than the stack's unpacked-filter room): out of line, so their sums and buffer are on the stack only
// on these paths.
template <dsp::RequantKind kKind>
__attribute__((noinline)) void ChannelsOfTileC(const ConvOpData& data, const uint32_t* buf, int pixels, int n,
                                               const int8_t* filter, const int32_t* bias, int8_t* out, uint32_t* wq) {
  const int pairs = (pixels + 1) >> 1;
  const Int8ChannelQuant& q = data.q;
  const Int8Requantizer requantize(q);
  const int out_ch = data.g.out_ch;
  const int blocks = n >> 2;
  const uint32_t lo4 = dsp::Bytes4(q.act_min), hi4 = dsp::Bytes4(q.act_max);
  uint32_t stack_wq[8 * kQuadChunkBlocks];
  const int chunk = wq != nullptr ? blocks : kQuadChunkBlocks;
  if (wq == nullptr) wq = stack_wq;
  for (int oc = 0; oc < out_ch; oc += 4) {
    int32_t b[4];
    for (int k = 0; k < 4; ++k) b[k] = bias != nullptr ? bias[oc + k] : 0;
    dsp::ChannelRequant r[4];
    for (int k = 0; k < 4; ++k) r[k] = dsp::LayerChannelRequant<kKind>(q, oc + k);
    const int8_t* f = filter + oc * n;
    int8_t* o = out + oc;
    // Pair t's eight sums into the outputs (pixel A's channels 0..3, then B's).
    auto store = [&](int t, const int32_t* acc) __attribute__((always_inline)) {
      int32_t v[8];
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
        v[k] = dsp::RequantizeShifted<kKind>(acc[k], r[k], requantize, oc + k);
        v[4 + k] = dsp::RequantizeShifted<kKind>(acc[4 + k], r[k], requantize, oc + k);
      }
      int8_t* ot = o + 2 * t * out_ch;
      dsp::Store4(ot, dsp::PackClamp4(v[0], v[1], v[2], v[3], lo4, hi4));
      if (2 * t + 1 < pixels) dsp::Store4(ot + out_ch, dsp::PackClamp4(v[4], v[5], v[6], v[7], lo4, hi4));
    };
    if (blocks <= chunk) {
      UnpackQuad(f, n, blocks, wq);
      for (int t = 0; t < pairs; ++t) {
        int32_t acc[8] = {b[0], b[1], b[2], b[3], b[0], b[1], b[2], b[3]};
        if (blocks >= kUnroll4Blocks) {
          Dot4x2<true>(buf + t * n, wq, blocks, acc);
        } else {
          Dot4x2<false>(buf + t * n, wq, blocks, acc);
        }
        store(t, acc);
      }
      continue;
    }
    int32_t acc[kMaxTilePairs][8];
    for (int t = 0; t < pairs; ++t) {
      for (int k = 0; k < 4; ++k) acc[t][k] = acc[t][4 + k] = b[k];
    }
    for (int c = 0; c < blocks; c += chunk) {
      const int nb = blocks - c < chunk ? blocks - c : chunk;
      UnpackQuad(f + 4 * c, n, nb, wq);
      for (int t = 0; t < pairs; ++t) Dot4x2<true>(buf + t * n + 4 * c, wq, nb, acc[t]);
    }
    for (int t = 0; t < pairs; ++t) store(t, acc[t]);
  }
}

template <dsp::RequantKind kKind>
__attribute__((noinline)) void ChannelsOfTile(const ConvOpData& data, const uint32_t* buf, int pixels, int n,
                                              const int8_t* filter, const int32_t* bias, int8_t* out, uint32_t* wq,
                                              TileConsts* keep) {
  (void)keep;  // the assembly's (kRight and kPre layers)
#if MR_DSP_ASM
  const int blocks = n >> 2;
  if constexpr (kKind == dsp::kRight || kKind == dsp::kPre) {
    if (PairAsmTakes(kKind, blocks, wq)) {
      // The pairs of runs of up to kAsmGroups groups in one loop of assembly.
      const Int8ChannelQuant& q = data.q;
      const int out_ch = data.g.out_ch;
      const uint32_t lo4 = dsp::Bytes4(q.act_min), hi4 = dsp::Bytes4(q.act_max);
      uint32_t stack_wq[8 * kQuadChunkBlocks];
      const bool unroll4 = blocks >= kUnroll4Blocks;
      PairRun run;
      run.wq = wq != nullptr ? wq : stack_wq;
      run.span = static_cast<uint32_t>(16 * blocks);
      run.rest = static_cast<uint32_t>(16 * (blocks & (unroll4 ? 3 : 1)));
      run.out_ch = out_ch;
      run.lo4 = lo4;
      run.hi4 = hi4;
      run.buf0 = buf;
      run.pixels0 = pixels;
      run.n = n;
      const bool min_zp = PairMinZp(q);
      constexpr PairForm kAnyZp = kKind == dsp::kPre ? kFormPre : kFormRight;
      constexpr PairForm kMinZp = kKind == dsp::kPre ? kFormPreMin : kFormRightMin;
      TileConsts own;  // the caller keeps none (EvalSmallWindow: its frame is the deepest)
      if (keep == nullptr) keep = &own;
      const bool doubled = keep->doubled;  // only with min_zp (PairAsmDoubles)
      void (*const pairs_asm)(PairRun*) =
          doubled ? (unroll4 ? PairsInAsm<true, kMinZp, true> : PairsInAsm<false, kMinZp, true>)
                  : unroll4 ? (min_zp ? PairsInAsm<true, kMinZp> : PairsInAsm<true, kAnyZp>)
                            : (min_zp ? PairsInAsm<false, kMinZp> : PairsInAsm<false, kAnyZp>);
      int32_t (*const consts)[16] = keep->words;
      for (int oc0 = 0; oc0 < out_ch; oc0 += 4 * kAsmGroups) {
        const int groups = (out_ch - oc0) / 4 < kAsmGroups ? (out_ch - oc0) / 4 : kAsmGroups;
        const bool one_run = out_ch <= 4 * kAsmGroups;
        if (!keep->ready) {
#pragma GCC unroll 1
          for (int c = 0; c < 4 * groups; ++c) {
            const dsp::ChannelRequant r = dsp::LayerChannelRequant<kKind>(q, oc0 + c);
            int32_t* k = consts[c >> 2] + (c & 3);
            // Doubled tiles: the doubled bias (modulo 2^32 like the sums: what the kinds bound by 2^30 is the
            // whole sum, so 2 acc is exact; a constant channel's output does not depend on it).
            const int32_t b = bias != nullptr ? bias[oc0 + c] : 0;
            k[0] = doubled ? static_cast<int32_t>(static_cast<uint32_t>(b) << 1) : b;
            k[4] = r.m;
            if (kKind == dsp::kPre && min_zp) {  // MR_PRE_MIN's one shift R and its rounding addend
              const int32_t total = r.right + r.pre;
              k[8] = r.m == 0 ? r.rb + 256 : static_cast<int32_t>(1u << (total - 1));
              k[12] = total;
            } else {
              k[8] = r.rb;
              k[12] = r.right | r.pre << 8;
            }
          }
        }
        keep->ready = one_run;
        run.out0 = out + oc0;
        run.filter = filter + oc0 * n;
        run.groups = groups;
        run.consts = consts[0];
        pairs_asm(&run);
      }
      return;
    }
  }
#endif
  ChannelsOfTileC<kKind>(data, buf, pixels, n, filter, bias, out, wq);
}

using TileFn = void (*)(const ConvOpData&, const uint32_t*, int, int, const int8_t*, const int32_t*, int8_t*,
                       uint32_t*, TileConsts*);

inline TileFn SelectTile(dsp::RequantKind kind) {
  return dsp::ForKind(kind, [](auto tag) -> TileFn { return ChannelsOfTile<decltype(tag)::kKind>; });
}

// A tile buffer: an optional scratch buffer when prepare got one (a tile of
// ScratchPairs(g, i) pairs, then room for the unpacked filter: ScratchWords),
// else the stack's (out of line, so only tile paths have it on the stack)
// and no filter room. Two sizes are requested: the larger (fewer tiles, each
// unpacking every filter quad once) where the arena has a gap for it, else
// two thirds of it (IC's 576-byte windows: 12 pairs take 32 KB, more than any
// gap beside its 8x8 layers' tensors).
inline int ScratchWords(int window, int pairs) { return pairs * window + 2 * window; }

// The optional scratch buffer granted (the larger first) and its pairs.
struct TileScratch {
  void* buffer;
  int pairs;
};

template <typename Run>
__attribute__((noinline)) void WithStackTile(Run run) {
  uint32_t tile[kPairMax];
  run(tile, kPairMax, static_cast<uint32_t*>(nullptr));
}

template <typename Run>
inline void WithTile(const TileScratch& scratch, int window, Run run) {
  if (scratch.buffer != nullptr) {
    uint32_t* words = static_cast<uint32_t*>(scratch.buffer);
    run(words, scratch.pairs * window, words + scratch.pairs * window);
  } else {
    WithStackTile(run);
  }
}

// Pixels per tile for windows of n bytes in a buffer of `words` words (at
// least 2: n <= words / 2), balanced over the layer's `pixels`: as few tiles
// as the buffer allows (each unpacks every filter quad once), equally full.
inline int TilePixels(int n, int words, int pixels, int cap = kTilePairs) {
  const int most = 2 * (words / n < cap ? words / n : cap);
  const int tiles = (pixels + most - 1) / most;
  const int each = (pixels + tiles - 1) / tiles;
  return each + (each & 1) < most ? each + (each & 1) : most;
}

// The pair buffers of `count` consecutive pixels of n bytes each from `in` (pixel i at in + i n): pair t's
// A and B are two consecutive pixels, so per two blocks of each four loads, eight SXTAB16 and eight
// single-cycle STRs in one loop over the whole tile (per pixel, FillPairRun's call cost about a third of
// VWW's 8- and 16-channel fills). Windows of an odd block count and a lone last pixel: FillPairRun.
// `doubled` (PairAsmDoubles: input offset 128, n a multiple of 8): each value 2 (x + 128) instead, from the byte
// x ^ 0x80 = x + 128 by two ANDs with shifted operands per word (halfwords 2 u0, 2 u2 and 2 u1, 2 u3: the
// values fit nine bits, so no carry crosses a halfword), one instruction per word more than the plain fill.
inline void FillPairTile(uint32_t* buf, const int8_t* in, int count, int n, uint32_t off, bool doubled) {
  int done = 0;
#if MR_DSP_ASM
  if ((n & 7) == 0 && count >= 2) {  // (doubled: always, PairAsmDoubles)
    const int8_t* a = in;
    const int8_t* b = in + n;
    const int8_t* end = b;
    uint32_t* d = buf;
    int32_t pairs = count >> 1;
    const uint32_t mask = 0x01FE01FEu;
    uint32_t x0, x1, x2, x3, t;
#define MR_DOUBLE_WORD(X, PTR, OFF)                       \
  "eor %[" X "], %[" X "], #0x80808080\n"                 \
  "and %[t], %[mask], %[" X "], lsr #7\n"                 \
  "and %[" X "], %[mask], %[" X "], lsl #1\n"             \
  "str %[" X "], [%[" PTR "], #(" #OFF ")]\n"             \
  "str %[t], [%[" PTR "], #(" #OFF " + 4)]\n"
#define MR_FILL_TILE(WORD)                                                                                   \
  __asm__ volatile(                                                                                          \
      "1:\n"                                                                                                 \
      "ldr %[x0], [%[a]]\n"                                                                                  \
      "ldr %[x1], [%[a], #4]\n"                                                                              \
      "ldr %[x2], [%[b]]\n"                                                                                  \
      "ldr %[x3], [%[b], #4]\n"                                                                              \
      WORD("x0", "d", 0) WORD("x2", "d", 8) WORD("x1", "d", 16) WORD("x3", "d", 24)                         \
      "adds %[a], %[a], #8\n"                                                                                \
      "adds %[b], %[b], #8\n"                                                                                \
      "adds %[d], %[d], #32\n"                                                                               \
      "cmp %[a], %[end]\n"                                                                                   \
      "bne 1b\n"                                                                                             \
      "mov %[a], %[b]\n"                                                                                     \
      "add %[b], %[b], %[n]\n"                                                                               \
      "add %[end], %[a], %[n]\n"                                                                             \
      "subs %[pairs], %[pairs], #1\n"                                                                        \
      "bne 1b\n"                                                                                             \
      : [a] "+r"(a), [b] "+r"(b), [end] "+r"(end), [d] "+r"(d), [pairs] "+r"(pairs), [x0] "=&r"(x0),       \
        [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [t] "=&r"(t)                                       \
      : [off] "r"(off), [mask] "r"(mask), [n] "r"(n)                                                        \
      : "cc", "memory")
    if (doubled) {
      MR_FILL_TILE(MR_DOUBLE_WORD);
    } else {
      MR_FILL_TILE(MR_WIDEN_WORD);
    }
#undef MR_FILL_TILE
#undef MR_DOUBLE_WORD
    done = count & ~1;
  }
#endif
  for (int i = done; i < count; ++i) {
    uint32_t* pair = buf + (i >> 1) * n;
    FillPairRun(pair, i & 1, in + i * n, n, off);
    if (doubled) {  // the lone last pixel's words (slot i & 1 of each block)
      for (int j = 2 * (i & 1); j < n; j += 4) {
        pair[j] = dsp::Sadd16(pair[j], pair[j]);
        pair[j + 1] = dsp::Sadd16(pair[j + 1], pair[j + 1]);
      }
    }
  }
}

// 1x1 convolutions with stride 1: output pixel i reads input pixel i (no
// padding), so the pixels go straight through the input, without the window
// bookkeeping: in tiles (ChannelsOfTile) when the channel counts allow, else
// in pairs (ChannelsOfPair). Each path has its own buffer (out of line, so
// only one is on the stack).
__attribute__((noinline)) void PointwiseTiles(const ConvOpData& data, dsp::RequantKind kind, const int8_t* input,
                                              const int8_t* filter, const int32_t* bias, int8_t* output,
                                              const TileScratch& scratch) {
  const TileFn tile = SelectTile(kind);
  const WindowGeometry& g = data.g;
  const int n = g.in_ch;
  const int out_ch = g.out_ch;
  const uint32_t off = dsp::Offset16x2(data.q.input_offset);
  TileConsts keep;
  WithTile(scratch, n, [&](uint32_t* buf, int words, uint32_t* wq) {
    const int most = TilePixels(n, words, g.batches * g.out_h * g.out_w, kPointwiseLayerPairs);
    keep.doubled = PairAsmDoubles(data, kind, wq);
    const int8_t* in = input;
    int8_t* out = output;
    for (int pixels = g.batches * g.out_h * g.out_w; pixels > 0;) {
      const int count = pixels < most ? pixels : most;
      FillPairTile(buf, in, count, n, off, keep.doubled);
      tile(data, buf, count, n, filter, bias, out, wq, &keep);
      in += count * n;
      out += count * out_ch;
      pixels -= count;
    }
  });
}

__attribute__((noinline)) void PointwisePairs(const ConvOpData& data, PairFn pair, const int8_t* input,
                                              const int8_t* filter, const int32_t* bias, int8_t* output) {
  const WindowGeometry& g = data.g;
  const int n = g.in_ch;
  const int out_ch = g.out_ch;
  const uint32_t off = dsp::Offset16x2(data.q.input_offset);
  uint32_t pair_buf[kPairMax];
  int pixels = g.batches * g.out_h * g.out_w;
  for (; pixels >= 2; pixels -= 2, input += 2 * n, output += 2 * out_ch) {
    FillPairRun(pair_buf, 0, input, n, off);
    FillPairRun(pair_buf, 1, input + n, n, off);
    pair(data, pair_buf, input, input + n, n, filter, bias, output, output + out_ch);
  }
  if (pixels == 1) {  // the last pixel alone, as both of a pair (its outputs written twice, the same)
    FillPairRun(pair_buf, 0, input, n, off);
    FillPairRun(pair_buf, 1, input, n, off);
    pair(data, pair_buf, input, input, n, filter, bias, output, output);
  }
}

// ---- Windows over few input channels (in_ch % 4 != 0: VWW's and KWS's first layers) ----
//
// A window row of L = FW * IC bytes is then not a whole number of words, so
// the pair buffer holds the window in a permuted order: each row's L / 4 whole
// words, then the L % 4 bytes left over of every row, in row order, padded
// with the zero point to a whole word (a zero halfword after the offset, so
// the padding adds nothing). The dot product does not depend on the order as
// long as the filter is read in the same one: straight from the model when
// L % 4 == 0 (then the order is the filter's own), else from a stack copy
// permuted once per Eval (at most kSmallFilterMax bytes, zero-padded). The
// pixels then go in pairs through ChannelsOfPair (4 channels per pass, no
// tail bytes): interior windows packed straight from the input, border
// windows from a zero-point-filled column (FillColumn).
constexpr int kSmallWindowMax = 128;  // window bytes (pair buffer: 4 bytes per byte)
constexpr int kSmallFilterMax = 768;  // out_ch * permuted window bytes of the stack copy

// Blocks of 4 bytes of the permuted window of fh rows of row_len bytes.
inline int PermutedBlocks(int fh, int row_len) { return fh * (row_len >> 2) + (fh * (row_len & 3) + 3) / 4; }

// The window whose row r starts at src + r * stride (fh rows of row_len
// bytes, row_len <= kSmallWindowMax) into slot `slot` (0: A, 1: B) of the pair
// buffer, in the permuted order.
// 3x3 windows over 3 channels (VWW's first layer): 6 words, then the rows' last bytes; inlined into the
// pixel loop (as a call, its prologue and epilogue were a third of its cycles).
__attribute__((always_inline)) inline void PackPermuted3x3x3(const int8_t* src, int32_t stride, uint32_t off,
                                                             int8_t pad, int slot, uint32_t* buf) {
  buf += 2 * slot;
  const int8_t* r1 = src + stride;
  const int8_t* r2 = r1 + stride;
  const uint32_t x[6] = {dsp::Load4(src), dsp::Load4(src + 4), dsp::Load4(r1),
                         dsp::Load4(r1 + 4), dsp::Load4(r2), dsp::Load4(r2 + 4)};
#pragma GCC unroll 6
  for (int i = 0; i < 6; ++i) {
    buf[4 * i] = dsp::Sxtab16(off, x[i]);
    buf[4 * i + 1] = dsp::Sxtab16Ror8(off, x[i]);
  }
  const uint32_t last = static_cast<uint8_t>(src[8]) | static_cast<uint32_t>(static_cast<uint8_t>(r1[8])) << 8 |
                        static_cast<uint32_t>(static_cast<uint8_t>(r2[8])) << 16 |
                        static_cast<uint32_t>(static_cast<uint8_t>(pad)) << 24;
  buf[24] = dsp::Sxtab16(off, last);
  buf[25] = dsp::Sxtab16Ror8(off, last);
}

#if MR_DSP_ASM
// `pairs` pairs of consecutive interior 3x3x3 windows of one output row (window k at src + k step, rows sy
// apart) packed as PackPermuted3x3x3 does, into pair buffers of 28 words from d: both pixels of a pair in
// one pass, in registers (the C++ spilled the loaded words), ~50 cycles per window instead of ~140.
#define MR_PACK333(SLOT)                                  \
  "add %[s1], %[s], %[sy]\n"                              \
  "ldr %[x0], [%[s]]\n"                                   \
  "ldr %[x1], [%[s], #4]\n"                               \
  "ldr %[x2], [%[s1]]\n"                                  \
  "ldr %[x3], [%[s1], #4]\n"                              \
  MR_WIDEN_WORD("x0", "d", SLOT + 0) MR_WIDEN_WORD("x1", "d", SLOT + 16)        \
  MR_WIDEN_WORD("x2", "d", SLOT + 32) MR_WIDEN_WORD("x3", "d", SLOT + 48)       \
  "add %[x3], %[s1], %[sy]\n"                             \
  "ldr %[x0], [%[x3]]\n"                                  \
  "ldr %[x1], [%[x3], #4]\n"                              \
  "ldrb %[x2], [%[x3], #8]\n"                             \
  MR_WIDEN_WORD("x0", "d", SLOT + 64) MR_WIDEN_WORD("x1", "d", SLOT + 80)       \
  "ldrb %[x0], [%[s], #8]\n"                              \
  "ldrb %[x1], [%[s1], #8]\n"                             \
  "orr %[x0], %[pw], %[x0]\n"                             \
  "orr %[x0], %[x0], %[x1], lsl #8\n"                     \
  "orr %[x0], %[x0], %[x2], lsl #16\n"                    \
  MR_WIDEN_WORD("x0", "d", SLOT + 96)                                \
  "add %[s], %[s], %[step]\n"
__attribute__((noinline)) void PackPairs3x3x3(const int8_t* s, int32_t sy, int32_t step, uint32_t off, int8_t pad,
                                             int32_t pairs, uint32_t* d) {
  const uint32_t pw = static_cast<uint32_t>(static_cast<uint8_t>(pad)) << 24;
  const int8_t* s1;
  uint32_t x0, x1, x2, x3, t;
  __asm__ volatile(
      "1:\n" MR_PACK333(0) MR_PACK333(8)
      "adds %[d], %[d], #112\n"
      "subs %[pairs], %[pairs], #1\n"
      "bne 1b\n"
      : [s] "+r"(s), [d] "+r"(d), [pairs] "+r"(pairs), [s1] "=&r"(s1), [x0] "=&r"(x0), [x1] "=&r"(x1),
        [x2] "=&r"(x2), [x3] "=&r"(x3), [t] "=&r"(t)
      : [sy] "r"(sy), [step] "r"(step), [off] "r"(off), [pw] "r"(pw)
      : "cc", "memory");
}
#undef MR_PACK333
#undef MR_WIDEN_WORD
#endif

inline void PackPermuted(const int8_t* src, int32_t stride, int fh, int row_len, uint32_t off, int8_t pad, int slot,
                         uint32_t* buf) {
  if (fh == 3 && row_len == 9) {
    PackPermuted3x3x3(src, stride, off, pad, slot, buf);
    return;
  }
  buf += 2 * slot;
  const int words = row_len >> 2, rest = row_len & 3;
  int8_t left[kSmallWindowMax + 4];
  int nl = 0;
  for (int r = 0; r < fh; ++r, src += stride) {
    for (int i = 0; i < words; ++i, buf += 4) {
      const uint32_t x = dsp::Load4(src + 4 * i);
      buf[0] = dsp::Sxtab16(off, x);
      buf[1] = dsp::Sxtab16Ror8(off, x);
    }
    for (int i = 4 * words; i < row_len; ++i) left[nl++] = src[i];
  }
  if (rest == 0) return;
  while ((nl & 3) != 0) left[nl++] = pad;
  for (int i = 0; i < nl; i += 4, buf += 4) {
    const uint32_t x = dsp::Load4(left + i);
    buf[0] = dsp::Sxtab16(off, x);
    buf[1] = dsp::Sxtab16Ror8(off, x);
  }
}

// One output channel's filter (fh rows of row_len bytes) as bytes in the
// permuted order, zero-padded to whole words.
inline void PermuteFilter(const int8_t* f, int fh, int row_len, int8_t* dst) {
  const int words = row_len >> 2;
  int8_t* left = dst + 4 * fh * words;
  for (int r = 0; r < fh; ++r, f += row_len) {
    for (int i = 0; i < 4 * words; ++i) *dst++ = f[i];
    for (int i = 4 * words; i < row_len; ++i) *left++ = f[i];
  }
  while (((left - dst) & 3) != 0) *left++ = 0;
}

// Whether EvalSmallWindow takes the layer.
inline bool SmallWindowFits(const WindowGeometry& g) {
  const int row_len = g.filter_w * g.in_ch;
  const int window = g.filter_h * row_len;
  return g.dilation_w == 1 && (g.in_ch & 3) != 0 && window <= kSmallWindowMax && g.out_ch >= 2 &&
         ((row_len & 3) == 0 || g.out_ch * 4 * PermutedBlocks(g.filter_h, row_len) <= kSmallFilterMax);
}

__attribute__((noinline)) void EvalSmallWindow(const ConvOpData& data, PairFn pair, TileFn tile_fn,
                                               const int8_t* input, const int8_t* filter, const int32_t* bias,
                                               int8_t* output) {
  const WindowGeometry& g = data.g;
  const int in_ch = g.in_ch;
  const int fh = g.filter_h;
  const int row_len = g.filter_w * in_ch;
  const int window = fh * row_len;
  const int n4 = 4 * PermutedBlocks(fh, row_len);
  const int out_ch = g.out_ch;
  const int32_t row_stride = g.in_w * in_ch;
  const int32_t sy = g.dilation_h * row_stride;
  const uint32_t off = dsp::Offset16x2(data.q.input_offset);
  const int8_t zp = static_cast<int8_t>(-data.q.input_offset);
  int8_t fcopy[kSmallFilterMax];
  const int8_t* f = filter;
  if ((row_len & 3) != 0) {
    for (int oc = 0; oc < out_ch; ++oc) PermuteFilter(filter + oc * window, fh, row_len, fcopy + oc * n4);
    f = fcopy;
  }
  // Output channels a multiple of 4: tiles of as many pixel pairs as the stack's tile holds (ChannelsOfTile);
  // else pairs.
  const bool tiles = (out_ch & 3) == 0;
  const TileFn tile = tiles ? tile_fn : nullptr;
  const int most = tiles ? TilePixels(n4, kPairMax, g.batches * g.out_h * g.out_w, kPointwiseLayerPairs) : 2;
  uint32_t buf[kPairMax];  // pair t at buf + t * n4
  int8_t column[kSmallWindowMax];
  int ox_lo, ox_hi;
  dsp::FullWindowRange(g.out_w, g.stride_w, g.pad_w, g.in_w, g.filter_w, 1, &ox_lo, &ox_hi);
#if MR_DSP_ASM
  const bool fast333 = fh == 3 && row_len == 9 && n4 == 28;  // PackPairs3x3x3's windows (VWW's first layer)
#endif
  int filled = 0;
  int8_t* first_out = output;
  WindowPos p;
  for (int b = 0; b < g.batches; ++b) {
    const int8_t* in_b = input + b * g.in_h * row_stride;
    for (int oy = 0; oy < g.out_h; ++oy) {
      p.origin_y = oy * g.stride_h - g.pad_h;
      ValidFilterRange(p.origin_y, g.dilation_h, g.in_h, fh, &p.fy0, &p.fy1);
      p.ny = p.fy1 > p.fy0 ? p.fy1 - p.fy0 : 0;
      const bool full_rows = p.ny == fh;
      const int8_t* in_y = in_b + (p.origin_y + p.fy0 * g.dilation_h) * row_stride;
      for (int ox = 0; ox < g.out_w; ++ox, output += out_ch) {
        p.origin_x = ox * g.stride_w - g.pad_w;
        uint32_t* dst = buf + (filled >> 1) * n4;
#if MR_DSP_ASM
        if (fast333 && full_rows && ox >= ox_lo && ox + 1 < ox_hi && (filled & 1) == 0 && filled + 2 <= most) {
          // Pairs of interior windows in one call: as many as the row's interior and the tile hold.
          const int room = (most - filled) >> 1, left = (ox_hi - ox) >> 1;
          const int k = room < left ? room : left;
          if (filled == 0) first_out = output;
          PackPairs3x3x3(in_y + p.origin_x * in_ch, sy, g.stride_w * in_ch, off, zp, k, dst);
          filled += 2 * k - 1;  // the loop's tail counts the last one
          ox += 2 * k - 1;
          output += (2 * k - 1) * out_ch;
        } else
#endif
        if (full_rows && ox >= ox_lo && ox < ox_hi) {
          if (fh == 3 && row_len == 9) {
            PackPermuted3x3x3(in_y + p.origin_x * in_ch, sy, off, zp, filled & 1, dst);
          } else {
            PackPermuted(in_y + p.origin_x * in_ch, sy, fh, row_len, off, zp, filled & 1, dst);
          }
        } else {
          ValidFilterRange(p.origin_x, 1, g.in_w, g.filter_w, &p.fx0, &p.fx1);
          p.nx = p.fx1 > p.fx0 ? p.fx1 - p.fx0 : 0;
          FillColumn(g, p, in_y + (p.origin_x + p.fx0) * in_ch, zp, column);
          PackPermuted(column, row_len, fh, row_len, off, zp, filled & 1, dst);
        }
        if (filled == 0) first_out = output;
        if (++filled < most) continue;
        if (tiles) {
          tile(data, buf, filled, n4, f, bias, first_out, nullptr, nullptr);
        } else {
          pair(data, buf, nullptr, nullptr, n4, f, bias, first_out, first_out + out_ch);
        }
        filled = 0;
      }
    }
  }
  if (filled == 0) return;
  if (tiles) {
    tile(data, buf, filled, n4, f, bias, first_out, nullptr, nullptr);
  } else {  // the last pixel alone, as both of a pair (its outputs written twice, the same)
    for (int i = 0; i < n4; i += 4) {
      buf[i + 2] = buf[i];
      buf[i + 3] = buf[i + 1];
    }
    pair(data, buf, nullptr, nullptr, n4, f, bias, first_out, first_out);
  }
}

// Windows of whole words (dilation_w 1, in_ch and out_ch multiples of 4:
// IC's 3x3 convolutions): consecutive pixels (consecutive outputs) fill a
// tile, border windows with zero taps. At most kPairMax / 2 bytes with the
// stack's tile (two pairs or more), kPairMax with the optional scratch
// buffer (eight pairs).
inline bool WindowTilesFit(const WindowGeometry& g, bool scratch) {
  return g.dilation_w == 1 && (g.in_ch & 3) == 0 && (g.out_ch & 3) == 0 &&
         g.filter_h * g.filter_w * g.in_ch <= (scratch ? kPairMax : kPairMax / 2);
}

__attribute__((noinline)) void EvalWindowTiles(const ConvOpData& data, TileFn tile, const int8_t* input,
                                               const int8_t* filter, const int32_t* bias, int8_t* output,
                                               const TileScratch& scratch) {
  const WindowGeometry& g = data.g;
  const int out_ch = g.out_ch;
  const int window = g.filter_h * g.filter_w * g.in_ch;
  const uint32_t off = dsp::Offset16x2(data.q.input_offset);
  const int pixels = g.batches * g.out_h * g.out_w;
  TileConsts keep;
  WithTile(scratch, window, [&](uint32_t* buf, int words, uint32_t* wq) {
    // Without the scratch buffer (a layer at the arena's peak: IC's second
    // 32x32 convolution), the output's own tail is a tile of kTilePairs pairs
    // until the outputs reach it: the pixels before `tail_end` write below
    // it; the rest take the stack's tile.
    uint32_t* cur = buf;
    int cur_words = words;
    int tail_end = 0;
    if (words < kTilePairs * window) {
      const uintptr_t end = reinterpret_cast<uintptr_t>(output + static_cast<ptrdiff_t>(pixels) * out_ch);
      const uintptr_t start = (end - static_cast<uintptr_t>(kTilePairs * window) * 4u) & ~uintptr_t{3};
      const uintptr_t base = reinterpret_cast<uintptr_t>(output);
      const int before = end > base + static_cast<uintptr_t>(kTilePairs * window) * 4u
                             ? static_cast<int>((start - base) / static_cast<uintptr_t>(out_ch))
                             : 0;
      if (before >= 4 * kTilePairs) {  // worth it: at least two full tiles
        cur = reinterpret_cast<uint32_t*>(start);
        cur_words = kTilePairs * window;
        tail_end = before;
      }
    }
    int most = TilePixels(window, cur_words, tail_end > 0 ? tail_end : pixels);
    int filled = 0;
    int index = 0;
    int8_t* tile_out = output;
    auto flush = [&]() {
      if (filled == 0) return;
      tile(data, cur, filled, window, filter, bias, tile_out, wq, &keep);
      tile_out += filled * out_ch;
      filled = 0;
    };
    ForEachOutputPixel(g, [&](const WindowPos& p) {
      if (index++ == tail_end && cur != buf) {  // the outputs reach the tail: the stack's tile from here
        flush();
        cur = buf;
        most = TilePixels(window, words, pixels - tail_end);
      }
      FillPairWindow(g, p, input + p.in_offset, off, filled & 1, cur + (filled >> 1) * window);
      if (++filled == most) flush();
    });
    flush();
  });
}

// Any other layer, pixel by pixel (pairs where the windows allow). Out of
// line, like the other paths, so that only one path's buffers are on the
// stack at a time.
__attribute__((noinline)) void EvalWindows(const ConvOpData& data, PairFn pair, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output) {
  const WindowGeometry& g = data.g;
  const int out_ch = g.out_ch;
  const int window = g.filter_h * g.filter_w * g.in_ch;
  const int32_t offset = data.q.input_offset;
  const Int8Requantizer requantize(data.q);
  // Contiguous window rows: whole windows as one run (1x1, or rows that
  // follow each other in the input), others through a zero-point-filled
  // column when it is small.
  const bool rows = g.dilation_w == 1;
  const bool one_run = rows && (g.filter_h == 1 || (g.filter_w == g.in_w && g.dilation_h == 1));
  const bool use_column = rows && window <= kColumnMax;
  int8_t column[kColumnMax];
  // Pixels go in pairs (ChannelsOfPair) when their windows are whole
  // one-run windows, or any window when the rows are whole blocks of 4 bytes:
  // the first of a pair waits in the pair buffer until the next one.
  const bool pair_runs = one_run && window <= kPairMax && out_ch >= 2;
  const bool pair_windows = rows && g.in_ch % 4 == 0 && window <= kPairMax && out_ch >= 2;
  const uint32_t off = dsp::Offset16x2(offset);
  uint32_t pair_buf[kPairMax];
  const int8_t* pending = nullptr;
  int8_t* pending_out = nullptr;
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    const int8_t* in_win = input + p.in_offset;
    const bool full = p.ny == g.filter_h && p.nx == g.filter_w;
    if ((full && pair_runs) || pair_windows) {
      const int slot = pending == nullptr ? 0 : 1;
      if (full && one_run) {
        FillPairRun(pair_buf, slot, in_win, window, off);
      } else {
        FillPairWindow(g, p, in_win, off, slot, pair_buf);
      }
      if (slot == 0) {
        pending = in_win;
        pending_out = output;
      } else {
        pair(data, pair_buf, pending, in_win, window, filter, bias, pending_out, output);
        pending = nullptr;
      }
    } else if (full && one_run) {
      ChannelsOfColumn(data, in_win, window, filter, bias, output);
    } else if (use_column) {
      FillColumn(g, p, in_win, static_cast<int8_t>(-offset), column);
      ChannelsOfColumn(data, column, window, filter, bias, output);
    } else {
      int oc = 0;
      for (; oc + kChannels <= out_ch; oc += kChannels) {
        Channels<kChannels>(data, requantize, p, in_win, filter, bias, oc, output + oc);
      }
      for (; oc < out_ch; ++oc) Channels<1>(data, requantize, p, in_win, filter, bias, oc, output + oc);
    }
    output += out_ch;
  });
  if (pending != nullptr) {
    // The last pixel alone: its window copied as the second of the pair (its
    // outputs are written twice, the same values).
    for (int i = 0; i < window >> 2; ++i) {
      pair_buf[4 * i + 2] = pair_buf[4 * i];
      pair_buf[4 * i + 3] = pair_buf[4 * i + 1];
    }
    pair(data, pair_buf, pending, pending, window, filter, bias, pending_out, pending_out);
  }
}

// 1x1, stride 1, no padding: output pixel i reads input pixel i (the
// pointwise paths; PointwiseTilesFit: in tiles).
inline bool IsPointwise(const WindowGeometry& g) {
  return g.filter_h == 1 && g.filter_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_h == 0 && g.pad_w == 0 &&
         g.out_h == g.in_h && g.out_w == g.in_w && g.in_ch <= kPairMax && g.out_ch >= 2;
}
inline bool PointwiseTilesFit(const WindowGeometry& g) {
  return IsPointwise(g) && (g.in_ch & 3) == 0 && (g.out_ch & 3) == 0;
}

// Pairs of optional scratch buffer `which` (0 the larger, 1 the alternative) for the layer: a pointwise
// layer's whole output (at least kPointwisePairs, up to kPointwiseLayerPairs pairs) else kPointwisePairs (two
// thirds of it when that was the larger); windows kTilePairs else two thirds of it.
inline int ScratchPairs(const WindowGeometry& g, int which) {
  if (IsPointwise(g)) {
    const int layer = (g.batches * g.out_h * g.out_w + 1) / 2;
    const int larger = layer < kPointwisePairs ? kPointwisePairs
                       : layer < kPointwiseLayerPairs ? layer : kPointwiseLayerPairs;
    if (which == 0) return larger;
    return larger > kPointwisePairs ? kPointwisePairs : kPointwisePairs * 2 / 3;
  }
  return which == 0 ? kTilePairs : kTilePairs * 2 / 3;
}
}  // namespace

size_t ConvInt8ScratchBytes(const WindowGeometry& g, int which) {
  const int window = g.filter_h * g.filter_w * g.in_ch;
  const bool tiles = PointwiseTilesFit(g) || (!IsPointwise(g) && !SmallWindowFits(g) && WindowTilesFit(g, true));
  const int pairs = ScratchPairs(g, which & 1);
  // Only when the stack's tile holds fewer pairs, or the window is longer
  // than the stack's room for its unpacked filter.
  if (!tiles || (kPairMax / window >= pairs && window <= 4 * kQuadChunkBlocks)) return 0;
  return static_cast<size_t>(ScratchWords(window, pairs)) * sizeof(uint32_t);
}

// Its requantization kind (every path's windows have the window's taps).
int ConvInt8LayerClass(const ConvOpData& data, const int32_t* bias) {
  const WindowGeometry& g = data.g;
  const int window = g.filter_h * g.filter_w * g.in_ch;
  return static_cast<int>(
      dsp::LayerRequantKind(data.q, g.out_ch, dsp::AccumulatorBound(bias, g.out_ch, window, &data.q)));
}

TfLiteStatus ConvEvalInt8(TfLiteContext* context, const ConvOpData& data, const int8_t* input, const int8_t* filter,
                          const int32_t* bias, int8_t* output) {
  TileScratch scratch = {nullptr, 0};
  for (int i = 0; i < 2 && scratch.buffer == nullptr; ++i) {
    if (data.scratch[i] >= 0) scratch = {context->GetScratchBuffer(context, data.scratch[i]), ScratchPairs(data.g, i)};
  }
  const WindowGeometry& g = data.g;
  // The layer's requantization kind: prepare's (a constant bias), else once per Invoke.
  const int prepared = PreparedInt8ClassOf(data);
  const dsp::RequantKind kind = static_cast<dsp::RequantKind>(prepared >= 0 ? prepared : ConvInt8LayerClass(data, bias));
  const PairFn pair = SelectPair(kind);
  if (PointwiseTilesFit(g)) {
    PointwiseTiles(data, kind, input, filter, bias, output, scratch);
  } else if (IsPointwise(g)) {
    PointwisePairs(data, pair, input, filter, bias, output);
  } else if (SmallWindowFits(g)) {
    EvalSmallWindow(data, pair, SelectTile(kind), input, filter, bias, output);
  } else if (WindowTilesFit(g, scratch.buffer != nullptr)) {
    EvalWindowTiles(data, SelectTile(kind), input, filter, bias, output, scratch);
  } else {
    EvalWindows(data, pair, input, filter, bias, output);
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
