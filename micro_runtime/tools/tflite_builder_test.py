"""tflite_builder writes models that TFLite's own readers understand.

Checks the bytes three ways: the `tflite` package's generated schema reader
(field by field), TFLM's Python interpreter and LiteRT (numbers).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tflite_builder import BuilderError, ModelBuilder, TensorSpec, single_op_model

tflite = pytest.importorskip("tflite")


def fc_builder(**build: object) -> ModelBuilder:
    b = ModelBuilder("fc")
    x = b.add_tensor("x", "FLOAT32", [1, 3])
    w = b.add_tensor("w", "FLOAT32", [2, 3], data=np.array([[1, 2, 3], [-1, -2, -3]], np.float32))
    bias = b.add_tensor("bias", "FLOAT32", [2], data=np.array([0.5, 10], np.float32))
    y = b.add_tensor("y", "FLOAT32", [1, 2])
    b.add_operator("FULLY_CONNECTED", [x, w, bias], [y], options={"fused_activation_function": "RELU"}, version=1)
    b.set_inputs([x])
    b.set_outputs([y])
    return b


def read(data: bytes):  # type: ignore[no-untyped-def]
    assert data[4:8] == b"TFL3"
    return tflite.Model.GetRootAsModel(data, 0)


def test_fields_read_back_with_tflite_reader() -> None:
    model = read(fc_builder().build())
    assert model.Version() == 3
    assert model.SubgraphsLength() == 1
    g = model.Subgraphs(0)
    assert [g.Tensors(i).Name().decode() for i in range(g.TensorsLength())] == ["x", "w", "bias", "y"]
    assert list(g.Tensors(1).ShapeAsNumpy()) == [2, 3]
    assert g.Tensors(1).Type() == tflite.TensorType.FLOAT32
    w = model.Buffers(g.Tensors(1).Buffer()).DataAsNumpy().view(np.float32)
    assert list(w) == [1, 2, 3, -1, -2, -3]
    assert model.Buffers(g.Tensors(0).Buffer()).DataLength() == 0  # activations use the empty buffer 0
    op = g.Operators(0)
    assert list(op.InputsAsNumpy()) == [0, 1, 2] and list(op.OutputsAsNumpy()) == [3]
    code = model.OperatorCodes(op.OpcodeIndex())
    assert code.BuiltinCode() == tflite.BuiltinOperator.FULLY_CONNECTED
    assert code.DeprecatedBuiltinCode() == tflite.BuiltinOperator.FULLY_CONNECTED
    assert op.BuiltinOptionsType() == tflite.BuiltinOptions.FullyConnectedOptions
    options = tflite.FullyConnectedOptions()
    options.Init(op.BuiltinOptions().Bytes, op.BuiltinOptions().Pos)
    assert options.FusedActivationFunction() == tflite.ActivationFunctionType.RELU
    assert list(g.InputsAsNumpy()) == [0] and list(g.OutputsAsNumpy()) == [3]


def test_buffers_are_16_byte_aligned() -> None:
    data = fc_builder().build()
    model = read(data)
    for i in range(1, model.BuffersLength()):
        # DataAsNumpy views the bytes in place; its offset inside `data` is the alignment.
        offset = model.Buffers(i)._tab.Vector(model.Buffers(i)._tab.Offset(4))
        assert offset % 16 == 0


def test_every_options_table_round_trips() -> None:
    b = ModelBuilder()
    t = b.add_tensor("t", "FLOAT32", [1])
    b.add_operator("CONV_2D", [t], [t], version=3, options={
        "padding": "VALID", "stride_w": 2, "stride_h": 3, "fused_activation_function": "RELU6",
        "dilation_w_factor": 4, "dilation_h_factor": 5})
    b.add_operator("DEPTHWISE_CONV_2D", [t], [t], options={"depth_multiplier": 7, "stride_w": 1, "stride_h": 1})
    b.add_operator("MAX_POOL_2D", [t], [t], options={"filter_width": 3, "filter_height": 2, "stride_w": 1,
                                                     "stride_h": 1})
    b.add_operator("SOFTMAX", [t], [t], options={"beta": 0.25})
    b.add_operator("RESHAPE", [t], [t], options={"new_shape": [1, -1]})
    b.add_operator("ADD", [t], [t], options={"fused_activation_function": "TANH"})
    b.add_operator("MUL", [t], [t], options={"fused_activation_function": "RELU"})
    b.add_operator("QUANTIZE", [t], [t])
    b.add_operator("GELU", [t], [t])  # code > 127: deprecated code must be the placeholder
    model = read(b.build())
    g = model.Subgraphs(0)

    def opts(i: int, cls):  # type: ignore[no-untyped-def]
        table = g.Operators(i).BuiltinOptions()
        o = cls()
        o.Init(table.Bytes, table.Pos)
        return o

    conv = opts(0, tflite.Conv2DOptions)
    assert (conv.Padding(), conv.StrideW(), conv.StrideH(), conv.FusedActivationFunction(),
            conv.DilationWFactor(), conv.DilationHFactor()) == (1, 2, 3, 3, 4, 5)
    assert model.OperatorCodes(g.Operators(0).OpcodeIndex()).Version() == 3
    assert opts(1, tflite.DepthwiseConv2DOptions).DepthMultiplier() == 7
    pool = opts(2, tflite.Pool2DOptions)
    assert (pool.FilterWidth(), pool.FilterHeight()) == (3, 2)
    assert opts(3, tflite.SoftmaxOptions).Beta() == 0.25
    assert list(opts(4, tflite.ReshapeOptions).NewShapeAsNumpy()) == [1, -1]
    assert opts(5, tflite.AddOptions).FusedActivationFunction() == tflite.ActivationFunctionType.TANH
    assert opts(6, tflite.MulOptions).FusedActivationFunction() == tflite.ActivationFunctionType.RELU
    assert g.Operators(7).BuiltinOptionsType() == tflite.BuiltinOptions.QuantizeOptions
    gelu = model.OperatorCodes(g.Operators(8).OpcodeIndex())
    assert (gelu.BuiltinCode(), gelu.DeprecatedBuiltinCode()) == (150, 127)


def test_per_channel_quantization_and_custom_ops() -> None:
    b = ModelBuilder()
    x = b.add_tensor("x", "INT8", [1, 2], scale=0.5, zero_point=-3)
    w = b.add_tensor("w", "INT8", [3, 2], data=np.arange(6, dtype=np.int8).reshape(3, 2),
                     scale=[0.25, 0.5, 0.125], zero_point=[0, 0, 0], quantized_dimension=0)
    y = b.add_tensor("y", "INT8", [1, 3])
    b.add_custom_operator("MyOp", [x, w], [y], custom_options=b"\x01\x02\x03", version=2)
    model = read(b.build())
    g = model.Subgraphs(0)
    q = g.Tensors(1).Quantization()
    assert list(q.ScaleAsNumpy()) == [0.25, 0.5, 0.125]
    assert list(q.ZeroPointAsNumpy()) == [0, 0, 0]
    assert q.QuantizedDimension() == 0
    assert g.Tensors(0).Quantization().ZeroPoint(0) == -3
    code = model.OperatorCodes(0)
    assert (code.BuiltinCode(), code.CustomCode(), code.Version()) == (32, b"MyOp", 2)
    assert bytes(g.Operators(0).CustomOptionsAsNumpy()) == b"\x01\x02\x03"


def test_multiple_subgraphs_and_version() -> None:
    b = ModelBuilder(version=2)
    b.add_subgraph()
    model = read(b.build())
    assert model.Version() == 2 and model.SubgraphsLength() == 2


def test_tflite_micro_runs_the_model() -> None:
    runtime = pytest.importorskip("tflite_micro.python.tflite_micro.runtime")
    interpreter = runtime.Interpreter.from_bytes(fc_builder().build())
    interpreter.set_input(np.array([[1, 2, 3]], np.float32), 0)
    interpreter.invoke()
    np.testing.assert_allclose(interpreter.get_output(0), [[14.5, 0.0]])


def test_litert_reads_external_buffers() -> None:
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    data = fc_builder().build(external_buffers=True)
    model = read(data)
    w = model.Buffers(model.Subgraphs(0).Tensors(1).Buffer())
    assert w.DataLength() == 0 and w.Offset() > 0 and w.Size() == 24
    assert struct.unpack_from("<6f", data, w.Offset()) == (1, 2, 3, -1, -2, -3)
    interpreter = litert.Interpreter(model_content=data)
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], np.array([[1, 2, 3]], np.float32))
    interpreter.invoke()
    np.testing.assert_allclose(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]), [[14.5, 0.0]])


def test_bad_arguments_name_the_fix() -> None:
    b = ModelBuilder()
    with pytest.raises(BuilderError, match="unknown tensor type 'FLOAT99'"):
        b.add_tensor("x", "FLOAT99", [1])
    with pytest.raises(BuilderError, match="unknown builtin op 'NOPE'"):
        b.add_operator("NOPE", [], [])
    with pytest.raises(BuilderError, match="Conv2DOptions has no field"):
        b.add_operator("CONV_2D", [], [], options={"stride": 1})
    with pytest.raises(BuilderError, match="takes no builtin options"):
        b.add_operator("LOGISTIC", [], [], options={"beta": 1})


def test_single_op_model_runs_in_tflite_micro() -> None:
    runtime = pytest.importorskip("tflite_micro.python.tflite_micro.runtime")
    data = single_op_model(
        "FULLY_CONNECTED",
        [TensorSpec("FLOAT32", [1, 2]), TensorSpec("FLOAT32", [3, 2], np.array([[1, 0], [0, 1], [1, 1]], np.float32)),
         None],
        [TensorSpec("FLOAT32", [1, 3])], options={"fused_activation_function": "NONE"})
    g = read(data).Subgraphs(0)
    assert list(g.Operators(0).InputsAsNumpy()) == [0, 1, -1]
    assert list(g.InputsAsNumpy()) == [0] and list(g.OutputsAsNumpy()) == [2]
    interpreter = runtime.Interpreter.from_bytes(data)
    interpreter.set_input(np.array([[2, -5]], np.float32), 0)
    interpreter.invoke()
    np.testing.assert_allclose(interpreter.get_output(0), [[2, -5, -3]])


def test_single_custom_op_model() -> None:
    data = single_op_model("custom:Atan", [TensorSpec("FLOAT32", [4])], [TensorSpec("FLOAT32", [4])],
                           custom_options=b"\x07")
    model = read(data)
    assert model.OperatorCodes(0).CustomCode() == b"Atan"
    assert bytes(model.Subgraphs(0).Operators(0).CustomOptionsAsNumpy()) == b"\x07"
