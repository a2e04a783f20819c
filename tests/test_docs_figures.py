"""The figures in README.md and docs/harness.md are the benchmarks' own outputs, committed beside them.

``benchmarks/results/target_bench.json`` (``python3 benchmarks/target_bench.py --json ...``) and
``benchmarks/results/harness_bench.json`` (``python3 benchmarks/harness_bench.py --suite --json ...``) are
what the benchmarks printed; every number of the README's runtime and harness tables (and of the harness
table in docs/harness.md) must be the one there, so a table cannot drift from its measurement: re-run the
benchmark, commit its output, and the docs follow (this test names each stale cell).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from typing import Any

import pytest

from harness import REPO_ROOT

RESULTS = REPO_ROOT / "benchmarks" / "results"
README = (REPO_ROOT / "README.md").read_text()
HARNESS_DOC = (REPO_ROOT / "docs" / "harness.md").read_text()


def _rows(text: str, header_start: str) -> list[list[str]]:
    """The body rows (cells stripped) of the markdown table whose header line starts with ``header_start``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def _number(cell: str) -> float:
    match = re.search(r"[−-]?\d[\d,]*(?:\.\d+)?", cell.replace("**", ""))
    assert match is not None, f"no number in {cell!r}"
    return float(match.group(0).replace(",", "").replace("−", "-"))


def _model(label: str) -> str:
    return label.split()[0].lower()


@pytest.fixture(scope="module")
def target() -> dict[str, dict[str, Any]]:
    data = json.loads((RESULTS / "target_bench.json").read_text())
    return {r["model"]: r for r in data if r["board"] == "netduinoplus2"}


