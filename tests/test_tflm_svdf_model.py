"""TFLM's keyword benchmark model (keyword_scrambled.tflite: QUANTIZE, seven SVDF with int16 state, FULLY_CONNECTED,
SOFTMAX int8 -> int16, QUANTIZE int16 -> int32) runs bit-exact with TFLM through ``harness run-model`` on the host
and the Cortex-M4F netduinoplus2, as a user would run it.

Its weights are scrambled: every case of ``keyword_scrambled_cases.json`` (TFLM's outputs for seeded inputs) ends
in the same two equal probabilities. So the model is also run with its output moved to each SVDF's output (the
graph unchanged, TFLM's Python interpreter the reference): mostly saturated int8 values (their signs), a few in
range; the first SVDF's differ from input to input. A hybrid SVDF (float input, int8 weights) is refused by name.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from harness_helpers import requires_mcu, run_model_exactly

from harness import REPO_ROOT

MODEL = REPO_ROOT / "benchmarks" / "models" / "tflm" / "keyword_scrambled.tflite"
CASES = MODEL.with_name("keyword_scrambled_cases.json")
BOARDS = ["host", pytest.param("netduinoplus2", marks=[requires_mcu, pytest.mark.emulator])]
# Outputs of the seven SVDF ops, then of the last FULLY_CONNECTED (the logits).
SVDF_OUTPUTS = [5, 13, 21, 29, 37, 42, 47]
LOGITS = 50


def _inputs() -> list[list[np.ndarray]]:
    """The cases file's inputs and two more seeded ones of a smaller range."""
    shipped = json.loads(CASES.read_text())["cases"]
    cases = [[np.asarray(c["inputs"][0], dtype=np.int16).reshape(1, 96)] for c in shipped]
    rng = np.random.default_rng(20261124)
    return cases + [[rng.integers(-4000, 4000, (1, 96)).astype(np.int16)] for _ in range(2)]


def _probe(tensor: int, folder: Path) -> Path:
    """The model with its output moved to `tensor` (subgraph.outputs rewritten in place)."""
    import tflite

    data = bytearray(MODEL.read_bytes())
    outputs = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0).OutputsAsNumpy()
    assert outputs.size == 1
    outputs[0] = tensor
    path = folder / f"keyword_probe_{tensor}.tflite"
    path.write_bytes(bytes(data))
    return path


def _tflm(model: Path, cases: list[list[np.ndarray]]) -> list[np.ndarray]:
    """TFLM's output per case, each case from the start state (a fresh interpreter)."""
    from tflite_micro.python.tflite_micro import runtime

    results = []
    for case in cases:
        interpreter = runtime.Interpreter.from_bytes(model.read_bytes())
        interpreter.set_input(case[0], 0)
        interpreter.invoke()
        results.append(np.array(interpreter.get_output(0)))
    return results


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
def test_keyword_model_is_bit_exact_through_run_model(board: str) -> None:
    result = run_model_exactly(MODEL, CASES, board)
    assert len(result["cases"]) == len(json.loads(CASES.read_text())["cases"]) == 3
    assert result["arena_used_bytes"] > 0


@pytest.mark.slow
def test_every_svdf_output_of_the_keyword_model_equals_tflm_on_host(tmp_path: Path) -> None:
    pytest.importorskip("tflite_micro", reason="needs the tflite-micro package: pip install tflite-micro")
    from harness.build.model_runner import host_file_runner
    from harness.cli.run_model import run_host_files

    host_file_runner(build=True)
    cases = _inputs()
    failures = []
    in_range = 0
    for tensor in [*SVDF_OUTPUTS, LOGITS]:
        model = _probe(tensor, tmp_path)
        reference = _tflm(model, cases)
        if tensor == SVDF_OUTPUTS[0]:  # the first SVDF's output follows the input (the later ones see saturated
            assert len({r.tobytes() for r in reference}) >= 3  # FULLY_CONNECTED outputs: much the same each case)
        if tensor != LOGITS:
            values = np.concatenate([r.ravel() for r in reference])
            in_range += int(((values > -128) & (values < 127)).sum())
        result = run_host_files(model, cases, tmp_path / f"run{tensor}")
        for c, (case, want) in enumerate(zip(result["cases"], reference, strict=True)):
            got = np.asarray(case["outputs"][0]["data"], dtype=case["outputs"][0]["dtype"]).reshape(want.shape)
            if got.dtype != want.dtype or not np.array_equal(got, want):
                failures.append(f"tensor {tensor} case {c}: {got.ravel()[:16]} vs TFLM {want.ravel()[:16]}")
    assert failures == []
    assert in_range >= 10  # and some SVDF outputs inside the int8 range, not only saturated ones


@pytest.mark.slow
@pytest.mark.emulator
@requires_mcu
def test_last_svdf_output_of_the_keyword_model_equals_tflm_on_netduinoplus2(tmp_path: Path) -> None:
    """The output of the seventh SVDF (it depends on all of them) on the Cortex-M4F, through the CLI."""
    pytest.importorskip("tflite_micro", reason="needs the tflite-micro package: pip install tflite-micro")
    model = _probe(SVDF_OUTPUTS[-1], tmp_path)
    cases = _inputs()
    reference = _tflm(model, cases)
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps({"cases": [
        {"inputs": [case[0].tolist()], "input_dtypes": ["int16"], "expected_outputs": [want.tolist()],
         "expected_dtypes": [str(want.dtype)]} for case, want in zip(cases, reference, strict=True)]}))
    result = run_model_exactly(model, cases_file, "netduinoplus2")
    assert len(result["cases"]) == len(cases)


def test_hybrid_svdf_is_refused_by_name(tmp_path: Path) -> None:
    """float32 input with int8 weights (a dynamic-range quantized model, SVDF version 2): prepare names it."""
    sys.path.insert(0, str(REPO_ROOT / "tests" / "differential"))
    import op_models

    from harness.build.model_runner import host_file_runner
    from harness.cli.run_model import RunModelError, run_host_files

    tb = op_models.tb
    b = tb.ModelBuilder()
    x = b.add_tensor("x", "FLOAT32", [1, 4])
    y = b.add_tensor("y", "FLOAT32", [1, 2])
    wf = b.add_tensor("weights_feature", "INT8", [2, 4], data=np.ones((2, 4), np.int8), scale=0.1, zero_point=0)
    wt = b.add_tensor("weights_time", "FLOAT32", [2, 3], data=np.ones((2, 3), np.float32))
    state = b.add_tensor("state", "FLOAT32", [1, 6], is_variable=True)
    b.add_operator("SVDF", [x, wf, wt, -1, state], [y], version=2, options={"rank": 1})
    b.set_inputs([x])
    b.set_outputs([y])
    model = tmp_path / "hybrid_svdf.tflite"
    model.write_bytes(b.build())
    host_file_runner(build=True)
    with pytest.raises(RunModelError, match="hybrid"):
        run_host_files(model, [[np.zeros((1, 4), np.float32)]], tmp_path / "run")
