"""Issue 10's bar: every MLPerf Tiny int8 model runs bit-exact with TFLM through ``harness run-model`` on the
host, the Cortex-M4F netduinoplus2 and the Cortex-M33 mps2_an505 (QEMU), as a user would run it.

Models and TFLM's outputs (``expected`` in the cases files: TFLM's reference interpreter, three seeded
inputs each) are copies in benchmarks/models/. The CLI compares every output exactly (tolerance 0) and
exits 3 on any difference; the JSON it prints is checked too, case by case.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from harness_helpers import requires_mcu, subprocess_env

from harness import REPO_ROOT

MODELS = REPO_ROOT / "benchmarks" / "models"
NAMES = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"]
BOARDS = ["host", pytest.param("netduinoplus2", marks=[requires_mcu, pytest.mark.emulator]),
          pytest.param("mps2_an505", marks=[requires_mcu, pytest.mark.emulator])]


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("name", NAMES)
def test_mlperf_tiny_model_is_bit_exact_through_run_model(name: str, board: str) -> None:
    model = MODELS / f"{name}.tflite"
    cases = MODELS / f"{name}_cases.json"
    proc = subprocess.run([sys.executable, "-m", "harness", "run-model", str(model), "--board", board, "--cases",
                           str(cases), "-q"], capture_output=True, text=True, timeout=900, env=subprocess_env(),
                          cwd=REPO_ROOT, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-1000:]
    result = json.loads(proc.stdout)
    expected = json.loads(cases.read_text())["cases"]
    assert result["passed"] is True and len(result["cases"]) == len(expected) == 3
    for case in result["cases"]:
        assert case["passed"] is True and case["max_abs_error"] == 0, case
    assert result["arena_used_bytes"] > 0
