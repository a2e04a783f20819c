#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus: the reference models plus seeded single-op models of every kernel.

Usage: make_corpus.py [OUT_DIR]     (default: micro_runtime/fuzz/corpus, the committed seed corpus)

Deterministic: the same generators and seeds always write the same files.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def _load(name: str, path: Path):  # tests/differential is not a package; load the generators by path
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    if len(argv) > 2:
        print("usage: make_corpus.py [OUT_DIR]", file=sys.stderr)
        return 2
    out = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent / "corpus"
    out.mkdir(parents=True, exist_ok=True)
    for model in sorted((REPO / "micro_runtime" / "examples").glob("*/models/*.tflite")):
        shutil.copy(model, out / model.name)
    op_models = _load("op_models", REPO / "tests" / "differential" / "op_models.py")
    for index, (op, (generator, dtypes)) in enumerate(op_models.GENERATORS.items()):
        for dtype in dtypes:
            for variant in range(2):
                generated = generator(np.random.default_rng([7, index, variant]), dtype)
                (out / f"{op.lower()}_{dtype}_{variant}.tflite").write_bytes(generated.model)
    # The custom Atan op has no differential generator (LiteRT lacks it): one float model by hand.
    builder = _load("tflite_builder", REPO / "micro_runtime" / "tools" / "tflite_builder.py")
    spec = builder.TensorSpec("FLOAT32", [1, 16])
    (out / "atan_float32_0.tflite").write_bytes(builder.single_op_model("custom:Atan", [spec], [spec]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
