// Op resolver: registration limits, lookups with version ranges, and the
// errors AllocateTensors() gives for unknown ops and unsupported versions.
// (core_messages_test.py checks the exact texts this binary logs.)
#include "micro_runtime/micro_op_resolver.h"

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_log.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/models/unknown_op_model_data.h"
#include "micro_runtime/models/versions_model_data.h"
#include "micro_runtime/testing/test_ops.h"

namespace {

using Op = tflite::BuiltinOperator;
constexpr int32_t kConv = static_cast<int32_t>(Op::CONV_2D);
constexpr int32_t kCustom = static_cast<int32_t>(Op::CUSTOM);

constexpr size_t kArenaSize = 2048;
alignas(16) uint8_t g_arena[kArenaSize];

TfLiteStatus Allocate(const MicroOpResolver& resolver, const uint8_t* model, size_t size) {
  MicroInterpreter interpreter(model, size, resolver, g_arena, kArenaSize);
  return interpreter.AllocateTensors();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(AddAndFind) {
  MicroMutableOpResolver<3> resolver;
  TF_LITE_MICRO_EXPECT_EQ(0u, resolver.size());
  TF_LITE_MICRO_EXPECT_EQ(3u, resolver.capacity());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, resolver.AddBuiltin(Op::CONV_2D, test_ops::Register_NOP(), 1, 3));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, resolver.AddCustom("Atan", test_ops::Register_COPY()));
  TF_LITE_MICRO_EXPECT_EQ(2u, resolver.size());
  const TfLiteRegistration* conv = resolver.Find(kConv, nullptr, 3);
  TF_LITE_MICRO_EXPECT(conv != nullptr);
  if (conv != nullptr) TF_LITE_MICRO_EXPECT(conv->invoke == test_ops::Register_NOP().invoke);
  const TfLiteRegistration* atan = resolver.Find(kCustom, "Atan", 1);
  TF_LITE_MICRO_EXPECT(atan != nullptr);
  if (atan != nullptr) TF_LITE_MICRO_EXPECT(atan->invoke == test_ops::Register_COPY().invoke);
  TF_LITE_MICRO_EXPECT(resolver.Find(kConv, nullptr, 1) != nullptr);
}

TF_LITE_MICRO_TEST(VersionsOutsideTheRangeAreRejected) {
  MicroMutableOpResolver<2> resolver;
  resolver.AddBuiltin(Op::CONV_2D, test_ops::Register_NOP(), 2, 3);
  resolver.AddCustom("Atan", test_ops::Register_NOP(), 1, 1);
  TF_LITE_MICRO_EXPECT(resolver.Find(kConv, nullptr, 4) == nullptr);  // newer
  TF_LITE_MICRO_EXPECT(resolver.Find(kConv, nullptr, 1) == nullptr);  // older
  TF_LITE_MICRO_EXPECT(resolver.Find(kCustom, "Atan", 2) == nullptr);
  TF_LITE_MICRO_EXPECT(resolver.Find(kConv, nullptr, 2) != nullptr);
}

TF_LITE_MICRO_TEST(UnknownOpsAreNotFound) {
  MicroMutableOpResolver<1> resolver;
  resolver.AddCustom("Atan", test_ops::Register_NOP());
  TF_LITE_MICRO_EXPECT(resolver.Find(kConv, nullptr, 3) == nullptr);
  TF_LITE_MICRO_EXPECT(resolver.Find(kCustom, "Atan2", 1) == nullptr);
  TF_LITE_MICRO_EXPECT(resolver.Find(kCustom, "Ata", 1) == nullptr);
  TF_LITE_MICRO_EXPECT(resolver.Find(kCustom, nullptr, 1) == nullptr);  // CUSTOM as a builtin
  TF_LITE_MICRO_EXPECT(resolver.Find(201, nullptr, 1) == nullptr);
}

