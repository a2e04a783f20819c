// What the hello_world application does with each prediction: log it. A
// board with a display or an LED would plot or dim here instead.
#ifndef MICRO_RUNTIME_EXAMPLES_HELLO_WORLD_OUTPUT_HANDLER_H_
#define MICRO_RUNTIME_EXAMPLES_HELLO_WORLD_OUTPUT_HANDLER_H_

void HandleOutput(float x, float y);

#endif  // MICRO_RUNTIME_EXAMPLES_HELLO_WORLD_OUTPUT_HANDLER_H_
