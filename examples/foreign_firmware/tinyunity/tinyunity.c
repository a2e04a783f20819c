/* tinyunity: see tinyunity.h. No C library: the line buffer, the number printing and the
 * string comparison are done here. */
#include "tinyunity.h"

#include "log.h"

#define LINE_MAX 160 /* longer lines are cut; the newline is always kept */

static struct {
    unsigned tests;
    unsigned failures;
    unsigned ignored;
    const char *name; /* the running test */
    const char *file; /* of its RUN_TEST */
    int line;
    int failed;
    int was_ignored;
} run;

/* __builtin_setjmp's buffer: five words */
static void *test_exit[5];

static char line_text[LINE_MAX + 2];
static unsigned line_length;

__attribute__((weak)) void setUp(void)
{
}

__attribute__((weak)) void tearDown(void)
{
}

/* -- output ------------------------------------------------------------------------ */

static void put_char(char c)
{
    if (line_length < LINE_MAX) {
        line_text[line_length++] = c;
    }
}

static void put_text(const char *text)
{
    while (*text != '\0') {
        put_char(*text++);
    }
}

static void put_unsigned(uint32_t value)
{
    char digits[10];
    unsigned count = 0;
    do {
        digits[count++] = (char)('0' + value % 10u);
        value /= 10u;
    } while (value != 0u);
    while (count > 0u) {
        put_char(digits[--count]);
    }
}

static void put_signed(int32_t value)
{
    if (value < 0) {
        put_char('-');
        put_unsigned(0u - (uint32_t)value); /* also right for INT32_MIN */
    } else {
        put_unsigned((uint32_t)value);
    }
}

static void end_line(void)
{
    line_text[line_length++] = '\n';
    line_text[line_length] = '\0';
    log_write(line_text);
    line_length = 0;
}

/* "<file>:<line>:<test>:" */
static void put_location(const char *file, int line)
{
    put_text(file);
    put_char(':');
    put_signed(line);
    put_char(':');
    put_text(run.name);
    put_char(':');
}

/* -- ending a test early ------------------------------------------------------------ */

/* Starts the FAIL line; 0 if the test has already failed or been ignored (nothing to print). */
static int begin_failure(const char *file, int line)
{
    if (run.failed || run.was_ignored) {
        return 0;
    }
    run.failed = 1;
    put_location(file, line);
    put_text("FAIL:");
    return 1;
}

__attribute__((noreturn)) static void end_test(void)
{
    __builtin_longjmp(test_exit, 1);
}

static void fail_with_numbers(int is_signed, uint32_t expected, uint32_t actual, const char *file, int line)
{
    if (begin_failure(file, line)) {
        put_text(" Expected ");
        if (is_signed) {
            put_signed((int32_t)expected);
        } else {
            put_unsigned(expected);
        }
        put_text(" Was ");
        if (is_signed) {
            put_signed((int32_t)actual);
        } else {
            put_unsigned(actual);
        }
        end_line();
    }
    end_test();
}

static void put_quoted(const char *text)
{
    if (text == 0) {
        put_text("NULL");
        return;
    }
    put_char('\'');
    put_text(text);
    put_char('\'');
}

static int strings_equal(const char *a, const char *b)
{
    if (a == 0 || b == 0) {
        return a == b;
    }
    while (*a != '\0' && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}

/* -- assertions ---------------------------------------------------------------------- */

void tu_assert_true(int condition, const char *file, int line)
{
    if (!condition) {
        tu_fail(" Expected TRUE Was FALSE", file, line);
    }
}

void tu_assert_equal_int(int32_t expected, int32_t actual, const char *file, int line)
{
    if (expected != actual) {
        fail_with_numbers(1, (uint32_t)expected, (uint32_t)actual, file, line);
    }
}

void tu_assert_equal_uint32(uint32_t expected, uint32_t actual, const char *file, int line)
{
    if (expected != actual) {
        fail_with_numbers(0, expected, actual, file, line);
    }
}

void tu_assert_equal_string(const char *expected, const char *actual, const char *file, int line)
{
    if (strings_equal(expected, actual)) {
        return;
    }
    if (begin_failure(file, line)) {
        put_text(" Expected ");
        put_quoted(expected);
        put_text(" Was ");
        put_quoted(actual);
        end_line();
    }
    end_test();
}

void tu_fail(const char *message, const char *file, int line)
{
    if (begin_failure(file, line)) {
        if (message != 0 && message[0] != '\0') {
            if (message[0] != ' ') {
                put_char(' ');
            }
            put_text(message);
        }
        end_line();
    }
    end_test();
}

void tu_ignore(const char *message, const char *file, int line)
{
    if (!run.failed && !run.was_ignored) {
        run.was_ignored = 1;
        put_location(file, line);
        put_text("IGNORE");
        if (message != 0 && message[0] != '\0') {
            put_text(": ");
            put_text(message);
        }
        end_line();
    }
    end_test();
}

/* -- running ------------------------------------------------------------------------- */

void tu_begin(void)
{
    run.tests = 0;
    run.failures = 0;
    run.ignored = 0;
    line_length = 0;
}

void tu_run(void (*test)(void), const char *name, const char *file, int line)
{
    run.name = name;
    run.file = file;
    run.line = line;
    run.failed = 0;
    run.was_ignored = 0;
    run.tests++;

    if (__builtin_setjmp(test_exit) == 0) {
        setUp();
        test();
    }
    if (__builtin_setjmp(test_exit) == 0) {
        tearDown();
    }

    if (run.was_ignored) {
        run.ignored++;
    } else if (run.failed) {
        run.failures++;
    } else {
        put_location(run.file, run.line);
        put_text("PASS");
        end_line();
    }
}

int tu_end(void)
{
    end_line(); /* the empty line */
    put_text("-----------------------");
    end_line();
    put_unsigned(run.tests);
    put_text(" Tests ");
    put_unsigned(run.failures);
    put_text(" Failures ");
    put_unsigned(run.ignored);
    put_text(" Ignored");
    end_line();
    put_text(run.failures == 0u ? "OK" : "FAIL");
    end_line();
    return (int)run.failures;
}
