"""Instructions per micro case under QEMU (harness/runners/insn_count.py): on every case that reaches its
end, the same on every run with the machine idle or loaded, in JUnit, in ``harness run``; nothing made up
for a case that never ended."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.driver import build, build_program
from harness.runners.insn_count import OFF_ENV
from harness.session import RunOptions, run_binary
from tests.harness_helpers import junit_cases, plugin_args, requires_mcu, run_cli

pytestmark = [requires_mcu]

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "counting" / "counted_test.cc"
BOARDS = ("bluepill", "netduinoplus2", "mps2_an505")


def _counted_elf(board_name: str) -> Path:
    built = build_program(load_board(board_name), FIXTURE, "counted_test", progress=None)
    assert built.elf is not None, built.error
    return built.elf


@pytest.mark.parametrize("board_name", BOARDS)
def test_every_ended_case_is_counted_exactly(board_name: str) -> None:
    board = load_board(board_name)
    report = run_binary(board, _counted_elf(board_name), RunOptions(backend="qemu"), source=FIXTURE)
    counts = report.case_instructions
    assert set(counts) == {"Empty", "ThousandRounds", "TwoThousandRounds", "FailsAfterHundredRounds"}, counts
    assert counts["Empty"] < 20  # the markers' own call and return
    per_round = (counts["TwoThousandRounds"] - counts["ThousandRounds"]) / 1000
    assert per_round == int(per_round) and 3 <= per_round <= 8, counts  # a whole number of instructions per round
    assert counts["ThousandRounds"] - counts["Empty"] >= 1000 * per_round


def _burn(seconds: float) -> list[subprocess.Popen[bytes]]:
    code = f"import time\nend = time.time() + {seconds}\nwhile time.time() < end: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(os.cpu_count() or 2)]


@pytest.mark.parametrize("board_name", BOARDS)
def test_counts_are_the_same_idle_and_with_the_machine_loaded(board_name: str) -> None:
    """SysTick interrupts follow the host's clock, so a loaded machine takes them at other instructions: the
    handlers are not counted, and the counts of two runs agree to the instruction."""
    board = load_board(board_name)
    names = ["softmax_test", "micro_test_test"]
    built = build(board, names, progress=None).binaries
    def figures(name: str) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
        report = run_binary(board, built[name].elf, RunOptions(backend="qemu"))
        return report.case_instructions, report.case_cycles, report.case_stack

    idle = {n: figures(n) for n in names}
    burners = _burn(30)
    try:
        loaded = {n: figures(n) for n in names}
    finally:
        for proc in burners:
            proc.kill()
            proc.wait()
    for name in names:  # instructions, estimated cycles and stack peaks alike
        assert all(idle[name]) and idle[name] == loaded[name], name
    idle = {n: counts for n, (counts, _, _) in idle.items()}
    assert sum(idle["softmax_test"].values()) > 1_000_000


def test_interrupts_taken_during_a_case_do_not_change_its_count(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A case long enough for SysTick to wrap many times (every 2**24 cycles of QEMU's 168 MHz clock, about 0.1 s
    of the host's time on netduinoplus2) takes as many interrupts as the host's time allows. Its count is the
    same idle and loaded; counted with the handlers (what the skip ranges prevent) it is larger."""
    source = tmp_path / "long_test.cc"
    source.write_text(FIXTURE.read_text().replace("TF_LITE_MICRO_TESTS_END", (
        "TF_LITE_MICRO_TEST(LongSpin) { Spin(1000000000); }\nTF_LITE_MICRO_TESTS_END")))
    board = load_board("netduinoplus2")
    built = build_program(board, source, "long_test", progress=None)
    assert built.elf is not None, built.error

    idle_report = run_binary(board, built.elf, RunOptions(backend="qemu", timeout_s=120))
    burners = _burn(60)
    try:
        loaded_report = run_binary(board, built.elf, RunOptions(backend="qemu", timeout_s=120))
    finally:
        for proc in burners:
            proc.kill()
            proc.wait()
    idle, loaded = idle_report.case_instructions["LongSpin"], loaded_report.case_instructions["LongSpin"]
    assert idle == loaded and idle > 4_000_000_000
    # the estimated cycles too: handlers add none, and the refill after an interrupt's return is not charged
    assert idle_report.case_cycles["LongSpin"] == loaded_report.case_cycles["LongSpin"] > idle
    assert idle_report.case_stack == loaded_report.case_stack  # exception stacking is not a store through SP
    from harness.runners import insn_count

    # Counting the handlers too: the same case counts more, by the SysTick handlers taken during it (how many
    # depends on how long the host took: that is what the skip ranges keep out of the count).
    monkeypatch.setattr(insn_count, "handler_ranges", lambda elf: [])
    with_handlers = run_binary(board, built.elf, RunOptions(backend="qemu", timeout_s=120)).case_instructions
    assert with_handlers["LongSpin"] > idle, "no SysTick interrupt during the case: this test shows nothing"


def test_a_case_that_crashes_has_no_count(tmp_path: Path) -> None:
    source = tmp_path / "crashing_test.cc"
    source.write_text(FIXTURE.read_text().replace("TF_LITE_MICRO_TESTS_END", (
        "TF_LITE_MICRO_TEST(Crashes) { Spin(10); reinterpret_cast<void (*)()>(0x1)(); }\n"
        "TF_LITE_MICRO_TEST(NeverReached) { Spin(10); }\nTF_LITE_MICRO_TESTS_END")))
    board = load_board("bluepill")
    built = build_program(board, source, "crashing_test", progress=None)
    assert built.elf is not None, built.error
    report = run_binary(board, built.elf, RunOptions(backend="qemu"), source=source)
    assert report.outcome == "crashed"
    assert "Crashes" not in report.case_instructions and "NeverReached" not in report.case_instructions
    assert set(report.case_instructions) == {"Empty", "ThousandRounds", "TwoThousandRounds",
                                             "FailsAfterHundredRounds"}


