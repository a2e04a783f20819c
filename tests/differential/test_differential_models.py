"""Differential tests: our runtime vs TFLM's interpreter vs LiteRT, on the reference models and on seeded
random single-op models for every kernel (float32 and int8).

Ours runs in the host file runner (micro_runtime/model_runner/host_file_runner.cc), which reads the model
and inputs from files, so no firmware is rebuilt per model. Tolerances: float 1e-5 relative + 1e-6 absolute,
quantized +-1 (see oracles.py), except the ops of BIT_EXACT_OPS, whose integer outputs must equal TFLM's and
LiteRT's exactly (docs/ops.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from harness import REPO_ROOT

pytest.importorskip("tflite_micro", reason="needs the tflite-micro package: pip install tflite-micro")
pytest.importorskip("ai_edge_litert", reason="needs the ai-edge-litert package: pip install ai-edge-litert")

import op_models
import oracles

from harness.build.model_runner import host_file_runner

EXAMPLES = REPO_ROOT / "micro_runtime" / "examples"
REFERENCE_MODELS = [
    EXAMPLES / "hello_world/models/hello_world_float.tflite",
    EXAMPLES / "hello_world/models/hello_world_int8.tflite",
    EXAMPLES / "micro_speech/models/micro_speech_quantized.tflite",
]
VARIANTS_PER_OP = 12  # random models per (op, dtype); each carries op_models.CASES_PER_MODEL input cases
SEED = 20240611


@pytest.fixture(scope="session")
def runner_built() -> Path:
    return host_file_runner(build=True)


# Kernels written to TFLM's integer arithmetic step by step: quantized outputs equal TFLM's, no +-1 step.
BIT_EXACT_OPS = {"SUB", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE", "DIV", "PRELU", "ABS", "SQRT", "RSQRT", "EXP",
                 "LOG", "LEAKY_RELU", "HARD_SWISH", "PAD", "PADV2", "CONCATENATION", "MEAN", "STRIDED_SLICE",
                 "TRANSPOSE", "SQUEEZE", "EXPAND_DIMS", "PACK", "UNPACK", "SPLIT", "SPLIT_V", "SHAPE", "FILL",
                 "ZEROS_LIKE", "RESIZE_NEAREST_NEIGHBOR",
                 "RESIZE_BILINEAR", "L2_NORMALIZATION",
                 "GATHER", "ARG_MAX", "ARG_MIN", "CAST", "SPACE_TO_BATCH_ND", "BATCH_TO_SPACE_ND",
                 "UNIDIRECTIONAL_SEQUENCE_LSTM", "SVDF", "TRANSPOSE_CONV"}
# Single types of other ops written the same way: the 16x8 filter ops (int16 activations, int8 weights, issue 10
# part 2: TFLM's 64-bit accumulation and 15-bit multiplier) and QUANTIZE's int16 pairs.
BIT_EXACT_VARIANTS = {("CONV_2D", "int16"), ("DEPTHWISE_CONV_2D", "int16"), ("FULLY_CONNECTED", "int16"),
                      ("QUANTIZE", "float32_to_int16"), ("QUANTIZE", "int16_to_int8"), ("QUANTIZE", "int8_to_int16"),
                      ("QUANTIZE", "int16_to_int16"), ("QUANTIZE", "int16_to_int32"), ("DEQUANTIZE", "int16"),
                      ("ADD", "int16"), ("MUL", "int16"), ("QUANTIZE", "int8_to_int32"), ("QUANTIZE", "int32_to_int8"),
                      ("QUANTIZE", "int32_to_int16"), ("QUANTIZE", "int8_to_uint8"), ("QUANTIZE", "uint8_to_int8"),
                      ("DEQUANTIZE", "uint8"), ("SOFTMAX", "int8"), ("SOFTMAX", "int8_to_int16")}
# int16 (zero point 0) of the activations and pooling, TFLM's arithmetic (LOGISTIC/TANH: its table interpolation),
# int8 RELU/RELU6 (TFLM's float scale ratio), and RESHAPE's copy of every type but float32.
BIT_EXACT_VARIANTS |= {("RELU", "int16"), ("RELU6", "int16"), ("RELU", "int8"), ("RELU6", "int8"),
                       ("AVERAGE_POOL_2D", "int16"), ("MAX_POOL_2D", "int16"), ("LOGISTIC", "int16"), ("TANH", "int16")}
# int16 SOFTMAX: TFLM's exp and 1 / (1 + x) tables, built in prepare with its float arithmetic.
BIT_EXACT_VARIANTS.add(("SOFTMAX", "int16"))
BIT_EXACT_VARIANTS |= {("RESHAPE", dtype) for dtype in op_models.RESHAPE_TYPES if dtype != "float32"}


# Where LiteRT's integer arithmetic is not TFLM's: int8 MEAN over axes 1 and 2 of a 4-D input (the global
# average pool) takes LiteRT's own kernel, which rounds differently (one step, docs/ops.md). Ours equals TFLM.
# Its 16x8 FULLY_CONNECTED (int16 activations) is one step from TFLM on some outputs too, and its float ->
# int16 QUANTIZE multiplies by 1 / scale and rounds ties to even where TFLM divides in float and rounds away.
# LiteRT's int8 -> int16 SOFTMAX (a lookup table) is one step from TFLM's fixed point on some outputs, its int16
# SOFTMAX from TFLM's tables on a few.
LITERT_INT_TOLERANCE = {"MEAN": 1, "FULLY_CONNECTED": 1, "QUANTIZE": 1, "SOFTMAX": 1}


def _int_tolerance(op: str, dtype: str = "") -> int:
    return 0 if op in BIT_EXACT_OPS or (op, dtype) in BIT_EXACT_VARIANTS else oracles.INT_TOLERANCE


def _compare_all(model: Path, cases: list[list[np.ndarray]], workdir: Path,
                 int_tolerance: int = oracles.INT_TOLERANCE, litert_int_tolerance: int | None = None,
                 litert: bool = True, tflm: bool = True) -> list[str]:
    oracle_list = (("tflm", oracles.run_tflm, tflm), ("litert", oracles.run_litert, litert))
    chosen = [(name, run) for name, run, use in oracle_list if use]
    if not chosen:
        return ["no oracle for this model"]
    ours = oracles.run_ours(model, cases, workdir)
    problems = []
    for oracle_name, run in chosen:
        reference = run(model, cases)
        tolerance = litert_int_tolerance if oracle_name == "litert" and litert_int_tolerance is not None \
            else int_tolerance
        for c, (got, want) in enumerate(zip(ours, reference, strict=True)):
            if len(got) != len(want):
                problems.append(f"case {c}: {len(got)} outputs vs {oracle_name}'s {len(want)}")
                continue
            for o, (a, b) in enumerate(zip(got, want, strict=True)):
                message = oracles.mismatch(a, b, f"case {c} output {o} vs {oracle_name}", tolerance)
                if message:
                    problems.append(message)
    return problems


@pytest.mark.parametrize("model", REFERENCE_MODELS, ids=lambda p: p.stem)
def test_reference_model(model: Path, runner_built: Path, tmp_path: Path) -> None:
    doc = json.loads(model.with_name(model.stem + "_cases.json").read_text())
    cases = [[np.asarray(c["input"], dtype=c["input_dtype"])] for c in doc["cases"]]
    # Plus seeded random inputs over the whole input range.
    rng = np.random.default_rng(SEED)
    shape, dtype = cases[0][0].shape, cases[0][0].dtype
    for _ in range(3):
        if dtype == np.int8:
            cases.append([rng.integers(-128, 128, shape).astype(np.int8)])
        else:
            cases.append([rng.uniform(-1, 7, shape).astype(np.float32)])
    assert _compare_all(model, cases, tmp_path) == []


def _op_params() -> list[object]:
    params = []
    for op, (_, dtypes) in op_models.GENERATORS.items():
        for dtype in dtypes:
            params.append(pytest.param(op, dtype, id=f"{op}-{dtype}"))
    return params


@pytest.mark.parametrize(("op", "dtype"), _op_params())
def test_single_op_models(op: str, dtype: str, runner_built: Path, tmp_path: Path) -> None:
    generator, _ = op_models.GENERATORS[op]
    failures = []
    for variant in range(VARIANTS_PER_OP):
        rng = np.random.default_rng([SEED, list(op_models.GENERATORS).index(op), variant, dtype == "int8"])
        op_model = generator(rng, dtype)
        path = tmp_path / (re.sub(r"[^0-9A-Za-z_.-]", "_", op_model.name) + ".tflite")
        path.write_bytes(op_model.model)
        problems = _compare_all(path, op_model.cases, tmp_path / f"v{variant}", _int_tolerance(op, dtype),
                                LITERT_INT_TOLERANCE.get(op), op_model.litert, op_model.tflm)
        failures += [f"{op_model.name}: {p}" for p in problems]
    assert failures == []


@pytest.mark.parametrize("depthwise", [False, True], ids=["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_bias_quantization_field_tflm_ignores(depthwise: bool, runner_built: Path, tmp_path: Path) -> None:
    """A per-channel int32 bias whose quantized_dimension (3) is outside its rank (1), as converters have
    written it: TFLM ignores a bias's quantization and runs the model (LiteRT refuses it); so do we."""
    rng = np.random.default_rng([SEED, 77, depthwise])
    for variant in range(4):
        op_model = op_models._conv_like(rng, "int8", depthwise=depthwise, bias_quantized_dimension=3)
        path = tmp_path / f"bias_qdim_{variant}.tflite"
        path.write_bytes(op_model.model)
        ours = oracles.run_ours(path, op_model.cases, tmp_path / f"v{variant}")
        reference = oracles.run_tflm(path, op_model.cases)
        for c, (got, want) in enumerate(zip(ours, reference, strict=True)):
            assert oracles.mismatch(got[0], want[0], f"{op_model.name} case {c} vs tflm") is None


