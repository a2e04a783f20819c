// hello_world application: sweeps x over one period, predicts sin(x) with
// the int8 model and hands each result to the output handler. A real device
// would loop forever; this one stops after one period so it can run under
// the harness.
#include "micro_runtime/examples/hello_world/output_handler.h"
#include "micro_runtime/examples/hello_world/sine_predictor.h"
#include "micro_runtime/examples/hello_world/models/hello_world_int8_model_data.h"
#include "micro_runtime/platform.h"

namespace {
constexpr int kInferencesPerPeriod = 20;
constexpr float kTwoPi = 6.2831853f;
constexpr size_t kArenaSize = 2048;
alignas(16) uint8_t g_arena[kArenaSize];
}  // namespace

int main() {
  MicroPlatformInit();
  static SinePredictor predictor(g_hello_world_int8_model_data, g_hello_world_int8_model_data_size, g_arena,
                                 kArenaSize);
  if (predictor.Init() != kTfLiteOk) MicroExit(1);
  for (int i = 0; i < kInferencesPerPeriod; ++i) {
    const float x = kTwoPi * static_cast<float>(i) / kInferencesPerPeriod;
    float y = 0.0f;
    if (predictor.Predict(x, &y) != kTfLiteOk) MicroExit(1);
    HandleOutput(x, y);
  }
  MicroExit(0);
}
