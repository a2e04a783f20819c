"""Random single-op models for the differential tests, written with micro_runtime/tools/tflite_builder.py.

Every generator takes a seeded numpy Generator and returns an OpModel: the .tflite bytes plus a few random
input cases. int8 models use the TFLite quantization conventions (symmetric int8 weights, per-channel for
convolutions; int32 bias with scale = input scale * weight scale; fixed output scales for softmax, logistic
and tanh) so every implementation accepts them; int16 models are symmetric (zero point 0).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from harness import REPO_ROOT


def _load_builder() -> ModuleType:  # micro_runtime/tools is a script folder, not a package
    spec = importlib.util.spec_from_file_location("tflite_builder", REPO_ROOT / "micro_runtime/tools/tflite_builder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


tb = _load_builder()
CASES_PER_MODEL = 3


@dataclass
class OpModel:
    name: str
    model: bytes
    cases: list[list[np.ndarray]] = field(default_factory=list)
    # False where LiteRT is no oracle: its 16x8 CONV_2D reads an int32 bias as int64 (TFLM accumulates in int32).
    litert: bool = True


@dataclass
class Q:
    """Quantization of one int8 tensor."""

    scale: float
    zero_point: int

    def quantize(self, x: np.ndarray) -> np.ndarray:
        return np.clip(np.round(x / self.scale) + self.zero_point, -128, 127).astype(np.int8)


def _random_q(rng: np.random.Generator, low: float = 0.01, high: float = 0.1) -> Q:
    return Q(float(rng.uniform(low, high)), int(rng.integers(-20, 20)))


def _float_cases(rng: np.random.Generator, shapes: list[list[int]], scale: float = 1.0) -> list[list[np.ndarray]]:
    return [[(rng.uniform(-1, 1, s) * scale).astype(np.float32) for s in shapes] for _ in range(CASES_PER_MODEL)]


def _int8_cases(rng: np.random.Generator, shapes: list[list[int]]) -> list[list[np.ndarray]]:
    return [[rng.integers(-128, 128, s).astype(np.int8) for s in shapes] for _ in range(CASES_PER_MODEL)]


def _int16_cases(rng: np.random.Generator, shapes: list[list[int]]) -> list[list[np.ndarray]]:
    return [[rng.integers(-32768, 32768, s).astype(np.int16) for s in shapes] for _ in range(CASES_PER_MODEL)]


def _cases(rng: np.random.Generator, dtype: str, shapes: list[list[int]], scale: float = 1.0) -> list[list[np.ndarray]]:
    """Random inputs of every shape: floats in [-scale, scale), integers over the whole type range."""
    if dtype == "float32":
        return _float_cases(rng, shapes, scale)
    return _int8_cases(rng, shapes) if dtype == "int8" else _int16_cases(rng, shapes)


def _random_q16(rng: np.random.Generator, low: float, high: float) -> Q:
    """int16 activations are symmetric: zero point 0."""
    return Q(float(rng.uniform(low, high)), 0)


TENSOR_TYPE = {"float32": "FLOAT32", "int8": "INT8", "int16": "INT16"}


def _io(b: Any, dtype: str, in_shapes: list[list[int]], out_shape: list[int], in_q: list[Q] | None = None,
        out_q: Q | None = None) -> tuple[list[int], int]:
    inputs = []
    for i, shape in enumerate(in_shapes):
        q = in_q[i] if in_q else None
        inputs.append(b.add_tensor(f"in{i}", dtype, shape, scale=q.scale if q else None,
                                   zero_point=q.zero_point if q else None))
    output = b.add_tensor("out", dtype, out_shape, scale=out_q.scale if out_q else None,
                          zero_point=out_q.zero_point if out_q else None)
    return inputs, output


def _finish(b: Any, inputs: list[int], output: int, name: str, cases: list[list[np.ndarray]]) -> OpModel:
    b.set_inputs(inputs)
    b.set_outputs([output])
    return OpModel(name, b.build(), cases)


def _conv_out(size: int, kernel: int, stride: int, dilation: int, padding: str) -> int:
    effective = (kernel - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size - effective + stride) // stride


# ------------------------------------------------------------------ ops ----
def fully_connected(rng: np.random.Generator, dtype: str) -> OpModel:
    batch, n_in, n_out = int(rng.integers(1, 3)), int(rng.integers(2, 12)), int(rng.integers(1, 8))
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    b = tb.ModelBuilder()
    weights = rng.uniform(-1, 1, (n_out, n_in)).astype(np.float32)
    bias = rng.uniform(-1, 1, n_out).astype(np.float32)
    bias_type = "FLOAT32"
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [[batch, n_in]], [batch, n_out])
        w = b.add_tensor("w", "FLOAT32", [n_out, n_in], data=weights)
        bi = b.add_tensor("b", "FLOAT32", [n_out], data=bias)
        version, cases = 1, _float_cases(rng, [[batch, n_in]])
    else:
        # int16 (16x8): zero points 0, an int64 bias or (TFLM accumulating in int32 then) an int32 one.
        int16 = dtype == "int16"
        if int16:
            in_q, out_q = _random_q16(rng, 1e-4, 4e-4), _random_q16(rng, 5e-4, 2e-3)
        else:
            in_q, out_q = _random_q(rng, 0.005, 0.02), _random_q(rng, 0.02, 0.1)
        w_scale = float(np.abs(weights).max() / 127)
        inputs, out = _io(b, dtype.upper(), [[batch, n_in]], [batch, n_out], [in_q], out_q)
        w = b.add_tensor("w", "INT8", [n_out, n_in], data=np.round(weights / w_scale).astype(np.int8),
                         scale=w_scale, zero_point=0)
        bias_scale = in_q.scale * w_scale
        bias_type = str(rng.choice(["INT64", "INT32"])) if int16 else "INT32"
        bi = b.add_tensor("b", bias_type, [n_out],
                          data=np.round(bias / bias_scale).astype(tb.NUMPY_TYPES[bias_type]),
                          scale=bias_scale, zero_point=0)
        version, cases = (7, _int16_cases(rng, [[batch, n_in]])) if int16 else (4, _int8_cases(rng, [[batch, n_in]]))
    b.add_operator("FULLY_CONNECTED", [inputs[0], w, bi], [out], options={"fused_activation_function": act},
                   version=version)
    name = f"fully_connected_{dtype}_{batch}x{n_in}->{n_out}_{act}"
    if dtype == "int16":
        name += f"_bias_{bias_type.lower()}"
    return _finish(b, inputs, out, name, cases)


def _conv_like(rng: np.random.Generator, dtype: str, depthwise: bool, bias_quantized_dimension: int = 0) -> OpModel:
    h, w = int(rng.integers(3, 8)), int(rng.integers(3, 8))
    c_in = int(rng.integers(1, 4))
    multiplier = int(rng.integers(1, 3)) if depthwise else 1
    c_out = c_in * multiplier if depthwise else int(rng.integers(1, 5))
    kh, kw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    stride = int(rng.integers(1, 3))
    dilation = int(rng.integers(1, 3))
    padding = str(rng.choice(["SAME", "VALID"]))
    while _conv_out(h, kh, stride, dilation, padding) < 1 or _conv_out(w, kw, stride, dilation, padding) < 1:
        dilation, kh, kw = 1, 1, 1
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    oh, ow = _conv_out(h, kh, stride, dilation, padding), _conv_out(w, kw, stride, dilation, padding)
    filter_shape = [1, kh, kw, c_out] if depthwise else [c_out, kh, kw, c_in]
    channel_axis = 3 if depthwise else 0
    weights = rng.uniform(-1, 1, filter_shape).astype(np.float32)
    bias = rng.uniform(-1, 1, c_out).astype(np.float32)
    b = tb.ModelBuilder()
    in_shape, out_shape = [1, h, w, c_in], [1, oh, ow, c_out]
    bias_type = "FLOAT32"
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [in_shape], out_shape)
        f = b.add_tensor("filter", "FLOAT32", filter_shape, data=weights)
        bi = b.add_tensor("bias", "FLOAT32", [c_out], data=bias)
        version, cases = (2 if dilation > 1 else 1), _float_cases(rng, [in_shape])
    else:
        # int16 (16x8): zero points 0; CONV_2D takes an int64 or an int32 bias, DEPTHWISE_CONV_2D int64.
        int16 = dtype == "int16"
        if int16:
            in_q, out_q = _random_q16(rng, 1e-4, 4e-4), _random_q16(rng, 5e-4, 2e-3)
        else:
            in_q, out_q = _random_q(rng, 0.005, 0.02), _random_q(rng, 0.02, 0.1)
        inputs, out = _io(b, dtype.upper(), [[1, h, w, c_in]], out_shape, [in_q], out_q)
        reduce_axes = tuple(a for a in range(4) if a != channel_axis)
        w_scales = np.maximum(np.abs(weights).max(axis=reduce_axes), 1e-3) / 127
        shape = [1, 1, 1, 1]
        shape[channel_axis] = c_out
        q_weights = np.round(weights / w_scales.reshape(shape)).astype(np.int8)
        f = b.add_tensor("filter", "INT8", filter_shape, data=q_weights, scale=list(w_scales),
                         zero_point=[0] * c_out, quantized_dimension=channel_axis)
        bias_scales = in_q.scale * w_scales
        bias_type = str(rng.choice(["INT64"] if depthwise else ["INT64", "INT32"])) if int16 else "INT32"
        bi = b.add_tensor("bias", bias_type, [c_out],
                          data=np.round(bias / bias_scales).astype(tb.NUMPY_TYPES[bias_type]),
                          scale=list(bias_scales), zero_point=[0] * c_out,
                          quantized_dimension=bias_quantized_dimension)
        if int16:
            version, cases = (5 if depthwise else 4), _int16_cases(rng, [in_shape])
        else:
            version, cases = 3, _int8_cases(rng, [in_shape])
    options: dict[str, Any] = {"padding": padding, "stride_w": stride, "stride_h": stride,
                               "dilation_w_factor": dilation, "dilation_h_factor": dilation,
                               "fused_activation_function": act}
    op = "DEPTHWISE_CONV_2D" if depthwise else "CONV_2D"
    if depthwise:
        options["depth_multiplier"] = multiplier
    b.add_operator(op, [inputs[0], f, bi], [out], options=options, version=version)
    name = f"{op.lower()}_{dtype}_{h}x{w}x{c_in}_k{kh}x{kw}_s{stride}_d{dilation}_m{multiplier}_{padding}_{act}"
    if dtype == "int16":
        name += f"_bias_{bias_type.lower()}"
    op_model = _finish(b, inputs, out, name, cases)
    op_model.litert = not (dtype == "int16" and bias_type == "INT32")
    return op_model


def conv_2d(rng: np.random.Generator, dtype: str) -> OpModel:
    return _conv_like(rng, dtype, depthwise=False)


def depthwise_conv_2d(rng: np.random.Generator, dtype: str) -> OpModel:
    return _conv_like(rng, dtype, depthwise=True)


def _pool(rng: np.random.Generator, dtype: str, op: str) -> OpModel:
    h, w, c = int(rng.integers(2, 9)), int(rng.integers(2, 9)), int(rng.integers(1, 4))
    fh, fw = int(rng.integers(1, min(h, 3) + 1)), int(rng.integers(1, min(w, 3) + 1))
    stride = int(rng.integers(1, 3))
    padding = str(rng.choice(["SAME", "VALID"]))
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    oh, ow = _conv_out(h, fh, stride, 1, padding), _conv_out(w, fw, stride, 1, padding)
    b = tb.ModelBuilder()
    in_shape, out_shape = [1, h, w, c], [1, oh, ow, c]
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [in_shape], out_shape)
        version, cases = 1, _float_cases(rng, [in_shape], 8.0)
    else:
        q = _random_q(rng)  # pooling keeps the input's quantization
        inputs, out = _io(b, "INT8", [in_shape], out_shape, [q], q)
        version, cases = 2, _int8_cases(rng, [in_shape])
    b.add_operator(op, inputs, [out], version=version,
                   options={"padding": padding, "stride_w": stride, "stride_h": stride, "filter_width": fw,
                            "filter_height": fh, "fused_activation_function": act})
    return _finish(b, inputs, out, f"{op.lower()}_{dtype}_{h}x{w}x{c}_f{fh}x{fw}_s{stride}_{padding}_{act}", cases)


def average_pool_2d(rng: np.random.Generator, dtype: str) -> OpModel:
    return _pool(rng, dtype, "AVERAGE_POOL_2D")


def max_pool_2d(rng: np.random.Generator, dtype: str) -> OpModel:
    return _pool(rng, dtype, "MAX_POOL_2D")


def softmax(rng: np.random.Generator, dtype: str) -> OpModel:
    shape = [int(rng.integers(1, 3)), int(rng.integers(2, 12))]
    beta = float(rng.choice([1.0, 0.5, 2.0]))
    b = tb.ModelBuilder()
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [shape], shape)
        version, cases = 1, _float_cases(rng, [shape], 4.0)
    else:
        inputs, out = _io(b, "INT8", [shape], shape, [_random_q(rng, 0.02, 0.1)], Q(1 / 256, -128))
        version, cases = 2, _int8_cases(rng, [shape])
    b.add_operator("SOFTMAX", inputs, [out], options={"beta": beta}, version=version)
    return _finish(b, inputs, out, f"softmax_{dtype}_{shape[0]}x{shape[1]}_beta{beta}", cases)


def reshape(rng: np.random.Generator, dtype: str) -> OpModel:
    in_shape = [1, 2, 3, int(rng.integers(1, 4))]
    total = int(np.prod(in_shape))
    out_shape = [1, total // 2, 2] if total % 2 == 0 else [total, 1]
    b = tb.ModelBuilder()
    q = _random_q(rng) if dtype == "int8" else None
    inputs, out = _io(b, "FLOAT32" if dtype == "float32" else "INT8", [in_shape], out_shape,
                      [q] if q else None, q)
    new_shape = b.add_tensor("shape", "INT32", [len(out_shape)], data=np.array(out_shape, np.int32))
    b.add_operator("RESHAPE", [inputs[0], new_shape], [out], options={"new_shape": out_shape})
    cases = _float_cases(rng, [in_shape]) if dtype == "float32" else _int8_cases(rng, [in_shape])
    return _finish(b, inputs, out, f"reshape_{dtype}_{in_shape}->{out_shape}", cases)


def _broadcast_shapes(rng: np.random.Generator) -> tuple[list[int], list[int], list[int]]:
    full = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 5))]
    kind = int(rng.integers(0, 3))
    if kind == 0:
        other = list(full)  # same shape
    elif kind == 1:
        other = [1, 1, 1, full[3]]  # per-channel
    else:
        other = [1, full[1], 1, 1]
    return full, other, full


def _binary(rng: np.random.Generator, dtype: str, op: str) -> OpModel:
    a_shape, b_shape, out_shape = _broadcast_shapes(rng)
    if rng.integers(0, 2):
        a_shape, b_shape = b_shape, a_shape
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    b = tb.ModelBuilder()
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [a_shape, b_shape], out_shape)
        version, cases = 1, _float_cases(rng, [a_shape, b_shape], 3.0)
    else:
        qa, qb = _random_q(rng, 0.01, 0.05), _random_q(rng, 0.01, 0.05)
        out_q = _random_q(rng, 0.02, 0.1) if op == "ADD" else _random_q(rng, 0.01, 0.03)
        inputs, out = _io(b, "INT8", [a_shape, b_shape], out_shape, [qa, qb], out_q)
        version, cases = 2, _int8_cases(rng, [a_shape, b_shape])
    b.add_operator(op, inputs, [out], options={"fused_activation_function": act}, version=version)
    return _finish(b, inputs, out, f"{op.lower()}_{dtype}_{a_shape}x{b_shape}_{act}", cases)


def add(rng: np.random.Generator, dtype: str) -> OpModel:
    return _binary(rng, dtype, "ADD")


def mul(rng: np.random.Generator, dtype: str) -> OpModel:
    return _binary(rng, dtype, "MUL")


def _quantized_binary(rng: np.random.Generator, dtype: str, op: str, versions: dict[str, int],
                      q_ranges: tuple[tuple[float, float], tuple[float, float], tuple[float, float]],
                      options: dict[str, Any] | None = None, float_scale: float = 3.0,
                      same_q: bool = False) -> OpModel:
    """A binary op with broadcasting (SUB, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE): random shapes, random
    quantization per tensor from q_ranges (input 1, input 2, output scale ranges), or one shared
    quantization (same_q); int16 zero points are 0."""
    a_shape, b_shape, out_shape = _broadcast_shapes(rng)
    if rng.integers(0, 2):
        a_shape, b_shape = b_shape, a_shape
    b = tb.ModelBuilder()
    qs = None
    if dtype != "float32":
        random_q = _random_q16 if dtype == "int16" else _random_q
        qs = [random_q(rng, *r) for r in q_ranges]
        if same_q:
            qs = [qs[0]] * 3
    inputs, out = _io(b, TENSOR_TYPE[dtype], [a_shape, b_shape], out_shape, qs[:2] if qs else None,
                      qs[2] if qs else None)
    b.add_operator(op, inputs, [out], options=options or {}, version=versions[dtype])
    name = f"{op.lower()}_{dtype}_{a_shape}x{b_shape}_{'_'.join(f'{k}={v}' for k, v in (options or {}).items())}"
    return _finish(b, inputs, out, name, _cases(rng, dtype, [a_shape, b_shape], float_scale))


def sub(rng: np.random.Generator, dtype: str) -> OpModel:
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    # int16 SUB is version 5 with pot_scale_int16 false: the general rescaling every implementation shares.
    options: dict[str, Any] = {"fused_activation_function": act}
    if dtype == "int16":
        options["pot_scale_int16"] = False
    return _quantized_binary(rng, dtype, "SUB", {"float32": 1, "int8": 2, "int16": 5},
                             ((0.01, 0.05), (0.01, 0.05), (0.02, 0.1)), options)


def maximum(rng: np.random.Generator, dtype: str) -> OpModel:
    return _quantized_binary(rng, dtype, "MAXIMUM", {"float32": 1, "int8": 2, "int16": 4},
                             ((0.01, 0.05),) * 3, same_q=True)


def minimum(rng: np.random.Generator, dtype: str) -> OpModel:
    return _quantized_binary(rng, dtype, "MINIMUM", {"float32": 1, "int8": 2, "int16": 4},
                             ((0.01, 0.05),) * 3, same_q=True)


def squared_difference(rng: np.random.Generator, dtype: str) -> OpModel:
    return _quantized_binary(rng, dtype, "SQUARED_DIFFERENCE", {"float32": 1, "int8": 2},
                             ((0.01, 0.05), (0.01, 0.05), (0.05, 0.3)))


def div(rng: np.random.Generator, dtype: str) -> OpModel:
    """Divisors stay away from 0. int8 rescale multipliers s1 / (s2 * s_out) are >= 2^7, where TFLM's
    fixed-point division is defined for every numerator (below, numerators within a few steps of the zero
    point make it shift an int32 by 32 or more: undefined, see docs/ops.md)."""
    a_shape, b_shape, out_shape = _broadcast_shapes(rng)
    if rng.integers(0, 2):
        a_shape, b_shape = b_shape, a_shape
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    b = tb.ModelBuilder()
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [a_shape, b_shape], out_shape)
        cases = [[(rng.uniform(-4, 4, a_shape)).astype(np.float32),
                  (rng.uniform(0.25, 2, b_shape) * rng.choice([-1, 1], b_shape)).astype(np.float32)]
                 for _ in range(CASES_PER_MODEL)]
    else:
        qa, qb = _random_q(rng, 0.01, 0.02), _random_q(rng, 0.005, 0.01)
        out_q = Q(qa.scale / (qb.scale * float(rng.uniform(130, 400))), int(rng.integers(-20, 20)))
        inputs, out = _io(b, "INT8", [a_shape, b_shape], out_shape, [qa, qb], out_q)
        cases = []
        for _ in range(CASES_PER_MODEL):
            steps = rng.integers(16, 128, b_shape) * rng.choice([-1, 1], b_shape)
            cases.append([rng.integers(-128, 128, a_shape).astype(np.int8),
                          np.clip(steps + qb.zero_point, -128, 127).astype(np.int8)])
    b.add_operator("DIV", inputs, [out], options={"fused_activation_function": act}, version=1)
    return _finish(b, inputs, out, f"div_{dtype}_{a_shape}x{b_shape}_{act}", cases)


def prelu(rng: np.random.Generator, dtype: str) -> OpModel:
    """alpha is a constant tensor broadcast over the input (per channel, or per row and channel)."""
    shape = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 5))]
    alpha_shape = [shape[3]] if rng.integers(0, 2) else [1, shape[2], shape[3]]
    alpha = rng.uniform(-0.5, 1.0, alpha_shape).astype(np.float32)
    b = tb.ModelBuilder()
    if dtype == "float32":
        x = b.add_tensor("in0", "FLOAT32", shape)
        a = b.add_tensor("alpha", "FLOAT32", alpha_shape, data=alpha)
        y = b.add_tensor("out", "FLOAT32", shape)
    else:
        in_q, out_q = _random_q(rng, 0.01, 0.05), _random_q(rng, 0.01, 0.05)
        alpha_q = Q(float(np.abs(alpha).max() / 127 + 1e-3), int(rng.integers(-10, 10)))
        x = b.add_tensor("in0", "INT8", shape, scale=in_q.scale, zero_point=in_q.zero_point)
        a = b.add_tensor("alpha", "INT8", alpha_shape, data=alpha_q.quantize(alpha), scale=alpha_q.scale,
                         zero_point=alpha_q.zero_point)
        y = b.add_tensor("out", "INT8", shape, scale=out_q.scale, zero_point=out_q.zero_point)
    b.add_operator("PRELU", [x, a], [y], version=1)
    return _finish(b, [x], y, f"prelu_{dtype}_{shape}_alpha{alpha_shape}", _cases(rng, dtype, [shape], 3.0))


def _unary(rng: np.random.Generator, dtype: str, op: str, out_q: Q | None, scale: float = 4.0,
           version_int8: int = 2, same_q: bool = False, version_int16: int = 3,
           options: dict[str, Any] | None = None, float_range: tuple[float, float] | None = None,
           out_scales: tuple[float, float] = (0.02, 0.08), nonnegative: bool = False) -> OpModel:
    """One input, one output of the same shape. float inputs in [-scale, scale) (or float_range); int8/int16
    inputs over the whole type range (nonnegative: from the zero point up), random input and output
    quantization (int16: zero point 0)."""
    shape = [1, int(rng.integers(1, 5)), int(rng.integers(1, 9))]
    b = tb.ModelBuilder()
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [shape], shape)
        version = 1
        if float_range is None:
            cases = _float_cases(rng, [shape], scale)
        else:
            cases = [[rng.uniform(*float_range, shape).astype(np.float32)] for _ in range(CASES_PER_MODEL)]
    else:
        random_q = _random_q16 if dtype == "int16" else _random_q
        in_q = random_q(rng, 0.02, 0.08) if dtype == "int8" else random_q(rng, 1e-4, 4e-4)
        if not same_q and out_q is None:
            out_q = random_q(rng, *out_scales) if dtype == "int8" else random_q(rng, 1e-4, 4e-4)
        out_q = in_q if same_q else out_q
        inputs, out = _io(b, TENSOR_TYPE[dtype], [shape], shape, [in_q], out_q)
        version = version_int8 if dtype == "int8" else version_int16
        cases = _cases(rng, dtype, [shape])
        if nonnegative:
            info = np.iinfo(np.int8 if dtype == "int8" else np.int16)
            cases = [[rng.integers(in_q.zero_point, info.max + 1, shape).astype(info.dtype)]
                     for _ in range(CASES_PER_MODEL)]
    b.add_operator(op, inputs, [out], version=version, options=options or {})
    return _finish(b, inputs, out, f"{op.lower()}_{dtype}_{shape}", cases)


def logistic(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "LOGISTIC", Q(1 / 256, -128), 8.0)


def tanh(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "TANH", Q(1 / 128, 0), 4.0)


def relu(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "RELU", None, 4.0)


def relu6(rng: np.random.Generator, dtype: str) -> OpModel:
    # TFLM's int8 RELU6 clamps without requantizing, LiteRT requantizes: only equal in/out
    # quantization has one meaning, and it is what converters emit.
    return _unary(rng, dtype, "RELU6", None, 10.0, same_q=True)


def sin(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "SIN", None, 10.0)


def abs_(rng: np.random.Generator, dtype: str) -> OpModel:
    # Same or different input/output scales: TFLite skips the rescale when they are equal.
    return _unary(rng, dtype, "ABS", None, 4.0, same_q=bool(rng.integers(0, 2)))


def sqrt(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "SQRT", None, float_range=(0.0, 10.0))


def rsqrt(rng: np.random.Generator, dtype: str) -> OpModel:
    """int8 inputs at or above the input zero point: TFLM's int8 RSQRT fails invoke below it."""
    return _unary(rng, dtype, "RSQRT", None, float_range=(0.05, 10.0), out_scales=(0.02, 0.1), nonnegative=True)


