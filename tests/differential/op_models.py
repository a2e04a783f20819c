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
    # False where TFLM is no oracle: types its kernel lacks (checked against LiteRT alone), or outputs it leaves
    # undefined (SPACE_TO_BATCH_ND's padding).
    tflm: bool = True


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


def _integer_cases(rng: np.random.Generator, dtype: str, shapes: list[list[int]]) -> list[list[np.ndarray]]:
    """Cases over the whole range of an integer type."""
    info = np.iinfo(dtype)
    return [[rng.integers(info.min, int(info.max) + 1, s).astype(dtype) for s in shapes]
            for _ in range(CASES_PER_MODEL)]


def _int8_cases(rng: np.random.Generator, shapes: list[list[int]]) -> list[list[np.ndarray]]:
    return _integer_cases(rng, "int8", shapes)


def _int16_cases(rng: np.random.Generator, shapes: list[list[int]]) -> list[list[np.ndarray]]:
    return _integer_cases(rng, "int16", shapes)


def _cases(rng: np.random.Generator, dtype: str, shapes: list[list[int]], scale: float = 1.0) -> list[list[np.ndarray]]:
    """Random inputs of every shape: floats in [-scale, scale), integers over the whole type range."""
    if dtype == "float32":
        return _float_cases(rng, shapes, scale)
    return _integer_cases(rng, dtype, shapes)


def _random_q16(rng: np.random.Generator, low: float, high: float) -> Q:
    """int16 activations are symmetric: zero point 0."""
    return Q(float(rng.uniform(low, high)), 0)


def _filter_op_q(rng: np.random.Generator, int16: bool) -> tuple[Q, Q]:
    """Input and output quantization of a filter op: int8, or int16 (16x8) with zero points 0."""
    if int16:
        return _random_q16(rng, 1e-4, 4e-4), _random_q16(rng, 5e-4, 2e-3)
    return _random_q(rng, 0.005, 0.02), _random_q(rng, 0.02, 0.1)


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
# Biases of the 16x8 filter ops: int64, int32 (TFLM then accumulates in int32), none, or none with the options'
# quantized_bias_type INT32 (TFLM then accumulates in int32 too).
INT16_BIAS_KINDS = ["INT64", "INT32", "NONE", "NONE_INT32"]


def _bias_tensor(b: Any, name: str, kind: str, values: np.ndarray, scale: float | list[float], shape: list[int],
                 quantized_dimension: int = 0) -> int:
    """A quantized bias of `kind` (INT32, INT64), or -1 (no bias) for NONE and NONE_INT32."""
    if kind.startswith("NONE"):
        return -1
    zero_point = [0] * len(scale) if isinstance(scale, list) else 0
    return b.add_tensor(name, kind, shape, data=values.astype(tb.NUMPY_TYPES[kind]), scale=scale,
                        zero_point=zero_point, quantized_dimension=quantized_dimension)


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
        in_q, out_q = _filter_op_q(rng, int16)
        w_scale = float(np.abs(weights).max() / 127)
        inputs, out = _io(b, dtype.upper(), [[batch, n_in]], [batch, n_out], [in_q], out_q)
        w = b.add_tensor("w", "INT8", [n_out, n_in], data=np.round(weights / w_scale).astype(np.int8),
                         scale=w_scale, zero_point=0)
        bias_scale = in_q.scale * w_scale
        bias_type = str(rng.choice(INT16_BIAS_KINDS)) if int16 else "INT32"
        bi = _bias_tensor(b, "b", bias_type, np.round(bias / bias_scale), bias_scale, [n_out])
        version, cases = (7, _int16_cases(rng, [[batch, n_in]])) if int16 else (4, _int8_cases(rng, [[batch, n_in]]))
    options: dict[str, Any] = {"fused_activation_function": act}
    if bias_type == "NONE_INT32":
        options["quantized_bias_type"] = "INT32"
    b.add_operator("FULLY_CONNECTED", [inputs[0], w, bi], [out], options=options, version=version)
    name = f"fully_connected_{dtype}_{batch}x{n_in}->{n_out}_{act}"
    if dtype == "int16":
        name += f"_bias_{bias_type.lower()}"
    op_model = _finish(b, inputs, out, name, cases)
    op_model.litert = bias_type != "NONE_INT32"  # LiteRT has no quantized_bias_type rule
    return op_model


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
        in_q, out_q = _filter_op_q(rng, int16)
        inputs, out = _io(b, dtype.upper(), [[1, h, w, c_in]], out_shape, [in_q], out_q)
        reduce_axes = tuple(a for a in range(4) if a != channel_axis)
        w_scales = np.maximum(np.abs(weights).max(axis=reduce_axes), 1e-3) / 127
        shape = [1, 1, 1, 1]
        shape[channel_axis] = c_out
        q_weights = np.round(weights / w_scales.reshape(shape)).astype(np.int8)
        f = b.add_tensor("filter", "INT8", filter_shape, data=q_weights, scale=list(w_scales),
                         zero_point=[0] * c_out, quantized_dimension=channel_axis)
        bias_scales = in_q.scale * w_scales
        # TFLM's 16x8 DEPTHWISE_CONV_2D reads a missing bias through a null pointer (it crashes): always one.
        bias_type = str(rng.choice(["INT64"] if depthwise else INT16_BIAS_KINDS)) if int16 else "INT32"
        bi = _bias_tensor(b, "bias", bias_type, np.round(bias / bias_scales), list(bias_scales), [c_out],
                          bias_quantized_dimension)
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
    if bias_type == "NONE_INT32":
        options["quantized_bias_type"] = "INT32"
    b.add_operator(op, [inputs[0], f, bi], [out], options=options, version=version)
    name = f"{op.lower()}_{dtype}_{h}x{w}x{c_in}_k{kh}x{kw}_s{stride}_d{dilation}_m{multiplier}_{padding}_{act}"
    if dtype == "int16":
        name += f"_bias_{bias_type.lower()}"
    op_model = _finish(b, inputs, out, name, cases)
    # LiteRT refuses an int32 bias on int16 activations and a convolution without a bias.
    op_model.litert = not (dtype == "int16" and bias_type != "INT64")
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
    elif dtype == "int16":  # zero point 0; TFLite numbers int16 pooling version 3
        q = _random_q16(rng, 1e-4, 4e-4)
        inputs, out = _io(b, "INT16", [in_shape], out_shape, [q], q)
        version, cases = 3, _int16_cases(rng, [in_shape])
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
    elif dtype == "int16":  # version 3: zero points 0, output scale 1/32768 (TFLM's table softmax)
        inputs, out = _io(b, "INT16", [shape], shape, [_random_q16(rng, 5e-5, 4e-4)], Q(1 / 32768, 0))
        version, cases = 3, _int16_cases(rng, [shape])
    elif dtype == "int8_to_int16":  # TFLM's keyword model: int16 output, scale 1/65536, zero point -32768
        inputs = [b.add_tensor("in0", "INT8", shape, scale=float(rng.uniform(0.02, 0.1)),
                               zero_point=int(rng.integers(-20, 20)))]
        out = b.add_tensor("out", "INT16", shape, scale=1 / 65536, zero_point=-32768)
        version, cases = 2, _int8_cases(rng, [shape])
    else:
        inputs, out = _io(b, "INT8", [shape], shape, [_random_q(rng, 0.02, 0.1)], Q(1 / 256, -128))
        version, cases = 2, _int8_cases(rng, [shape])
    b.add_operator("SOFTMAX", inputs, [out], options={"beta": beta}, version=version)
    return _finish(b, inputs, out, f"softmax_{dtype}_{shape[0]}x{shape[1]}_beta{beta}", cases)


