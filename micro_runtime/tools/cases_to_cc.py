#!/usr/bin/env python3
"""Turns a cases.json file into C++ data the model runner and example tests compile in.

Usage: cases_to_cc.py CASES.json --out-dir DIR --name NAME

Writes DIR/NAME_cases.h and DIR/NAME_cases.cc defining ``const MicroCase g_NAME_cases[]`` and
``const int g_NAME_case_count`` (see micro_runtime/model_runner/case_data.h).

cases.json: ``{"cases": [{"input": <nested list>, "input_dtype": "int8", "expected": <nested list>,
"expected_dtype": "int8"}, ...]}``. Models with several inputs/outputs use ``"inputs"`` /
``"input_dtypes"`` and ``"expected_outputs"`` / ``"expected_dtypes"`` (lists, in model order) instead.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

# dtype name -> (TfLiteType enumerator, numpy little-endian dtype)
DTYPES: dict[str, tuple[str, str]] = {
    "float32": ("kTfLiteFloat32", "<f4"),
    "int32": ("kTfLiteInt32", "<i4"),
    "uint8": ("kTfLiteUInt8", "u1"),
    "int64": ("kTfLiteInt64", "<i8"),
    "bool": ("kTfLiteBool", "?"),
    "int16": ("kTfLiteInt16", "<i2"),
    "int8": ("kTfLiteInt8", "i1"),
}


class CasesError(Exception):
    """Bad cases file; the message says what to fix."""


def _ident(name: str) -> str:
    ident = re.sub(r"[^0-9A-Za-z_]", "_", name)
    if not ident:
        raise CasesError("--name is empty; pass a name such as --name hello_world")
    return "m_" + ident if ident[0].isdigit() else ident


def _tensor(value: Any, dtype: str, where: str) -> np.ndarray:
    if dtype not in DTYPES:
        raise CasesError(f"{where}: unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    try:
        array = np.asarray(value, dtype=np.float64 if dtype == "float32" else None)
    except ValueError as error:
        raise CasesError(f"{where}: not a rectangular nested list of numbers ({error})") from None
    if array.dtype == object or not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
        raise CasesError(f"{where}: not a rectangular nested list of numbers")
    if dtype != "float32" and dtype != "bool":
        info = np.iinfo(np.dtype(DTYPES[dtype][1]))
        if array.size and (array.min() < info.min or array.max() > info.max):
            raise CasesError(f"{where}: values outside the {dtype} range [{info.min}, {info.max}]")
    return array.astype(DTYPES[dtype][1])


def _tensors(case: dict[str, Any], single: str, many: str, index: int) -> list[tuple[np.ndarray, str]]:
    where = f"case {index}"
    if many in case:
        values = case[many]
        dtypes = case.get(_dtypes_key(many))
        if not isinstance(values, list) or not isinstance(dtypes, list) or len(values) != len(dtypes):
            raise CasesError(f"{where}: '{many}' needs a list '{_dtypes_key(many)}' of the same length")
        return [(_tensor(v, d, f"{where} {many}[{i}]"), d) for i, (v, d) in enumerate(zip(values, dtypes, strict=True))]
    if single in case:
        dtype = case.get(f"{single}_dtype")
        if dtype is None:
            raise CasesError(f"{where}: '{single}' needs '{single}_dtype' (e.g. \"int8\" or \"float32\")")
        return [(_tensor(case[single], dtype, f"{where} {single}"), dtype)]
    return []


def _dtypes_key(many: str) -> str:
    return {"inputs": "input_dtypes", "expected_outputs": "expected_dtypes"}[many]


def load_cases(path: Path) -> list[dict[str, list[tuple[np.ndarray, str]]]]:
    """Reads and validates a cases file; returns per case its input and expected tensors."""
    if not path.is_file():
        raise CasesError(f"{path}: no such file; pass a cases.json file")
    try:
        doc = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CasesError(f"{path}: not valid JSON ({error})") from None
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list) or not cases:
        raise CasesError(f"{path}: needs a non-empty list \"cases\": [{{\"input\": ..., \"input_dtype\": ...}}]")
    result = []
    for index, case in enumerate(cases):
        if not isinstance(case, dict):
            raise CasesError(f"{path}: case {index} is not an object")
        inputs = _tensors(case, "input", "inputs", index)
        if not inputs:
            raise CasesError(f"{path}: case {index} has no 'input' (or 'inputs')")
        result.append({"inputs": inputs, "expected": _tensors(case, "expected", "expected_outputs", index)})
    return result


def _bytes_literal(data: bytes) -> str:
    if not data:
        return "0"  # zero-length arrays are not C++; keep one unused byte
    rows = [", ".join(f"0x{b:02x}" for b in data[i:i + 16]) for i in range(0, len(data), 16)]
    return "\n    ".join(row + "," for row in rows)


def render(cases: list[dict[str, list[tuple[np.ndarray, str]]]], name: str, source: str = "") -> tuple[str, str]:
    ident = _ident(name)
    guard = f"MICRO_RUNTIME_CASES_{ident.upper()}_CASES_H_"
    origin = f" from {source}" if source else ""
    header = (
        f"// Generated{origin} by micro_runtime/tools/cases_to_cc.py; do not edit.\n"
        f"#ifndef {guard}\n#define {guard}\n\n"
        '#include "micro_runtime/model_runner/case_data.h"\n\n'
        f"extern const MicroCase g_{ident}_cases[];\n"
        f"extern const int g_{ident}_case_count;\n\n"
        f"#endif  // {guard}\n"
    )
    out = [f"// Generated{origin} by micro_runtime/tools/cases_to_cc.py; do not edit.",
           f'#include "{ident}_cases.h"', "", "namespace {", ""]
    case_rows = []
    for c, case in enumerate(cases):
        lists = {}
        for kind in ("inputs", "expected"):
            rows = []
            for t, (array, dtype) in enumerate(case[kind]):
                tag = f"c{c}_{kind}{t}"
                dims = list(array.shape)
                out.append(f"const int32_t {tag}_dims[] = {{{', '.join(str(d) for d in dims) or '0'}}};")
                literal = _bytes_literal(array.tobytes())
                out.append(f"alignas(16) const unsigned char {tag}_data[] = {{\n    {literal}\n}};")
                rows.append(f"{{{DTYPES[dtype][0]}, {len(dims)}, {tag}_dims, {tag}_data, {array.nbytes}u}}")
            if rows:
                out.append(f"const MicroCaseTensor c{c}_{kind}[] = {{\n    " + ",\n    ".join(rows) + "};")
                lists[kind] = (f"c{c}_{kind}", len(rows))
            else:
                lists[kind] = ("nullptr", 0)
            out.append("")
        (inputs, n_inputs), (expected, n_expected) = lists["inputs"], lists["expected"]
        case_rows.append(f"{{{inputs}, {n_inputs}, {expected}, {n_expected}}}")
    out += ["}  // namespace", "",
            f"const MicroCase g_{ident}_cases[] = {{\n    " + ",\n    ".join(case_rows) + "};",
            f"const int g_{ident}_case_count = {len(cases)};", ""]
    return header, "\n".join(out)


def convert(cases_path: Path, out_dir: Path, name: str, inputs_only: bool = False) -> tuple[Path, Path]:
    cases = load_cases(cases_path)
    if inputs_only:  # firmware that only reports outputs need not carry the expectations in flash
        cases = [{"inputs": case["inputs"], "expected": []} for case in cases]
    ident = _ident(name)
    header, cc = render(cases, ident, cases_path.name)
    out_dir.mkdir(parents=True, exist_ok=True)
    h_path, cc_path = out_dir / f"{ident}_cases.h", out_dir / f"{ident}_cases.cc"
    h_path.write_text(header)
    cc_path.write_text(cc)
    return h_path, cc_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", type=Path, help="the cases.json file")
    parser.add_argument("--out-dir", type=Path, required=True, help="folder for NAME_cases.{h,cc}")
    parser.add_argument("--name", help="base name of the symbols (default: the file's stem without _cases)")
    parser.add_argument("--inputs-only", action="store_true", help="leave the expected outputs out")
    args = parser.parse_args(argv)
    name = args.name or re.sub(r"_cases$", "", args.cases.stem)
    try:
        convert(args.cases, args.out_dir, name, args.inputs_only)
    except CasesError as error:
        print(f"cases_to_cc: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
