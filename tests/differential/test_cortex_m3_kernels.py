"""The Cortex-M3 kernel variants (micro_runtime/kernels/cortex_m/, board tag cortex_m without arm_dsp: bluepill)
against TFLM, bit-exact: random int8 DEPTHWISE_CONV_2D models with a depth multiplier of 4 or 8, the shapes its
packed two-channels-per-SMLAL path takes (micro_speech's layer is 1 x 8), including windows up to its 128-tap
limit and one beyond, extreme input zero points (|input - zero point| up to 255) and dilations; run on the
emulated Blue Pill through the model runner."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tflite_micro", reason="needs the tflite-micro package: pip install tflite-micro")

import op_models
import oracles

SEED = 20261124

# (input h, w, channels, multiplier, filter h, w, stride, dilation, padding)
SHAPES = [
    (49, 40, 1, 8, 10, 8, 2, 1, "SAME"),   # micro_speech's layer
    (9, 7, 2, 4, 3, 3, 1, 2, "SAME"),      # several input channels, dilation
    (17, 9, 1, 4, 16, 8, 1, 1, "VALID"),   # 128 taps: the packed path's largest window
    (4, 43, 1, 4, 3, 43, 1, 1, "VALID"),   # 129 taps: the fallback
    (6, 11, 3, 8, 2, 5, 2, 1, "SAME"),
    (8, 8, 1, 12, 5, 5, 3, 1, "VALID"),
]


def _depthwise_model(rng: np.random.Generator, shape: tuple) -> op_models.OpModel:
    h, w, c_in, mult, kh, kw, stride, dilation, padding = shape
    c_out = c_in * mult
    oh = op_models._conv_out(h, kh, stride, dilation, padding)
    ow = op_models._conv_out(w, kw, stride, dilation, padding)
    b = op_models.tb.ModelBuilder()
    # Zero points at the int8 ends as well: the packed sums' bound assumes |input - zero point| <= 255.
    in_q = op_models.Q(float(rng.uniform(0.005, 0.02)), int(rng.choice([-128, 127, int(rng.integers(-20, 20))])))
    out_q = op_models.Q(float(rng.uniform(0.02, 0.1)) * kh * kw, int(rng.integers(-20, 20)))
    inputs, out = op_models._io(b, "INT8", [[1, h, w, c_in]], [1, oh, ow, c_out], [in_q], out_q)
    weights = rng.uniform(-1, 1, [1, kh, kw, c_out]).astype(np.float32)
    w_scales = np.maximum(np.abs(weights).max(axis=(0, 1, 2)), 1e-3) / 127
    q_weights = np.round(weights / w_scales.reshape([1, 1, 1, c_out])).astype(np.int8)
    q_weights[0, 0, 0, 0] = -128  # the int8 extreme, which symmetric quantization never writes
    f = b.add_tensor("filter", "INT8", [1, kh, kw, c_out], data=q_weights, scale=list(w_scales),
                     zero_point=[0] * c_out, quantized_dimension=3)
    bias_scales = in_q.scale * w_scales
    bias = rng.uniform(-1, 1, c_out).astype(np.float32)
    bi = b.add_tensor("bias", "INT32", [c_out], data=np.round(bias / bias_scales).astype(np.int32),
                      scale=list(bias_scales), zero_point=[0] * c_out)
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    b.add_operator("DEPTHWISE_CONV_2D", [inputs[0], f, bi], [out], version=3,
                   options={"padding": padding, "stride_w": stride, "stride_h": stride, "dilation_w_factor": dilation,
                            "dilation_h_factor": dilation, "fused_activation_function": act,
                            "depth_multiplier": mult})
    cases = [[rng.integers(-128, 128, [1, h, w, c_in]).astype(np.int8)] for _ in range(2)]
    cases.append([np.full([1, h, w, c_in], -128 if in_q.zero_point > 0 else 127, np.int8)])  # extreme sums
    name = f"depthwise_int8_{h}x{w}x{c_in}_m{mult}_k{kh}x{kw}_s{stride}_d{dilation}_{padding}_{act}"
    return op_models._finish(b, inputs, out, name, cases)


def _bluepill_available() -> bool:
    import shutil

    from harness.board.boards import available_boards

    return "bluepill" in available_boards() and shutil.which("qemu-system-arm") is not None


@pytest.mark.emulator
@pytest.mark.skipif(not _bluepill_available(), reason="needs boards/bluepill and qemu-system-arm")
@pytest.mark.parametrize("index", range(len(SHAPES)), ids=[f"shape{i}" for i in range(len(SHAPES))])
def test_depthwise_multiplier_models_on_bluepill(index: int, tmp_path: Path) -> None:
    from harness.cli.run_model import run_model

    op_model = _depthwise_model(np.random.default_rng([SEED, index]), SHAPES[index])
    model = tmp_path / "depthwise.tflite"
    model.write_bytes(op_model.model)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [
        {"inputs": [a.tolist() for a in case], "input_dtypes": [str(a.dtype) for a in case]}
        for case in op_model.cases]}))
    result = run_model(model, "bluepill", cases, backend="qemu", timeout_s=120)
    reference = oracles.run_tflm(model, op_model.cases)
    problems = []
    for c, (got, want) in enumerate(zip(result["cases"], reference, strict=True)):
        out = got["outputs"][0]
        ours = np.asarray(out["data"], dtype=out["dtype"]).reshape(out["shape"])
        message = oracles.mismatch(ours, want[0], f"{op_model.name} case {c} vs tflm", 0)
        if message:
            problems.append(message)
    assert problems == []
