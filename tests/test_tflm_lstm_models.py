"""TFLM's LSTM example models (UNIDIRECTIONAL_SEQUENCE_LSTM) run through ``harness run-model`` as a user runs them:
``trained_lstm`` (float32, MNIST rows as a sequence), ``trained_lstm_int8`` (int8 activations, int16 cell state) and
``micro_speech_lstm`` (int8 keyword model, 49 steps of 257 features, 80 units).

Models and TFLM's outputs are copies in benchmarks/models/tflm/ (``import_tflm_models.py``: three seeded inputs per
model, TFLM's Python interpreter with its variable tensors reset before every case, as the model runner resets
them). Integer outputs must equal TFLM's exactly on every board. The float model is exact on the host; on the
Cortex-M4F its sigmoid, tanh and softmax call newlib's expf/tanhf, whose last bit can differ from glibc's (where
TFLM was run), so there it is held to 1e-6 absolute (the CLI's default float tolerance is 1e-5 relative).

The models' final outputs for those seeded inputs are saturated one-hot softmax outputs (127 / -128 for the int8
models), which few LSTM errors would change; so the LSTM layer's own output (every step's hidden state) is
compared with TFLM's as well, through a copy of each model whose output is moved to that tensor.

Also checked: the variants TFLM does not compute (hybrid, diagonal recurrent weights, peephole, projection) are
refused with a message that names them.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from harness_helpers import requires_mcu, subprocess_env

from harness import REPO_ROOT

MODELS = REPO_ROOT / "benchmarks" / "models" / "tflm"
NAMES = ["trained_lstm", "trained_lstm_int8", "micro_speech_lstm"]
BOARDS = ["host", pytest.param("netduinoplus2", marks=[requires_mcu, pytest.mark.emulator])]
FLOAT_TARGET_TOLERANCE = 1e-6


def _run_model(model: Path, cases: Path, board: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", "run-model", str(model), "--board", board, "--cases",
                           str(cases), "-q", *extra], capture_output=True, text=True, timeout=900,
                          env=subprocess_env(), cwd=REPO_ROOT, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("name", NAMES)
def test_tflm_lstm_model_through_run_model(name: str, board: str) -> None:
    cases = MODELS / f"{name}_cases.json"
    exact = name != "trained_lstm" or board == "host"
    proc = _run_model(MODELS / f"{name}.tflite", cases, board, "--tolerance", "0",
                      *(["--float-tolerance", "0"] if exact else []))
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-1000:]
    result = json.loads(proc.stdout)
    assert result["passed"] is True and len(result["cases"]) == len(json.loads(cases.read_text())["cases"]) == 3
    for case in result["cases"]:
        assert case["passed"] is True, case
        assert case["max_abs_error"] <= (0 if exact else FLOAT_TARGET_TOLERANCE), case
    assert result["arena_used_bytes"] > 0


def _lstm_output_model(model: bytes) -> bytes:
    """The model with its output moved to the LSTM's output tensor (operator 0's): every step's hidden state,
    [batch, steps, units]. The models' own outputs are one-hot softmax outputs for these seeded inputs (TFLM's
    cases saturate at 127/-128), which would hide most LSTM arithmetic."""
    import tflite

    graph = tflite.Model.GetRootAsModel(model, 0).Subgraphs(0)
    assert graph.OutputsLength() == 1
    outputs_at = graph._tab.Vector(graph._tab.Offset(8))  # SubGraph.outputs: one int32 after the length
    patched = bytearray(model)
    patched[outputs_at:outputs_at + 4] = int(graph.Operators(0).Outputs(0)).to_bytes(4, "little")
    return bytes(patched)


def _tflm_cases(model: Path, inputs: list[np.ndarray], path: Path) -> Path:
    """A cases file with TFLM's outputs for `inputs` (variables reset before each case)."""
    from tflite_micro.python.tflite_micro import runtime

    interpreter = runtime.Interpreter.from_bytes(model.read_bytes(), arena_size=1 << 20)
    cases = []
    for array in inputs:
        interpreter.reset()
        interpreter.set_input(array, 0)
        interpreter.invoke()
        expected = np.array(interpreter.get_output(0))
        cases.append({"inputs": [array.tolist()], "input_dtypes": [str(array.dtype)],
                      "expected_outputs": [expected.tolist()], "expected_dtypes": [str(expected.dtype)]})
    path.write_text(json.dumps({"cases": cases}))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("name", NAMES)
