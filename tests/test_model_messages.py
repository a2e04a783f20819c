"""What run-model says about models the runtime refuses: the op by name, hybrid models as such, and a
too-small arena the total the model needs.

Real models (built with the project's tflite_builder, or the MLPerf Tiny KWS model in benchmarks/models),
run by the real model runner on the host and, for the arena, on the emulated Cortex-M4 board too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from harness_helpers import requires_mcu

from harness import REPO_ROOT
from harness.cli.run_model import RunModelError, run_model

sys.path.insert(0, str(REPO_ROOT / "micro_runtime" / "tools"))
import tflite_builder as tb


def _run(tmp_path: Path, model: bytes, inputs: list[list[float]], dtype: str) -> None:
    path = tmp_path / "model.tflite"
    path.write_bytes(model)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [{"input": inputs, "input_dtype": dtype}]}))
    run_model(path, "host", cases, timeout_s=60)


def test_hybrid_model_is_named_as_such(tmp_path: Path) -> None:
    weights = np.array([[1, -2, 3, 4], [5, 6, -7, 8]], dtype=np.int8)
    model = tb.single_op_model(
        "FULLY_CONNECTED",
        [tb.TensorSpec("FLOAT32", [1, 4]), tb.TensorSpec("INT8", [2, 4], data=weights, scale=0.05, zero_point=0)],
        [tb.TensorSpec("FLOAT32", [1, 2])],
    )
    with pytest.raises(RunModelError, match="hybrid \\(dynamic-range quantized\\) model"):
        _run(tmp_path, model, [[0.5, -1.0, 0.25, 2.0]], "float32")


def test_unimplemented_op_is_named(tmp_path: Path) -> None:
    """LSH_PROJECTION (15) has no kernel in micro_runtime; the message names it from the schema."""
    model = tb.single_op_model(15, [tb.TensorSpec("FLOAT32", [1, 4])], [tb.TensorSpec("FLOAT32", [1, 4])])
    with pytest.raises(RunModelError, match="LSH_PROJECTION \\(builtin code 15, version 1\\).*does not implement"):
        _run(tmp_path, model, [[0.5, -1.0, 0.25, 2.0]], "float32")


KWS = REPO_ROOT / "benchmarks" / "models" / "kws_ref_model.tflite"
KWS_CASES = KWS.with_name("kws_ref_model_cases.json")


@pytest.mark.parametrize("board", ["host", pytest.param("netduinoplus2", marks=[requires_mcu, pytest.mark.emulator])])
def test_too_small_arena_is_told_the_models_total(board: str) -> None:
    """KWS (DS-CNN, about 21 KB of arena on the Cortex-M4) given 4 KB runs out in its ops' prepare; the
    message names the total a normal run reports as arena_used_bytes, and exactly that arena runs the model
    with outputs equal to TFLM's: one step from the error to a working arena."""
    used = run_model(KWS, board, KWS_CASES, timeout_s=120)["arena_used_bytes"]
    assert used > 8192
    with pytest.raises(RunModelError) as error:
        run_model(KWS, board, KWS_CASES, timeout_s=120, arena_size=4096)
    assert str(error.value).splitlines()[0] == (
        f"arena too small: this model needs {used} bytes (given 4096); make the arena at least {used} bytes")
    exact = run_model(KWS, board, KWS_CASES, timeout_s=120, arena_size=used)
    assert exact["arena_used_bytes"] == used and exact["passed"] is True
    with pytest.raises(RunModelError, match=f"this model needs {used} bytes \\(given {used - 8}\\)"):
        run_model(KWS, board, KWS_CASES, timeout_s=120, arena_size=used - 8)