@pytest.fixture(scope="module")
def tflm() -> Any:
    spec = importlib.util.spec_from_file_location("target_bench_figures", REPO_ROOT / "benchmarks" / "target_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_readme_runtime_table_is_target_bench_output(target: dict[str, dict[str, Any]], tflm: Any) -> None:
    rows = _rows(README, "| model | instr/Invoke ours | TFLM + CMSIS-NN |")
    assert {_model(r[0]) for r in rows} == set(target), "README's models are not the benchmark's"
    for label, ours, cmsis, ratio_cmsis, ref, ratio_ref, outputs, flash in rows:
        result = target[_model(label)]
        ref_figure, cmsis_figure = tflm.TFLM_FIGURES[_model(label)]
        first = result["instructions"][0]
        assert _number(ours) == first, f"{label}: README {ours}, target_bench.json {first:,}"
        assert (_number(cmsis), _number(ref)) == (cmsis_figure, ref_figure), label
        assert ratio_cmsis == f"{first / cmsis_figure:.2f}×" and ratio_ref == f"{first / ref_figure:.2f}×", label
        assert outputs == ("bit-exact" if result["bit_exact"] else outputs) and result["bit_exact"], label
        assert _number(flash) == result["flash"], \
            f"{label}: README flash {flash}, target_bench.json {result['flash']:,}"


def test_the_readme_arena_table_is_target_bench_output(target: dict[str, dict[str, Any]], tflm: Any) -> None:
    rows = _rows(README, "| model | arena ours |")
    assert {_model(r[0]) for r in rows} == set(target)
    for label, ours, ref, ratio_ref, cmsis, ratio_cmsis in rows:
        result = target[_model(label)]
        ref_arena, cmsis_arena = tflm.TFLM_ARENA[_model(label)]
        assert _number(ours) == result["arena"], f"{label}: README arena {ours}, target_bench.json {result['arena']:,}"
        assert (_number(ref), _number(cmsis)) == (ref_arena, cmsis_arena), label
        assert ratio_ref == f"{result['arena'] / ref_arena:.2f}×", label
        assert ratio_cmsis == f"{result['arena'] / cmsis_arena:.2f}×", label


def test_the_readme_arena_parts_table_is_target_bench_output(target: dict[str, dict[str, Any]]) -> None:
    """README's persistent / activation / activation floor columns are target_bench.json's (netduinoplus2)."""
    rows = _rows(README, "| model | persistent | activation | activation floor |")
    assert {_model(r[0]) for r in rows} == set(target)
    for label, persistent, activation, floor, ratio in rows:
        result = target[_model(label)]
        assert _number(persistent) == result["arena_persistent"], f"{label}: README persistent {persistent}"
        assert _number(activation) == result["arena_activation"], f"{label}: README activation {activation}"
        assert _number(floor) == result["activation_floor"], f"{label}: README floor {floor}"
        assert ratio == f"{result['arena_activation'] / result['activation_floor']:.2f}×", label


def test_the_estimated_cycles_table_is_target_bench_output() -> None:
    """docs/benchmarks.md's estimated cycles per Invoke() (every model and board) are target_bench.json's."""
    data = json.loads((RESULTS / "target_bench.json").read_text())
    estimated = {(r["model"], r["board"]): r for r in data if r.get("cycles")}
    rows = _rows((REPO_ROOT / "docs" / "benchmarks.md").read_text(), "| model | board | est. cycles/Invoke ours |")
    assert {(r[0], r[1]) for r in rows} == set(estimated)
    for model, board, cycles, _time, instructions, *_ in rows:
        result = estimated[(model, board)]
        assert _number(cycles) == result["cycles"][0], f"{model}/{board}: {cycles}, json {result['cycles'][0]:,}"
        assert _number(instructions) == result["instructions"][0], f"{model}/{board}: {instructions}"


def _seconds(value: float, decimals: int = 3) -> str:
    return f"{value:.{decimals}f}".replace("-", "−")


@pytest.fixture(scope="module")
def harness_figures() -> dict[str, Any]:
    figures: dict[str, Any] = json.loads((RESULTS / "harness_bench.json").read_text())
    return figures


def _check_harness_rows(rows: list[list[str]], figures: dict[str, Any], where: str) -> int:
    suite = figures["suite"]
    expected = {
        "harness overhead per binary": _seconds(figures["overhead_s"]),
        "failure line → verdict": _seconds(figures["failure_to_verdict_s"]),
        "HardFault line → verdict": _seconds(figures["hardfault_to_verdict_s"]),
        "end of run → verdict": _seconds(figures["end_without_exit_s"]),
        "raw `qemu-system-arm` run": _seconds(figures["raw_s"]),
        "harness run session": _seconds(figures["harness_s"]),
        "`python -m harness run`": _seconds(figures["cli_s"]),
        "same, incremental": _seconds(suite["incremental_s"], 1),
        "same, nothing changed": _seconds(suite["incremental_s"], 1),
    }
    checked = 0
    for row in rows:
        label, value = row[0].replace("**", ""), row[1]
        if "clean build" in label:
            checks = suite["items"] - suite["cases"]
            items = f"({suite['items']} items: {suite['cases']} cases + {checks} binary checks)"
            assert items in label, f"{where}: {label!r}, harness_bench.json has {items}"
            assert value.replace("**", "").startswith(_seconds(suite["clean_s"], 1) + " s"), (where, label, value)
            checked += 1
            continue
        if "per-case" in label and "plugin" in label:  # the plugin's cost: each binary's, or the range
            shares = [f"{cost['share']:+.0%}".replace("%", " %") for cost in figures["counting"].values()]
            wanted = ", ".join(shares) if "," in value else f"{min(shares, key=_number)} to {max(shares, key=_number)}"
            assert value.startswith(wanted), f"{where}: {label!r} says {value}, harness_bench.json {wanted}"
            checked += 1
            continue
        key = next((k for k in expected if label.startswith(k)), None)
        if key is not None:
            assert value.replace("**", "").startswith(expected[key] + " s"), \
                f"{where}: {label!r} says {value}, harness_bench.json {expected[key]} s"
            checked += 1
    return checked


def test_the_readme_harness_table_is_harness_bench_output(harness_figures: dict[str, Any]) -> None:
    rows = _rows(README, "| measurement | result | target |")
    assert _check_harness_rows(rows, harness_figures, "README.md") == 7
    stamp = f"(`benchmarks/harness_bench.py --suite`, {harness_figures['date']}, {harness_figures['cpus']} CPUs"
    assert stamp in README


def test_the_harness_doc_table_is_harness_bench_output(harness_figures: dict[str, Any]) -> None:
    rows = _rows(HARNESS_DOC, "| measurement | median | target |")
    assert _check_harness_rows(rows, harness_figures, "docs/harness.md") == 10


def test_a_stale_cell_is_named() -> None:
    """The check itself: a table whose figure differs from the benchmark's output fails, naming the cell."""
    figures = {"overhead_s": -0.006, "failure_to_verdict_s": 0.003, "hardfault_to_verdict_s": 0.005,
               "end_without_exit_s": 0.304, "raw_s": 0.03, "harness_s": 0.02, "cli_s": 0.1,
               "suite": {"clean_s": 34.9, "incremental_s": 8.1, "items": 586, "cases": 503}}
    rows = [["failure line → verdict (QEMU)", "0.004 s"]]
    stale = r"failure line → verdict \(QEMU\)' says 0.004 s, harness_bench.json 0.003 s"
    with pytest.raises(AssertionError, match=stale):
        _check_harness_rows(rows, figures, "README.md")
    rows = [["full suite, clean build (586 items: 500 cases + 86 binary checks)", "34.9 s"]]
    with pytest.raises(AssertionError, match="harness_bench.json has \\(586 items: 503 cases"):
        _check_harness_rows(rows, figures, "README.md")
