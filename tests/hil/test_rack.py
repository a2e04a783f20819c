"""A hardware map of emulated boards: leasing across processes, and infra retry when a board dies mid-run.

Each "board" is a QEMU instance of the bluepill's machine halted behind its
GDB stub, with USART2 on a TCP socket (harness devices emulate); the firmware
is a real micro_runtime test built by the repo's Make for the bluepill.
Everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.formats.reader import parse_log
from harness.hil import board_state
from harness.hil.devices import load_hardware_map, write_hardware_map
from harness.hil.emulated import emulated_rack
from harness.hil.lease import holder
from harness.hil.pool import HilRunner
from harness.testing.hil_fw import hil_firmware  # noqa: F401  (fixture)

pytestmark = [
    pytest.mark.emulator,
    pytest.mark.skipif(
        shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
        reason="needs qemu-system-arm and arm-none-eabi-gcc (apt-get install qemu-system-arm gcc-arm-none-eabi)",
    ),
]
BLUEPILL = load_board("bluepill")
# The framework's record that starts a case: "~~~MT <seq> <mac> BEGIN <name>".
BEGIN_RECORD = re.compile(r"~~~MT [0-9]+ [0-9a-f]{8} BEGIN \w+")


@pytest.fixture(scope="module")
def test_elf() -> Path:
    from harness.build.driver import ensure_binary

    return ensure_binary(BLUEPILL, "kernel_util_test", progress=None)


@pytest.fixture
def rack(tmp_path: Path) -> Iterator[tuple[Path, list[Any]]]:
    hardware_map, boards = emulated_rack(BLUEPILL, 2, log_dir=tmp_path / "qemu")
    path = tmp_path / "rack.toml"
    write_hardware_map(hardware_map, path)
    try:
        yield path, boards
    finally:
        for board in boards:
            board.stop()


_WORKER = """
import json, sys, time
from pathlib import Path
from harness.board.boards import load_board
from harness.testing.hil_fw import hil_firmware  # noqa: F401  (fixture)
from harness.hil.pool import select_runner_for
from harness.formats.reader import parse_log
board = load_board("bluepill")
runner = select_runner_for(Path(sys.argv[1]))
run = runner.run(Path(sys.argv[2]), board, 60.0)
last = runner.last_attempts[-1]
print(json.dumps({"device": last.device, "start": last.leased_at, "end": last.released_at,
                  "outcome": parse_log(run.log, run).outcome, "attempts": len(runner.last_attempts)}))
