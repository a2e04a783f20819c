// What the all_ops_resolver_<group>_ops_test.cc files share: a resolver that
// holds one of AllOpsResolver's op groups (each group's test links only that
// group's kernels, so that every one fits a 64 KB Blue Pill), with the checks
// the tests run on it.
#ifndef MICRO_RUNTIME_TESTING_RESOLVER_GROUP_H_
#define MICRO_RUNTIME_TESTING_RESOLVER_GROUP_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_log.h"

namespace micro_runtime {

// The group kAdd registers (AddShapeOps, ...), kCount kernels.
template <size_t kCount, void (*kAdd)(MicroMutableOpResolver<kCount>&)>
class OpGroupResolver : public MicroMutableOpResolver<kCount> {
 public:
  OpGroupResolver() { kAdd(*this); }

  // Whether `op` is registered for `version`.
  bool Supports(tflite::BuiltinOperator op, int version) const {
    return this->Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
  }

  // Whether the group holds kCount kernels and each of `ops` at version 1;
  // logs what is missing.
  template <size_t N>
  bool HoldsAll(const tflite::BuiltinOperator (&ops)[N]) const {
    bool ok = this->size() == kCount;
    if (!ok) MicroPrintf("the group holds %d kernels, expected %d", static_cast<int>(this->size()), static_cast<int>(kCount));
    for (tflite::BuiltinOperator op : ops) {
      if (!Supports(op, 1)) {
        MicroPrintf("builtin %d is not registered", static_cast<int>(op));
        ok = false;
      }
    }
    return ok;
  }
};

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_TESTING_RESOLVER_GROUP_H_
