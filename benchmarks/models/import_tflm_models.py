#!/usr/bin/env python3
"""Copies TFLM's own example and integration-test models into benchmarks/models/tflm/ with cases files.

Usage: import_tflm_models.py TFLM_CHECKOUT

TFLM_CHECKOUT is a tflite-micro tree (or a bare clone: files are read with ``git show HEAD:<path>``).
For every model the cases file holds seeded random inputs and TFLM's outputs for them, computed with
TFLM's own Python interpreter (``tflite_micro``), so a case states what TFLM computes, not what we do.
The SEANet int16 integration models (``integration_tests/seanet/<op>/``) carry TFLM's own input and golden
CSV files: those become their cases as they are, stored as one compressed ``seanet.npz``.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tflm_models import TFLM_DIR as HERE
from tflm_models import model_inputs

MODELS = {
    "person_detect": "tensorflow/lite/micro/models/person_detect.tflite",
    "keyword_scrambled": "tensorflow/lite/micro/models/keyword_scrambled.tflite",
    "trained_lstm": "tensorflow/lite/micro/examples/mnist_lstm/trained_lstm.tflite",
    "trained_lstm_int8": "tensorflow/lite/micro/examples/mnist_lstm/trained_lstm_int8.tflite",
    "micro_speech_lstm": "third_party/xtensa/examples/micro_speech_lstm/micro_speech_lstm.tflite",
}
SEANET = "tensorflow/lite/micro/integration_tests/seanet"
SEED = 20261124
CASES = 3


def _read(tree: Path, path: str) -> bytes:
    if (tree / path).is_file():
        return (tree / path).read_bytes()
    return subprocess.run(["git", "-C", str(tree), "show", f"HEAD:{path}"], capture_output=True, check=True).stdout


def _list(tree: Path, folder: str) -> list[str]:
    if (tree / folder).is_dir():
        return sorted(str(p.relative_to(tree)) for p in (tree / folder).rglob("*") if p.is_file())
    out = subprocess.run(["git", "-C", str(tree), "ls-tree", "-r", "--name-only", "HEAD", folder],
                         capture_output=True, text=True, check=True).stdout
    return sorted(out.split())


def _tflm(model: bytes, cases: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """TFLM's outputs for each case; variable tensors (SVDF and LSTM state) reset before every case, so each
    case is one independent invocation (as the model runner runs them)."""
    import tflite
    from tflite_micro.python.tflite_micro import runtime

    count = tflite.Model.GetRootAsModel(model, 0).Subgraphs(0).OutputsLength()
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=max(10 * len(model), 1 << 20))
    results = []
    for case in cases:
        interpreter.reset()
        for i, array in enumerate(case):
            interpreter.set_input(array, i)
        interpreter.invoke()
        results.append([np.array(interpreter.get_output(i)) for i in range(count)])
    return results


def _random_case(rng: np.random.Generator, specs: list[tuple[list[int], np.dtype, int]]) -> list[np.ndarray]:
    case = []
    for shape, dtype, zero_point in specs:
        if dtype == np.float32:
            case.append(rng.uniform(-1, 1, shape).astype(np.float32))
        else:
            # Around the input's zero point (real 0) with a spread of 1/32 of the type's range: uniform inputs
            # over the whole range saturate the LSTM models' softmax outputs (one-hot 127/-128), which would
            # hide most of their arithmetic from the comparison.
            info = np.iinfo(dtype)
            values = rng.normal(zero_point, (int(info.max) - int(info.min)) / 32, shape)
            case.append(np.clip(np.round(values), info.min, info.max).astype(dtype))
    return case


def _case_json(case: list[np.ndarray], outputs: list[np.ndarray]) -> dict:
    return {"inputs": [a.tolist() for a in case], "input_dtypes": [str(a.dtype) for a in case],
            "expected_outputs": [o.tolist() for o in outputs], "expected_dtypes": [str(o.dtype) for o in outputs],
            "expected_source": "tflm"}


def import_models(tree: Path) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    for name, path in MODELS.items():
        data = _read(tree, path)
        (HERE / f"{name}.tflite").write_bytes(data)
        rng = np.random.default_rng([SEED, sorted(MODELS).index(name)])
        cases = [_random_case(rng, model_inputs(data)) for _ in range(CASES)]
        outputs = _tflm(data, cases)
        doc = {"note": f"tflite-micro {path}; inputs seeded ({SEED}), expected = TFLM's Python interpreter",
               "cases": [_case_json(c, o) for c, o in zip(cases, outputs, strict=True)]}
        (HERE / f"{name}_cases.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
        print(f"{name}: {len(data)} B, {len(cases)} cases", file=sys.stderr)
    arrays: dict[str, np.ndarray] = {}
    files = _list(tree, SEANET)
    for path in files:
        if not path.endswith(".tflite"):
            continue
        stem = Path(path).stem
        folder = str(Path(path).parent)
        arrays[f"{stem}/model"] = np.frombuffer(_read(tree, path), dtype=np.uint8)
        for csv in [f for f in files if f.startswith(f"{folder}/{stem}_") and f.endswith(".csv")]:
            kind = Path(csv).stem[len(stem) + 1:]  # input0_int16, golden_int16, ...
            kind, dtype = kind.rsplit("_", 1)
            values = np.loadtxt(io.BytesIO(_read(tree, csv)), delimiter=",", dtype=np.int64, ndmin=1)
            arrays[f"{stem}/{kind}"] = values.astype(dtype)
    np.savez_compressed(HERE / "seanet.npz", **arrays)
    print(f"seanet: {sum(k.endswith('/model') for k in arrays)} models", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tflm_checkout", type=Path)
    import_models(parser.parse_args().tflm_checkout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
