"""TFLM's own models in benchmarks/models/tflm/ (import_tflm_models.py): reading their inputs and TFLM's SEANet
int16 integration data, for tests/test_tflm_models.py and model_families_bench.py alike.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

TFLM_DIR = Path(__file__).resolve().parent / "models" / "tflm"
TENSOR_TYPES = {0: np.float32, 2: np.int32, 7: np.int16, 9: np.int8}


def model_inputs(data: bytes) -> list[tuple[list[int], np.dtype, int]]:
    """(shape, dtype, zero point) of each input of a .tflite model."""
    import tflite

    graph = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    result = []
    for i in range(graph.InputsLength()):
        tensor = graph.Tensors(graph.Inputs(i))
        q = tensor.Quantization()
        zero_point = int(q.ZeroPointAsNumpy()[0]) if q is not None and q.ZeroPointLength() else 0
        result.append(([int(d) for d in tensor.ShapeAsNumpy()], np.dtype(TENSOR_TYPES[tensor.Type()]), zero_point))
    return result


def output_shape(data: bytes) -> list[int]:
    import tflite

    graph = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    return [int(d) for d in graph.Tensors(graph.Outputs(0)).ShapeAsNumpy()]


@cache
def seanet() -> dict[str, dict[str, np.ndarray]]:
    """SEANet model stem -> {"model": bytes array, "input0": ..., "golden": ...} (seanet.npz)."""
    models: dict[str, dict[str, np.ndarray]] = {}
    with np.load(TFLM_DIR / "seanet.npz") as data:
        for key in data.files:
            stem, kind = key.split("/")
            models.setdefault(stem, {})[kind] = data[key]
    return models


def family(stem: str) -> str:
    """The op family of a SEANet model stem ("conv10" -> "conv")."""
    return stem.rstrip("0123456789")


def seanet_case(stem: str, folder: Path) -> tuple[Path, list[np.ndarray], np.ndarray]:
    """(model file written to `folder`, inputs shaped as the model's inputs, TFLM's golden output, flat)."""
    entry = seanet()[stem]
    model = folder / f"{stem}.tflite"
    model.write_bytes(entry["model"].tobytes())
    inputs = []
    for i, (shape, dtype, _) in enumerate(model_inputs(model.read_bytes())):
        values = entry[f"input{i}"]
        if values.size != int(np.prod(shape)):
            raise ValueError(f"{stem}: input {i} has {values.size} values for shape {shape}")
        inputs.append(values.astype(dtype).reshape(shape))
    return model, inputs, entry["golden"]


def write_cases(inputs: list[np.ndarray], golden: np.ndarray, model: Path, path: Path) -> Path:
    """A run-model cases file of one case: `inputs`, and `golden` shaped as the model's output as expected."""
    shape = output_shape(model.read_bytes())
    path.write_text(json.dumps({"cases": [{
        "inputs": [a.tolist() for a in inputs], "input_dtypes": [str(a.dtype) for a in inputs],
        "expected_outputs": [golden.reshape(shape).tolist()], "expected_dtypes": [str(golden.dtype)]}]}))
    return path