# On the Cortex-M3 target too (32-bit build, soft float, -Os): a few random models per kernel family
# through the model runner under QEMU, against TFLM on the host.
TARGET_OPS = [("CONV_2D", "int8"), ("DEPTHWISE_CONV_2D", "int8"), ("FULLY_CONNECTED", "int8"), ("SOFTMAX", "int8"),
              ("ADD", "int8"), ("MUL", "int8"), ("AVERAGE_POOL_2D", "int8"), ("LOGISTIC", "int8"),
              ("TANH", "int8"), ("CONV_2D", "float32"), ("SOFTMAX", "float32"), ("SIN", "float32")]
# Every type of the ops added in issue 10 part 3: their integer arithmetic (32-bit shifts, int16 fixed
# point, the soft-float scale ratios of prepare) is what a 32-bit soft-float target could get wrong.
TARGET_OPS += [(op, dtype) for op in sorted(BIT_EXACT_OPS) for dtype in op_models.GENERATORS[op][1]]
TARGET_OPS += sorted(BIT_EXACT_VARIANTS)


def _bluepill_available() -> bool:
    import shutil

    from harness.board.boards import available_boards

    return "bluepill" in available_boards() and shutil.which("qemu-system-arm") is not None


@pytest.mark.emulator
@pytest.mark.skipif(not _bluepill_available(), reason="needs boards/bluepill and qemu-system-arm")
@pytest.mark.parametrize(("op", "dtype"), [pytest.param(o, d, id=f"{o}-{d}") for o, d in TARGET_OPS])
def test_single_op_models_on_bluepill(op: str, dtype: str, tmp_path: Path) -> None:
    from harness.cli.run_model import run_model

    generator, _ = op_models.GENERATORS[op]
    rng = np.random.default_rng([SEED, list(op_models.GENERATORS).index(op), 99, dtype == "int8"])
    op_model = generator(rng, dtype)
    model = tmp_path / f"{op.lower()}_{dtype}.tflite"
    model.write_bytes(op_model.model)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [
        {"inputs": [a.tolist() for a in case], "input_dtypes": [str(a.dtype) for a in case]}
        for case in op_model.cases]}))
    result = run_model(model, "bluepill", cases, backend="qemu", timeout_s=120)
    # TFLM, or LiteRT for the models TFLM has no answer for (OpModel.tflm).
    oracle = "tflm" if op_model.tflm else "litert"
    reference = (oracles.run_tflm if op_model.tflm else oracles.run_litert)(model, op_model.cases)
    problems = []
    for c, (got, want) in enumerate(zip(result["cases"], reference, strict=True)):
        for o, (out, ref) in enumerate(zip(got["outputs"], want, strict=True)):
            ours = np.asarray(out["data"], dtype=out["dtype"]).reshape(out["shape"])
            message = oracles.mismatch(ours, ref, f"{op_model.name} case {c} output {o} vs {oracle}",
                                       _int_tolerance(op, dtype))
            if message:
                problems.append(message)
    assert problems == []
