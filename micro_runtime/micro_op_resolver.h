// Op resolvers: map a model's operator codes (builtin code or custom name,
// plus the op version) to kernel registrations.
//
//   MicroMutableOpResolver<4> resolver;          // room for 4 ops, no heap
//   resolver.AddBuiltin(tflite::BuiltinOperator::FULLY_CONNECTED,
//                       Register_FULLY_CONNECTED(), 1, 4);
//   resolver.AddCustom("Atan", Register_ATAN());
//
// Each entry accepts a range of op versions [min_version, max_version]; a
// model whose op version lies outside gets a clear error at
// AllocateTensors() instead of silently wrong results. The resolver must
// outlive every interpreter that uses it (nodes point at its registrations).
#ifndef MICRO_RUNTIME_MICRO_OP_RESOLVER_H_
#define MICRO_RUNTIME_MICRO_OP_RESOLVER_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/schema/tflite_schema.h"

namespace micro_runtime {

// Name of a builtin op code ("CONV_2D"), or nullptr for codes this runtime
// has no name for.
const char* BuiltinOperatorName(int32_t code);

// The lookup lives in this non-template base, so only the storage size is a
// template parameter and there is no virtual dispatch at all.
class MicroOpResolver {
 public:
  struct Entry {
    TfLiteRegistration registration;
    const char* custom_name;  // nullptr for builtin ops
    int32_t builtin_code;     // BuiltinOperator::CUSTOM for custom ops
    int16_t min_version;
    int16_t max_version;
  };

  // Finds the registration for a builtin op (custom_name == nullptr) or a
  // custom op. Logs the reason and returns nullptr when there is none:
  // unknown op, or version outside the registered range.
  const TfLiteRegistration* Find(int32_t builtin_code, const char* custom_name,
                                 int32_t version) const;

  size_t size() const { return count_; }
  size_t capacity() const { return capacity_; }

  MicroOpResolver(const MicroOpResolver&) = delete;
  MicroOpResolver& operator=(const MicroOpResolver&) = delete;

 protected:
  MicroOpResolver(Entry* entries, size_t capacity) : entries_(entries), capacity_(capacity), count_(0) {}
  ~MicroOpResolver() = default;

  TfLiteStatus Add(int32_t builtin_code, const char* custom_name, const TfLiteRegistration& reg,
                   int min_version, int max_version);

 private:
  const Entry* FindEntry(int32_t builtin_code, const char* custom_name) const;

  Entry* entries_;
  size_t capacity_;
  size_t count_;
};

template <size_t kCapacity>
class MicroMutableOpResolver : public MicroOpResolver {
 public:
  MicroMutableOpResolver() : MicroOpResolver(storage_, kCapacity) {}

  // Returns kTfLiteError (and logs why) when the resolver is full, the op is
  // already registered, or the version range is invalid.
  TfLiteStatus AddBuiltin(tflite::BuiltinOperator op, const TfLiteRegistration& reg, int min_version = 1,
                          int max_version = 1) {
    return Add(static_cast<int32_t>(op), nullptr, reg, min_version, max_version);
  }
  // `name` must stay valid as long as the resolver (a string literal).
  TfLiteStatus AddCustom(const char* name, const TfLiteRegistration& reg, int min_version = 1,
                         int max_version = 1) {
    return Add(static_cast<int32_t>(tflite::BuiltinOperator::CUSTOM), name, reg, min_version, max_version);
  }

 private:
  Entry storage_[kCapacity];
};

}  // namespace micro_runtime

// Public API: applications name it unqualified, as before the runtime had one namespace.
using micro_runtime::BuiltinOperatorName;
using micro_runtime::MicroMutableOpResolver;
using micro_runtime::MicroOpResolver;

#endif  // MICRO_RUNTIME_MICRO_OP_RESOLVER_H_
