// AVERAGE_POOL_2D / MAX_POOL_2D kernel tests. Cases and expected outputs come
// from testdata/pooling_cases.h (TFLM's reference interpreter on the same
// single-op models, see micro_runtime/testing/gen_kernel_cases.py), int8 and
// int16; the rounding and int16 extreme tests are hand-computed.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/pooling_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_compare.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace pooling_cases;  // NOLINT

constexpr int kMaxOutput = 32;
float g_float_out[kMaxOutput];
int8_t g_int8_out[kMaxOutput];
int16_t g_int16_out[kMaxOutput];

template <typename T>
T* Mut(const T* p) {
  return const_cast<T*>(p);  // kernels only read inputs; tensors take non-const pointers
}

const int32_t kInputs[] = {1, 0};
const int32_t kOutputs[] = {1, 1};

template <class C>
TfLitePoolParams Params() {
  TfLitePoolParams p;
  p.padding = C::padding;
  p.stride_width = C::stride_w;
  p.stride_height = C::stride_h;
  p.filter_width = C::filter_w;
  p.filter_height = C::filter_h;
  p.activation = C::activation;
  return p;
}

template <class C>
void RunFloat(const TfLiteRegistration& reg) {
  TfLiteTensor tensors[2] = {CreateTensor(Mut(C::input), IntArrayFromInts(C::input_dims)),
                             CreateTensor(g_float_out, IntArrayFromInts(C::output_dims))};
  TfLitePoolParams params = Params<C>();
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectFloatsNear(C::expected, g_float_out, C::output_size);
}

// int8 and int16 cases (T is the case's type; `out` a buffer of that type).
template <class C, typename T>
void RunQuantized(const TfLiteRegistration& reg, T* out) {
  TfLiteTensor tensors[2] = {
      CreateQuantizedTensor(Mut(C::input), IntArrayFromInts(C::input_dims), C::input_scale,
                            C::input_zero_point),
      CreateQuantizedTensor(out, IntArrayFromInts(C::output_dims), C::output_scale, C::output_zero_point)};
  TfLitePoolParams params = Params<C>();
  for (int i = 0; i < C::output_size; ++i) out[i] = 0x55;
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectIntsNear(C::expected, out, C::output_size);
}

template <class C>
void RunInt8(const TfLiteRegistration& reg) {
  RunQuantized<C>(reg, g_int8_out);
}

template <class C>
void RunInt16(const TfLiteRegistration& reg) {
  RunQuantized<C>(reg, g_int16_out);
}

// Prepare and Invoke of AVERAGE_POOL_2D or MAX_POOL_2D on t[0] -> t[1], both expected to succeed.
void ExpectRuns(const TfLiteRegistration& reg, TfLiteTensor* t, const TfLitePoolParams& params) {
  KernelRunner runner(reg, t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
}

// Prepare only (it reads shapes, not data): the status of AVERAGE_POOL_2D or MAX_POOL_2D with `params` on
// a float input of shape `in` and output of shape `out` (4-D each).
TfLiteStatus PrepareFloat(const TfLiteRegistration& reg, const int32_t* in, const int32_t* out,
                          TfLitePoolParams params) {
  static float data[1];
  TfLiteTensor t[2] = {CreateTensor(data, IntArrayFromInts(in)), CreateTensor(data, IntArrayFromInts(out))};
  KernelRunner runner(reg, t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  return runner.InitAndPrepare();
}

TfLiteStatus PrepareInt8(const TfLiteRegistration& reg, const int32_t* in, const int32_t* out,
                         TfLitePoolParams params) {
  static int8_t data[1];
  TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(in), 0.5f, 0),
                       CreateQuantizedTensor(data, IntArrayFromInts(out), 0.5f, 0)};
  KernelRunner runner(reg, t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  return runner.InitAndPrepare();
}

// Both ops (Prepare only, with PrepareFloat or PrepareInt8) accept `allowed` and refuse `refused` (input and
// output shapes of each).
void ExpectLimit(TfLiteStatus (*prepare)(const TfLiteRegistration&, const int32_t*, const int32_t*, TfLitePoolParams),
                 const int32_t* allowed_in, const int32_t* allowed_out, const int32_t* refused_in,
                 const int32_t* refused_out, TfLitePoolParams params) {
  const TfLiteRegistration ops[] = {Register_AVERAGE_POOL_2D(), Register_MAX_POOL_2D()};
  for (const TfLiteRegistration& op : ops) {
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, prepare(op, allowed_in, allowed_out, params));
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, prepare(op, refused_in, refused_out, params));
  }
}

}  // namespace

