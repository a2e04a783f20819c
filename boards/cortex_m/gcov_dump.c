/* Coverage builds only (harness/coverage, `pytest --micro-coverage`): at the end of the program, the gcov
 * counters of every instrumented object go to the host, without a C library.
 *
 * The objects are compiled with --coverage -fprofile-info-section=gcov_info: instead of a constructor that
 * registers each object with libgcov (whose dump needs fopen and friends), the compiler puts a pointer to
 * each object's gcov_info in the section gcov_info, which the linker brackets with __start_gcov_info and
 * __stop_gcov_info. At exit (MicroExit is wrapped: -Wl,--wrap=MicroExit), libgcov's own
 * __gcov_info_to_gcda turns each gcov_info into the bytes of its .gcda file; the file names are gcov's own
 * (the object's path with .gcda). They travel as one stream:
 *
 *   "MGCV" u32 version
 *   then per object: "FILE" u32 length, the .gcda file name; "DATA" u32 length, bytes (any number)
 *   then "END!" u32 number of objects
 *
 * (u32 little-endian), written with semihosting file I/O (SYS_OPEN/SYS_WRITE/SYS_CLOSE) to
 * "<the ELF's path>.gcov", the ELF's path being the first word of the semihosting command line (QEMU:
 * its -kernel file). Where no host takes semihosting file I/O, the same stream goes over the log in
 * lines "~~~GCOV <hex>" (harness/coverage/stream.py reads both). A run that ends before "END!" (a
 * crash) leaves an incomplete stream, which the harness reports as missing coverage. */
#include <gcov.h>
#include <stddef.h>
#include <stdint.h>

#include "boards/cortex_m/cortex_m.h"

#define SYS_OPEN 0x01u
#define SYS_CLOSE 0x02u
#define SYS_WRITE 0x05u
#define SYS_GET_CMDLINE 0x15u
#define OPEN_MODE_WB 5u /* "wb" */

#define TAG_MAGIC 0x5643474Du /* "MGCV" */
#define TAG_FILE 0x454C4946u  /* "FILE" */
#define TAG_DATA 0x41544144u  /* "DATA" */
#define TAG_END 0x21444E45u   /* "END!" */
#define STREAM_VERSION 1u

extern volatile uint32_t g_semihosting_absent; /* semihosting.c */
extern const struct gcov_info* const __start_gcov_info[];
extern const struct gcov_info* const __stop_gcov_info[];
void __real_MicroExit(int status) __attribute__((noreturn));
void __wrap_MicroExit(int status) __attribute__((noreturn));

static uint32_t Semihost(uint32_t op, const void* arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static int g_handle = -1; /* semihosting file handle; -1: the log carries the stream */
static uint8_t g_buffer[256];
static uint32_t g_used;

static void LogHex(const uint8_t* data, uint32_t length) {
  static const char kDigits[] = "0123456789abcdef";
  char line[8 + 2 * 32 + 2];
  while (length > 0) {
    uint32_t n = length < 32u ? length : 32u;
    char* p = line;
    const char* prefix = "~~~GCOV ";
    while (*prefix) {
      *p++ = *prefix++;
    }
    for (uint32_t i = 0; i < n; ++i) {
      *p++ = kDigits[data[i] >> 4];
      *p++ = kDigits[data[i] & 15u];
    }
    *p++ = '\n';
    *p = '\0';
    CortexMLogWrite(line);
    data += n;
    length -= n;
  }
}

static void Flush(void) {
  if (g_used == 0) {
    return;
  }
  if (g_handle >= 0) {
    uint32_t block[3] = {(uint32_t)g_handle, (uint32_t)(uintptr_t)g_buffer, g_used};
    (void)Semihost(SYS_WRITE, block);
  } else {
    LogHex(g_buffer, g_used);
  }
  g_used = 0;
}

static void Put(const void* data, uint32_t length) {
  const uint8_t* bytes = (const uint8_t*)data;
  while (length > 0) {
    if (g_used == sizeof(g_buffer)) {
      Flush();
    }
    uint32_t room = (uint32_t)sizeof(g_buffer) - g_used;
    uint32_t n = length < room ? length : room;
    for (uint32_t i = 0; i < n; ++i) {
      g_buffer[g_used + i] = bytes[i];
    }
    g_used += n;
    bytes += n;
    length -= n;
  }
}

static void PutWord(uint32_t value) {
  uint8_t bytes[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16), (uint8_t)(value >> 24)};
  Put(bytes, 4);
}

static void OnFilename(const char* name, void* arg) {
  (void)arg;
  uint32_t length = 0;
  while (name != NULL && name[length] != '\0') {
    ++length;
  }
  PutWord(TAG_FILE);
  PutWord(length);
  Put(name, length);
}

static void OnData(const void* data, unsigned length, void* arg) {
  (void)arg;
  PutWord(TAG_DATA);
  PutWord(length);
  Put(data, length);
}

/* Only value-profiling counters (not made by --coverage) ask for memory. */
static void* OnAllocate(unsigned length, void* arg) {
  static uint8_t pool[512];
  static uint32_t used;
  (void)arg;
  length = (length + 7u) & ~7u;
  if (length > sizeof(pool) - used) {
    return NULL;
  }
  used += length;
  return pool + used - length;
}

/* "<first word of the command line>.gcov" in `path`; 0 when there is no command line. */
static int StreamPath(char* path, uint32_t size) {
  uint32_t block[2] = {(uint32_t)(uintptr_t)path, size - 6u};
  if (Semihost(SYS_GET_CMDLINE, block) != 0u || block[1] == 0u) {
    return 0;
  }
  uint32_t end = 0;
  while (end < block[1] && path[end] != ' ' && path[end] != '\0') {
    ++end;
  }
  const char* suffix = ".gcov";
  for (uint32_t i = 0; i < 6u; ++i) {
    path[end + i] = suffix[i];
  }
  return end > 0;
}

static void OpenStream(void) {
  static char path[256];
  g_handle = -1;
  if (g_semihosting_absent || !StreamPath(path, sizeof(path))) {
    return;
  }
  uint32_t length = 0;
  while (path[length] != '\0') {
    ++length;
  }
  uint32_t block[3] = {(uint32_t)(uintptr_t)path, OPEN_MODE_WB, length};
  uint32_t handle = Semihost(SYS_OPEN, block);
  g_handle = handle == 0xFFFFFFFFu ? -1 : (int)handle;
}

void MicroGcovDump(void) {
  OpenStream();
  PutWord(TAG_MAGIC);
  PutWord(STREAM_VERSION);
  uint32_t count = 0;
  for (const struct gcov_info* const* info = __start_gcov_info; info < __stop_gcov_info; ++info) {
    __gcov_info_to_gcda(*info, OnFilename, OnData, OnAllocate, NULL);
    ++count;
  }
  PutWord(TAG_END);
  PutWord(count);
  Flush();
  if (g_handle >= 0) {
    uint32_t block[1] = {(uint32_t)g_handle};
    (void)Semihost(SYS_CLOSE, block);
  }
}

void __wrap_MicroExit(int status) {
  MicroGcovDump();
  __real_MicroExit(status);
}
