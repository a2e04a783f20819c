"""Issue 10 part 4: whole models of the families TinyML uses, built with the project's tflite_builder where no
file exists, run by our runtime and compared with TFLM's interpreter (bit-exact) on the host and on emulated
bluepill.

MobileNetV2-class int8 (seeded random weights, per-channel quantization as the TFLite converter writes it):
explicit PAD + 3x3 stride-2 CONV_2D (Keras' ZeroPadding2D before a VALID convolution), an inverted
residual block (1x1 expand CONV_2D, 3x3 DEPTHWISE_CONV_2D, 1x1 linear projection, residual ADD),
CONCATENATION of two branches on one quantization, MEAN over height and width (global average pool),
FULLY_CONNECTED and SOFTMAX.

magic_wand-class int8 CNN (TFLM's gesture example: accelerometer x/y/z over 128 steps): CONV_2D 4x3 + RELU,
MAX_POOL_2D 3x3, CONV_2D 4x1 + RELU, MAX_POOL_2D 3x1, RESHAPE, FULLY_CONNECTED + RELU, FULLY_CONNECTED, SOFTMAX.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tflite_micro", reason="needs the tflite-micro package: pip install tflite-micro")

import oracles
from op_models import Q, tb

SEEDS = [11, 12, 13]


def _per_channel(b: Any, name: str, weights: np.ndarray, axis: int) -> tuple[int, np.ndarray]:
    reduce_axes = tuple(a for a in range(weights.ndim) if a != axis)
    scales = np.maximum(np.abs(weights).max(axis=reduce_axes), 1e-3) / 127
    shape = [1] * weights.ndim
    shape[axis] = weights.shape[axis]
    q = np.round(weights / scales.reshape(shape)).astype(np.int8)
    index = b.add_tensor(name, "INT8", list(weights.shape), data=q, scale=list(scales),
                         zero_point=[0] * len(scales), quantized_dimension=axis)
    return index, scales


def _bias(b: Any, name: str, rng: np.random.Generator, in_q: Q, w_scales: np.ndarray) -> int:
    values = rng.uniform(-0.5, 0.5, len(w_scales))
    scales = in_q.scale * w_scales
    return b.add_tensor(name, "INT32", [len(w_scales)], data=np.round(values / scales).astype(np.int32),
                        scale=list(scales), zero_point=[0] * len(scales))


def _act(b: Any, name: str, shape: list[int], q: Q) -> int:
    return b.add_tensor(name, "INT8", shape, scale=q.scale, zero_point=q.zero_point)


def mobilenet_v2_like(seed: int) -> tuple[bytes, list[list[np.ndarray]]]:
    rng = np.random.default_rng([seed, 2])
    b = tb.ModelBuilder("MobileNetV2-class int8 block (micro_runtime differential test)")
    q_in, q_stem, q_exp, q_dw, q_proj, q_res, q_pool, q_fc = (
        Q(0.02, -5), Q(0.03, -128), Q(0.025, -128), Q(0.03, -128), Q(0.05, 3), Q(0.05, 3), Q(0.02, -7),
        Q(0.08, 2))
    x = _act(b, "input", [1, 15, 15, 3], q_in)
    paddings = b.add_tensor("paddings", "INT32", [4, 2], data=np.array([[0, 0], [0, 1], [0, 1], [0, 0]], np.int32))
    padded = _act(b, "padded", [1, 16, 16, 3], q_in)
    b.add_operator("PAD", [x, paddings], [padded], version=2)

    def conv(name: str, src: int, src_q: Q, out_q: Q, shape: list[int], weights_shape: list[int], act: str,
             stride: int = 1, padding: str = "SAME") -> int:
        fan_in = int(np.prod(weights_shape[1:]))  # weights scaled so activations stay inside their ranges
        w, w_scales = _per_channel(b, f"{name}_w", (rng.uniform(-1, 1, weights_shape) * 1.5 / np.sqrt(fan_in))
                                   .astype(np.float32), 0)
        out = _act(b, name, shape, out_q)
        b.add_operator("CONV_2D", [src, w, _bias(b, f"{name}_b", rng, src_q, w_scales)], [out], version=3,
                       options={"padding": padding, "stride_w": stride, "stride_h": stride,
                                "fused_activation_function": act})
        return out

    stem = conv("stem", padded, q_in, q_stem, [1, 7, 7, 8], [8, 3, 3, 3], "RELU6", stride=2, padding="VALID")
    expand = conv("expand", stem, q_stem, q_exp, [1, 7, 7, 24], [24, 1, 1, 8], "RELU6")
    dw_w, dw_scales = _per_channel(b, "dw_w", (rng.uniform(-1, 1, [1, 3, 3, 24]) / 2).astype(np.float32), 3)
    dw = _act(b, "dw", [1, 7, 7, 24], q_dw)
    b.add_operator("DEPTHWISE_CONV_2D", [expand, dw_w, _bias(b, "dw_b", rng, q_exp, dw_scales)], [dw], version=3,
                   options={"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1,
                            "fused_activation_function": "RELU6"})
    project = conv("project", dw, q_dw, q_proj, [1, 7, 7, 8], [8, 1, 1, 24], "NONE")
    # The residual: stem (its own quantization) + projection, into the block output's quantization.
    residual = _act(b, "residual", [1, 7, 7, 8], q_res)
    b.add_operator("ADD", [stem, project], [residual], version=2, options={"fused_activation_function": "NONE"})
    # A second branch on the same quantization as the residual, concatenated along channels.
    branch = conv("branch", residual, q_res, q_res, [1, 7, 7, 8], [8, 1, 1, 8], "NONE")
    joined = _act(b, "joined", [1, 7, 7, 16], q_res)
    b.add_operator("CONCATENATION", [residual, branch], [joined], version=2,
                   options={"axis": 3, "fused_activation_function": "NONE"})
    axes = b.add_tensor("axes", "INT32", [2], data=np.array([1, 2], np.int32))
    pooled = _act(b, "pooled", [1, 16], q_pool)
    b.add_operator("MEAN", [joined, axes], [pooled], version=2, options={"keep_dims": False})
    fc_w = (rng.uniform(-1, 1, [5, 16]) / 2).astype(np.float32)
    fc_scale = float(np.abs(fc_w).max() / 127)
    w = b.add_tensor("fc_w", "INT8", [5, 16], data=np.round(fc_w / fc_scale).astype(np.int8), scale=fc_scale,
                     zero_point=0)
    bias_scale = q_pool.scale * fc_scale
    fc_b = b.add_tensor("fc_b", "INT32", [5], data=np.round(rng.uniform(-0.5, 0.5, 5) / bias_scale).astype(np.int32),
                        scale=bias_scale, zero_point=0)
    logits = _act(b, "logits", [1, 5], q_fc)
    b.add_operator("FULLY_CONNECTED", [pooled, w, fc_b], [logits], version=4,
                   options={"fused_activation_function": "NONE"})
    probs = b.add_tensor("probs", "INT8", [1, 5], scale=1 / 256, zero_point=-128)
    b.add_operator("SOFTMAX", [logits], [probs], version=2, options={"beta": 1.0})
    b.set_inputs([x])
    b.set_outputs([probs, residual])
    cases = [[rng.integers(-128, 128, [1, 15, 15, 3]).astype(np.int8)] for _ in range(3)]
    return b.build(), cases


def _fc(b: Any, name: str, rng: np.random.Generator, src: int, src_q: Q, out_q: Q, units: int, depth: int,
        act: str) -> int:
    """FULLY_CONNECTED with per-tensor int8 weights (as the converter writes them) and an int32 bias."""
    weights = (rng.uniform(-1, 1, [units, depth]) * 1.5 / np.sqrt(depth)).astype(np.float32)
    scale = float(np.abs(weights).max() / 127)
    w = b.add_tensor(f"{name}_w", "INT8", [units, depth], data=np.round(weights / scale).astype(np.int8),
                     scale=scale, zero_point=0)
    bias_scale = src_q.scale * scale
    bias = b.add_tensor(f"{name}_b", "INT32", [units], scale=bias_scale, zero_point=0,
                        data=np.round(rng.uniform(-0.3, 0.3, units) / bias_scale).astype(np.int32))
    out = _act(b, name, [1, units], out_q)
    b.add_operator("FULLY_CONNECTED", [src, w, bias], [out], version=4, options={"fused_activation_function": act})
    return out


def magic_wand_like(seed: int) -> tuple[bytes, list[list[np.ndarray]]]:
    rng = np.random.default_rng([seed, 3])
    b = tb.ModelBuilder("magic_wand-class int8 CNN (micro_runtime differential test)")
    q_in, q_c1, q_c2, q_fc1, q_fc2 = Q(0.05, 3), Q(0.04, -128), Q(0.04, -128), Q(0.05, -128), Q(0.1, 5)
    x = _act(b, "accel", [1, 128, 3, 1], q_in)

    def conv(name: str, src: int, src_q: Q, out_q: Q, shape: list[int], weights_shape: list[int]) -> int:
        fan_in = int(np.prod(weights_shape[1:]))
        w, w_scales = _per_channel(b, f"{name}_w", (rng.uniform(-1, 1, weights_shape) * 2 / np.sqrt(fan_in))
                                   .astype(np.float32), 0)
        out = _act(b, name, shape, out_q)
        b.add_operator("CONV_2D", [src, w, _bias(b, f"{name}_b", rng, src_q, w_scales)], [out], version=3,
                       options={"padding": "SAME", "stride_w": 1, "stride_h": 1, "fused_activation_function": "RELU"})
        return out

    def pool(name: str, src: int, q: Q, shape: list[int], window: tuple[int, int]) -> int:
        out = _act(b, name, shape, q)
        b.add_operator("MAX_POOL_2D", [src], [out], version=2,
                       options={"padding": "VALID", "stride_w": window[1], "stride_h": window[0],
                                "filter_width": window[1], "filter_height": window[0],
                                "fused_activation_function": "NONE"})
        return out

    c1 = conv("conv1", x, q_in, q_c1, [1, 128, 3, 8], [8, 4, 3, 1])
    p1 = pool("pool1", c1, q_c1, [1, 42, 1, 8], (3, 3))
    c2 = conv("conv2", p1, q_c1, q_c2, [1, 42, 1, 16], [16, 4, 1, 8])
    p2 = pool("pool2", c2, q_c2, [1, 14, 1, 16], (3, 1))
    shape = b.add_tensor("flat_shape", "INT32", [2], data=np.array([1, 224], np.int32))
    flat = _act(b, "flat", [1, 224], q_c2)
    b.add_operator("RESHAPE", [p2, shape], [flat], options={"new_shape": [1, 224]})
    fc1 = _fc(b, "fc1", rng, flat, q_c2, q_fc1, 16, 224, "RELU")
    fc2 = _fc(b, "fc2", rng, fc1, q_fc1, q_fc2, 4, 16, "NONE")
    probs = b.add_tensor("probs", "INT8", [1, 4], scale=1 / 256, zero_point=-128)
    b.add_operator("SOFTMAX", [fc2], [probs], version=2, options={"beta": 1.0})
    b.set_inputs([x])
    b.set_outputs([probs, fc2])
    cases = [[rng.integers(-128, 128, [1, 128, 3, 1]).astype(np.int8)] for _ in range(3)]
    return b.build(), cases


FAMILIES = {"mobilenet_v2_like": mobilenet_v2_like, "magic_wand_like": magic_wand_like}


def _compare(ours: list[list[np.ndarray]], reference: list[list[np.ndarray]], what: str) -> list[str]:
    problems = []
    for c, (got, want) in enumerate(zip(ours, reference, strict=True)):
        assert len(got) == len(want) == 2, (len(got), len(want))
        for o, (a, r) in enumerate(zip(got, want, strict=True)):
            message = oracles.mismatch(a, r, f"{what} case {c} output {o} vs tflm", 0)
            if message:
                problems.append(message)
    return problems


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("seed", SEEDS)
def test_model_family_bit_exact_on_host(family: str, seed: int, tmp_path: Path) -> None:
    data, cases = FAMILIES[family](seed)
    model = tmp_path / f"{family}.tflite"
    model.write_bytes(data)
    reference = oracles.run_tflm(model, cases)
    # Not degenerate: the class probabilities differ, and the inner activation is mostly inside its range.
    assert any(np.ptp(out[0].astype(np.int32)) > 0 for out in reference), "every class probability equal"
    inner = np.concatenate([out[1].ravel() for out in reference])
    assert np.mean((inner == -128) | (inner == 127)) < 0.2, np.histogram(inner, 8)
    assert _compare(oracles.run_ours(model, cases, tmp_path), reference, f"{family} seed {seed}") == []


@pytest.mark.emulator
@pytest.mark.parametrize("family", FAMILIES)
def test_model_family_bit_exact_on_bluepill(family: str, tmp_path: Path) -> None:
    import shutil

    from harness.cli.run_model import run_model

    if shutil.which("qemu-system-arm") is None:
        pytest.skip("needs qemu-system-arm: apt-get install qemu-system-arm")
    data, cases = FAMILIES[family](SEEDS[0])
    model = tmp_path / f"{family}.tflite"
    model.write_bytes(data)
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps({"cases": [
        {"inputs": [a.tolist() for a in case], "input_dtypes": [str(a.dtype) for a in case]} for case in cases]}))
    result = run_model(model, "bluepill", cases_file, backend="qemu", timeout_s=120)
    ours = [[np.asarray(o["data"], dtype=o["dtype"]).reshape(o["shape"]) for o in case["outputs"]]
            for case in result["cases"]]
    assert _compare(ours, oracles.run_tflm(model, cases), "bluepill") == []
