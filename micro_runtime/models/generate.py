#!/usr/bin/env python3
"""Recreates the small .tflite models the core tests of micro_runtime link in.

Run from anywhere: ``python3 micro_runtime/models/generate.py``. Every
``*.tflite`` here is linked into each test binary of micro_runtime/ (see the
Makefile), so the models stay tiny. Custom ops named "AddOne", "Scratch",
"Fail" are the test-only kernels of micro_runtime/testing/test_ops.h.
"""

from __future__ import annotations

import shutil
import struct
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))

from tflite_builder import ModelBuilder  # noqa: E402

EXAMPLES = HERE.parent / "examples" / "hello_world" / "models"


def chain() -> bytes:
    """x[8] -AddOne-> a[16] -AddOne-> b[4] -RESHAPE-> c[2,2] -AddOne-> y[8]; y[i] = x[i % 4] + 3."""
    b = ModelBuilder("planner chain")
    x = b.add_tensor("x", "FLOAT32", [1, 8])
    a = b.add_tensor("a", "FLOAT32", [1, 16])
    t = b.add_tensor("b", "FLOAT32", [1, 4])
    c = b.add_tensor("c", "FLOAT32", [2, 2])
    y = b.add_tensor("y", "FLOAT32", [1, 8])
    b.add_custom_operator("AddOne", [x], [a])
    b.add_custom_operator("AddOne", [a], [t])
    b.add_operator("RESHAPE", [t], [c], options={"new_shape": [2, 2]})
    b.add_custom_operator("AddOne", [c], [y])
    b.set_inputs([x])
    b.set_outputs([y])
    return b.build()


def in_place() -> bytes:
    """In-place execution, one case per op (float32 unless named):
    x -RELU-> r (x dies: r over x), r -AddOne-> a, a -RELU-> b (a read later: apart),
    ADD(a, b) -> c (over a), ADD(s[1,1], c) -> d (over c; s broadcasts), d -RELU-> e (d is a graph output:
    apart), e -QUANTIZE-> q int8 (another type: apart), q -QUANTIZE-> q2 int8 (over q),
    v -RELU-> w (v a variable: apart). Outputs d, q2, w; x = [-4..3] and s = 1 give
    d = [3,3,3,3,3,5,7,9], q2 = [4,4,4,4,4,6,8,10], w = 0."""
    b = ModelBuilder("in-place execution")
    x = b.add_tensor("x", "FLOAT32", [1, 8])
    s = b.add_tensor("s", "FLOAT32", [1, 1])
    r, a, t, c, d, e = (b.add_tensor(name, "FLOAT32", [1, 8]) for name in ("r", "a", "b", "c", "d", "e"))
    q = b.add_tensor("q", "INT8", [1, 8], scale=0.5, zero_point=0)
    q2 = b.add_tensor("q2", "INT8", [1, 8], scale=1.0, zero_point=1)
    v = b.add_tensor("v", "FLOAT32", [1, 8], is_variable=True)
    w = b.add_tensor("w", "FLOAT32", [1, 8])
    b.add_operator("RELU", [x], [r])
    b.add_custom_operator("AddOne", [r], [a])
    b.add_operator("RELU", [a], [t])
    b.add_operator("ADD", [a, t], [c])
    b.add_operator("ADD", [s, c], [d])
    b.add_operator("RELU", [d], [e])
    b.add_operator("QUANTIZE", [e], [q])
    b.add_operator("QUANTIZE", [q], [q2])
    b.add_operator("RELU", [v], [w])
    b.set_inputs([x, s])
    b.set_outputs([d, q2, w])
    return b.build()


def scratch() -> bytes:
    """Two ops that each request a scratch buffer (size in their custom options)."""
    b = ModelBuilder("scratch buffers")
    x = b.add_tensor("x", "FLOAT32", [4])
    y = b.add_tensor("y", "FLOAT32", [4])
    z = b.add_tensor("z", "FLOAT32", [4])
    b.add_custom_operator("Scratch", [x], [y], custom_options=struct.pack("<I", 64))
    b.add_custom_operator("Scratch", [y], [z], custom_options=struct.pack("<I", 100))
    b.set_inputs([x])
    b.set_outputs([z])
    return b.build()