"""


def test_runs_are_spread_over_the_boards_without_double_booking(rack: tuple[Path, list[Any]], test_elf: Path) -> None:
    path, _ = rack
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    workers = [
        subprocess.Popen([sys.executable, "-c", _WORKER, str(path), str(test_elf)], stdout=subprocess.PIPE, env=env)
        for _ in range(4)
    ]
    results = []
    for proc in workers:
        out, _ = proc.communicate(timeout=180)
        assert proc.returncode == 0
        results.append(json.loads(out.decode().strip().splitlines()[-1]))
    assert all(r["outcome"] == "passed" and r["attempts"] == 1 for r in results), results
    used = {r["device"] for r in results}
    assert used == {"bluepill-emu-1", "bluepill-emu-2"}, results  # both boards worked
    for device in used:  # one lease at a time per board: its runs never overlap
        spans = sorted((r["start"], r["end"]) for r in results if r["device"] == device)
        for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
            assert start >= end, f"{device} was double-booked: {spans}"


def test_board_killed_mid_run_is_retried_elsewhere_and_quarantined(
    rack: tuple[Path, list[Any]],
    hil_firmware: Any,  # noqa: F811
) -> None:
    # This firmware logs through semihosting: its lines reach on_line while the core is halted
    # on the request, so the board surely dies mid-run (a UART line may arrive after the exit).
    test_elf = hil_firmware("semihost")
    path, boards = rack
    hardware_map = load_hardware_map(path)
    by_id = dict(zip([d.id for d in hardware_map.devices], boards, strict=True))
    killed: list[str] = []

    def kill_the_leased_board(line: str) -> None:
        if killed or not BEGIN_RECORD.match(line):
            return
        for device_id, board in by_id.items():  # the board this process holds the lease on
            if f"pid={os.getpid()}" in (holder(device_id, hardware_map.lock_dir) or ""):
                board.stop()
                killed.append(device_id)

    start = time.monotonic()
    run = HilRunner(hardware_map).run(test_elf, BLUEPILL, 60.0, on_line=kill_the_leased_board)
    assert time.monotonic() - start < 60
    assert len(killed) == 1
    report = parse_log(run.log, run)
    assert report.outcome == "passed", (report.summary, run.log[-500:])
    survivor = next(d for d in by_id if d not in killed)
    first_line = run.annotated_log.split(b"\n", 1)[0].decode()  # the pool's note, apart from the device's bytes
    assert f"device {survivor}" in first_line and f"infrastructure error on {killed[0]}" in first_line
    quarantined = board_state.quarantined(load_hardware_map(path))
    assert list(quarantined) == killed  # flagged in rack.state.toml for everyone
    assert (path.parent / "rack.state.toml").is_file()
    # The next run does not even try the dead board.
    again = HilRunner(load_hardware_map(path)).run(test_elf, BLUEPILL, 60.0)
    assert parse_log(again.log, again).outcome == "passed"
    assert f"device {survivor}" in again.annotated_log.split(b"\n", 1)[0].decode()


def test_test_failures_are_not_retried(rack: tuple[Path, list[Any]], tmp_path: Path) -> None:
    from harness.testing.hil_fw import build_test_firmware, toolchain_missing

    if toolchain_missing():
        pytest.skip(toolchain_missing())
    failing = build_test_firmware("semihost_fail", tmp_path / "fw")
    path, _ = rack
    runner = HilRunner(load_hardware_map(path))
    run = runner.run(failing, BLUEPILL, 30.0)
    assert run.exit_code == 1
    assert parse_log(run.log, run).outcome == "failed"
    assert [a.failure_class for a in runner.last_attempts] == ["failed"]  # one attempt, no silent retry
    assert board_state.quarantined(load_hardware_map(path)) == {}


def test_all_boards_dead_is_an_infra_error_naming_them(rack: tuple[Path, list[Any]], test_elf: Path) -> None:
    path, boards = rack
    for board in boards:
        board.stop()
    runner = HilRunner(load_hardware_map(path))
    run = runner.run(test_elf, BLUEPILL, 30.0)
    assert run.end_reason == "infra-error"
    message = run.infra_error or ""
    assert "tried bluepill-emu-" in message and "bluepill-emu-1" in message and "bluepill-emu-2" in message
    assert "firmware or this host is the likely cause" in message
    # Nothing shows it is the boards (no board ran the binary): none is taken out of service.
    assert board_state.quarantined(load_hardware_map(path)) == {}
    assert runner.unavailable_reason(BLUEPILL) is None


def test_corrupt_elf_quarantines_nothing_and_is_not_retried(rack: tuple[Path, list[Any]], tmp_path: Path) -> None:
    path, boards = rack
    corrupt = tmp_path / "kernel_util_test"
    corrupt.write_bytes(b"\x7fELF\x01\x01\x01" + b"\x00" * 9 + b"garbage")
    runner = HilRunner(load_hardware_map(path))
    run = runner.run(corrupt, BLUEPILL, 30.0)
    assert run.end_reason == "infra-error"
    message = run.infra_error or ""
    assert "not a readable ELF" in message and "no board retried or quarantined" in message
    assert "(tried " not in message and runner.last_attempts == []
    assert board_state.quarantined(load_hardware_map(path)) == {}
    assert all(board.alive for board in boards)


def test_pytest_with_hardware_map_spreads_binaries_and_reports_devices(
    rack: tuple[Path, list[Any]], tmp_path: Path
) -> None:
    """The one command: pytest --board=bluepill --hardware-map rack.toml -n 2."""
    path, _ = rack
    junit = tmp_path / "junit.xml"
    tests = [f"micro_runtime/kernels/{name}_test.cc" for name in ("kernel_util", "add", "mul", "sin")]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--board=bluepill",
            f"--hardware-map={path}",
            "-n",
            "2",
            f"--junitxml={junit}",
            "-q",
            *tests,
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=REPO_ROOT,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "hardware in the loop" in proc.stdout and "binaries per board" in proc.stdout
    import xml.etree.ElementTree as ET

    props: dict[str, set[str]] = {}
    for prop in ET.parse(junit).getroot().iter("property"):
        props.setdefault(prop.get("name", ""), set()).add(prop.get("value", ""))
    assert props["hil_failure_class"] == {"passed"}
    assert props["hil_device"] <= {"bluepill-emu-1", "bluepill-emu-2"} and props["hil_device"]
    assert props["hil_attempts"] == {"1"}


def test_pytest_summary_and_junit_show_infrastructure_errors(rack: tuple[Path, list[Any]], tmp_path: Path) -> None:
    path, boards = rack
    for board in boards:  # the whole rack is down
        board.stop()
    junit = tmp_path / "junit.xml"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--board=bluepill",
            f"--hardware-map={path}",
            f"--junitxml={junit}",
            "-q",
            "micro_runtime/kernels/kernel_util_test.cc",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=REPO_ROOT,
    )
    assert proc.returncode != 0
    summary = proc.stdout[proc.stdout.index("hardware in the loop") :]
    assert "infrastructure error: micro_runtime/kernels/kernel_util_test.cc" in summary
    assert "QUARANTINED" not in summary  # every board failed it: no evidence against the boards
    assert "retried micro_runtime/kernels/kernel_util_test.cc" in summary
    import xml.etree.ElementTree as ET

    props = {(p.get("name"), p.get("value")) for p in ET.parse(junit).getroot().iter("property")}
    assert ("hil_failure_class", "infra-error") in props and ("hil_attempts", "2") in props


def test_dut_fixture_runs_on_the_hardware_map(rack: tuple[Path, list[Any]], tmp_path: Path) -> None:
    """Python-level device tests (the ``dut`` fixture) run on the map's boards, like the micro items."""
    path, _ = rack
    test_file = tmp_path / "test_on_rack.py"
    test_file.write_text(
        "import re\n"
        "def test_on_the_rack(dut):\n"
        "    assert dut.backend.startswith('hil:'), dut.backend\n"
        "    dut.start('kernel_util_test')\n"
        "    dut.expect(r'~~~MT [0-9]+ [0-9a-f]{8} BEGIN \\w+', timeout=30)\n"
        "    assert dut.wait().exit_code == 0\n"
        "    assert re.search(r'^~~~MT [0-9]+ [0-9a-f]{8} DONE PASSED\\r?$', dut.log, re.MULTILINE), dut.log\n"
        "    assert dut.report().outcome == 'passed'\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--board=bluepill", f"--hardware-map={path}",
         "--no-micro-tests", "--rootdir", str(REPO_ROOT), "-q", str(test_file)],
        capture_output=True, text=True, timeout=600, cwd=REPO_ROOT,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "1 passed" in proc.stdout


def test_run_model_runs_on_the_hardware_map(rack: tuple[Path, list[Any]]) -> None:
    """harness run-model --hardware-map: the model runner goes to a leased board of the map, as tests do."""
    from harness.cli.run_model import run_model

    path, _boards = rack
    hello = REPO_ROOT / "micro_runtime" / "examples" / "hello_world" / "models" / "hello_world_int8.tflite"
    cases = REPO_ROOT / "micro_runtime" / "examples" / "hello_world" / "models" / "hello_world_int8_cases.json"
    result = run_model(hello, "bluepill", cases, hardware_map=path, timeout_s=60)
    assert result["backend"] == "hil:gdbremote" and result.get("passed") is not False, result