RESHAPE_TYPES = ("float32", "int8", "int16", "int32", "int64", "bool", "uint8")


def _any_type_values(rng: np.random.Generator, dtype: str, shape: list[int]) -> np.ndarray:
    """Values over the whole range of an integer type (int64 too), or random bools."""
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dtype)
    return rng.integers(int(info.min), int(info.max), shape, dtype=np.int64 if dtype != "uint8" else np.uint8,
                        endpoint=True).astype(dtype)


def reshape(rng: np.random.Generator, dtype: str) -> OpModel:
    """Any type TFLite's RESHAPE copies (RESHAPE_TYPES); int8/int16 keep one quantization (int16: zero point 0)."""
    in_shape = [1, 2, 3, int(rng.integers(1, 4))]
    total = int(np.prod(in_shape))
    out_shape = [1, total // 2, 2] if total % 2 == 0 else [total, 1]
    b = tb.ModelBuilder()
    q = _random_q(rng) if dtype == "int8" else (_random_q16(rng, 1e-4, 4e-4) if dtype == "int16" else None)
    inputs, out = _io(b, dtype.upper(), [in_shape], out_shape, [q] if q else None, q)
    new_shape = b.add_tensor("shape", "INT32", [len(out_shape)], data=np.array(out_shape, np.int32))
    b.add_operator("RESHAPE", [inputs[0], new_shape], [out], options={"new_shape": out_shape})
    if dtype == "float32":
        cases = _float_cases(rng, [in_shape])
    elif dtype == "int8":
        cases = _int8_cases(rng, [in_shape])
    else:
        cases = [[_any_type_values(rng, dtype, in_shape)] for _ in range(CASES_PER_MODEL)]
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
    if dtype != "int16":
        return _binary(rng, dtype, "ADD")
    # int16 ADD is version 3 with pot_scale_int16 false: the general rescaling TFLM uses for every int16 ADD
    # (LiteRT's power-of-two path needs power-of-two scales).
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    return _quantized_binary(rng, dtype, "ADD", {"int16": 3}, ((1e-4, 1e-3), (1e-4, 1e-3), (2e-4, 2e-3)),
                             {"fused_activation_function": act, "pot_scale_int16": False})


def mul(rng: np.random.Generator, dtype: str) -> OpModel:
    if dtype != "int16":
        return _binary(rng, dtype, "MUL")
    # int16 MUL is version 4; inputs of a few units, so products stay mostly inside the output's range.
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    return _quantized_binary(rng, dtype, "MUL", {"int16": 4}, ((1e-4, 5e-4), (1e-4, 5e-4), (3e-4, 3e-3)),
                             {"fused_activation_function": act})


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
    """int16 (TFLM's; TFLite numbers it version 1) has no LiteRT kernel: TFLM is the only oracle there."""
    q_ranges = ((1e-4, 4e-4), (1e-4, 4e-4), (5e-3, 3e-2)) if dtype == "int16" else \
        ((0.01, 0.05), (0.01, 0.05), (0.05, 0.3))
    op_model = _quantized_binary(rng, dtype, "SQUARED_DIFFERENCE", {"float32": 1, "int8": 2, "int16": 1}, q_ranges)
    op_model.litert = dtype != "int16"
    return op_model


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
    """alpha is a constant tensor broadcast over the input (per channel, or per row and channel); int16
    inputs and outputs (TFLM's form, TFLite's version 1) take an int8 alpha."""
    shape = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 5))]
    alpha_shape = [shape[3]] if rng.integers(0, 2) else [1, shape[2], shape[3]]
    alpha = rng.uniform(-0.5, 1.0, alpha_shape).astype(np.float32)
    b = tb.ModelBuilder()
    if dtype == "float32":
        x = b.add_tensor("in0", "FLOAT32", shape)
        a = b.add_tensor("alpha", "FLOAT32", alpha_shape, data=alpha)
        y = b.add_tensor("out", "FLOAT32", shape)
    else:
        if dtype == "int16":
            in_q, out_q = _random_q16(rng, 1e-4, 4e-4), _random_q16(rng, 1e-4, 4e-4)
        else:
            in_q, out_q = _random_q(rng, 0.01, 0.05), _random_q(rng, 0.01, 0.05)
        alpha_q = Q(float(np.abs(alpha).max() / 127 + 1e-3), int(rng.integers(-10, 10)))
        x = b.add_tensor("in0", TENSOR_TYPE[dtype], shape, scale=in_q.scale, zero_point=in_q.zero_point)
        a = b.add_tensor("alpha", "INT8", alpha_shape, data=alpha_q.quantize(alpha), scale=alpha_q.scale,
                         zero_point=alpha_q.zero_point)
        y = b.add_tensor("out", TENSOR_TYPE[dtype], shape, scale=out_q.scale, zero_point=out_q.zero_point)
    b.add_operator("PRELU", [x, a], [y], version=1)
    return _finish(b, [x], y, f"prelu_{dtype}_{shape}_alpha{alpha_shape}", _cases(rng, dtype, [shape], 3.0))