def optional_scratch() -> bytes:
    """x[128] -> a[64] -> b[64] -> c[64] through three "Scratch" ops whose scratch buffers are optional (16, 200
    and 300 bytes): the head is set by op 0 (x and a, 768 bytes, no room left); op 1's tensors (a, b) leave 256
    bytes below it, enough for 200 but not for op 2's 300."""
    b = ModelBuilder("optional scratch buffers")
    x = b.add_tensor("x", "FLOAT32", [128])
    a = b.add_tensor("a", "FLOAT32", [64])
    y = b.add_tensor("b", "FLOAT32", [64])
    c = b.add_tensor("c", "FLOAT32", [64])
    for src, dst, size in ((x, a, 16), (a, y, 200), (y, c, 300)):
        b.add_custom_operator("Scratch", [src], [dst], custom_options=struct.pack("<II", size, 1))
    b.set_inputs([x])
    b.set_outputs([c])
    return b.build()


def variable() -> bytes:
    """x -AddOne-> a -AddOne-> y, with variable (state) tensors s (float) and q (int8, zero point -3) read by
    the second op."""
    b = ModelBuilder("variable tensor")
    x = b.add_tensor("x", "FLOAT32", [4])
    a = b.add_tensor("a", "FLOAT32", [4])
    s = b.add_tensor("s", "FLOAT32", [8], is_variable=True)
    y = b.add_tensor("y", "FLOAT32", [4])
    q = b.add_tensor("q", "INT8", [4], scale=0.5, zero_point=-3, is_variable=True)
    b.add_custom_operator("AddOne", [x], [a])
    b.add_custom_operator("AddOne", [a, s, q], [y])
    b.set_inputs([x])
    b.set_outputs([y])
    return b.build()


def versions() -> bytes:
    """CONV_2D version 3 followed by the custom op Atan (resolver tests)."""
    b = ModelBuilder("op versions")
    x = b.add_tensor("x", "FLOAT32", [1, 1, 1, 1])
    y = b.add_tensor("y", "FLOAT32", [1, 1, 1, 1])
    z = b.add_tensor("z", "FLOAT32", [1, 1, 1, 1])
    b.add_operator("CONV_2D", [x], [y], version=3, options={"stride_w": 1, "stride_h": 1})
    b.add_custom_operator("Atan", [y], [z])
    b.set_inputs([x])
    b.set_outputs([z])
    return b.build()


def unknown_op() -> bytes:
    """A builtin op (code 200) with no name in the runtime's table, version 2."""
    b = ModelBuilder("unknown op")
    x = b.add_tensor("x", "FLOAT32", [2])
    y = b.add_tensor("y", "FLOAT32", [2])
    b.add_operator(200, [x], [y], version=2)
    b.set_inputs([x])
    b.set_outputs([y])
    return b.build()


def fc_model(builder: ModelBuilder) -> None:
    """y = relu(x . W^T + bias) with x[1,3], W[2,3]."""
    x = builder.add_tensor("x", "FLOAT32", [1, 3])
    w = builder.add_tensor("w", "FLOAT32", [2, 3], data=np.array([[1, 2, 3], [-1, -2, -3]], np.float32))
    bias = builder.add_tensor("bias", "FLOAT32", [2], data=np.array([0.5, 10], np.float32))
    y = builder.add_tensor("y", "FLOAT32", [1, 2])
    builder.add_operator("FULLY_CONNECTED", [x, w, bias], [y], options={"fused_activation_function": "RELU"})
    builder.set_inputs([x])
    builder.set_outputs([y])


def external_buffers() -> bytes:
    """The FC model with its weights stored after the flatbuffer (Buffer.offset/size)."""
    b = ModelBuilder("external buffers")
    fc_model(b)
    return b.build(external_buffers=True)


def per_channel(equal_zero_points: bool = True) -> bytes:
    """An int8 tensor quantized per channel along dimension 0 (3 channels)."""
    b = ModelBuilder("per-channel quantization")
    x = b.add_tensor("x", "INT8", [1, 2], scale=0.5, zero_point=-3)
    w = b.add_tensor("w", "INT8", [3, 2], data=np.array([[1, 2], [3, 4], [5, 6]], np.int8),
                     scale=[0.25, 0.5, 0.125], zero_point=[0, 0, 0] if equal_zero_points else [0, 1, 0],
                     quantized_dimension=0)
    y = b.add_tensor("y", "INT8", [1, 3], scale=0.1, zero_point=2)
    b.add_operator("FULLY_CONNECTED", [x, w, -1], [y], version=4)
    b.set_inputs([x])
    b.set_outputs([y])
    return b.build()


