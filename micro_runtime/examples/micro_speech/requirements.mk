# What micro_speech_test needs from a board (see model_runner.mk, "board
# requirements"): the 18.4 KB model, the three 1960-byte recordings with
# their expected scores, the runtime with four kernels and the test itself.
# Measured on bluepill (Cortex-M3, -Os, LTO): 63,028 bytes of flash and
# 15,044 bytes of RAM (10 KB arena + 4 KB stack), so it fits the 64 KB /
# 20 KB Blue Pill with 2.5 KB to spare; boards smaller than this skip it
# with a note instead of failing to link.
micro_speech_test_MIN_FLASH := 64512
micro_speech_test_MIN_RAM := 16384
