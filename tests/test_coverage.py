"""Coverage on the target (``pytest --micro-coverage``, docs/coverage.md), for real: a small subset of the micro
tests built with gcov instrumentation for netduinoplus2 (QEMU, counters over semihosting), the host and bluepill
in one pytest run; the verdicts are those of a plain run, the counts are gcov's, the reports are LCOV, Cobertura
and HTML per binary and merged, a crash's coverage is reported missing, and bluepill says what does not fit.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import junit_cases, mcu_unavailable, plugin_args, subprocess_env

from harness import REPO_ROOT
from harness.coverage.report import line_counts

BINARIES = ["micro_runtime/kernels/abs_test.cc", "micro_runtime/micro_log_test.cc",
            "tests/fault_matrix/fw/crashes_test.cc"]


def _unavailable() -> str | None:
    if shutil.which("gcovr") is None:
        return "gcovr not found; install: apt-get install gcovr"
    return mcu_unavailable()


@pytest.fixture(scope="module")
def coverage_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    reason = _unavailable()
    if reason is not None:
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("coverage")
    junit = out / "junit.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *plugin_args(), "-p", "no:cacheprovider", "-o", "addopts=",
         "--board=netduinoplus2,host,bluepill", "--micro-coverage", f"--micro-coverage-dir={out / 'cov'}",
         f"--junitxml={junit}", "-q", *BINARIES],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, env=subprocess_env(), check=False)
    return {"proc": proc, "dir": out / "cov", "junit": junit_cases(junit), "output": proc.stdout + proc.stderr}


def _json(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "coverage.json").read_text())
    return data


def _function_count(data: dict[str, Any], source: str, name: str) -> int:
    entry = next(e for e in data["files"] if e["file"] == source)
    return sum(f["execution_count"] for f in entry["functions"] if f"::{name}(" in f["name"])


def _function_line(data: dict[str, Any], source: str, name: str) -> int:
    entry = next(e for e in data["files"] if e["file"] == source)
    return int(next(f["lineno"] for f in entry["functions"] if f"::{name}(" in f["name"]))


def test_verdicts_are_those_of_a_plain_run(coverage_run: dict[str, Any]) -> None:
    cases, output = coverage_run["junit"], coverage_run["output"]
    assert coverage_run["proc"].returncode == 1, output[-3000:]  # the crash fails, as without coverage
    for board in ("netduinoplus2", "host"):
        assert cases[f"abs_test::Float[{board}]"][0] == "passed", output[-3000:]
        assert cases[f"crashes_test::Before[{board}]"][0] == "passed"
        assert cases[f"crashes_test::CallsNull[{board}]"][0] == "failure"
        assert cases[f"crashes_test::After[{board}]"][0] == "error"  # not reached
    assert cases["micro_log_test::binary-checks[bluepill]"][0] == "passed"


def test_counts_are_gcovs_on_the_target_and_the_host(coverage_run: dict[str, Any]) -> None:
    folder: Path = coverage_run["dir"]
    for board in ("netduinoplus2", "host"):
        status = json.loads((folder / board / "abs_test" / "status.json").read_text())
        assert status["ok"], status
        assert status["via"] == ("gcda" if board == "host" else "semihosting")
        data = _json(folder / board / "abs_test")
        # The kernel under test ran: ABS's Prepare once per Prepare the test makes (9 kernel runs), on both.
        assert _function_count(data, "micro_runtime/kernels/abs.cc", "AbsPrepare") == 9
        prepare = _function_line(data, "micro_runtime/kernels/abs.cc", "AbsPrepare")
        assert line_counts(data, "micro_runtime/kernels/abs.cc")[prepare] == 9
        # A function of a linked object that abs_test never calls counts 0, its lines too.
        assert _function_count(data, "micro_runtime/kernels/unary_util.cc", "EvalFloatUnary") == 0
        unused = _function_line(data, "micro_runtime/kernels/unary_util.cc", "EvalFloatUnary")
        assert line_counts(data, "micro_runtime/kernels/unary_util.cc")[unused] == 0
        assert 0 < status["lines_covered"] < status["lines_total"]


def test_lcov_cobertura_and_html_per_binary_and_merged(coverage_run: dict[str, Any]) -> None:
    folder: Path = coverage_run["dir"]
    for report in (folder / "netduinoplus2" / "abs_test", folder / "host" / "abs_test",
                   folder / "netduinoplus2" / "merged", folder / "merged"):
        lcov = (report / "coverage.info").read_text()
        assert "SF:micro_runtime/kernels/abs.cc\n" in lcov and "end_of_record" in lcov, report
        if shutil.which("lcov"):
            summary = subprocess.run(["lcov", "--summary", str(report / "coverage.info")], capture_output=True,
                                     text=True, check=False)
            assert summary.returncode == 0 and "lines" in summary.stdout + summary.stderr, summary.stderr
        root = ET.parse(report / "coverage.xml").getroot()
        assert root.tag == "coverage" and float(root.get("line-rate", "0")) > 0
        classes = {c.get("filename"): c for c in root.iter("class")}
        hits = [int(line.get("hits", "0")) for line in classes["micro_runtime/kernels/abs.cc"].iter("line")]
        assert min(hits) > 0  # abs_test reaches every line of abs.cc
        unused = [int(line.get("hits", "0")) for line in classes["micro_runtime/kernels/unary_util.cc"].iter("line")]
        assert min(unused) == 0 < max(unused)
        assert "abs.cc" in (report / "index.html").read_text()
    # Merged is the sum: micro_log_test does not link abs.cc, so the board's merge has abs_test's counts, and the
    # merge of both boards has twice the function's count.
    single = _json(folder / "netduinoplus2" / "abs_test")
    assert _function_count(_json(folder / "netduinoplus2" / "merged"), "micro_runtime/kernels/abs.cc",
                           "AbsPrepare") == _function_count(single, "micro_runtime/kernels/abs.cc", "AbsPrepare")
    assert _function_count(_json(folder / "merged"), "micro_runtime/kernels/abs.cc", "AbsPrepare") == 2 * 9
    output = coverage_run["output"]
    assert f"LCOV {folder / 'merged' / 'coverage.info'}" in output
    assert f"HTML {folder / 'netduinoplus2' / 'merged' / 'index.html'}" in output


def test_a_crash_has_no_coverage_and_says_so(coverage_run: dict[str, Any]) -> None:
    folder: Path = coverage_run["dir"]
    for board in ("netduinoplus2", "host"):
        status = json.loads((folder / board / "crashes_test" / "status.json").read_text())
        assert not status["ok"] and status["outcome"] == "crashed"
        assert "before the binary's exit wrote it" in status["reason"]
        assert f"coverage MISSING for crashes_test on {board}" in coverage_run["output"]


def test_bluepill_says_what_does_not_fit_and_where_it_fits(coverage_run: dict[str, Any]) -> None:
    folder: Path = coverage_run["dir"]
    output, cases = coverage_run["output"], coverage_run["junit"]
    # abs_test's counters take bluepill's RAM past 20 KB: the linker's overflow, in numbers, with the fix.
    assert cases["abs_test::Float[bluepill]"][0] == "error"
    assert "abs_test needs" in output and "bluepill has 20,480 B" in output
    line = next(line for line in output.splitlines() if line.startswith("harness: coverage MISSING for abs_test on "
                                                                          "bluepill"))
    assert "measure coverage on a board with room (--board=netduinoplus2, --board=mps2_an505" in line
    # A small binary fits and has its coverage there too.
    assert json.loads((folder / "bluepill" / "micro_log_test" / "status.json").read_text())["ok"]


def test_the_log_carries_the_counters_where_semihosting_files_cannot(coverage_run: dict[str, Any]) -> None:
    """Where the host refuses the stream file (here: a folder is in its way), the firmware prints the stream as
    ``~~~GCOV`` lines after its end of run; the verdict is unchanged and the stream is whole."""
    from harness.board.boards import load_board
    from harness.build.make import gen_root, set_build_variant
    from harness.coverage import build as coverage_build
    from harness.coverage.collect import stream_path
    from harness.coverage.stream import from_log, parse
    from harness.outcome import Outcome
    from harness.session import RunOptions, run_binary

    set_build_variant(coverage_build.VARIANT)
    try:
        elf = gen_root() / "netduinoplus2" / "bin" / "micro_log_test"
    finally:
        set_build_variant(None)
    blocker = stream_path(elf)
    blocker.unlink(missing_ok=True)
    blocker.mkdir()
    try:
        report = run_binary(load_board("netduinoplus2"), elf, RunOptions(backend="qemu"))
    finally:
        blocker.rmdir()
    assert report.outcome == Outcome.PASSED, report.summary
    data = from_log(report.log)
    assert data is not None
    stream = parse(data)
    assert stream.complete and any(name.endswith("micro_log.cc.gcda") for name in stream.files)