def _unary(rng: np.random.Generator, dtype: str, op: str, out_q: Q | None, scale: float = 4.0,
           version_int8: int = 2, same_q: bool = False, version_int16: int = 3,
           options: dict[str, Any] | None = None, float_range: tuple[float, float] | None = None,
           out_scales: tuple[float, float] = (0.02, 0.08), nonnegative: bool = False,
           in_q: Q | None = None) -> OpModel:
    """One input, one output of the same shape. float inputs in [-scale, scale) (or float_range); int8/int16
    inputs over the whole type range (nonnegative: from the zero point up), random input (unless in_q) and
    output quantization (int16: zero point 0)."""
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
        if in_q is None:
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


def _sigmoid_int16_input_q(rng: np.random.Generator, op: str) -> Q:
    """int16 LOGISTIC/TANH input scales for each of TFLM's paths: the powers of two it rescales exactly (2^-12;
    TANH also 2^-11), ones within its 1e-3 log2 tolerance of them, and other scales (15-bit multiplier and
    rounding shift), small (inputs within +-4) to large (+-64, saturated)."""
    kind = int(rng.integers(0, 4))
    if kind < 2:
        power = 2.0**-11 if op == "TANH" and rng.integers(0, 2) else 2.0**-12
        return Q(power * (1.0 if kind == 0 else float(rng.choice([0.9996, 1.0004]))), 0)
    return _random_q16(rng, 1e-4, 2e-3)


def _sigmoid_int16(rng: np.random.Generator, op: str) -> OpModel:
    """int16 LOGISTIC/TANH: output scale 2^-15, zero points 0. Against TFLM only: LiteRT's int16 kernels are not
    TFLM's table interpolation (up to 10 steps of 2^-15 apart, docs/ops.md)."""
    op_model = _unary(rng, "int16", op, Q(1 / 32768, 0), in_q=_sigmoid_int16_input_q(rng, op))
    op_model.litert = False
    return op_model


def logistic(rng: np.random.Generator, dtype: str) -> OpModel:
    if dtype == "int16":
        return _sigmoid_int16(rng, "LOGISTIC")
    return _unary(rng, dtype, "LOGISTIC", Q(1 / 256, -128), 8.0)


def tanh(rng: np.random.Generator, dtype: str) -> OpModel:
    if dtype == "int16":
        return _sigmoid_int16(rng, "TANH")
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
          "int32": lambda: _random_q16(rng, 1e-7, 1e-6),
          "uint8": lambda: Q(float(rng.uniform(0.01, 0.05)), int(rng.integers(100, 156)))}
    out_q = qs[out_type]()
    b = tb.ModelBuilder()
    if in_type == "float32":
        x = b.add_tensor("in0", "FLOAT32", shape)
        cases = _float_cases(rng, [shape], 3.0)
        version = 1 if out_type == "int8" else 2
    else:
        in_q = qs[in_type]()
        x = b.add_tensor("in0", in_type.upper(), shape, scale=in_q.scale, zero_point=in_q.zero_point)
        cases = _integer_cases(rng, in_type, [shape])
        version = 2
    y = b.add_tensor("out", out_type.upper(), shape, scale=out_q.scale, zero_point=out_q.zero_point)
    b.add_operator("QUANTIZE", [x], [y], version=version)
    op_model = _finish(b, [x], y, f"quantize_{in_type}_to_{out_type}_{shape}", cases)
    op_model.litert = (in_type, out_type) not in LITERT_LACKS_QUANTIZE
    return op_model


# QUANTIZE pairs TFLM has and LiteRT refuses at prepare.
LITERT_LACKS_QUANTIZE = {("int8", "int32")}


def dequantize(rng: np.random.Generator, dtype: str) -> OpModel:
    shape = [1, int(rng.integers(1, 17))]
    q = {"int8": lambda: _random_q(rng, 0.01, 0.05), "int16": lambda: _random_q16(rng, 1e-4, 1e-3),
         "uint8": lambda: Q(float(rng.uniform(0.01, 0.05)), int(rng.integers(100, 156)))}[dtype]()
    b = tb.ModelBuilder()
    x = b.add_tensor("in0", dtype.upper(), shape, scale=q.scale, zero_point=q.zero_point)
    y = b.add_tensor("out", "FLOAT32", shape)
    b.add_operator("DEQUANTIZE", [x], [y], version={"uint8": 1, "int8": 2, "int16": 3}[dtype])
    return _finish(b, [x], y, f"dequantize_{dtype}_{shape}", _integer_cases(rng, dtype, [shape]))


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


def _resize(rng: np.random.Generator, dtype: str, op: str) -> OpModel:
    """A 1- or 2-batch NHWC image resized up or down on each axis (1 to 8 rows and columns), with every
    combination of align_corners and half_pixel_centers the op takes (RESIZE_BILINEAR: not both). Output
    quantization equals the input's (TFLite resizes stored values)."""
    in_shape = [int(rng.integers(1, 3)), int(rng.integers(1, 7)), int(rng.integers(1, 7)), int(rng.integers(1, 4))]
    size = [int(rng.integers(1, 9)), int(rng.integers(1, 9))]
    modes = [(False, False), (True, False), (False, True)] + ([(True, True)] if op == "RESIZE_NEAREST_NEIGHBOR" else [])
    align, half_pixel = modes[int(rng.integers(0, len(modes)))]
    b = tb.ModelBuilder()
    q = _moved_q(rng, dtype)
    out_shape = [in_shape[0], size[0], size[1], in_shape[3]]
    inputs, out = _io(b, TENSOR_TYPE[dtype], [in_shape], out_shape, [q] if q else None, q)
    size_tensor = b.add_tensor("size", "INT32", [2], data=np.array(size, np.int32))
    # TFLite's versions: 4 int16 (nearest only), 3 the options (bilinear: half_pixel_centers only), 2 int8.
    options_version = half_pixel or (align and op == "RESIZE_NEAREST_NEIGHBOR")
    version = 4 if dtype == "int16" else (3 if options_version else (2 if dtype == "int8" else 1))
    b.add_operator(op, [inputs[0], size_tensor], [out], version=version,
                   options={"align_corners": align, "half_pixel_centers": half_pixel})
    name = f"{op.lower()}_{dtype}_{in_shape}->{size}_align{int(align)}_half{int(half_pixel)}"
    return _finish(b, inputs, out, name, _cases(rng, dtype, [in_shape], 4.0))


