#!/usr/bin/env python3
"""Measures micro_runtime against TFLM on the reference models and prints a markdown table.

For each model (the examples' reference models):
  * instructions per Invoke() on the host: callgrind with --toggle-collect on the interpreter's Invoke,
    ours in the host file runner, TFLM's in its Python interpreter (tflite-micro package, in-process),
    same input (the model's first reference case), exactly one Invoke each;
  * arena bytes used: ours as the runtime reports it (host, 64-bit, and Cortex-M3 under QEMU when
    available), TFLM's from its recording allocator (host);
  * firmware flash / static RAM of the model runner built for a Cortex-M3 board (bluepill), and the
    flash of the interpreter core in it (every linked runtime object that is not a kernel, from the
    link map).

Usage: python benchmarks/runtime_bench.py [--board bluepill] [--top 5] [--no-qemu]
Needs valgrind, the tflite-micro package, arm-none-eabi-gcc (+ qemu-system-arm for the M3 arena).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from harness.board.boards import available_boards, load_board  # noqa: E402
from harness.build.driver import BuildError  # noqa: E402
from harness.build.model_runner import build_runner, elf_sizes, host_file_runner  # noqa: E402
from harness.cli.run_model import RunModelError, run_model  # noqa: E402

EXAMPLES = REPO / "micro_runtime" / "examples"
MODELS = {
    "hello_world_float": EXAMPLES / "hello_world/models/hello_world_float.tflite",
    "hello_world_int8": EXAMPLES / "hello_world/models/hello_world_int8.tflite",
    "micro_speech": EXAMPLES / "micro_speech/models/micro_speech_quantized.tflite",
}
TFLM_INVOKE = "tflite::micro::MicroInterpreter::Invoke()"
KERNEL_DIR = REPO / "micro_runtime" / "kernels"
# The model verifier: its semantic checks and the flatbuffers walk (model_structure.cc, split off in issue 20).
VERIFIER_OBJECTS = ("model_verifier.cc", "model_structure.cc")

TFLM_SCRIPT = """
import sys, numpy as np
from tflite_micro.python.tflite_micro import runtime
model = open(sys.argv[1], 'rb').read()
data = np.load(sys.argv[2])
it = runtime.Interpreter.from_bytes(model)
it.set_input(data, 0)
it.invoke()
if len(sys.argv) > 3:
    it.print_allocations()
