// Test-only kernels for the interpreter core's tests: small, obviously
// correct float ops that let the interpreter, planner and resolver be tested
// independently of the real kernels in micro_runtime/kernels/.
#ifndef MICRO_RUNTIME_TESTING_TEST_OPS_H_
#define MICRO_RUNTIME_TESTING_TEST_OPS_H_

#include "micro_runtime/common.h"

namespace test_ops {

// Calls of the four registration functions, summed over all test ops.
struct Counters {
  int init;
  int free;
  int prepare;
  int invoke;
};
extern Counters g_counters;
void ResetCounters();

// Float FULLY_CONNECTED: out = act(in . W^T + bias), bias optional, with the
// activation from TfLiteFullyConnectedParams (NONE or RELU). Checks shapes.
TfLiteRegistration Register_FULLY_CONNECTED_FLOAT();
// Custom "AddOne": float out[i] = in[i % in_count] + 1.
TfLiteRegistration Register_ADD_ONE();
// Copies input 0's bytes to output 0 (same byte size), skipping the copy
// when the planner made them share memory. Stands in for RESHAPE.
TfLiteRegistration Register_COPY();
// Custom "Scratch": custom options hold a uint32 byte count (and optionally
// a second uint32, 1: the request is an optional one); prepare requests a
// scratch buffer of that size and a persistent 8-byte record, invoke fills
// the scratch buffer (when it got one) and computes out = in + 1 (float).
// g_last_scratch[i % 4] keeps the scratch pointer seen by the i-th invoke.
TfLiteRegistration Register_SCRATCH();
extern void* g_last_scratch[4];
// Does nothing but succeed; accepts any inputs (resolver/verifier tests).
TfLiteRegistration Register_NOP();
// Prepare fails.
TfLiteRegistration Register_FAIL_PREPARE();
// init asks for g_init_persistent_bytes of persistent memory.
TfLiteRegistration Register_GREEDY_INIT();
extern size_t g_init_persistent_bytes;

}  // namespace test_ops

#endif  // MICRO_RUNTIME_TESTING_TEST_OPS_H_
