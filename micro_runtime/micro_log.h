// Logging for the library: a tiny printf-style formatter that writes through
// the platform's DebugLog hook. The library never touches stdio.
// Supported: %d %i %u %x %X %s %c %f %p %%, flags '-' '0', width, precision,
// the 'l' length modifier (ignored: int and long are 32-bit on the MCUs we
// target) and '*' is not supported.
#ifndef MICRO_RUNTIME_MICRO_LOG_H_
#define MICRO_RUNTIME_MICRO_LOG_H_

#include <stdarg.h>
#include <stddef.h>

// Formats and sends one line (a '\n' is appended) to DebugLog.
void MicroPrintf(const char* format, ...) __attribute__((format(printf, 1, 2)));
void MicroVPrintf(const char* format, va_list args);

// Formats into `buffer` (always NUL-terminated when size > 0). Returns the
// number of characters written, excluding the NUL.
int MicroSnprintf(char* buffer, size_t size, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
int MicroVsnprintf(char* buffer, size_t size, const char* format, va_list args);

#endif  // MICRO_RUNTIME_MICRO_LOG_H_
