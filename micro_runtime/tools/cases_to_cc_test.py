"""Tests for cases_to_cc.py: generated C++ compiles and carries the exact tensor bytes and shapes."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

TOOLS = Path(__file__).resolve().parent
REPO = TOOLS.parent.parent


def _load_tool():  # the tools folder is not a package; load the script by path
    spec = importlib.util.spec_from_file_location("cases_to_cc", TOOLS / "cases_to_cc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases_to_cc = _load_tool()

DUMP_MAIN = r"""
#include <cstdio>
#include <cstdint>
#include "t_cases.h"
static void Dump(const char* kind, int c, int i, const MicroCaseTensor& t) {
  printf("%s %d %d type=%d dims=", kind, c, i, static_cast<int>(t.type));
  for (int d = 0; d < t.dims_size; ++d) printf("%d,", static_cast<int>(t.dims[d]));
  printf(" aligned=%d data=", static_cast<int>(reinterpret_cast<uintptr_t>(t.data) % 16 == 0));
  for (uint32_t b = 0; b < t.bytes; ++b) printf("%02x", t.data[b]);
  printf("\n");
}
int main() {
  for (int c = 0; c < g_t_case_count; ++c) {
    for (int i = 0; i < g_t_cases[c].inputs_size; ++i) Dump("in", c, i, g_t_cases[c].inputs[i]);
    for (int i = 0; i < g_t_cases[c].expected_size; ++i) Dump("out", c, i, g_t_cases[c].expected[i]);
  }
  return 0;
}
"""

TYPE_CODES = {"float32": 0, "int32": 2, "uint8": 3, "int64": 4, "bool": 6, "int16": 7, "int8": 9}
NP = {"float32": "<f4", "int32": "<i4", "uint8": "u1", "int64": "<i8", "bool": "?", "int16": "<i2", "int8": "i1"}


def _dump(tmp_path: Path, doc: dict[str, Any], inputs_only: bool = False) -> list[str]:
    src = tmp_path / "cases.json"
    src.write_text(json.dumps(doc))
    cases_to_cc.convert(src, tmp_path, "t", inputs_only)
    (tmp_path / "main.cc").write_text(DUMP_MAIN)
    exe = tmp_path / "dump"
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{REPO}", f"-I{tmp_path}",
                    str(tmp_path / "main.cc"), str(tmp_path / "t_cases.cc"), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines()


def _line(kind: str, c: int, i: int, value: Any, dtype: str) -> str:
    array = np.asarray(value).astype(NP[dtype])
    dims = "".join(f"{d}," for d in array.shape)
    return f"{kind} {c} {i} type={TYPE_CODES[dtype]} dims={dims} aligned=1 data={array.tobytes().hex()}"


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_single_and_multi_tensor_cases(tmp_path: Path) -> None:
    doc = {"cases": [
        {"input": [[0.5, -1.25]], "input_dtype": "float32", "expected": [[3]], "expected_dtype": "int8"},
        {"inputs": [[[-128, 127]], [1, 2, 3]], "input_dtypes": ["int8", "int16"],
         "expected_outputs": [[1.0], [7]], "expected_dtypes": ["float32", "int32"]},
    ]}
    assert _dump(tmp_path, doc) == [
        _line("in", 0, 0, [[0.5, -1.25]], "float32"),
        _line("out", 0, 0, [[3]], "int8"),
        _line("in", 1, 0, [[-128, 127]], "int8"),
        _line("in", 1, 1, [1, 2, 3], "int16"),
        _line("out", 1, 0, [1.0], "float32"),
        _line("out", 1, 1, [7], "int32"),
    ]


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_reference_cases_round_trip(tmp_path: Path) -> None:
    src = REPO / "micro_runtime/examples/hello_world/models/hello_world_float_cases.json"
    doc = json.loads(src.read_text())
    lines = _dump(tmp_path, doc, inputs_only=True)
    assert lines == [_line("in", c, 0, case["input"], "float32") for c, case in enumerate(doc["cases"])]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"cases": []}, "non-empty list"),
        ({"cases": [{"input": [1]}]}, "input_dtype"),
        ({"cases": [{"input": [1], "input_dtype": "int4"}]}, "unknown dtype"),
        ({"cases": [{"input": [300], "input_dtype": "int8"}]}, "outside the int8 range"),
        ({"cases": [{"input": [[1, 2], [3]], "input_dtype": "int8"}]}, "rectangular"),
        ({"cases": [{"expected": [1], "expected_dtype": "int8"}]}, "no 'input'"),
        ({"cases": [{"inputs": [[1]], "input_dtypes": ["int8", "int8"]}]}, "same length"),
    ],
)
def test_bad_cases_are_clear_errors(tmp_path: Path, doc: dict[str, Any], message: str) -> None:
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(doc))
    with pytest.raises(cases_to_cc.CasesError, match=message):
        cases_to_cc.convert(src, tmp_path, "bad")


def test_not_json_and_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert cases_to_cc.main([str(bad), "--out-dir", str(tmp_path)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert cases_to_cc.main([str(tmp_path / "missing.json"), "--out-dir", str(tmp_path)]) == 1
    assert "no such file" in capsys.readouterr().err
