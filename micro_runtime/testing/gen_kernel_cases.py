#!/usr/bin/env python3
"""Generates the expected values of the heavy-kernel unit tests.

Each case is a single-op .tflite model written with tools/tflite_builder.py and
run once through TFLM's own Python interpreter (the `tflite-micro` package);
the op's inputs, options and TFLM's output are written as C++ structs into
micro_runtime/kernels/testdata/<kernel>_cases.h. The C++ tests then run our
kernels on the same data and compare. Run again only to change the cases:

    python3 micro_runtime/testing/gen_kernel_cases.py

Float inputs are rounded to two decimals so the headers stay readable; int8
cases use random int8 tensors with hand-picked scales and zero points; int16
(16x8) cases random int16 activations (zero point 0), int8 weights and an
int64 or int32 bias.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "micro_runtime" / "tools"))

from tflite_builder import ModelBuilder  # noqa: E402

OUT_DIR = REPO / "micro_runtime" / "kernels" / "testdata"
ACT = {"NONE": "kTfLiteActNone", "RELU": "kTfLiteActRelu", "RELU6": "kTfLiteActRelu6",
       "RELU_N1_TO_1": "kTfLiteActReluN1To1"}
PAD = {"SAME": "kTfLitePaddingSame", "VALID": "kTfLitePaddingValid"}


@dataclass
class Case:
    name: str
    comment: str
    op: str
    version: int
    options: dict[str, Any]
    input: np.ndarray
    filter: np.ndarray | None = None
    bias: np.ndarray | None = None
    output_shape: list[int] = field(default_factory=list)
    # int8 only
    input_q: tuple[float, int] | None = None
    filter_scales: list[float] | None = None
    filter_qdim: int = 0
    output_q: tuple[float, int] | None = None
    expected: np.ndarray | None = None


def build_model(case: Case) -> bytes:
    """The single-op .tflite model of a case."""
    b = ModelBuilder()
    quant = case.input.dtype in (np.int8, np.int16)
    in_type = {np.dtype(np.int8): "INT8", np.dtype(np.int16): "INT16"}.get(case.input.dtype, "FLOAT32")
    iq = {"scale": case.input_q[0], "zero_point": case.input_q[1]} if quant else {}
    oq = {"scale": case.output_q[0], "zero_point": case.output_q[1]} if quant else {}
    x = b.add_tensor("x", in_type, case.input.shape, **iq)
    inputs = [x]
    if case.filter is not None:
        fq: dict[str, Any] = {}
        if quant:
            fq = {"scale": case.filter_scales, "zero_point": [0] * len(case.filter_scales),
                      "quantized_dimension": case.filter_qdim}
        inputs.append(b.add_tensor("w", "INT8" if quant else in_type, case.filter.shape, data=case.filter, **fq))
        if case.bias is not None:
            bq: dict[str, Any] = {}
            if quant:
                bscales = [case.input_q[0] * s for s in case.filter_scales]
                bq = {"scale": bscales, "zero_point": [0] * len(bscales)}
            bias_type = {np.dtype(np.int64): "INT64", np.dtype(np.int32): "INT32"}.get(case.bias.dtype, "FLOAT32")
            inputs.append(b.add_tensor("b", bias_type, case.bias.shape, data=case.bias, **bq))
        elif case.op != "DEPTHWISE_CONV_2D":
            # TFLM's depthwise kernel crashes on a -1 bias; it takes 2 inputs instead.
            inputs.append(-1)
    y = b.add_tensor("y", in_type, case.output_shape, **oq)
    b.add_operator(case.op, inputs, [y], options=case.options, version=case.version)
    b.set_inputs([x])
    b.set_outputs([y])
    return b.build()


def run_tflm(case: Case) -> np.ndarray:
    from tflite_micro.python.tflite_micro import runtime

    interp = runtime.Interpreter.from_bytes(build_model(case), arena_size=1 << 20)
    interp.set_input(case.input, 0)
    interp.invoke()
    return np.array(interp.get_output(0))


def c_array(values: np.ndarray, ctype: str) -> str:
    flat = values.reshape(-1)
    items = [float_literal(float(v)) for v in flat] if ctype == "float" else [str(int(v)) for v in flat]
    lines = []
    for i in range(0, len(items), 12):
        lines.append("      " + ", ".join(items[i:i + 12]) + ",")
    return "{\n" + "\n".join(lines) + "\n  }"


def float_literal(v: float) -> str:
    text = f"{v:.9g}"
    if "." not in text and "e" not in text and "n" not in text:
        text += ".0"
    return text + "f"


def dims(shape: Any) -> str:
    shape = list(shape)
    return "{" + ", ".join(str(int(d)) for d in [len(shape)] + shape) + "}"


def emit(case: Case) -> str:
    quant = case.input.dtype in (np.int8, np.int16)
    t = {np.dtype(np.int8): "int8_t", np.dtype(np.int16): "int16_t"}.get(case.input.dtype, "float")
    ft = "int8_t" if quant else "float"
    o = case.options
    out = [f"// {case.comment}", f"struct {case.name} {{"]
    out.append(f"  static constexpr int32_t input_dims[] = {dims(case.input.shape)};")
    out.append(f"  static constexpr {t} input[] = {c_array(case.input, t)};")
    if case.filter is not None:
        out.append(f"  static constexpr int32_t filter_dims[] = {dims(case.filter.shape)};")
        out.append(f"  static constexpr {ft} filter[] = {c_array(case.filter, ft)};")
        has_bias = case.bias is not None
        bias = case.bias if has_bias else np.zeros([1], np.int32 if quant else np.float32)
        bt = {np.dtype(np.int64): "int64_t", np.dtype(np.int32): "int32_t"}.get(bias.dtype, "float")
        bshape = case.bias.shape if has_bias else [1]
        out.append(f"  static constexpr bool has_bias = {'true' if has_bias else 'false'};")
        out.append(f"  static constexpr int32_t bias_dims[] = {dims(bshape)};")
        out.append(f"  static constexpr {bt} bias[] = {c_array(bias, bt)};")
    out.append(f"  static constexpr int32_t output_dims[] = {dims(case.output_shape)};")
    out.append(f"  static constexpr {t} expected[] = {c_array(case.expected, t)};")
    out.append(f"  static constexpr int output_size = {int(np.prod(case.output_shape))};")
    if "padding" in o:
        out.append(f"  static constexpr TfLitePadding padding = {PAD[o['padding']]};")
        out.append(f"  static constexpr int32_t stride_w = {o['stride_w']};")
        out.append(f"  static constexpr int32_t stride_h = {o['stride_h']};")
    for key, cname in (("dilation_w_factor", "dilation_w"), ("dilation_h_factor", "dilation_h"),
                       ("depth_multiplier", "depth_multiplier"), ("filter_width", "filter_w"),
                       ("filter_height", "filter_h")):
        if key in o:
            out.append(f"  static constexpr int32_t {cname} = {o[key]};")
    if "keep_num_dims" in o:
        out.append(f"  static constexpr bool keep_num_dims = {'true' if o['keep_num_dims'] else 'false'};")
    act = ACT[o.get("fused_activation_function", "NONE")]
    out.append(f"  static constexpr TfLiteFusedActivation activation = {act};")
    if quant:
        out.append(f"  static constexpr float input_scale = {float_literal(case.input_q[0])};")
        out.append(f"  static constexpr int32_t input_zero_point = {case.input_q[1]};")
        out.append(f"  static constexpr float output_scale = {float_literal(case.output_q[0])};")
        out.append(f"  static constexpr int32_t output_zero_point = {case.output_q[1]};")
        if case.filter_scales is not None:
            n = len(case.filter_scales)
            vals = ", ".join(float_literal(s) for s in case.filter_scales)
            out.append(f"  static constexpr int32_t filter_scale_count = {n};")
            out.append(f"  static constexpr float filter_scales[] = {{{vals}}};")
            out.append(f"  static constexpr int32_t filter_quantized_dimension = {case.filter_qdim};")
    out.append("};")
    return "\n".join(out) + "\n"


def rnd_float(rng: np.random.Generator, shape: list[int], lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return np.round(rng.uniform(lo, hi, shape), 2).astype(np.float32)


def rnd_int8(rng: np.random.Generator, shape: list[int], lo: int = -128, hi: int = 127) -> np.ndarray:
    return rng.integers(lo, hi + 1, shape).astype(np.int8)


def rnd_int16(rng: np.random.Generator, shape: list[int]) -> np.ndarray:
    return rng.integers(-32768, 32768, shape).astype(np.int16)


def int16_case(rng: np.random.Generator, name: str, comment: str, op: str, version: int, opts: dict[str, Any],
               in_shape: list[int], fshape: list[int], out_shape: list[int], scales: list[float], qdim: int,
               bias: str | None) -> Case:
    """16x8: int16 input (scale 2^-10) and output (2^-4), int8 weights, an int64 or int32 bias (or none)."""
    n_out = len(scales) if len(scales) > 1 else fshape[qdim]
    biases = None
    if bias is not None:
        biases = rng.integers(-3_000_000, 3_000_000, n_out).astype(np.int64 if bias == "int64" else np.int32)
    return Case(name, comment, op, version, opts, rnd_int16(rng, in_shape), rnd_int8(rng, fshape, -127), biases,
                out_shape, (2.0**-10, 0), scales, qdim, (2.0**-4, 0))


def rnd_bias(rng: np.random.Generator, n: int, mag: int = 2000) -> np.ndarray:
    return rng.integers(-mag, mag + 1, [n]).astype(np.int32)


def conv_out(n: int, f: int, s: int, d: int, pad: str) -> int:
    eff = (f - 1) * d + 1
    return (n + s - 1) // s if pad == "SAME" else (n - eff + s) // s


def conv_opts(pad: str, s: tuple[int, int], d: tuple[int, int], act: str) -> dict[str, Any]:
    return {"padding": pad, "stride_h": s[0], "stride_w": s[1], "dilation_h_factor": d[0],
            "dilation_w_factor": d[1], "fused_activation_function": act}


def fc_cases(rng: np.random.Generator) -> list[Case]:
    cases = [
        Case("FcFloatRelu", "float32, input [2,6], 4 units, bias, RELU", "FULLY_CONNECTED", 1,
             {"fused_activation_function": "RELU"}, rnd_float(rng, [2, 6]), rnd_float(rng, [4, 6]),
             rnd_float(rng, [4]), [2, 4]),
        Case("FcFloatNoBiasKeepDims", "float32, rank-3 input [1,2,5] flattened by filter dim 1, no bias, "
             "keep_num_dims", "FULLY_CONNECTED", 1, {"keep_num_dims": True}, rnd_float(rng, [1, 2, 5]),
             rnd_float(rng, [3, 5]), None, [1, 2, 3]),
        Case("FcInt8", "int8 per-tensor, input [2,10] zp -3, bias, NONE", "FULLY_CONNECTED", 4, {},
             rnd_int8(rng, [2, 10]), rnd_int8(rng, [5, 10]), rnd_bias(rng, 5), [2, 5],
             (0.1, -3), [0.02], 0, (0.5, 7)),
        Case("FcInt8Relu6NoBias", "int8 per-tensor, no bias, RELU6 clamps the output", "FULLY_CONNECTED", 4,
             {"fused_activation_function": "RELU6"}, rnd_int8(rng, [3, 8]), rnd_int8(rng, [4, 8]), None,
             [3, 4], (0.05, 10), [0.01], 0, (0.03, -20)),
        Case("FcInt8KeepDims", "int8, rank-3 input [1,3,4], keep_num_dims, RELU", "FULLY_CONNECTED", 4,
             {"keep_num_dims": True, "fused_activation_function": "RELU"}, rnd_int8(rng, [1, 3, 4]),
             rnd_int8(rng, [2, 4]), rnd_bias(rng, 2), [1, 3, 2], (0.2, 0), [0.03], 0, (0.4, -5)),
        int16_case(rng, "FcInt16Int64Bias", "16x8 per-tensor, input [2,9], int64 bias, RELU", "FULLY_CONNECTED", 7,
                   {"fused_activation_function": "RELU"}, [2, 9], [5, 9], [2, 5], [0.02], 0, "int64"),
        int16_case(rng, "FcInt16PerChannelInt32Bias", "16x8 per-channel, int32 bias (TFLM: int32 accumulator)",
                   "FULLY_CONNECTED", 7, {}, [3, 6], [4, 6], [3, 4], [0.01, 0.02, 0.005, 0.03], 0, "int32"),
        int16_case(rng, "FcInt16NoBias", "16x8 per-tensor, no bias, RELU6", "FULLY_CONNECTED", 7,
                   {"fused_activation_function": "RELU6"}, [1, 12], [3, 12], [1, 3], [0.015], 0, None),
    ]
    return cases


def conv_case(rng: np.random.Generator, name: str, comment: str, quant: bool, in_shape: list[int],
              oc: int, k: tuple[int, int], pad: str, s: tuple[int, int], d: tuple[int, int], act: str,
              bias: bool = True, version: int = 1, per_channel: bool = True) -> Case:
    n, h, w, ic = in_shape
    out_shape = [n, conv_out(h, k[0], s[0], d[0], pad), conv_out(w, k[1], s[1], d[1], pad), oc]
    opts = conv_opts(pad, s, d, act)
    fshape = [oc, k[0], k[1], ic]
    if not quant:
        return Case(name, comment, "CONV_2D", version, opts, rnd_float(rng, in_shape), rnd_float(rng, fshape),
                    rnd_float(rng, [oc]) if bias else None, out_shape)
    scales = [round(float(v), 4) for v in rng.uniform(0.005, 0.03, oc)] if per_channel else [0.01]
    return Case(name, comment, "CONV_2D", version, opts, rnd_int8(rng, in_shape), rnd_int8(rng, fshape, -127),
                rnd_bias(rng, oc) if bias else None, out_shape, (0.05, -7), scales, 0, (0.25, 3))


def conv_cases(rng: np.random.Generator) -> list[Case]:
    return [
        conv_case(rng, "ConvFloatSame", "float32 SAME stride 1, 3x3 filter, bias", False, [1, 5, 5, 2], 3,
                  (3, 3), "SAME", (1, 1), (1, 1), "NONE"),
        conv_case(rng, "ConvFloatValidStride2Relu", "float32 VALID, stride 2x1, 2 batches, RELU", False,
                  [2, 5, 4, 2], 2, (2, 3), "VALID", (2, 1), (1, 1), "RELU"),
        conv_case(rng, "ConvFloatDilationNoBias", "float32 SAME, dilation 2x2, no bias, RELU_N1_TO_1", False,
                  [1, 5, 5, 1], 2, (3, 3), "SAME", (1, 1), (2, 2), "RELU_N1_TO_1", bias=False, version=2),
        conv_case(rng, "ConvInt8PerChannelSame", "int8 per-channel SAME stride 1 (edge windows)", True,
                  [1, 4, 5, 3], 4, (3, 3), "SAME", (1, 1), (1, 1), "NONE", version=3),
        conv_case(rng, "ConvInt8Stride2Relu6", "int8 per-channel SAME stride 2, RELU6, even kernel", True,
                  [1, 6, 5, 2], 3, (2, 4), "SAME", (2, 2), (1, 1), "RELU6", version=3),
        conv_case(rng, "ConvInt8DilationValidNoBias", "int8 VALID dilation 2x1, no bias, RELU", True,
                  [2, 6, 4, 2], 2, (2, 2), "VALID", (1, 1), (2, 1), "RELU", bias=False, version=3),
        conv_case(rng, "ConvInt8PerTensor", "int8 per-tensor filter scale, SAME stride 1x2", True,
                  [1, 3, 5, 4], 2, (3, 2), "SAME", (1, 2), (1, 1), "NONE", version=3, per_channel=False),
        conv_case(rng, "ConvInt8DilationW", "int8 SAME dilation 1x2 (per-tap column path), RELU_N1_TO_1", True,
                  [1, 4, 6, 3], 2, (2, 3), "SAME", (1, 1), (1, 2), "RELU_N1_TO_1", version=3),
        int16_case(rng, "ConvInt16Int64BiasSame", "16x8 per-channel SAME stride 1, int64 bias", "CONV_2D", 4,
                   conv_opts("SAME", (1, 1), (1, 1), "NONE"), [1, 4, 5, 3], [3, 3, 3, 3], [1, 4, 5, 3],
                   [0.01, 0.02, 0.007], 0, "int64"),
        int16_case(rng, "ConvInt16Int32BiasStride2", "16x8 SAME stride 2, dilation 1x2, int32 bias, RELU",
                   "CONV_2D", 4, conv_opts("SAME", (2, 2), (1, 2), "RELU"), [2, 5, 6, 2], [2, 2, 3, 2],
                   [2, 3, 3, 2], [0.02, 0.01], 0, "int32"),
        int16_case(rng, "ConvInt16PerTensorNoBias", "16x8 per-tensor VALID, no bias, RELU6", "CONV_2D", 4,
                   conv_opts("VALID", (1, 1), (1, 1), "RELU6"), [1, 4, 4, 4], [2, 2, 2, 4], [1, 3, 3, 2],
                   [0.01], 0, None),
    ]


def dw_case(rng: np.random.Generator, name: str, comment: str, quant: bool, in_shape: list[int], mult: int,
            k: tuple[int, int], pad: str, s: tuple[int, int], d: tuple[int, int], act: str,
            bias: bool = True, version: int = 1) -> Case:
    n, h, w, ic = in_shape
    oc = ic * mult
    out_shape = [n, conv_out(h, k[0], s[0], d[0], pad), conv_out(w, k[1], s[1], d[1], pad), oc]
    opts = conv_opts(pad, s, d, act)
    opts["depth_multiplier"] = mult
    fshape = [1, k[0], k[1], oc]
    if not quant:
        return Case(name, comment, "DEPTHWISE_CONV_2D", version, opts, rnd_float(rng, in_shape),
                    rnd_float(rng, fshape), rnd_float(rng, [oc]) if bias else None, out_shape)
    scales = [round(float(v), 4) for v in rng.uniform(0.005, 0.03, oc)]
    return Case(name, comment, "DEPTHWISE_CONV_2D", version, opts, rnd_int8(rng, in_shape),
                rnd_int8(rng, fshape, -127), rnd_bias(rng, oc) if bias else None, out_shape, (0.05, 9),
                scales, 3, (0.125, -4))


def dw_cases(rng: np.random.Generator) -> list[Case]:
    return [
        dw_case(rng, "DwFloatSameMult2", "float32 SAME stride 1, 2 input channels x multiplier 2", False,
                [1, 4, 4, 2], 2, (3, 3), "SAME", (1, 1), (1, 1), "NONE"),
        dw_case(rng, "DwFloatDilationStride2Relu", "float32 SAME stride 2, dilation 2, RELU, 2 batches", False,
                [2, 5, 6, 3], 1, (2, 3), "SAME", (2, 2), (2, 2), "RELU", version=2),
        dw_case(rng, "DwFloatValidNoBias", "float32 VALID, no bias, RELU6", False, [1, 5, 4, 1], 3, (3, 2),
                "VALID", (1, 1), (1, 1), "RELU6", bias=False),
        dw_case(rng, "DwInt8Mult1Stride2", "int8 per-channel (dim 3), multiplier 1, SAME stride 2", True,
                [1, 5, 5, 3], 1, (3, 3), "SAME", (2, 2), (1, 1), "NONE", version=3),
        dw_case(rng, "DwInt8Mult4ValidRelu", "int8 multiplier 4, VALID, RELU", True, [1, 4, 5, 2], 4, (2, 2),
                "VALID", (1, 1), (1, 1), "RELU", version=3),
        dw_case(rng, "DwInt8MicroSpeechLike", "int8 like micro_speech: 1 channel x 8, 4x3 filter, SAME stride 2",
                True, [1, 7, 6, 1], 8, (4, 3), "SAME", (2, 2), (1, 1), "NONE", version=3),
        dw_case(rng, "DwInt8DilationNoBias", "int8 dilation 2x2, no bias, RELU6, 2 channels x 2", True,
                [1, 6, 6, 2], 2, (3, 2), "SAME", (1, 1), (2, 2), "RELU6", bias=False, version=3),
        dw_case(rng, "DwInt8Mult1Channels10", "int8 multiplier 1 with 10 channels (a block of 8 + 2 more)",
                True, [1, 3, 3, 10], 1, (2, 2), "SAME", (1, 1), (1, 1), "NONE", version=3),
        dw_case(rng, "DwInt8Mult12", "int8 2 channels x multiplier 12 (a block of 8 + 4 more), stride 2",
                True, [1, 4, 3, 2], 12, (3, 2), "SAME", (2, 2), (1, 1), "RELU", version=3),
        int16_case(rng, "DwInt16Mult2Same", "16x8 2 channels x multiplier 2, SAME stride 1, int64 bias",
                   "DEPTHWISE_CONV_2D", 5, {**conv_opts("SAME", (1, 1), (1, 1), "NONE"), "depth_multiplier": 2},
                   [1, 4, 4, 2], [1, 3, 3, 4], [1, 4, 4, 4], [0.01, 0.02, 0.015, 0.005], 3, "int64"),
        int16_case(rng, "DwInt16DilationStride2Relu", "16x8 multiplier 1, dilation 2, stride 2, int64 bias, RELU",
                   "DEPTHWISE_CONV_2D", 5, {**conv_opts("SAME", (2, 2), (2, 2), "RELU"), "depth_multiplier": 1},
                   [2, 5, 6, 3], [1, 2, 3, 3], [2, 3, 3, 3], [0.02, 0.01, 0.03], 3, "int64"),
        int16_case(rng, "DwInt16NoBias", "16x8 VALID, multiplier 3, no bias, RELU6", "DEPTHWISE_CONV_2D", 5,
                   {**conv_opts("VALID", (1, 1), (1, 1), "RELU6"), "depth_multiplier": 3}, [1, 4, 3, 1],
                   [1, 2, 2, 3], [1, 3, 2, 3], [0.01, 0.02, 0.03], 3, None),
    ]


def pool_case(rng: np.random.Generator, name: str, comment: str, op: str, quant: bool, in_shape: list[int],
              k: tuple[int, int], pad: str, s: tuple[int, int], act: str, version: int = 1,
              int16: bool = False) -> Case:
    n, h, w, c = in_shape
    out_shape = [n, conv_out(h, k[0], s[0], 1, pad), conv_out(w, k[1], s[1], 1, pad), c]
    opts = {"padding": pad, "stride_h": s[0], "stride_w": s[1], "filter_height": k[0], "filter_width": k[1],
            "fused_activation_function": act}
    if not quant:
        return Case(name, comment, op, version, opts, rnd_float(rng, in_shape, -3, 3), output_shape=out_shape)
    # Pooling keeps the input's quantization (int16: zero point 0).
    if int16:
        return Case(name, comment, op, version, opts, rnd_int16(rng, in_shape), output_shape=out_shape,
                    input_q=(2.0**-12, 0), output_q=(2.0**-12, 0))
    return Case(name, comment, op, version, opts, rnd_int8(rng, in_shape), output_shape=out_shape,
                input_q=(0.1, -5), output_q=(0.1, -5))


def pool_cases(rng: np.random.Generator) -> list[Case]:
    return [
        pool_case(rng, "AvgFloatSame", "AVERAGE_POOL_2D float32 SAME 2x2 stride 2 (partial edge windows)",
                  "AVERAGE_POOL_2D", False, [1, 5, 5, 2], (2, 2), "SAME", (2, 2), "NONE"),
        pool_case(rng, "AvgFloatValidRelu6", "AVERAGE_POOL_2D float32 VALID 3x2 stride 1, RELU6",
                  "AVERAGE_POOL_2D", False, [2, 4, 3, 1], (3, 2), "VALID", (1, 1), "RELU6"),
        pool_case(rng, "MaxFloatSameRelu", "MAX_POOL_2D float32 SAME 3x3 stride 2, RELU", "MAX_POOL_2D", False,
                  [1, 5, 4, 2], (3, 3), "SAME", (2, 2), "RELU"),
        pool_case(rng, "AvgInt8Same", "AVERAGE_POOL_2D int8 SAME 3x3 stride 2 (rounding of negative sums)",
                  "AVERAGE_POOL_2D", True, [1, 5, 5, 3], (3, 3), "SAME", (2, 2), "NONE", version=2),
        pool_case(rng, "AvgInt8ValidRelu", "AVERAGE_POOL_2D int8 VALID 2x2 stride 1, RELU", "AVERAGE_POOL_2D",
                  True, [1, 3, 4, 2], (2, 2), "VALID", (1, 1), "RELU", version=2),
        pool_case(rng, "MaxInt8Same", "MAX_POOL_2D int8 SAME 2x3 stride 1x2", "MAX_POOL_2D", True,
                  [1, 4, 5, 2], (2, 3), "SAME", (1, 2), "NONE", version=2),
        pool_case(rng, "MaxInt8ValidRelu6", "MAX_POOL_2D int8 VALID 2x2 stride 2, RELU6", "MAX_POOL_2D", True,
                  [2, 4, 4, 1], (2, 2), "VALID", (2, 2), "RELU6", version=2),
        # int16 (scale 2^-12: RELU6 clamps at 24576, inside the int16 range).
        pool_case(rng, "AvgInt16Same", "AVERAGE_POOL_2D int16 SAME 3x3 stride 2 (rounding of negative sums)",
                  "AVERAGE_POOL_2D", True, [1, 5, 5, 3], (3, 3), "SAME", (2, 2), "NONE", version=3, int16=True),
        pool_case(rng, "AvgInt16ValidRelu6", "AVERAGE_POOL_2D int16 VALID 2x3 stride 1, RELU6", "AVERAGE_POOL_2D",
                  True, [2, 3, 4, 2], (2, 3), "VALID", (1, 1), "RELU6", version=3, int16=True),
        pool_case(rng, "MaxInt16SameRelu", "MAX_POOL_2D int16 SAME 3x2 stride 2x1, RELU", "MAX_POOL_2D", True,
                  [1, 4, 5, 2], (3, 2), "SAME", (2, 1), "RELU", version=3, int16=True),
        pool_case(rng, "MaxInt16ValidRelu6", "MAX_POOL_2D int16 VALID 2x2 stride 2, RELU6", "MAX_POOL_2D", True,
                  [1, 4, 4, 2], (2, 2), "VALID", (2, 2), "RELU6", version=3, int16=True),
    ]


def write(kind: str, cases: list[Case], out_dir: Path = OUT_DIR) -> Path:
    body = []
    for case in cases:
        case.expected = run_tflm(case)
        body.append(emit(case))
    guard = f"MICRO_RUNTIME_KERNELS_TESTDATA_{kind.upper()}_CASES_H_"
    text = (f"// Generated by micro_runtime/testing/gen_kernel_cases.py; do not edit.\n"
            f"// `expected` is the output of TFLM's reference interpreter (tflite-micro Python\n"
            f"// package) for a single-op model with these tensors and options.\n"
            f"#ifndef {guard}\n#define {guard}\n\n#include <stdint.h>\n\n"
            f"#include \"micro_runtime/common.h\"\n\nnamespace {kind}_cases {{\n\n"
            + "\n".join(body) + f"\n}}  // namespace {kind}_cases\n\n#endif  // {guard}\n")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{kind}_cases.h"
    path.write_text(text)
    return path


def write_all(out_dir: Path = OUT_DIR) -> list[Path]:
    # One generator per kernel, so adding a case to one file leaves the others unchanged.
    return [
        write("fully_connected", fc_cases(np.random.default_rng(1)), out_dir),
        write("conv", conv_cases(np.random.default_rng(2)), out_dir),
        write("depthwise_conv", dw_cases(np.random.default_rng(3)), out_dir),
        write("pooling", pool_cases(np.random.default_rng(4)), out_dir),
    ]


def main() -> None:
    for path in write_all():
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
