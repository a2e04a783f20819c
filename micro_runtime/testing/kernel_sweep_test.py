"""Wide randomized check of the heavy kernels (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE/MAX_POOL_2D)
against TFLM, plus a check that the C++ test data headers match their generator.

The C++ unit tests (kernels/*_test.cc) pin hand-picked cases. This sweep draws seeded random single-op models
with shapes the small cases do not reach (up to 40 channels, depth multipliers up to 17 so the 8-lane blocks
and their remainders run, strides up to 3, dilation, batches, both int8 zero-point signs, bias or none) and
runs each through our whole runtime (host file runner) and through TFLM's Python interpreter. int8 must match
exactly (we implement TFLite's rounding bit for bit); float within 1e-5 relative + 1e-6 absolute.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tflite_micro", reason="needs the tflite-micro package: pip install tflite-micro")

from harness.cli.run_model import host_file_runner, run_host_files

HERE = Path(__file__).resolve().parent


def _load_generator() -> Any:  # micro_runtime/testing is not a package; load the script by path
    spec = importlib.util.spec_from_file_location("gen_kernel_cases", HERE / "gen_kernel_cases.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_kernel_cases"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
MODELS_PER_KIND = 40
KINDS = ["conv", "depthwise", "fully_connected", "average_pool", "max_pool"]


def random_case(kind: str, rng: np.random.Generator) -> Any:
    quant = bool(rng.integers(0, 2))
    pad = str(rng.choice(["SAME", "VALID"]))
    act = str(rng.choice(["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]))
    stride = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    dilation = (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
    kernel = (int(rng.integers(1, 5)), int(rng.integers(1, 5)))
    batches = int(rng.integers(1, 3))
    h = int(rng.integers(kernel[0] * dilation[0], 12))
    w = int(rng.integers(kernel[1] * dilation[1], 12))
    # Mostly small, sometimes past the float depthwise block of 32 channels.
    channels = int(rng.integers(1, 20)) if rng.integers(0, 4) else int(rng.integers(30, 41))
    has_bias = bool(rng.integers(0, 2))
    if kind == "conv":
        return gen.conv_case(rng, "X", "", quant, [batches, h, w, channels], int(rng.integers(1, 20)), kernel, pad,
                             stride, dilation, act, bias=has_bias, version=3 if quant else 2,
                             per_channel=bool(rng.integers(0, 2)))
    if kind == "depthwise":
        multiplier = int(rng.choice([1, 1, 2, 3, 8, 9, 16, 17]))
        return gen.dw_case(rng, "X", "", quant, [batches, h, w, channels], multiplier, kernel, pad, stride, dilation,
                           act, bias=has_bias, version=3 if quant else 2)
    if kind == "fully_connected":
        n_in, units = int(rng.integers(1, 300)), int(rng.integers(1, 13))
        if quant:
            bias = gen.rnd_bias(rng, units, 50000) if has_bias else None
            # Per-tensor or per-unit (per-channel) filter scales.
            scales = [0.003] if rng.integers(0, 2) else [round(float(v), 5) for v in rng.uniform(0.001, 0.005, units)]
            return gen.Case("X", "", "FULLY_CONNECTED", 4, {"fused_activation_function": act},
                            gen.rnd_int8(rng, [batches, n_in]), gen.rnd_int8(rng, [units, n_in], -127), bias,
                            [batches, units], (0.02, int(rng.integers(-128, 128))), scales, 0,
                            (0.5, int(rng.integers(-128, 128))))
        bias = gen.rnd_float(rng, [units]) if has_bias else None
        return gen.Case("X", "", "FULLY_CONNECTED", 1, {"fused_activation_function": act},
                        gen.rnd_float(rng, [batches, n_in]), gen.rnd_float(rng, [units, n_in]), bias,
                        [batches, units])
    if quant and act == "RELU_N1_TO_1":
        act = "NONE"
    op = "AVERAGE_POOL_2D" if kind == "average_pool" else "MAX_POOL_2D"
    return gen.pool_case(rng, "X", "", op, quant, [batches, h, w, min(channels, 11)], kernel, pad, stride, act,
                         version=2 if quant else 1)


@pytest.fixture(scope="module")
def runner() -> Path:
    return host_file_runner(build=True)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_random_models_match_tflm(kind: str, runner: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(100 + KINDS.index(kind))
    checked = 0
    problems = []
    for i in range(MODELS_PER_KIND):
        case = random_case(kind, rng)
        if min(case.output_shape) < 1:
            continue
        model = tmp_path / f"{kind}_{i}.tflite"
        model.write_bytes(gen.build_model(case))
        want = gen.run_tflm(case)
        result = run_host_files(model, [[case.input]], tmp_path / f"run{i}")
        out = result["cases"][0]["outputs"][0]
        got = np.asarray(out["data"], dtype=out["dtype"]).reshape(out["shape"])
        assert got.shape == want.shape, f"model {i}: shape {got.shape} vs TFLM {want.shape}"
        what = (f"model {i}: input {list(case.input.shape)} {case.input.dtype} filter "
                f"{None if case.filter is None else list(case.filter.shape)} options {case.options}")
        if case.input.dtype == np.int8:
            diff = int(np.abs(got.astype(np.int32) - want.astype(np.int32)).max())
            if diff != 0:
                problems.append(f"{what}: int8 differs from TFLM by up to {diff}")
        elif not np.all(np.abs(got - want) <= 1e-6 + 1e-5 * np.abs(want)):
            problems.append(f"{what}: float differs from TFLM by up to {float(np.abs(got - want).max())}")
        checked += 1
    assert checked >= MODELS_PER_KIND // 2, f"only {checked} usable random models"
    assert problems == []


def test_generated_headers_are_current(tmp_path: Path) -> None:
    # The committed test data must be what the generator produces (and so what TFLM computes).
    for path in gen.write_all(tmp_path):
        committed = gen.OUT_DIR / path.name
        assert committed.exists(), f"{committed} missing; run python3 micro_runtime/testing/gen_kernel_cases.py"
        assert committed.read_text() == path.read_text(), (
            f"{committed} is stale; run python3 micro_runtime/testing/gen_kernel_cases.py")
