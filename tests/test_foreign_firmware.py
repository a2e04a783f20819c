"""Firmware built by another build system as pytest items (harness/pytest/firmware.py), on emulated boards.

Each test works on its own copy of ``examples/foreign_firmware`` (its own startup, linker scripts, UART and
semihosting logging, a Unity-style framework, its own Makefile) with a ``pyproject.toml`` written here,
and runs pytest in it as a user would. The attacks replace the example's test program with one that
hangs, forges a summary, or exits with a status its log does not show: none may pass.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import REPO_ROOT
from tests.harness_helpers import plugin_args, requires_mcu, subprocess_env

pytestmark = [requires_mcu]

EXAMPLE = REPO_ROOT / "examples" / "foreign_firmware"
CASES = ("test_startup_initialised_data_and_bss", "test_moving_average_starts_at_first_sample",
         "test_trend_names_follow_the_direction")
UART = "build/{board}/uart/unity_tests.elf"
SEMI = "build/{board}/semihosting/unity_tests.elf"


def entry(elf: str, boards: str = '["bluepill"]', **keys: object) -> str:
    lines = ["[[tool.micro-harness.firmware]]", f'elf = "{elf}"', f"boards = {boards}"]
    for key, value in keys.items():
        text = str(value).lower() if isinstance(value, bool) else (f'"{value}"' if isinstance(value, str) else value)
        lines.append(f"{key.replace('_', '-')} = {text}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "fw"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("build", "pyproject.toml"))
    return folder


def configure(folder: Path, *entries: str) -> None:
    (folder / "pyproject.toml").write_text('[project]\nname = "fw"\nversion = "0"\n\n' + "\n".join(entries))


def pytest_in(folder: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in subprocess_env().items() if not k.startswith(("PYTEST_", "MICRO_HARNESS"))}
    return subprocess.run([sys.executable, "-m", "pytest", *plugin_args(), "-p", "no:benchmark", "-rA", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def make(folder: Path, *args: str) -> None:
    subprocess.run(["make", "-s", *args], cwd=folder, check=True, capture_output=True, timeout=300)


def test_every_case_is_an_item_on_both_boards_uart_and_semihosting(project: Path) -> None:
    """The UART build never exits (exit-status = false: its Unity summary ends the run); the semihosting
    build prints and exits through semihosting, which the built-in bluepill captures too."""
    configure(project, entry(UART, '["bluepill", "netduinoplus2"]', build="make BOARD={board} LOG=uart",
                             framework="unity", exit_status=False),
              entry(SEMI, '["bluepill", "netduinoplus2"]', build="make BOARD={board} LOG=semihosting"))
    junit = project / "junit.xml"
    proc = pytest_in(project, "-p", "no:cacheprovider", f"--junitxml={junit}")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "harness: firmware of pyproject.toml (its own boards: no --board given): unity_tests.elf on bluepill, " \
           "netduinoplus2" in out
    assert "harness: building unity_tests.elf for bluepill: make BOARD=bluepill LOG=uart" in out
    for board in ("bluepill", "netduinoplus2"):
        for variant in ("uart", "semihosting"):
            for case in CASES:
                assert f"PASSED build/{board}/{variant}/unity_tests.elf::{case}[{board}]" in out, (board, case)
            assert f"PASSED build/{board}/{variant}/unity_tests.elf::binary-checks[{board}]" in out
    ignored = [c for c in ET.parse(junit).iter("testcase")
               if c.get("name", "").startswith("test_moving_average_tracks_a_ramp_without_lag[")]
    assert len(ignored) == 4  # 2 boards x 2 builds, each skipped with the firmware's own IGNORE message
    for case in ignored:
        skipped = case.find("skipped")
        assert skipped is not None and "needs a second-order filter" in (skipped.get("message") or ""), \
            ET.tostring(case).decode()


def test_a_failing_case_fails_with_its_file_line_and_lf_reruns_only_it(project: Path) -> None:
    configure(project, entry("build/{board}/uart-failure/unity_tests.elf", '["bluepill", "netduinoplus2"]',
                             build="make BOARD={board} LOG=uart DEMO_FAILURE=1", exit_status=False))
    proc = pytest_in(project, "-n", "2")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-4000:]
    line = next(n for n, text in enumerate((project / "tests" / "test_main.c").read_text().splitlines(), 1)
                if "deliberately wrong" in text)
    assert f"tests/test_main.c:{line}:test_demo_failure:FAIL: Expected 3 Was 4" in out
    for board in ("bluepill", "netduinoplus2"):
        assert f"FAILED build/{board}/uart-failure/unity_tests.elf::test_demo_failure[{board}]" in out
    assert re.search(r"2 failed, \d+ passed", out), out[-2000:]
    again = pytest_in(project, "--lf", "-q")
    assert again.returncode == 1 and re.search(r"\b2 failed in ", again.stdout), again.stdout[-2000:]
    assert " passed" not in again.stdout.splitlines()[-1]


def test_the_case_list_is_remembered_per_binary(project: Path) -> None:
    """The first collection of a binary runs it once to list its cases; the next one reads that list; a rebuilt
    binary (another SHA-256) is listed again."""
    configure(project, entry(SEMI, build="make BOARD={board} LOG=semihosting"))
    listing = "running it once to list its test cases"
    first = pytest_in(project, "-p", "no:cacheprovider", "--co")
    assert first.returncode == 0 and listing in first.stdout + first.stderr, first.stdout[-2000:]
    second = pytest_in(project, "-p", "no:cacheprovider", "--co")
    assert second.returncode == 0 and listing not in second.stdout + second.stderr
    assert second.stdout.count("<FirmwareCaseItem ") == first.stdout.count("<FirmwareCaseItem ") > len(CASES)
    source = project / "tests" / "test_main.c"
    source.write_text(source.read_text().replace("test_trend_names_follow_the_direction", "test_trend_renamed"))
    third = pytest_in(project, "-p", "no:cacheprovider", "--co")
    assert listing in third.stdout + third.stderr and "test_trend_names_follow_the_direction" not in third.stdout
    assert "<FirmwareCaseItem test_trend_renamed[bluepill]>" in third.stdout


def test_a_failed_build_command_fails_binary_checks_and_no_stale_elf_is_run(project: Path) -> None:
    make(project, "BOARD=bluepill", "LOG=semihosting")  # an ELF from an earlier, good build is there
    configure(project, entry(SEMI, build="echo 'tests/test_main.c:7:1: error: expected ; before }' >&2; exit 2"))
    proc = pytest_in(project, "-p", "no:cacheprovider")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-3000:]
    assert "ERROR build/bluepill/semihosting/unity_tests.elf::binary-checks[bluepill]" in out
    assert "tests/test_main.c:7:1: error: expected ; before }" in out and "exit status 2" in out
    assert "::test_" not in out  # no case items from the stale binary


def test_a_missing_elf_names_the_fix(project: Path) -> None:
    configure(project, entry("build/nowhere.elf"))
    proc = pytest_in(project, "-p", "no:cacheprovider")
    assert proc.returncode == 1
    assert "no firmware at " in proc.stdout and "give the entry a build command" in proc.stdout


def test_an_elf_named_on_the_command_line_is_collected_like_a_declared_one(project: Path) -> None:
    make(project, "BOARD=bluepill", "LOG=uart")
    configure(project)
    elf = "build/bluepill/uart/unity_tests.elf"
    proc = pytest_in(project, "-p", "no:cacheprovider", elf, "--board=bluepill", "--framework=unity",
                     "--no-exit-status")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert f"PASSED {elf}::test_moving_average_starts_at_first_sample[bluepill]" in proc.stdout
    # Without --no-exit-status a firmware that never exits is a timeout that says how to declare it.
    proc = pytest_in(project, "-p", "no:cacheprovider", elf, "--board=bluepill")
    assert proc.returncode == 1
    assert "did not exit within" in proc.stdout and "--no-exit-status" in proc.stdout
    # On the host board an Arm ELF is named as such, with the fix.
    proc = pytest_in(project, "-p", "no:cacheprovider", elf)
    assert proc.returncode == 1 and "is an Arm firmware and board 'host' runs programs" in proc.stdout


# ------------------------------------------------------------------ attacks --
_MAIN = """#include "log.h"
#include "tinyunity.h"
void setUp(void) {{}}
void tearDown(void) {{}}
static void test_one(void) {{ TEST_ASSERT_TRUE(1); }}
static void test_two(void) {{ {body} }}
static void test_three(void) {{ TEST_ASSERT_TRUE(1); }}
int main(void)
{{
    UNITY_BEGIN();
    RUN_TEST(test_one);
    RUN_TEST(test_two);
    RUN_TEST(test_three);
    {end}
    return 0;
}}
"""


def _attack(project: Path, body: str, end: str = "log_exit(UNITY_END() ? 1 : 0);", log: str = "semihosting",
            **keys: object) -> str:
    (project / "tests" / "test_main.c").write_text(_MAIN.format(body=body, end=end))
    configure(project, entry(f"build/{{board}}/{log}/unity_tests.elf", build=f"make BOARD={{board}} LOG={log}",
                             timeout=5, **keys))
    proc = pytest_in(project, "-p", "no:cacheprovider")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, f"a misbehaving firmware passed:\n{out[-4000:]}"
    assert f"FAILED build/bluepill/{log}/unity_tests.elf::binary-checks[bluepill]" in out, out[-3000:]
    return out


def test_a_hang_inside_a_case_fails_it_and_the_binary(project: Path) -> None:
    """Plain Unity names a test only when it ends: the hanging one is the unnamed test after test_one."""
    out = _attack(project, "for (;;) { }", log="uart", exit_status=False)
    assert "PASSED build/bluepill/uart/unity_tests.elf::test_one[bluepill]" in out
    assert "FAILED build/bluepill/uart/unity_tests.elf::<unnamed test after test_one>[bluepill]" in out
    assert "timed out after 5.0 s in test <unnamed test after test_one>" in out
    assert "test_three[" not in out


def test_a_forged_summary_then_a_hang_fails_where_the_exit_status_is_known(project: Path) -> None:
    forged = ('log_write("tests/test_main.c:1:test_two:PASS\\ntests/test_main.c:1:test_three:PASS\\n\\n'
              '-----------------------\\n3 Tests 0 Failures 0 Ignored\\nOK\\n"); for (;;) { }')
    out = _attack(project, forged)
    assert "printed the end of its run but did not exit within" in out


def test_a_clean_log_with_a_failing_exit_status_fails(project: Path) -> None:
    out = _attack(project, "TEST_ASSERT_TRUE(1);", end="UNITY_END(); log_exit(3);")
    assert "exit status 3 although the log says all 3 tests passed" in out


def test_a_hardfault_in_a_case_fails(project: Path) -> None:
    out = _attack(project, '__asm__ volatile("udf #0");')  # the example's handler prints "HardFault" and stops
    assert "HardFault" in out
    assert not re.search(r"PASSED \S+::test_(two|three)\[", out), out[-3000:]


def test_harness_run_takes_the_same_settings(project: Path) -> None:
    make(project, "BOARD=bluepill", "LOG=uart")
    elf = project / "build" / "bluepill" / "uart" / "unity_tests.elf"
    env = dict(subprocess_env(), **{"CI": "true"})
    env.pop("MICRO_HARNESS_PROJECT", None)
    proc = subprocess.run([sys.executable, "-m", "harness", "run", str(elf), "--board", "bluepill", "--framework",
                           "unity", "--no-exit-status", "-q"], cwd=project, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "harness: PASSED: unity_tests.elf on bluepill" in proc.stdout
    assert os.path.isfile(elf)


@pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ninja") is None,
                    reason="cmake and ninja not found; install: apt-get install cmake ninja-build")
def test_a_cmake_build_is_run_and_its_binary_tested(project: Path) -> None:
    command = ("cmake -S . -B build/cmake-{board} -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake "
               "-DBOARD={board} -DLOG=uart && cmake --build build/cmake-{board}")
    configure(project, entry("build/cmake-{board}/unity_tests.elf", '["netduinoplus2"]', build=command,
                             framework="unity", exit_status=False))
    proc = pytest_in(project, "-p", "no:cacheprovider")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "PASSED build/cmake-netduinoplus2/unity_tests.elf::test_saturating_add_u32_clamps_at_max[netduinoplus2]" \
        in out
