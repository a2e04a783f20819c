"""What a failed build says: the linker's overflow as a does-not-fit message, make's output from the first
error on, and the first error placed in the user's own source."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.diagnostics import errors_only, explain_link_error, first_error_line
from harness.core import project
from harness.testing.mini_fw import GCC, toolchain_missing

BLUEPILL = load_board("bluepill")  # 65,536 B flash, 20,480 B RAM
LD = "/usr/lib/gcc/arm-none-eabi/12.2.1/../../../arm-none-eabi/bin/ld"
HEADER = REPO_ROOT / "micro_runtime" / "micro_test.h"


# --------------------------------------------------------------------------------- explain_link_error --
def test_a_flash_overflow_names_the_need_and_a_board_that_fits() -> None:
    output = f"{LD}: region `FLASH' overflowed by 4468 bytes\ncollect2: error: ld returned 1 exit status\n"
    assert explain_link_error("conv_test", BLUEPILL, output) == (
        "conv_test needs 70,004 B flash but bluepill has 65,536 B; try --board=netduinoplus2")


def test_a_ram_overflow_and_both_at_once() -> None:
    ram = f"{LD}: region 'RAM' overflowed by 9520 bytes\n"
    assert explain_link_error("conv_test", BLUEPILL, ram) == (
        "conv_test needs 30,000 B RAM but bluepill has 20,480 B; try --board=netduinoplus2")
    both = (f"{LD}: region `FLASH' overflowed by 10 bytes\n{LD}: region `RAM' overflowed by 200000 bytes\n"
            f"{LD}: region `RAM' overflowed by 100 bytes\n")  # the largest count of a region counts
    assert explain_link_error("conv_test", BLUEPILL, both) == (
        "conv_test needs 65,546 B flash but bluepill has 65,536 B and 220,480 B RAM but bluepill has 20,480 B; "
        "try --board=mps2_an505")


def test_a_section_that_will_not_fit_without_a_byte_count() -> None:
    text = f"{LD}: conv_test.elf section `.text' will not fit in region `FLASH'\ncollect2: error: ld returned 1\n"
    assert explain_link_error("conv_test", BLUEPILL, text) == (
        "conv_test needs more than bluepill's 65,536 B of FLASH: section .text alone does not fit; "
        "try --board=netduinoplus2")
    bss = f"{LD}: conv_test.elf section `.bss' will not fit in region `RAM'\n"
    assert explain_link_error("conv_test", BLUEPILL, bss) == (
        "conv_test needs more than bluepill's 20,480 B of RAM: section .bss alone does not fit; "
        "try --board=netduinoplus2")
    biggest = load_board("mps2_an505")
    assert explain_link_error("conv_test", biggest, bss) == (
        "conv_test needs more than mps2_an505's 2,097,152 B of RAM: section .bss alone does not fit; "
        "no board in boards/ is big enough; shrink the binary or add a board")


def test_a_board_without_memory_limits_still_names_the_section() -> None:
    bare = dataclasses.replace(BLUEPILL, name="bare", flash=None, ram=None)
    output = "ld: x.elf section `.data' will not fit in region `RAM'\n"
    assert explain_link_error("x", bare, output) == "x: section .data does not fit in region RAM of bare"


def test_other_link_errors_are_not_explained() -> None:
    assert explain_link_error("x", BLUEPILL, "a.cc:(.text+0x5): undefined reference to `Foo()'\n") is None
    assert explain_link_error("x", BLUEPILL, "") is None


@pytest.mark.parametrize(("source", "table", "buffer"), [("flash", 70000, 100), ("ram", 100, 30000)])
def test_the_real_linkers_overflow_gives_the_binarys_real_need(tmp_path: Path, source: str, table: int,
                                                               buffer: int) -> None:
    missing = toolchain_missing()
    if missing is not None:
        pytest.skip(missing)
    (tmp_path / "fw.c").write_text(f"const char table[{table}] = {{1}};\nchar buffer[{buffer}];\n"
                                   "void reset_handler(void) { for (;;) { buffer[0] = table[buffer[1]]; } }\n")
    script = ("MEMORY {{ FLASH (rx) : ORIGIN = 0x08000000, LENGTH = {flash}\n"
              "RAM (rwx) : ORIGIN = 0x20000000, LENGTH = {ram} }}\nENTRY(reset_handler)\n"
              "SECTIONS {{ .text : {{ *(.text*) *(.rodata*) }} > FLASH\n"
              ".data : {{ *(.data*) }} > RAM AT > FLASH\n.bss (NOLOAD) : {{ *(.bss*) *(COMMON) }} > RAM }}\n")
    (tmp_path / "bluepill.ld").write_text(script.format(flash="64K", ram="20K"))
    (tmp_path / "roomy.ld").write_text(script.format(flash="1M", ram="128K"))
    command = [GCC, "-mcpu=cortex-m3", "-mthumb", "-O1", "-nostdlib", "fw.c"]
    failed = subprocess.run([*command, "-T", "bluepill.ld", "-o", "small.elf"], cwd=tmp_path, capture_output=True,
                            text=True, check=False)
    assert failed.returncode != 0
    subprocess.run([*command, "-T", "roomy.ld", "-o", "fw.elf"], cwd=tmp_path, check=True, capture_output=True)
    size = subprocess.run(["arm-none-eabi-size", "fw.elf"], cwd=tmp_path, check=True, capture_output=True,
                          text=True).stdout.splitlines()[1].split()
    text, data, bss = (int(value) for value in size[:3])
    need = f"{text + data:,} B flash but bluepill has 65,536 B" if source == "flash" else (
        f"{data + bss:,} B RAM but bluepill has 20,480 B")
    assert explain_link_error("fw", BLUEPILL, failed.stderr) == f"fw needs {need}; try --board=netduinoplus2"


# ---------------------------------------------------------------------------------------- errors_only --
def test_errors_only_starts_three_lines_before_the_first_error_without_compile_commands() -> None:
    output = "\n".join([
        "[board.mk] bluepill",
        "arm-none-eabi-g++ -mcpu=cortex-m3 -O2 -c kernels/add.cc -o gen/add.o",
        "building add_test",
        "In file included from kernels/add_test.cc:1:",
        "kernels/add_test.cc: In function 'void Test()':",
        "kernels/add_test.cc:12:3: error: 'x' was not declared in this scope",
        "   12 |   x = 1;",
        "make: *** [Makefile:80: gen/add_test.o] Error 1",
    ])
    assert errors_only(output).splitlines() == [
        "building add_test",
        "In file included from kernels/add_test.cc:1:",
        "kernels/add_test.cc: In function 'void Test()':",
        "kernels/add_test.cc:12:3: error: 'x' was not declared in this scope",
        "   12 |   x = 1;",
        "make: *** [Makefile:80: gen/add_test.o] Error 1",
    ]


def test_errors_only_finds_make_errors_and_undefined_references() -> None:
    assert errors_only("a\nb\nc\nd\ne\nmain.cc:(.text+0x8): undefined reference to `Foo()'\nf") == (
        "c\nd\ne\nmain.cc:(.text+0x8): undefined reference to `Foo()'\nf")
    assert errors_only("one\nmake: *** [all] Error 2") == "one\nmake: *** [all] Error 2"
    assert errors_only("no problem here\nat all") == "no problem here\nat all"  # nothing to narrow


def test_errors_only_is_cut_at_the_limit_saying_how_much_more() -> None:
    output = "\n".join(["x.cc:1:1: error: first"] + [f"line {i}" for i in range(10)])
    assert errors_only(output, limit=4).splitlines() == [
        "x.cc:1:1: error: first", "line 0", "line 1", "line 2", "... (7 more lines)"]


# ---------------------------------------------------------------------------------- first_error_line --
@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's project (the one in use while the test runs) with one test source; returns the source."""
    root = tmp_path / "firmware"
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.micro-harness]\n")
    proj = project.load(root)
    monkeypatch.setattr(project, "_current", proj)
    monkeypatch.setenv(project.PROJECT_ENV, project.env_value(proj))
    source = root / "tests" / "kws_test.cc"
    source.write_text("// the test\n")
    return source


