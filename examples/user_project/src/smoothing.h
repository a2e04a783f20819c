// Fixed-point signal smoothing of the sensor front end (no floating point, no heap).
#ifndef SENSOR_FIRMWARE_SMOOTHING_H_
#define SENSOR_FIRMWARE_SMOOTHING_H_

#include <stdint.h>

// Exponential moving average in Q15: y += alpha * (x - y), alpha in (0, 1] as Q15.
class Smoother {
 public:
  explicit Smoother(int32_t alpha_q15) : alpha_q15_(alpha_q15) {}
  int16_t Update(int16_t sample);
  int16_t value() const { return static_cast<int16_t>(state_ >> 15); }

 private:
  int32_t alpha_q15_;
  int64_t state_ = 0;  // y in Q30
  bool primed_ = false;
};

// Saturating conversion of a Q15 sample to the model's int8 input (scale, zero point).
int8_t QuantizeQ15(int16_t sample_q15, float scale, int32_t zero_point);

#endif  // SENSOR_FIRMWARE_SMOOTHING_H_
