// micro_speech application: classifies the recorded spectrograms compiled in
// from the example's cases file, as if they arrived every 100 ms from the
// audio front end, and logs each recognized command. A real device computes
// the spectrogram from its microphone and loops forever.
#include "micro_runtime/examples/micro_speech/command_recognizer.h"
#include "micro_runtime/examples/micro_speech/models/micro_speech_quantized_cases.h"
#include "micro_runtime/examples/micro_speech/models/micro_speech_quantized_model_data.h"
#include "micro_runtime/examples/micro_speech/speech_classifier.h"
#include "micro_runtime/micro_log.h"
#include "micro_runtime/platform.h"

namespace {
constexpr size_t kArenaSize = 10 * 1024;
constexpr int kWindowsPerRecording = 5;  // each recording is fed a few times, like overlapping windows
constexpr int32_t kStrideMs = 100;
alignas(16) uint8_t g_arena[kArenaSize];
}  // namespace

int main() {
  MicroPlatformInit();
  static SpeechClassifier classifier(g_micro_speech_quantized_model_data, g_micro_speech_quantized_model_data_size,
                                     g_arena, kArenaSize);
  if (classifier.Init() != kTfLiteOk) MicroExit(1);
  static CommandRecognizer recognizer(/*average_window_ms=*/400, /*detection_threshold=*/180,
                                      /*suppression_ms=*/300, /*minimum_count=*/3);
  int32_t now_ms = 0;
  for (int c = 0; c < g_micro_speech_quantized_case_count; ++c) {
    const MicroCaseTensor& features = g_micro_speech_quantized_cases[c].inputs[0];
    for (int w = 0; w < kWindowsPerRecording; ++w, now_ms += kStrideMs) {
      int8_t scores[kCategoryCount];
      if (classifier.Classify(reinterpret_cast<const int8_t*>(features.data), static_cast<int>(features.bytes),
                              scores) != kTfLiteOk) {
        MicroExit(1);
      }
      Recognition result;
      if (recognizer.Process(scores, now_ms, &result) != kTfLiteOk) MicroExit(1);
      if (result.is_new_command && result.category >= 2) {  // "yes" / "no"; silence and unknown stay quiet
        MicroPrintf("Heard %s (score %d) @%dms", kCategoryLabels[result.category], result.score,
                    static_cast<int>(now_ms));
      }
    }
  }
  MicroExit(0);
}