def int64_bias_4mod8() -> bytes:
    """A 16x8 FULLY_CONNECTED whose int64 bias lies at 4 mod 8 in the file: y = x . W^T + bias, x int16 [1, 4]
    (scale 2^-12), W int8 [3, 4] (2^-6), bias int64 (2^-18), y int16 (2^-6). The flatbuffer format only aligns
    vectors to 4; an unused buffer of 4-12 bytes written before the bias moves it until it lands there."""
    bias = np.array([40000, -70000, 123456789], np.int64)
    for pad in range(1, 4):
        b = ModelBuilder("int64 bias at 4 mod 8")
        b.buffer_alignment = 4
        b.buffers.append(b"\xa5" * (4 * pad))
        x = b.add_tensor("x", "INT16", [1, 4], scale=2.0**-12, zero_point=0)
        w = b.add_tensor("w", "INT8", [3, 4], data=np.array([[1, -2, 3, -4], [127, -128, 5, 0], [-7, 8, 9, 10]],
                                                            np.int8), scale=2.0**-6, zero_point=0)
        bi = b.add_tensor("bias", "INT64", [3], data=bias, scale=2.0**-18, zero_point=0)
        y = b.add_tensor("y", "INT16", [1, 3], scale=2.0**-6, zero_point=0)
        b.add_operator("FULLY_CONNECTED", [x, w, bi], [y], version=7)
        b.set_inputs([x])
        b.set_outputs([y])
        model = b.build()
        if model.index(bias.tobytes()) % 8 == 4:
            return model
    raise AssertionError("no description length puts the bias at 4 mod 8")


