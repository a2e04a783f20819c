"""QEMU runner on real firmware ELFs (the self-contained mini firmware), no mocked emulator."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from harness.formats.reader import parse_log
from harness.runners import get_runner
from harness.runners.base import RunResult
from harness.runners.qemu import QemuRunner, qemu_command
from harness.testing.mini_fw import build_mini_firmware, mini_board, toolchain_missing

pytestmark = pytest.mark.emulator


@pytest.fixture(scope="module")
def fw(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = toolchain_missing() or (None if shutil.which("qemu-system-arm") else "qemu-system-arm not found")
    if missing:
        pytest.skip(missing)
    return tmp_path_factory.mktemp("qemu fw")  # space in the path: commands must not split it


# The run, its lines with their monotonic times, the monotonic end and start.
_TimedRun = tuple[RunResult, list[tuple[float, str]], float, float]


def _timed_run(elf: Path, timeout_s: float = 20.0, **qemu: object) -> _TimedRun:
    lines: list[tuple[float, str]] = []
    start = time.monotonic()
    run = get_runner("qemu").run(
        elf, mini_board(run=None, **qemu), timeout_s, on_line=lambda s: lines.append((time.monotonic(), s))
    )
    end = time.monotonic()
    return run, lines, end, start


def test_pass_semihosting(fw: Path) -> None:
    run, lines, _, _ = _timed_run(build_mini_firmware("PASS", fw))
    assert (run.backend, run.exit_code, run.end_reason) == ("qemu", 0, "exit")
    assert [s for _, s in lines] == ["Testing Mini", "1/1 tests passed", "~~~ALL TESTS PASSED~~~"]
    report = parse_log(run.log, run)
    assert report.outcome == "passed" and [c.name for c in report.cases] == ["Mini"]


def test_pass_over_uart(fw: Path) -> None:
    run, _, _, _ = _timed_run(build_mini_firmware("PASS", fw, uart=True))
    assert run.exit_code == 0
    assert parse_log(run.log, run).outcome == "passed"


def test_uart_on_second_serial_slot_is_not_captured_from_the_first(fw: Path) -> None:
    # USART1 is QEMU's serial0: with the log slot set to 1 its output goes to "null".
    run, _, _, _ = _timed_run(build_mini_firmware("PASS", fw, uart=True), serial=1)
    assert run.exit_code == 0 and b"Testing" not in run.log


def test_fail(fw: Path) -> None:
    run, _, _, _ = _timed_run(build_mini_firmware("FAIL", fw))
    assert run.exit_code == 1 and run.end_reason == "exit"
    assert parse_log(run.log, run).outcome == "failed"


def test_end_then_halt_without_exit_is_a_hang(fw: Path) -> None:
    """QEMU carries the semihosting exit status: a run that ends but never exits did not end cleanly."""
    from harness.formats.reader import EXIT_AFTER_END_S

    run, lines, end, _ = _timed_run(build_mini_firmware("PASS", fw, halt=True), timeout_s=30)
    sentinel_at = next(t for t, s in lines if s == "~~~ALL TESTS PASSED~~~")
    assert end - sentinel_at < EXIT_AFTER_END_S + 1.0
    assert run.end_reason == "no-exit" and not run.timed_out and run.exit_code is None
    assert parse_log(run.log, run).outcome == "timeout"


def test_fail_then_halt_detected_within_a_second_without_exit_status(fw: Path) -> None:
    """A board whose firmware never exits (``[run] exit_status = false``) ends at the log's end of run."""
    lines: list[tuple[float, str]] = []
    board = mini_board(run={"exit_status": False})
    run = get_runner("qemu").run(build_mini_firmware("FAIL", fw, halt=True), board, 30,
                                 on_line=lambda s: lines.append((time.monotonic(), s)))
    end = time.monotonic()
    sentinel_at = next(t for t, s in lines if s == "~~~SOME TESTS FAILED~~~")
    assert end - sentinel_at < 1.0
    assert run.end_reason == "end-marker" and not run.timed_out and run.exit_code is None
    assert parse_log(run.log, run).outcome == "failed"


def test_crash_exit(fw: Path) -> None:
    elf = build_mini_firmware("CRASH", fw)
    run, lines, end, _ = _timed_run(elf)
    assert run.exit_code == 3 and run.end_reason == "crash"
    fault_at = next(t for t, s in lines if s.startswith("*** HardFault:"))
    assert end - fault_at < 1.0
    report = parse_log(run.log, run, elf, mini_board())
    assert report.outcome == "crashed" and report.crash is not None
    assert report.cases[0].outcome == "crashed"


def test_crash_then_halt_detected_within_a_second(fw: Path) -> None:
    run, lines, end, _ = _timed_run(build_mini_firmware("CRASH", fw, halt=True), timeout_s=30)
    fault_at = next(t for t, s in lines if s.startswith("*** HardFault:"))
    assert end - fault_at < 1.0
    assert run.end_reason == "crash" and not run.timed_out
    assert parse_log(run.log, run).outcome == "crashed"


def test_exit_early_is_a_crash(fw: Path) -> None:
    run, _, _, _ = _timed_run(build_mini_firmware("EXIT_EARLY", fw))
    assert run.exit_code == 2 and run.end_reason == "exit"
    report = parse_log(run.log, run)
    assert report.outcome == "crashed" and "exit status 2" in report.summary