def resize_bilinear(rng: np.random.Generator, dtype: str) -> OpModel:
    return _resize(rng, dtype, "RESIZE_BILINEAR")


def resize_nearest_neighbor(rng: np.random.Generator, dtype: str) -> OpModel:
    return _resize(rng, dtype, "RESIZE_NEAREST_NEIGHBOR")


def l2_normalization(rng: np.random.Generator, dtype: str) -> OpModel:
    """1- to 4-D inputs normalized along the last dimension (1 to 64 long); int8 output at TFLite's fixed
    1/128, zero point 0; some rows at the input zero point (a zero sum)."""
    shape = _random_shape(rng, int(rng.integers(0, 4)), 3) + [int(rng.integers(1, 65))]
    b = tb.ModelBuilder()
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [shape], shape)
        cases = _float_cases(rng, [shape], 4.0)
    else:
        in_q = _random_q(rng, 0.01, 0.1)
        inputs, out = _io(b, "INT8", [shape], shape, [in_q], Q(1 / 128, 0))
        cases = _int8_cases(rng, [shape])
        for case in cases:
            rows = case[0].reshape(-1, shape[-1])
            rows[rng.random(rows.shape[0]) < 0.2] = in_q.zero_point
    b.add_operator("L2_NORMALIZATION", inputs, [out], version=2 if dtype == "int8" else 1)
    return _finish(b, inputs, out, f"l2_normalization_{dtype}_{shape}", cases)

# op name -> (generator, dtypes it is tested with)
# ------------------------------------------------------------ recurrent ----
def lstm_model(rng: np.random.Generator, dtype: str, batch: int, steps: int, n_in: int, units: int,
               time_major: bool = False, cell_clip: float = 0.0, cell_power: int = -11) -> OpModel:
    """A UNIDIRECTIONAL_SEQUENCE_LSTM with random weights and biases in [-1, 1]: float32, int8 (8x8, int32 bias,
    int16 cell state at 2^cell_power) or int16 (16x8, int64 bias). The hidden and cell states are variable
    tensors (TFLM requires it). Integer models have no intermediate tensors: TFLM's kernel does not read them
    (LiteRT's integer LSTM does, so LiteRT is no oracle for them)."""
    b = tb.ModelBuilder()
    in_shape = [steps, batch, n_in] if time_major else [batch, steps, n_in]
    out_shape = in_shape[:2] + [units]
    if dtype == "float32":
        x = b.add_tensor("in0", "FLOAT32", in_shape)
        out = b.add_tensor("out", "FLOAT32", out_shape)
        hidden = b.add_tensor("hidden_state", "FLOAT32", [batch, units], is_variable=True)
        cell = b.add_tensor("cell_state", "FLOAT32", [batch, units], is_variable=True)

        def weights(name: str, shape: list[int]) -> int:
            return b.add_tensor(name, "FLOAT32", shape, data=rng.uniform(-1, 1, shape).astype(np.float32))

        def bias(name: str, _: float) -> int:
            return b.add_tensor(name, "FLOAT32", [units], data=rng.uniform(-1, 1, units).astype(np.float32))
        cases = _float_cases(rng, [in_shape], 2.0)
    else:
        int16 = dtype == "int16"
        if int16:
            in_q, h_q = _random_q16(rng, 2 / 32768, 4 / 32768), Q(1 / 32768, 0)
        else:
            in_q, h_q = _random_q(rng, 0.005, 0.05), Q(float(rng.uniform(0.9, 1.1)) / 128, int(rng.integers(-10, 10)))
        x = b.add_tensor("in0", dtype.upper(), in_shape, scale=in_q.scale, zero_point=in_q.zero_point)
        out = b.add_tensor("out", dtype.upper(), out_shape, scale=h_q.scale, zero_point=h_q.zero_point)
        hidden = b.add_tensor("hidden_state", dtype.upper(), [batch, units], scale=h_q.scale,
                              zero_point=h_q.zero_point, is_variable=True)
        cell = b.add_tensor("cell_state", "INT16", [batch, units], scale=2.0 ** cell_power, zero_point=0,
                            is_variable=True)
        bias_type = "INT64" if int16 else "INT32"
        scales: dict[str, float] = {}

        def weights(name: str, shape: list[int]) -> int:
            w = rng.uniform(-1, 1, shape).astype(np.float32)
            scale = float(np.abs(w).max() / 127)
            scales[name] = scale
            return b.add_tensor(name, "INT8", shape, data=np.round(w / scale).astype(np.int8), scale=scale,
                                zero_point=0)

        def bias(name: str, weight_scale: float) -> int:
            scale = in_q.scale * weight_scale
            values = np.round(rng.uniform(-1, 1, units) / scale).astype(tb.NUMPY_TYPES[bias_type])
            return b.add_tensor(name, bias_type, [units], data=values, scale=scale, zero_point=0)
        cases = _cases(rng, dtype, [in_shape])
    gates = ["input", "forget", "cell", "output"]
    input_weights = [weights(f"{g}_w", [units, n_in]) for g in gates]
    recurrent_weights = [weights(f"{g}_r", [units, units]) for g in gates]
    biases = [bias(f"{g}_b", scales.get(f"{g}_w", 0.0) if dtype != "float32" else 0.0) for g in gates]
    inputs = [x, *input_weights, *recurrent_weights, -1, -1, -1, *biases, -1, -1, hidden, cell, -1, -1, -1, -1]
    b.add_operator("UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, [out], version=5 if dtype == "int16" else 1,
                   options={"fused_activation_function": "TANH", "cell_clip": cell_clip, "time_major": time_major})
    name = f"lstm_{dtype}_{'x'.join(map(str, in_shape))}->{units}{'_time_major' if time_major else ''}"
    if cell_clip:
        name += f"_clip{cell_clip:.2f}"
    model = _finish(b, [x], out, name, cases)
    model.litert = dtype == "float32"
    return model


