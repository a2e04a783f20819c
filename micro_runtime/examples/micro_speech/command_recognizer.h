// Turns a stream of per-window classifier scores into discrete commands.
// Single windows are noisy, so scores are averaged over the results of the
// last `average_window_ms`; a command is reported when its average beats
// `detection_threshold`, and the same command is not reported again within
// `suppression_ms` (one spoken word spans several overlapping windows).
#ifndef MICRO_RUNTIME_EXAMPLES_MICRO_SPEECH_COMMAND_RECOGNIZER_H_
#define MICRO_RUNTIME_EXAMPLES_MICRO_SPEECH_COMMAND_RECOGNIZER_H_

#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/examples/micro_speech/speech_classifier.h"

struct Recognition {
  int category;       // index into kCategoryLabels of the best average score
  int score;          // its average, as an uint8-like 0..255 value
  bool is_new_command;  // true once per detected command
};

class CommandRecognizer {
 public:
  static constexpr int kMaxResults = 16;

  CommandRecognizer(int32_t average_window_ms = 1000, int detection_threshold = 200, int32_t suppression_ms = 1500,
                    int minimum_count = 3);

  // Feeds the int8 scores of the window ending at `time_ms` (non-decreasing).
  TfLiteStatus Process(const int8_t scores[kCategoryCount], int32_t time_ms, Recognition* result);

 private:
  struct Entry {
    int32_t time_ms;
    uint8_t scores[kCategoryCount];  // int8 score + 128: 0..255
  };
  int32_t average_window_ms_;
  int detection_threshold_;
  int32_t suppression_ms_;
  int minimum_count_;
  Entry entries_[kMaxResults];
  int first_ = 0;
  int count_ = 0;
  int previous_category_ = -1;
  int32_t previous_time_ms_ = 0;
  bool has_previous_ = false;
};

#endif  // MICRO_RUNTIME_EXAMPLES_MICRO_SPEECH_COMMAND_RECOGNIZER_H_
