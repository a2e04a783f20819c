"""What run-model says about models the runtime refuses: the op by name, hybrid models as such.

Real models built with the project's tflite_builder, run by the real host model runner.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from harness import REPO_ROOT
from harness.run_model import RunModelError, run_model

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
    """LEAKY_RELU (98) has no kernel in micro_runtime yet; the message names it from the schema."""
    model = tb.single_op_model(98, [tb.TensorSpec("FLOAT32", [1, 4])], [tb.TensorSpec("FLOAT32", [1, 4])])
    with pytest.raises(RunModelError, match="LEAKY_RELU \\(builtin code 98, version 1\\).*does not implement"):
        _run(tmp_path, model, [[0.5, -1.0, 0.25, 2.0]], "float32")
