// A small vsnprintf for MCUs: integers, strings, chars, pointers and floats
// (%f, %e-free) with width and precision. Floats are printed digit by digit
// from a double, which is exact enough for logs and test messages; exact
// value transport uses %x on the raw bits instead.
#include "micro_runtime/micro_log.h"

#include <stdint.h>

#include "micro_runtime/platform.h"

namespace {

constexpr int kMaxLogLine = 256;

struct Output {
  char* buffer;
  size_t size;
  size_t length;  // characters produced so far (may exceed size)

  void Put(char c) {
    if (length + 1 < size) buffer[length] = c;
    ++length;
  }
};

struct Spec {
  bool left_align = false;
  bool zero_pad = false;
  int width = 0;
  int precision = -1;
};

void PutPadded(Output& out, const char* text, int text_len, const Spec& spec,
               bool numeric) {
  const int pad = spec.width > text_len ? spec.width - text_len : 0;
  if (!spec.left_align) {
    // Zero padding goes after a sign.
    const bool zeros = spec.zero_pad && numeric;
    if (zeros && text_len > 0 && (text[0] == '-' || text[0] == '+')) {
      out.Put(*text++);
      --text_len;
    }
    for (int i = 0; i < pad; ++i) out.Put(zeros ? '0' : ' ');
  }
  for (int i = 0; i < text_len; ++i) out.Put(text[i]);
  if (spec.left_align) {
    for (int i = 0; i < pad; ++i) out.Put(' ');
  }
}

// Writes `value` in `base` into the end of `scratch`; returns the start.
char* FormatUnsigned(char* end, uint32_t value, uint32_t base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char* p = end;
  do {
    *--p = digits[value % base];
    value /= base;
  } while (value != 0);
  return p;
}

void FormatInteger(Output& out, int32_t value, bool is_signed, uint32_t base,
                   bool upper, const Spec& spec) {
  char scratch[16];
  char* end = scratch + sizeof(scratch);
  const bool negative = is_signed && value < 0;
  const uint32_t magnitude = negative ? 0u - static_cast<uint32_t>(value)
                                      : static_cast<uint32_t>(value);
  char* p = FormatUnsigned(end, magnitude, base, upper);
  int min_digits = spec.precision;
  while (min_digits > 0 && end - p < min_digits) *--p = '0';
  if (negative) *--p = '-';
  PutPadded(out, p, static_cast<int>(end - p), spec, true);
}

void FormatFloat(Output& out, double value, const Spec& spec) {
  char scratch[48];
  int n = 0;
  if (value != value) {
    PutPadded(out, "nan", 3, spec, false);
    return;
  }
  if (value < 0 || (value == 0 && 1 / value < 0)) {
    scratch[n++] = '-';
    value = -value;
  }
  if (value > 4294967295.0) {
    // Beyond 32-bit integer parts a log is better served by "inf"/"big".
    const char* text = value == value + 1 ? "inf" : "big";
    for (const char* t = text; *t; ++t) scratch[n++] = *t;
    PutPadded(out, scratch, n, spec, false);
    return;
  }
  const int precision = spec.precision < 0 ? 6 : (spec.precision > 9 ? 9 : spec.precision);
  double rounding = 0.5;
  for (int i = 0; i < precision; ++i) rounding /= 10;
  value += rounding;
  uint32_t integer = static_cast<uint32_t>(value);
  double fraction = value - integer;
  char digits[16];
  char* end = digits + sizeof(digits);
  char* p = FormatUnsigned(end, integer, 10, false);
  while (p < end) scratch[n++] = *p++;
  if (precision > 0) {
    scratch[n++] = '.';
    for (int i = 0; i < precision; ++i) {
      fraction *= 10;
      const int digit = static_cast<int>(fraction);
      scratch[n++] = static_cast<char>('0' + digit);
      fraction -= digit;
    }
  }
  PutPadded(out, scratch, n, spec, true);
}

}  // namespace

int MicroVsnprintf(char* buffer, size_t size, const char* format, va_list args) {
  Output out{buffer, size, 0};
  for (const char* f = format; *f != '\0'; ++f) {
    if (*f != '%') {
      out.Put(*f);
      continue;
    }
    ++f;
    Spec spec;
    for (;; ++f) {
      if (*f == '-') {
        spec.left_align = true;
      } else if (*f == '0') {
        spec.zero_pad = true;
      } else {
        break;
      }
    }
    while (*f >= '0' && *f <= '9') spec.width = spec.width * 10 + (*f++ - '0');
    if (*f == '.') {
      ++f;
      spec.precision = 0;
      while (*f >= '0' && *f <= '9') spec.precision = spec.precision * 10 + (*f++ - '0');
    }
    while (*f == 'l' || *f == 'h' || *f == 'z') ++f;  // 32-bit targets
    switch (*f) {
      case 'd':
      case 'i':
        FormatInteger(out, va_arg(args, int32_t), true, 10, false, spec);
        break;
      case 'u':
        FormatInteger(out, static_cast<int32_t>(va_arg(args, uint32_t)), false, 10, false, spec);
        break;
      case 'x':
      case 'X':
        FormatInteger(out, static_cast<int32_t>(va_arg(args, uint32_t)), false, 16, *f == 'X', spec);
        break;
      case 'p': {
        const uintptr_t pointer = reinterpret_cast<uintptr_t>(va_arg(args, void*));
        out.Put('0');
        out.Put('x');
        Spec hex;
        hex.precision = 8;
        FormatInteger(out, static_cast<int32_t>(static_cast<uint32_t>(pointer)), false, 16,
                      false, hex);
        break;
      }
      case 'f':
        FormatFloat(out, va_arg(args, double), spec);
        break;
      case 'c': {
        const char c = static_cast<char>(va_arg(args, int));
        PutPadded(out, &c, 1, spec, false);
        break;
      }
      case 's': {
        const char* s = va_arg(args, const char*);
        if (s == nullptr) s = "(null)";
        int len = 0;
        while (s[len] != '\0' && (spec.precision < 0 || len < spec.precision)) ++len;
        PutPadded(out, s, len, spec, false);
        break;
      }
      case '%':
        out.Put('%');
        break;
      case '\0':
        --f;  // lone '%' at the end: stop at the terminator
        break;
      default:
        out.Put('%');
        out.Put(*f);
        break;
    }
  }
  if (size > 0) buffer[out.length < size ? out.length : size - 1] = '\0';
  return static_cast<int>(out.length < size ? out.length : (size > 0 ? size - 1 : 0));
}

int MicroSnprintf(char* buffer, size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = MicroVsnprintf(buffer, size, format, args);
  va_end(args);
  return n;
}

void MicroVPrintf(const char* format, va_list args) {
  char line[kMaxLogLine];
  int n = MicroVsnprintf(line, sizeof(line) - 1, format, args);
  line[n] = '\n';
  line[n + 1] = '\0';
  DebugLog(line);
}

void MicroPrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  MicroVPrintf(format, args);
  va_end(args);
}
