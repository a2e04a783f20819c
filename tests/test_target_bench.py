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


def test_estimated_cycles_per_invoke_beside_the_published_engines() -> None:
    """The AD model's Invoke() on the zero-wait netduinoplus2 and on the NUCLEO-L4R5ZI timing variant: the same
    binary and instructions, more estimated cycles with the L4R5's 5 wait states, the same on a second run,
    and the published X-CUBE-AI and Plumerai cycles beside the variant's row."""
    plain = target_bench.measure("ad", "netduinoplus2", timeout_s=300)
    l4r5 = target_bench.measure("ad", "nucleo_l4r5zi_timing", timeout_s=300)
    again = target_bench.measure("ad", "nucleo_l4r5zi_timing", timeout_s=300)
    assert plain.instructions == l4r5.instructions and l4r5.cycles == again.cycles
    assert plain.first < plain.cycles[0] < l4r5.cycles[0]  # more than one cycle per instruction; flash waits
    assert plain.clock_hz == 16_000_000 and l4r5.clock_hz == 120_000_000
    table = target_bench.render_cycles([plain, l4r5])
    best = min(v for v in target_bench.PUBLISHED["cortex-m4"]["ad"] if v)
    assert f"| ad | nucleo_l4r5zi_timing | {l4r5.cycles[0]:,} |" in table
    assert f"| 0.63 M | 0.58 M | 0.49 M | {l4r5.cycles[0] / best:.3f}x |" in table
    assert f"| ad | netduinoplus2 | {plain.cycles[0]:,} |" in table  # no published figure for this board


def test_mismatch_is_reported() -> None:
    parsed = {"cases": [{"outputs": [{"data": [[1, 2]], "dtype": "int8"}]}]}
    reference = {"cases": [{"expected": [[1, 3]], "expected_dtype": "int8"}]}
    assert target_bench.check_outputs(parsed, reference) == [
        "case 0 output 0: differs from the reference (max |diff| 1)"]
    reference["cases"][0]["expected"] = [[1, 2]]
    assert target_bench.check_outputs(parsed, reference) == []


def test_activation_floor_and_macs_read_from_the_models() -> None:
    """The activation floor (peak of simultaneously live tensors, no in-place reuse) and the MACs of the MLPerf
    Tiny models, read from the .tflite files: issue 22's floors and MLPerf's rounded MAC counts (within 2 %)."""
    floors = {name: target_bench.activation_floor(target_bench.MODELS[name])[0] for name in target_bench.MACS}
    assert floors == {"kws": 16_000, "vww": 55_296, "ic": 49_152, "ad": 768}
    for name, published in target_bench.MACS.items():
        assert abs(target_bench.model_macs(target_bench.MODELS[name]) / published - 1) < 0.02, name


def test_per_operator_profile_adds_up_to_the_invoke(capsys: pytest.CaptureFixture[str]) -> None:
    """profile_target.py --per-op (a runner built with OP_MARKERS=1): one row per operator of the AD model with
    its MACs from the .tflite, instructions and estimated cycles that add up to the Invoke()'s own figures from
    target_bench (the per-operator counts include their marker calls and leave out the interpreter's loop)."""
    import profile_target

    assert profile_target.main(["ad", "--per-op"]) == 0
    rows = [line.split("|")[1:-1] for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    ops = target_bench.op_table(target_bench.MODELS["ad"])
    body, total = rows[1:-1], rows[-1]
    assert len(body) == len(ops) and [r[1].strip() for r in body] == [name for name, _, _ in ops]
    number = lambda cell: float(cell.strip().replace(",", ""))  # noqa: E731
    assert [number(r[3]) for r in body] == [macs for _, _, macs in ops]
    whole = target_bench.measure("ad", "nucleo_l4r5zi_timing", timeout_s=300)
    instructions, cycles = number(total[4]), number(total[5])
    assert sum(number(r[4]) for r in body) == pytest.approx(instructions, abs=len(ops))
    assert whole.instructions[0] - 40 * len(ops) < instructions <= whole.instructions[0] + 10 * len(ops)
    assert whole.cycles[0] * 0.97 < cycles < whole.cycles[0] * 1.03
