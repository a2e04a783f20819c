#!/usr/bin/env python3
"""Writes a resolver header that registers only the ops a model uses.

Usage: model_ops_to_cc.py MODEL.tflite --out FILE.h

The header defines ``using RunnerOpResolver = MicroMutableOpResolver<N>;`` and
``TfLiteStatus RegisterRunnerOps(RunnerOpResolver&)`` with the same kernels and version ranges as
micro_runtime/all_ops_resolver.h, so firmware built for one model links only that model's kernels
(a Cortex-M3 with 64 KB of flash cannot hold all of them). Ops the runtime does not have are left
out: the interpreter then names them in its "unsupported op" error at AllocateTensors().
"""

from __future__ import annotations

import argparse
import re
import struct
import sys
from pathlib import Path

from flatbuffers import number_types
from flatbuffers.table import Table

RUNTIME = Path(__file__).resolve().parent.parent
ALL_OPS = RUNTIME / "all_ops_resolver.h"
SCHEMA = RUNTIME / "schema" / "schema.fbs"
CUSTOM_CODE = 32


class ModelOpsError(Exception):
    """Unreadable model; the message says what to fix."""


def builtin_codes() -> dict[str, int]:
    """BuiltinOperator name -> value, from the schema the runtime is built with."""
    text = SCHEMA.read_text()
    body = re.search(r"enum BuiltinOperator\s*:\s*\w+\s*\{(.*?)\}", text, re.S)
    if body is None:
        raise ModelOpsError(f"{SCHEMA}: no 'enum BuiltinOperator'")
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"(\w+)\s*=\s*(-?\d+)", body.group(1))}


def all_ops() -> tuple[dict[int, tuple[str, str, int, int]], dict[str, tuple[str, int, int]]]:
    """Registrations of all_ops_resolver.h: builtin code -> (name, register fn, min, max); custom likewise."""
    codes = builtin_codes()
    text = ALL_OPS.read_text()
    builtins = {}
    # The groups' X-macro lists: "X(NAME, min, max)" entries, registered as Register_NAME().
    for m in re.finditer(r"^\s*X\((\w+),\s*(\d+),\s*(\d+)\)", text, re.M):
        builtins[codes[m.group(1)]] = (m.group(1), f"Register_{m.group(1)}", int(m.group(2)), int(m.group(3)))
    customs = {m.group(1): (m.group(2), int(m.group(3)), int(m.group(4)))
               for m in re.finditer(r'AddCustom\("([^"]+)",\s*(\w+)\(\),\s*(\d+),\s*(\d+)\)', text)}
    if not builtins:
        # The table is read from the header's X(NAME, min, max) group list entries.
        raise ModelOpsError(f"{ALL_OPS}: found no 'X(NAME, min, max)' group list entries; "
                            "update model_ops_to_cc.py to the header's new form")
    return builtins, customs


def model_op_codes(data: bytes, source: str) -> list[tuple[int, str | None]]:
    """(effective builtin code, custom name or None) of every OperatorCode in the model."""
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise ModelOpsError(f"{source}: not a TensorFlow Lite model (no 'TFL3' identifier); pass a .tflite file")
    try:
        root = Table(data, int.from_bytes(data[0:4], "little"))
        offset = root.Offset(6)  # Model.operator_codes (field 1)
        if not offset:
            return []
        vector = root.Vector(offset)
        result = []
        for i in range(root.VectorLen(offset)):
            code = Table(data, root.Indirect(vector + 4 * i))
            deprecated = code.Get(number_types.Int8Flags, code.Pos + code.Offset(4)) if code.Offset(4) else 0
            custom = code.String(code.Pos + code.Offset(6)).decode() if code.Offset(6) else None
            builtin = code.Get(number_types.Int32Flags, code.Pos + code.Offset(10)) if code.Offset(10) else 0
            result.append((max(int(deprecated), int(builtin)), custom))
        return result
    except (IndexError, ValueError, TypeError, UnicodeDecodeError, struct.error) as error:
        raise ModelOpsError(f"{source}: corrupt model flatbuffer ({error}); re-export the model") from None


def render(ops: list[tuple[int, str | None]], source: str) -> str:
    builtins, customs = all_ops()
    lines = []
    seen: set[object] = set()
    for code, custom in ops:
        key: object = custom if code == CUSTOM_CODE else code
        if key in seen:
            continue
        seen.add(key)
        if code == CUSTOM_CODE and custom in customs:
            fn, low, high = customs[custom]
            lines.append(f'  TF_LITE_ENSURE_OK(nullptr, r.AddCustom("{custom}", {fn}(), {low}, {high}));')
        elif code != CUSTOM_CODE and code in builtins:
            name, fn, low, high = builtins[code]
            lines.append(f"  TF_LITE_ENSURE_OK(nullptr, r.AddBuiltin(tflite::BuiltinOperator::{name}, {fn}(), "
                         f"{low}, {high}));")
        # else: not in the runtime; AllocateTensors() reports it by name.
    count = max(len(lines), 1)
    return (
        f"// Generated from {source} by micro_runtime/tools/model_ops_to_cc.py; do not edit.\n"
        "// Registers only the kernels this model uses (versions as in all_ops_resolver.h).\n"
        "#ifndef MICRO_RUNTIME_RUNNER_OPS_H_\n#define MICRO_RUNTIME_RUNNER_OPS_H_\n\n"
        '#include "micro_runtime/kernels/micro_ops.h"\n'
        '#include "micro_runtime/micro_op_resolver.h"\n\n'
        f"using RunnerOpResolver = MicroMutableOpResolver<{count}>;\n\n"
        "inline TfLiteStatus RegisterRunnerOps(RunnerOpResolver& r) {\n"
        + "".join(line + "\n" for line in lines)
        + "  (void)r;\n  return kTfLiteOk;\n}\n\n#endif  // MICRO_RUNTIME_RUNNER_OPS_H_\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--allow-bad-model", action="store_true",
                        help="write an empty resolver for an unreadable model, so the runtime's verifier "
                             "reports what is wrong with it (the model runner's build uses this)")
    args = parser.parse_args(argv)
    try:
        if not args.model.is_file():
            raise ModelOpsError(f"{args.model}: no such file; pass the path of an existing .tflite model")
        try:
            ops = model_op_codes(args.model.read_bytes(), str(args.model))
        except ModelOpsError as error:
            if not args.allow_bad_model:
                raise
            print(f"model_ops_to_cc: warning: {error}; registering no ops", file=sys.stderr)
            ops = []
        text = render(ops, args.model.name)
    except ModelOpsError as error:
        print(f"model_ops_to_cc: error: {error}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
