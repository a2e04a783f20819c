// Linking this file into a program turns the start handshake on: it runs
// from a static constructor, after the board brought up its UART and tick
// counter and before main. Link it only into builds that talk to a host
// over the UART: make -C micro_runtime TARGET=bluepill HANDSHAKE=1 x_test
// (gen/bluepill_handshake/), or handshake = true on a hardware-map device,
// which makes the harness build that variant.
// Boards that call MicroStartHandshake() from their init use
// -DMICRO_START_HANDSHAKE=1 instead.
#include "boards/cortex_m/handshake.h"

namespace {

struct StartHandshake {
  StartHandshake() { MicroStartHandshakeNow(); }
};

StartHandshake g_start_handshake;

}  // namespace
