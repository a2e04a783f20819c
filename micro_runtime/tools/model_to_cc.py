#!/usr/bin/env python3
"""Turns a .tflite file into C++ source so firmware can run it straight from flash.

Usage: model_to_cc.py MODEL.tflite --out-dir DIR --name NAME

Writes DIR/NAME_model_data.h and DIR/NAME_model_data.cc defining
``alignas(16) const unsigned char g_NAME_model_data[]`` and
``const unsigned int g_NAME_model_data_size``. The 16-byte alignment lets the
runtime read tensor buffers in place without copying.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TFLITE_IDENTIFIER = b"TFL3"
BYTES_PER_LINE = 12


class ModelToCcError(Exception):
    """Bad input; the message says what to fix."""


def c_identifier(name: str) -> str:
    """Maps any file/base name to a valid C identifier (e.g. 'hello-world 2' -> 'hello_world_2')."""
    ident = re.sub(r"[^0-9A-Za-z_]", "_", name)
    if not ident:
        raise ModelToCcError("--name is empty; pass a name such as --name hello_world")
    if ident[0].isdigit():
        ident = "m_" + ident
    return ident


def check_tflite(data: bytes, source: str) -> None:
    if len(data) < 8:
        raise ModelToCcError(
            f"{source}: {len(data)} bytes is too short for a .tflite flatbuffer; pass a model saved by the "
            "TensorFlow Lite converter"
        )
    if data[4:8] != TFLITE_IDENTIFIER:
        raise ModelToCcError(
            f"{source}: not a TensorFlow Lite model (file identifier at bytes 4..8 is {data[4:8]!r}, "
            f"expected {TFLITE_IDENTIFIER!r}); pass a .tflite file produced by the TFLite converter"
        )


def render(data: bytes, name: str, source: str = "") -> tuple[str, str]:
    """Returns (header text, source text) for the model bytes."""
    ident = c_identifier(name)
    guard = f"MICRO_RUNTIME_MODEL_{ident.upper()}_MODEL_DATA_H_"
    origin = f" from {source}" if source else ""
    header = (
        f"// Generated{origin} by micro_runtime/tools/model_to_cc.py; do not edit.\n"
        f"#ifndef {guard}\n"
        f"#define {guard}\n\n"
        f"extern const unsigned char g_{ident}_model_data[];\n"
        f"extern const unsigned int g_{ident}_model_data_size;\n\n"
        f"#endif  // {guard}\n"
    )
    lines = []
    for start in range(0, len(data), BYTES_PER_LINE):
        chunk = data[start:start + BYTES_PER_LINE]
        lines.append("  " + ", ".join(f"0x{b:02x}" for b in chunk) + ",")
    body = "\n".join(lines)
    cc = (
        f"// Generated{origin} by micro_runtime/tools/model_to_cc.py; do not edit.\n"
        f'#include "{ident}_model_data.h"\n\n'
        f"alignas(16) const unsigned char g_{ident}_model_data[] = {{\n{body}\n}};\n"
        f"const unsigned int g_{ident}_model_data_size = {len(data)};\n"
    )
    return header, cc


def convert(model: Path, out_dir: Path, name: str) -> tuple[Path, Path]:
    if not model.is_file():
        raise ModelToCcError(f"{model}: no such file; pass the path of an existing .tflite model")
    data = model.read_bytes()
    check_tflite(data, str(model))
    ident = c_identifier(name)
    header, cc = render(data, ident, model.name)
    out_dir.mkdir(parents=True, exist_ok=True)
    h_path = out_dir / f"{ident}_model_data.h"
    cc_path = out_dir / f"{ident}_model_data.cc"
    # Write the header first so a build that sees the .cc also sees its header.
    h_path.write_text(header)
    cc_path.write_text(cc)
    return h_path, cc_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="the .tflite file")
    parser.add_argument("--out-dir", type=Path, required=True, help="folder for NAME_model_data.{h,cc}")
    parser.add_argument("--name", help="base name of the symbols (default: the model file's stem)")
    args = parser.parse_args(argv)
    try:
        convert(args.model, args.out_dir, args.name or args.model.stem)
    except ModelToCcError as error:
        print(f"model_to_cc: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
