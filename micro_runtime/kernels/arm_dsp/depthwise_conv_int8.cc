// DEPTHWISE_CONV_2D int8 accumulators for cores with the DSP extension
// (replace kernels/depthwise_conv_int8.cc under the arm_dsp tag; the loop,
// prepare and op data are depthwise_conv.h's / depthwise_conv.cc's).
//
// Blocks of 8 output channels; per tap, each 4 channels' filter bytes are one
// word unpacked with SXTB16 / SXTB16 ROR #8 into halfword pairs (channels 0,2
// and 1,3), and each channel's product is one SMLAxy on the right halves:
//   multiplier 1: the 4 input bytes are unpacked the same way and get the
//     input offset with one SADD16 per pair: 12 instructions per 4 MACs;
//   multiplier > 1: the one input value (+ offset) sits in the low half of a
//     register: 7 instructions per 4 MACs.
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

// acc[0..3] += v * f per channel, v in the low half of `v`.
inline void Shared4(uint32_t v, uint32_t f, int32_t* a) {
  const uint32_t f02 = dsp::Sxtb16(f);
  const uint32_t f13 = dsp::Sxtb16Ror8(f);
  a[0] = dsp::Smlabb(f02, v, a[0]);
  a[1] = dsp::Smlabb(f13, v, a[1]);
  a[2] = dsp::Smlatb(f02, v, a[2]);
  a[3] = dsp::Smlatb(f13, v, a[3]);
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

void AccumulateShared(const Window& w, int32_t offset, int32_t* acc) {
  int32_t a[kLanes];
  for (int j = 0; j < kLanes; ++j) a[j] = acc[j];
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = 0; y < w.ny; ++y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    for (int x = 0; x < w.nx; ++x) {
      const uint32_t v = static_cast<uint32_t>(*in + offset);  // low half: the value (|v| <= 255)
      Shared4(v, dsp::Load4(f), a);
      Shared4(v, dsp::Load4(f + 4), a + 4);
      in += w.in_step_x;
      f += w.f_step_x;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  for (int j = 0; j < kLanes; ++j) acc[j] = a[j];
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
