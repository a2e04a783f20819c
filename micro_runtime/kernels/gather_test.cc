// GATHER kernel tests: expected outputs are the input's slices picked by hand.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// tensors[0] input, tensors[1] positions, tensors[2] output: Prepare then Invoke.
TfLiteStatus RunGather(TfLiteTensor* tensors, int32_t axis, int32_t batch_dims = 0) {
  const TfLiteGatherParams params = {axis, batch_dims};
  return RunKernelOnTensors(Register_GATHER(), tensors, 2, &params);
}

// Prepare only (the status of InitAndPrepare).
TfLiteStatus PrepareGather(TfLiteTensor* tensors, int32_t axis, int32_t batch_dims = 0) {
  const TfLiteGatherParams params = {axis, batch_dims};
  const int32_t inputs[] = {2, 0, 1};
  const int32_t outputs[] = {1, 2};
  KernelRunner runner(Register_GATHER(), tensors, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs), &params);
  return runner.InitAndPrepare();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatRowsAlongAxis0) {
  const int32_t in_shape[] = {2, 3, 2};
  const int32_t pos_shape[] = {1, 3};
  const int32_t out_shape[] = {2, 3, 2};
  float input[] = {1, 2, 3, 4, 5, 6};
  int32_t positions[] = {2, 0, 2};
  float output[6] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(positions, IntArrayFromInts(pos_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, 0));
  const float expected[] = {5, 6, 1, 2, 5, 6};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8TwoDimensionalPositionsAlongTheLastAxis) {
  // input [2, 3], positions [2, 2], axis 1 (and -1): output [2, 2, 2].
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t pos_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {3, 2, 2, 2};
  int8_t input[] = {1, 2, 3, 4, 5, 6};
  int32_t positions[] = {2, 0, 1, 1};
  const int32_t axes[] = {1, -1};
  for (int32_t axis : axes) {
    int8_t output[8] = {};
    TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.5f, -3),
                              CreateTensor(positions, IntArrayFromInts(pos_shape)),
                              CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.5f, -3)};
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, axis));
    const int8_t expected[] = {3, 1, 2, 2, 6, 4, 5, 5};
    for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
  }
}

TF_LITE_MICRO_TEST(BatchDims) {
  // input [2, 3], positions [2, 2], axis 1, batch_dims 1 (and -1): each row
  // gathers with its own positions: output [2, 2].
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t pos_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {2, 2, 2};
  int32_t input[] = {10, 11, 12, 20, 21, 22};
  int32_t positions[] = {0, 2, 1, 1};
  const int32_t batch_dims[] = {1, -1};
  for (int32_t b : batch_dims) {
    int32_t output[4] = {};
    TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                              CreateTensor(positions, IntArrayFromInts(pos_shape)),
                              CreateTensor(output, IntArrayFromInts(out_shape))};
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, 1, b));
    const int32_t expected[] = {10, 12, 21, 21};
    for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
  }
}

TF_LITE_MICRO_TEST(MiddleAxisWithOuterAndInnerSlices) {
  // input [2, 3, 2], positions {1, 0}, axis 1: output [2, 2, 2].
  const int32_t in_shape[] = {3, 2, 3, 2};
  const int32_t pos_shape[] = {1, 2};
  const int32_t out_shape[] = {3, 2, 2, 2};
  int16_t input[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  int64_t positions[] = {1, 0};
  int16_t output[8] = {};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.01f, 0),
                            CreateTensor(positions, IntArrayFromInts(pos_shape)),
                            CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.01f, 0)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, 1));
  const int16_t expected[] = {2, 3, 0, 1, 8, 9, 6, 7};
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(OtherTypes) {
  const int32_t in_shape[] = {1, 4};
  const int32_t pos_shape[] = {1, 3};
  const int32_t out_shape[] = {1, 3};
  int16_t positions16[] = {3, 3, 1};
  {
    int64_t input[] = {-5, 1ll << 40, 7, -(1ll << 50)};
    int64_t output[3] = {};
    TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                              CreateTensor(positions16, IntArrayFromInts(pos_shape)),
                              CreateTensor(output, IntArrayFromInts(out_shape))};
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, 0));
    TF_LITE_MICRO_EXPECT(output[0] == -(1ll << 50) && output[1] == -(1ll << 50) && output[2] == (1ll << 40));
  }
  {
    bool input[] = {true, false, false, true};
    bool output[3] = {};
    TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                              CreateTensor(positions16, IntArrayFromInts(pos_shape)),
                              CreateTensor(output, IntArrayFromInts(out_shape))};
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, 0));
    TF_LITE_MICRO_EXPECT(output[0] && output[1] && !output[2]);
  }
}

