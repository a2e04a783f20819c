"""Estimated cycles per micro case (the QEMU plugin's Cortex-M timing model, harness/runners/insn_counter/
cortex_m_timing.c): on every counted case of the three timed boards, deterministic, held to budgets, in JUnit,
changed by the board's [timing] as the memory system says; and the model's decoder agrees with objdump on
every instruction of real binaries."""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import BoardError, load_board
from harness.build.driver import build, build_program
from harness.core.binary_info import load
from harness.runners.cortex_m_timing_test import CORES, KINDS, probe_library
from harness.session import RunOptions, run_binary
from tests.harness_helpers import junit_cases, plugin_args, requires_mcu

pytestmark = [requires_mcu]

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "counting" / "counted_test.cc"


def _built(board_name: str, source: Path = FIXTURE, name: str = "counted_test") -> Path:
    built = build_program(load_board(board_name), source, name, progress=None)
    assert built.elf is not None, built.error
    return built.elf


@pytest.mark.parametrize("board_name", ["bluepill", "netduinoplus2", "mps2_an505"])
def test_every_counted_case_has_its_estimated_cycles(board_name: str) -> None:
    board = load_board(board_name)
    report = run_binary(board, _built(board_name), RunOptions(backend="qemu"), source=FIXTURE)
    assert set(report.case_cycles) == set(report.case_instructions) == {
        "Empty", "ThousandRounds", "TwoThousandRounds", "FailsAfterHundredRounds"}
    timing = board.timing()
    assert timing is not None and report.timing_clock_hz == timing.clock_hz == board.clock_hz
    for case, cycles in report.case_cycles.items():
        assert cycles >= report.case_instructions[case], case  # no Cortex-M3/M4/M33 instruction takes 0 cycles
    per_round = (report.case_cycles["TwoThousandRounds"] - report.case_cycles["ThousandRounds"]) / 1000
    instructions = (report.case_instructions["TwoThousandRounds"] - report.case_instructions["ThousandRounds"]) / 1000
    # a whole number of cycles per round; a taken branch and a store each round make it more than one per instruction
    assert per_round == int(per_round) and instructions < per_round <= 2 * instructions, (per_round, instructions)


def _timed_variant(tmp_path: Path, timing: str) -> str:
    """A copy of netduinoplus2 with a [timing] table, as a project board (pyproject [tool.micro-harness])."""
    boards = tmp_path / "boards" / "np2_timed"
    boards.mkdir(parents=True)
    text = (REPO_ROOT / "boards" / "netduinoplus2" / "board.toml").read_text()
    text = text.replace('name = "netduinoplus2"', 'name = "np2_timed"')
    text = re.sub(r"(?m)^\[memory\]", f"[timing]\n{timing}\n\n[memory]", text)
    (boards / "board.toml").write_text(text)
    return "np2_timed"