def exp(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "EXP", None, 4.0)


def log(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "LOG", None, float_range=(0.01, 10.0))


def leaky_relu(rng: np.random.Generator, dtype: str) -> OpModel:
    alpha = float(rng.uniform(0.01, 0.5))
    return _unary(rng, dtype, "LEAKY_RELU", None, 4.0, version_int8=1, version_int16=2, options={"alpha": alpha})


def hard_swish(rng: np.random.Generator, dtype: str) -> OpModel:
    return _unary(rng, dtype, "HARD_SWISH", None, 6.0, version_int8=1, out_scales=(0.01, 0.05))


def quantize(rng: np.random.Generator, dtype: str) -> OpModel:
    """dtype 'float32': float32 -> int8; 'int8': int8 -> int8 requantization; '<in>_to_<out>': the int16 pairs
    (float32 -> int16, int16 <-> int8, int16 -> int16, int16 -> int32; int16 zero points 0, int32 scales fine)."""
    shape = [1, int(rng.integers(1, 17))]
    in_type, out_type = dtype.split("_to_") if "_to_" in dtype else (dtype, "int8")
    qs = {"int8": lambda: _random_q(rng, 0.01, 0.05), "int16": lambda: _random_q16(rng, 1e-4, 1e-3),
          "int32": lambda: _random_q16(rng, 1e-7, 1e-6)}
    out_q = qs[out_type]()
    b = tb.ModelBuilder()
    if in_type == "float32":
        x = b.add_tensor("in0", "FLOAT32", shape)
        cases = _float_cases(rng, [shape], 3.0)
        version = 1 if out_type == "int8" else 2
    else:
        in_q = qs[in_type]()
        x = b.add_tensor("in0", in_type.upper(), shape, scale=in_q.scale, zero_point=in_q.zero_point)
        cases = _int8_cases(rng, [shape]) if in_type == "int8" else _int16_cases(rng, [shape])
        version = 2
    y = b.add_tensor("out", out_type.upper(), shape, scale=out_q.scale, zero_point=out_q.zero_point)
    b.add_operator("QUANTIZE", [x], [y], version=version)
    return _finish(b, [x], y, f"quantize_{in_type}_to_{out_type}_{shape}", cases)


