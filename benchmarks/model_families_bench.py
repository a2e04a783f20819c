#!/usr/bin/env python3
"""Arena of every model family issue 10 names, ours against TFLM, and whether each runs bit-exact on the target.

Usage: python3 benchmarks/model_families_bench.py [--board netduinoplus2] [--models NAME ...]

For each model (TFLM's example models, the MLPerf Tiny models, TFLM's SVDF and LSTM keyword models and the
largest SEANet int16 model of each op family), it prints:

- ours (host): ``arena_used_bytes`` of the host file runner (x86-64: 64-bit pointers, like TFLM's figure);
- TFLM (host): "Arena allocation total" of TFLM's own interpreter (the ``tflite-micro`` wheel's recording
  allocator, ``print_allocations()``) for the same model, on the same 64-bit host;
- ours (board): ``arena_used_bytes`` of the model runner on the emulated Cortex-M board (32-bit), through
  ``harness run-model``, and whether its outputs equal TFLM's (the cases' ``expected`` values): integer
  outputs exactly, float32 within run-model's default tolerance (the largest difference is shown);
- TFLM (board): TFLM's own 32-bit arena (reference kernels, netduinoplus2) where ../shared/models/README.md
  states it (TFLM cannot be built for the board here: its build downloads third-party sources), else "-".

Each line is printed as soon as its model is measured (progress on stderr); a model that fails is reported on
its line and the script goes on, exiting 1 at the end.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tflm_models import TFLM_DIR, family, seanet, seanet_case, write_cases  # noqa: E402

from harness.cli.run_model import RunModelError, host_file_runner, run_host_files, run_model  # noqa: E402

MODELS_DIR = REPO / "benchmarks" / "models"
EXAMPLES = REPO / "micro_runtime" / "examples"

# TFLM's arena on the Cortex-M4F netduinoplus2 (reference kernels), from ../shared/models/README.md.
TFLM_TARGET_ARENA = {"hello_world_int8": 676, "micro_speech": 6788, "kws_ref_model": 22772, "vww_96_int8": 100660,
                     "pretrainedResnet_quant": 54340, "ad01_int8": 2260}

TFLM_ALLOCATIONS = """
import sys
from tflite_micro.python.tflite_micro import runtime
model = open(sys.argv[1], 'rb').read()
it = runtime.Interpreter.from_bytes(model, arena_size=4 << 20)
it.print_allocations()
"""


def model_table() -> dict[str, tuple[Path, Path]]:
    """name -> (model, cases file with TFLM's expected outputs)."""
    table = {
        "hello_world_int8": (EXAMPLES / "hello_world/models/hello_world_int8.tflite",
                             EXAMPLES / "hello_world/models/hello_world_int8_cases.json"),
        "micro_speech": (EXAMPLES / "micro_speech/models/micro_speech_quantized.tflite",
                         EXAMPLES / "micro_speech/models/micro_speech_quantized_cases.json"),
    }
    for name in ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"]:
        table[name] = (MODELS_DIR / f"{name}.tflite", MODELS_DIR / f"{name}_cases.json")
    for name in ["person_detect", "keyword_scrambled", "trained_lstm", "trained_lstm_int8", "micro_speech_lstm"]:
        table[name] = (TFLM_DIR / f"{name}.tflite", TFLM_DIR / f"{name}_cases.json")
    return table


def seanet_models(workdir: Path) -> dict[str, tuple[Path, Path]]:
    """The largest SEANet model of each op family, with its input and golden output as a cases file."""
    families: dict[str, list[str]] = {}
    for stem in seanet():
        families.setdefault(family(stem), []).append(stem)
    table = {}
    for _family, stems in sorted(families.items()):
        stem = max(stems, key=lambda s: (seanet()[s]["model"].size, s))
        model, inputs, golden = seanet_case(stem, workdir)
        table[f"seanet_{stem}"] = (model, write_cases(inputs, golden, model, workdir / f"seanet_{stem}_cases.json"))
    return table


def first_case_inputs(cases: Path) -> list[np.ndarray]:
    case = json.loads(cases.read_text())["cases"][0]
    if "inputs" in case:
        return [np.asarray(a, dtype=d) for a, d in zip(case["inputs"], case["input_dtypes"], strict=True)]
    return [np.asarray(case["input"], dtype=case["input_dtype"])]


def tflm_host_arena(model: Path, workdir: Path) -> int | None:
    script = workdir / "tflm_allocations.py"
    script.write_text(TFLM_ALLOCATIONS)
    proc = subprocess.run([sys.executable, str(script), str(model)], capture_output=True, text=True, check=False)
    match = re.search(r"Arena allocation total (\d+) bytes", proc.stdout + proc.stderr)
    return int(match.group(1)) if match else None


def _fmt(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _ratio(ours: int | None, theirs: int | None) -> str:
    return "-" if not ours or not theirs else f"{ours / theirs:.2f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="netduinoplus2")
    parser.add_argument("--models", nargs="*", help="names to measure (default: all)")
    args = parser.parse_args(argv)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        table = {**model_table(), **seanet_models(workdir)}
        names = args.models or list(table)
        unknown = [n for n in names if n not in table]
        if unknown:
            parser.error(f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(table)}")
        print("building the host file runner", file=sys.stderr)
        host_file_runner(build=True)
        print(f"| model | ours (host) | TFLM (host) | ratio | ours ({args.board}) | TFLM ({args.board}) | ratio | "
              f"outputs vs TFLM on {args.board} |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for name in names:
            model, cases = table[name]
            started = time.monotonic()
            print(f"{name}: measuring (host, TFLM, {args.board})", file=sys.stderr)
            try:
                ours_host = run_host_files(model, [first_case_inputs(cases)], workdir / name,
                                           timeout_s=600)["arena_used_bytes"]
                tflm_host = tflm_host_arena(model, workdir)
                result = run_model(model, args.board, cases, timeout_s=900)
            except (RunModelError, OSError, subprocess.SubprocessError) as error:
                print(f"| {name} | error: {str(error).splitlines()[-1]} |||||||")
                failed = True
                continue
            passed = result.get("passed") is True
            worst = max((c.get("max_abs_error") or 0) for c in result["cases"])
            # Integer outputs must be exact (tolerance 0); float32 ones within run-model's default 1e-5 relative
            # (newlib's expf/tanhf on the board differ from glibc's in the last bits).
            exact = "NO" if not passed else ("yes" if worst == 0 else f"within {worst:.1e}")
            failed = failed or not passed
            ours_board = result["arena_used_bytes"]
            tflm_board = TFLM_TARGET_ARENA.get(name) if args.board == "netduinoplus2" else None
            print(f"| {name} | {_fmt(ours_host)} | {_fmt(tflm_host)} | {_ratio(ours_host, tflm_host)} | "
                  f"{_fmt(ours_board)} | {_fmt(tflm_board)} | {_ratio(ours_board, tflm_board)} | "
                  f"{exact} ({len(result['cases'])} cases) |", flush=True)
            print(f"{name}: done in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
