// Shared drivers for kernel tests whose ops have the same test shape: the
// generated single-op cases of the filter ops (testdata/*_cases.h for
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED), int8 cases of the binary
// arithmetic ops (ADD, MUL) and the table-driven unary ops (LOGISTIC, TANH,
// int8 and int16), int16 tensors and the float32-only ops (EXP, LOG, SQRT).
// Header-only: the expectations need the test main of micro_test.h.
#ifndef MICRO_RUNTIME_TESTING_KERNEL_CASES_H_
#define MICRO_RUNTIME_TESTING_KERNEL_CASES_H_

#include <stdint.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/common.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_compare.h"
#include "micro_runtime/testing/test_helpers.h"

namespace kernel_cases {

template <typename T>
T* Mut(const T* p) {
  return const_cast<T*>(p);  // kernels only read inputs; tensors take non-const pointers
}

// ---- Filter ops: tensors {input, filter, bias, output} ----

// How a case without bias lists its inputs: bias index -1, or only 2 inputs.
enum class BiasForm { kPresent, kMinusOne, kAbsent };

inline const TfLiteIntArray* FilterOpInputs(BiasForm form) {
  static const int32_t with_bias[] = {3, 0, 1, 2};
  static const int32_t minus_one[] = {3, 0, 1, -1};
  static const int32_t two[] = {2, 0, 1};
  if (form == BiasForm::kPresent) return IntArrayFromInts(with_bias);
  return IntArrayFromInts(form == BiasForm::kMinusOne ? minus_one : two);
}

inline const TfLiteIntArray* FilterOpOutputs() {
  static const int32_t outputs[] = {1, 3};
  return IntArrayFromInts(outputs);
}

constexpr int kMaxCaseOutput = 160;
constexpr int kMaxCaseScales = 32;

// Output buffers of the current case (the tests run one case at a time).
inline float* CaseFloatOutput() {
  static float out[kMaxCaseOutput];
  return out;
}
inline int8_t* CaseInt8Output() {
  static int8_t out[kMaxCaseOutput];
  return out;
}
inline int16_t* CaseInt16Output() {
  static int16_t out[kMaxCaseOutput];
  return out;
}

// The case's filter scales as a TfLiteFloatArray (same layout: size, data).
inline const TfLiteFloatArray* CaseScales(const float* scales, int count) {
  static struct {
    int32_t size;
    float data[kMaxCaseScales];
  } storage;
  storage.size = count;
  for (int i = 0; i < count; ++i) storage.data[i] = scales[i];
  return reinterpret_cast<const TfLiteFloatArray*>(&storage);
}

// Runs the op on the 4 tensors and expects prepare and invoke to succeed.
inline void ExpectFilterOpRuns(const TfLiteRegistration& registration, TfLiteTensor* tensors,
                               BiasForm form, const void* params) {
  KernelRunner runner(registration, tensors, 4, FilterOpInputs(form), FilterOpOutputs(), params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
}

// Float case C (input, filter, bias, expected, ... from a testdata header):
// constant filter and bias; a case without bias lists it as `no_bias_form`.
template <class C>
void RunFloatFilterCase(const TfLiteRegistration& registration, const void* params,
                        BiasForm no_bias_form) {
  static_assert(C::output_size <= kMaxCaseOutput, "raise kMaxCaseOutput");
  float* out = CaseFloatOutput();
  TfLiteTensor tensors[4] = {
      CreateTensor(Mut(C::input), IntArrayFromInts(C::input_dims)),
      CreateTensor(Mut(C::filter), IntArrayFromInts(C::filter_dims), true),
      CreateTensor(Mut(C::bias), IntArrayFromInts(C::bias_dims), true),
      CreateTensor(out, IntArrayFromInts(C::output_dims)),
  };
  ExpectFilterOpRuns(registration, tensors, C::has_bias ? BiasForm::kPresent : no_bias_form, params);
  ExpectFloatsNear(C::expected, out, C::output_size);
}

// int8 case C: filter scales along `quantized_dimension` (a single scale is
// per-tensor, as in a model file); filter and bias constant or not. The
// output is pre-filled with 0x55 so unwritten elements show.
template <class C>
void RunInt8FilterCase(const TfLiteRegistration& registration, const void* params,
                       int quantized_dimension, bool constant_weights, BiasForm no_bias_form) {
  static_assert(C::output_size <= kMaxCaseOutput, "raise kMaxCaseOutput");
  static_assert(C::filter_scale_count <= kMaxCaseScales, "raise kMaxCaseScales");
  int8_t* out = CaseInt8Output();
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(Mut(C::input), IntArrayFromInts(C::input_dims), C::input_scale,
                            C::input_zero_point),
      CreatePerChannelQuantizedTensor(Mut(C::filter), IntArrayFromInts(C::filter_dims),
                                      CaseScales(C::filter_scales, C::filter_scale_count),
                                      quantized_dimension, constant_weights),
      CreateTensor(Mut(C::bias), IntArrayFromInts(C::bias_dims), constant_weights),
      CreateQuantizedTensor(out, IntArrayFromInts(C::output_dims), C::output_scale,
                            C::output_zero_point),
  };
  if (C::filter_scale_count == 1) tensors[1].params.scales = nullptr;
  for (int i = 0; i < C::output_size; ++i) out[i] = 0x55;
  ExpectFilterOpRuns(registration, tensors, C::has_bias ? BiasForm::kPresent : no_bias_form, params);
  ExpectIntsNear(C::expected, out, C::output_size);
}

// int16 (16x8) case C: int16 input and output (zero points 0), int8 filter
// (scales along `quantized_dimension`, one scale: per-tensor), constant bias
// of the case's type (int64 or int32). Expects TFLM's outputs exactly.
template <class C>
void RunInt16FilterCase(const TfLiteRegistration& registration, const void* params, int quantized_dimension,
                        BiasForm no_bias_form) {
  static_assert(C::output_size <= kMaxCaseOutput, "raise kMaxCaseOutput");
  static_assert(C::filter_scale_count <= kMaxCaseScales, "raise kMaxCaseScales");
  int16_t* out = CaseInt16Output();
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(Mut(C::input), IntArrayFromInts(C::input_dims), C::input_scale, C::input_zero_point),
      CreatePerChannelQuantizedTensor(Mut(C::filter), IntArrayFromInts(C::filter_dims),
                                      CaseScales(C::filter_scales, C::filter_scale_count), quantized_dimension,
                                      true),
      CreateTensor(Mut(C::bias), IntArrayFromInts(C::bias_dims), true),
      CreateQuantizedTensor(out, IntArrayFromInts(C::output_dims), C::output_scale, C::output_zero_point),
  };
  if (C::filter_scale_count == 1) tensors[1].params.scales = nullptr;
  for (int i = 0; i < C::output_size; ++i) out[i] = 0x5555;
  ExpectFilterOpRuns(registration, tensors, C::has_bias ? BiasForm::kPresent : no_bias_form, params);
  for (int i = 0; i < C::output_size; ++i) TF_LITE_MICRO_EXPECT_EQ(C::expected[i], out[i]);
}