def dequantize(rng: np.random.Generator, dtype: str) -> OpModel:
    shape = [1, int(rng.integers(1, 17))]
    q = _random_q(rng, 0.01, 0.05) if dtype == "int8" else _random_q16(rng, 1e-4, 1e-3)
    b = tb.ModelBuilder()
    x = b.add_tensor("in0", dtype.upper(), shape, scale=q.scale, zero_point=q.zero_point)
    y = b.add_tensor("out", "FLOAT32", shape)
    b.add_operator("DEQUANTIZE", [x], [y], version=2 if dtype == "int8" else 3)
    cases = _int8_cases(rng, [shape]) if dtype == "int8" else _int16_cases(rng, [shape])
    return _finish(b, [x], y, f"dequantize_{dtype}_{shape}", cases)


# ------------------------------------------------- shape and data movement ----
NUMPY_DTYPE = {"float32": np.float32, "int8": np.int8, "int16": np.int16, "int32": np.int32}
TENSOR_TYPE_ALL = {**TENSOR_TYPE, "int32": "INT32"}


def _random_shape(rng: np.random.Generator, rank: int, high: int = 4) -> list[int]:
    return [int(d) for d in rng.integers(1, high + 1, rank)]


def _moved_q(rng: np.random.Generator, dtype: str) -> Q | None:
    """One quantization for every tensor of a data-movement op (int16: zero point 0)."""
    if dtype == "int8":
        return _random_q(rng)
    return _random_q16(rng, 1e-4, 4e-4) if dtype == "int16" else None


