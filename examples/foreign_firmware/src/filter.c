#include "filter.h"

#define EMA_MAX_SHIFT 15u

void ema_init(struct ema_filter *filter, unsigned shift)
{
    filter->scaled = 0;
    filter->shift = (uint8_t)(shift > EMA_MAX_SHIFT ? EMA_MAX_SHIFT : shift);
    filter->primed = 0;
}

int ema_primed(const struct ema_filter *filter)
{
    return filter->primed != 0u;
}

int16_t ema_update(struct ema_filter *filter, int16_t sample)
{
    const int32_t one = (int32_t)1 << filter->shift;
    if (!filter->primed) {
        filter->scaled = (int32_t)sample * one;
        filter->primed = 1;
    } else {
        /* |scaled| <= 2^15 * 2^15: no overflow; >> of a negative value is arithmetic in GCC */
        filter->scaled += (int32_t)sample - (filter->scaled >> filter->shift);
    }
    return (int16_t)(filter->scaled >> filter->shift);
}

int16_t sat_add_i16(int16_t a, int16_t b)
{
    const int32_t sum = (int32_t)a + (int32_t)b;
    if (sum > INT16_MAX) {
        return INT16_MAX;
    }
    if (sum < INT16_MIN) {
        return INT16_MIN;
    }
    return (int16_t)sum;
}

uint32_t sat_add_u32(uint32_t a, uint32_t b)
{
    const uint32_t sum = a + b;
    return sum < a ? UINT32_MAX : sum;
}

const char *trend_name(int32_t previous, int32_t current)
{
    if (current > previous) {
        return "rising";
    }
    if (current < previous) {
        return "falling";
    }
    return "steady";
}
