"""The pytest plugin end to end: real fixture programs built and run by a pytest in a subprocess.

Each test copies fixture sources (tests/fixtures/micro/pytester_*.cc) into a pytester
directory as ``*_test.cc``, runs ``pytest`` there, and checks what the user would see:
per-case outcomes, messages, JUnit XML with properties, -k/-x/--lf/-n, skips.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness_helpers import MCU_BOARD, PROGRAMS, copy_fixture, plugin_args, requires_mcu, subprocess_env
from harness_helpers import junit_cases as _junit

from harness.formats.micro_test import source_cases as scan_cases

# What each fixture must produce, per item name (without the [board] suffix).
EXPECTED: dict[str, dict[str, str]] = {
    "pass": {"AddsUp": "passed", "NearEnough": "passed", "binary-checks": "passed"},
    "fail": {"PassesBefore": "passed", "WrongProduct": "failure", "PassesAfter": "passed", "binary-checks": "passed"},
    # The case that crashed or hung is a failure; later cases are not reached (errors); the binary
    # did not end cleanly, so its own item fails too.
    "crash": {"RunsFirst": "passed", "CrashesHere": "failure", "NeverReached": "error", "binary-checks": "failure"},
    "hang": {"Quick": "passed", "SpinsForever": "failure", "AfterTheHang": "error", "binary-checks": "failure"},
    "zero": {"binary-checks": "failure"},
    # CompiledOut is in the source but not in the binary's compiled case list (its ELF): skipped.
    "mismatch": {"Visible": "passed", "CompiledOut": "skipped", "binary-checks": "failure"},
}


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in subprocess_env().items():
        monkeypatch.setenv(key, value)


def _run(pytester: pytest.Pytester, *args: str, timeout: float = 600) -> pytest.RunResult:
    return pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", *args, timeout=timeout)


def _check_expected(cases: dict[str, tuple[str, str, dict[str, str]]], board: str, programs: tuple[str, ...]) -> None:
    for program in programs:
        for item, outcome in EXPECTED[program].items():
            key = f"pytester_{program}_test::{item}[{board}]"
            assert key in cases, f"{key} missing from the JUnit report; have {sorted(cases)}"
            assert cases[key][0] == outcome, f"{key}: {cases[key][0]} != {outcome}\n{cases[key][1]}"


def test_scan_finds_cases_in_source_order_and_ignores_comments() -> None:
    source = "\n".join([
        "TF_LITE_MICRO_TEST(First) {}",
        "// TF_LITE_MICRO_TEST(Commented) {}",
        "/* TF_LITE_MICRO_TEST(Block)",
        "   TF_LITE_MICRO_TEST(StillBlock) */",
        "  TF_LITE_MICRO_TEST( Second ) {",
        "#define TF_LITE_MICRO_TEST(name) nope",
        "}",
    ])
    assert scan_cases(source) == ["First", "Second"]


def test_collects_one_item_per_case_and_board(pytester: pytest.Pytester, env: None) -> None:
    copy_fixture(pytester, "fail")
    result = _run(pytester, "--co", "-q", "--board=host,bluepill")
    result.stdout.fnmatch_lines([
        "pytester_fail_test.cc::PassesBefore[host]",
        "pytester_fail_test.cc::WrongProduct[host]",
        "pytester_fail_test.cc::PassesAfter[host]",
        "pytester_fail_test.cc::binary-checks[host]",
        "pytester_fail_test.cc::PassesBefore[bluepill]",
        "*8 tests collected*",
    ])
    assert result.ret == 0


def test_unknown_board_is_a_usage_error(pytester: pytest.Pytester, env: None) -> None:
    copy_fixture(pytester, "pass")
    result = _run(pytester, "--board=atari2600")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--board: unknown board 'atari2600'*known boards:*host*"])


def test_every_outcome_on_host(pytester: pytest.Pytester, env: None, tmp_path: Path) -> None:
    for program in PROGRAMS:
        copy_fixture(pytester, program)
    xml = tmp_path / "junit.xml"
    start = time.monotonic()
    result = _run(pytester, "--board=host", "--micro-timeout=3", f"--junitxml={xml}", "-rA")
    elapsed = time.monotonic() - start
    cases = _junit(xml)
    _check_expected(cases, "host", PROGRAMS)

    wrong = cases["pytester_fail_test::WrongProduct[host]"][1]
    assert "10 == Triple(3) failed at" in wrong and "pytester_fail_test.cc:12 (10 vs 9)" in wrong
    assert "SIGILL" in cases["pytester_crash_test::CrashesHere[host]"][1]
    assert "not reached: binary crashed in CrashesHere" in cases["pytester_crash_test::NeverReached[host]"][1]
    assert "timed out" in cases["pytester_hang_test::SpinsForever[host]"][1]
    assert "not reached: binary timed out in SpinsForever" in cases["pytester_hang_test::AfterTheHang[host]"][1]
    assert "no tests ran" in cases["pytester_zero_test::binary-checks[host]"][1]
    mismatch = cases["pytester_mismatch_test::binary-checks[host]"][1]
    # MadeByMacro is in the binary's compiled case list (its ELF) but the source scan made no item of it
    assert "cases compiled into the binary have no item" in mismatch and "MadeByMacro" in mismatch
    compiled_out = cases["pytester_mismatch_test::CompiledOut[host]"][1]
    assert "CompiledOut is not compiled into pytester_mismatch_test" in compiled_out

    props = cases["pytester_pass_test::AddsUp[host]"][2]
    assert props["board"] == "host" and props["backend"] == "host"
    assert int(props["flash_bytes"]) > 0 and int(props["ram_bytes"]) > 0
    assert float(props["binary_duration_s"]) < 2
    assert 0 <= float(props["duration_s"]) <= float(props["binary_duration_s"])
    # Only the hang waits for its timeout; everything else is reported at once.
    assert elapsed < 3 + 30, f"suite took {elapsed:.1f} s"
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_k_x_and_last_failed(pytester: pytest.Pytester, env: None) -> None:
    copy_fixture(pytester, "fail")
    copy_fixture(pytester, "pass")
    result = _run(pytester, "--board=host", "-k", "WrongProduct")
    result.assert_outcomes(failed=1, deselected=6)

    result = _run(pytester, "--board=host", "-x", "pytester_fail_test.cc")
    result.assert_outcomes(passed=1, failed=1)  # stopped at the first failure

    result = _run(pytester, "--board=host", "--lf")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed") == 1 and "passed" not in outcomes and "error" not in outcomes, outcomes
    result.stdout.fnmatch_lines(["*WrongProduct[[]host[]]*"])


def test_xdist_keeps_a_binary_on_one_worker(pytester: pytest.Pytester, env: None, tmp_path: Path) -> None:
    for program in ("pass", "fail", "crash", "zero"):
        copy_fixture(pytester, program)
    xml = tmp_path / "junit.xml"
    result = _run(pytester, "--board=host", "-n", "2", "-v", f"--junitxml={xml}")
    cases = _junit(xml)
    _check_expected(cases, "host", ("pass", "fail", "crash", "zero"))
    assert not [name for name in cases if "@" in name], sorted(cases)  # plain path::Case[board] names
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.no_fnmatch_line("*INTERNALERROR*")
    result.stdout.no_fnmatch_line("*@pytester_*")
    workers: dict[str, set[str]] = {}
    for line in result.outlines:
        match = re.search(r"\[(gw\d+)\].*\b(?:PASSED|FAILED|ERROR) (\S+?_test\.cc)::", line)
        if match:
            workers.setdefault(match.group(2), set()).add(match.group(1))
    assert len(workers) == 4, result.outlines
    assert all(len(names) == 1 for names in workers.values()), workers  # one worker per binary

    # The cache holds the same node ids as a run without -n: --lf re-runs only the failures.
    result = _run(pytester, "--board=host", "--lf", "-v")
    outcomes = result.parseoutcomes()
    # failed: WrongProduct, CrashesHere, the crash's and the zero binary's checks; error: NeverReached
    assert outcomes.get("failed") == 4 and outcomes.get("errors") == 1 and "passed" not in outcomes, outcomes
    result.stdout.fnmatch_lines(["*run-last-failure: rerun previous 5 failures*"])


def test_case_duration_is_the_time_the_case_took(pytester: pytest.Pytester, env: None, tmp_path: Path) -> None:
    """The JUnit duration_s of a case is measured on the live stream, not on the log parsed afterwards."""
    (pytester.path / "slow_test.cc").write_text(
        '#include "micro_runtime/micro_test.h"\n'
        "static volatile unsigned long g_spin;\n"
        "TF_LITE_MICRO_TESTS_BEGIN\n"
        "TF_LITE_MICRO_TEST(Quick) {}\n"
        "TF_LITE_MICRO_TEST(Slow) { for (g_spin = 0; g_spin < 2000000000UL; g_spin = g_spin + 1) {} }\n"
        "TF_LITE_MICRO_TESTS_END\n")
    xml = tmp_path / "junit.xml"
    result = _run(pytester, "--board=host", f"--junitxml={xml}")
    assert result.ret == 0, result.stdout.str()
    cases = _junit(xml)
    slow = float(cases["slow_test::Slow[host]"][2]["duration_s"])
    quick = float(cases["slow_test::Quick[host]"][2]["duration_s"])
    assert slow > 0.05 and quick < slow / 5, (quick, slow)
    assert slow <= float(cases["slow_test::Slow[host]"][2]["binary_duration_s"])


def test_build_error_shows_the_compiler_message(pytester: pytest.Pytester, env: None) -> None:
    broken = pytester.path / "broken_test.cc"
    broken.write_text('#include "micro_runtime/micro_test.h"\nTF_LITE_MICRO_TESTS_BEGIN\n'
                      "TF_LITE_MICRO_TEST(Typo) { int x = ; }\nTF_LITE_MICRO_TESTS_END\n")
    result = _run(pytester, "--board=host")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*broken_test not built for host:*broken_test.cc:3:*error:*"])


def test_build_error_in_a_harness_macro_is_shown_at_the_users_line(pytester: pytest.Pytester, env: None) -> None:
    """The compiler reports a bad comparison inside micro_test.h's macro; the item names the test's own line."""
    (pytester.path / "signs_test.cc").write_text(
        '#include "micro_runtime/micro_test.h"\nTF_LITE_MICRO_TESTS_BEGIN\nTF_LITE_MICRO_TEST(Signs) {\n'
        "  unsigned u = 1;\n  TF_LITE_MICRO_EXPECT_EQ(-1, u);\n}\nTF_LITE_MICRO_TESTS_END\n")
    result = _run(pytester, "--board=host")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*signs_test not built for host: /*signs_test.cc:5:3: error: comparison of integer "
                                 "expressions of different signedness*(micro_runtime/micro_test.h:*, in expansion of "
                                 "macro*TF_LITE_MICRO_EXPECT_EQ*"])


def test_the_ini_key_lets_warnings_pass_in_a_projects_tests(pytester: pytest.Pytester, env: None,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """micro_warnings_as_errors = false in the project's pytest.ini: its test with a warning builds and runs.
    --strict-config: pytest knows the key (an unknown one would be an error)."""
    from harness.core.project import PROJECT_ENV

    monkeypatch.delenv(PROJECT_ENV, raising=False)  # the pytester folder is the project, not this checkout
    (pytester.path / "unused_test.cc").write_text(
        '#include "micro_runtime/micro_test.h"\nTF_LITE_MICRO_TESTS_BEGIN\n'
        "TF_LITE_MICRO_TEST(Unused) {\n  int unused = 3;\n  TF_LITE_MICRO_EXPECT_EQ(1, 1);\n}\n"
        "TF_LITE_MICRO_TESTS_END\n")
    pytester.makeini("[pytest]\nmicro_warnings_as_errors = false\n")
    result = _run(pytester, "--board=host", "--strict-config")
    result.assert_outcomes(passed=2, warnings=1)  # the warning is shown, not lost
    result.stdout.fnmatch_lines(["*unused_test built for host with compiler warnings:*",
                                 "*unused_test.cc:4:7: warning: unused variable*"])
    pytester.makeini("[pytest]\nmicro_warnings_as_errors = true\n")
    result = _run(pytester, "--board=host", "--strict-config")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*unused_test not built for host: unused_test.cc:4:7: error: unused variable*"])


def test_renode_absent_is_an_error_with_the_reason(pytester: pytest.Pytester, env: None) -> None:
    if shutil.which("renode"):
        pytest.skip("Renode is installed here; the missing-Renode path needs a machine without it")
    copy_fixture(pytester, "pass")
    result = _run(pytester, f"--board={MCU_BOARD}", "--renode")
    result.assert_outcomes(errors=3)
    result.stdout.fnmatch_lines(["*renode cannot run bluepill*"])
    result = _run(pytester, f"--board={MCU_BOARD}", "--renode", "--skip-unavailable", "-rs")
    result.assert_outcomes(skipped=3)
    result.stdout.fnmatch_lines(["*renode cannot run bluepill*"])


def _hardware_map(pytester: pytest.Pytester, device: str) -> Path:
    path = pytester.path / "rack.toml"
    path.write_text(f'[[device]]\nid = "{MCU_BOARD}-1"\nboard = "{MCU_BOARD}"\n{device}\n')
    return path


def test_hardware_map_pyocd_board_skips_with_the_maps_backend(pytester: pytest.Pytester, env: None,
                                                             tmp_path: Path) -> None:
    # Asked in a child python: importing pyOCD here left this process's entry point lookup
    # (harness_helpers.plugin_installed) empty for the tests after it.
    check = "from harness.runners.pyocd_runner import target_support_problem as t; print(t('stm32f103c8') or '')"
    problem = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True,
                             env=subprocess_env()).stdout.strip()
    if not problem:
        pytest.skip("pyOCD supports the bluepill's target here; the skip path needs a machine without its pack")
    copy_fixture(pytester, "pass")
    rack = _hardware_map(pytester, 'backend = "pyocd"\nprobe = "0000"')
    xml = tmp_path / "junit.xml"
    # --qemu too: an emulator backend must neither label nor gate a run on the map's boards.
    result = _run(pytester, f"--board={MCU_BOARD}", "--qemu", f"--hardware-map={rack}", f"--junitxml={xml}", "-rs",
                  "--skip-unavailable")
    result.assert_outcomes(skipped=3)
    result.stdout.fnmatch_lines([f"*hil:pyocd cannot run {MCU_BOARD}: {problem}*"])
    result.stdout.no_fnmatch_line("*qemu cannot run*")
    result.stdout.fnmatch_lines([f"harness: boards {MCU_BOARD} (hil:pyocd)*"])
    assert {props["backend"] for _, _, props in _junit(xml).values()} == {"hil:pyocd"}


@requires_mcu
@pytest.mark.emulator
def test_hardware_map_run_is_labelled_with_the_maps_backend(pytester: pytest.Pytester, env: None,
                                                            tmp_path: Path) -> None:
    copy_fixture(pytester, "pass")
    # A serial board on a closed loopback port: it builds, then the map's runner reports an infra error.
    rack = _hardware_map(pytester, 'backend = "serial"\nserial = "socket://127.0.0.1:9"\nhandshake = false')
    xml = tmp_path / "junit.xml"
    result = _run(pytester, f"--board={MCU_BOARD}", f"--hardware-map={rack}", "--hil-retries=0",
                  "--micro-timeout=5", f"--junitxml={xml}")
    cases = _junit(xml)
    props = cases[f"pytester_pass_test::AddsUp[{MCU_BOARD}]"][2]
    assert props["backend"] == "hil:serial", props
    assert props.get("hil_device"), props  # an out-of-tree binary's ELF name carries a hash suffix
    assert "pytester_pass_test on hil:serial:" in cases[f"pytester_pass_test::AddsUp[{MCU_BOARD}]"][1]
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_dut_and_board_fixtures(pytester: pytest.Pytester, env: None, host_programs: dict[str, Path]) -> None:
    pytester.makepyfile(test_device=f"""
        import re

        import pytest
        from harness.pytest.dut import DutError

        def test_expect_lines(dut, board):
            assert board.name == "host"
            dut.start({str(host_programs["fail"])!r})
            # the framework's records: "~~~MT <seq> <mac> BEGIN <case>"
            assert dut.expect(r"~~~MT [0-9]+ [0-9a-f]{{8}} BEGIN (\\w+)", timeout=10).group(1) == "PassesBefore"
            assert dut.expect(r"~~~MT [0-9]+ [0-9a-f]{{8}} BEGIN (\\w+)", timeout=10).group(1) == "WrongProduct"
            result = dut.wait()
            assert result.exit_code == 1
            assert re.search(r"^~~~MT [0-9]+ [0-9a-f]{{8}} DONE FAILED\\r?$", dut.log, re.MULTILINE), dut.log
            assert dut.report().outcome == "failed"

        def test_expect_gives_up_with_the_log_tail(dut):
            dut.run({str(host_programs["pass"])!r})
            with pytest.raises(DutError, match="not found: the device run ended") as error:
                dut.expect("never printed", timeout=5)
            assert re.search(r"~~~MT [0-9]+ [0-9a-f]{{8}} DONE PASSED", str(error.value))
    """)
    result = _run(pytester, "--board=host", "-v", "--no-micro-tests")
    result.stdout.fnmatch_lines(["*test_expect_lines[[]host[]] PASSED*"])
    result.assert_outcomes(passed=2)


@requires_mcu
@pytest.mark.emulator
def test_every_outcome_on_the_emulated_board(pytester: pytest.Pytester, env: None, tmp_path: Path) -> None:
    for program in ("pass", "fail", "crash", "zero", "mismatch"):
        copy_fixture(pytester, program)
    xml = tmp_path / "junit.xml"
    result = _run(pytester, f"--board={MCU_BOARD}", "--qemu", "--micro-timeout=30", f"--junitxml={xml}")
    cases = _junit(xml)
    _check_expected(cases, MCU_BOARD, ("pass", "fail", "crash", "zero", "mismatch"))

    wrong = cases[f"pytester_fail_test::WrongProduct[{MCU_BOARD}]"][1]
    assert "pytester_fail_test.cc:12 (10 vs 9)" in wrong
    crash = cases[f"pytester_crash_test::CrashesHere[{MCU_BOARD}]"]
    assert "HardFault" in crash[1] and "HarnessFixtureCrashHere" in crash[1], crash[1]
    # Failure and crash are reported long before the 30 s timeout.
    assert float(crash[2]["binary_duration_s"]) < 3
    assert float(cases[f"pytester_fail_test::WrongProduct[{MCU_BOARD}]"][2]["binary_duration_s"]) < 3
    props = cases[f"pytester_pass_test::AddsUp[{MCU_BOARD}]"][2]
    assert props["backend"] == "qemu" and props["board"] == MCU_BOARD
    assert 0 < int(props["flash_bytes"]) <= 65536 and 0 < int(props["ram_bytes"]) <= 20480
    assert result.ret == pytest.ExitCode.TESTS_FAILED


@requires_mcu
@pytest.mark.emulator
def test_hang_on_the_emulated_board_times_out(pytester: pytest.Pytester, env: None, tmp_path: Path) -> None:
    copy_fixture(pytester, "hang")
    xml = tmp_path / "junit.xml"
    start = time.monotonic()
    _run(pytester, f"--board={MCU_BOARD}", "--qemu", "--micro-timeout=3", f"--junitxml={xml}")
    assert time.monotonic() - start < 3 + 30
    _check_expected(_junit(xml), MCU_BOARD, ("hang",))


def test_missing_cross_toolchain_is_an_error_naming_the_packages(pytester: pytest.Pytester, env: None,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("qemu-system-arm") is None:
        pytest.skip("needs qemu-system-arm so the items get as far as the build")
    tools = pytester.path / "tools"
    tools.mkdir()
    for tool in ("make", "g++", "gcc", "flatc", "qemu-system-arm"):
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(tools))
    copy_fixture(pytester, "pass")
    result = _run(pytester, f"--board={MCU_BOARD}", "--qemu")
    result.assert_outcomes(errors=3)
    result.stdout.fnmatch_lines([
        "*arm-none-eabi-g++ for board 'bluepill' not found; install it: apt-get install gcc-arm-none-eabi "
        "libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib*",
    ])
