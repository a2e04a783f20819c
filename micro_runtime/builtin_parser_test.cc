// Builtin options parsing: every options table of builtin_options.h comes
// out with the model's values; wrong tables and out-of-range enums fail.
// models/options.tflite holds one operator per case (see generate.py).
#include "micro_runtime/builtin_parser.h"

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/micro_op_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/model_verifier.h"
#include "micro_runtime/models/options_model_data.h"

namespace {

alignas(8) uint8_t g_pool[512];
size_t g_pool_used = 0;

void* PoolAllocate(void*, size_t bytes) {
  bytes = (bytes + 7) / 8 * 8;
  if (g_pool_used + bytes > sizeof(g_pool)) return nullptr;
  void* p = g_pool + g_pool_used;
  g_pool_used += bytes;
  return p;
}

void* NoMemory(void*, size_t) { return nullptr; }

// Parses operator `index` of the options model.
TfLiteStatus Parse(int index, const void** out) {
  const tflite::Model* model = micro_runtime::VerifyModel(g_options_model_data, g_options_model_data_size);
  if (model == nullptr) return kTfLiteError;
  const tflite::Operator* op = model->subgraphs()->Get(0)->operators()->Get(static_cast<uint32_t>(index));
  const int32_t code = micro_runtime::EffectiveBuiltinCode(model->operator_codes()->Get(op->opcode_index()));
  g_pool_used = 0;
  return micro_runtime::ParseBuiltinOptions(op, code, index, PoolAllocate, nullptr, out);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Conv) {
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(0, &data));
  const auto* p = static_cast<const TfLiteConvParams*>(data);
  TF_LITE_MICRO_EXPECT(p != nullptr);
  if (p == nullptr) continue;
  TF_LITE_MICRO_EXPECT_EQ(kTfLitePaddingValid, p->padding);
  TF_LITE_MICRO_EXPECT_EQ(2, p->stride_width);
  TF_LITE_MICRO_EXPECT_EQ(3, p->stride_height);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActRelu6, p->activation);
  TF_LITE_MICRO_EXPECT_EQ(4, p->dilation_width_factor);
  TF_LITE_MICRO_EXPECT_EQ(5, p->dilation_height_factor);
  // No quantized_bias_type in the model: the schema default (FLOAT32), which
  // selects no int32 accumulation.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteFloat32, p->quantized_bias_type);
}

TF_LITE_MICRO_TEST(DepthwiseConv) {
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(1, &data));
  const auto* p = static_cast<const TfLiteDepthwiseConvParams*>(data);
  TF_LITE_MICRO_EXPECT(p != nullptr);
  if (p == nullptr) continue;
  TF_LITE_MICRO_EXPECT_EQ(kTfLitePaddingSame, p->padding);
  TF_LITE_MICRO_EXPECT_EQ(1, p->stride_width);
  TF_LITE_MICRO_EXPECT_EQ(2, p->stride_height);
  TF_LITE_MICRO_EXPECT_EQ(3, p->depth_multiplier);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActRelu, p->activation);
  TF_LITE_MICRO_EXPECT_EQ(2, p->dilation_width_factor);
  TF_LITE_MICRO_EXPECT_EQ(1, p->dilation_height_factor);
}

TF_LITE_MICRO_TEST(Pools) {
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(2, &data));
  const auto* avg = static_cast<const TfLitePoolParams*>(data);
  TF_LITE_MICRO_EXPECT(avg != nullptr);
  if (avg == nullptr) continue;
  TF_LITE_MICRO_EXPECT_EQ(kTfLitePaddingValid, avg->padding);
  TF_LITE_MICRO_EXPECT_EQ(2, avg->stride_width);
  TF_LITE_MICRO_EXPECT_EQ(2, avg->stride_height);
  TF_LITE_MICRO_EXPECT_EQ(3, avg->filter_width);
  TF_LITE_MICRO_EXPECT_EQ(4, avg->filter_height);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActReluN1To1, avg->activation);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(3, &data));
  const auto* max = static_cast<const TfLitePoolParams*>(data);
  TF_LITE_MICRO_EXPECT_EQ(kTfLitePaddingSame, max->padding);
  TF_LITE_MICRO_EXPECT_EQ(2, max->filter_width);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActNone, max->activation);
}

TF_LITE_MICRO_TEST(FullyConnectedSoftmaxAddMul) {
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(4, &data));
  const auto* fc = static_cast<const TfLiteFullyConnectedParams*>(data);
  TF_LITE_MICRO_EXPECT(fc != nullptr);
  if (fc == nullptr) continue;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActTanh, fc->activation);
  TF_LITE_MICRO_EXPECT(fc->keep_num_dims);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(5, &data));
  TF_LITE_MICRO_EXPECT_NEAR(0.5f, static_cast<const TfLiteSoftmaxParams*>(data)->beta, 0.0f);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(6, &data));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActRelu, static_cast<const TfLiteArithmeticParams*>(data)->activation);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(7, &data));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActSignBit, static_cast<const TfLiteArithmeticParams*>(data)->activation);
}

