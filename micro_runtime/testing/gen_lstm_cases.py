#!/usr/bin/env python3
"""Generates the TFLM reference cases of unidirectional_sequence_lstm_test.cc.

Each case is a random single-op UNIDIRECTIONAL_SEQUENCE_LSTM model (tests/differential/op_models.py's lstm_model)
run once through TFLM's own Python interpreter (the ``tflite-micro`` package) with one random input sequence; the
model's tensors, quantization, options and TFLM's output go into
micro_runtime/kernels/testdata/unidirectional_sequence_lstm_cases.h. Run again only to change the cases:

    python3 micro_runtime/testing/gen_lstm_cases.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "micro_runtime" / "kernels" / "testdata" / "unidirectional_sequence_lstm_cases.h"
SEED = 20261124

# name, comment, dtype, batch, steps, features, units, time_major, cell clip, cell state scale power
CASES = [
    ("Int8Lstm", "int8, 2 sequences of 3 steps, 3 features, 4 units, cell state 2^-12", "int8", 2, 3, 3, 4, False,
     0.0, -12),
    ("Int8TimeMajorClip", "int8, time major, 2 sequences of 6 steps, 3 features, 8 units, cell clip 0.3 (reached "
     "both ways), cell state 2^-14 (tanh input rounded right by 2)", "int8", 2, 6, 3, 8, True, 0.3, -14),
    ("Int16Lstm", "int16 (16x8), 2 sequences of 4 steps, 3 features, 6 units, cell clip 0.5, cell state 2^-13",
     "int16", 2, 4, 3, 6, False, 0.5, -13),
]
CTYPES = {np.dtype(np.int8): "int8_t", np.dtype(np.int16): "int16_t", np.dtype(np.int32): "int32_t",
          np.dtype(np.int64): "int64_t"}


def _op_models():
    sys.path.insert(0, str(REPO))
    spec = importlib.util.spec_from_file_location("op_models", REPO / "tests" / "differential" / "op_models.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _array(values: np.ndarray) -> str:
    ctype = CTYPES[values.dtype]
    items = [str(int(v)) if ctype != "int64_t" else f"INT64_C({int(v)})" for v in values.ravel()]
    lines = [", ".join(items[i:i + 16]) for i in range(0, len(items), 16)]
    return "{\n      " + ",\n      ".join(lines) + ",\n  }"


def _float(v: float) -> str:
    return f"{np.float32(v)!r}".replace("np.float32(", "").rstrip(")") + "f"


def emit(name: str, comment: str, model: bytes, case: np.ndarray, expected: np.ndarray, sizes: tuple) -> str:
    import tflite

    graph = tflite.Model.GetRootAsModel(model, 0).Subgraphs(0)
    op = graph.Operators(0)
    inputs = [int(i) for i in op.InputsAsNumpy()]
    model_buffers = tflite.Model.GetRootAsModel(model, 0)

    def tensor(index: int) -> tuple[np.ndarray | None, float, int]:
        t = graph.Tensors(index)
        q = t.Quantization()
        scale = float(q.Scale(0)) if q is not None and q.ScaleLength() else 0.0
        zero_point = int(q.ZeroPoint(0)) if q is not None and q.ZeroPointLength() else 0
        data = model_buffers.Buffers(t.Buffer()).DataAsNumpy()
        dtype = {9: np.int8, 7: np.int16, 2: np.int32, 4: np.int64}[t.Type()]
        values = None if isinstance(data, int) else np.frombuffer(data.tobytes(), dtype=dtype)
        return values, scale, zero_point

    batch, steps, features, units, time_major, clip = sizes
    _, input_scale, input_zp = tensor(inputs[0])
    _, hidden_scale, hidden_zp = tensor(inputs[18])
    _, cell_scale, _ = tensor(inputs[19])
    out = [f"// {comment}", f"struct {name} {{"]
    out.append(f"  static constexpr int32_t batches = {batch}, steps = {steps}, features = {features}, "
               f"units = {units};")
    out.append(f"  static constexpr bool time_major = {'true' if time_major else 'false'};")
    out.append(f"  static constexpr float cell_clip = {_float(clip)};")
    out.append(f"  static constexpr float input_scale = {_float(input_scale)};")
    out.append(f"  static constexpr int32_t input_zero_point = {input_zp};")
    out.append(f"  static constexpr float hidden_scale = {_float(hidden_scale)};")
    out.append(f"  static constexpr int32_t hidden_zero_point = {hidden_zp};")
    out.append(f"  static constexpr float cell_scale = {_float(cell_scale)};")
    weight_scales, weights, biases = [], [], []
    for k in range(4):
        for kind, index in (("input", 1 + k), ("recurrent", 5 + k)):
            values, scale, _ = tensor(inputs[index])
            weight_scales.append(scale)
            weights.append(f"  static constexpr int8_t {kind}_weights_{k}[] = {_array(values)};")
        values, _, _ = tensor(inputs[12 + k])
        biases.append(f"  static constexpr {CTYPES[values.dtype]} bias_{k}[] = {_array(values)};")
    out.append("  // input-to-gate and recurrent weight scales, gate by gate (input, forget, cell, output)")
    out.append("  static constexpr float weight_scales[] = {" + ", ".join(_float(s) for s in weight_scales) + "};")
    out += weights + biases
    out.append(f"  static constexpr {CTYPES[case.dtype]} input[] = {_array(case)};")
    out.append(f"  static constexpr {CTYPES[expected.dtype]} expected[] = {_array(expected)};")
    out.append("};")
    return "\n".join(out) + "\n"


def main() -> None:
    from tflite_micro.python.tflite_micro import runtime

    op_models = _op_models()
    parts = []
    for i, (name, comment, dtype, batch, steps, features, units, time_major, clip, power) in enumerate(CASES):
        rng = np.random.default_rng([SEED, i])
        model = op_models.lstm_model(rng, dtype, batch, steps, features, units, time_major, clip, power)
        case = model.cases[0][0]
        interpreter = runtime.Interpreter.from_bytes(model.model, arena_size=1 << 16)
        interpreter.set_input(case, 0)
        interpreter.invoke()
        expected = np.array(interpreter.get_output(0))
        sizes = (batch, steps, features, units, time_major, clip)
        parts.append(emit(name, comment, model.model, case, expected, sizes))
    header = [
        "// Generated by micro_runtime/testing/gen_lstm_cases.py; do not edit.",
        "// `expected` is the output of TFLM's reference interpreter (tflite-micro Python package) for a",
        "// single-op UNIDIRECTIONAL_SEQUENCE_LSTM model with these tensors and options, its state starting at 0.",
        "#ifndef MICRO_RUNTIME_KERNELS_TESTDATA_UNIDIRECTIONAL_SEQUENCE_LSTM_CASES_H_",
        "#define MICRO_RUNTIME_KERNELS_TESTDATA_UNIDIRECTIONAL_SEQUENCE_LSTM_CASES_H_",
        "",
        "#include <stdint.h>",
        "",
        "namespace lstm_cases {",
        "",
        "\n".join(parts),
        "}  // namespace lstm_cases",
        "",
        "#endif  // MICRO_RUNTIME_KERNELS_TESTDATA_UNIDIRECTIONAL_SEQUENCE_LSTM_CASES_H_",
        "",
    ]
    OUT.write_text("\n".join(header))
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
