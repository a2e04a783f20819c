/* The two library functions the compiler may call on its own (struct copies, zeroing loops).
 *
 * Their own loops must not be turned back into calls to themselves, hence the attribute.
 */
#include <stddef.h>

#define NO_LOOP_TO_CALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

NO_LOOP_TO_CALL void *memset(void *destination, int value, size_t count)
{
    unsigned char *out = destination;
    while (count-- > 0u) {
        *out++ = (unsigned char)value;
    }
    return destination;
}

NO_LOOP_TO_CALL void *memcpy(void *restrict destination, const void *restrict source, size_t count)
{
    unsigned char *out = destination;
    const unsigned char *in = source;
    while (count-- > 0u) {
        *out++ = *in++;
    }
    return destination;
}
