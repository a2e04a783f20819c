#include "micro_runtime/examples/micro_speech/command_recognizer.h"

#include "micro_runtime/micro_log.h"

CommandRecognizer::CommandRecognizer(int32_t average_window_ms, int detection_threshold, int32_t suppression_ms,
                                     int minimum_count)
    : average_window_ms_(average_window_ms),
      detection_threshold_(detection_threshold),
      suppression_ms_(suppression_ms),
      minimum_count_(minimum_count) {}

TfLiteStatus CommandRecognizer::Process(const int8_t scores[kCategoryCount], int32_t time_ms,
                                        Recognition* result) {
  if (count_ > 0) {
    const Entry& newest = entries_[(first_ + count_ - 1) % kMaxResults];
    if (time_ms < newest.time_ms) {
      MicroPrintf("CommandRecognizer: time went backwards (%d ms after %d ms)", static_cast<int>(time_ms),
                  static_cast<int>(newest.time_ms));
      return kTfLiteError;
    }
  }
  // Append (dropping the oldest when full), then forget results that left the window.
  if (count_ == kMaxResults) {
    first_ = (first_ + 1) % kMaxResults;
    --count_;
  }
  Entry& entry = entries_[(first_ + count_) % kMaxResults];
  entry.time_ms = time_ms;
  for (int i = 0; i < kCategoryCount; ++i) entry.scores[i] = static_cast<uint8_t>(scores[i] + 128);
  ++count_;
  while (count_ > 1 && time_ms - entries_[first_].time_ms > average_window_ms_) {
    first_ = (first_ + 1) % kMaxResults;
    --count_;
  }

  int best = 0;
  int best_average = -1;
  for (int c = 0; c < kCategoryCount; ++c) {
    int sum = 0;
    for (int i = 0; i < count_; ++i) sum += entries_[(first_ + i) % kMaxResults].scores[c];
    const int average = sum / count_;
    if (average > best_average) {
      best_average = average;
      best = c;
    }
  }
  result->category = best;
  result->score = best_average;
  result->is_new_command = false;
  // Too few results for a stable average: report, but never as a command.
  if (count_ < minimum_count_) return kTfLiteOk;
  const bool suppressed = has_previous_ && best == previous_category_ && time_ms - previous_time_ms_ < suppression_ms_;
  if (best_average >= detection_threshold_ && !suppressed) {
    result->is_new_command = true;
    previous_category_ = best;
    previous_time_ms_ = time_ms;
    has_previous_ = true;
  }
  return kTfLiteOk;
}
