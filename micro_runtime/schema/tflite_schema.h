// The one way library code reaches the generated TFLite schema
// (schema_generated.h, made by flatc from schema.fbs at build time).
//
// On Cortex-M, the flatbuffers headers' internal consistency checks trap
// instead of calling assert(): the same stop on a broken invariant (the fault
// handler prints the PC), without about 2 KB of assert file/function/
// expression strings in flash. Hosts keep assert() and its message.
// Every user must include this header rather than schema_generated.h so all
// translation units see the same flatbuffers inline functions.
#ifndef MICRO_RUNTIME_SCHEMA_TFLITE_SCHEMA_H_
#define MICRO_RUNTIME_SCHEMA_TFLITE_SCHEMA_H_

#if defined(FLATBUFFERS_BASE_H_) && !defined(MICRO_RUNTIME_TFLITE_SCHEMA_CONFIGURED)
#error "include micro_runtime/schema/tflite_schema.h before any flatbuffers header"
#endif
#define MICRO_RUNTIME_TFLITE_SCHEMA_CONFIGURED 1

#if defined(__ARM_ARCH_PROFILE) && (__ARM_ARCH_PROFILE == 'M') && !defined(FLATBUFFERS_ASSERT)
#define FLATBUFFERS_ASSERT(condition) ((condition) ? static_cast<void>(0) : __builtin_trap())
#endif

#include "micro_runtime/schema/schema_generated.h"

#endif  // MICRO_RUNTIME_SCHEMA_TFLITE_SCHEMA_H_
