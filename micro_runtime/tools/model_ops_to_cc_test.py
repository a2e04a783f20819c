"""Tests for model_ops_to_cc.py: the generated resolver registers exactly the model's ops."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent
EXAMPLES = TOOLS.parent / "examples"


def _load(name: str):  # the tools folder is not a package; load scripts by path
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses in tflite_builder look their module up
    spec.loader.exec_module(module)
    return module


model_ops = _load("model_ops_to_cc")
tflite_builder = _load("tflite_builder")


def _registered(header: str) -> list[str]:
    return [line.split("(")[2].split(",")[0].strip() for line in header.splitlines() if "r.Add" in line]


def test_micro_speech_gets_its_four_ops(tmp_path: Path) -> None:
    model = EXAMPLES / "micro_speech/models/micro_speech_quantized.tflite"
    out = tmp_path / "runner_ops.h"
    assert model_ops.main([str(model), "--out", str(out)]) == 0
    header = out.read_text()
    assert "MicroMutableOpResolver<4>" in header
    assert _registered(header) == ["tflite::BuiltinOperator::DEPTHWISE_CONV_2D",
                                   "tflite::BuiltinOperator::FULLY_CONNECTED",
                                   "tflite::BuiltinOperator::RESHAPE", "tflite::BuiltinOperator::SOFTMAX"]
    # The version range is all_ops_resolver.h's, whatever it is today.
    first, last = re.search(r"X\(SOFTMAX, (\d+), (\d+)\)", model_ops.ALL_OPS.read_text()).groups()
    assert f"Register_SOFTMAX(), {first}, {last}" in header


def test_custom_and_unknown_ops(tmp_path: Path) -> None:
    b = tflite_builder.ModelBuilder()
    x = b.add_tensor("x", "FLOAT32", [1, 4])
    y = b.add_tensor("y", "FLOAT32", [1, 4])
    z = b.add_tensor("z", "FLOAT32", [1, 4])
    b.add_custom_operator("Atan", [x], [y])
    b.add_operator("FLOOR", [y], [z])  # not a micro_runtime kernel: left to the runtime's error
    b.add_custom_operator("Atan", [z], [y])
    b.set_inputs([x])
    b.set_outputs([y])
    header = model_ops.render(model_ops.model_op_codes(b.build(), "m"), "m.tflite")
    assert header.count("r.Add") == 1
    assert 'r.AddCustom("Atan", Register_ATAN(), 1, 1)' in header
    assert "MicroMutableOpResolver<1>" in header


def test_not_a_model_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"hello world, not a model")
    assert model_ops.main([str(bad), "--out", str(tmp_path / "x.h")]) == 1
    assert "not a TensorFlow Lite model" in capsys.readouterr().err
    assert model_ops.main([str(tmp_path / "missing.tflite"), "--out", str(tmp_path / "x.h")]) == 1
    assert "no such file" in capsys.readouterr().err
