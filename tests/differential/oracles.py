"""The three implementations the differential tests compare: our runtime (host file runner), TFLM's Python
interpreter (tflite-micro) and LiteRT (ai-edge-litert), plus the tolerance rule.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from harness.cli.run_model import run_host_files

FLOAT_RTOL = 1e-5
FLOAT_ATOL = 1e-6
INT_TOLERANCE = 1  # quantized outputs may legitimately differ by one step between implementations


def run_ours(model: Path, cases: Sequence[Sequence[np.ndarray]], workdir: Path) -> list[list[np.ndarray]]:
    """Runs every case through our runtime; per case the list of outputs."""
    result = run_host_files(model, cases, workdir)
    outputs = []
    for case in result["cases"]:
        outputs.append([np.asarray(o["data"], dtype=o["dtype"]).reshape(o["shape"]) for o in case["outputs"]])
    return outputs


@contextlib.contextmanager
def _quiet_stdout():
    """TFLM/LiteRT print from C++ straight to fd 1/2; keep the test log readable."""
    saved = [os.dup(1), os.dup(2)]
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)


def output_count(model: Path) -> int:
    import tflite

    return tflite.Model.GetRootAsModel(model.read_bytes(), 0).Subgraphs(0).OutputsLength()


def run_tflm(model: Path, cases: Sequence[Sequence[np.ndarray]]) -> list[list[np.ndarray]]:
    from tflite_micro.python.tflite_micro import runtime

    count = output_count(model)
    with _quiet_stdout():
        # TFLM's default arena is 10x the model size; small models with large padded or
        # sliced tensors need more.
        data = model.read_bytes()
        interpreter = runtime.Interpreter.from_bytes(data, arena_size=max(10 * len(data), 64 * 1024))
    results = []
    for case in cases:
        # Each case is one independent run: state (LSTM, SVDF variables) from the previous case is reset, as
        # our runners do.
        interpreter.reset()
        for i, array in enumerate(case):
            interpreter.set_input(array, i)
        interpreter.invoke()
        outputs = [np.array(interpreter.get_output(i)) for i in range(count)]
        results.append(outputs)
    return results


def run_litert(model: Path, cases: Sequence[Sequence[np.ndarray]]) -> list[list[np.ndarray]]:
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    with _quiet_stdout():
        # Builtin kernels without the XNNPACK delegate: the plain reference of what the model means.
        interpreter = Interpreter(model_path=str(model),
                                  experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        interpreter.allocate_tensors()
    inputs = interpreter.get_input_details()
    outputs = interpreter.get_output_details()
    results = []
    for case in cases:
        interpreter.reset_all_variables()
        for detail, array in zip(inputs, case, strict=True):
            interpreter.set_tensor(detail["index"], array)
        interpreter.invoke()
        results.append([np.array(interpreter.get_tensor(detail["index"])) for detail in outputs])
    return results


def mismatch(ours: np.ndarray, reference: np.ndarray, name: str, int_tolerance: int = INT_TOLERANCE) -> str | None:
    """None when equal within tolerance (int_tolerance steps for integer outputs), else a message naming the
    worst element."""
    if ours.shape != reference.shape:
        return f"{name}: shape {list(ours.shape)} != {list(reference.shape)}"
    if ours.dtype != reference.dtype:
        return f"{name}: dtype {ours.dtype} != {reference.dtype}"
    if ours.size == 0:
        return None
    if np.issubdtype(ours.dtype, np.floating):
        diff = np.abs(ours.astype(np.float64) - reference.astype(np.float64))
        allowed = FLOAT_ATOL + FLOAT_RTOL * np.abs(reference.astype(np.float64))
        bad = diff > allowed
    else:
        diff = np.abs(ours.astype(np.int64) - reference.astype(np.int64))
        bad = diff > int_tolerance
    if not bad.any():
        return None
    worst = np.unravel_index(int(np.argmax(np.where(bad, diff, -1))), ours.shape)
    return (f"{name}: {int(bad.sum())} of {ours.size} elements differ; worst at {list(worst)}: "
            f"ours {ours[worst]!r} vs {reference[worst]!r}")