"""


@dataclass
class Row:
    name: str
    ours_instructions: int | None = None
    tflm_instructions: int | None = None
    ours_arena_host: int | None = None
    ours_arena_m3: int | None = None
    tflm_arena: int | None = None
    flash: int | None = None
    ram: int | None = None
    core_flash: int | None = None
    core_without_verifier: int | None = None  # the scope of TFLM's figure: TFLM does not verify models
    top_functions: list[tuple[int, str]] = field(default_factory=list)
    core_objects: dict[str, int] = field(default_factory=dict)
    firmware_board: str = ""
    notes: list[str] = field(default_factory=list)


def first_input(model: Path) -> np.ndarray:
    case = json.loads(model.with_name(model.stem + "_cases.json").read_text())["cases"][0]
    return np.asarray(case["input"], dtype=case["input_dtype"])


def _callgrind(command: list[str], toggle: str, out_file: Path) -> int:
    proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                           f"--toggle-collect={toggle}", *command], capture_output=True, text=True)
    match = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode != 0 or not match:
        raise RuntimeError(f"callgrind failed ({' '.join(command)}):\n{proc.stderr[-2000:]}")
    return int(match.group(1))


def _top_functions(out_file: Path, count: int) -> list[tuple[int, str]]:
    proc = subprocess.run(["callgrind_annotate", "--inclusive=no", str(out_file)], capture_output=True, text=True)
    rows = []
    for line in proc.stdout.splitlines():
        match = re.match(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+([^\s:]*):(.+?)(?: \[.*\])?$", line)
        if match and "PROGRAM TOTALS" not in line:
            where = Path(match.group(2)).name
            rows.append((int(match.group(1).replace(",", "")), f"{match.group(3).strip()} ({where})"))
    return rows[:count]


def our_invoke_symbol(binary: Path) -> str:
    proc = subprocess.run(["nm", "-C", str(binary)], capture_output=True, text=True, check=True)
    for line in proc.stdout.splitlines():
        name = line.split(" ", 2)[-1]
        if re.search(r"(^|::)MicroInterpreter::Invoke\(\)$", name):
            return name
    raise RuntimeError(f"no MicroInterpreter::Invoke() in {binary}")


def measure_ours(model: Path, data: np.ndarray, workdir: Path, top: int, row: Row) -> None:
    binary = host_file_runner(build=True)
    symbol = our_invoke_symbol(binary)
    input_file = workdir / f"{model.stem}.bin"
    input_file.write_bytes(np.ascontiguousarray(data).tobytes())
    out_file = workdir / f"ours_{model.stem}.callgrind"
    row.ours_instructions = _callgrind([str(binary), str(model), str(input_file)], symbol, out_file)
    row.top_functions = _top_functions(out_file, top)
    proc = subprocess.run([str(binary), str(model), str(input_file)], capture_output=True, text=True, check=True)
    match = re.search(r"arena_used_bytes=(\d+)", proc.stdout)
    row.ours_arena_host = int(match.group(1)) if match else None


def measure_tflm(model: Path, data: np.ndarray, workdir: Path, row: Row) -> None:
    script = workdir / "tflm_once.py"
    script.write_text(TFLM_SCRIPT)
    data_file = workdir / f"{model.stem}.npy"
    np.save(data_file, data)
    python = sys.executable  # the real interpreter, not a shim script, so callgrind sees the library
    row.tflm_instructions = _callgrind([python, str(script), str(model), str(data_file)], TFLM_INVOKE,
                                       workdir / f"tflm_{model.stem}.callgrind")
    proc = subprocess.run([python, str(script), str(model), str(data_file), "allocations"], capture_output=True,
                          text=True, check=True)
    match = re.search(r"Arena allocation total (\d+) bytes", proc.stdout + proc.stderr)
    row.tflm_arena = int(match.group(1)) if match else None


def core_flash_from_map(map_file: Path) -> dict[str, int]:
    """Flash bytes per runtime object that is not a kernel (.text/.rodata/.data input sections in the map)."""
    kernels = {p.name + ".o" for p in KERNEL_DIR.glob("*.cc")}
    text = map_file.read_text(errors="replace")
    start = text.find("Linker script and memory map")
    body = text[start:] if start >= 0 else text
    # A long section name sits on its own line, with address/size/object on the next one.
    body = re.sub(r"\n\s(\.\S+)\n\s+(0x)", r"\n \1 \2", body)
    sizes: dict[str, int] = {}
    pattern = r"^\s(\.(?:text|rodata|data)\S*)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+\S*libmicro_runtime\.a\((\S+)\)"
    for match in re.finditer(pattern, body, re.M):
        if match.group(3) not in kernels:
            name = match.group(3).removesuffix(".o")
            sizes[name] = sizes.get(name, 0) + int(match.group(2), 16)
    return sizes


def measure_firmware(model: Path, board_name: str, use_qemu: bool, row: Row, fallback: str | None = None) -> None:
    board = load_board(board_name)
    cases = model.with_name(model.stem + "_cases.json")
    try:
        elf = build_runner(model, board, cases)
    except (RunModelError, BuildError) as error:
        row.notes.append(f"{board_name}: {str(error).splitlines()[0]}")
        if fallback and fallback in available_boards():
            row.notes.append(f"firmware figures of this row are for {fallback} instead")
            measure_firmware(model, fallback, use_qemu, row)
        return
    arena = row.ours_arena_host
    if use_qemu and shutil.which("qemu-system-arm"):
        try:
            row.ours_arena_m3 = run_model(model, board_name, cases, backend="qemu", timeout_s=300)["arena_used_bytes"]
            arena = row.ours_arena_m3
        except (RunModelError, BuildError) as error:
            row.notes.append(f"{board_name} run: {str(error).splitlines()[0]}")
    if arena:
        # RAM as an application would have it: the arena sized to what the model needs, not the
        # runner's default of "all free RAM".
        elf = build_runner(model, board, cases, arena_size=(arena + 15) // 16 * 16)
    row.flash, row.ram = elf_sizes(elf, board)
    # Link maps of LTO builds name partitions, not objects: per-object figures come from an LTO=0 build
    # of the same runner (the board default may use LTO; then the core is a bit smaller than shown).
    try:
        no_lto = build_runner(model, board, cases, arena_size=(arena + 15) // 16 * 16 if arena else None,
                              make_vars={"LTO": "0"})
    except (RunModelError, BuildError) as error:
        # The core is the same in every runner: the other rows give it.
        row.notes.append(f"core flash: the LTO=0 build does not fit {board_name} ({str(error).splitlines()[0]})")
        row.firmware_board = board_name
        return
    row.core_objects = core_flash_from_map(Path(str(no_lto) + ".map"))
    row.core_flash = sum(row.core_objects.values())
    row.core_without_verifier = row.core_flash - sum(row.core_objects.get(name, 0) for name in VERIFIER_OBJECTS)
    row.firmware_board = board_name


def _fmt(value: int | None) -> str:
    return "n/a" if value is None else f"{value:,}"


def _ratio(ours: int | None, theirs: int | None) -> str:
    return "n/a" if not ours or not theirs else f"{ours / theirs:.2f}x"


def render(rows: list[Row]) -> str:
    lines = [
        "| model | instr/Invoke ours | TFLM | ratio | arena ours (host) | arena ours (MCU) | TFLM arena (host) | "
        "ratio (host) | firmware board | flash | RAM | core flash | core without verifier |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r.name} | {_fmt(r.ours_instructions)} | {_fmt(r.tflm_instructions)} | "
                     f"{_ratio(r.ours_instructions, r.tflm_instructions)} | {_fmt(r.ours_arena_host)} | "
                     f"{_fmt(r.ours_arena_m3)} | {_fmt(r.tflm_arena)} | {_ratio(r.ours_arena_host, r.tflm_arena)} | "
                     f"{r.firmware_board or 'n/a'} | {_fmt(r.flash)} | {_fmt(r.ram)} | {_fmt(r.core_flash)} | "
                     f"{_fmt(r.core_without_verifier)} |")
    for r in rows:
        if r.core_objects:
            parts = ", ".join(f"{name} {size:,}" for name, size in sorted(r.core_objects.items(), key=lambda i: -i[1]))
            lines += ["", f"Core flash by object, {r.name} ({r.firmware_board}): {parts}"]
        if r.top_functions:
            lines += ["", f"Top functions inside our Invoke, {r.name} (instructions, self):", ""]
            lines += [f"- {count:,} `{name}`" for count, name in r.top_functions]
        for note in r.notes:
            lines.append(f"\nNote ({r.name}): {note}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="bluepill", help="Cortex-M3 board for the firmware figures")
    parser.add_argument("--top", type=int, default=5, help="how many of our hottest functions to list")
    parser.add_argument("--fallback-board", default="netduinoplus2",
                        help="board for a model that does not fit --board (e.g. micro_speech on bluepill)")
    parser.add_argument("--no-qemu", action="store_true", help="skip the arena measurement under QEMU")
    parser.add_argument("--models", nargs="*", default=list(MODELS), choices=list(MODELS))
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("error: valgrind not found; install it: apt-get install valgrind", file=sys.stderr)
        return 1
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for name in args.models:
            model = MODELS[name]
            row = Row(name)
            data = first_input(model)
            measure_ours(model, data, workdir, args.top, row)
            measure_tflm(model, data, workdir, row)
            if args.board in available_boards():
                measure_firmware(model, args.board, not args.no_qemu, row, args.fallback_board)
            else:
                row.notes.append(f"board {args.board} not found; firmware figures skipped")
            rows.append(row)
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
