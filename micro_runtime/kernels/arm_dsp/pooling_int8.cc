// AVERAGE_POOL_2D int8 average for cores with the DSP extension (replaces
// kernels/pooling_int8.cc under the arm_dsp tag): four channels per word,
// each window's bytes summed into halfword lanes with SXTAB16 (bytes 0, 2)
// and SXTAB16 ROR #8 (bytes 1, 3), one load and two instructions per four
// taps; then per channel TFLite's integer average (round half away from zero)
// and the clamp. A lane holds the sum of up to 256 int8 taps exactly
// (|sum| <= 128 * 256 = 32768, and -32768 is a halfword), so windows of more
// taps, and channel counts that are not a multiple of 4, take pooling.cc's
// loop. Bit-exact with it.
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/pooling_int8.h"

namespace micro_runtime {

namespace {

inline int32_t Average(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

}  // namespace

bool AveragePoolInt8(const WindowGeometry& g, const int8_t* input, int8_t* output, int32_t act_min,
                     int32_t act_max) {
  const int channels = g.in_ch;
  if ((channels & 3) != 0 || g.filter_h * g.filter_w > 256) return false;
  const int32_t row_stride = g.in_w * channels;
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    const int32_t count = p.ny * p.nx;
    for (int c = 0; c < channels; c += 4, output += 4) {
      uint32_t s02 = 0, s13 = 0;
      const int8_t* row = input + p.in_offset + c;
      for (int y = 0; y < p.ny; ++y, row += row_stride) {
        const int8_t* tap = row;
        for (int x = 0; x < p.nx; ++x, tap += channels) {
          const uint32_t w = dsp::Load4(tap);
          s02 = dsp::Sxtab16(s02, w);
          s13 = dsp::Sxtab16Ror8(s13, w);
        }
      }
      const int32_t sums[4] = {static_cast<int16_t>(s02 & 0xFFFFu), static_cast<int16_t>(s13 & 0xFFFFu),
                               static_cast<int16_t>(s02 >> 16), static_cast<int16_t>(s13 >> 16)};
      for (int k = 0; k < 4; ++k) {
        output[k] = static_cast<int8_t>(count == 0 ? ClampInt32(0, act_min, act_max)
                                                   : ClampInt32(Average(sums[k], count), act_min, act_max));
      }
    }
  });
  return true;
}

}  // namespace micro_runtime
