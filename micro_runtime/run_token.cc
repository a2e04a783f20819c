// The default MicroRunToken for platform ports that have no way to receive the
// harness's run token: no token, so micro_test.h signs its records with key 0
// and the harness reports them as unauthenticated (docs/log_protocol.md).
// Weak, and alone in its object file, so a board's own definition wins and
// this one is not even linked then.
#include "micro_runtime/platform.h"

extern "C" __attribute__((weak)) int MicroRunToken(uint32_t key[2]) {
  (void)key;
  return 0;
}