def test_hang_ends_at_the_timeout(fw: Path) -> None:
    run, _, end, start = _timed_run(build_mini_firmware("HANG", fw), timeout_s=1.0)
    assert run.timed_out and run.end_reason == "timeout"
    assert 1.0 <= end - start < 2.5
    assert parse_log(run.log, run).outcome == "timeout"
    assert not _qemu_running_for(fw)


def test_icount_is_deterministic_and_still_passes(fw: Path) -> None:
    run, _, _, _ = _timed_run(build_mini_firmware("PASS", fw), icount=4)
    assert run.exit_code == 0
    assert "-icount" in qemu_command(Path("x.elf"), mini_board(icount=4))
    assert QemuRunner(icount=2).icount == 2


def test_command_line() -> None:
    argv = qemu_command(Path("/a b/fw.elf"), mini_board(serial=1, extra_args=["-cpu", "cortex-m3"]))
    assert argv[:3] == ["qemu-system-arm", "-M", "stm32vldiscovery"]
    assert argv[argv.index("-serial") + 1] == "null"
    assert "chardev:log0" in argv and "enable=on,target=native,chardev=log0" in argv
    assert argv[-2:] == ["-kernel", "/a b/fw.elf"]
    assert argv[-4:-2] == ["-cpu", "cortex-m3"]


def test_bad_machine_is_infra_error(fw: Path) -> None:
    run, _, _, _ = _timed_run(build_mini_firmware("PASS", fw), machine="no-such-machine")
    assert run.end_reason == "infra-error" and "no-such-machine" in (run.infra_error or "")
    assert parse_log(run.log, run).outcome == "infra-error"


def test_missing_elf_is_infra_error(tmp_path: Path) -> None:
    run = get_runner("qemu").run(tmp_path / "none.elf", mini_board(), 5)
    assert run.end_reason == "infra-error" and "does not exist" in (run.infra_error or "")


def test_unavailable_reasons(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from harness.board.boards import load_board

    runner = get_runner("qemu")
    assert "host backend" in (runner.unavailable_reason(load_board("host")) or "")
    assert "[qemu] machine" in (runner.unavailable_reason(mini_board(machine="")) or "")
    monkeypatch.setenv("PATH", str(tmp_path))
    reason = runner.unavailable_reason(mini_board()) or ""
    assert "qemu-system-arm not found" in reason and "apt-get install qemu-system-arm" in reason


def _qemu_running_for(directory: Path) -> bool:
    out = subprocess.run(["ps", "-eo", "stat=,args="], capture_output=True, text=True, check=True).stdout
    return any(str(directory) in line and not line.startswith("Z") for line in out.splitlines())


def test_runner_overhead_is_small(fw: Path) -> None:
    """Benchmark target: the runner adds <= 0.1 s per binary to the raw emulator run."""
    import statistics

    elf = build_mini_firmware("PASS", fw)
    argv = qemu_command(elf, mini_board())
    raw, runner = [], []
    for _ in range(7):  # interleaved, so machine load hits both alike
        start = time.monotonic()
        subprocess.run(argv, capture_output=True, check=True)
        raw.append(time.monotonic() - start)
        start = time.monotonic()
        assert get_runner("qemu").run(elf, mini_board(), 10).exit_code == 0
        runner.append(time.monotonic() - start)
    # Best of 7: the fastest run of each is the least disturbed by other load on the machine.
    overhead = min(runner) - min(raw)
    assert overhead < 0.1, (
        f"runner {min(runner):.3f} s vs raw {min(raw):.3f} s "
        f"(medians {statistics.median(runner):.3f}/{statistics.median(raw):.3f})"
    )


def test_mirrored_log_is_captured_once(fw: Path) -> None:
    """A board logging to semihosting AND the UART prints every line twice; the log must not."""
    import dataclasses

    elf = build_mini_firmware("PASS", fw)  # semihosting only
    both = dataclasses.replace(mini_board(), raw={**mini_board().raw, "log": {"transports": ["semihosting", "uart"]}})
    run = get_runner("qemu").run(elf, both, 10)
    assert run.log.count(b"Testing Mini") == 1
    uart_only = dataclasses.replace(mini_board(), raw={**mini_board().raw, "log": {"transports": ["uart"]}})
    run = get_runner("qemu").run(elf, uart_only, 10)
    # A UART board still captures semihosting text (a foreign firmware may print there), once, with its exit.
    assert run.exit_code == 0 and run.log.count(b"Testing Mini") == 1
    run = get_runner("qemu").run(build_mini_firmware("PASS", fw, uart=True), uart_only, 10)
    assert parse_log(run.log, run).outcome == "passed"


def test_lockup_is_a_crash_with_qemus_reason(fw: Path) -> None:
    run, _, _, _ = _timed_run(build_mini_firmware("LOCKUP", fw))
    assert run.end_reason == "crash" and run.exit_code is None and run.infra_error is None
    report = parse_log(run.log, run)
    assert report.outcome == "crashed" and "Lockup" in report.summary
    assert report.cases[0].outcome == "crashed"


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"not an elf at all", "is not an ELF file"), (Path("/bin/true"), "ELF for another machine (e_machine=")],
)
def test_non_arm_elf_is_infra_error(tmp_path: Path, content: bytes | Path, message: str) -> None:
    path = tmp_path / "fw.elf"
    path.write_bytes(content.read_bytes() if isinstance(content, Path) else content)
    run = get_runner("qemu").run(path, mini_board(), 10)
    assert run.end_reason == "infra-error" and message in (run.infra_error or "")
