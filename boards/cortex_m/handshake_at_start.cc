// Linking this file into a program turns the start handshake on: it runs
// from a static constructor, after the board brought up its UART and tick
// counter and before main. Link it only into builds that talk to a host
// over the UART (harness serial backend), e.g.
//   make -C micro_runtime TARGET=bluepill program PROGRAM_NAME=x_hs
//     PROGRAM_SRC="micro_runtime/kernels/x_test.cc boards/cortex_m/handshake.cc
//                  boards/cortex_m/handshake_at_start.cc"
// Boards that call MicroStartHandshake() from their init use
// -DMICRO_START_HANDSHAKE=1 instead.
#include "boards/cortex_m/handshake.h"

namespace {

struct StartHandshake {
  StartHandshake() { MicroStartHandshakeNow(); }
};

StartHandshake g_start_handshake;

}  // namespace