def unidirectional_sequence_lstm(rng: np.random.Generator, dtype: str) -> OpModel:
    batch, steps = int(rng.integers(1, 3)), int(rng.integers(1, 6))
    n_in, units = int(rng.integers(1, 7)), int(rng.integers(1, 7))
    cell_clip = float(rng.uniform(0.3, 3)) if rng.random() < 0.5 else 0.0
    return lstm_model(rng, dtype, batch, steps, n_in, units, bool(rng.random() < 0.3), cell_clip,
                      int(rng.integers(-15, -8)))


# --------------------------------------------------- index and type ops ----
# Types TFLM's kernels lack are checked against LiteRT alone (OpModel.tflm False).
TFLM_GATHER_TYPES = {"float32", "int8"}


def _index_q(rng: np.random.Generator, dtype: str) -> dict[str, Any]:
    q = _moved_q(rng, dtype)
    return {"scale": q.scale, "zero_point": q.zero_point} if q else {}


def gather(rng: np.random.Generator, dtype: str) -> OpModel:
    """A 1- to 4-D input, a random axis (negative half of the time), batch_dims (0, or up to the axis half of
    the time the axis allows; negative half of those), positions of 0 to 2 more dimensions with every value
    inside the axis, constant or the model's second input. TFLM takes float32/int8 with int32 positions; the other types
    (and int16/int64 positions) run against LiteRT."""
    rank = int(rng.integers(1, 5))
    in_shape = _random_shape(rng, rank, 4)
    axis = int(rng.integers(0, rank))
    batch_dims = int(rng.integers(1, axis + 1)) if axis > 0 and rng.integers(0, 2) else 0
    extra = int(rng.integers(0 if batch_dims == 0 else 1, 3))
    pos_shape = in_shape[:batch_dims] + _random_shape(rng, extra, 3)
    out_shape = in_shape[:axis] + pos_shape[batch_dims:] + in_shape[axis + 1:]
    tflm = dtype in TFLM_GATHER_TYPES
    pos_type = "INT32" if tflm else str(rng.choice(["INT16", "INT32", "INT64"]))
    axis_option = axis - rank if rng.integers(0, 2) else axis
    batch_option = batch_dims - len(pos_shape) if batch_dims and rng.integers(0, 2) else batch_dims
    if pos_type == "INT16":
        version = 6
    elif batch_dims:
        version = 5
    else:
        version = {"int16": 4, "int8": 2}.get(dtype, 1)
    b = tb.ModelBuilder()
    kw = _index_q(rng, dtype)
    x = b.add_tensor("in0", TENSOR_TYPE_ALL[dtype], in_shape, **kw)
    y = b.add_tensor("out", TENSOR_TYPE_ALL[dtype], out_shape, **kw)

    def positions() -> np.ndarray:
        return rng.integers(0, in_shape[axis], pos_shape).astype(tb.NUMPY_TYPES[pos_type])

    constant = bool(rng.integers(0, 2))
    p = b.add_tensor("positions", pos_type, pos_shape, data=positions() if constant else None)
    b.add_operator("GATHER", [x, p], [y], options={"axis": axis_option, "batch_dims": batch_option},
                   version=version)
    inputs = [x] if constant else [x, p]
    cases = [case + ([] if constant else [positions()]) for case in _data_cases(rng, dtype, [in_shape])]
    op_model = _finish(b, inputs, y, f"gather_{dtype}_{in_shape}_{pos_type.lower()}{pos_shape}_axis{axis_option}"
                       f"_batch{batch_option}{'_const' if constant else ''}", cases)
    op_model.tflm = tflm
    return op_model


def _arg_min_max(rng: np.random.Generator, dtype: str, op: str) -> OpModel:
    """A 1- to 4-D input and a constant axis (negative half of the time). Two of the three cases draw from a
    few values only, so ties (the first index wins) are common. TFLM: float32/int8 in, int32 out and an int32
    axis; int32 and bool inputs, int64 outputs (dtype "..._to_int64") and int64 axes run against LiteRT."""
    in_type, out_type = dtype.split("_to_") if "_to_" in dtype else (dtype, "int32")
    tflm = in_type in ("float32", "int8") and out_type == "int32"
    rank = int(rng.integers(1, 5))
    in_shape = _random_shape(rng, rank, 5)
    axis = int(rng.integers(0, rank))
    axis_value = axis - rank if rng.integers(0, 2) else axis
    axis_type = "INT32" if tflm else str(rng.choice(["INT32", "INT64"]))
    out_shape = in_shape[:axis] + in_shape[axis + 1:]
    b = tb.ModelBuilder()
    kw = _index_q(rng, in_type) if in_type == "int8" else {}
    x = b.add_tensor("in0", TENSOR_TYPE_ALL.get(in_type, in_type.upper()), in_shape, **kw)
    a = b.add_tensor("axis", axis_type, [1] if rng.integers(0, 2) else [], data=np.array([axis_value]))
    y = b.add_tensor("out", out_type.upper(), out_shape)
    b.add_operator(op, [x, a], [y], options={"output_type": out_type.upper()},
                   version={"bool": 3, "int8": 2}.get(in_type, 1))
    if in_type == "bool":
        cases = [[rng.integers(0, 2, in_shape).astype(bool)] for _ in range(CASES_PER_MODEL)]
    else:
        cases = _data_cases(rng, in_type, [in_shape])[:1]
        few = rng.integers(-2, 3, (CASES_PER_MODEL - 1, *in_shape))
        cases += [[(v * 0.5).astype(np.float32) if in_type == "float32" else v.astype(in_type)] for v in few]
    op_model = _finish(b, [x], y, f"{op.lower()}_{dtype}_{in_shape}_axis{axis_value}_{axis_type.lower()}", cases)
    op_model.tflm = tflm
    return op_model


