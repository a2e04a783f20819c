// AllOpsResolver's recurrent ops (AddLstmOps): UNIDIRECTIONAL_SEQUENCE_LSTM
// is registered for versions 1-5 (v1 float32/int8, v5 int16; v2-v4 reach
// prepare, which refuses hybrid and diagonal models by name) and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/resolver_group.h"

using namespace micro_runtime;

using Op = tflite::BuiltinOperator;
using LstmOpsResolver = OpGroupResolver<kLstmOpsCount, AddLstmOps>;

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  const Op ops[] = {Op::UNIDIRECTIONAL_SEQUENCE_LSTM};
  TF_LITE_MICRO_EXPECT(LstmOpsResolver().HoldsAll(ops));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  LstmOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, 5));  // 16x8
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, 6));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::LSTM, 1));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  TF_LITE_MICRO_EXPECT(RegistersExactly(LstmOpsResolver(), kLstmOpRanges));
}

TF_LITE_MICRO_TESTS_END