def _data_cases(rng: np.random.Generator, dtype: str, shapes: list[list[int]]) -> list[list[np.ndarray]]:
    if dtype == "int32":
        return [[rng.integers(-10**6, 10**6, s).astype(np.int32) for s in shapes] for _ in range(CASES_PER_MODEL)]
    return _cases(rng, dtype, shapes, 4.0)


def _moving_op(rng: np.random.Generator, dtype: str, op: str, in_shape: list[int], out_shape: list[int],
               constants: list[tuple[str, list[int], np.ndarray]], options: dict[str, Any], version: int,
               name: str) -> OpModel:
    """One data input, constant int32 inputs after it, one output; all data tensors share one quantization."""
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    inputs, out = _io(b, TENSOR_TYPE_ALL[dtype], [in_shape], out_shape, [q] if q else None, q)
    extra = [b.add_tensor(n, "INT32", shape, data=data.astype(np.int32)) for n, shape, data in constants]
    b.add_operator(op, inputs + extra, [out], options=options, version=version)
    return _finish(b, inputs, out, name, _data_cases(rng, dtype, [in_shape]))


def _pad(rng: np.random.Generator, dtype: str, op: str) -> OpModel:
    rank = int(rng.integers(1, 6))
    in_shape = _random_shape(rng, rank, 3)
    paddings = rng.integers(0, 3, (rank, 2))
    out_shape = [d + int(p.sum()) for d, p in zip(in_shape, paddings, strict=True)]
    version = 4 if rank > 4 else {"int16": 3, "int8": 2}.get(dtype, 1)
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    inputs, out = _io(b, TENSOR_TYPE_ALL[dtype], [in_shape], out_shape, [q] if q else None, q)
    operands = inputs + [b.add_tensor("paddings", "INT32", [rank, 2], data=paddings.astype(np.int32))]
    if op == "PADV2":
        value = _data_cases(rng, dtype, [[1]])[0][0].reshape([])
        operands.append(b.add_tensor("value", TENSOR_TYPE_ALL[dtype], [], data=value,
                                     scale=q.scale if q else None, zero_point=q.zero_point if q else None))
    b.add_operator(op, operands, [out], version=version)
    name = f"{op.lower()}_{dtype}_{in_shape}_{paddings.tolist()}"
    return _finish(b, inputs, out, name, _data_cases(rng, dtype, [in_shape]))