TF_LITE_MICRO_TEST(PositionsOutsideTheAxisAreRefused) {
  const int32_t in_shape[] = {1, 3};
  const int32_t pos_shape[] = {1, 2};
  const int32_t out_shape[] = {1, 2};
  float input[] = {1, 2, 3};
  float output[2] = {};
  // Variable positions: checked at Invoke, before anything is read.
  int32_t positions[] = {0, 3};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(positions, IntArrayFromInts(pos_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareGather(tensors, 0));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunGather(tensors, 0));
  positions[1] = -1;  // TFLM does not count negative positions from the end
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunGather(tensors, 0));
  positions[1] = 2;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, 0));
  TF_LITE_MICRO_EXPECT_EQ(3.0f, output[1]);
  // Constant positions: refused in Prepare.
  tensors[1].is_constant = true;
  positions[0] = 5;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 0));
  // An int64 position that an int32 cast would wrap into range.
  int64_t wide[] = {0, (1ll << 32) + 1};
  tensors[1] = CreateTensor(wide, IntArrayFromInts(pos_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunGather(tensors, 0));
}

TF_LITE_MICRO_TEST(EmptyPositions) {
  const int32_t in_shape[] = {2, 3, 2};
  const int32_t pos_shape[] = {1, 0};
  const int32_t out_shape[] = {2, 0, 2};
  float input[6] = {};
  int32_t positions[1] = {99};  // never read
  float output[1] = {-7};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(positions, IntArrayFromInts(pos_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunGather(tensors, 0));
  TF_LITE_MICRO_EXPECT_EQ(-7.0f, output[0]);
}

TF_LITE_MICRO_TEST(BadModelsFailInPrepare) {
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t pos_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {3, 2, 2, 2};
  const int32_t wrong_shape[] = {3, 2, 2, 1};
  int8_t input[6] = {};
  int32_t positions[4] = {};
  int8_t output[8] = {};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.5f, 1),
                            CreateTensor(positions, IntArrayFromInts(pos_shape)),
                            CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.5f, 1)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareGather(tensors, 1));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 2));      // axis outside [-2, 2)
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, -3));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 0, 1));   // batch_dims above the axis
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 1, 3));   // batch_dims above the positions' rank
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 1, -3));
  tensors[2].params.zero_point = 2;  // a copy cannot requantize
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 1));
  tensors[2].params.zero_point = 1;
  tensors[2].dims = IntArrayFromInts(wrong_shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 1));
  tensors[2].dims = IntArrayFromInts(out_shape);
  float float_positions[4] = {};
  tensors[1] = CreateTensor(float_positions, IntArrayFromInts(pos_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 1));
  // Batch dimensions of input and positions must agree.
  const int32_t other_pos_shape[] = {2, 3, 1};
  const int32_t other_out_shape[] = {2, 2, 1};
  tensors[1] = CreateTensor(positions, IntArrayFromInts(other_pos_shape));
  tensors[2].dims = IntArrayFromInts(other_out_shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareGather(tensors, 1, 1));
  // No options.
  const int32_t inputs[] = {2, 0, 1};
  const int32_t outputs[] = {1, 2};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernel(Register_GATHER(), tensors, 3, IntArrayFromInts(inputs),
                                                  IntArrayFromInts(outputs), nullptr));
}

TF_LITE_MICRO_TESTS_END
