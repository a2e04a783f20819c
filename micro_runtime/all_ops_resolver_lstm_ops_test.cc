// AllOpsResolver's recurrent ops (AddLstmOps): UNIDIRECTIONAL_SEQUENCE_LSTM
// is registered for versions 1-5 (v1 float32/int8, v5 int16; v2-v4 reach
// prepare, which refuses hybrid and diagonal models by name) and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

class LstmOpsResolver : public MicroMutableOpResolver<kLstmOpsCount> {
 public:
  LstmOpsResolver() { AddLstmOps(*this); }
};

bool Supports(const LstmOpsResolver& resolver, Op op, int version) {
  return resolver.Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  LstmOpsResolver resolver;
  TF_LITE_MICRO_EXPECT_EQ(kLstmOpsCount, resolver.size());
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::UNIDIRECTIONAL_SEQUENCE_LSTM, 1));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  LstmOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::UNIDIRECTIONAL_SEQUENCE_LSTM, 5));  // 16x8
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::UNIDIRECTIONAL_SEQUENCE_LSTM, 6));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::LSTM, 1));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  TF_LITE_MICRO_EXPECT(RegistersExactly(LstmOpsResolver(), kLstmOpRanges));
}

TF_LITE_MICRO_TESTS_END
