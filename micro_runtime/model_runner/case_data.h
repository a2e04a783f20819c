// Test cases compiled into firmware: input tensors (and optionally expected
// outputs) as raw little-endian bytes, generated from a cases.json file by
// micro_runtime/tools/cases_to_cc.py. Used by the model runner and the
// example tests.
#ifndef MICRO_RUNTIME_MODEL_RUNNER_CASE_DATA_H_
#define MICRO_RUNTIME_MODEL_RUNNER_CASE_DATA_H_

#include <stdint.h>

#include "micro_runtime/common.h"

struct MicroCaseTensor {
  TfLiteType type;
  int32_t dims_size;
  const int32_t* dims;
  const unsigned char* data;  // 16-byte aligned, `bytes` long
  uint32_t bytes;
};

struct MicroCase {
  const MicroCaseTensor* inputs;  // one per model input, in model order
  int32_t inputs_size;
  const MicroCaseTensor* expected;  // one per model output; may be empty
  int32_t expected_size;
};

#endif  // MICRO_RUNTIME_MODEL_RUNNER_CASE_DATA_H_