// ---- Binary arithmetic ops (inputs 0, 1; output 2) ----

struct BinaryInt8Case {
  const int32_t* shape1;
  const int32_t* shape2;
  const int32_t* shape_out;
  float scale1, scale2, scale_out;
  int zp1, zp2, zp_out;
  TfLiteFusedActivation act;
};

// Runs the op (params: TfLiteArithmeticParams{c.act}) and expects `expected`
// exactly; at most 16 output elements.
inline void ExpectBinaryInt8(const TfLiteRegistration& registration, const BinaryInt8Case& c,
                             int8_t* in1, int8_t* in2, const int8_t* expected) {
  int8_t output[16] = {0};
  const TfLiteIntArray* out_dims = IntArrayFromInts(c.shape_out);
  const TfLiteArithmeticParams params = {c.act};
  TF_LITE_MICRO_EXPECT_EQ(
      kTfLiteOk,
      RunBinaryKernel(registration, CreateQuantizedTensor(in1, IntArrayFromInts(c.shape1), c.scale1, c.zp1),
                      CreateQuantizedTensor(in2, IntArrayFromInts(c.shape2), c.scale2, c.zp2),
                      CreateQuantizedTensor(output, out_dims, c.scale_out, c.zp_out), &params));
  for (int32_t i = 0; i < ElementCount(out_dims); ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

// ---- Elementwise unary ops with int8 tables (LOGISTIC, TANH) ----

// float32 run over `shape` (<= 16 elements), each output within `tolerance`.
inline void ExpectUnaryFloats(const TfLiteRegistration& registration, const int32_t* shape,
                              float* input, const float* expected, float tolerance) {
  float output[16] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(registration, CreateTensor(input, dims),
                                                    CreateTensor(output, dims)));
  for (int32_t i = 0; i < ElementCount(dims); ++i) {
    TF_LITE_MICRO_EXPECT_NEAR(expected[i], output[i], tolerance);
  }
}

// All 256 int8 inputs through the op, against `expected` exactly.
inline void ExpectEveryInt8Input(const TfLiteRegistration& registration, float in_scale, int in_zp,
                                 float out_scale, int out_zp, const int8_t* expected) {
  static int8_t input[256];
  static int8_t output[256];
  for (int i = 0; i < 256; ++i) input[i] = static_cast<int8_t>(i - 128);
  const int32_t shape[] = {1, 256};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          RunUnaryKernel(registration, CreateQuantizedTensor(input, dims, in_scale, in_zp),
                                         CreateQuantizedTensor(output, dims, out_scale, out_zp)));
  for (int i = 0; i < 256; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

// ---- int16 LOGISTIC / TANH (TFLM's table interpolation, output 2^-15) ----

// Inputs of every SigmoidInt16Case: both saturations, around 0 and +-1.0 at
// scale 2^-12 (4096).
constexpr int kSigmoidInt16Points = 14;
constexpr int16_t kSigmoidInt16Inputs[kSigmoidInt16Points] = {-32768, -20000, -4096, -1000, -1,    0,     1,
                                                              77,     1000,   4095,  4096,  12345, 20000, 32767};

// TFLM's outputs at one input scale: for kSigmoidInt16Inputs, and over all
// 65,536 int16 inputs the sum of the outputs and of input * output.
struct SigmoidInt16Case {
  float in_scale;
  int16_t expected[kSigmoidInt16Points];
  int64_t sum;
  int64_t weighted_sum;
};

// Runs the points, then every int16 input in 256 invokes of 256 elements of
// one prepared node, against the case.
inline void ExpectSigmoidInt16Case(const TfLiteRegistration& registration, const SigmoidInt16Case& c) {
  static int16_t input[256];
  static int16_t output[256];
  for (int i = 0; i < kSigmoidInt16Points; ++i) input[i] = kSigmoidInt16Inputs[i];
  const int32_t points[] = {1, kSigmoidInt16Points};
  const TfLiteIntArray* point_dims = IntArrayFromInts(points);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(registration, CreateQuantizedTensor(input, point_dims, c.in_scale, 0),
                                                    CreateQuantizedTensor(output, point_dims, 1.0f / 32768, 0)));
  for (int i = 0; i < kSigmoidInt16Points; ++i) TF_LITE_MICRO_EXPECT_EQ(c.expected[i], output[i]);
  const int32_t block[] = {1, 256};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(block), c.in_scale, 0),
                            CreateQuantizedTensor(output, IntArrayFromInts(block), 1.0f / 32768, 0)};
  const int32_t in[] = {1, 0};
  const int32_t out[] = {1, 1};
  KernelRunner runner(registration, tensors, 2, IntArrayFromInts(in), IntArrayFromInts(out), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  int64_t sum = 0;
  int64_t weighted_sum = 0;
  for (int32_t start = -32768; start < 32768; start += 256) {
    for (int i = 0; i < 256; ++i) input[i] = static_cast<int16_t>(start + i);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
    for (int i = 0; i < 256; ++i) {
      sum += output[i];
      weighted_sum += static_cast<int64_t>(input[i]) * output[i];
    }
  }
  TF_LITE_MICRO_EXPECT_EQ(c.sum, sum);
  TF_LITE_MICRO_EXPECT_EQ(c.weighted_sum, weighted_sum);
}

