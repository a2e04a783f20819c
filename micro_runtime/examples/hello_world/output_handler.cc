#include "micro_runtime/examples/hello_world/output_handler.h"

#include "micro_runtime/micro_log.h"

void HandleOutput(float x, float y) {
  // A bar from -1 to 1 makes the sine visible in a plain serial log.
  char bar[42];
  int position = static_cast<int>((y + 1.0f) * 20.0f + 0.5f);
  if (position < 0) position = 0;
  if (position > 40) position = 40;
  for (int i = 0; i <= 40; ++i) bar[i] = (i == position) ? '*' : (i == 20 ? '|' : ' ');
  bar[41] = '\0';
  MicroPrintf("x=%.3f y=%.3f %s", static_cast<double>(x), static_cast<double>(y), bar);
}
