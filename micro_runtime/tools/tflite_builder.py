#!/usr/bin/env python3
"""Writes .tflite (TFLite flatbuffer, schema version 3) models from Python.

Used by tests to create small models: single-op models for kernels, models
with hand-picked weights for the interpreter, and deliberately broken models
for the verifier. The builder checks only what it must to write a valid
flatbuffer (known type names, option names); it does NOT check indices or
sizes, so tests can write models that the runtime has to reject.

Example::

    b = ModelBuilder()
    x = b.add_tensor("x", "FLOAT32", [1, 2])
    w = b.add_tensor("w", "FLOAT32", [3, 2], data=np.ones((3, 2), np.float32))
    y = b.add_tensor("y", "FLOAT32", [1, 3])
    b.add_operator("FULLY_CONNECTED", [x, w, -1], [y], options={"fused_activation_function": "RELU"})
    b.set_inputs([x])
    b.set_outputs([y])
    model_bytes = b.build()

Field ids, enum values and union indices follow micro_runtime/schema/schema.fbs
(which matches TFLite's schema).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import flatbuffers
import numpy as np

FILE_IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3

# TensorType values.
TENSOR_TYPES: dict[str, int] = {
    "FLOAT32": 0, "FLOAT16": 1, "INT32": 2, "UINT8": 3, "INT64": 4, "STRING": 5, "BOOL": 6,
    "INT16": 7, "COMPLEX64": 8, "INT8": 9, "FLOAT64": 10, "COMPLEX128": 11, "UINT64": 12,
    "RESOURCE": 13, "VARIANT": 14, "UINT32": 15, "UINT16": 16, "INT4": 17, "BFLOAT16": 18,
}
NUMPY_TYPES: dict[str, Any] = {
    "FLOAT32": np.float32, "FLOAT16": np.float16, "INT32": np.int32, "UINT8": np.uint8,
    "INT64": np.int64, "BOOL": np.bool_, "INT16": np.int16, "INT8": np.int8, "FLOAT64": np.float64,
    "UINT64": np.uint64, "UINT32": np.uint32, "UINT16": np.uint16,
}

# BuiltinOperator values of the ops micro_runtime knows plus a few others
# handy for negative tests. Any other op can be given by number.
BUILTIN_OPS: dict[str, int] = {
    "ADD": 0, "AVERAGE_POOL_2D": 1, "CONCATENATION": 2, "CONV_2D": 3, "DEPTHWISE_CONV_2D": 4,
    "DEQUANTIZE": 6, "FLOOR": 8, "FULLY_CONNECTED": 9, "LOGISTIC": 14, "MAX_POOL_2D": 17,
    "MUL": 18, "RELU": 19, "RELU6": 21, "RESHAPE": 22, "SOFTMAX": 25, "TANH": 28, "CUSTOM": 32,
    "PAD": 34, "TRANSPOSE": 39, "MEAN": 40, "SUB": 41, "DIV": 42, "SQUEEZE": 43, "STRIDED_SLICE": 45, "EXP": 47,
    "SPLIT": 49, "PRELU": 54, "MAXIMUM": 55, "MINIMUM": 57, "PADV2": 60, "SIN": 66, "EXPAND_DIMS": 70, "LOG": 73,
    "SQRT": 75, "RSQRT": 76, "SHAPE": 77, "PACK": 83, "UNPACK": 88, "ZEROS_LIKE": 93, "FILL": 94, "LEAKY_RELU": 98,
    "SQUARED_DIFFERENCE": 99, "ABS": 101, "SPLIT_V": 102,
    "QUANTIZE": 114, "HARD_SWISH": 117, "UNIDIRECTIONAL_SEQUENCE_LSTM": 44,
    "GATHER": 36, "BATCH_TO_SPACE_ND": 37, "SPACE_TO_BATCH_ND": 38, "CAST": 53, "ARG_MAX": 56, "ARG_MIN": 79,
    "L2_NORMALIZATION": 11, "RESIZE_BILINEAR": 23, "RESIZE_NEAREST_NEIGHBOR": 97,
    "SVDF": 27, "TRANSPOSE_CONV": 67,
    "PLACEHOLDER_FOR_GREATER_OP_CODES": 127, "BATCH_MATMUL": 126, "CUMSUM": 128, "GELU": 150,
}
CUSTOM_OP = BUILTIN_OPS["CUSTOM"]
PLACEHOLDER_FOR_GREATER_OP_CODES = BUILTIN_OPS["PLACEHOLDER_FOR_GREATER_OP_CODES"]

PADDING = {"SAME": 0, "VALID": 1}
ACTIVATIONS = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3, "TANH": 4, "SIGN_BIT": 5}

# Options tables: name -> (BuiltinOptions union index, [(field, slot, kind, default)]).
# kind: "i8", "i32", "f32", "bool", "padding", "act", "type", "i32vec".
OPTIONS_TABLES: dict[str, tuple[int, list[tuple[str, int, str, Any]]]] = {
    "Conv2DOptions": (1, [
        ("padding", 0, "padding", 0), ("stride_w", 1, "i32", 0), ("stride_h", 2, "i32", 0),
        ("fused_activation_function", 3, "act", 0), ("dilation_w_factor", 4, "i32", 1),
        ("dilation_h_factor", 5, "i32", 1), ("quantized_bias_type", 6, "type", 0),
    ]),
    "DepthwiseConv2DOptions": (2, [
        ("padding", 0, "padding", 0), ("stride_w", 1, "i32", 0), ("stride_h", 2, "i32", 0),
        ("depth_multiplier", 3, "i32", 0), ("fused_activation_function", 4, "act", 0),
        ("dilation_w_factor", 5, "i32", 1), ("dilation_h_factor", 6, "i32", 1),
    ]),
    "Pool2DOptions": (5, [
        ("padding", 0, "padding", 0), ("stride_w", 1, "i32", 0), ("stride_h", 2, "i32", 0),
        ("filter_width", 3, "i32", 0), ("filter_height", 4, "i32", 0),
        ("fused_activation_function", 5, "act", 0),
    ]),
    "FullyConnectedOptions": (8, [
        ("fused_activation_function", 0, "act", 0), ("weights_format", 1, "i8", 0),
        ("keep_num_dims", 2, "bool", False), ("asymmetric_quantize_inputs", 3, "bool", False),
        ("quantized_bias_type", 4, "type", 0),
    ]),
    "SoftmaxOptions": (9, [("beta", 0, "f32", 0.0)]),
    "ConcatenationOptions": (10, [("axis", 0, "i32", 0), ("fused_activation_function", 1, "act", 0)]),
    "AddOptions": (11, [("fused_activation_function", 0, "act", 0), ("pot_scale_int16", 1, "bool", True)]),
    "ReshapeOptions": (17, [("new_shape", 0, "i32vec", None)]),
    "MulOptions": (21, [("fused_activation_function", 0, "act", 0)]),
    "PadOptions": (22, []),
    "TransposeOptions": (26, []),
    "ReducerOptions": (27, [("keep_dims", 0, "bool", False)]),
    "SubOptions": (28, [("fused_activation_function", 0, "act", 0), ("pot_scale_int16", 1, "bool", True)]),
    "DivOptions": (29, [("fused_activation_function", 0, "act", 0)]),
    "SqueezeOptions": (30, [("squeeze_dims", 0, "i32vec", None)]),
    "StridedSliceOptions": (32, [
        ("begin_mask", 0, "i32", 0), ("end_mask", 1, "i32", 0), ("ellipsis_mask", 2, "i32", 0),
        ("new_axis_mask", 3, "i32", 0), ("shrink_axis_mask", 4, "i32", 0), ("offset", 5, "bool", False),
    ]),
    "ExpOptions": (33, []),
    "DequantizeOptions": (38, []),
    "MaximumMinimumOptions": (39, []),
    "PadV2Options": (43, []),
    "ExpandDimsOptions": (52, []),
    "SplitOptions": (35, [("num_splits", 0, "i32", 0)]),
    "SplitVOptions": (79, [("num_splits", 0, "i32", 0)]),
    "ShapeOptions": (55, [("out_type", 0, "type", 0)]),
    "ZerosLikeOptions": (67, []),
    "FillOptions": (68, []),
    "PackOptions": (59, [("values_count", 0, "i32", 0), ("axis", 1, "i32", 0)]),
    "UnpackOptions": (64, [("num", 0, "i32", 0), ("axis", 1, "i32", 0)]),
    "LeakyReluOptions": (75, [("alpha", 0, "f32", 0.0)]),
    "SquaredDifferenceOptions": (76, []),
    "AbsOptions": (78, []),
    "QuantizeOptions": (89, []),
    "HardSwishOptions": (91, []),
    "UnidirectionalSequenceLSTMOptions": (71, [
        ("fused_activation_function", 0, "act", 0), ("cell_clip", 1, "f32", 0.0), ("proj_clip", 2, "f32", 0.0),
        ("time_major", 3, "bool", False), ("asymmetric_quantize_inputs", 4, "bool", False),
        ("diagonal_recurrent_tensors", 5, "bool", False),
    ]),
    "GatherOptions": (23, [("axis", 0, "i32", 0), ("batch_dims", 1, "i32", 0)]),
    "BatchToSpaceNDOptions": (24, []),
    "SpaceToBatchNDOptions": (25, []),
    "CastOptions": (37, [("in_data_type", 0, "type", 0), ("out_data_type", 1, "type", 0)]),
    "ArgMaxOptions": (40, [("output_type", 0, "type", 0)]),
    "ArgMinOptions": (57, [("output_type", 0, "type", 0)]),
    "L2NormOptions": (12, [("fused_activation_function", 0, "act", 0)]),
    "ResizeBilinearOptions": (15, [  # new_height/new_width: deprecated, written only when given
        ("new_height", 0, "i32", 0), ("new_width", 1, "i32", 0), ("align_corners", 2, "bool", False),
        ("half_pixel_centers", 3, "bool", False),
    ]),
    "ResizeNearestNeighborOptions": (74, [
        ("align_corners", 0, "bool", False), ("half_pixel_centers", 1, "bool", False),
    ]),
    "SVDFOptions": (6, [
        ("rank", 0, "i32", 0), ("fused_activation_function", 1, "act", 0),
        ("asymmetric_quantize_inputs", 2, "bool", False),
    ]),
    "TransposeConvOptions": (49, [
        ("padding", 0, "padding", 0), ("stride_w", 1, "i32", 0), ("stride_h", 2, "i32", 0),
        ("fused_activation_function", 3, "act", 0), ("quantized_bias_type", 4, "type", 0),
    ]),
}

# The options table each builtin op carries by default.
DEFAULT_OPTIONS: dict[str, str] = {
    "CONV_2D": "Conv2DOptions", "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "AVERAGE_POOL_2D": "Pool2DOptions", "MAX_POOL_2D": "Pool2DOptions",
    "FULLY_CONNECTED": "FullyConnectedOptions", "SOFTMAX": "SoftmaxOptions", "ADD": "AddOptions",
    "MUL": "MulOptions", "RESHAPE": "ReshapeOptions", "DEQUANTIZE": "DequantizeOptions",
    "QUANTIZE": "QuantizeOptions", "SUB": "SubOptions", "DIV": "DivOptions", "EXP": "ExpOptions",
    "MAXIMUM": "MaximumMinimumOptions", "MINIMUM": "MaximumMinimumOptions", "LEAKY_RELU": "LeakyReluOptions",
    "SQUARED_DIFFERENCE": "SquaredDifferenceOptions", "ABS": "AbsOptions", "HARD_SWISH": "HardSwishOptions",
    "CONCATENATION": "ConcatenationOptions", "PAD": "PadOptions", "PADV2": "PadV2Options",
    "TRANSPOSE": "TransposeOptions", "MEAN": "ReducerOptions", "SQUEEZE": "SqueezeOptions",
    "STRIDED_SLICE": "StridedSliceOptions", "EXPAND_DIMS": "ExpandDimsOptions", "PACK": "PackOptions",
    "UNPACK": "UnpackOptions", "SPLIT": "SplitOptions", "SPLIT_V": "SplitVOptions",
    "SHAPE": "ShapeOptions", "ZEROS_LIKE": "ZerosLikeOptions", "FILL": "FillOptions",
    "UNIDIRECTIONAL_SEQUENCE_LSTM": "UnidirectionalSequenceLSTMOptions",
    "GATHER": "GatherOptions", "BATCH_TO_SPACE_ND": "BatchToSpaceNDOptions",
    "SPACE_TO_BATCH_ND": "SpaceToBatchNDOptions", "CAST": "CastOptions", "ARG_MAX": "ArgMaxOptions",
    "ARG_MIN": "ArgMinOptions",
    "L2_NORMALIZATION": "L2NormOptions", "RESIZE_BILINEAR": "ResizeBilinearOptions",
    "RESIZE_NEAREST_NEIGHBOR": "ResizeNearestNeighborOptions",
    "SVDF": "SVDFOptions", "TRANSPOSE_CONV": "TransposeConvOptions",
}


class BuilderError(ValueError):
    """Bad arguments to the builder; the message says what to pass instead."""


def tensor_type_value(tensor_type: str | int) -> int:
    if isinstance(tensor_type, int):
        return tensor_type
    key = tensor_type.upper()
    if key not in TENSOR_TYPES:
        raise BuilderError(f"unknown tensor type {tensor_type!r}; use one of {', '.join(TENSOR_TYPES)}")
    return TENSOR_TYPES[key]


def builtin_op_value(op: str | int) -> int:
    if isinstance(op, int):
        return op
    key = op.upper()
    if key not in BUILTIN_OPS:
        raise BuilderError(f"unknown builtin op {op!r}; pass its BuiltinOperator number instead or one of "
                           f"{', '.join(BUILTIN_OPS)}")
    return BUILTIN_OPS[key]


def _enum_value(value: Any, table: dict[str, int], what: str) -> int:
    if isinstance(value, str):
        if value.upper() not in table:
            raise BuilderError(f"unknown {what} {value!r}; use one of {', '.join(table)}")
        return table[value.upper()]
    return int(value)


@dataclass
class Tensor:
    name: str
    type: int
    shape: list[int] | None
    buffer: int
    scale: list[float] | None = None
    zero_point: list[int] | None = None
    quantized_dimension: int = 0
    is_variable: bool = False


@dataclass
class Operator:
    opcode_index: int
    inputs: list[int]
    outputs: list[int]
    options_table: str | None
    options: dict[str, Any]
    custom_options: bytes | None
    options_type_override: int | None = None


@dataclass
class OpCode:
    builtin: int
    custom: str | None
    version: int
    deprecated: int | None = None  # None: derived from builtin


@dataclass
class SubGraph:
    tensors: list[Tensor] = field(default_factory=list)
    operators: list[Operator] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)
    name: str = "main"


class ModelBuilder:
    """Collects tensors, operators and subgraphs, then writes the flatbuffer with build()."""

    def __init__(self, description: str = "micro_runtime test model", version: int = SCHEMA_VERSION) -> None:
        self.description = description
        self.version = version
        self.buffers: list[bytes] = [b""]  # buffer 0: the empty buffer of non-constant tensors
        self.opcodes: list[OpCode] = []
        self.subgraphs: list[SubGraph] = [SubGraph()]
        # Alignment of constant data inside the flatbuffer: 16 (TFLite's converter); 4 lets tests place data
        # the way the flatbuffer format alone allows (an int64 vector at 4 mod 8).
        self.buffer_alignment = 16

    # ----------------------------------------------------------- building --
    def add_subgraph(self, name: str = "") -> int:
        """Adds another subgraph (micro_runtime rejects models with more than one)."""
        self.subgraphs.append(SubGraph(name=name or f"subgraph{len(self.subgraphs)}"))
        return len(self.subgraphs) - 1

    def add_buffer(self, data: bytes) -> int:
        self.buffers.append(bytes(data))
        return len(self.buffers) - 1

    def add_tensor(self, name: str, tensor_type: str | int, shape: Sequence[int] | None,
                   data: bytes | np.ndarray | None = None, *, scale: float | Sequence[float] | None = None,
                   zero_point: int | Sequence[int] | None = None, quantized_dimension: int = 0,
                   is_variable: bool = False, buffer: int | None = None, subgraph: int = 0) -> int:
        """Adds a tensor and returns its index.

        data: constant contents (numpy arrays are converted to the tensor type; bytes are
        stored as given). buffer: use an existing buffer index instead (tests of bad models).
        scale/zero_point: a number (per-tensor) or a list (per-channel along quantized_dimension).
        shape None writes no shape vector.
        """
        type_value = tensor_type_value(tensor_type)
        if data is not None and buffer is not None:
            raise BuilderError(f"tensor {name!r}: pass either data= or buffer=, not both")
        if buffer is None:
            buffer = 0
            if data is not None:
                buffer = self.add_buffer(self._tensor_bytes(name, tensor_type, data))
        scales = None if scale is None else [float(s) for s in np.atleast_1d(scale)]
        zero_points = None if zero_point is None else [int(z) for z in np.atleast_1d(zero_point)]
        if scales is not None and zero_points is None:
            zero_points = [0] * len(scales)
        graph = self.subgraphs[subgraph]
        graph.tensors.append(Tensor(name, type_value, None if shape is None else [int(d) for d in shape], buffer,
                                    scales, zero_points, quantized_dimension, is_variable))
        return len(graph.tensors) - 1

    @staticmethod
    def _tensor_bytes(name: str, tensor_type: str | int, data: bytes | np.ndarray) -> bytes:
        if isinstance(data, (bytes, bytearray)):
            return bytes(data)
        type_name = tensor_type if isinstance(tensor_type, str) else next(
            (k for k, v in TENSOR_TYPES.items() if v == tensor_type), str(tensor_type))
        dtype = NUMPY_TYPES.get(type_name.upper())
        if dtype is None:
            raise BuilderError(f"tensor {name!r}: cannot convert an array to {type_name}; pass data as bytes")
        return np.ascontiguousarray(np.asarray(data).astype(np.dtype(dtype).newbyteorder("<"))).tobytes()

    def opcode_index(self, op: str | int | None = None, *, custom: str | None = None, version: int = 1,
                     deprecated_builtin_code: int | None = None) -> int:
        """Index of the OperatorCode for (op, custom name, version), added when new."""
        code = CUSTOM_OP if custom is not None else builtin_op_value(op if op is not None else "CUSTOM")
        for i, existing in enumerate(self.opcodes):
            if (existing.builtin, existing.custom, existing.version, existing.deprecated) == (
                    code, custom, version, deprecated_builtin_code):
                return i
        self.opcodes.append(OpCode(code, custom, version, deprecated_builtin_code))
        return len(self.opcodes) - 1

    def add_operator(self, op: str | int, inputs: Sequence[int], outputs: Sequence[int], *,
                     options: dict[str, Any] | None = None, version: int = 1, subgraph: int = 0,
                     options_table: str | None = None, options_type: int | None = None,
                     deprecated_builtin_code: int | None = None, no_options: bool = False) -> int:
        """Adds a builtin operator; returns its index in the subgraph.

        options: fields of the op's options table by schema name, e.g. {"stride_w": 2,
        "padding": "VALID", "fused_activation_function": "RELU"}; unset fields keep schema
        defaults. options_table overrides which table is written; options_type writes a raw
        union type byte (for tests of mismatched options); no_options writes no options table.
        """
        table = options_table
        if no_options:
            table = None
        elif table is None and isinstance(op, str):
            table = DEFAULT_OPTIONS.get(op.upper())
        if table is not None and table not in OPTIONS_TABLES:
            raise BuilderError(f"unknown options table {table!r}; use one of {', '.join(OPTIONS_TABLES)}")
        options = dict(options or {})
        if table is not None:
            known = {f[0] for f in OPTIONS_TABLES[table][1]}
            unknown = set(options) - known
            if unknown:
                raise BuilderError(f"{table} has no field(s) {sorted(unknown)}; known: {sorted(known)}")
        elif options:
            raise BuilderError(f"op {op!r} takes no builtin options; pass options_table= to force a table")
        index = self.opcode_index(op, version=version, deprecated_builtin_code=deprecated_builtin_code)
        graph = self.subgraphs[subgraph]
        graph.operators.append(Operator(index, list(inputs), list(outputs), table, options, None, options_type))
        return len(graph.operators) - 1

    def add_custom_operator(self, name: str, inputs: Sequence[int], outputs: Sequence[int], *,
                            custom_options: bytes = b"", version: int = 1, subgraph: int = 0) -> int:
        """Adds a custom operator (OperatorCode CUSTOM with custom_code=name)."""
        index = self.opcode_index(custom=name, version=version)
        graph = self.subgraphs[subgraph]
        graph.operators.append(Operator(index, list(inputs), list(outputs), None, {}, bytes(custom_options)))
        return len(graph.operators) - 1

    def set_inputs(self, tensors: Sequence[int], subgraph: int = 0) -> None:
        self.subgraphs[subgraph].inputs = list(tensors)

    def set_outputs(self, tensors: Sequence[int], subgraph: int = 0) -> None:
        self.subgraphs[subgraph].outputs = list(tensors)

    # ------------------------------------------------------------ writing --
    def build(self, *, external_buffers: bool = False) -> bytes:
        """Returns the .tflite bytes.

        external_buffers: store non-empty buffers after the flatbuffer and reference them
        with Buffer.offset/size (the layout TFLite uses for models over 2 GB).
        """
        if external_buffers:
            # Offsets depend on the flatbuffer's size, which depends on the offsets' presence,
            # not their values: build once with placeholders, then with the real offsets.
            placeholder = self._build(external=[(1 << 40, len(b)) if b else None for b in self.buffers])
            start = (len(placeholder) + 15) & ~15
            external: list[tuple[int, int] | None] = []
            tail = b""
            for data in self.buffers:
                if not data:
                    external.append(None)
                    continue
                external.append((start + len(tail), len(data)))
                tail += data + b"\0" * (-len(data) % 16)
            model = self._build(external=external)
            if len(model) != len(placeholder):
                raise AssertionError("flatbuffer size changed between passes")
            return model + b"\0" * (start - len(model)) + tail
        return self._build(external=None)

    def _build(self, external: list[tuple[int, int] | None] | None) -> bytes:
        b = flatbuffers.Builder(1024)

        def int_vector(values: Sequence[int], fmt: str = "i") -> int:
            size = struct.calcsize(fmt)
            b.StartVector(size, len(values), size)
            for v in reversed(values):
                b.Prepend(flatbuffers.number_types.Int64Flags if fmt == "q" else
                          flatbuffers.number_types.Int32Flags, v)
            return b.EndVector()

        def float_vector(values: Sequence[float]) -> int:
            b.StartVector(4, len(values), 4)
            for v in reversed(values):
                b.PrependFloat32(v)
            return b.EndVector()

        def bytes_vector(data: bytes, alignment: int) -> int:
            b.StartVector(1, len(data), alignment)
            b.head = b.head - len(data)
            b.Bytes[b.head:b.head + len(data)] = data
            return b.EndVector()

        def table_vector(offsets: Sequence[int]) -> int:
            b.StartVector(4, len(offsets), 4)
            for o in reversed(offsets):
                b.PrependUOffsetTRelative(o)
            return b.EndVector()

        # Buffers.
        buffer_offsets = []
        for i, data in enumerate(self.buffers):
            ext = external[i] if external is not None else None
            data_off = bytes_vector(data, self.buffer_alignment) if data and ext is None else None
            b.StartObject(3)
            if data_off is not None:
                b.PrependUOffsetTRelativeSlot(0, data_off, 0)
            if ext is not None:
                b.PrependUint64Slot(1, ext[0], 0)
                b.PrependUint64Slot(2, ext[1], 0)
            buffer_offsets.append(b.EndObject())
        buffers_vec = table_vector(buffer_offsets)

        subgraph_offsets = [self._write_subgraph(b, g, int_vector, float_vector, bytes_vector, table_vector)
                            for g in self.subgraphs]
        subgraphs_vec = table_vector(subgraph_offsets)

        opcode_offsets = []
        for code in self.opcodes:
            custom_off = b.CreateString(code.custom) if code.custom is not None else None
            deprecated = code.deprecated if code.deprecated is not None else min(code.builtin,
                                                                                  PLACEHOLDER_FOR_GREATER_OP_CODES)
            b.StartObject(4)
            b.PrependInt32Slot(3, code.builtin, 0)
            b.PrependInt32Slot(2, code.version, 1)
            if custom_off is not None:
                b.PrependUOffsetTRelativeSlot(1, custom_off, 0)
            b.PrependInt8Slot(0, deprecated, 0)
            opcode_offsets.append(b.EndObject())
        opcodes_vec = table_vector(opcode_offsets)
        description = b.CreateString(self.description)

        b.StartObject(7)
        b.PrependUOffsetTRelativeSlot(4, buffers_vec, 0)
        b.PrependUOffsetTRelativeSlot(3, description, 0)
        b.PrependUOffsetTRelativeSlot(2, subgraphs_vec, 0)
        b.PrependUOffsetTRelativeSlot(1, opcodes_vec, 0)
        # force_defaults: version 0 must still be written when a test asks for it.
        b.PrependUint32Slot(0, self.version, 0xFFFFFFFF)
        model = b.EndObject()
        b.Finish(model, file_identifier=FILE_IDENTIFIER)
        return bytes(b.Output())

    def _write_subgraph(self, b: flatbuffers.Builder, g: SubGraph, int_vector: Any, float_vector: Any,
                        bytes_vector: Any, table_vector: Any) -> int:
        tensor_offsets = []
        for t in g.tensors:
            name = b.CreateString(t.name)
            shape = int_vector(t.shape) if t.shape is not None else None
            quant = None
            if t.scale is not None:
                scale_vec = float_vector(t.scale)
                zp_vec = int_vector(t.zero_point or [], "q")
                b.StartObject(7)
                b.PrependInt32Slot(6, t.quantized_dimension, 0)
                b.PrependUOffsetTRelativeSlot(3, zp_vec, 0)
                b.PrependUOffsetTRelativeSlot(2, scale_vec, 0)
                quant = b.EndObject()
            b.StartObject(6)
            b.PrependBoolSlot(5, t.is_variable, False)
            if quant is not None:
                b.PrependUOffsetTRelativeSlot(4, quant, 0)
            b.PrependUOffsetTRelativeSlot(3, name, 0)
            b.PrependUint32Slot(2, t.buffer, 0)
            b.PrependInt8Slot(1, t.type, 0)
            if shape is not None:
                b.PrependUOffsetTRelativeSlot(0, shape, 0)
            tensor_offsets.append(b.EndObject())
        tensors_vec = table_vector(tensor_offsets)

        op_offsets = []
        for op in g.operators:
            inputs = int_vector(op.inputs)
            outputs = int_vector(op.outputs)
            options_off = self._write_options(b, op, int_vector) if op.options_table else None
            custom = bytes_vector(op.custom_options, 1) if op.custom_options else None
            b.StartObject(6)
            if custom is not None:
                b.PrependUOffsetTRelativeSlot(5, custom, 0)
            if options_off is not None:
                b.PrependUOffsetTRelativeSlot(4, options_off, 0)
            options_type = op.options_type_override
            if options_type is None and op.options_table:
                options_type = OPTIONS_TABLES[op.options_table][0]
            if options_type is not None:
                b.PrependUint8Slot(3, options_type, 0)
            b.PrependUOffsetTRelativeSlot(2, outputs, 0)
            b.PrependUOffsetTRelativeSlot(1, inputs, 0)
            b.PrependUint32Slot(0, op.opcode_index, 0)
            op_offsets.append(b.EndObject())
        ops_vec = table_vector(op_offsets)
        inputs_vec = int_vector(g.inputs)
        outputs_vec = int_vector(g.outputs)
        name = b.CreateString(g.name)
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(4, name, 0)
        b.PrependUOffsetTRelativeSlot(3, ops_vec, 0)
        b.PrependUOffsetTRelativeSlot(2, outputs_vec, 0)
        b.PrependUOffsetTRelativeSlot(1, inputs_vec, 0)
        b.PrependUOffsetTRelativeSlot(0, tensors_vec, 0)
        return b.EndObject()

    @staticmethod
    def _write_options(b: flatbuffers.Builder, op: Operator, int_vector: Any) -> int:
        assert op.options_table is not None
        _, fields = OPTIONS_TABLES[op.options_table]
        vectors = {name: int_vector([int(v) for v in op.options[name]])
                   for name, _, kind, _ in fields if kind == "i32vec" and op.options.get(name) is not None}
        b.StartObject(len(fields))
        for name, slot, kind, _default in fields:
            if name not in op.options:
                continue
            value = op.options[name]
            if kind == "i32vec":
                if name in vectors:
                    b.PrependUOffsetTRelativeSlot(slot, vectors[name], 0)
            elif kind == "f32":
                b.PrependFloat32Slot(slot, float(value), 1e38)  # sentinel default: always written
            elif kind == "bool":
                b.PrependBoolSlot(slot, bool(value), not bool(value))
            else:
                table = {"padding": PADDING, "act": ACTIVATIONS, "type": TENSOR_TYPES}.get(kind)
                number = _enum_value(value, table, name) if table is not None else int(value)
                if kind == "i32":
                    b.PrependInt32Slot(slot, number, number + 1)
                else:
                    b.PrependInt8Slot(slot, number, number + 1 if number < 127 else 0)
        return b.EndObject()


@dataclass
class TensorSpec:
    """One tensor of single_op_model(): data=None makes it a (non-constant) activation."""

    type: str | int
    shape: Sequence[int]
    data: bytes | np.ndarray | None = None
    scale: float | Sequence[float] | None = None
    zero_point: int | Sequence[int] | None = None
    quantized_dimension: int = 0
    name: str = ""


def single_op_model(op: str | int, inputs: Sequence[TensorSpec | None], outputs: Sequence[TensorSpec], *,
                    options: dict[str, Any] | None = None, version: int = 1, custom_options: bytes | None = None,
                    description: str = "") -> bytes:
    """A model holding one operator: the usual shape of kernel and fuzz test models.

    op: builtin name/number, or "custom:NAME" for a custom op. inputs: None marks an absent
    optional input (-1). Non-constant inputs become the model's inputs, all outputs its outputs.
    """
    b = ModelBuilder(description or f"single {op} op")
    input_ids: list[int] = []
    model_inputs: list[int] = []
    for i, spec in enumerate(inputs):
        if spec is None:
            input_ids.append(-1)
            continue
        index = b.add_tensor(spec.name or f"input{i}", spec.type, spec.shape, spec.data, scale=spec.scale,
                             zero_point=spec.zero_point, quantized_dimension=spec.quantized_dimension)
        input_ids.append(index)
        if spec.data is None:
            model_inputs.append(index)
    output_ids = [b.add_tensor(spec.name or f"output{i}", spec.type, spec.shape, scale=spec.scale,
                               zero_point=spec.zero_point, quantized_dimension=spec.quantized_dimension)
                  for i, spec in enumerate(outputs)]
    if isinstance(op, str) and op.startswith("custom:"):
        b.add_custom_operator(op.removeprefix("custom:"), input_ids, output_ids,
                              custom_options=custom_options or b"", version=version)
    else:
        b.add_operator(op, input_ids, output_ids, options=options, version=version)
    b.set_inputs(model_inputs)
    b.set_outputs(output_ids)
    return b.build()


def main() -> None:
    """Writes a tiny demo model (y = relu(x·w)) to the path given on the command line."""
    import sys

    if len(sys.argv) != 2:
        raise SystemExit("usage: tflite_builder.py OUT.tflite")
    b = ModelBuilder("tflite_builder demo")
    x = b.add_tensor("x", "FLOAT32", [1, 2])
    w = b.add_tensor("w", "FLOAT32", [2, 2], data=np.array([[1, -1], [2, 0.5]], np.float32))
    y = b.add_tensor("y", "FLOAT32", [1, 2])
    b.add_operator("FULLY_CONNECTED", [x, w, -1], [y], options={"fused_activation_function": "RELU"})
    b.set_inputs([x])
    b.set_outputs([y])
    with open(sys.argv[1], "wb") as f:
        f.write(b.build())


if __name__ == "__main__":
    main()
