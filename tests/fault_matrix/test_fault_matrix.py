"""The fault matrix: real micro tests that misbehave in every way the harness must judge right.

Each firmware in ``fw/`` is built and run by the plugin itself (build -> runner -> log
stream -> format -> items) on the host and on emulated bluepill (Cortex-M3) and netduinoplus2
(Cortex-M4F) in QEMU, one pytest run per board in a subprocess; the JUnit report of that run
must hold exactly the expected outcome for every item: no false pass, no misjudged crash, hang
or infra problem. Nothing is mocked.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import mcu_unavailable, plugin_args

FW = Path(__file__).parent / "fw"
MCU_BOARDS = ("bluepill", "netduinoplus2")
# Per binary, per board: the hanging firmware costs this much; the megabyte log needs ~25 s through
# QEMU's emulated UART (one exit to the emulator per character).
TIMEOUT_S = {"host": 8, "bluepill": 45, "netduinoplus2": 45}

# An expectation that differs between boards: {"host": ..., "mcu": ...} ("mcu": every board of
# MCU_BOARDS), or keyed by a board's own name, which wins over "host"/"mcu".
Outcome = str
PerBoard = dict[str, Outcome]

# file stem -> {item name (without [board]) -> junit outcome}; "error" = setup failure (not
# reached, not built, infra), "failed" = the case's own failure, crash or hang, "skipped" = not a
# case of the binary.
EXPECTED: dict[str, dict[str, Outcome | PerBoard]] = {
    # Plain text that imitates TFLM's summary and an old-style "~~~MT SUMMARY" record: application
    # output of the case (no record: no authenticator), which fails on its own expectation; the run
    # itself ended cleanly.
    "forged_pass_then_fail_test": {"Forges": "failed", "binary-checks": "passed"},
    "forged_pass_then_hang_test": {"ForgesThenHangs": "failed", "binary-checks": "failed"},
    "forged_done_then_exit_test": {"ForgesThenExits": "failed", "NeverReached": "error", "binary-checks": "failed"},
    # Records in the current format with guessed sequence numbers and authenticators, then a real
    # failure, a hang, or exit status 0 inside the case: the case never passes.
    "forged_records_then_fail_test": {"ForgesThenFails": "failed", "binary-checks": "passed"},
    "forged_records_then_hang_test": {"ForgesThenHangs": "failed", "binary-checks": "failed"},
    "forged_records_then_exit_test": {"ForgesThenExits": "failed", "NeverReached": "error", "binary-checks": "failed"},
    # A forged END of the running case and BEGIN of the next, then a hang: the hang is the first case's.
    "forged_end_begin_then_hang_test": {"ForgesEnd": "failed", "Innocent": "error", "binary-checks": "failed"},
    "forged_end_begin_case_limit_test": {"ForgesEnd": "failed", "Innocent": "error", "binary-checks": "failed"},
    # Exact records (right format and sequence numbers) under key 0 while the run has a token.
    "unkeyed_records_test": {"ExitsEarly": "failed", "binary-checks": "failed"},
    # Prefix fragments, long text, terminal escapes and NULs glued before a FAIL record: the FAIL counts.
    "prefix_fragment_before_fail_test": {"WholePrefix": "failed", "PartialPrefix": "failed", "RecordHead": "failed",
                                         "After": "passed", "binary-checks": "passed"},
    "long_text_before_fail_test": {"SeventyKilobytes": "failed", "PrefixAcrossTheCut": "failed", "After": "passed",
                                   "binary-checks": "passed"},
    "escapes_around_fail_test": {"AnsiAroundFail": "failed", "CarriageReturnBeforeFail": "failed",
                                 "NulBytesAroundFail": "failed", "Passes": "passed", "binary-checks": "passed"},
    # A printed fault line is taken as the fault report it imitates: a crash of the case running when
    # it came, even when that case's own records go on to say PASSED.
    "hardfault_text_test": {"Before": "passed", "PrintsFault": "failed", "binary-checks": "failed"},
    # GoogleTest/TFLM-looking lines and a "Testing " line printed before main (a static constructor).
    "constructor_gtest_lines_test": {"First": "passed", "Second": "passed", "binary-checks": "passed"},
    "constructor_gtest_lines_fails_test": {"First": "passed", "Second": "failed", "binary-checks": "passed"},
    # A check failing in a static constructor (before START), 300 lines later passing cases: the run fails.
    "constructor_check_fails_test": {"First": "passed", "Second": "passed", "binary-checks": "failed"},
    # A case the preprocessor removed is no case: the matrix collects before the first build, from the
    # source scan, so it has an item, which is skipped (never "never ran").
    "compiled_out_case_test": {"CompiledOut": "skipped", "CompiledIn": "passed", "binary-checks": "passed"},
    # Host only: a forked child's signed FAIL record after the parent's end (a repeated sequence number);
    # a forked child left running; a case that sends itself SIGTERM (its own crash, not infra).
    "fork_child_fails_test": {"Forks": "passed", "After": "passed",
                              "binary-checks": {"host": "failed", "mcu": "passed"}},
    "fork_child_lingers_test": {"Forks": "passed", "binary-checks": {"host": "failed", "mcu": "passed"}},
    "kills_itself_test": {"Before": "passed", "KillsItself": {"host": "failed", "mcu": "passed"},
                          "After": {"host": "error", "mcu": "passed"},
                          "binary-checks": {"host": "failed", "mcu": "passed"}},
    # MCU only: the chip resets itself inside a case; the restarted firmware repeats record 0.
    "resets_mid_run_test": {"Before": "passed", "Resets": {"host": "passed", "mcu": "failed"}, "After": "passed",
                            "binary-checks": {"host": "passed", "mcu": "failed"}},
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
# What the failure message of an item must say (stem, item) -> words (or {"host"/"mcu"/board: words}).
MESSAGES: dict[tuple[str, str], list[str] | dict[str, list[str]]] = {
    ("forged_pass_then_hang_test", "ForgesThenHangs"): ["timed out"],
    ("hang_test", "Hangs"): ["timed out"],
    ("hang_test", "After"): ["not reached"],
    ("crashes_test", "CallsNull"): ["crashed"],
    ("duplicate_names_test", "binary-checks"): ["defined twice"],
    ("zero_cases_test", "binary-checks"): ["no tests ran"],
    ("forged_done_then_exit_test", "ForgesThenExits"): ["crashed", "before the end of the run"],
    ("forged_pass_then_fail_test", "Forges"): ["1 == 2 failed at", "(1 vs 2)"],
    ("forged_records_then_fail_test", "ForgesThenFails"): ["FAIL false failed at"],
    ("forged_records_then_hang_test", "ForgesThenHangs"): ["timed out"],
    ("forged_records_then_exit_test", "ForgesThenExits"): ["crashed", "before the end of the run"],
    ("forged_records_then_exit_test", "NeverReached"): ["not reached"],
    ("forged_end_begin_then_hang_test", "ForgesEnd"): ["timed out"],
    ("forged_end_begin_then_hang_test", "Innocent"): ["not reached", "timed out in ForgesEnd"],
    ("forged_end_begin_case_limit_test", "ForgesEnd"): ["timed out", "case timeout of 2 s"],
    ("forged_end_begin_case_limit_test", "Innocent"): ["not reached", "ForgesEnd"],
    ("unkeyed_records_test", "ExitsEarly"): ["crashed", "before the end of the run"],
    ("prefix_fragment_before_fail_test", "WholePrefix"): ["FAIL false failed at"],
    ("prefix_fragment_before_fail_test", "PartialPrefix"): ["FAIL false failed at"],
    ("prefix_fragment_before_fail_test", "RecordHead"): ["(1 vs 2)"],
    ("long_text_before_fail_test", "SeventyKilobytes"): ["FAIL false failed at"],
    ("long_text_before_fail_test", "PrefixAcrossTheCut"): ["(1 vs 2)"],
    ("escapes_around_fail_test", "AnsiAroundFail"): ["(7 vs 8)"],
    ("escapes_around_fail_test", "CarriageReturnBeforeFail"): ["FAIL false failed at"],
    ("escapes_around_fail_test", "NulBytesAroundFail"): ["FAIL false failed at"],
    ("hardfault_text_test", "PrintsFault"): ["crashed", "HardFault"],
    ("hardfault_text_test", "binary-checks"): ["crashed", "HardFault"],
    ("constructor_gtest_lines_fails_test", "Second"): ["(3 vs 2)"],
    ("constructor_check_fails_test", "binary-checks"): ["failure reported outside any test", "FAIL false failed at"],
    ("compiled_out_case_test", "CompiledOut"): ["not compiled into"],
    ("fork_child_fails_test", "binary-checks"): {"host": ["broken record stream", "came again"], "mcu": []},
    ("fork_child_lingers_test", "binary-checks"): {"host": ["left process"], "mcu": []},
    ("kills_itself_test", "KillsItself"): {"host": ["crashed", "killed by signal SIGTERM"], "mcu": []},
    ("kills_itself_test", "After"): {"host": ["not reached", "in KillsItself"], "mcu": []},
    ("resets_mid_run_test", "binary-checks"): {"host": [], "mcu": ["broken record stream", "record 0 came again"]},
    ("case_timeout_test", "Hangs"): ["timed out", "case timeout of 2 s",
                                     "// harness: timeout=2 at case_timeout_test.cc:14"],
    ("case_timeout_test", "Third"): ["not reached", "Hangs"],
}
# What the failure message of an item must not say: wrong diagnoses (stem, item) -> words.
WRONG_MESSAGES: dict[tuple[str, str], list[str]] = {
    # The START record came once, after the constructor's FAIL record: the binary did not start again.
    ("constructor_check_fails_test", "binary-checks"): ["a second START record", "started again"],
}
# Binaries whose run must end well before --micro-timeout (wall seconds of the whole binary, per board).
MAX_BINARY_S: dict[str, dict[str, float]] = {
    "case_timeout_test": {"host": 4.0, "mcu": 6.0},
    "forged_end_begin_case_limit_test": {"host": 4.0, "mcu": 6.0},
}


def _on(value: Any, board: str) -> Any:
    """``value`` for ``board``: itself, or its entry for the board ({board, "host" or "mcu"} -> value)."""
    if not isinstance(value, dict):
        return value
    if board in value:
        return value[board]
    return value["host" if board == "host" else "mcu" if board in MCU_BOARDS else board]


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
        for name, per_board in items.items():
            expected = _on(per_board, board)
            got, text, props = found.get((stem, name, board), ("missing", "", {}))
            limit = _on(MAX_BINARY_S[stem], board) if stem in MAX_BINARY_S else None
            took = float(props.get("binary_duration_s", "inf"))
            if limit is not None and name == "binary-checks" and not took < limit:
                wrong.append(f"{stem}[{board}]: the run took {props.get('binary_duration_s')} s, expected < {limit} s")
            if got != expected:
                wrong.append(f"{stem}::{name}[{board}]: expected {expected}, got {got}: {text[:300]}")
            for word in _on(MESSAGES.get((stem, name), []), board):
                if word not in text:
                    wrong.append(f"{stem}::{name}[{board}]: message lacks {word!r}: {text[:300]}")
            for word in WRONG_MESSAGES.get((stem, name), []):
                if word in text:
                    wrong.append(f"{stem}::{name}[{board}]: message wrongly says {word!r}: {text[:600]}")
    extra = sorted(f"{s}::{n}[{b}]" for s, n, b in found if b == board and n not in EXPECTED.get(s, {}))
    assert not wrong and not extra, "\n".join(wrong + [f"unexpected item {e}" for e in extra])


def test_fault_matrix_on_host(pytester: pytest.Pytester) -> None:
    _check(_run_matrix(pytester, "host"), "host")


@pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))
def test_fault_matrix_on_bluepill(pytester: pytest.Pytester) -> None:
    _check(_run_matrix(pytester, "bluepill"), "bluepill")


@pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))
def test_fault_matrix_on_netduinoplus2(pytester: pytest.Pytester) -> None:
    _check(_run_matrix(pytester, "netduinoplus2"), "netduinoplus2")
