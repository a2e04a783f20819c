"""harness.build.driver: discovery, tool checks, the shared per-board lock, incremental builds, link errors."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from harness_helpers import FIXTURES, MCU_BOARD, requires_mcu, subprocess_env

from harness import REPO_ROOT
from harness.board.boards import MemoryRegion, load_board
from harness.build.diagnostics import explain_link_error
from harness.build.driver import ARM_PACKAGES, BuildError, build, build_program, check_tools, discover_tests
from harness.build.make import board_lock, gen_dir


def test_discovery_matches_the_makefile() -> None:
    out = subprocess.run(["make", "-s", "-C", str(REPO_ROOT / "micro_runtime"), "TARGET=host", "list_tests"],
                         capture_output=True, text=True, check=True, env=subprocess_env())
    assert sorted(out.stdout.split()) == sorted(discover_tests())


def test_missing_cross_compiler_names_the_packages() -> None:
    board = dataclasses.replace(load_board("host"), name="nowhere", core="cortex-m3",
                                toolchain_prefix="arm-none-eabi-", cxx="arm-none-eabi-g++-does-not-exist")
    with pytest.raises(BuildError) as error:
        check_tools(board)
    assert "arm-none-eabi-g++-does-not-exist" in str(error.value)
    assert ARM_PACKAGES in str(error.value)


def test_linker_region_overflow_becomes_a_fit_message(tmp_path: Path) -> None:
    if shutil.which("arm-none-eabi-gcc") is None:
        pytest.skip("arm-none-eabi-gcc not found; install: " + ARM_PACKAGES)
    (tmp_path / "big.c").write_text("const char table[3000] = {1};\nint main(void) { return table[1]; }\n")
    (tmp_path / "tiny.ld").write_text(
        "MEMORY { FLASH (rx) : ORIGIN = 0x08000000, LENGTH = 1K\n RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 1K }\n"
        "SECTIONS { .text : { *(.text*) *(.rodata*) } > FLASH }\n"
    )
    link = subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m3", "-mthumb", "-nostdlib", "-T", "tiny.ld",
                           "big.c", "-o", "big.elf"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert link.returncode != 0
    board = dataclasses.replace(load_board("host"), name="tiny", core="cortex-m3",
                                flash=MemoryRegion(0x08000000, 1024), ram=MemoryRegion(0x20000000, 1024))
    message = explain_link_error("big_test", board, link.stderr)
    assert message is not None
    if "overflowed by" in link.stderr:
        assert message.startswith("big_test needs ") and "B flash but tiny has 1,024 B" in message
    else:  # ld names only the section when it alone exceeds the region
        assert message.startswith("big_test needs more than tiny's 1,024 B of FLASH")
    assert "try --board=" in message or "no board in boards/ is big enough" in message

    overflow = "ld: region `FLASH' overflowed by 2000 bytes\ncollect2: error: ld returned 1 exit status"
    assert "big_test needs 3,024 B flash but tiny has 1,024 B" in str(explain_link_error("big_test", board, overflow))


def test_one_process_builds_a_board_at_a_time(tmp_path: Path) -> None:
    """A second process blocks on the board lock until the first releases it."""
    name = f"locktest{time.monotonic_ns()}"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\nfrom harness.build.driver import board_lock\n"
         f"with board_lock({name!r}, None):\n    print('locked', flush=True)\n    time.sleep(1.5)\n"],
        stdout=subprocess.PIPE, text=True, env=subprocess_env())
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        messages: list[str] = []
        start = time.monotonic()
        with board_lock(name, messages.append):
            waited = time.monotonic() - start
        assert waited >= 0.8, "the lock did not make us wait for the holder"
        assert messages and "waiting for another process" in messages[0]
    finally:
        holder.wait(timeout=10)
        shutil.rmtree(gen_dir(name), ignore_errors=True)


def _first_buildable_host_test() -> str:
    board = load_board("host")
    for name in sorted(discover_tests()):
        result = build(board, [name], progress=None)
        if result.ok:
            return name
    pytest.fail("no micro test builds on the host; fix the tree first (make -C micro_runtime TARGET=host)")


def test_rebuild_without_changes_compiles_nothing() -> None:
    board = load_board("host")
    name = _first_buildable_host_test()
    elf = gen_dir(board) / "bin" / name
    before = elf.stat().st_mtime_ns
    again = build(board, [name], progress=None)
    assert again.ok
    assert " -c " not in again.output and " -o " not in again.output, again.output
    assert elf.stat().st_mtime_ns == before
    built = again.binaries[name]
    assert built.footprint is not None and built.footprint.flash > 0


def test_program_goal_reports_compiler_errors(tmp_path: Path) -> None:
    broken = tmp_path / "broken_program.cc"
    broken.write_text((FIXTURES / "pytester_pass.cc").read_text() + "\nint this_is_not_cpp = ;\n")
    result = build_program(load_board("host"), broken, "pytester_broken_program", progress=None)
    assert result.elf is None and result.error is not None
    assert "broken_program.cc" in result.error and "error:" in result.error


@requires_mcu
@pytest.mark.emulator
def test_binary_too_big_for_the_board_names_numbers_and_a_board_that_fits(tmp_path: Path) -> None:
    source = tmp_path / "too_big_program.cc"
    source.write_text(
        '#include "micro_runtime/micro_test.h"\n'
        "extern const unsigned char kHuge[80000];\n"
        "const unsigned char kHuge[80000] = {1, 2, 3};\n"
        "TF_LITE_MICRO_TESTS_BEGIN\n"
        "TF_LITE_MICRO_TEST(UsesTheTable) {\n"
        "  volatile int index = 1;  // keeps the table from being folded away and gc'ed\n"
        "  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(kHuge[index]));\n"
        "}\n"
        "TF_LITE_MICRO_TESTS_END\n"
    )
    board = load_board(MCU_BOARD)
    result = build_program(board, source, "harness_too_big_test", progress=None)
    assert result.elf is None and result.error is not None
    assert board.flash is not None
    assert "harness_too_big_test needs " in result.error
    assert f"but {MCU_BOARD} has {board.flash.size:,} B" in result.error
    assert "try --board=" in result.error or "no board in boards/ is big enough" in result.error


# -- builds that cannot lie: a copied checkout builds, a failed build leaves no binary --------------
_COPY_TEST = "micro_log_test"
_BUILD_IN_COPY = """
import json, sys
from harness.board.boards import load_board
from harness.build.driver import build
from harness.build.make import elf_path
built = build(load_board("host"), [sys.argv[1]], progress=None).binaries[sys.argv[1]]
print(json.dumps({"elf": str(built.elf) if built.elf else None, "error": built.error,
                  "exists": elf_path("host", sys.argv[1]).exists()}))
