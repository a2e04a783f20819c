"""The fault matrix: real micro tests that misbehave in every way the harness must judge right.

Each firmware in ``fw/`` is built and run by the plugin itself (build -> runner -> log
stream -> format -> items) on the host and on emulated bluepill (QEMU), in one pytest run
in a subprocess; the JUnit report of that run must hold exactly the expected outcome for
every item: no false pass, no misjudged crash, hang or infra problem. Nothing is mocked.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from harness_helpers import mcu_unavailable, plugin_args

FW = Path(__file__).parent / "fw"
# Per binary, per board: the hanging firmware costs this much; the megabyte log needs ~25 s through
# QEMU's emulated UART (one exit to the emulator per character).
TIMEOUT_S = {"host": 8, "bluepill": 45}

# file stem -> {item name (without [board]) -> junit outcome}; "error" = setup failure (not
# reached, not built, infra), "failed" = the case's own failure, crash or hang.
EXPECTED: dict[str, dict[str, str]] = {
    # The case fails; the binary is flagged too: it printed our summary record inside a case.
    "forged_pass_then_fail_test": {"Forges": "failed", "binary-checks": "failed"},
    "forged_pass_then_hang_test": {"ForgesThenHangs": "failed", "binary-checks": "failed"},
    "forged_done_then_exit_test": {"ForgesThenExits": "failed", "NeverReached": "error", "binary-checks": "failed"},
    "testing_line_test": {"Real": "failed", "After": "passed", "binary-checks": "passed"},
    "duplicate_names_test": {"Twice": "failed", "binary-checks": "failed"},
    "tflm_macros_test": {"FailMacro": "failed", "Odd$Name": "passed", "binary-checks": "passed"},
    "noise_no_newline_test": {"Noisy": "passed", "Fails": "failed", "Passes": "passed", "binary-checks": "passed"},
    "hang_test": {"Before": "passed", "Hangs": "failed", "After": "error", "binary-checks": "failed"},
    "exit_mid_run_test": {"Exits": "failed", "After": "error", "binary-checks": "failed"},
    "return_mid_run_test": {"Returns": "failed", "After": "error", "binary-checks": "failed"},
    "zero_cases_test": {"binary-checks": "failed"},
    "big_log_test": {"ManyLines": "passed", "OneLongLine": "passed", "binary-checks": "passed"},
    "compile_error_test": {"NeverBuilt": "error", "binary-checks": "error"},
    "crashes_test": {"Before": "passed", "CallsNull": "failed", "After": "error", "binary-checks": "failed"},
    # Hangs has its own 2 s limit (// harness: timeout=2): the run ends there, not at --micro-timeout.
    "case_timeout_test": {"First": "passed", "Hangs": "failed", "Third": "error", "binary-checks": "failed"},
}
# What the failure message of an item must say (stem, item) -> words.
MESSAGES: dict[tuple[str, str], list[str]] = {
    ("forged_pass_then_hang_test", "ForgesThenHangs"): ["timed out"],
    ("hang_test", "Hangs"): ["timed out"],
    ("hang_test", "After"): ["not reached"],
    ("crashes_test", "CallsNull"): ["crashed"],
    ("duplicate_names_test", "binary-checks"): ["defined twice"],
    ("zero_cases_test", "binary-checks"): ["no tests ran"],
    ("forged_done_then_exit_test", "ForgesThenExits"): ["crashed"],
    ("forged_pass_then_fail_test", "binary-checks"): ["summary printed inside case Forges"],
    ("case_timeout_test", "Hangs"): ["timed out", "case timeout of 2 s",
                                     "// harness: timeout=2 at case_timeout_test.cc:14"],
    ("case_timeout_test", "Third"): ["not reached", "Hangs"],
}
# Binaries whose run must end well before --micro-timeout (wall seconds of the whole binary, per board).
MAX_BINARY_S: dict[str, dict[str, float]] = {"case_timeout_test": {"host": 4.0, "bluepill": 6.0}}


def _outcome(case: ET.Element) -> tuple[str, str, dict[str, str]]:
    props = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
    for tag in ("failure", "error", "skipped"):
        node = case.find(tag)
        if node is not None:
            text = (node.get("message") or "") + "\n" + (node.text or "")
            return ("failed" if tag == "failure" else tag), text, props
    return "passed", "", props


def _run_matrix(pytester: pytest.Pytester, boards: str) -> dict[tuple[str, str, str], tuple[str, str, dict[str, str]]]:
    for source in FW.glob("*_test.cc"):
        shutil.copyfile(source, pytester.path / source.name)
    xml = pytester.path / "matrix.xml"
    result = pytester.runpytest_subprocess(
        *plugin_args(), "-p", "no:randomly", "-p", "no:cacheprovider", f"--board={boards}",
        f"--micro-timeout={TIMEOUT_S[boards]}", f"--junitxml={xml}", "-o", "junit_family=xunit1", "-n", "2",
        timeout=1200,
    )
    assert xml.is_file(), result.stdout.str()
    found = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        stem = Path(case.get("file", "")).stem  # xunit1 names the file of each item
        name, board = case.get("name", "").rsplit("[", 1)
        found[(stem, name, board.rstrip("]"))] = _outcome(case)
    assert result.ret != 0  # the matrix has failures: pytest must say so
    return found


def _check(found: dict[tuple[str, str, str], tuple[str, str, dict[str, str]]], board: str) -> None:
    wrong = []
    for stem, items in EXPECTED.items():
        for name, expected in items.items():
            got, text, props = found.get((stem, name, board), ("missing", "", {}))
            limit = MAX_BINARY_S.get(stem, {}).get(board)
            took = float(props.get("binary_duration_s", "inf"))
            if limit is not None and name == "binary-checks" and not took < limit:
                wrong.append(f"{stem}[{board}]: the run took {props.get('binary_duration_s')} s, expected < {limit} s")
            if got != expected:
                wrong.append(f"{stem}::{name}[{board}]: expected {expected}, got {got}: {text[:300]}")
            for word in MESSAGES.get((stem, name), []):
                if word not in text:
                    wrong.append(f"{stem}::{name}[{board}]: message lacks {word!r}: {text[:300]}")
    extra = sorted(f"{s}::{n}[{b}]" for s, n, b in found if b == board and n not in EXPECTED.get(s, {}))
    assert not wrong and not extra, "\n".join(wrong + [f"unexpected item {e}" for e in extra])


def test_fault_matrix_on_host(pytester: pytest.Pytester) -> None:
    _check(_run_matrix(pytester, "host"), "host")


@pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))
def test_fault_matrix_on_bluepill(pytester: pytest.Pytester) -> None:
    _check(_run_matrix(pytester, "bluepill"), "bluepill")
