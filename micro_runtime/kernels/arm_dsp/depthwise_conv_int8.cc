// DEPTHWISE_CONV_2D int8 accumulators for cores with the DSP extension
// (replace kernels/depthwise_conv_int8.cc under the arm_dsp tag; the loop,
// prepare and op data are depthwise_conv.h's / depthwise_conv.cc's).
//
// Blocks of 8 output channels; per tap, each 4 channels' filter bytes are one
// word unpacked with SXTB16 / SXTB16 ROR #8 into halfword pairs (channels 0,2
// and 1,3), and each channel's product is one SMLAxy on the right halves:
//   multiplier 1: the 4 input bytes are unpacked the same way and get the
//     input offset with one SADD16 per pair: 12 instructions per 4 MACs;
//   multiplier > 1, one input channel (micro_speech): four taps along x per
//     input word, each tap's value (+ offset) a halfword, SMLAxB / SMLAxT per
//     product: about 2.4 instructions per MAC; several input channels: the
//     portable one-channel-at-a-time loop.
// Integer sums are exact, so outputs are bit-exact with the portable kernel.
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/depthwise_conv.h"

namespace {

using depthwise::kLanes;
using depthwise::Window;

static_assert(kLanes == 8, "the accumulators below are written for 8 channels");

// acc[0..3] += (x + offset) * f per channel, channels in bytes 0..3 of both words.
inline void Own4(uint32_t x, uint32_t f, uint32_t offset2, int32_t* a) {
  const uint32_t x02 = dsp::Sadd16(dsp::Sxtb16(x), offset2);
  const uint32_t x13 = dsp::Sadd16(dsp::Sxtb16Ror8(x), offset2);
  const uint32_t f02 = dsp::Sxtb16(f);
  const uint32_t f13 = dsp::Sxtb16Ror8(f);
  a[0] = dsp::Smlabb(x02, f02, a[0]);
  a[1] = dsp::Smlabb(x13, f13, a[1]);
  a[2] = dsp::Smlatt(x02, f02, a[2]);
  a[3] = dsp::Smlatt(x13, f13, a[3]);
}

void AccumulateOwn(const Window& w, int32_t offset, int32_t* acc) {
  int32_t a[kLanes];
  for (int j = 0; j < kLanes; ++j) a[j] = acc[j];
  // Offsets are in [-128, 128] (checked by the caller): both halves hold it.
  const uint32_t offset2 = (static_cast<uint32_t>(offset) & 0xFFFFu) * 0x00010001u;
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = 0; y < w.ny; ++y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    for (int x = 0; x < w.nx; ++x) {
      Own4(dsp::Load4(in), dsp::Load4(f), offset2, a);
      Own4(dsp::Load4(in + 4), dsp::Load4(f + 4), offset2, a + 4);
      in += w.in_step_x;
      f += w.f_step_x;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  for (int j = 0; j < kLanes; ++j) acc[j] = a[j];
}

// One tap for four channels sharing one input value: `fw` holds the four
// filter bytes, the value (+ offset) is the low (kHigh false) or high half of `in`.
template <bool kHigh>
inline void SharedTap(uint32_t fw, uint32_t in, int32_t& a0, int32_t& a1, int32_t& a2, int32_t& a3) {
  const uint32_t f02 = dsp::Sxtb16(fw);
  const uint32_t f13 = dsp::Sxtb16Ror8(fw);
  a0 = kHigh ? dsp::Smlabt(f02, in, a0) : dsp::Smlabb(f02, in, a0);
  a1 = kHigh ? dsp::Smlabt(f13, in, a1) : dsp::Smlabb(f13, in, a1);
  a2 = kHigh ? dsp::Smlatt(f02, in, a2) : dsp::Smlatb(f02, in, a2);
  a3 = kHigh ? dsp::Smlatt(f13, in, a3) : dsp::Smlatb(f13, in, a3);
}

// Output channels [0, 4) of a block sharing one input channel whose taps along
// x are adjacent bytes (input channels 1, no x dilation: micro_speech): four
// taps per input word, SXTB16 / SXTB16 ROR #8 + SADD16 give taps (0, 2) and
// (1, 3) with the offset as halfwords, and each tap's product with the four
// channels' filter halfwords is one SMLAxB / SMLAxT: about 2.4 instructions
// per MAC. Scalar accumulators so that they stay in registers.
inline void SharedAdjacent4(const Window& w, uint32_t offset2, int32_t offset, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int fs = w.f_step_x;
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = w.ny; y > 0; --y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    int x = w.nx;
    for (; x >= 4; x -= 4) {
      const uint32_t iw = dsp::Load4(in);
      in += 4;
      const uint32_t i02 = dsp::Sadd16(dsp::Sxtb16(iw), offset2);
      const uint32_t i13 = dsp::Sadd16(dsp::Sxtb16Ror8(iw), offset2);
      const int8_t* f2 = f + 2 * fs;
      SharedTap<false>(dsp::Load4(f), i02, a0, a1, a2, a3);
      SharedTap<false>(dsp::Load4(f + fs), i13, a0, a1, a2, a3);
      SharedTap<true>(dsp::Load4(f2), i02, a0, a1, a2, a3);
      SharedTap<true>(dsp::Load4(f2 + fs), i13, a0, a1, a2, a3);
      f = f2 + 2 * fs;
    }
    for (; x > 0; --x) {
      const uint32_t v = static_cast<uint32_t>(*in++ + offset);
      SharedTap<false>(dsp::Load4(f), v, a0, a1, a2, a3);
      f += fs;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

void AccumulateShared(const Window& w, int32_t offset, int32_t* acc) {
  if (w.in_step_x == 1) {
    const uint32_t offset2 = (static_cast<uint32_t>(offset) & 0xFFFFu) * 0x00010001u;
    Window half = w;
    SharedAdjacent4(half, offset2, offset, acc);
    half.filter += 4;
    SharedAdjacent4(half, offset2, offset, acc + 4);
    return;
  }
  // Input channels > 1 (taps along x not adjacent): one channel at a time
  // (no benchmark model has a multiplier > 1 with several input channels).
  depthwise::AccumulateRest(w, offset, true, kLanes, acc);
}

}  // namespace

TfLiteStatus DepthwiseEvalInt8(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter,
                               const int32_t* bias, int8_t* output) {
  const int32_t offset = d.q.input_offset;
  if (offset < -128 || offset > 128) {
    // A zero point outside int8 (a corrupt model) does not fit the halfword
    // lanes: the portable one-channel-at-a-time path keeps the results exact.
    auto own = [](const Window& w, int32_t o, int32_t* acc) { depthwise::AccumulateRest(w, o, false, kLanes, acc); };
    auto shared = [](const Window& w, int32_t o, int32_t* acc) { depthwise::AccumulateRest(w, o, true, kLanes, acc); };
    return depthwise::EvalInt8Blocks(d, input, filter, bias, output, own, shared);
  }
  return depthwise::EvalInt8Blocks(d, input, filter, bias, output, AccumulateOwn, AccumulateShared);
}