TF_LITE_MICRO_TEST(Reshape) {
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(8, &data));
  const auto* p = static_cast<const TfLiteReshapeParams*>(data);
  TF_LITE_MICRO_EXPECT(p != nullptr);
  if (p == nullptr) continue;
  TF_LITE_MICRO_EXPECT_EQ(3, p->num_dimensions);
  TF_LITE_MICRO_EXPECT_EQ(2, p->shape[0]);
  TF_LITE_MICRO_EXPECT_EQ(-1, p->shape[1]);
  TF_LITE_MICRO_EXPECT_EQ(3, p->shape[2]);
  // Without options there is no requested shape.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(13, &data));
  TF_LITE_MICRO_EXPECT_EQ(0, static_cast<const TfLiteReshapeParams*>(data)->num_dimensions);
  // More dimensions than TfLiteReshapeParams holds.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(15, &data));
}

TF_LITE_MICRO_TEST(InvalidOptionsFail) {
  const void* data = &data;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(9, &data));  // CONV_2D without options: stride 0
  TF_LITE_MICRO_EXPECT(data == nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(10, &data));  // CONV_2D carrying SoftmaxOptions
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(11, &data));  // padding 7
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(12, &data));  // activation 9
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(16, &data));  // stride 2000
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(17, &data));  // shuffled weights
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(18, &data));  // filter height 0
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(19, &data));  // dilation 0
}

TF_LITE_MICRO_TEST(SvdfAndTransposeConv) {
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(20, &data));
  const auto* svdf = static_cast<const TfLiteSVDFParams*>(data);
  TF_LITE_MICRO_EXPECT(svdf != nullptr);
  if (svdf == nullptr) continue;
  TF_LITE_MICRO_EXPECT_EQ(3, svdf->rank);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActRelu, svdf->activation);
  TF_LITE_MICRO_EXPECT(svdf->asymmetric_quantize_inputs);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(21, &data));
  const auto* tc = static_cast<const TfLiteTransposeConvParams*>(data);
  TF_LITE_MICRO_EXPECT_EQ(kTfLitePaddingValid, tc->padding);
  TF_LITE_MICRO_EXPECT_EQ(2, tc->stride_width);
  TF_LITE_MICRO_EXPECT_EQ(3, tc->stride_height);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActRelu6, tc->activation);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(22, &data));  // rank 0
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Parse(23, &data));  // TRANSPOSE_CONV carrying SVDFOptions
}

TF_LITE_MICRO_TEST(UnidirectionalSequenceLstm) {
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(24, &data));
  const auto* p = static_cast<const TfLiteUnidirectionalSequenceLSTMParams*>(data);
  TF_LITE_MICRO_EXPECT(p != nullptr);
  if (p == nullptr) continue;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActTanh, p->activation);
  TF_LITE_MICRO_EXPECT_EQ(10.0f, p->cell_clip);
  TF_LITE_MICRO_EXPECT_EQ(2.5f, p->proj_clip);
  TF_LITE_MICRO_EXPECT(p->time_major);
  TF_LITE_MICRO_EXPECT(p->asymmetric_quantize_inputs);
  TF_LITE_MICRO_EXPECT(p->diagonal_recurrent_tensors);
  // Without options: the schema's defaults.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(25, &data));
  p = static_cast<const TfLiteUnidirectionalSequenceLSTMParams*>(data);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteActNone, p->activation);
  TF_LITE_MICRO_EXPECT_EQ(0.0f, p->cell_clip);
  TF_LITE_MICRO_EXPECT(!p->time_major);
  TF_LITE_MICRO_EXPECT(!p->diagonal_recurrent_tensors);
}

TF_LITE_MICRO_TEST(OpsWithoutOptionsGetNull) {
  const void* data = &data;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Parse(14, &data));  // LOGISTIC
  TF_LITE_MICRO_EXPECT(data == nullptr);
  TF_LITE_MICRO_EXPECT_EQ(0u, g_pool_used);
  TF_LITE_MICRO_EXPECT_EQ(0u, micro_runtime::BuiltinOptionsSize(static_cast<int32_t>(tflite::BuiltinOperator::TANH)));
  TF_LITE_MICRO_EXPECT_EQ(sizeof(TfLiteConvParams),
                          micro_runtime::BuiltinOptionsSize(static_cast<int32_t>(tflite::BuiltinOperator::CONV_2D)));
}

// The parser's messages name the op with BuiltinOperatorName().
TF_LITE_MICRO_TEST(EveryParsedOpHasAName) {
  for (int32_t code = 0; code < 256; ++code) {
    if (micro_runtime::BuiltinOptionsSize(code) > 0) TF_LITE_MICRO_EXPECT(BuiltinOperatorName(code) != nullptr);
  }
}

TF_LITE_MICRO_TEST(OutOfMemoryFails) {
  const tflite::Model* model = micro_runtime::VerifyModel(g_options_model_data, g_options_model_data_size);
  TF_LITE_MICRO_EXPECT(model != nullptr);
  if (model == nullptr) continue;
  const tflite::Operator* op = model->subgraphs()->Get(0)->operators()->Get(0);
  const void* data = nullptr;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, micro_runtime::ParseBuiltinOptions(
                                            op, static_cast<int32_t>(tflite::BuiltinOperator::CONV_2D), 0,
                                            NoMemory, nullptr, &data));
}

TF_LITE_MICRO_TESTS_END