namespace {

// Random int8 average pools against the definition (windows clipped to the input, round half away
// from zero, clamp): the DSP cores' four-channel form (channels a multiple of 4, up to 256 taps per
// window: KWS's 25x5 global pool, a 16x16 window of -128s, the halfword lanes' extreme) and the loop
// it leaves the rest to (272 taps; 6 channels), SAME padding with border windows, a ReLU clamp.
int AveragePoolMismatches(int h, int w, int ch, int fh, int fw, int stride, bool same, int fill, bool relu) {
  static int8_t input[17 * 16 * 4];  // the largest shape below
  static int8_t out[17 * 16 * 4];
  uint32_t seed = 12345u + static_cast<uint32_t>(h * 131 + w * 17 + ch * 7 + fh);
  for (int i = 0; i < h * w * ch; ++i) {
    seed = seed * 1664525u + 1013904223u;
    const int r = static_cast<int>(seed >> 24);
    input[i] = static_cast<int8_t>(fill != 0 ? fill : (r < 32 ? -128 : (r > 224 ? 127 : r - 128)));
  }
  const int oh = same ? (h + stride - 1) / stride : (h - fh) / stride + 1;
  const int ow = same ? (w + stride - 1) / stride : (w - fw) / stride + 1;
  const int32_t in_dims[] = {4, 1, h, w, ch};
  const int32_t out_dims[] = {4, 1, oh, ow, ch};
  const int32_t zp = 3;
  TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, zp),
                       CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, zp)};
  const TfLitePoolParams params = {same ? kTfLitePaddingSame : kTfLitePaddingValid, stride, stride, fw, fh,
                                   relu ? kTfLiteActRelu : kTfLiteActNone};
  KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                      &params);
  if (runner.InitAndPrepare() != kTfLiteOk || runner.Invoke() != kTfLiteOk) return -1;
  const int pad_h = same && (oh - 1) * stride + fh > h ? ((oh - 1) * stride + fh - h) / 2 : 0;
  const int pad_w = same && (ow - 1) * stride + fw > w ? ((ow - 1) * stride + fw - w) / 2 : 0;
  int mismatches = 0;
  for (int oy = 0; oy < oh; ++oy) {
    for (int ox = 0; ox < ow; ++ox) {
      for (int c = 0; c < ch; ++c) {
        int32_t sum = 0, count = 0;
        for (int y = oy * stride - pad_h; y < oy * stride - pad_h + fh; ++y) {
          for (int x = ox * stride - pad_w; x < ox * stride - pad_w + fw; ++x) {
            if (y < 0 || y >= h || x < 0 || x >= w) continue;
            sum += input[(y * w + x) * ch + c];
            ++count;
          }
        }
        int32_t v = count == 0 ? 0 : (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count);
        if (relu && v < zp) v = zp;
        if (v < -128) v = -128;
        if (v > 127) v = 127;
        if (out[(oy * ow + ox) * ch + c] != v) ++mismatches;
      }
    }
  }
  return mismatches;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(AverageFloatSame) { RunFloat<AvgFloatSame>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageFloatValidRelu6) { RunFloat<AvgFloatValidRelu6>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxFloatSameRelu) { RunFloat<MaxFloatSameRelu>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt8Same) { RunInt8<AvgInt8Same>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt8ValidRelu) { RunInt8<AvgInt8ValidRelu>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt8Same) { RunInt8<MaxInt8Same>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt8ValidRelu6) { RunInt8<MaxInt8ValidRelu6>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt16Same) { RunInt16<AvgInt16Same>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt16ValidRelu6) { RunInt16<AvgInt16ValidRelu6>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt16SameRelu) { RunInt16<MaxInt16SameRelu>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt16ValidRelu6) { RunInt16<MaxInt16ValidRelu6>(Register_MAX_POOL_2D()); }

