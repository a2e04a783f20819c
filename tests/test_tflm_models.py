"""TFLM's own models run bit-exact: its 127 SEANet int16 (16x8) integration models against the golden outputs
TFLM ships with them, and its person-detection example (MobileNetV1 int8, the model whose bias quantization
LiteRT refuses) through ``harness run-model``, as a user would run them.

Models and data are copies in benchmarks/models/tflm/ (``import_tflm_models.py``): ``seanet.npz`` holds each
SEANet model's bytes, its input CSVs and TFLM's golden output CSV from tflite-micro's
``integration_tests/seanet/``. Every output must equal TFLM's exactly (tolerance 0).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from harness_helpers import requires_mcu, run_model_exactly

from harness import REPO_ROOT

MODELS = REPO_ROOT / "benchmarks" / "models" / "tflm"
SEANET_OPS = ["add", "conv", "leaky_relu", "pad", "quantize", "strided_slice", "sub", "transpose_conv"]


@cache
def _seanet() -> dict[str, dict[str, np.ndarray]]:
    """model stem -> {"model": bytes array, "input0": ..., "golden": ...}."""
    models: dict[str, dict[str, np.ndarray]] = {}
    with np.load(MODELS / "seanet.npz") as data:
        for key in data.files:
            stem, kind = key.split("/")
            models.setdefault(stem, {})[kind] = data[key]
    return models


def _family(stem: str) -> str:
    return stem.rstrip("0123456789")


def _model_inputs(model: Path) -> list[tuple[list[int], np.dtype]]:
    import tflite

    graph = tflite.Model.GetRootAsModel(model.read_bytes(), 0).Subgraphs(0)
    types = {0: np.float32, 2: np.int32, 7: np.int16, 9: np.int8}
    return [([int(d) for d in graph.Tensors(graph.Inputs(i)).ShapeAsNumpy()],
             np.dtype(types[graph.Tensors(graph.Inputs(i)).Type()])) for i in range(graph.InputsLength())]


def _seanet_case(stem: str, folder: Path) -> tuple[Path, list[np.ndarray], np.ndarray]:
    """(model file, inputs shaped as the model's inputs, TFLM's golden output, flat)."""
    entry = _seanet()[stem]
    model = folder / f"{stem}.tflite"
    model.write_bytes(entry["model"].tobytes())
    specs = _model_inputs(model)
    inputs = []
    for i, (shape, dtype) in enumerate(specs):
        values = entry[f"input{i}"]
        assert values.size == int(np.prod(shape)), f"{stem}: input {i} has {values.size} values for shape {shape}"
        inputs.append(values.astype(dtype).reshape(shape))
    return model, inputs, entry["golden"]


def test_the_seanet_data_holds_every_family() -> None:
    families = {_family(stem) for stem in _seanet()}
    assert families == set(SEANET_OPS)
    assert len(_seanet()) == 127
    assert all({"model", "input0", "golden"} <= set(entry) for entry in _seanet().values())


@pytest.mark.parametrize("family", SEANET_OPS)
def test_seanet_int16_models_match_tflm_golden_on_host(family: str, tmp_path: Path) -> None:
    from harness.run_model import RunModelError, host_file_runner, run_host_files

    host_file_runner(build=True)
    stems = sorted((s for s in _seanet() if _family(s) == family), key=lambda s: int(s[len(family):]))
    assert stems
    failures = []
    for stem in stems:
        model, inputs, golden = _seanet_case(stem, tmp_path)
        try:
            result = run_host_files(model, [inputs], tmp_path / stem)
        except RunModelError as error:  # report every model, not only the first
            failures.append(f"{stem}: {' / '.join(str(error).strip().splitlines()[-3:])}")
            continue
        (output,) = result["cases"][0]["outputs"]
        got = np.asarray(output["data"], dtype=output["dtype"]).ravel()
        if output["dtype"] != str(golden.dtype) or got.shape != golden.shape:
            failures.append(f"{stem}: output {output['dtype']} x {got.size} vs golden {golden.dtype} x {golden.size}")
        elif not np.array_equal(got, golden):
            bad = np.flatnonzero(got != golden)
            failures.append(f"{stem}: {bad.size} of {golden.size} outputs differ from TFLM's golden "
                            f"(first at {bad[0]}: {got[bad[0]]} vs {golden[bad[0]]})")
    assert failures == [], "\n".join(failures)


def _cases_file(inputs: list[np.ndarray], golden: np.ndarray, shape: list[int], path: Path) -> Path:
    path.write_text(json.dumps({"cases": [{
        "inputs": [a.tolist() for a in inputs], "input_dtypes": [str(a.dtype) for a in inputs],
        "expected_outputs": [golden.reshape(shape).tolist()], "expected_dtypes": [str(golden.dtype)]}]}))
    return path


def _output_shape(model: Path) -> list[int]:
    import tflite

    graph = tflite.Model.GetRootAsModel(model.read_bytes(), 0).Subgraphs(0)
    return [int(d) for d in graph.Tensors(graph.Outputs(0)).ShapeAsNumpy()]


# On the targets: the largest model of each family on netduinoplus2 (the most arithmetic per model; 1 MB of
# flash), the smallest on the 64 KB Blue Pill (the larger conv and transpose-conv weights do not fit it).
def _pick(family: str, board: str) -> str:
    stems = [s for s in _seanet() if _family(s) == family]
    by_size = sorted(stems, key=lambda s: (_seanet()[s]["model"].size, s))
    return by_size[0] if board == "bluepill" else by_size[-1]


# Every SEANet TRANSPOSE_CONV model needs more arena than the Blue Pill's 20 KB of RAM leaves (the smallest
# 15,808 B of 14,336 B); TRANSPOSE_CONV int16 runs on the Blue Pill in its kernel and differential tests.
TARGET_CASES = [(family, board) for board in ("bluepill", "netduinoplus2") for family in SEANET_OPS
                if (family, board) != ("transpose_conv", "bluepill")]


@pytest.mark.slow
@pytest.mark.emulator
@requires_mcu
@pytest.mark.parametrize(("family", "board"), TARGET_CASES, ids=[f"{f}-{b}" for f, b in TARGET_CASES])
def test_seanet_int16_model_matches_tflm_golden_on_target(family: str, board: str, tmp_path: Path) -> None:
    stem = _pick(family, board)
    model, inputs, golden = _seanet_case(stem, tmp_path)
    cases = _cases_file(inputs, golden, _output_shape(model), tmp_path / "cases.json")
    run_model_exactly(model, cases, board)


@pytest.mark.slow
@pytest.mark.parametrize("board", ["host", pytest.param("netduinoplus2", marks=[requires_mcu, pytest.mark.emulator])])
def test_person_detect_is_bit_exact_through_run_model(board: str) -> None:
    """TFLM's person_detect.tflite (MobileNetV1 int8, 96x96 grey): its conv biases carry a per-channel
    quantized_dimension of 3 on a 1-D tensor, which LiteRT refuses and TFLM ignores; so do we."""
    result = run_model_exactly(MODELS / "person_detect.tflite", MODELS / "person_detect_cases.json", board)
    assert len(result["cases"]) == 3
