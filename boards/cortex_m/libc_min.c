/* The C library functions compiler output and the runtime use, for links
 * with -nostdlib (libgcc has none of them). Byte loops on purpose: small,
 * and the runtime copies little at run time. Loop-to-call pattern
 * recognition is off so memcpy cannot be compiled into a call to itself. */
#include <stddef.h>
#include <stdint.h>

#define NO_PATTERNS __attribute__((optimize("no-tree-loop-distribute-patterns")))

NO_PATTERNS void* memcpy(void* dst, const void* src, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  while (n--) {
    *d++ = *s++;
  }
  return dst;
}

NO_PATTERNS void* memmove(void* dst, const void* src, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  if (d < s) {
    while (n--) {
      *d++ = *s++;
    }
  } else {
    while (n--) {
      d[n] = s[n];
    }
  }
  return dst;
}

NO_PATTERNS void* memset(void* dst, int c, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  while (n--) {
    *d++ = (unsigned char)c;
  }
  return dst;
}

int memcmp(const void* a, const void* b, size_t n) {
  const unsigned char* x = (const unsigned char*)a;
  const unsigned char* y = (const unsigned char*)b;
  for (; n; --n, ++x, ++y) {
    if (*x != *y) {
      return *x < *y ? -1 : 1;
    }
  }
  return 0;
}

size_t strlen(const char* s) {
  const char* p = s;
  while (*p) {
    ++p;
  }
  return (size_t)(p - s);
}

int strcmp(const char* a, const char* b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

int strncmp(const char* a, const char* b, size_t n) {
  for (; n; --n, ++a, ++b) {
    if (*a != *b || !*a) {
      return (int)(unsigned char)*a - (int)(unsigned char)*b;
    }
  }
  return 0;
}

/* ARM run-time ABI aliases the compiler may emit instead (note the argument
 * order of __aeabi_memset: destination, size, value). */
void __aeabi_memcpy(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy4(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy8(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memmove(void* d, const void* s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove4(void* d, const void* s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove8(void* d, const void* s, size_t n) { memmove(d, s, n); }
void __aeabi_memset(void* d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset4(void* d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset8(void* d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memclr(void* d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr4(void* d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr8(void* d, size_t n) { memset(d, 0, n); }

/* newlib's libm reports domain errors through errno. */
static int g_errno;
int* __errno(void) { return &g_errno; }

/* assert() failures (newlib's <assert.h>, used by the flatbuffers headers):
 * one line naming the check, then a trap so the fault reporter adds the
 * HardFault line with the PC and the run ends as a crash. */
#include "boards/cortex_m/cortex_m.h"

void __assert_func(const char* file, int line, const char* func, const char* expr) {
  char number[12];
  char* p = number + sizeof(number) - 1;
  unsigned value = line < 0 ? 0u : (unsigned)line;
  *p = '\0';
  do {
    *--p = (char)('0' + value % 10u);
    value /= 10u;
  } while (value);
  CortexMLogWrite("*** Assertion failed: ");
  CortexMLogWrite(expr ? expr : "?");
  CortexMLogWrite(" at ");
  CortexMLogWrite(file ? file : "?");
  CortexMLogWrite(":");
  CortexMLogWrite(p);
  CortexMLogWrite("\n");
  __builtin_trap();
}