def test_tflm_lstm_layer_output_through_run_model(name: str, board: str, tmp_path: Path) -> None:
    """Every step's hidden state of the LSTM layer, for the same seeded inputs, equals TFLM's."""
    pytest.importorskip("tflite_micro", reason="needs the tflite-micro package: pip install tflite-micro")
    model = tmp_path / f"{name}_lstm_output.tflite"
    model.write_bytes(_lstm_output_model((MODELS / f"{name}.tflite").read_bytes()))
    doc = json.loads((MODELS / f"{name}_cases.json").read_text())
    inputs = [np.asarray(c["inputs"][0], dtype=c["input_dtypes"][0]) for c in doc["cases"]]
    cases = _tflm_cases(model, inputs, tmp_path / "cases.json")
    expected = [np.asarray(c["expected_outputs"][0]) for c in json.loads(cases.read_text())["cases"]]
    # Not saturated: the hidden states spread over many values.
    assert all(len(np.unique(e)) > 20 for e in expected)
    exact = name != "trained_lstm" or board == "host"
    proc = _run_model(model, cases, board, "--tolerance", "0", *(["--float-tolerance", "0"] if exact else []))
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-1000:]
    result = json.loads(proc.stdout)
    assert result["passed"] is True and len(result["cases"]) == 3
    for case in result["cases"]:
        assert case["passed"] is True, case
        assert case["max_abs_error"] <= (0 if exact else FLOAT_TARGET_TOLERANCE), case


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tflite_builder", REPO_ROOT / "micro_runtime/tools/tflite_builder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _variant(kind: str) -> bytes:
    """A 1-unit float32 LSTM over 2 steps of 1 feature with one variant TFLM's kernel does not compute."""
    tb = _builder()
    b = tb.ModelBuilder()
    x = b.add_tensor("x", "FLOAT32", [1, 2, 1])
    out = b.add_tensor("out", "FLOAT32", [1, 2, 1])
    hidden = b.add_tensor("hidden", "FLOAT32", [1, 1], is_variable=True)
    cell = b.add_tensor("cell", "FLOAT32", [1, 1], is_variable=True)
    one = np.ones((1, 1), np.float32)

    def weights(name: str) -> int:
        if kind == "hybrid":
            return b.add_tensor(name, "INT8", [1, 1], data=np.ones((1, 1), np.int8), scale=0.5, zero_point=0)
        return b.add_tensor(name, "FLOAT32", [1, 1], data=one)

    def vector(name: str) -> int:
        return b.add_tensor(name, "FLOAT32", [1], data=np.ones(1, np.float32))

    input_weights = [weights(f"w{k}") for k in range(4)]
    recurrent = [vector(f"r{k}") if kind == "diagonal" else weights(f"r{k}") for k in range(4)]
    peephole = [vector(f"p{k}") if kind == "peephole" else -1 for k in range(3)]
    projection = [weights("proj") if kind == "projection" else -1, -1]
    biases = [vector(f"b{k}") for k in range(4)]
    inputs = [x, *input_weights, *recurrent, *peephole, *biases, *projection, hidden, cell, -1, -1, -1, -1]
    version = {"hybrid": 2, "diagonal": 4}.get(kind, 1)
    b.add_operator("UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, [out], version=version,
                   options={"fused_activation_function": "TANH", "diagonal_recurrent_tensors": kind == "diagonal"})
    b.set_inputs([x])
    b.set_outputs([out])
    return b.build()


@pytest.mark.parametrize(("kind", "message"), [
    ("hybrid", "hybrid models (float32 activations with INT8 weights"),
    ("diagonal", "diagonal recurrent weights (version 4)"),
    ("peephole", "peephole connections"),
    ("projection", "a projection layer"),
])
def test_lstm_variants_tflm_does_not_compute_are_refused_by_name(kind: str, message: str, tmp_path: Path) -> None:
    model = tmp_path / f"lstm_{kind}.tflite"
    model.write_bytes(_variant(kind))
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [{"inputs": [[[[0.5], [-0.25]]]], "input_dtypes": ["float32"]}]}))
    proc = _run_model(model, cases, "host")
    assert proc.returncode != 0, proc.stdout[-2000:]
    assert f"UNIDIRECTIONAL_SEQUENCE_LSTM: {message}" in proc.stderr, proc.stderr[-3000:]
