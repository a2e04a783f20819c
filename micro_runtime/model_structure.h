// The structural half of model verification (VerifyModel, model_verifier.h,
// does the semantic half): a flatbuffers::Verifier walk over the fields of
// the .tflite schema that the runtime reads.
#ifndef MICRO_RUNTIME_MODEL_STRUCTURE_H_
#define MICRO_RUNTIME_MODEL_STRUCTURE_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/schema/tflite_schema.h"

namespace micro_runtime {

// True when the root Model table at `table` and every table, vector and
// string the runtime reads through it lie inside the verifier's buffer with
// valid offsets, alignment and sizes (flatbuffers' depth and table-count
// limits included). VerifyModel passes its verifier over the model's bytes
// and the root table it found with VerifyOffset(0).
bool VerifyModelTable(flatbuffers::Verifier& verifier, const uint8_t* table);

// The same for a whole flatbuffer of `size` bytes at `data` (4-byte
// aligned).
inline bool VerifyModelStructure(const uint8_t* data, size_t size) {
  flatbuffers::Verifier verifier(data, size);
  const flatbuffers::uoffset_t root = verifier.VerifyOffset(0);
  return root != 0 && VerifyModelTable(verifier, data + root);
}

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_MODEL_STRUCTURE_H_