def _use_project(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.core import project

    (folder / "pyproject.toml").write_text('[tool.micro-harness]\nboards = ["boards"]\n')
    loaded = project.load(folder)
    monkeypatch.setattr(project, "_current", loaded)
    monkeypatch.setenv(project.PROJECT_ENV, project.env_value(loaded))


def test_the_board_timing_table_shapes_the_estimate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Flash wait states make the same binary slower; an instruction cache wins most of it back; the estimated
    time is at [timing] clock_hz. The instruction counts never change."""
    elf = _built("netduinoplus2")
    results = {}
    for label, table in [("zero-wait", ""),
                         ("5 ws", "clock_hz = 168000000\nflash_wait_states = 5\nflash_line_bytes = 16"),
                         ("5 ws + ART", "clock_hz = 168000000\nflash_wait_states = 5\nflash_line_bytes = 16\n"
                                        "prefetch = true\nicache_lines = 64\ndcache_lines = 8")]:
        folder = tmp_path / label.replace(" ", "_").replace("+", "")
        name = _timed_variant(folder, table)
        _use_project(folder, monkeypatch)
        results[label] = run_binary(load_board(name), elf, RunOptions(backend="qemu"), source=FIXTURE)
    zero, waits, art = (results[k] for k in ("zero-wait", "5 ws", "5 ws + ART"))
    assert zero.case_instructions == waits.case_instructions == art.case_instructions
    spin = "TwoThousandRounds"
    # the loop body sits in one flash line (the fetch buffer holds it): the waits come from the calls and
    # returns around it, which the instruction cache then serves
    assert waits.case_cycles[spin] > zero.case_cycles[spin] + 5 * 4
    assert zero.case_cycles[spin] <= art.case_cycles[spin] < waits.case_cycles[spin]
    assert waits.timing_clock_hz == 168_000_000 and zero.timing_clock_hz == 16_000_000


def test_a_malformed_timing_table_is_refused_naming_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for table, message in [("flash_wait_state = 5", "[timing] has unknown keys ['flash_wait_state']"),
                           ("flash_line_bytes = 12", "flash_line_bytes must be a power of two"),
                           ("flash_wait_states = -1", "flash_wait_states must be a whole number >= 0"),
                           ("prefetch = 1", "prefetch must be true or false")]:
        folder = tmp_path / str(abs(hash(table)))
        name = _timed_variant(folder, table)
        _use_project(folder, monkeypatch)
        with pytest.raises(BoardError, match=re.escape(message)):
            load_board(name)


def test_a_case_over_its_cycle_budget_fails_with_the_numbers(tmp_path: Path) -> None:
    source = tmp_path / "cycle_budget_test.cc"
    source.write_text(FIXTURE.read_text()
                      .replace("TF_LITE_MICRO_TEST(ThousandRounds)",
                               "// harness: max_instructions=100000, max_cycles=3000\n"
                               "TF_LITE_MICRO_TEST(ThousandRounds)")
                      .replace("TF_LITE_MICRO_EXPECT_EQ(1, 2);", ""))
    board = load_board("netduinoplus2")
    elf = _built("netduinoplus2", source, "cycle_budget_test")
    report = run_binary(board, elf, RunOptions(backend="qemu"), source=source)
    cycles = report.case_cycles["ThousandRounds"]
    assert cycles > 3000 and report.case_instructions["ThousandRounds"] < 100000
    case = report.case("ThousandRounds")
    assert case is not None and case.outcome == "failed"
    assert (f"ThousandRounds took an estimated {cycles:,} cycles, over its budget of 3,000 (+{cycles - 3000:,}"
            in case.messages[-1]) and "// harness: max_cycles=3000 at cycle_budget_test.cc:" in case.messages[-1]
    assert report.outcome == "failed" and report.summary.startswith("ThousandRounds took an estimated ")
    # Without a timing model (host) the budget is said not to be checked, never passed over in silence.
    host = load_board("host")
    built = build_program(host, source, "cycle_budget_test", progress=None)
    assert built.elf is not None, built.error
    report = run_binary(host, built.elf, RunOptions(), source=source)
    assert report.outcome == "passed"
    assert any("cycle budgets not checked: ThousandRounds (host estimates no cycles" in n.text for n in report.notes)


def test_junit_carries_the_estimate(pytester: pytest.Pytester) -> None:
    """Per case: instructions, estimated cycles and time, stack, and a model figure the case printed."""
    (pytester.path / "counted_test.cc").write_text(FIXTURE.read_text().replace(
        "TF_LITE_MICRO_TEST(ThousandRounds) { Spin(1000); }",
        'TF_LITE_MICRO_TEST(ThousandRounds) { Spin(1000); MicroPrintf("tiny_model arena_used_bytes=%d", 1234); }'))
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", "--board=netduinoplus2",
                                           f"--junitxml={junit}", timeout=600)
    assert result.ret == 1  # FailsAfterHundredRounds
    props = {name.split("::")[-1]: properties for name, (_, _, properties) in junit_cases(junit).items()}
    spin = props["ThousandRounds[netduinoplus2]"]
    cycles = int(spin["estimated_cycles"])
    assert cycles > int(spin["instructions"]) > 1000
    assert float(spin["estimated_us"]) == pytest.approx(cycles / 16, abs=0.01)  # 16 MHz
    assert int(spin["stack_bytes"]) > 0 and spin["arena_bytes:tiny_model"] == "1234"
    assert "estimated_cycles" not in props["binary-checks[netduinoplus2]"]


# objdump mnemonics -> the model's classes they must fall in (the rest: any class but these)
_LOADS = {"load", "dual", "multi", "load_pc", "fp_mem"}
_STORES = {"store", "dual", "multi", "fp_mem"}


def _expected(mnemonic: str, operands: str) -> set[str] | None:
    base = mnemonic.split(".")[0]
    if base in ("it", "ite", "itt", "itte", "ittt", "itee", "itet", "ittee", "ittte", "itttt", "iteee", "itete",
                "iteet", "itett", "ittet", "iteet") or re.fullmatch(r"it[te]{0,3}", base):
        return {"it"}
    if base in ("tbb", "tbh"):
        return {"table"}
    if re.fullmatch(r"(b|bl|bx|blx|cbz|cbnz)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?", base):
        return {"branch"}
    if base.startswith(("pop", "ldm")) and "pc" in operands:
        return {"load_pc"}
    if base.startswith("ldr") and re.match(r"\s*pc\s*,", operands):
        return {"load_pc"}
    if base.startswith(("vldr", "vstr", "vldm", "vstm", "vpush", "vpop")):
        return {"fp_mem"}
    if base.startswith(("ldr", "ldm", "pop", "lda")) and not base.startswith("ldrex") or base.startswith("ldrex"):
        return _LOADS
    if base.startswith(("str", "stm", "push", "stl")):
        return _STORES
    if base.startswith(("sdiv", "udiv")):
        return {"div"}
    if re.fullmatch(r"(mul|mla|mls|smul\w*|umul\w*|smla\w*|umla\w*|smls\w*|smmul\w*|smmla\w*|smmls\w*|smuad\w*|"
                    r"smusd\w*|umaal|usad8|usada8)s?(eq|ne|cs|cc|mi|pl|hi|ls|ge|lt|gt|le)?", base):
        return {"mul"}
    if base.startswith("v"):
        return {"fp"}
    return None


@pytest.mark.parametrize("board_name, binary", [("bluepill", "fully_connected_test"),
                                                ("netduinoplus2", "conv_test"),
                                                ("netduinoplus2", "softmax_test"),
                                                ("mps2_an505", "depthwise_conv_test")])
def test_the_decoder_agrees_with_objdump_on_real_binaries(tmp_path: Path, board_name: str, binary: str) -> None:
    """Every instruction of a real binary's code (Cortex-M3 soft-float, M4F with the DSP kernels, M33 with
    FPv5): the model decodes the same size objdump does, and the class the mnemonic implies."""
    if shutil.which("arm-none-eabi-objdump") is None:
        pytest.skip("needs arm-none-eabi-objdump")
    board = load_board(board_name)
    elf = build(board, [binary], progress=None).binaries[binary].elf
    assert elf is not None
    lib = probe_library(tmp_path)
    model = lib.probe_model(CORES[board.timing().core], 0, 16, 0, 0, 0, 0, 0)
    text = load(elf).section(".text")
    assert text is not None
    code = load(elf).section_bytes(text)
    dump = subprocess.run(["arm-none-eabi-objdump", "-d", "-j", ".text", str(elf)],
                          capture_output=True, text=True, check=True).stdout
    # "<address>:\t<halfwords in hex>\t<mnemonic>\t<operands>"; data in the code shows as .word/.short
    rows = re.findall(r"(?m)^\s*([0-9a-f]+):\t((?:[0-9a-f]{4} ?){1,2})\s*\t(\S+)[ \t]*([^\n;@]*)", dump)
    kind, cycles, transfer = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    checked = 0
    wrong = []
    for address_text, halfwords, mnemonic, operands in rows:
        if mnemonic.startswith("."):
            continue  # literal pools
        address, size_objdump = int(address_text, 16), 2 * len(halfwords.split())
        offset = address - text.addr
        size = lib.probe_decode(model, code[offset:offset + 4].ljust(4, b"\0"), ctypes.byref(kind),
                                ctypes.byref(cycles), ctypes.byref(transfer))
        got = KINDS[kind.value]
        expected = _expected(mnemonic, operands)
        if size != size_objdump:
            wrong.append(f"{address_text}: {mnemonic} {operands}: size {size}, objdump {size_objdump}")
        elif expected is not None and got not in expected:
            wrong.append(f"{address_text}: {mnemonic} {operands}: decoded as {got}, expected {sorted(expected)}")
        elif expected is None and got in ("branch", "load_pc", "table", "load", "store", "multi", "dual"):
            wrong.append(f"{address_text}: {mnemonic} {operands}: decoded as {got}")
        checked += 1
    assert checked > 2000, checked
    assert not wrong, "\n".join(wrong[:30])


STACK_HELPER = """
namespace {
__attribute__((noinline)) int Deep(int depth) {
  volatile char frame[256];
  frame[0] = static_cast<char>(depth);
  return depth == 0 ? frame[0] : Deep(depth - 1) + frame[0];
}
}  // namespace

