/* tinyunity: a small test framework with a subset of ThrowTheSwitch Unity's API and
 * exactly its text output, for targets without a C library.
 *
 *   UNITY_BEGIN(); RUN_TEST(test_x); ...; failures = UNITY_END();
 *
 * Output (one log_write per line):
 *   <file>:<line>:<test>:PASS                    line of RUN_TEST
 *   <file>:<line>:<test>:FAIL: <detail>          line of the failing assertion
 *   <file>:<line>:<test>:IGNORE: <message>       line of TEST_IGNORE_MESSAGE
 *   (empty line)
 *   -----------------------
 *   <N> Tests <F> Failures <I> Ignored
 *   OK | FAIL
 *
 * The first failing assertion (or TEST_IGNORE_MESSAGE) ends the test: it jumps back into
 * RUN_TEST with __builtin_longjmp. setUp() runs before and tearDown() after every test;
 * both have empty weak defaults.
 */
#ifndef TINYUNITY_H
#define TINYUNITY_H

#include <stdint.h>

void setUp(void);
void tearDown(void);

void tu_begin(void);
int tu_end(void);
void tu_run(void (*test)(void), const char *name, const char *file, int line);

void tu_assert_true(int condition, const char *file, int line);
void tu_assert_equal_int(int32_t expected, int32_t actual, const char *file, int line);
void tu_assert_equal_uint32(uint32_t expected, uint32_t actual, const char *file, int line);
void tu_assert_equal_string(const char *expected, const char *actual, const char *file, int line);
__attribute__((noreturn)) void tu_fail(const char *message, const char *file, int line);
__attribute__((noreturn)) void tu_ignore(const char *message, const char *file, int line);

#define UNITY_BEGIN() tu_begin()
#define UNITY_END() tu_end()
#define RUN_TEST(func) tu_run((func), #func, __FILE__, __LINE__)

#define TEST_ASSERT_TRUE(condition) tu_assert_true((condition) ? 1 : 0, __FILE__, __LINE__)
#define TEST_ASSERT_EQUAL_INT(expected, actual) \
    tu_assert_equal_int((int32_t)(expected), (int32_t)(actual), __FILE__, __LINE__)
#define TEST_ASSERT_EQUAL_UINT32(expected, actual) \
    tu_assert_equal_uint32((uint32_t)(expected), (uint32_t)(actual), __FILE__, __LINE__)
#define TEST_ASSERT_EQUAL_STRING(expected, actual) \
    tu_assert_equal_string((expected), (actual), __FILE__, __LINE__)
#define TEST_FAIL_MESSAGE(message) tu_fail((message), __FILE__, __LINE__)
#define TEST_IGNORE_MESSAGE(message) tu_ignore((message), __FILE__, __LINE__)

#endif