def options() -> bytes:
    """One op per options table, every field set to a non-default value (parser tests)."""
    b = ModelBuilder("builtin options")
    t = b.add_tensor("t", "FLOAT32", [1])
    b.add_operator("CONV_2D", [t], [t], options={"padding": "VALID", "stride_w": 2, "stride_h": 3,
                                                 "fused_activation_function": "RELU6", "dilation_w_factor": 4,
                                                 "dilation_h_factor": 5})
    b.add_operator("DEPTHWISE_CONV_2D", [t], [t], options={"padding": "SAME", "stride_w": 1, "stride_h": 2,
                                                           "depth_multiplier": 3, "fused_activation_function": "RELU",
                                                           "dilation_w_factor": 2, "dilation_h_factor": 1})
    b.add_operator("AVERAGE_POOL_2D", [t], [t], options={"padding": "VALID", "stride_w": 2, "stride_h": 2,
                                                         "filter_width": 3, "filter_height": 4,
                                                         "fused_activation_function": "RELU_N1_TO_1"})
    b.add_operator("MAX_POOL_2D", [t], [t], options={"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                     "filter_width": 2, "filter_height": 2})
    b.add_operator("FULLY_CONNECTED", [t], [t], options={"fused_activation_function": "TANH",
                                                         "keep_num_dims": True})
    b.add_operator("SOFTMAX", [t], [t], options={"beta": 0.5})
    b.add_operator("ADD", [t], [t], options={"fused_activation_function": "RELU"})
    b.add_operator("MUL", [t], [t], options={"fused_activation_function": "SIGN_BIT"})
    b.add_operator("RESHAPE", [t], [t], options={"new_shape": [2, -1, 3]})
    # 9: no options table at all -> schema defaults (stride 0 is rejected).
    b.add_operator("CONV_2D", [t], [t], no_options=True)
    # 10: a CONV_2D carrying SoftmaxOptions.
    b.add_operator("CONV_2D", [t], [t], options_table="SoftmaxOptions", options={"beta": 1.0})
    # 11: padding value outside the enum.
    b.add_operator("MAX_POOL_2D", [t], [t], options={"padding": 7, "stride_w": 1, "stride_h": 1,
                                                     "filter_width": 1, "filter_height": 1})
    # 12: fused activation outside the enum.
    b.add_operator("ADD", [t], [t], options={"fused_activation_function": 9})
    # 13: RESHAPE with no options -> no requested shape; 14: LOGISTIC has no options.
    b.add_operator("RESHAPE", [t], [t], no_options=True)
    b.add_operator("LOGISTIC", [t], [t])
    # 15: a 9-D new_shape does not fit TfLiteReshapeParams.
    b.add_operator("RESHAPE", [t], [t], options={"new_shape": [1] * 9})
    # 16: a stride over the window-factor limit; 17: shuffled FC weights;
    # 18: a zero filter height; 19: a zero dilation.
    b.add_operator("CONV_2D", [t], [t], options={"stride_w": 2000, "stride_h": 1})
    b.add_operator("FULLY_CONNECTED", [t], [t], options={"weights_format": 1})
    b.add_operator("AVERAGE_POOL_2D", [t], [t], options={"stride_w": 1, "stride_h": 1, "filter_width": 2,
                                                         "filter_height": 0})
    b.add_operator("DEPTHWISE_CONV_2D", [t], [t], options={"stride_w": 1, "stride_h": 1, "depth_multiplier": 1,
                                                           "dilation_h_factor": 0})
    # 20: SVDF; 21: TRANSPOSE_CONV; 22: SVDF of rank 0; 23: TRANSPOSE_CONV carrying SVDFOptions (the last
    # table name of the parser's list, past offset 255).
    b.add_operator("SVDF", [t], [t], options={"rank": 3, "fused_activation_function": "RELU",
                                              "asymmetric_quantize_inputs": True})
    b.add_operator("TRANSPOSE_CONV", [t], [t], options={"padding": "VALID", "stride_w": 2, "stride_h": 3,
                                                        "fused_activation_function": "RELU6"})
    b.add_operator("SVDF", [t], [t], options={"rank": 0})
    b.add_operator("TRANSPOSE_CONV", [t], [t], options_table="SVDFOptions", options={"rank": 1})
    # 24: UNIDIRECTIONAL_SEQUENCE_LSTM with every field set; 25: without options (schema defaults).
    b.add_operator("UNIDIRECTIONAL_SEQUENCE_LSTM", [t], [t], options={
        "fused_activation_function": "TANH", "cell_clip": 10.0, "proj_clip": 2.5, "time_major": True,
        "asymmetric_quantize_inputs": True, "diagonal_recurrent_tensors": True})
    b.add_operator("UNIDIRECTIONAL_SEQUENCE_LSTM", [t], [t], no_options=True)
    b.set_inputs([t])
    b.set_outputs([t])
    return b.build()


def two_subgraphs() -> bytes:
    b = ModelBuilder("two subgraphs")
    fc_model(b)
    g = b.add_subgraph()
    u = b.add_tensor("u", "FLOAT32", [1], subgraph=g)
    b.set_inputs([u], subgraph=g)
    b.set_outputs([u], subgraph=g)
    return b.build()


def bad(kind: str) -> bytes:
    """The FC model broken in one way (verifier tests)."""
    b = ModelBuilder(f"bad: {kind}", version=2 if kind == "version" else 3)
    fc_model(b)
    g = b.subgraphs[0]
    if kind == "input_index":
        g.operators[0].inputs[0] = 99
    elif kind == "output_index":
        g.operators[0].outputs[0] = -1
    elif kind == "graph_output":
        g.outputs = [7]
    elif kind == "buffer_size":
        b.buffers[g.tensors[1].buffer] = b.buffers[g.tensors[1].buffer][:-4]
    elif kind == "buffer_index":
        g.tensors[2].buffer = 42
    elif kind == "opcode_index":
        g.operators[0].opcode_index = 5
    elif kind == "negative_shape":
        g.tensors[0].shape = [1, -3]
    elif kind == "string_type":
        g.tensors[0].type = 5
    elif kind == "writes_constant":
        g.operators[0].outputs[0] = 1
    elif kind == "constant_input":  # the weights listed as the graph's input: the application would write them
        g.inputs = [1]
    elif kind == "per_channel_zero_points":
        return per_channel(equal_zero_points=False)
    return b.build()


BAD_KINDS = ["version", "input_index", "output_index", "graph_output", "buffer_size", "buffer_index",
             "opcode_index", "negative_shape", "string_type", "writes_constant", "constant_input",
             "per_channel_zero_points"]


def models() -> dict[str, bytes]:
    result = {
        "chain": chain(),
        "in_place": in_place(),
        "scratch": scratch(),
        "optional_scratch": optional_scratch(),
        "variable": variable(),
        "versions": versions(),
        "unknown_op": unknown_op(),
        "fc_external": external_buffers(),
        "per_channel": per_channel(),
        "options": options(),
        "two_subgraphs": two_subgraphs(),
        "int64_bias_4mod8": int64_bias_4mod8(),
    }
    for kind in BAD_KINDS:
        result[f"bad_{kind}"] = bad(kind)
    fc = ModelBuilder("fully connected")
    fc_model(fc)
    result["fc"] = fc.build()
    return result


def main() -> None:
    for name, data in models().items():
        (HERE / f"{name}.tflite").write_bytes(data)
    # The real hello_world models (TFLM's, via the examples) for end-to-end tests.
    shutil.copyfile(EXAMPLES / "hello_world_float.tflite", HERE / "hello_float_ref.tflite")
    shutil.copyfile(EXAMPLES / "hello_world_int8.tflite", HERE / "hello_int8_ref.tflite")


if __name__ == "__main__":
    main()
