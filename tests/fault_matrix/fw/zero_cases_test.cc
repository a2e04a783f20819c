// No case at all.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN
TF_LITE_MICRO_TESTS_END
