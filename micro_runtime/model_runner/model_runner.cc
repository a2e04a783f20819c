// Generic model runner: runs the compiled-in model (runner_model_data.h) on
// every compiled-in case (runner_cases.h) and prints each output tensor's raw
// bytes in hex, the invoke time and the arena use, in the line format of
// docs/model_runner.md. Built per model by model_runner.mk for any board.
#include <stdint.h>

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_log.h"
#include "micro_runtime/model_runner/case_data.h"
#include "micro_runtime/model_runner/runner_output.h"
#include "micro_runtime/platform.h"
#include "runner_cases.h"
#include "runner_model_data.h"

// OPS=all: every kernel; otherwise (default) only the model's own ops, so
// the image fits small boards (runner_ops.h from model_ops_to_cc.py).
#ifdef MODEL_RUNNER_ALL_OPS
#include "micro_runtime/all_ops_resolver.h"
using RunnerOpResolver = AllOpsResolver;
inline TfLiteStatus RegisterRunnerOps(RunnerOpResolver&) { return kTfLiteOk; }
#else
#include "runner_ops.h"
#endif

#ifndef MODEL_RUNNER_ARENA_SIZE
#define MODEL_RUNNER_ARENA_SIZE (64 * 1024)
#endif

namespace {

alignas(16) uint8_t g_arena[MODEL_RUNNER_ARENA_SIZE];

[[noreturn]] void Fail(const char* message) {
  MicroPrintf("model_runner: error: %s", message);
  MicroExit(1);
}

}  // namespace

// Markers around each Invoke() for the on-target benchmark: the QEMU
// instruction counter (benchmarks/insn_counter/insn_counter.c) counts the
// instructions executed from the first instruction of _begin to the first of
// _end. noipa keeps them out of line, apart (no identical-code folding) and
// their calls in place under LTO. main() runs one empty pair first, so the
// benchmark can subtract the markers' own instructions.
extern "C" __attribute__((noipa)) void model_runner_invoke_begin(void) { __asm__ volatile("" ::: "memory"); }
extern "C" __attribute__((noipa)) void model_runner_invoke_end(void) { __asm__ volatile("" ::: "memory"); }

int main() {
  MicroPlatformInit();
  MicroPrintf("model_runner: model_bytes=%u arena_bytes=%u cases=%d",
              static_cast<unsigned>(g_runner_model_data_size),
              static_cast<unsigned>(MODEL_RUNNER_ARENA_SIZE), g_runner_case_count);

  static RunnerOpResolver resolver;
  if (RegisterRunnerOps(resolver) != kTfLiteOk) Fail("registering the model's ops failed");
  static MicroInterpreter interpreter(g_runner_model_data, g_runner_model_data_size, resolver,
                                      g_arena, sizeof(g_arena));
  if (interpreter.AllocateTensors() != kTfLiteOk) {
    Fail("AllocateTensors failed");
  }
  char text[160];
  model_runner_invoke_begin();  // calibration: the markers alone
  model_runner_invoke_end();
  for (int c = 0; c < g_runner_case_count; ++c) {
    const MicroCase& test_case = g_runner_cases[c];
    if (test_case.inputs_size != static_cast<int32_t>(interpreter.inputs_size())) {
      MicroSnprintf(text, sizeof(text), "case %d has %d inputs but the model has %d", c,
                    static_cast<int>(test_case.inputs_size), static_cast<int>(interpreter.inputs_size()));
      Fail(text);
    }
    for (int i = 0; i < test_case.inputs_size; ++i) {
      const MicroCaseTensor& given = test_case.inputs[i];
      TfLiteTensor* input = interpreter.input(i);
      if (!model_runner::InputMatches(c, i, given.type, given.bytes, input, text, sizeof(text))) Fail(text);
      uint8_t* dst = input->data.uint8;
      for (uint32_t b = 0; b < given.bytes; ++b) dst[b] = given.data[b];
    }
    // Each case is one independent run: state from the previous case (SVDF,
    // LSTM) is reset first.
    if (interpreter.ResetVariableTensors() != kTfLiteOk) Fail("ResetVariableTensors failed");
    const uint32_t start = MicroTicks();
    model_runner_invoke_begin();
    const TfLiteStatus status = interpreter.Invoke();
    model_runner_invoke_end();
    const uint32_t ticks = MicroTicks() - start;
    if (status != kTfLiteOk) {
      MicroSnprintf(text, sizeof(text), "Invoke failed on case %d", c);
      Fail(text);
    }
    for (size_t o = 0; o < interpreter.outputs_size(); ++o) {
      model_runner::LogOutput(c, static_cast<int>(o), interpreter.output(static_cast<int>(o)));
    }
    model_runner::LogInvokeTime(c, ticks);
  }
  MicroPrintf("arena_used_bytes=%u", static_cast<unsigned>(interpreter.arena_used_bytes()));
  MicroPrintf("arena_persistent_bytes=%u arena_activation_bytes=%u",
              static_cast<unsigned>(interpreter.arena_persistent_bytes()),
              static_cast<unsigned>(interpreter.arena_activation_bytes()));
  MicroPrintf("~~~MODEL RUNNER DONE~~~");
  MicroExit(0);
}
