// The structural half of model verification (VerifyModel, model_verifier.h,
// does the semantic half): a flatbuffers::Verifier walk over the fields of
// the .tflite schema that the runtime reads.
#ifndef MICRO_RUNTIME_MODEL_STRUCTURE_H_
#define MICRO_RUNTIME_MODEL_STRUCTURE_H_

#include <stddef.h>
#include <stdint.h>

namespace micro_runtime {

// True when the flatbuffer's root Model table and every table, vector and
// string the runtime reads through it lie inside `size` bytes with valid
// offsets, alignment and sizes (flatbuffers' depth and table-count limits
// included). `data` is 4-byte aligned and has the TFL3 identifier.
bool VerifyModelStructure(const uint8_t* data, size_t size);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_MODEL_STRUCTURE_H_