"""


def _copy_checkout(to: Path) -> Path:
    """micro_runtime (without gen/), boards and harness: what a host build needs."""
    shutil.copytree(REPO_ROOT / "micro_runtime", to / "micro_runtime", ignore=shutil.ignore_patterns("gen"))
    for part in ("boards", "harness"):
        shutil.copytree(REPO_ROOT / part, to / part, ignore=shutil.ignore_patterns("__pycache__"))
    return to


def _build_in(root: Path, name: str = _COPY_TEST) -> dict:
    env = dict(subprocess_env(), PYTHONPATH=str(root))
    proc = subprocess.run([sys.executable, "-c", _BUILD_IN_COPY, name], cwd=root, capture_output=True, text=True,
                          env=env, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def moved_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkout built in one place, then copied (gen/ with it, times kept) and built again elsewhere."""
    if _COPY_TEST not in discover_tests():
        pytest.skip(f"{_COPY_TEST}.cc is gone; pick another small host test")
    first = _copy_checkout(tmp_path_factory.mktemp("checkout_a"))
    assert _build_in(first)["error"] is None
    moved = tmp_path_factory.mktemp("checkout_b") / "moved"
    shutil.copytree(first, moved, symlinks=True)
    shutil.rmtree(first)  # the old place is gone, as after a move
    return moved


@pytest.mark.slow
def test_copied_checkout_builds_afresh(moved_checkout: Path) -> None:
    result = _build_in(moved_checkout)
    assert result["error"] is None, result["error"]
    assert result["exists"] and Path(result["elf"]).is_relative_to(moved_checkout)
    gen = moved_checkout / "micro_runtime" / "gen" / "host"
    assert (gen / ".repo_root").read_text() == str(moved_checkout)
    stale = [p for p in gen.rglob("*") if p.is_file() and p.suffix in (".mk", ".d", ".txt", ".ld")
             and "checkout_a" in p.read_text(errors="replace")]
    assert stale == []


@contextmanager
def _broken_after_a_good_build(checkout: Path, appended: str) -> Iterator[Path]:
    """The test's source with ``appended`` after a good build of it (the ELF exists); restored after."""
    source = checkout / "micro_runtime" / f"{_COPY_TEST}.cc"
    good = source.read_text()
    assert _build_in(checkout)["exists"]
    source.write_text(good + appended)
    try:
        yield checkout / "micro_runtime" / "gen" / "host" / "bin" / _COPY_TEST
    finally:
        source.write_text(good)


@pytest.mark.slow
def test_failed_compile_leaves_no_binary(moved_checkout: Path) -> None:
    with _broken_after_a_good_build(moved_checkout, "\nint this_is_not_cpp = ;\n") as elf:
        # make alone (no harness) removes the binary of the object it failed to compile
        make = subprocess.run(["make", "-C", str(moved_checkout / "micro_runtime"), "TARGET=host", _COPY_TEST],
                              capture_output=True, text=True, check=False,
                              env=dict(subprocess_env(), PYTHONPATH=str(moved_checkout)))
        after_make = elf.exists()
        broken = _build_in(moved_checkout)
    assert make.returncode != 0 and "this_is_not_cpp" in make.stderr
    assert not after_make, "a failed make left the old binary to run"
    assert broken["elf"] is None and "error:" in broken["error"]
    assert not broken["exists"]


@pytest.mark.slow
def test_failed_link_leaves_no_binary_and_no_memory_hint(moved_checkout: Path) -> None:
    appended = "\nvoid NeverDefined();\nint g_calls_it = (NeverDefined(), 0);\n"
    with _broken_after_a_good_build(moved_checkout, appended):
        broken = _build_in(moved_checkout)
    assert broken["elf"] is None and "undefined reference" in broken["error"]
    assert not broken["exists"]
    assert "does not fit" not in broken["error"] and "overflowed" not in broken["error"]
