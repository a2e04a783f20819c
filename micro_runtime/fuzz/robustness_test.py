"""Hostile model bytes through the real runtime (every kernel) built with ASan + UBSan.

Every truncation of the reference models and thousands of random corruptions (bit flips, random bytes,
words copied from elsewhere in the file) must each end in a clean status: a sanitizer report aborts
model_mutator, and a rejected variant that logged no explanation fails it (mutate_main.cc).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "micro_runtime" / "examples"
HELLO_INT8 = MODELS / "hello_world" / "models" / "hello_world_int8.tflite"
HELLO_FLOAT = MODELS / "hello_world" / "models" / "hello_world_float.tflite"
MICRO_SPEECH = MODELS / "micro_speech" / "models" / "micro_speech_quantized.tflite"
SUMMARY = re.compile(r"variants=(\d+) allocated=(\d+) invoked=(\d+) silent_failures=(\d+)")


def _mutate(binaries: Path, model: Path, *args: str) -> tuple[int, int, int]:
    if not model.is_file():
        pytest.fail(f"{model} is missing; the examples' reference models belong in the repo")
    crash_file = binaries / "artifacts" / f"mutator-{model.stem}-{'-'.join(args)}.tflite"
    crash_file.parent.mkdir(parents=True, exist_ok=True)
    crash_file.unlink(missing_ok=True)
    proc = subprocess.run([str(binaries / "model_mutator"), str(model), *args], capture_output=True, text=True,
                          timeout=600, env={"UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
                                            "ASAN_OPTIONS": "detect_leaks=1", "MUTATOR_CRASH_FILE": str(crash_file)})
    output = proc.stdout + proc.stderr
    saved = f"reproducer: {crash_file} (replay: {binaries / 'model_fuzzer'} FILE)\n" if crash_file.exists() else ""
    assert proc.returncode == 0, f"model_mutator {model.name} {' '.join(args)} failed:\n{saved}{output[-6000:]}"
    match = SUMMARY.search(proc.stdout)
    assert match is not None, output[-2000:]
    variants, allocated, invoked, silent = (int(g) for g in match.groups())
    assert silent == 0
    return variants, allocated, invoked


@pytest.mark.parametrize("model", [HELLO_INT8, HELLO_FLOAT, MICRO_SPEECH], ids=lambda p: p.stem)
def test_every_truncation_is_rejected_cleanly(fuzz_binaries: Path, model: Path) -> None:
    variants, allocated, _ = _mutate(fuzz_binaries, model, "truncate")
    assert variants == model.stat().st_size  # lengths 0 .. size-1
    assert allocated == 0, f"{allocated} truncated copies of {model.name} were accepted as complete models"


@pytest.mark.parametrize(("model", "count", "seed"),
                         [(MICRO_SPEECH, 3000, 11), (HELLO_INT8, 4000, 12), (HELLO_FLOAT, 4000, 13)],
                         ids=["micro_speech", "hello_world_int8", "hello_world_float"])
def test_random_corruptions_end_cleanly(fuzz_binaries: Path, model: Path, count: int, seed: int) -> None:
    variants, allocated, invoked = _mutate(fuzz_binaries, model, "flip", str(count), str(seed))
    assert variants == count
    # Both paths must be exercised: some corruptions are caught, some still load and run.
    assert 0 < allocated < variants
    assert invoked <= allocated
