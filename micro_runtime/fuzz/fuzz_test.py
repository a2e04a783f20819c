"""libFuzzer model fuzzer in CI: past reproducers replay cleanly, then a bounded fuzzing run finds nothing.

MODEL_FUZZ_SECONDS sets the fuzzing time (default 25 s). Any crash, leak, hang or UB fails the test with the
path of the reproducer; replay it with micro_runtime/gen/fuzz/model_fuzzer FILE.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FUZZ_SECONDS = int(os.environ.get("MODEL_FUZZ_SECONDS", "25"))
SANITIZER_ENV = {"UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1", "ASAN_OPTIONS": "detect_leaks=1"}
REGRESSIONS = sorted(p for p in (HERE / "regressions").iterdir() if p.is_file())


def _run(cmd: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **SANITIZER_ENV})


def _finding(output: str) -> str:
    """The sanitizer's one-line summary and libFuzzer's reproducer path, when present."""
    lines = [line for line in output.splitlines()
             if "runtime error:" in line or line.startswith("SUMMARY:") or "Test unit written to" in line
             or "ERROR: libFuzzer" in line or "ERROR: AddressSanitizer" in line]
    return "\n".join(lines[:8])


def test_regressions_exist() -> None:
    assert len(REGRESSIONS) >= 5, "the reproducers of past findings are missing from micro_runtime/fuzz/regressions/"


@pytest.mark.parametrize("reproducer", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_regression_replays_cleanly(fuzz_binaries: Path, reproducer: Path) -> None:
    proc = _run([str(fuzz_binaries / "model_fuzzer"), "-timeout=10", str(reproducer)], timeout=120)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{reproducer} crashes again:\n{_finding(output)}\n{output[-4000:]}"
    assert "Executed" in output, output[-2000:]


def test_model_copy_is_read_only_like_flash(fuzz_binaries: Path) -> None:
    """A write into the model (e.g. to a constant graph input) must crash the fuzz build, as it faults on a board."""
    model = HERE / "regressions" / "constant_graph_input_written"
    proc = _run([str(fuzz_binaries / "model_mutator"), str(model), "write-probe"], timeout=120)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "it is writable" not in output, output[-2000:]
    assert "SEGV" in output and "WRITE memory access" in output, output[-3000:]


@pytest.mark.slow
def test_model_fuzzer_finds_nothing(fuzz_binaries: Path, tmp_path: Path) -> None:
    artifacts = tmp_path / "artifacts"
    artifacts.mkdir()
    corpus = tmp_path / "corpus"  # new units go here; the committed seeds stay untouched
    corpus.mkdir()
    proc = _run([str(fuzz_binaries / "model_fuzzer"), f"-max_total_time={FUZZ_SECONDS}", "-max_len=262144",
                 "-timeout=10", "-rss_limit_mb=1024", "-print_final_stats=1", f"-artifact_prefix={artifacts}/",
                 str(corpus), str(HERE / "corpus"), str(HERE / "regressions")], timeout=FUZZ_SECONDS + 600)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        written = re.findall(r"Test unit written to (\S+)", output)
        kept = []
        for path in written:  # tmp_path is cleaned up eventually; keep the reproducer where people look
            target = HERE.parent / "gen" / "fuzz" / "artifacts" / Path(path).name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(Path(path).read_bytes())
            kept.append(str(target))
        pytest.fail(f"model fuzzer found a bug (exit {proc.returncode}); reproducer: {', '.join(kept) or 'none'}\n"
                    f"replay: micro_runtime/gen/fuzz/model_fuzzer <reproducer>; once fixed, add it to "
                    f"micro_runtime/fuzz/regressions/\n{_finding(output)}\n{output[-5000:]}")
    assert "Done" in output and "stat::number_of_executed_units" in output, output[-3000:]
    executed = int(re.search(r"stat::number_of_executed_units:\s*(\d+)", output).group(1))
    assert executed > 1000, f"only {executed} runs in {FUZZ_SECONDS}s; the fuzzer is not exercising the runtime"