def test_counting_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OFF_ENV, "1")
    report = run_binary(load_board("bluepill"), _counted_elf("bluepill"), RunOptions(backend="qemu"), source=FIXTURE)
    assert report.outcome == "failed" and report.case_instructions == {}


def test_junit_and_harness_run_carry_the_counts(pytester: pytest.Pytester) -> None:
    target = pytester.path / "counted_test.cc"
    target.write_text(FIXTURE.read_text())
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", "--board=bluepill",
                                           f"--junitxml={junit}", timeout=600)
    assert result.ret == 1  # FailsAfterHundredRounds
    props = {name.split("::")[-1]: properties for name, (_, _, properties) in junit_cases(junit).items()}
    assert int(props["ThousandRounds[bluepill]"]["instructions"]) > 1000
    assert int(props["FailsAfterHundredRounds[bluepill]"]["instructions"]) > 100
    assert "instructions" not in props["binary-checks[bluepill]"]
    elf = _counted_elf("bluepill")
    proc = run_cli("run", str(elf), "--board", "bluepill", "-q")
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("harness: per case (qemu): instructions counted "
                                                                   "exactly; cycles and time ESTIMATED"))
    assert lines[at + 1].split() == ["case", "instructions", "est.", "cycles", "est.", "time", "stack", "(bytes)"]
    assert [line.split()[0] for line in lines[at + 2:at + 6]] == ["Empty", "ThousandRounds", "TwoThousandRounds",
                                                                  "FailsAfterHundredRounds"]
    assert lines[-1].startswith("harness: FAILED: counted_test on bluepill")  # the verdict stays the last line


def test_per_block_and_per_instruction_counting_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default adds once per translation block; under --icount the plugin adds per instruction (exact when
    QEMU's I/O recompilation leaves a block part-way). Both give the same counts."""
    board = load_board("bluepill")
    elf = _counted_elf("bluepill")
    per_block = run_binary(board, elf, RunOptions(backend="qemu"), source=FIXTURE)
    per_insn = run_binary(board, elf, RunOptions(backend="qemu", icount=7), source=FIXTURE)
    assert per_block.case_instructions and per_block.case_instructions == per_insn.case_instructions
    # the cycle estimate too: under -icount it is added per instruction, so a block QEMU cuts short at an I/O
    # access (FailsAfterHundredRounds prints its failure inside the case) is not counted twice
    assert per_block.case_cycles and per_block.case_cycles == per_insn.case_cycles
    assert per_block.case_stack == per_insn.case_stack


def test_a_case_over_its_instruction_budget_fails_with_the_numbers(tmp_path: Path) -> None:
    source = tmp_path / "budget_test.cc"
    source.write_text(FIXTURE.read_text()
                      .replace("TF_LITE_MICRO_TEST(ThousandRounds)",
                               "// harness: max_instructions=2000\nTF_LITE_MICRO_TEST(ThousandRounds)")
                      .replace("TF_LITE_MICRO_TEST(Empty) {}",
                               "TF_LITE_MICRO_TEST(Empty) {}  // harness: timeout=5, max_instructions=100"))
    board = load_board("bluepill")
    built = build_program(board, source, "budget_test", progress=None)
    assert built.elf is not None, built.error
    report = run_binary(board, built.elf, RunOptions(backend="qemu"), source=source)
    count = report.case_instructions["ThousandRounds"]
    assert count > 2000
    case = report.case("ThousandRounds")
    assert case is not None and case.outcome == "failed"
    assert (f"ThousandRounds executed {count:,} instructions, over its budget of 2,000 (+{count - 2000:,}"
            in case.messages[-1]) and "// harness: max_instructions=2000 at budget_test.cc:" in case.messages[-1]
    assert report.case("Empty").outcome == "passed"  # within its budget
    assert report.outcome == "failed"  # FailsAfterHundredRounds fails anyway; the budget adds its own
    # The same binary without the failing case: the budget alone fails the run.
    source.write_text(source.read_text().replace("TF_LITE_MICRO_EXPECT_EQ(1, 2);", ""))
    built = build_program(board, source, "budget_test", progress=None)
    assert built.elf is not None, built.error
    report = run_binary(board, built.elf, RunOptions(backend="qemu"), source=source)
    assert report.outcome == "failed" and report.summary.startswith("ThousandRounds executed "), report.summary


def test_budgets_where_nothing_counts_are_said_not_to_be_checked(tmp_path: Path) -> None:
    source = tmp_path / "budget_test.cc"
    source.write_text(FIXTURE.read_text().replace(
        "TF_LITE_MICRO_TEST(ThousandRounds)", "// harness: max_instructions=2000\nTF_LITE_MICRO_TEST(ThousandRounds)"))
    board = load_board("host")
    built = build_program(board, source, "budget_test", progress=None)
    assert built.elf is not None, built.error
    report = run_binary(board, built.elf, RunOptions(), source=source)
    assert report.case("ThousandRounds").outcome == "passed"
    assert any("instruction budgets not checked: ThousandRounds (host counts no instructions; QEMU does)" in n.text
               for n in report.notes)