TF_LITE_MICRO_TEST(Int16ExtremesRoundHalfAwayFromZero) {
  // 1x2 windows per channel at the int16 extremes: 32767 + 32767 -> 32767,
  // -32768 - 32767 = -65535 / 2 = -32767.5 -> -32768, -32768 + 32767 = -1 / 2
  // -> -1, 1 + 0 -> 1 (0.5 away from zero); the maxima 32767, -32767, 32767, 1.
  int16_t input[] = {32767, -32768, -32768, 1, 32767, -32767, 32767, 0};
  int16_t out[4];
  const int32_t in_dims[] = {4, 1, 1, 2, 4};
  const int32_t out_dims[] = {4, 1, 1, 1, 4};
  TfLitePoolParams params = {kTfLitePaddingValid, 1, 1, 2, 1, kTfLiteActNone};
  TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                       CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
  ExpectRuns(Register_AVERAGE_POOL_2D(), t, params);
  const int16_t averages[] = {32767, -32768, -1, 1};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(averages[i], out[i]);
  ExpectRuns(Register_MAX_POOL_2D(), t, params);
  const int16_t maxima[] = {32767, -32767, 32767, 1};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(maxima[i], out[i]);
}

TF_LITE_MICRO_TEST(Int16RefusalsAndTheSumLimit) {
  int16_t data[4] = {0};
  const int32_t in_dims[] = {4, 1, 2, 2, 1};
  const int32_t out_dims[] = {4, 1, 1, 1, 1};
  TfLitePoolParams params = {kTfLitePaddingValid, 2, 2, 2, 2, kTfLiteActNone};
  {  // int16 needs zero point 0
    TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(in_dims), 0.5f, 3),
                         CreateQuantizedTensor(data, IntArrayFromInts(out_dims), 0.5f, 3)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  {  // and the input's scale
    TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(data, IntArrayFromInts(out_dims), 0.25f, 0)};
    KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  // A 256x256 window sums 65,536 int16 taps, past the int32 sum (prepare
  // reads no data, so the tensors' shapes alone are enough): refused for
  // AVERAGE_POOL_2D, fine for MAX_POOL_2D; 256x255 taps fit.
  const int32_t big_dims[] = {4, 1, 256, 256, 1};
  for (int width = 255; width <= 256; ++width) {
    TfLitePoolParams window = {kTfLitePaddingValid, 1, 1, width, 256, kTfLiteActNone};
    const int32_t big_out_dims[] = {4, 1, 1, 257 - width, 1};
    TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(big_dims), 0.5f, 0),
                         CreateQuantizedTensor(data, IntArrayFromInts(big_out_dims), 0.5f, 0)};
    KernelRunner average(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                         &window);
    TF_LITE_MICRO_EXPECT_EQ(width == 256 ? kTfLiteError : kTfLiteOk, average.InitAndPrepare());
  }
  TfLitePoolParams whole = {kTfLitePaddingValid, 1, 1, 256, 256, kTfLiteActNone};
  TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(big_dims), 0.5f, 0),
                       CreateQuantizedTensor(data, IntArrayFromInts(out_dims), 0.5f, 0)};
  KernelRunner max(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &whole);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, max.InitAndPrepare());
}

TF_LITE_MICRO_TEST(HugeSamePaddedWindowIsRefusedInPrepare) {
  // The fuzzer's slow input: a 256x256 SAME-padded window at stride 1 over a 256x256 input sums up to
  // 65,536 taps for each of the 65,536 outputs, 2.4 x 10^9 taps per Invoke (seconds on host, minutes on a
  // board). Prepare refuses it for both ops and every type that the int32 sum alone would allow.
  const int32_t dims[] = {4, 1, 256, 256, 1};
  const TfLitePoolParams window = {kTfLitePaddingSame, 1, 1, 256, 256, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareFloat(Register_AVERAGE_POOL_2D(), dims, dims, window));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareFloat(Register_MAX_POOL_2D(), dims, dims, window));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareInt8(Register_AVERAGE_POOL_2D(), dims, dims, window));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareInt8(Register_MAX_POOL_2D(), dims, dims, window));
  // A window far larger than the input is clipped to it: the same work, refused the same way.
  const TfLitePoolParams huge = {kTfLitePaddingSame, 1, 1, 1 << 30, 1 << 30, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareFloat(Register_AVERAGE_POOL_2D(), dims, dims, huge));
}