def arg_max(rng: np.random.Generator, dtype: str) -> OpModel:
    return _arg_min_max(rng, dtype, "ARG_MAX")


def arg_min(rng: np.random.Generator, dtype: str) -> OpModel:
    return _arg_min_max(rng, dtype, "ARG_MIN")


CAST_TFLM_TYPES = ("float32", "int8", "int16", "int32", "bool")
CAST_LITERT_TYPES = ("uint8", "int64")


def _cast_values(rng: np.random.Generator, in_type: str, out_type: str, shape: list[int],
                 specials: bool) -> np.ndarray:
    """Inputs that reach past the output type's range (saturation from float, wraparound between integers);
    floats with fractions both sides of zero, and with `specials` NaN and infinities."""
    if in_type == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if in_type == "float32":
        reach = float(np.iinfo(out_type).max) * 1.5 if out_type not in ("float32", "bool") else 1000.0
        values = (rng.uniform(-1, 1, shape) * reach * rng.choice([0.001, 0.5, 1.0], shape)).astype(np.float32)
        flat = values.reshape(-1)
        flat[rng.random(flat.size) < 0.2] = 0.0
        if specials:
            flat[rng.integers(0, flat.size, 3)] = [np.nan, np.inf, -np.inf]
        return values
    info = np.iinfo(in_type)
    return rng.integers(int(info.min), int(info.max) + 1, shape, dtype=np.int64).astype(in_type)


def cast(rng: np.random.Generator, dtype: str) -> OpModel:
    """dtype names the input type; each model picks an output type. For the types of TFLM's CAST both oracles
    (but LiteRT's NaN is the type's maximum where TFLM's is 0: models with NaN inputs skip LiteRT); the
    dtypes "uint8" and "int64" (the input or the output is that type) run against LiteRT."""
    if dtype in CAST_LITERT_TYPES:
        other = str(rng.choice(CAST_TFLM_TYPES + CAST_LITERT_TYPES))
        in_type, out_type = (dtype, other) if rng.integers(0, 2) else (other, dtype)
    else:
        in_type, out_type = dtype, str(rng.choice([t for t in CAST_TFLM_TYPES if t != dtype]))
    shape = _random_shape(rng, int(rng.integers(1, 4)), 5)
    specials = dtype == "float32" and out_type not in ("float32", "bool") and bool(rng.integers(0, 2))
    b = tb.ModelBuilder()
    x = b.add_tensor("in0", in_type.upper(), shape)
    y = b.add_tensor("out", out_type.upper(), shape)
    b.add_operator("CAST", [x], [y], options={"in_data_type": in_type.upper(), "out_data_type": out_type.upper()},
                   version=3 if "int8" in (in_type, out_type) else 1)
    cases = [[_cast_values(rng, in_type, out_type, shape, specials)] for _ in range(CASES_PER_MODEL)]
    op_model = _finish(b, [x], y, f"cast_{in_type}_to_{out_type}_{shape}{'_nan_inf' if specials else ''}", cases)
    op_model.tflm = dtype not in CAST_LITERT_TYPES
    op_model.litert = not specials
    return op_model


