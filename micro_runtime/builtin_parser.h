// Turns an operator's flatbuffer options (Conv2DOptions, ...) into the plain
// structs of builtin_options.h that kernels receive as node->builtin_data.
// Enum values are range-checked here so kernels can switch on them safely.
#ifndef MICRO_RUNTIME_BUILTIN_PARSER_H_
#define MICRO_RUNTIME_BUILTIN_PARSER_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/schema/tflite_schema.h"

namespace micro_runtime {

// Allocation callback for the parsed struct (the interpreter passes its
// arena's persistent allocator). Returns nullptr when out of memory.
using ParserAllocate = void* (*)(void* allocator, size_t bytes);

// Bytes ParseBuiltinOptions will allocate for `builtin_code` (0 for ops
// without options).
size_t BuiltinOptionsSize(int32_t builtin_code);

// Parses `op`'s options for `builtin_code` into memory from `allocate`.
// *out is nullptr for ops without options (custom ops, LOGISTIC, ...). An
// absent options table yields the schema defaults. Logs and returns
// kTfLiteError for options of the wrong table type or invalid values.
TfLiteStatus ParseBuiltinOptions(const tflite::Operator* op, int32_t builtin_code, int op_index,
                                 ParserAllocate allocate, void* allocator, const void** out);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_BUILTIN_PARSER_H_