TF_LITE_MICRO_TEST(WorkLimitIsTheTapsOfTheClippedWindows) {
  // The limit is 2^24 = 16,777,216 taps per Invoke. A global pool over [1, 64, 64, C] visits 4096 C taps:
  // C = 4096 is exactly the limit, C = 4097 one channel past it.
  const TfLitePoolParams global = {kTfLitePaddingValid, 1, 1, 64, 64, kTfLiteActNone};
  const int32_t at_limit[] = {4, 1, 64, 64, 4096};
  const int32_t at_limit_out[] = {4, 1, 1, 1, 4096};
  const int32_t past[] = {4, 1, 64, 64, 4097};
  const int32_t past_out[] = {4, 1, 1, 1, 4097};
  ExpectLimit(PrepareFloat, at_limit, at_limit_out, past, past_out, global);
  // SAME padding: taps at the edges are clipped, not counted. A 5x5 window over 9 rows covers
  // 3+4+5+5+5+5+5+4+3 = 39 rows in all (not 9 x 5 = 45), so 39 x 39 = 1521 taps per channel:
  // 11,030 channels take 16,776,630 taps (allowed), 11,031 take 16,778,151 (refused).
  const TfLitePoolParams same5 = {kTfLitePaddingSame, 1, 1, 5, 5, kTfLiteActNone};
  const int32_t allowed[] = {4, 1, 9, 9, 11030};
  const int32_t refused[] = {4, 1, 9, 9, 11031};
  ExpectLimit(PrepareInt8, allowed, allowed, refused, refused, same5);
  // An empty output does no work, however large the window (the interpreter skips the op).
  const int32_t empty[] = {4, 1, 256, 256, 0};
  const TfLitePoolParams window = {kTfLitePaddingSame, 1, 1, 256, 256, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareFloat(Register_MAX_POOL_2D(), empty, empty, window));
}

TF_LITE_MICRO_TEST(LargeRealPoolsAreAllowed) {
  // The largest pools of ImageNet-class models are far below the limit: ResNet's 3x3 stride-2 SAME max pool
  // on [1, 112, 112, 64] (1.8 M taps), MobileNet's 7x7 global average pool over 1024 channels (50 K taps),
  // a 2x2 pool over a 224x224x64 image (3.2 M taps).
  const int32_t resnet_in[] = {4, 1, 112, 112, 64};
  const int32_t resnet_out[] = {4, 1, 56, 56, 64};
  const TfLitePoolParams resnet = {kTfLitePaddingSame, 2, 2, 3, 3, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8(Register_MAX_POOL_2D(), resnet_in, resnet_out, resnet));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareFloat(Register_MAX_POOL_2D(), resnet_in, resnet_out, resnet));
  const int32_t mobilenet_in[] = {4, 1, 7, 7, 1024};
  const int32_t mobilenet_out[] = {4, 1, 1, 1, 1024};
  const TfLitePoolParams global = {kTfLitePaddingValid, 1, 1, 7, 7, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8(Register_AVERAGE_POOL_2D(), mobilenet_in, mobilenet_out, global));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareFloat(Register_AVERAGE_POOL_2D(), mobilenet_in, mobilenet_out, global));
  const int32_t image_in[] = {4, 1, 224, 224, 64};
  const int32_t image_out[] = {4, 1, 112, 112, 64};
  const TfLitePoolParams halve = {kTfLitePaddingValid, 2, 2, 2, 2, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareFloat(Register_AVERAGE_POOL_2D(), image_in, image_out, halve));

  // And one that runs: global average and max pools over a 40x40x4 int8 input (1,600 taps per window).
  static int8_t input[40 * 40 * 4];
  int32_t sum[4] = {0, 0, 0, 0};
  int32_t max[4] = {-128, -128, -128, -128};
  for (int i = 0; i < 40 * 40 * 4; ++i) {
    input[i] = static_cast<int8_t>((i * 37) % 251 - 125);
    sum[i % 4] += input[i];
    if (input[i] > max[i % 4]) max[i % 4] = input[i];
  }
  const int32_t in_dims[] = {4, 1, 40, 40, 4};
  const int32_t out_dims[] = {4, 1, 1, 1, 4};
  const TfLitePoolParams whole = {kTfLitePaddingValid, 1, 1, 40, 40, kTfLiteActNone};
  int8_t out[4];
  TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                       CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
  ExpectRuns(Register_AVERAGE_POOL_2D(), t, whole);
  for (int c = 0; c < 4; ++c) {  // round half away from zero, like the kernel
    const int32_t expected = sum[c] > 0 ? (sum[c] + 800) / 1600 : (sum[c] - 800) / 1600;
    TF_LITE_MICRO_EXPECT_EQ(expected, static_cast<int32_t>(out[c]));
  }
  ExpectRuns(Register_MAX_POOL_2D(), t, whole);
  for (int c = 0; c < 4; ++c) TF_LITE_MICRO_EXPECT_EQ(max[c], static_cast<int32_t>(out[c]));
}

