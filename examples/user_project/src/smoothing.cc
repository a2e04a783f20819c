#include "smoothing.h"

int16_t Smoother::Update(int16_t sample) {
  const int64_t x = static_cast<int64_t>(sample) << 15;  // Q30
  if (!primed_) {
    state_ = x;
    primed_ = true;
  } else {
    state_ += ((x - state_) * alpha_q15_) >> 15;
  }
  return value();
}

int8_t QuantizeQ15(int16_t sample_q15, float scale, int32_t zero_point) {
  const float real = static_cast<float>(sample_q15) / 32768.0f;
  const float scaled = real / scale;
  int32_t q = static_cast<int32_t>(scaled >= 0.0f ? scaled + 0.5f : scaled - 0.5f) + zero_point;
  if (q < -128) q = -128;
  if (q > 127) q = 127;
  return static_cast<int8_t>(q);
}
