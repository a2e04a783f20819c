"""The arm_dsp kernels built for the host (``make TARGET=host TAGS=arm_dsp``): every kernel path without its
inline assembly, with ``micro_runtime/kernels/arm_dsp/dsp.h``'s portable forms of the DSP instructions, run
through the harness like any micro test and judged from the test sources' cases.

The emulated DSP boards run the assembly, and coverage builds (MR_DSP_ASM 0 on a DSP core) the C forms with
the compiler's intrinsics; only this build runs dsp.h's own statements of the instructions' semantics, and it
keeps the promise dsp.h makes (a kernel edit that compiles only for the boards, such as a member of the op data
that exists only in DSP builds, fails here).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.make import board_lock, gen_dir, make_command, run_make
from harness.outcome import Outcome
from harness.session import run_binary

KERNELS = REPO_ROOT / "micro_runtime" / "kernels"
# The micro tests of the kernels micro_runtime/kernels/arm_dsp/ replaces.
TESTS = ["add_test", "sub_test", "conv_test", "depthwise_conv_test", "depthwise_conv_multiplier_test",
         "fully_connected_test", "pooling_test"]
FOLDER = "host_arm_dsp"  # the Makefile's output folder for TARGET=host TAGS=arm_dsp


@pytest.fixture(scope="module")
def bin_dir() -> Path:
    if shutil.which("g++") is None or shutil.which("make") is None:
        pytest.skip("needs g++ and make")
    board = load_board("host")
    with board_lock(FOLDER):
        code, output = run_make(make_command(board, TESTS, None, "TAGS=arm_dsp"), None, FOLDER)
    assert code == 0, f"make TARGET=host TAGS=arm_dsp failed:\n{output[-4000:]}"
    return gen_dir(FOLDER) / "bin"


def test_the_list_names_every_arm_dsp_kernel_test() -> None:
    kernels = {p.stem for p in (KERNELS / "arm_dsp").glob("*.cc")}
    assert kernels == {"add_sub_int8", "conv_int8", "depthwise_conv_int8", "fully_connected_int8", "pooling_int8"}
    assert all((KERNELS / f"{name}.cc").is_file() for name in TESTS)


@pytest.mark.parametrize("name", TESTS)
def test_arm_dsp_kernels_pass_on_the_host(name: str, bin_dir: Path) -> None:
    source = KERNELS / f"{name}.cc"
    report = run_binary(load_board("host"), bin_dir / name, source=source)
    assert report.outcome == Outcome.PASSED, f"{report.summary}\n" + "\n".join(report.log_tail)
    assert report.cases and all(case.outcome == "passed" for case in report.cases)
