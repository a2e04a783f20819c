#!/bin/sh
# Builds the fuzz binaries with clang, ASan and UBSan (UB aborts):
#   micro_runtime/gen/fuzz/model_fuzzer   libFuzzer target (model_fuzzer.cc)
#   micro_runtime/gen/fuzz/model_mutator  truncation / bit-flip driver (mutate_main.cc)
# from the runtime sources (micro_runtime/*.cc, kernels/*.cc) plus
# fuzz_run.cc and fuzz_platform.cc (DebugLog output dropped) instead of a
# board's platform. Incremental: only changed sources are recompiled.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RUNTIME=$REPO/micro_runtime
OUT=$RUNTIME/gen/fuzz
CXX=${CLANGXX:-clang++}

command -v "$CXX" >/dev/null || { echo "error: $CXX not found; install it: apt-get install clang libclang-rt-dev" >&2; exit 1; }

# The schema header and flatbuffers include folder come from the normal build.
SCHEMA_HEADER=$(make -s --no-print-directory -C "$RUNTIME" TARGET=host print-SCHEMA_HEADER)
make -s --no-print-directory -C "$RUNTIME" TARGET=host "$SCHEMA_HEADER" "$RUNTIME/gen/flatbuffers_include/flatbuffers"

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
FLAGS="-std=c++17 -O1 -g $SAN -fsanitize=fuzzer-no-link \
  -fno-exceptions -fno-rtti -fno-threadsafe-statics -DFLATBUFFERS_LOCALE_INDEPENDENT=0 \
  -Wall -Wextra -Wno-unused-parameter \
  -I$REPO -I$RUNTIME/gen/schema -I$RUNTIME/gen/flatbuffers_include"

# Objects live in a folder named after the flags, so changing them rebuilds.
OBJ_DIR="$OUT/obj-$(echo "$CXX $FLAGS" | md5sum | cut -c1-8)"
mkdir -p "$OBJ_DIR"

compile() {  # compile SRC: echo its object, rebuilt when the source or any runtime header is newer
  obj="$OBJ_DIR/$(echo "$1" | sed "s|$REPO/||; s|/|_|g").o"
  if [ ! -f "$obj" ] || [ "$1" -nt "$obj" ] || \
     [ -n "$(find "$RUNTIME" -name '*.h' -newer "$obj" -not -path '*/gen/*' | head -1)" ]; then
    # shellcheck disable=SC2086
    $CXX $FLAGS -c "$1" -o "$obj"
  fi
  echo "$obj"
}

OBJS=""
for src in $(ls "$RUNTIME"/*.cc "$RUNTIME"/kernels/*.cc | grep -v '_test\.cc$') "$HERE/fuzz_run.cc" \
    "$HERE/fuzz_platform.cc"; do
  OBJS="$OBJS $(compile "$src")"
done
FUZZER_OBJ=$(compile "$HERE/model_fuzzer.cc")
MUTATOR_OBJ=$(compile "$HERE/mutate_main.cc")
# Link to a temporary name and rename: a running fuzzer keeps its binary.
# shellcheck disable=SC2086
$CXX $SAN -fsanitize=fuzzer $OBJS "$FUZZER_OBJ" -o "$OUT/model_fuzzer.tmp" && mv -f "$OUT/model_fuzzer.tmp" "$OUT/model_fuzzer"
# shellcheck disable=SC2086
$CXX $SAN -fsanitize=fuzzer-no-link $OBJS "$MUTATOR_OBJ" -o "$OUT/model_mutator.tmp" && \
  mv -f "$OUT/model_mutator.tmp" "$OUT/model_mutator"
