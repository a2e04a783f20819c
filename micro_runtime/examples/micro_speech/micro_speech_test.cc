// micro_speech example: every reference case through the runtime with a
// resolver holding only the model's four ops (each within one quantization
// step of the reference interpreter), then the command recognizer's rules.
#include <stdint.h>

#include "micro_runtime/examples/micro_speech/command_recognizer.h"
#include "micro_runtime/examples/micro_speech/models/micro_speech_quantized_cases.h"
#include "micro_runtime/examples/micro_speech/models/micro_speech_quantized_model_data.h"
#include "micro_runtime/examples/micro_speech/speech_classifier.h"
#include "micro_runtime/micro_test.h"

namespace {

constexpr size_t kArenaSize = 10 * 1024;
alignas(16) uint8_t g_arena[kArenaSize];

int Argmax(const int8_t* scores) {
  int best = 0;
  for (int i = 1; i < kCategoryCount; ++i) {
    if (scores[i] > scores[best]) best = i;
  }
  return best;
}

void Fill(int8_t* scores, int8_t silence, int8_t unknown, int8_t yes, int8_t no) {
  scores[0] = silence;
  scores[1] = unknown;
  scores[2] = yes;
  scores[3] = no;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryReferenceCaseWithinOneStep) {
  SpeechClassifier classifier(g_micro_speech_quantized_model_data, g_micro_speech_quantized_model_data_size, g_arena,
                              kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, classifier.Init());
  TF_LITE_MICRO_EXPECT_EQ(3, g_micro_speech_quantized_case_count);
  for (int c = 0; c < g_micro_speech_quantized_case_count; ++c) {
    const MicroCase& test_case = g_micro_speech_quantized_cases[c];
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteInt8, test_case.inputs[0].type);
    TF_LITE_MICRO_EXPECT_EQ(static_cast<uint32_t>(kFeatureCount), test_case.inputs[0].bytes);
    int8_t scores[kCategoryCount];
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                            classifier.Classify(reinterpret_cast<const int8_t*>(test_case.inputs[0].data),
                                                static_cast<int>(test_case.inputs[0].bytes), scores));
    const int8_t* expected = reinterpret_cast<const int8_t*>(test_case.expected[0].data);
    for (int i = 0; i < kCategoryCount; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], scores[i], 1);
    TF_LITE_MICRO_EXPECT_EQ(Argmax(expected), Argmax(scores));
  }
}

TF_LITE_MICRO_TEST(ReferenceRecordingsAreUncertainYesNo) {
  // The three recordings of the cases file: the first is not confidently
  // anything (best probability below one half, int8 score < 0), the second
  // is "yes", the third "no".
  const int8_t* first = reinterpret_cast<const int8_t*>(g_micro_speech_quantized_cases[0].expected[0].data);
  TF_LITE_MICRO_EXPECT_LT(static_cast<int>(first[Argmax(first)]), 0);
  const int8_t* second = reinterpret_cast<const int8_t*>(g_micro_speech_quantized_cases[1].expected[0].data);
  TF_LITE_MICRO_EXPECT_EQ(2, Argmax(second));
  const int8_t* third = reinterpret_cast<const int8_t*>(g_micro_speech_quantized_cases[2].expected[0].data);
  TF_LITE_MICRO_EXPECT_EQ(3, Argmax(third));
}

TF_LITE_MICRO_TEST(WrongFeatureCountIsRefused) {
  SpeechClassifier classifier(g_micro_speech_quantized_model_data, g_micro_speech_quantized_model_data_size, g_arena,
                              kArenaSize);
  int8_t scores[kCategoryCount];
  int8_t features[8] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, classifier.Classify(features, 8, scores));  // before Init
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, classifier.Init());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, classifier.Classify(features, 8, scores));
}

TF_LITE_MICRO_TEST(RecognizerNeedsEnoughResultsAndThreshold) {
  CommandRecognizer recognizer(1000, 200, 1500, 3);
  int8_t scores[kCategoryCount];
  Recognition r;
  Fill(scores, -128, -128, 100, -128);  // "yes" at 228 of 255
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 0, &r));
  TF_LITE_MICRO_EXPECT_EQ(2, r.category);
  TF_LITE_MICRO_EXPECT_FALSE(r.is_new_command);  // only one result so far
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 100, &r));
  TF_LITE_MICRO_EXPECT_FALSE(r.is_new_command);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 200, &r));
  TF_LITE_MICRO_EXPECT_TRUE(r.is_new_command);
  TF_LITE_MICRO_EXPECT_EQ(228, r.score);
  // Same word again within the suppression time: not a new command.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 300, &r));
  TF_LITE_MICRO_EXPECT_FALSE(r.is_new_command);
  // After it: reported again.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 1800, &r));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 1900, &r));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 2000, &r));
  TF_LITE_MICRO_EXPECT_TRUE(r.is_new_command);
}

TF_LITE_MICRO_TEST(RecognizerAveragesOverTheWindow) {
  CommandRecognizer recognizer(1000, 200, 0, 1);
  int8_t scores[kCategoryCount];
  Recognition r;
  Fill(scores, -128, -128, 127, -128);  // one confident "yes" (255)
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 0, &r));
  TF_LITE_MICRO_EXPECT_TRUE(r.is_new_command);
  Fill(scores, -128, -128, -128, 27);  // then "no" at 155: yes averages 127, no 77
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 100, &r));
  TF_LITE_MICRO_EXPECT_EQ(2, r.category);
  TF_LITE_MICRO_EXPECT_EQ(127, r.score);
  TF_LITE_MICRO_EXPECT_FALSE(r.is_new_command);  // below threshold
  // Once the "yes" leaves the 1 s window, "no" alone is averaged.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 1050, &r));
  TF_LITE_MICRO_EXPECT_EQ(3, r.category);
  TF_LITE_MICRO_EXPECT_EQ(155, r.score);
}

TF_LITE_MICRO_TEST(RecognizerRejectsTimeGoingBackwards) {
  CommandRecognizer recognizer;
  int8_t scores[kCategoryCount] = {0, 0, 0, 0};
  Recognition r;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, recognizer.Process(scores, 500, &r));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, recognizer.Process(scores, 400, &r));
}

TF_LITE_MICRO_TESTS_END
