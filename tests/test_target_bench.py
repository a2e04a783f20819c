"""The on-target benchmark (benchmarks/target_bench.py) in CI: a bounded subset, not a timing test.

hello_world_int8 and the MLPerf Tiny anomaly detector run on netduinoplus2 under QEMU with the
project's instruction-counting plugin; the outputs must be bit-exact with the reference, the counts
present, positive and deterministic, and the arena on the board no larger than TFLM's there (reference
kernels, the smaller of TFLM's two figures). The full tables (all six models) are docs/benchmarks.md's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from harness_helpers import requires_mcu

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

import target_bench  # noqa: E402

pytestmark = [requires_mcu, pytest.mark.emulator, pytest.mark.slow]


def test_plugin_builds() -> None:
    assert target_bench.build_counter().is_file()


def test_hello_world_counts_are_deterministic_and_outputs_bit_exact() -> None:
    first = target_bench.measure("hello_world_int8", "netduinoplus2", timeout_s=120)
    again = target_bench.measure("hello_world_int8", "netduinoplus2", timeout_s=120)
    assert first.bit_exact, first.mismatches
    assert len(first.instructions) == 6 and all(c > 100 for c in first.instructions)
    assert first.instructions == again.instructions
    # The markers alone: a return and a call (a few instructions), subtracted from every count.
    assert 0 < first.marker_overhead < 10
    table = target_bench.render([first])
    assert "| hello_world_int8 | netduinoplus2 |" in table and "bit-exact" in table
    ratio = first.first / target_bench.TFLM_FIGURES["hello_world_int8"][1]
    assert f"{ratio:.2f}x" in table
    tflm_arena = target_bench.TFLM_ARENA["hello_world_int8"][0]
    assert first.arena == again.arena and 0 < first.arena <= tflm_arena
    arena_row = f"| {first.arena:,} | {tflm_arena:,} | {first.arena / tflm_arena:.2f}x |"
    assert arena_row in target_bench.render_arena([first])


def test_anomaly_detector_bit_exact_with_counts() -> None:
    result = target_bench.measure("ad", "netduinoplus2", timeout_s=300)
    assert result.bit_exact, result.mismatches
    assert len(result.instructions) == 3 and min(result.instructions) > 100_000
    assert result.flash and result.flash > 276_976  # the model is in flash
    # Per-tensor layers keep one multiplier and shift in their op data: no per-unit arrays (1,672 units).
    assert 768 < result.arena <= target_bench.TFLM_ARENA["ad"][0]


def test_mismatch_is_reported() -> None:
    parsed = {"cases": [{"outputs": [{"data": [[1, 2]], "dtype": "int8"}]}]}
    reference = {"cases": [{"expected": [[1, 3]], "expected_dtype": "int8"}]}
    assert target_bench.check_outputs(parsed, reference) == [
        "case 0 output 0: differs from the reference (max |diff| 1)"]
    reference["cases"][0]["expected"] = [[1, 2]]
    assert target_bench.check_outputs(parsed, reference) == []