def _space_batch(rng: np.random.Generator, dtype: str, to_batch: bool) -> OpModel:
    """3-D (NHC) or 4-D (NHWC) data, blocks of 1 to 3 and paddings / crops of 0 to 3 per spatial dimension.
    TFLM takes float32 and int8, but fills SPACE_TO_BATCH_ND's padding with a byte of op data it never sets:
    padded models run against LiteRT alone."""
    rank = int(rng.integers(3, 5))
    spatial = rank - 2
    blocks = [int(v) for v in rng.integers(1, 4, spatial)]
    batch, depth = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    space, pads, batched = [], [], []  # per spatial dimension
    for block in blocks:
        if to_batch:
            padded = block * int(rng.integers(1, 4))
            total = int(rng.integers(0, min(padded - 1, 3) + 1)) if rng.integers(0, 2) else 0
            before = int(rng.integers(0, total + 1))
            space.append(padded - total)
            batched.append(padded // block)
        else:
            size = int(rng.integers(1, 4))
            total = int(rng.integers(0, min(size * block - 1, 3) + 1))
            before = int(rng.integers(0, total + 1))
            batched.append(size)
            space.append(size * block - total)
        pads.append([before, total - before])
    blocks_count = int(np.prod(blocks))
    space_shape = [batch, *space, depth]
    batch_shape = [batch * blocks_count, *batched, depth]
    in_shape, out_shape = (space_shape, batch_shape) if to_batch else (batch_shape, space_shape)
    op = "SPACE_TO_BATCH_ND" if to_batch else "BATCH_TO_SPACE_ND"
    version = 4 if dtype == "int16" else (3 if rank != 4 else {"int8": 2}.get(dtype, 1))
    constants = [("block_shape", [spatial], np.array(blocks)), ("paddings" if to_batch else "crops", [spatial, 2],
                                                                np.array(pads))]
    op_model = _moving_op(rng, dtype, op, in_shape, out_shape, constants, {}, version,
                          f"{op.lower()}_{dtype}_{in_shape}_block{blocks}_pads{pads}")
    op_model.tflm = dtype in ("float32", "int8") and not (to_batch and np.any(np.array(pads)))
    return op_model


def space_to_batch_nd(rng: np.random.Generator, dtype: str) -> OpModel:
    return _space_batch(rng, dtype, True)


def batch_to_space_nd(rng: np.random.Generator, dtype: str) -> OpModel:
    return _space_batch(rng, dtype, False)


# ------------------------------------------------------ signal ops ----
def _svdf_float_outputs(xs: list[np.ndarray], wf: np.ndarray, wt: np.ndarray, bias: np.ndarray | None, rank: int,
                        memory: int) -> tuple[np.ndarray, np.ndarray]:
    """Float SVDF over a sequence xs (each [batch, n_in]) from a zero state: the features and the outputs."""
    batch, filters = xs[0].shape[0], wf.shape[0]
    state = np.zeros((batch, filters, memory))
    features, outputs = [], []
    for x in xs:
        feature = x.astype(np.float64) @ wf.T
        state = np.concatenate([state[:, :, 1:], feature[:, :, None]], axis=2)
        out = (state * wt[None]).sum(axis=2).reshape(batch, -1, rank).sum(axis=2)
        features.append(feature)
        outputs.append(out + (0 if bias is None else bias))
    return np.array(features), np.array(outputs)


def svdf(rng: np.random.Generator, dtype: str) -> OpModel:
    """1 to 3 SVDF ops in a chain of steps sharing one variable state tensor, so one Invoke runs a sequence: each
    op shifts the state the previous one left (the runners reset it before every case). dtype 'int8': TFLM's
    integer SVDF with int16 weights_time and state (what the converter writes); 'int8_state_int8': int8 weights_time
    and state with a zero point (TFLM only: LiteRT's integer SVDF takes int16)."""
    batch, n_in, rank = int(rng.integers(1, 3)), int(rng.integers(1, 9)), int(rng.integers(1, 3))
    units, memory, steps = int(rng.integers(1, 5)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
    filters = units * rank
    # TFLM's SVDF crashes without a bias (its prepare reads and releases the bias tensor unconditionally): models
    # without one are checked against LiteRT alone, whose integer SVDF takes no int8 state (those have a bias).
    with_bias = bool(rng.random() < 0.8) or dtype == "int8_state_int8"
    # The integer SVDF ignores the activation (TFLM; LiteRT's asks it to be RELU, whose range is the output's).
    act = str(rng.choice(["NONE", "RELU", "RELU6", "RELU_N1_TO_1"])) if dtype == "float32" else "RELU"
    wf = rng.uniform(-1, 1, (filters, n_in)).astype(np.float32)
    wt = rng.uniform(-1, 1, (filters, memory)).astype(np.float32)
    bias = rng.uniform(-1, 1, units).astype(np.float32) if with_bias else None
    b = tb.ModelBuilder()
    in_shape, out_shape, state_shape = [batch, n_in], [batch, units], [batch, memory * filters]
    if dtype == "float32":
        xs = [b.add_tensor(f"in{t}", "FLOAT32", in_shape) for t in range(steps)]
        ys = [b.add_tensor(f"out{t}", "FLOAT32", out_shape) for t in range(steps)]
        wf_t = b.add_tensor("weights_feature", "FLOAT32", [filters, n_in], data=wf)
        wt_t = b.add_tensor("weights_time", "FLOAT32", [filters, memory], data=wt)
        bias_t = b.add_tensor("bias", "FLOAT32", [units], data=bias) if with_bias else -1
        state = b.add_tensor("state", "FLOAT32", state_shape, is_variable=True)
        version, cases = 1, _float_cases(rng, [in_shape] * steps)
    else:
        # Scales from the float model on inputs over the input's range, with some room or some saturation.
        int8_state = dtype == "int8_state_int8"
        in_q = _random_q(rng, 0.005, 0.05)
        cases = _int8_cases(rng, [in_shape] * steps)
        real = [[(c.astype(np.float64) - in_q.zero_point) * in_q.scale for c in case] for case in cases]
        runs = [_svdf_float_outputs(xs, wf, wt, bias, rank, memory) for xs in real]
        feature_max = max(float(np.abs(f).max()) for f, _ in runs) or 1.0
        output_max = max(float(np.abs(o).max()) for _, o in runs) or 1.0
        state_type, state_max = ("INT8", 127) if int8_state else ("INT16", 32767)
        state_q = Q(feature_max * float(rng.uniform(0.6, 1.3)) / state_max,
                    int(rng.integers(-10, 11)) if int8_state else 0)
        out_q = Q(output_max * float(rng.uniform(0.6, 1.3)) / 127, int(rng.integers(-20, 21)))
        wf_scale = float(np.abs(wf).max() / 127)
        wt_scale = float(np.abs(wt).max() / state_max)
        xs = [b.add_tensor(f"in{t}", "INT8", in_shape, scale=in_q.scale, zero_point=in_q.zero_point)
              for t in range(steps)]
        ys = [b.add_tensor(f"out{t}", "INT8", out_shape, scale=out_q.scale, zero_point=out_q.zero_point)
              for t in range(steps)]
        wf_t = b.add_tensor("weights_feature", "INT8", [filters, n_in], data=np.round(wf / wf_scale).astype(np.int8),
                            scale=wf_scale, zero_point=0)
        wt_t = b.add_tensor("weights_time", state_type, [filters, memory],
                            data=np.round(wt / wt_scale).astype(tb.NUMPY_TYPES[state_type]), scale=wt_scale,
                            zero_point=0)
        # TFLM asks the bias scale to be state scale x weights_time scale (in float).
        bias_scale = float(np.float32(state_q.scale) * np.float32(wt_scale))
        bias_t = b.add_tensor("bias", "INT32", [units], data=np.round(bias / bias_scale).astype(np.int32),
                              scale=bias_scale, zero_point=0) if with_bias else -1
        state = b.add_tensor("state", state_type, state_shape, scale=state_q.scale, zero_point=state_q.zero_point,
                             is_variable=True)
        version = 3
    for x, y in zip(xs, ys, strict=True):
        b.add_operator("SVDF", [x, wf_t, wt_t, bias_t, state], [y], version=version,
                       options={"rank": rank, "fused_activation_function": act})
    b.set_inputs(xs)
    b.set_outputs(ys)
    name = (f"svdf_{dtype}_{batch}x{n_in}_units{units}_rank{rank}_memory{memory}_steps{steps}_{act}"
            f"{'' if with_bias else '_nobias'}")
    op_model = OpModel(name, b.build(), cases)
    op_model.litert = dtype != "int8_state_int8"
    op_model.tflm = with_bias
    return op_model


def transpose_conv(rng: np.random.Generator, dtype: str) -> OpModel:
    """A random TRANSPOSE_CONV whose output size is one the forward convolution maps back to the input's (any
    of the stride's choices), SAME or VALID, per-channel int8 weights, a bias (int32; int64 for 16x8) or none,
    a fused activation (version 4) or none."""
    h, w = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    c_in, c_out = int(rng.integers(1, 4)), int(rng.integers(1, 5))
    kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    stride_h, stride_w = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    padding = str(rng.choice(["SAME", "VALID"]))

    def out_size(size: int, kernel: int, stride: int) -> int:
        extra = int(rng.integers(0, stride))
        return size * stride - extra if padding == "SAME" else (size - 1) * stride + kernel + extra

    oh, ow = out_size(h, kh, stride_h), out_size(w, kw, stride_w)
    act = str(rng.choice(["NONE", "RELU", "RELU6"]))
    with_bias = bool(rng.random() < 0.7)
    weights = rng.uniform(-1, 1, (c_out, kh, kw, c_in)).astype(np.float32)
    bias = rng.uniform(-1, 1, c_out).astype(np.float32)
    in_shape, out_shape = [1, h, w, c_in], [1, oh, ow, c_out]
    b = tb.ModelBuilder()
    shape_t = b.add_tensor("output_shape", "INT32", [4], data=np.array(out_shape, np.int32))
    if dtype == "float32":
        inputs, out = _io(b, "FLOAT32", [in_shape], out_shape)
        f = b.add_tensor("filter", "FLOAT32", weights.shape, data=weights)
        bi = b.add_tensor("bias", "FLOAT32", [c_out], data=bias)
        cases = _float_cases(rng, [in_shape])
    else:
        int16 = dtype == "int16"
        in_q, out_q = _filter_op_q(rng, int16)
        inputs, out = _io(b, dtype.upper(), [in_shape], out_shape, [in_q], out_q)
        w_scales = np.maximum(np.abs(weights).max(axis=(1, 2, 3)), 1e-3) / 127
        f = b.add_tensor("filter", "INT8", weights.shape,
                         data=np.round(weights / w_scales.reshape(-1, 1, 1, 1)).astype(np.int8),
                         scale=list(w_scales), zero_point=[0] * c_out, quantized_dimension=0)
        bias_type = "INT64" if int16 else "INT32"
        bias_scales = in_q.scale * w_scales
        bi = b.add_tensor("bias", bias_type, [c_out],
                          data=np.round(bias / bias_scales).astype(tb.NUMPY_TYPES[bias_type]),
                          scale=list(bias_scales), zero_point=[0] * c_out)
        cases = _cases(rng, dtype, [in_shape])
    # TFLite's numbering: 2 int8 weights, 3 a bias input, 4 a fused activation.
    version = 4 if act != "NONE" else (3 if with_bias else (1 if dtype == "float32" else 2))
    b.add_operator("TRANSPOSE_CONV", [shape_t, f, inputs[0]] + ([bi] if with_bias else []), [out], version=version,
                   options={"padding": padding, "stride_w": stride_w, "stride_h": stride_h,
                            "fused_activation_function": act})
    name = (f"transpose_conv_{dtype}_{h}x{w}x{c_in}_to_{oh}x{ow}x{c_out}_k{kh}x{kw}_s{stride_h}x{stride_w}_{padding}_"
            f"{act}{'' if with_bias else '_nobias'}")
    return _finish(b, inputs, out, name, cases)


GENERATORS: dict[str, tuple[Callable[[np.random.Generator, str], OpModel], tuple[str, ...]]] = {
    "FULLY_CONNECTED": (fully_connected, ("float32", "int8", "int16")),
    "CONV_2D": (conv_2d, ("float32", "int8", "int16")),
    "DEPTHWISE_CONV_2D": (depthwise_conv_2d, ("float32", "int8", "int16")),
    "AVERAGE_POOL_2D": (average_pool_2d, ("float32", "int8", "int16")),
    "MAX_POOL_2D": (max_pool_2d, ("float32", "int8", "int16")),
    "SOFTMAX": (softmax, ("float32", "int8", "int8_to_int16", "int16")),
    "RESHAPE": (reshape, RESHAPE_TYPES),
    "ADD": (add, ("float32", "int8", "int16")),
    "MUL": (mul, ("float32", "int8", "int16")),
    "LOGISTIC": (logistic, ("float32", "int8", "int16")),
    "TANH": (tanh, ("float32", "int8", "int16")),
    "RELU": (relu, ("float32", "int8", "int16")),
    "RELU6": (relu6, ("float32", "int8", "int16")),
    "QUANTIZE": (quantize, ("float32", "int8", "float32_to_int16", "int16_to_int8", "int8_to_int16",
                            "int16_to_int16", "int16_to_int32", "int8_to_int32", "int32_to_int8", "int32_to_int16",
                            "int8_to_uint8", "uint8_to_int8")),
    "DEQUANTIZE": (dequantize, ("int8", "int16", "uint8")),
    "SIN": (sin, ("float32",)),
    "SUB": (sub, ("float32", "int8", "int16")),
    "MAXIMUM": (maximum, ("float32", "int8", "int16")),
    "MINIMUM": (minimum, ("float32", "int8", "int16")),
    "SQUARED_DIFFERENCE": (squared_difference, ("float32", "int8", "int16")),
    "DIV": (div, ("float32", "int8")),
    "PRELU": (prelu, ("float32", "int8", "int16")),
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
    "UNIDIRECTIONAL_SEQUENCE_LSTM": (unidirectional_sequence_lstm, ("float32", "int8", "int16")),
    "RESIZE_NEAREST_NEIGHBOR": (resize_nearest_neighbor, ("float32", "int8", "int16")),
    "RESIZE_BILINEAR": (resize_bilinear, ("float32", "int8")),
    "L2_NORMALIZATION": (l2_normalization, ("float32", "int8")),
    "GATHER": (gather, ("float32", "int8", "int16", "int32")),
    "ARG_MAX": (arg_max, ("float32", "int8", "int32", "bool", "int8_to_int64")),
    "ARG_MIN": (arg_min, ("float32", "int8", "int32", "bool", "float32_to_int64")),
    "CAST": (cast, ("float32", "int8", "int16", "int32", "bool", "uint8", "int64")),
    "SPACE_TO_BATCH_ND": (space_to_batch_nd, ("float32", "int8", "int16", "int32")),
    "BATCH_TO_SPACE_ND": (batch_to_space_nd, ("float32", "int8", "int16", "int32")),
    "SVDF": (svdf, ("float32", "int8", "int8_state_int8")),
    "TRANSPOSE_CONV": (transpose_conv, ("float32", "int8", "int16")),
}
