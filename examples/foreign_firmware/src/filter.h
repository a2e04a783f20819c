/* Sensor smoothing helpers: the code under test. */
#ifndef FILTER_H
#define FILTER_H

#include <stdint.h>

/* Exponential moving average of int16 samples: each sample moves the average by
 * 1/2^shift of the distance to it. The accumulator keeps the average scaled by 2^shift,
 * so a constant input is reached exactly, from above and from below. */
struct ema_filter {
    int32_t scaled;
    uint8_t shift; /* 0..15 */
    uint8_t primed; /* a first sample has been seen */
};

void ema_init(struct ema_filter *filter, unsigned shift);
int ema_primed(const struct ema_filter *filter);
/* Adds a sample and returns the new average (the first sample is taken as is). */
int16_t ema_update(struct ema_filter *filter, int16_t sample);

int16_t sat_add_i16(int16_t a, int16_t b);
uint32_t sat_add_u32(uint32_t a, uint32_t b);

/* "rising", "falling" or "steady" */
const char *trend_name(int32_t previous, int32_t current);

#endif