def pad(rng: np.random.Generator, dtype: str) -> OpModel:
    return _pad(rng, dtype, "PAD")


def padv2(rng: np.random.Generator, dtype: str) -> OpModel:
    return _pad(rng, dtype, "PADV2")


def concatenation(rng: np.random.Generator, dtype: str) -> OpModel:
    rank = int(rng.integers(1, 5))
    axis = int(rng.integers(-rank, rank))
    base = _random_shape(rng, rank, 3)
    shapes = []
    for _ in range(int(rng.integers(2, 4))):
        shape = list(base)
        shape[axis] = int(rng.integers(1, 4))
        shapes.append(shape)
    out_shape = list(base)
    out_shape[axis] = sum(s[axis] for s in shapes)
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    inputs, out = _io(b, TENSOR_TYPE_ALL[dtype], shapes, out_shape, [q] * len(shapes) if q else None, q)
    b.add_operator("CONCATENATION", inputs, [out], options={"axis": axis},
                   version={"int16": 3, "int8": 2}.get(dtype, 1))
    return _finish(b, inputs, out, f"concatenation_{dtype}_{shapes}_axis{axis}", _data_cases(rng, dtype, shapes))


def mean(rng: np.random.Generator, dtype: str) -> OpModel:
    """Half of the models are the global average pool of image models (4-D, axes 1 and 2, keep_dims); the
    others random axes (negative, repeated) of a 1- to 4-D input. int8/int16 with different input and
    output scales."""
    if rng.integers(0, 2):
        in_shape, axes, keep_dims = [1] + _random_shape(rng, 3, 5), [1, 2], True
    else:
        rank = int(rng.integers(1, 5))
        in_shape = _random_shape(rng, rank, 4)
        axes = [int(a) for a in rng.integers(-rank, rank, int(rng.integers(1, rank + 1)))]
        keep_dims = bool(rng.integers(0, 2))
    reduced = {a % len(in_shape) for a in axes}
    out_shape = [1 if i in reduced else d for i, d in enumerate(in_shape) if keep_dims or i not in reduced]
    b = tb.ModelBuilder()
    qs = None
    if dtype == "int8":
        qs = [_random_q(rng, 0.01, 0.05), _random_q(rng, 0.005, 0.05)]
    elif dtype == "int16":
        qs = [_random_q16(rng, 1e-4, 4e-4), _random_q16(rng, 5e-5, 4e-4)]
    inputs, out = _io(b, TENSOR_TYPE[dtype], [in_shape], out_shape, qs[:1] if qs else None, qs[1] if qs else None)
    axis = b.add_tensor("axis", "INT32", [len(axes)], data=np.array(axes, np.int32))
    b.add_operator("MEAN", [inputs[0], axis], [out], options={"keep_dims": keep_dims},
                   version={"int16": 3, "int8": 2}.get(dtype, 1))
    return _finish(b, inputs, out, f"mean_{dtype}_{in_shape}_axes{axes}_keep{int(keep_dims)}",
                   _cases(rng, dtype, [in_shape], 4.0))