def test_the_users_error_wins_over_an_earlier_harness_error_and_warnings(user: Path) -> None:
    output = f"""{user}:3:1: warning: unused variable 'y' [-Wunused-variable]
{HEADER}:10:2: error: a harness header problem with no user context
{user}:9:14: error: expected ';' before '}}' token
{user}:12: error: no column here
"""
    assert first_error_line(output, user) == "tests/kws_test.cc:9:14: error: expected ';' before '}' token"


def test_a_fatal_error_without_a_column_is_the_users_too(user: Path) -> None:
    output = f"{user}:2: fatal error: model_data.h: No such file or directory\ncompilation terminated.\n"
    assert first_error_line(output, user) == "tests/kws_test.cc:2: fatal error: model_data.h: No such file or directory"


def test_a_source_outside_the_project_counts_when_named(user: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "shared" / "ops.cc"
    output = f"{elsewhere}:4:5: error: 'op' does not name a type\n"
    assert first_error_line(output, [user, elsewhere]) == f"{elsewhere}:4:5: error: 'op' does not name a type"
    assert first_error_line(output, user) == output.strip()  # not the user's: but still the first error


def test_generated_and_harness_files_are_never_the_users(user: Path) -> None:
    generated = project.current().build_dir / "bluepill" / "model_data.cc"
    output = f"""{generated}:1:1: error: generated file broke
{HEADER}:5:1: error: harness broke
"""
    assert first_error_line(output, user) == output.splitlines()[0]


def test_a_macro_error_is_placed_at_the_users_expansion_relative_to_micro_runtime(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In this checkout make runs in micro_runtime/: relative paths are relative to it."""
    test = REPO_ROOT / "micro_runtime" / "kernels" / "add_test.cc"
    output = """micro_test.h:287:68: error: comparison of integer expressions of different signedness
micro_test.h:281:15: note: in definition of macro 'TF_LITE_MICRO_COMPARE_'
kernels/add_test.cc:41:5: note: in expansion of macro 'TF_LITE_MICRO_EXPECT_EQ'
kernels/add_test.cc:50:1: warning: something else
"""
    monkeypatch.setattr(project, "_current", project.load(REPO_ROOT))
    assert first_error_line(output, test) == (
        "micro_runtime/kernels/add_test.cc:41:5: error: comparison of integer expressions of different "
        "signedness (micro_runtime/micro_test.h:287, in expansion of macro 'TF_LITE_MICRO_EXPECT_EQ')")


def test_without_any_error_the_first_mention_else_the_first_line(user: Path) -> None:
    assert first_error_line("make: entering\nld: undefined reference to `x'\n", user) == (
        "ld: undefined reference to `x'")
    assert first_error_line("\n  \nmake: *** Error 2\nmore\n", user) == "make: *** Error 2"