TF_LITE_MICRO_TESTS_BEGIN
"""
STACK_CASES = """
TF_LITE_MICRO_TEST(ShallowCall) { Deep(0); }

// harness: max_stack=1500
TF_LITE_MICRO_TEST(DeepCall) { Deep(7); }

TF_LITE_MICRO_TESTS_END
"""


@pytest.mark.parametrize("board_name", ["bluepill", "mps2_an505"])
def test_stack_peak_per_case_and_its_budget(tmp_path: Path, board_name: str) -> None:
    """Eight frames of 256+ bytes go about 7 x 260 bytes deeper than one; the figure is the same on every run,
    and the 1,500-byte budget of DeepCall fails it with the numbers."""
    source = tmp_path / "stack_test.cc"
    source.write_text(FIXTURE.read_text().replace("TF_LITE_MICRO_TESTS_END", STACK_CASES)
                      .replace("TF_LITE_MICRO_TESTS_BEGIN", STACK_HELPER)
                      .replace("TF_LITE_MICRO_EXPECT_EQ(1, 2);", ""))
    board = load_board(board_name)
    elf = _built(board_name, source, "stack_test")
    first = run_binary(board, elf, RunOptions(backend="qemu"), source=source)
    second = run_binary(board, elf, RunOptions(backend="qemu"), source=source)
    assert first.case_stack == second.case_stack
    stack = first.case_stack
    assert 7 * 256 <= stack["DeepCall"] - stack["ShallowCall"] <= 7 * 300, stack
    assert stack["ShallowCall"] >= stack["Empty"] + 256
    case = first.case("DeepCall")
    assert case is not None and case.outcome == "failed"
    assert f"DeepCall used {stack['DeepCall']:,} bytes of stack, over its budget of 1,500" in case.messages[-1]
    assert first.case("ShallowCall").outcome == "passed" and first.outcome == "failed"


def test_default_budgets_of_the_project_and_the_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pyproject case-budgets hold every case; a board's [run] case_budgets wins over them, a case's own
    '// harness:' budget over both; where each budget is written is in the message."""
    from harness.core import project

    source = tmp_path / "defaults_test.cc"
    source.write_text(FIXTURE.read_text().replace("TF_LITE_MICRO_EXPECT_EQ(1, 2);", "").replace(
        "TF_LITE_MICRO_TEST(TwoThousandRounds)",
        "// harness: max_cycles=100000\nTF_LITE_MICRO_TEST(TwoThousandRounds)"))
    elf = _built("netduinoplus2", source, "defaults_test")
    folder = tmp_path / "proj"
    name = _timed_variant(folder, "")
    _use_project(folder, monkeypatch)
    pyproject = folder / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "case-budgets = { max_cycles = 7000 }\n")
    monkeypatch.setattr(project, "_current", project.load(folder))
    report = run_binary(load_board(name), elf, RunOptions(backend="qemu"), source=source)
    outcomes = {case.name: case.outcome for case in report.cases}
    # ThousandRounds (about 6,000 cycles) is within 7,000; TwoThousandRounds has its own 100,000
    assert outcomes == {"Empty": "passed", "ThousandRounds": "passed", "TwoThousandRounds": "passed",
                        "FailsAfterHundredRounds": "passed"}, report.summary
    # the board's own default, lower, wins over the project's
    toml = folder / "boards" / name / "board.toml"
    toml.write_text(toml.read_text().replace("[run]\n", "[run]\ncase_budgets = { max_cycles = 5000 }\n", 1))
    report = run_binary(load_board(name), elf, RunOptions(backend="qemu"), source=source)
    case = report.case("ThousandRounds")
    assert case is not None and case.outcome == "failed"
    assert "over its budget of 5,000" in case.messages[-1] and "[run] case_budgets max_cycles=5000 in" in \
        case.messages[-1]
    assert report.case("TwoThousandRounds").outcome == "passed"  # its own budget wins
    assert report.outcome == "failed"
    # malformed defaults are refused naming the key
    pyproject.write_text(pyproject.read_text().replace("max_cycles = 7000", "max_cylces = 7000"))
    with pytest.raises(project.ProjectError, match="case-budgets has unknown key 'max_cylces'"):
        project.load(folder)