// The baseline quantization runs; refused: an output scale other than 2^-15,
// a zero point, input scales outside TFLM's multiplier range (3.0, 1e-15).
inline void ExpectSigmoidInt16Refusals(const TfLiteRegistration& registration) {
  const int32_t shape[] = {1, 2};
  int16_t input[2] = {0};
  int16_t output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  const float in_scales[] = {0.001f, 0.001f, 0.001f, 0.001f, 3.0f, 1e-15f};
  const int in_zero_points[] = {0, 0, 0, 3, 0, 0};
  const float out_scales[] = {1.0f / 32768, 1.0f / 16384, 1.0f / 32768, 1.0f / 32768, 1.0f / 32768, 1.0f / 32768};
  const int out_zero_points[] = {0, 0, 5, 0, 0, 0};
  for (int i = 0; i < 6; ++i) {
    const TfLiteTensor in = CreateQuantizedTensor(input, dims, in_scales[i], in_zero_points[i]);
    const TfLiteTensor out = CreateQuantizedTensor(output, dims, out_scales[i], out_zero_points[i]);
    TF_LITE_MICRO_EXPECT_EQ(i == 0 ? kTfLiteOk : kTfLiteError, RunUnaryKernel(registration, in, out));
  }
}

// ---- int16 and float32-only ops ----

// Per-tensor quantized int16 tensor over existing data.
inline TfLiteTensor Int16Tensor(int16_t* data, const int32_t* shape, float scale, int zero_point = 0) {
  TfLiteTensor t = CreateTensor(data, IntArrayFromInts(shape));
  t.params.scale = scale;
  t.params.zero_point = zero_point;
  return t;
}

// A float32-only op (EXP, LOG, SQRT) on 5 values, each within 4e-7 relative
// of `expected` (a few float ulps: libm results differ in the last bit between
// C libraries); then int8 tensors and a shape mismatch must fail in prepare.
inline void ExpectFloatOnlyUnary(const TfLiteRegistration& registration, float* input, const float* expected) {
  const int32_t shape[] = {2, 1, 5};
  float output[5] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(registration, CreateTensor(input, dims), CreateTensor(output, dims)));
  for (int i = 0; i < 5; ++i) {
    const float magnitude = expected[i] < 0 ? -expected[i] : expected[i];
    TF_LITE_MICRO_EXPECT_NEAR(expected[i], output[i], 4e-7f * (magnitude > 1.0f ? magnitude : 1.0f));
  }
  const int32_t two[] = {1, 2};
  const int32_t three[] = {1, 3};
  int8_t q[3] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(registration, CreateQuantizedTensor(q, IntArrayFromInts(two), 0.1f, 0),
                                                       CreateQuantizedTensor(q, IntArrayFromInts(two), 0.1f, 0)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(registration, CreateTensor(output, IntArrayFromInts(two)),
                                                       CreateTensor(output, IntArrayFromInts(three))));
}

}  // namespace kernel_cases

#endif  // MICRO_RUNTIME_TESTING_KERNEL_CASES_H_
