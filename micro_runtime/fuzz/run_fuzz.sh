#!/bin/sh
# Builds the model fuzzer (build_fuzz.sh: clang, libFuzzer + ASan + UBSan)
# and runs it for a bounded time on the committed seed corpus plus the
# reproducers of past findings (regressions/, they run first, every time).
#
#   micro_runtime/fuzz/run_fuzz.sh [SECONDS] [extra libFuzzer flags...]   (default 60 s)
#
# Exit status is non-zero when the fuzzer finds a crash, leak, hang or UB;
# the reproducer is written to micro_runtime/gen/fuzz/artifacts/ (replay:
# micro_runtime/gen/fuzz/model_fuzzer FILE). New interesting inputs are
# kept in micro_runtime/gen/fuzz/corpus/ between runs.
set -eu
SECONDS_TO_RUN=${1:-60}
[ $# -gt 0 ] && shift
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE/../gen/fuzz

"$HERE/build_fuzz.sh"
mkdir -p "$OUT/corpus" "$OUT/artifacts"

echo "fuzzing for ${SECONDS_TO_RUN}s (corpus $OUT/corpus, seeds $HERE/corpus, $HERE/regressions)"
# One job, one worker: the CI machine is shared. -timeout flags hangs
# (a single model must never take seconds); -rss_limit_mb flags leaks.
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  "$OUT/model_fuzzer" -max_total_time="$SECONDS_TO_RUN" -max_len=262144 -timeout=10 -rss_limit_mb=1024 \
  -print_final_stats=1 -artifact_prefix="$OUT/artifacts/" "$@" "$OUT/corpus" "$HERE/corpus" "$HERE/regressions"
