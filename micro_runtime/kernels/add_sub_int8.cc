// ADD/SUB int8 without broadcasting: no fast path on cores without the DSP
// extension (arm_dsp/add_sub_int8.cc replaces this file under the arm_dsp
// tag); every node takes EvalArithmetic's general loop.
#include "micro_runtime/kernels/add_sub.h"

namespace micro_runtime {

bool EvalAddSubInt8SameShape(TfLiteContext*, TfLiteNode*, bool) { return false; }

}  // namespace micro_runtime
