"""The ``dut``, ``dut_factory`` and ``count`` fixtures in a real pytest run: several DUTs at once,
per-test log files in the run dir, their paths in failure reports, every device stopped and reaped
at teardown (the plugin fails a run whose processes outlive it)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from harness_helpers import FIXTURES, plugin_args, requires_mcu

from harness.board.boards import load_board
from harness.pytest.dut_plugin import log_dir_name


@pytest.fixture(scope="module")
def echo_host() -> Path:
    from harness.build.driver import build_program

    built = build_program(load_board("host"), FIXTURES / "echo_fixture.cc", "harness_fx_echo", progress=None)
    assert built.error is None and built.elf is not None, built.error
    return built.elf


TESTS = '''
import pytest

ECHO = {echo!r}


@pytest.mark.parametrize("count", [2], indirect=True)
def test_pair(dut):
    assert isinstance(dut, tuple) and [d.name for d in dut] == ["dut-0", "dut-1"]
    for device in dut:
        device.start(ECHO)
    for device in dut:
        device.expect_exact("echo> ", timeout=20)
    assert all(device.running for device in dut)
    dut[0].write("zero\\n")
    dut[1].write("one\\n")
    assert dut[0].expect(r"echo: (\\w+) \\[", timeout=10).group(1) == "zero"
    assert dut[1].expect(r"echo: (\\w+) \\[", timeout=10).group(1) == "one"
    # both left running: teardown must stop them at once, not wait for their 60 s limit


def test_factory(dut_factory, board):
    first, second = dut_factory(), dut_factory()
    peer = dut_factory("host", name="peer")
    assert [first.name, second.name, peer.name] == ["dut", "dut-1", "peer"]
    assert first.board is board and peer.board.name == "host"
    peer.start(ECHO)
    peer.expect_exact("echo ready", timeout=20)


def test_single_dut_fails_and_names_its_log(dut):
    assert dut.name == "dut"
    dut.start(ECHO)
    dut.expect_exact("echo> ", timeout=20)
    dut.write("marker-line\\n")
    dut.expect_exact("echo: marker-line", timeout=10)
    dut.expect("never printed", timeout=0.5)
'''


def _run(pytester: pytest.Pytester, echo: Path, *args: str) -> tuple[pytest.RunResult, float]:
    pytester.makepyfile(test_duts=TESTS.format(echo=str(echo)))
    start = time.monotonic()
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", "-p", "no:cacheprovider",
                                           "--no-micro-tests", *args, timeout=300)
    return result, time.monotonic() - start


def test_duts_logs_reports_and_teardown(pytester: pytest.Pytester, echo_host: Path) -> None:
    run_dir = pytester.path / "my-runs"
    result, took = _run(pytester, echo_host, f"--run-dir={run_dir}")
    output = result.stdout.str()
    result.assert_outcomes(passed=2, failed=1)
    assert took < 45, output  # the running DUTs were stopped at teardown, not waited for
    assert "outlived" not in output + result.stderr.str()  # every device process was reaped
    test_dir = run_dir / log_dir_name("test_duts.py::test_single_dut_fails_and_names_its_log[host]")
    log = test_dir / "dut.log"
    assert "echo: marker-line" in log.read_text()
    # The failure report names the DUT's full log, in the DutError message and its own section.
    assert f"full log: {log}" in output
    assert re.search(r"-+ dut logs -+\n" + re.escape(f"dut: {log}"), output), output
    pair = run_dir / log_dir_name("test_duts.py::test_pair[host-2]")
    assert "echo: zero" in (pair / "dut-0.log").read_text()
    assert "echo: one" in (pair / "dut-1.log").read_text()
    assert "echo: one" not in (pair / "dut-0.log").read_text()
    assert (run_dir / log_dir_name("test_duts.py::test_factory[host]") / "peer.log").is_file()
    assert output.count("- dut logs -") == 1  # only the failing test's report has the section


def test_default_run_dir_is_in_the_build_folder_and_shared_by_xdist_workers(
    pytester: pytest.Pytester, echo_host: Path
) -> None:
    result, _ = _run(pytester, echo_host, "-n", "2")
    output = result.stdout.str()
    result.assert_outcomes(passed=2, failed=1)
    logs = [Path(p) for p in re.findall(r"^dut: (\S+\.log)$", output, re.MULTILINE)]
    assert logs, output
    log = logs[0]
    run = log.parent.parent
    assert run.parent.name == "runs" and re.fullmatch(r"\d{8}-\d{6}-\d+", run.name), log
    assert (run.parent / "latest").resolve() == run.resolve()
    assert log.parent.parent.parent.parent not in (pytester.path, Path.cwd())  # never the project root itself
    # The other workers' tests wrote to the same run dir.
    assert (run / log_dir_name("test_duts.py::test_pair[host-2]") / "dut-1.log").is_file()


def test_log_dir_names() -> None:
    assert log_dir_name("tests/test_x.py::test_y[bluepill-2]") == "tests_test_x.py.test_y_bluepill-2"
    long = log_dir_name("t.py::test_" + "x" * 300)
    assert len(long) <= 120 and long != log_dir_name("t.py::test_" + "x" * 299)


def test_count_must_be_positive(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_bad='''
import pytest

@pytest.mark.parametrize("count", [0], indirect=True)
def test_zero(dut):
    pass
''')
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", "--no-micro-tests", timeout=120)
    assert result.ret != 0
    assert "count must be an integer >= 1, not 0" in result.stdout.str() + result.stderr.str()


@requires_mcu
def test_two_qemu_duts_at_once(pytester: pytest.Pytester) -> None:
    from harness.build.driver import build_program

    built = build_program(load_board("bluepill"), FIXTURES / "echo_fixture.cc", "harness_fx_echo", progress=None)
    assert built.elf is not None, built.error
    pytester.makepyfile(test_qemu=f'''
import pytest

@pytest.mark.parametrize("count", [2], indirect=True)
def test_pair(dut):
    for device in dut:
        assert device.backend == "qemu"
        device.start({str(built.elf)!r})
    for index, device in enumerate(dut):
        device.expect_exact("echo> ", timeout=30)
        device.write(f"board{{index}}\\n")
    for index, device in enumerate(dut):
        device.expect_exact(f"echo: board{{index}} [", timeout=20)
    assert all(device.running for device in dut)
''')
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", "--no-micro-tests",
                                           "--board=bluepill", "--qemu", f"--run-dir={pytester.path / 'runs'}",
                                           timeout=300)
    result.assert_outcomes(passed=1)
    assert "outlived" not in result.stdout.str() + result.stderr.str()