TF_LITE_MICRO_TEST(AverageInt8RoundsHalfAwayFromZero) {
  // One 1x2 window per channel: sums 3, -3, 1, -1 over 2 taps.
  // 1.5 -> 2, -1.5 -> -2, 0.5 -> 1, -0.5 -> -1.
  int8_t input[] = {1, -1, 0, 0, 2, -2, 1, -1};
  int8_t out[4];
  const int32_t in_dims[] = {4, 1, 1, 2, 4};
  const int32_t out_dims[] = {4, 1, 1, 1, 4};
  TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                       CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
  TfLitePoolParams params = {kTfLitePaddingValid, 1, 1, 2, 1, kTfLiteActNone};
  KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                      IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(out[0]));
  TF_LITE_MICRO_EXPECT_EQ(-2, static_cast<int>(out[1]));
  TF_LITE_MICRO_EXPECT_EQ(1, static_cast<int>(out[2]));
  TF_LITE_MICRO_EXPECT_EQ(-1, static_cast<int>(out[3]));
}

TF_LITE_MICRO_TEST(AverageInt8PoolsMatchTheDefinition) {
  // {h, w, channels, fh, fw, stride, same, fill, relu}
  const int shapes[][9] = {{25, 5, 8, 25, 5, 1, 0, 0, 0},   {16, 16, 4, 16, 16, 1, 0, -128, 0},
                           {16, 16, 4, 16, 16, 1, 0, 127, 1}, {17, 16, 4, 17, 16, 1, 0, 0, 0},
                           {7, 9, 8, 3, 3, 2, 1, 0, 1},       {6, 5, 6, 3, 3, 1, 1, 0, 0},
                           {5, 7, 12, 2, 3, 1, 0, 0, 0}};
  for (const auto& s : shapes) {
    const int mismatches = AveragePoolMismatches(s[0], s[1], s[2], s[3], s[4], s[5], s[6] != 0, s[7], s[8] != 0);
    if (mismatches != 0) {
      MicroPrintf("  %dx%dx%d window %dx%d stride %d same %d fill %d relu %d", s[0], s[1], s[2], s[3], s[4], s[5],
                  s[6], s[7], s[8]);
    }
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(RejectsBadTypesAndShapes) {
  int8_t input[8] = {0};
  int8_t out[4];
  int32_t input32[8] = {0};
  int32_t out32[4];
  const int32_t in_dims[] = {4, 1, 2, 2, 2};
  const int32_t out_dims[] = {4, 1, 1, 1, 2};
  const int32_t bad_out_dims[] = {4, 1, 1, 2, 2};
  TfLitePoolParams params = {kTfLitePaddingValid, 2, 2, 2, 2, kTfLiteActNone};
  {
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.25f, 0)};
    KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // requantizing is not pooling
  }
  {
    TfLiteTensor t[2] = {CreateTensor(input32, IntArrayFromInts(in_dims)),
                         CreateTensor(out32, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // int32 unsupported
  }
  {
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(bad_out_dims), 0.5f, 0)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // wrong output width
  }
  {
    TfLitePoolParams no_filter = {kTfLitePaddingValid, 1, 1, 0, 2, kTfLiteActNone};
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &no_filter);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // zero filter width
  }
  {
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());  // the valid baseline
  }
}

TF_LITE_MICRO_TESTS_END
