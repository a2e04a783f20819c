# What micro_speech_test needs from a board (see model_runner.mk, "board
# requirements"). Flash: the 18.4 KB model, the three 1960-byte recordings
# with their expected scores, the runtime with four kernels and the test
# itself come to about 70 KB with -Os on Cortex-M; 80 KB leaves headroom.
# So the 64 KB bluepill cannot hold it; the M4F board can.
micro_speech_test_MIN_FLASH := 81920
micro_speech_test_MIN_RAM := 16384
