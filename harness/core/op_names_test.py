"""Op names from the schema, and the unresolved-op line they explain."""

from __future__ import annotations

from harness.cli.run_model import RunModelError, parse_runner_log
from harness.core.op_names import builtin_names, explain_unresolved


def test_schema_names() -> None:
    names = builtin_names()
    assert names[0] == "ADD" and names[3] == "CONV_2D" and names[98] == "LEAKY_RELU" and names[9] == "FULLY_CONNECTED"
    assert len(names) > 150


def test_unresolved_builtin_is_named_with_the_fix() -> None:
    line = "Didn't find op for builtin opcode '98' version '1'"
    text = explain_unresolved(line)
    assert "LEAKY_RELU (builtin code 98, version 1)" in text and "does not implement" in text
    assert explain_unresolved("something else") == "something else"
    assert "newer TensorFlow" in explain_unresolved("Didn't find op for builtin opcode '9999' version '1'")


def test_run_model_error_names_the_op() -> None:
    log = ("model_runner: model_bytes=100 arena_bytes=4096 cases=1\n"
           "Didn't find op for builtin opcode '98' version '1'\n"
           "model_runner: error: AllocateTensors failed\n")
    try:
        parse_runner_log(log)
    except RunModelError as error:
        assert "LEAKY_RELU" in str(error) and "AllocateTensors failed" in str(error)
    else:
        raise AssertionError("an error log must raise")