def _slice_axis(size: int, begin: int, end: int, stride: int, begin_masked: bool, end_masked: bool) -> int:
    """Elements TFLite's strided slice takes along one axis (StridedSliceStartForAxis / EndForAxis)."""
    def clamp(v: int) -> int:
        v = v + size if v < 0 else v
        return min(max(v, 0), size) if stride > 0 else min(max(v, -1), size - 1)
    start, stop = clamp(begin), clamp(end)
    if begin_masked:
        start = 0 if stride > 0 else size - 1
    if end_masked:
        stop = size if stride > 0 else -1
    span = stop - start if stride > 0 else start - stop
    return max(0, -(-span // abs(stride)))


def strided_slice(rng: np.random.Generator, dtype: str) -> OpModel:
    """Random begin/end (negative, out of range), strides of both signs and random begin, end and shrink
    masks (shrunk axes with a positive stride and a begin inside the axis)."""
    rank = int(rng.integers(1, 5))
    in_shape = _random_shape(rng, rank, 5)
    begin, end, strides = [], [], []
    masks = {"begin_mask": 0, "end_mask": 0, "shrink_axis_mask": 0}
    out_shape = []
    for axis, size in enumerate(in_shape):
        while True:  # TFLM takes an empty output for a dynamic tensor: at least one element per axis
            stride = int(rng.choice([1, 1, 2, 3, -1, -2]))
            b0, e0 = int(rng.integers(-size - 2, size + 2)), int(rng.integers(-size - 2, size + 2))
            bm, em = bool(rng.integers(0, 4) == 0), bool(rng.integers(0, 4) == 0)
            if _slice_axis(size, b0, e0, stride, bm, em) > 0:
                break
        if stride > 0 and rng.integers(0, 5) == 0:
            b0 = int(rng.integers(-size, size))
            masks["shrink_axis_mask"] |= 1 << axis
        else:
            out_shape.append(_slice_axis(size, b0, e0, stride, bm, em))
        masks["begin_mask"] |= int(bm) << axis
        masks["end_mask"] |= int(em) << axis
        begin.append(b0)
        end.append(e0)
        strides.append(stride)
    constants = [(n, [rank], np.array(v)) for n, v in (("begin", begin), ("end", end), ("strides", strides))]
    name = f"strided_slice_{dtype}_{in_shape}_{begin}:{end}:{strides}_{masks}"
    return _moving_op(rng, dtype, "STRIDED_SLICE", in_shape, out_shape, constants, masks,
                      2 if dtype == "int8" else 1, name)


def transpose(rng: np.random.Generator, dtype: str) -> OpModel:
    rank = int(rng.integers(2, 6))
    in_shape = _random_shape(rng, rank, 4)
    perm = [int(p) for p in rng.permutation(rank)]
    version = 4 if rank > 4 else 1
    version = 5 if dtype == "int16" else (2 if dtype == "int8" and version == 1 else version)
    return _moving_op(rng, dtype, "TRANSPOSE", in_shape, [in_shape[p] for p in perm],
                      [("perm", [rank], np.array(perm))], {}, version, f"transpose_{dtype}_{in_shape}_perm{perm}")


def squeeze(rng: np.random.Generator, dtype: str) -> OpModel:
    rank = int(rng.integers(2, 6))
    in_shape = [1 if rng.integers(0, 2) else int(rng.integers(2, 4)) for _ in range(rank)]
    ones = [i for i, d in enumerate(in_shape) if d == 1]
    chosen = [i for i in ones if rng.integers(0, 2)] if rng.integers(0, 2) else []
    dims = [i - rank if rng.integers(0, 2) else i for i in chosen]
    out_shape = [d for i, d in enumerate(in_shape) if not (i in chosen if chosen else d == 1)]
    options = {"squeeze_dims": dims} if dims else {}
    return _moving_op(rng, dtype, "SQUEEZE", in_shape, out_shape, [], options, 1,
                      f"squeeze_{dtype}_{in_shape}_dims{dims}")


def expand_dims(rng: np.random.Generator, dtype: str) -> OpModel:
    rank = int(rng.integers(1, 5))
    in_shape = _random_shape(rng, rank, 4)
    axis = int(rng.integers(-rank - 1, rank + 1))
    position = axis + rank + 1 if axis < 0 else axis
    out_shape = in_shape[:position] + [1] + in_shape[position:]
    return _moving_op(rng, dtype, "EXPAND_DIMS", in_shape, out_shape, [("axis", [1], np.array([axis]))], {}, 1,
                      f"expand_dims_{dtype}_{in_shape}_axis{axis}")


def _stacking(rng: np.random.Generator) -> tuple[list[int], int, int]:
    """A stacked shape of 1 to 5 dimensions (the count along the axis) and an axis, half of them negative."""
    rank = int(rng.integers(1, 6))
    axis = int(rng.integers(0, rank))
    shape = _random_shape(rng, rank, 3)
    shape[axis] = int(rng.integers(1, 5))
    return shape, axis, axis - rank if rng.integers(0, 2) else axis


def pack(rng: np.random.Generator, dtype: str) -> OpModel:
    out_shape, axis, option = _stacking(rng)
    count = out_shape[axis]
    shapes = [out_shape[:axis] + out_shape[axis + 1:]] * count
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    inputs, out = _io(b, TENSOR_TYPE_ALL[dtype], shapes, out_shape, [q] * count if q else None, q)
    b.add_operator("PACK", inputs, [out], options={"values_count": count, "axis": option},
                   version={"int16": 3, "int8": 2}.get(dtype, 1))
    return _finish(b, inputs, out, f"pack_{dtype}_{out_shape}_axis{option}", _data_cases(rng, dtype, shapes))


def unpack(rng: np.random.Generator, dtype: str) -> OpModel:
    in_shape, axis, option = _stacking(rng)
    count = in_shape[axis]
    part = in_shape[:axis] + in_shape[axis + 1:]
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    kw = {"scale": q.scale, "zero_point": q.zero_point} if q else {}
    x = b.add_tensor("in0", TENSOR_TYPE_ALL[dtype], in_shape, **kw)
    outs = [b.add_tensor(f"out{i}", TENSOR_TYPE_ALL[dtype], part, **kw) for i in range(count)]
    b.add_operator("UNPACK", [x], outs, options={"num": count, "axis": option},
                   version={"int16": 4, "int8": 2}.get(dtype, 1))
    b.set_inputs([x])
    b.set_outputs(outs)
    return OpModel(f"unpack_{dtype}_{in_shape}_axis{option}", b.build(), _data_cases(rng, dtype, [in_shape]))


def _split(rng: np.random.Generator, dtype: str, op: str) -> OpModel:
    """A 1- to 5-D input cut along a random axis (negative half of the time); SPLIT_V with random sizes
    (one -1 in half of the models; no empty output, which TFLM takes for a dynamic tensor)."""
    rank = int(rng.integers(1, 6))
    in_shape = _random_shape(rng, rank, 3)
    axis = int(rng.integers(0, rank))
    option = axis - rank if rng.integers(0, 2) else axis
    if op == "SPLIT":
        count = int(rng.integers(1, 5))
        in_shape[axis] = count * int(rng.integers(1, 3))
        sizes = [in_shape[axis] // count] * count
    else:
        count = int(rng.integers(1, 4))
        sizes = [int(v) for v in rng.integers(1, 4, count)]
        in_shape[axis] = sum(sizes)
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    kw = {"scale": q.scale, "zero_point": q.zero_point} if q else {}
    x = b.add_tensor("in0", TENSOR_TYPE_ALL[dtype], in_shape, **kw)
    outs = [b.add_tensor(f"out{i}", TENSOR_TYPE_ALL[dtype], in_shape[:axis] + [n] + in_shape[axis + 1:], **kw)
            for i, n in enumerate(sizes)]
    axis_tensor = b.add_tensor("axis", "INT32", [], data=np.array(option, np.int32))
    if op == "SPLIT":
        operands = [axis_tensor, x]
        version = {"int16": 4, "int32": 3, "int8": 2}.get(dtype, 1)
    else:
        listed = list(sizes)
        if rng.integers(0, 2):
            listed[int(rng.integers(0, count))] = -1
        operands = [x, b.add_tensor("size_splits", "INT32", [count], data=np.array(listed, np.int32)), axis_tensor]
        version = {"int16": 3, "int8": 2}.get(dtype, 1)
        sizes = listed
    b.add_operator(op, operands, outs, options={"num_splits": count}, version=version)
    b.set_inputs([x])
    b.set_outputs(outs)
    return OpModel(f"{op.lower()}_{dtype}_{in_shape}_axis{option}_{sizes}", b.build(),
                   _data_cases(rng, dtype, [in_shape]))


def split(rng: np.random.Generator, dtype: str) -> OpModel:
    return _split(rng, dtype, "SPLIT")


def split_v(rng: np.random.Generator, dtype: str) -> OpModel:
    return _split(rng, dtype, "SPLIT_V")


def shape(rng: np.random.Generator, dtype: str) -> OpModel:
    in_shape = _random_shape(rng, int(rng.integers(1, 6)), 4)
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    x = b.add_tensor("in0", TENSOR_TYPE_ALL[dtype], in_shape, scale=q.scale if q else None,
                     zero_point=q.zero_point if q else None)
    out = b.add_tensor("out", "INT32", [len(in_shape)])
    b.add_operator("SHAPE", [x], [out], options={"out_type": "INT32"}, version=1)
    return _finish(b, [x], out, f"shape_{dtype}_{in_shape}", _data_cases(rng, dtype, [in_shape]))


def fill(rng: np.random.Generator, dtype: str) -> OpModel:
    """A constant dims vector (1- to 5-D) and the value as the model's input (TFLM has no int16 FILL)."""
    out_shape = _random_shape(rng, int(rng.integers(1, 6)), 4)
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    inputs, out = _io(b, TENSOR_TYPE_ALL[dtype], [[]], out_shape, [q] if q else None, q)
    dims = b.add_tensor("dims", "INT32", [len(out_shape)], data=np.array(out_shape, np.int32))
    b.add_operator("FILL", [dims, inputs[0]], [out], version={"int16": 3, "int8": 3}.get(dtype, 1))
    return _finish(b, inputs, out, f"fill_{dtype}_{out_shape}", _data_cases(rng, dtype, [[]]))


def zeros_like(rng: np.random.Generator, dtype: str) -> OpModel:
    in_shape = _random_shape(rng, int(rng.integers(1, 6)), 4)
    return _moving_op(rng, dtype, "ZEROS_LIKE", in_shape, in_shape, [], {}, 1, f"zeros_like_{dtype}_{in_shape}")


# op name -> (generator, dtypes it is tested with)
GENERATORS: dict[str, tuple[Callable[[np.random.Generator, str], OpModel], tuple[str, ...]]] = {
    "FULLY_CONNECTED": (fully_connected, ("float32", "int8", "int16")),
    "CONV_2D": (conv_2d, ("float32", "int8", "int16")),
    "DEPTHWISE_CONV_2D": (depthwise_conv_2d, ("float32", "int8", "int16")),
    "AVERAGE_POOL_2D": (average_pool_2d, ("float32", "int8")),
    "MAX_POOL_2D": (max_pool_2d, ("float32", "int8")),
    "SOFTMAX": (softmax, ("float32", "int8")),
    "RESHAPE": (reshape, ("float32", "int8")),
    "ADD": (add, ("float32", "int8")),
    "MUL": (mul, ("float32", "int8")),
    "LOGISTIC": (logistic, ("float32", "int8")),
    "TANH": (tanh, ("float32", "int8")),
    "RELU": (relu, ("float32", "int8")),
    "RELU6": (relu6, ("float32", "int8")),
    "QUANTIZE": (quantize, ("float32", "int8", "float32_to_int16", "int16_to_int8", "int8_to_int16",
                            "int16_to_int16", "int16_to_int32")),
    "DEQUANTIZE": (dequantize, ("int8", "int16")),
    "SIN": (sin, ("float32",)),
    "SUB": (sub, ("float32", "int8", "int16")),
    "MAXIMUM": (maximum, ("float32", "int8", "int16")),
    "MINIMUM": (minimum, ("float32", "int8", "int16")),
    "SQUARED_DIFFERENCE": (squared_difference, ("float32", "int8")),
    "DIV": (div, ("float32", "int8")),
    "PRELU": (prelu, ("float32", "int8")),
    "ABS": (abs_, ("float32", "int8", "int16")),
    "SQRT": (sqrt, ("float32",)),
    "RSQRT": (rsqrt, ("float32", "int8")),
    "EXP": (exp, ("float32",)),
    "LOG": (log, ("float32",)),
    "LEAKY_RELU": (leaky_relu, ("float32", "int8", "int16")),
    "HARD_SWISH": (hard_swish, ("float32", "int8")),
    "PAD": (pad, ("float32", "int8", "int16")),
    "PADV2": (padv2, ("float32", "int8", "int16")),
    "CONCATENATION": (concatenation, ("float32", "int8", "int16", "int32")),
    "MEAN": (mean, ("float32", "int8", "int16")),
    "STRIDED_SLICE": (strided_slice, ("float32", "int8", "int16", "int32")),
    "TRANSPOSE": (transpose, ("float32", "int8", "int16")),
    "SQUEEZE": (squeeze, ("float32", "int8", "int16")),
    "EXPAND_DIMS": (expand_dims, ("float32", "int8", "int16")),
    "PACK": (pack, ("float32", "int8", "int16", "int32")),
    "UNPACK": (unpack, ("float32", "int8", "int16", "int32")),
    "SPLIT": (split, ("float32", "int8", "int16", "int32")),
    "SPLIT_V": (split_v, ("float32", "int8", "int16", "int32")),
    "SHAPE": (shape, ("float32", "int8", "int32")),
    "FILL": (fill, ("float32", "int8", "int32")),
    "ZEROS_LIKE": (zeros_like, ("float32", "int32")),
}
