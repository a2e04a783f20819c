// Runs the hello_world sine model: y = sin(x) approximated by three
// FULLY_CONNECTED layers. Works with the float model and with the int8 model
// (quantizing x and dequantizing y with the tensors' own parameters), the
// way an application would wrap a model it ships.
#ifndef MICRO_RUNTIME_EXAMPLES_HELLO_WORLD_SINE_PREDICTOR_H_
#define MICRO_RUNTIME_EXAMPLES_HELLO_WORLD_SINE_PREDICTOR_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_op_resolver.h"

class SinePredictor {
 public:
  // `arena` must stay valid as long as the predictor.
  SinePredictor(const unsigned char* model, size_t model_size, uint8_t* arena, size_t arena_size);

  // Registers the one op the model needs and allocates its tensors; logs the
  // reason and returns kTfLiteError if the model is not a [1,1] -> [1,1]
  // float32 or int8 model.
  TfLiteStatus Init();

  // y = model(x). Requires a successful Init().
  TfLiteStatus Predict(float x, float* y);

  MicroInterpreter& interpreter() { return interpreter_; }

 private:
  MicroMutableOpResolver<1> resolver_;  // constructed before interpreter_, which keeps a reference
  MicroInterpreter interpreter_;
  bool ready_ = false;
};

#endif  // MICRO_RUNTIME_EXAMPLES_HELLO_WORLD_SINE_PREDICTOR_H_
