// A null call in the second case: it crashed, the third is not reached.
#include "micro_runtime/micro_test.h"

namespace {
using Fn = void (*)();
volatile Fn g_null = nullptr;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Before) {}

TF_LITE_MICRO_TEST(CallsNull) { g_null(); }

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
