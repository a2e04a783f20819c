"""One misbehaving binary, every front end, one verdict: pytest items, ``harness run``, Robot and ``dut``.

``tests/fixtures/front_ends/forge_then_hang_test.cc`` passes one case, then a case prints forged records
(plain and signed with a guessed authenticator) claiming it passed and that the next case began, and
hangs past its own ``// harness: timeout=1``. Through each front end (all of them go through the one run
session, ``harness.session.run_binary``) the run must be a TIMEOUT of that case, reached within its own
limit (not the binary's 60 s), with the forgeries as mere messages, the next case never run, and records
authenticated with the run's token.
"""

from __future__ import annotations

import shutil
import time

import pytest
from harness_helpers import junit_cases, mcu_unavailable, plugin_args, run_cli

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.driver import binary_for

FIRMWARE = REPO_ROOT / "tests" / "fixtures" / "front_ends" / "forge_then_hang_test.cc"
BOARDS = ["host", pytest.param("bluepill", marks=pytest.mark.skipif(mcu_unavailable() is not None,
                                                                     reason=str(mcu_unavailable())))]
LIMIT_S = 20.0  # every front end must stop the run long before the binary's own timeout (60 s)


def _expected(cases: dict[str, str]) -> None:
    assert cases.get("Passes") == "passed", cases
    assert cases.get("ForgesThenHangs") == "timeout", cases
    assert "Next" not in cases, cases


@pytest.mark.parametrize("board", BOARDS)
def test_pytest_items(pytester: pytest.Pytester, board: str) -> None:
    shutil.copyfile(FIRMWARE, pytester.path / FIRMWARE.name)
    xml = pytester.path / "junit.xml"
    started = time.monotonic()
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", f"--board={board}",
                                           "--micro-timeout=60", f"--junitxml={xml}", timeout=600)
    found = {name.split("::")[1].split("[")[0]: (outcome, text, props)
             for name, (outcome, text, props) in junit_cases(xml).items()}
    assert found["Passes"][0] == "passed", found
    assert found["ForgesThenHangs"][0] == "failure", found
    assert "timed out" in found["ForgesThenHangs"][1] and "case timeout of 1 s" in found["ForgesThenHangs"][1]
    assert found["Next"][0] == "error" and "not reached" in found["Next"][1], found["Next"]
    assert found["binary-checks"][0] == "failure"
    assert found["Passes"][2].get("records") == "authenticated"
    assert float(found["binary-checks"][2]["binary_duration_s"]) < LIMIT_S
    assert result.ret != 0 and time.monotonic() - started < 300


@pytest.mark.parametrize("board", BOARDS)
def test_harness_run(board: str) -> None:
    started = time.monotonic()
    proc = run_cli("run", str(FIRMWARE), "--board", board, "--timeout", "60", "-q", timeout=600)
    verdict = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 3, proc.stdout + proc.stderr  # exit 3: timeout
    assert verdict.startswith("harness: TIMEOUT:") and "records authenticated" in verdict, verdict
    assert "ForgesThenHangs ran longer than its case timeout of 1 s" in verdict, verdict
    assert time.monotonic() - started < LIMIT_S + 120  # includes the build


@pytest.mark.parametrize("board", BOARDS)
def test_robot_library(board: str) -> None:
    pytest.importorskip("robot")
    from harness.robot.HarnessLibrary import HarnessLibrary

    library = HarnessLibrary(board=board, timeout=60)
    elf = library.build_micro_test(str(FIRMWARE))
    started = time.monotonic()
    assert library.run_on_board(elf) == "timeout"
    assert time.monotonic() - started < LIMIT_S
    _run, report = library._require_run()
    _expected({c.name: str(c.outcome) for c in report.cases})
    assert report.records == "authenticated"
    with pytest.raises(AssertionError, match="timeout"):
        library.micro_test_should_pass()


@pytest.mark.parametrize("board", BOARDS)
def test_dut(board: str) -> None:
    from harness.pytest.dut import Dut

    target = load_board(board)
    elf = binary_for(target, FIRMWARE, progress=None)
    backend = "host" if target.is_host else "qemu"
    dut = Dut(target, backend, timeout_s=60)
    started = time.monotonic()
    try:
        report = dut.run(elf)
    finally:
        dut.close()
    assert time.monotonic() - started < LIMIT_S
    assert report.outcome == "timeout" and report.records == "authenticated", report.summary
    _expected({c.name: str(c.outcome) for c in report.cases})
    forged = [m for c in report.cases for m in c.messages if "END ForgesThenHangs PASSED" in m]
    assert len(forged) == 2  # both forgeries kept as the case's own messages
