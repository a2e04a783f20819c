#!/bin/sh
# Builds the model fuzzer with clang (libFuzzer + ASan + UBSan) and runs it
# for a bounded time on a seed corpus of real and generated models.
#
#   micro_runtime/fuzz/run_fuzz.sh [SECONDS]     (default 60)
#
# Exit status is non-zero when the fuzzer finds a crash, leak or UB; the
# reproducer is written to micro_runtime/gen/fuzz/artifacts/. Reproducers of
# past findings live in micro_runtime/fuzz/regressions/ and run first, every
# time (replay one: gen/fuzz/model_fuzzer FILE).
set -eu
SECONDS_TO_RUN=${1:-60}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RUNTIME=$REPO/micro_runtime
OUT=$RUNTIME/gen/fuzz
CXX=${CLANGXX:-clang++}
PYTHON=${PYTHON:-python3}

command -v "$CXX" >/dev/null || { echo "error: $CXX not found; install it: apt-get install clang libclang-rt-dev" >&2; exit 1; }

# The schema header and flatbuffers include folder come from the normal build.
SCHEMA_HEADER=$(make -s --no-print-directory -C "$RUNTIME" TARGET=host print-SCHEMA_HEADER)
make -s --no-print-directory -C "$RUNTIME" TARGET=host "$SCHEMA_HEADER" "$RUNTIME/gen/flatbuffers_include/flatbuffers"

mkdir -p "$OUT/obj" "$OUT/corpus" "$OUT/artifacts"
FLAGS="-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -fno-exceptions -fno-rtti -fno-threadsafe-statics -DFLATBUFFERS_LOCALE_INDEPENDENT=0 \
  -I$REPO -I$RUNTIME/gen/schema -I$RUNTIME/gen/flatbuffers_include"

# Rebuild only what changed: one object per source, newer-than check.
OBJS=""
for src in $(ls "$RUNTIME"/*.cc "$RUNTIME"/kernels/*.cc | grep -v '_test\.cc$') "$HERE/model_fuzzer.cc" "$HERE/fuzz_platform.cc"; do
  obj="$OUT/obj/$(echo "$src" | sed "s|$REPO/||; s|/|_|g").o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find "$RUNTIME" -name '*.h' -newer "$obj" -not -path '*/gen/*' | head -1)" ]; then
    # shellcheck disable=SC2086
    $CXX $FLAGS -c "$src" -o "$obj"
  fi
  OBJS="$OBJS $obj"
done
# shellcheck disable=SC2086
$CXX $FLAGS $OBJS -o "$OUT/model_fuzzer"

"$PYTHON" "$HERE/make_corpus.py" "$OUT/seeds"

echo "fuzzing for ${SECONDS_TO_RUN}s (corpus $OUT/corpus, seeds $OUT/seeds)"
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  "$OUT/model_fuzzer" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
  -print_final_stats=1 -artifact_prefix="$OUT/artifacts/" "$OUT/corpus" "$OUT/seeds" "$HERE/regressions"