TF_LITE_MICRO_TEST(FullDuplicateAndBadRangesFail) {
  MicroMutableOpResolver<2> resolver;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, resolver.AddBuiltin(Op::ADD, test_ops::Register_NOP()));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, resolver.AddBuiltin(Op::ADD, test_ops::Register_NOP(), 2, 2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, resolver.AddBuiltin(Op::MUL, test_ops::Register_NOP(), 0, 1));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, resolver.AddBuiltin(Op::MUL, test_ops::Register_NOP(), 3, 2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, resolver.AddCustom("Atan", test_ops::Register_NOP()));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, resolver.AddBuiltin(Op::MUL, test_ops::Register_NOP()));  // full
  TF_LITE_MICRO_EXPECT_EQ(2u, resolver.size());
  MicroMutableOpResolver<2> customs;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, customs.AddCustom("Atan", test_ops::Register_NOP()));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, customs.AddCustom("Atan", test_ops::Register_NOP()));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, customs.AddCustom("Atan2", test_ops::Register_NOP()));
}

TF_LITE_MICRO_TEST(OpNames) {
  TF_LITE_MICRO_EXPECT_EQ(0, __builtin_strcmp("CONV_2D", BuiltinOperatorName(kConv)));
  TF_LITE_MICRO_EXPECT_EQ(0, __builtin_strcmp("FULLY_CONNECTED", BuiltinOperatorName(9)));
  TF_LITE_MICRO_EXPECT_EQ(0, __builtin_strcmp("QUANTIZE", BuiltinOperatorName(114)));
  TF_LITE_MICRO_EXPECT(BuiltinOperatorName(200) == nullptr);
  TF_LITE_MICRO_EXPECT(BuiltinOperatorName(-1) == nullptr);
  TF_LITE_MICRO_EXPECT(BuiltinOperatorName(256) == nullptr);
  // Every name in the short table is the schema's own name for that code.
  int named = 0;
  for (int32_t code = 0; code <= static_cast<int32_t>(tflite::BuiltinOperator::STABLEHLO_CBRT); ++code) {
    const char* name = BuiltinOperatorName(code);
    if (name == nullptr) continue;
    ++named;
    const char* schema_name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code));
    if (__builtin_strcmp(name, schema_name) != 0) {
      MicroPrintf("code %d: name '%s', schema '%s'", static_cast<int>(code), name, schema_name);
      TF_LITE_MICRO_EXPECT(false);
    }
  }
  TF_LITE_MICRO_EXPECT_EQ(58, named);
}

// The model has CONV_2D version 3 then custom "Atan" version 1.
TF_LITE_MICRO_TEST(AllocateTensorsChecksEveryOp) {
  {
    MicroMutableOpResolver<2> resolver;  // nothing registered for CONV_2D
    resolver.AddCustom("Atan", test_ops::Register_NOP());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Allocate(resolver, g_versions_model_data, g_versions_model_data_size));
  }
  {
    MicroMutableOpResolver<2> resolver;  // CONV_2D only up to version 2
    resolver.AddBuiltin(Op::CONV_2D, test_ops::Register_NOP(), 1, 2);
    resolver.AddCustom("Atan", test_ops::Register_NOP());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Allocate(resolver, g_versions_model_data, g_versions_model_data_size));
  }
  {
    MicroMutableOpResolver<2> resolver;  // CONV_2D only from version 4
    resolver.AddBuiltin(Op::CONV_2D, test_ops::Register_NOP(), 4, 5);
    resolver.AddCustom("Atan", test_ops::Register_NOP());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Allocate(resolver, g_versions_model_data, g_versions_model_data_size));
  }
  {
    MicroMutableOpResolver<2> resolver;  // Atan missing
    resolver.AddBuiltin(Op::CONV_2D, test_ops::Register_NOP(), 1, 3);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Allocate(resolver, g_versions_model_data, g_versions_model_data_size));
  }
  {
    MicroMutableOpResolver<2> resolver;
    resolver.AddBuiltin(Op::CONV_2D, test_ops::Register_NOP(), 1, 3);
    resolver.AddCustom("Atan", test_ops::Register_NOP());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Allocate(resolver, g_versions_model_data, g_versions_model_data_size));
  }
}

TF_LITE_MICRO_TEST(UnnamedBuiltinIsReportedByNumber) {
  MicroMutableOpResolver<1> resolver;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Allocate(resolver, g_unknown_op_model_data, g_unknown_op_model_data_size));
  resolver.AddBuiltin(static_cast<Op>(200), test_ops::Register_NOP(), 1, 2);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Allocate(resolver, g_unknown_op_model_data, g_unknown_op_model_data_size));
}

TF_LITE_MICRO_TESTS_END
