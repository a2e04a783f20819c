// The structural check alone: real and semantically broken models are
// well-formed flatbuffers; a field the runtime reads pointed out of bounds,
// or any truncation, is not.
#include "micro_runtime/model_structure.h"

#include <string.h>

#include "micro_runtime/micro_log.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/models/bad_version_model_data.h"
#include "micro_runtime/models/fc_model_data.h"
#include "micro_runtime/models/hello_float_ref_model_data.h"
#include "micro_runtime/models/per_channel_model_data.h"
#include "micro_runtime/schema/tflite_schema.h"

using micro_runtime::VerifyModelStructure;

namespace {

alignas(16) uint8_t g_copy[4096];

// Points field `vtable_offset` of the table at `table` (inside g_copy) far
// past the end of the model, the way a corrupt vtable would. Returns false
// when the table does not have the field.
bool CorruptField(const void* table, flatbuffers::voffset_t vtable_offset) {
  const auto* t = static_cast<const flatbuffers::Table*>(table);
  if (t->GetOptionalFieldOffset(vtable_offset) == 0) return false;
  uint8_t* entry = const_cast<uint8_t*>(t->GetVTable()) + vtable_offset;
  entry[0] = 0xf0;
  entry[1] = 0x7f;
  return true;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(WellFormedModelsPass) {
  TF_LITE_MICRO_EXPECT(VerifyModelStructure(g_fc_model_data, g_fc_model_data_size));
  TF_LITE_MICRO_EXPECT(VerifyModelStructure(g_per_channel_model_data, g_per_channel_model_data_size));
  TF_LITE_MICRO_EXPECT(VerifyModelStructure(g_hello_float_ref_model_data, g_hello_float_ref_model_data_size));
  // A wrong schema version is a semantic error, not a structural one.
  TF_LITE_MICRO_EXPECT(VerifyModelStructure(g_bad_version_model_data, g_bad_version_model_data_size));
}

TF_LITE_MICRO_TEST(TruncationsAreRejected) {
  memcpy(g_copy, g_fc_model_data, g_fc_model_data_size);
  int accepted = 0;
  for (size_t size = 8; size < g_fc_model_data_size; size += 7) {
    if (VerifyModelStructure(g_copy, size)) ++accepted;
  }
  TF_LITE_MICRO_EXPECT_EQ(0, accepted);
}

TF_LITE_MICRO_TEST(CorruptFieldsThatTheRuntimeReadsAreRejected) {
  // One table per kind of field check (scalar, vector, string, sub-table,
  // vector of tables, union member); each copy gets one field pointed out
  // of bounds. The hello_world model carries FullyConnectedOptions.
  const uint8_t* original = g_hello_float_ref_model_data;
  const size_t size = g_hello_float_ref_model_data_size;
  TF_LITE_MICRO_EXPECT(size <= sizeof(g_copy));
  if (size > sizeof(g_copy)) continue;
  for (int which = 0; which < 9; ++which) {
    memcpy(g_copy, original, size);
    const tflite::Model* model = tflite::GetModel(g_copy);
    const tflite::SubGraph* graph = model->subgraphs()->Get(0);
    const tflite::Tensor* tensor = graph->tensors()->Get(0);
    const tflite::Operator* op = graph->operators()->Get(0);
    bool corrupted = false;
    switch (which) {
      case 0: corrupted = CorruptField(model, tflite::Model::VT_VERSION); break;
      case 1: corrupted = CorruptField(model, tflite::Model::VT_BUFFERS); break;
      case 2: corrupted = CorruptField(graph, tflite::SubGraph::VT_OPERATORS); break;
      case 3: corrupted = CorruptField(tensor, tflite::Tensor::VT_SHAPE); break;
      case 4: corrupted = CorruptField(tensor, tflite::Tensor::VT_NAME); break;
      case 5:  // a scalar: the first tensor that stores its buffer index
        for (flatbuffers::uoffset_t i = 0; i < graph->tensors()->size() && !corrupted; ++i) {
          corrupted = CorruptField(graph->tensors()->Get(i), tflite::Tensor::VT_BUFFER);
        }
        break;
      case 6: corrupted = CorruptField(op, tflite::Operator::VT_INPUTS); break;
      case 7: corrupted = CorruptField(op->builtin_options(), tflite::FullyConnectedOptions::VT_FUSED_ACTIVATION_FUNCTION);
        break;
      default: corrupted = CorruptField(model->operator_codes()->Get(0), tflite::OperatorCode::VT_BUILTIN_CODE); break;
    }
    TF_LITE_MICRO_EXPECT(corrupted);
    if (VerifyModelStructure(g_copy, size)) {
      MicroPrintf("corrupt field %d was accepted", which);
      TF_LITE_MICRO_EXPECT(false);
    }
  }
}

TF_LITE_MICRO_TESTS_END
