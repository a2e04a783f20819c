"""Runs one .tflite model on a board through the generic model runner and returns its outputs.

``run_model(model, board, cases)`` builds ``micro_runtime/model_runner`` for the board with the model
and the cases' inputs compiled in, runs it on the chosen backend, and decodes the exact output bytes the
firmware printed (line format: docs/model_runner.md). Any failure -- bad model, unsupported op, arena too
small, does not fit the board, a crash, emulator trouble -- raises :class:`RunModelError` with the runtime's
own message and what to do about it. "Does not fit" comes only from its evidence: the linker's region
overflow (the build) or the runtime's "arena too small" with the board's default arena; a crash is
reported as one, decoded (never as an arena problem because the runner's first line names arena_bytes=).

The command is ``harness run-model`` (``harness.cli.main``); ``python -m harness.cli.run_model --app ELF
--board B`` runs an application (the Makefile's ``run_example_*``). The runner is built by the build stage
(``harness.build.model_runner``: its cache, lock and progress) and run through the one run session, on the
backend, ``--icount`` or hardware map the caller chose, like every other binary.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np

from harness import REPO_ROOT
from harness.board.boards import Board, BoardError, load_board
from harness.build.driver import BuildError
from harness.build.model_runner import elf_sizes, host_file_runner, runner_build
from harness.core.argtypes import DEFAULT_FLOAT_TOLERANCE
from harness.core.crash import HARDFAULT_PREFIX
from harness.formats.model_runner import DONE_MARKER, ERROR_PREFIX  # the format owns its lines
from harness.runners.base import Runner

RUNTIME = REPO_ROOT / "micro_runtime"

DTYPES = {"float32": "<f4", "int32": "<i4", "uint8": "u1", "int64": "<i8", "bool": "?", "int16": "<i2", "int8": "i1"}

_HEADER = re.compile(r"^model_runner: model_bytes=(\d+) arena_bytes=(\d+) cases=(\d+)$")
_OUTPUT = re.compile(r"^case (\d+) output (\d+) type=(\w+) shape=([\d,]*) data=([0-9a-f]*)$")
_TICKS = re.compile(r"^case (\d+) invoke_ticks=(\d+) ticks_per_second=(\d+)$")
_ARENA = re.compile(r"^arena_used_bytes=(\d+)$")
# Older runners ended their error with a pointer to lines that a CLI user never saw "above".
_SEE_ABOVE = re.compile(r"\s*\(see (?:the messages )?above\)$")
_OVERFLOW = re.compile(r"region [`']?(\w+)'? overflowed by (\d+) bytes|will not fit in region [`']?(\w+)'?")


# The interpreter's own verdict on a short arena (micro_interpreter.cc, ReportArenaTooSmall).
_ARENA_TOO_SMALL = re.compile(r"^arena too small: this model needs ", re.MULTILINE)


class RunModelError(Exception):
    """The model could not be run; the message carries the runtime's reason and the fix."""


def _crash_message(run: Any, board: str, backend: str, text: str) -> str | None:
    """What to say when the runner crashed (a HardFault line, a host signal, the backend's crash end), else None.

    The HardFault line is decoded by the harness's crash decoder (``harness.core.crash``: the fault bits in
    words, the registers, PC/LR symbolized from the runner's ELF), never read as a runtime message.
    """
    from harness.outcome import Outcome

    if run.outcome != Outcome.CRASHED:
        return None
    signal = run.exit_code is not None and run.exit_code < 0
    if run.crash is None and not signal and run.end_reason != "crash":
        return None  # ended early without crashing: parse_runner_log says where it stopped
    tail = "\n".join(line for line in text.splitlines()[-10:] if not line.startswith(HARDFAULT_PREFIX))
    detail = run.crash.render() if run.crash is not None else run.summary
    return f"the model runner crashed on {board} ({backend}): {detail}\nlast output:\n{tail or '(no output)'}"


def _model_check(model: Path) -> None:
    if not model.is_file():
        raise RunModelError(f"model {model} does not exist; pass the path of a .tflite file")
    head = model.read_bytes()[:8]
    if len(head) < 8 or head[4:8] != b"TFL3":
        raise RunModelError(f"{model} is not a TensorFlow Lite model (no 'TFL3' identifier); pass a .tflite file")


def parse_runner_log(text: str) -> dict[str, Any]:
    """Decodes model runner output (firmware or host file runner) into cases, outputs and figures.

    Raises RunModelError when the runner reported an error or did not finish.
    """
    lines = [line.rstrip("\r") for line in text.splitlines()]
    result: dict[str, Any] = {"cases": [], "arena_used_bytes": None, "model_bytes": None, "arena_bytes": None}
    cases: dict[int, dict[str, Any]] = {}
    messages: list[str] = []  # runtime lines that are not part of the protocol: the runtime's reasons
    done = False
    for line in lines:
        if match := _OUTPUT.match(line):
            case, index, dtype, shape_text, data = match.groups()
            if dtype not in DTYPES:
                raise RunModelError(f"model output {index} has type {dtype}, which run_model cannot decode")
            shape = [int(d) for d in shape_text.split(",")] if shape_text else []
            array = np.frombuffer(bytes.fromhex(data), dtype=DTYPES[dtype]).reshape(shape)
            entry = cases.setdefault(int(case), {"outputs": []})
            entry["outputs"].append({"data": array.tolist(), "dtype": dtype, "shape": shape})
        elif match := _TICKS.match(line):
            entry = cases.setdefault(int(match.group(1)), {"outputs": []})
            entry["invoke_ticks"] = int(match.group(2))
            entry["ticks_per_second"] = int(match.group(3))
        elif match := _ARENA.match(line):
            result["arena_used_bytes"] = int(match.group(1))
        elif match := _HEADER.match(line):
            result["model_bytes"], result["arena_bytes"] = int(match.group(1)), int(match.group(2))
        elif line.startswith(ERROR_PREFIX):
            # The runtime's own lines first, in the order it printed them, then the runner's verdict:
            # the runtime's "see the error above" then points at a line above it in the message.
            detail = _SEE_ABOVE.sub("", line[len(ERROR_PREFIX):])
            from harness.core.op_names import explain_unresolved

            raise RunModelError("\n".join([*(explain_unresolved(m) for m in messages[-8:]), detail]))
        elif line == DONE_MARKER:
            done = True
        elif line.strip():
            messages.append(line)
    if not done:
        tail = "\n".join(lines[-10:]) or "(no output)"
        raise RunModelError(f"the model runner stopped before '{DONE_MARKER}'; last output:\n{tail}")
    for index in sorted(cases):
        entry = cases[index]
        outputs = entry["outputs"]
        # Single-output models are the common case: "output"/"output_dtype" mirror outputs[0].
        entry["output"] = outputs[0]["data"] if outputs else None
        entry["output_dtype"] = outputs[0]["dtype"] if outputs else None
        result["cases"].append(entry)
    return result


def _expectations(case: dict[str, Any]) -> list[tuple[Any, str | None]] | None:
    """The (array, dtype) each output of a case should be, or None when the case states none."""
    if "expected_outputs" in case:
        dtypes = case.get("expected_dtypes") or [None] * len(case["expected_outputs"])
        return list(zip(case["expected_outputs"], dtypes, strict=False))
    if "expected" in case:
        return [(case["expected"], case.get("expected_dtype"))]
    return None


def compare_outputs(result_cases: list[dict[str, Any]], cases_file: Path, tolerance: int = 0,
                    float_tolerance: float = DEFAULT_FLOAT_TOLERANCE) -> dict[str, Any] | None:
    """Checks each case's outputs against the cases file's ``expected`` values; marks ``result_cases``.

    Integer and bool outputs must be within ``tolerance`` (in LSBs, default exact); float32 outputs
    within ``float_tolerance * max(1, |expected|)``. Each compared case gets ``max_abs_error`` and
    ``passed`` (and ``mismatch`` when dtype or shape differ); returns the summary
    ({"passed", "compared_cases", "failed_cases"}) or None when no case states expected outputs.
    """
    try:
        wanted = json.loads(Path(cases_file).read_text()).get("cases", [])
    except (OSError, ValueError, AttributeError) as error:
        raise RunModelError(f"cannot read the expected outputs of {cases_file}: {error}") from None
    compared, failed = 0, []
    for index, (got, want) in enumerate(zip(result_cases, wanted, strict=False)):
        expectations = _expectations(want) if isinstance(want, dict) else None
        if expectations is None:
            continue
        compared += 1
        worst, problems = 0.0, []
        outputs = got.get("outputs", [])
        if len(expectations) != len(outputs):
            problems.append(f"{len(expectations)} expected outputs, the model has {len(outputs)}")
        for number, ((data, dtype), output) in enumerate(zip(expectations, outputs, strict=False)):
            if dtype is not None and dtype != output["dtype"]:
                problems.append(f"output {number} is {output['dtype']}, expected {dtype}")
                continue
            ours = np.asarray(output["data"], dtype=np.float64)
            ref = np.asarray(data, dtype=np.float64)
            if ours.size != ref.size:
                problems.append(f"output {number} has {ours.size} values, expected {ref.size}")
                continue
            ours, ref = ours.reshape(-1), ref.reshape(-1)
            deviation = np.abs(ours - ref)
            worst = max(worst, float(deviation.max()) if deviation.size else 0.0)
            if output["dtype"] == "float32":
                bad = deviation > float_tolerance * np.maximum(1.0, np.abs(ref))
                if np.isnan(ours).any() or np.isnan(ref).any():
                    bad |= np.isnan(ours) != np.isnan(ref)
            else:
                bad = deviation > tolerance
            if bad.any():
                first = int(np.argmax(bad))
                at = f" (first at flat index {first})" if bad.size > 1 else ""
                problems.append(f"output {number}: {int(bad.sum())} of {bad.size} values differ{at}: "
                                f"{ours[first]:g} vs expected {ref[first]:g}")
        got["max_abs_error"] = worst
        got["passed"] = not problems
        if problems:
            got["mismatch"] = "; ".join(problems)
            failed.append(index)
    if compared == 0:
        return None
    return {"passed": not failed, "compared_cases": compared, "failed_cases": failed}


def _resolve(board: Board, backend: str | None, icount: int | None = None,
             hardware_map: Path | None = None) -> tuple[Runner, str]:
    """(runner, backend label) through the one resolver; RunModelError for a bad backend."""
    from harness.runners import ResolveError
    from harness.session import resolve_runner

    try:
        resolved = resolve_runner(board, backend, icount, hardware_map)
    except ResolveError as error:
        raise RunModelError(str(error)) from None
    return resolved.runner, resolved.label


def run_model(model: Path, board: str, cases: Path, backend: str | None = None, timeout_s: float = 60,
              arena_size: int | None = None, progress: Callable[[str], None] | None = None,
              tolerance: int = 0, float_tolerance: float = DEFAULT_FLOAT_TOLERANCE, icount: int | None = None,
              hardware_map: Path | None = None) -> dict[str, Any]:
    """Builds, runs and decodes; see the module docstring and docs/model_runner.md for the result's shape.

    progress: called with one-line status messages (build started/finished, running on which backend).
    icount: QEMU's -icount shift (deterministic virtual time); hardware_map: run on a free board of the map.
    tolerance / float_tolerance: how far outputs may be from the cases file's ``expected`` values
    (compare_outputs); the result's ``passed`` says whether every compared case was within them.
    """
    say = progress or (lambda _message: None)
    model, cases = Path(model), Path(cases)
    _model_check(model)
    if not cases.is_file():
        raise RunModelError(f"cases file {cases} does not exist; pass a cases.json (format: docs/model_runner.md)")
    try:
        board_info = load_board(board)
    except BoardError as error:
        raise RunModelError(str(error)) from None
    from harness.outcome import Outcome
    from harness.session import RunOptions, run_binary

    runner, backend_name = _resolve(board_info, backend, icount, hardware_map)
    unavailable = runner.unavailable_reason(board_info)
    if unavailable:
        raise RunModelError(f"backend '{backend_name}' cannot run board '{board}': {unavailable}")
    arena = "" if arena_size is None else f", arena {arena_size} bytes"
    say(f"building the model runner for {board_info.name} ({model.name}{arena}); a first build takes a while")
    started = time.monotonic()
    with ExitStack() as held:  # the runner stays ours (never pruned) until it has run
        try:
            elf = held.enter_context(runner_build(model, board_info, cases, arena_size, progress=progress))
        except BuildError as error:
            raise RunModelError(str(error)) from None
        say(f"build finished in {time.monotonic() - started:.1f} s")
        try:
            flash_bytes, ram_bytes = elf_sizes(elf, board_info)
        except BuildError as error:
            raise RunModelError(str(error)) from None
        say(f"running on {backend_name} ({board_info.name}, timeout {timeout_s:g} s)")
        # The one run session (the model runner's own format; no per-case limits: its cases are model inputs).
        run = run_binary(board_info, elf, RunOptions(runner=runner, backend=backend_name, timeout_s=timeout_s,
                                                     fmt="model_runner", case_limits=False))
    if run.outcome == Outcome.UNAVAILABLE:
        raise RunModelError(f"backend '{backend_name}' cannot run board '{board}': {run.summary}")
    if run.infra_error:
        raise RunModelError(f"{backend_name}: {run.infra_error}")
    text = run.log.decode("utf-8", errors="replace")
    if run.timed_out:
        tail = "\n".join(text.splitlines()[-10:])
        raise RunModelError(f"the model runner timed out after {timeout_s} s on {backend_name}; last output:\n{tail}")
    crash = _crash_message(run, board_info.name, backend_name, text)
    if crash is not None:
        raise RunModelError(crash)
    try:
        parsed = parse_runner_log(text)
    except RunModelError as error:
        message = str(error)
        # Only the runtime's own verdict says the arena is short (the runner's first line always names
        # arena_bytes=, so the word alone proves nothing); the linker's region overflow is the build's error.
        if (not board_info.is_host and _ARENA_TOO_SMALL.search(message) and arena_size is None
                and board_info.ram):
            message = (f"model does not fit board '{board}' (RAM {board_info.ram.size // 1024} KB): "
                       f"the arena left after stack and static data is too small: {message}")
        raise RunModelError(message) from None
    if run.exit_code not in (0, None):
        raise RunModelError(f"the model runner exited with status {run.exit_code} after finishing")
    summary = compare_outputs(parsed["cases"], cases, tolerance, float_tolerance)
    comparison = {} if summary is None else {**summary, "tolerance": tolerance, "float_tolerance": float_tolerance}
    return {
        **comparison,
        "board": board_info.name,
        "backend": backend_name,
        "model": str(model),
        "cases": parsed["cases"],
        "arena_used_bytes": parsed["arena_used_bytes"],
        "arena_bytes": parsed["arena_bytes"],
        "flash_bytes": flash_bytes,
        "ram_bytes": ram_bytes,
        "elf": str(elf),
    }


def run_host_files(model: Path, inputs: Sequence[Sequence[np.ndarray]], workdir: Path,
                   arena_size: int | None = None, timeout_s: float = 60) -> dict[str, Any]:
    """Runs ``model`` on the host with the runtime reading files: one case per entry of ``inputs``."""
    workdir.mkdir(parents=True, exist_ok=True)
    args = []
    for c, case in enumerate(inputs):
        paths = []
        for i, array in enumerate(case):
            path = workdir / f"case{c}_input{i}.bin"
            little = np.ascontiguousarray(array).astype(np.asarray(array).dtype.newbyteorder("<"))
            path.write_bytes(little.tobytes())
            paths.append(str(path))
        args.append(",".join(paths))
    command = [str(host_file_runner(build=False))]
    if arena_size is not None:
        command += ["--arena", str(arena_size)]
    proc = subprocess.run([*command, str(model), *args], capture_output=True, text=True, timeout=timeout_s)
    if proc.returncode < 0:
        raise RunModelError(f"the host file runner crashed (signal {-proc.returncode}):\n{proc.stdout[-2000:]}"
                            f"{proc.stderr[-2000:]}")
    return parse_runner_log(proc.stdout)


def run_app(elf: Path, board: str, backend: str | None = None, timeout_s: float = 60) -> int:
    """Runs an application ELF (no test protocol, e.g. an example app): streams its log, returns its status.

    Applications end with MicroExit(status), so the exit status is the verdict; a crash, timeout or
    emulator failure returns 1 with the reason on stderr.
    """
    try:
        board_info = load_board(board)
    except BoardError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if board_info.is_host:
        return subprocess.run([str(elf)], timeout=timeout_s).returncode
    try:
        runner, name = _resolve(board_info, backend)
    except RunModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    reason = runner.unavailable_reason(board_info)
    if reason:
        print(f"error: backend '{name}' cannot run board '{board}': {reason}", file=sys.stderr)
        return 1
    run = runner.run(elf, board_info, timeout_s, on_line=print)
    if run.infra_error or run.timed_out or run.exit_code is None:
        why = run.infra_error or ("timed out" if run.timed_out else f"ended without an exit status ({run.end_reason})")
        print(f"error: {elf.name} on {board} ({name}): {why}", file=sys.stderr)
        return 1
    return run.exit_code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run a .tflite model on a board with the generic model runner.")
    parser.add_argument("model", type=Path, nargs="?")
    parser.add_argument("--board", required=True)
    parser.add_argument("--cases", type=Path, help="cases.json with the inputs")
    parser.add_argument("--backend", default=None)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--arena-size", type=int, default=None)
    parser.add_argument("--tolerance", type=int, default=0, help="LSBs integer outputs may differ by")
    parser.add_argument("--float-tolerance", type=float, default=DEFAULT_FLOAT_TOLERANCE)
    parser.add_argument("--app", type=Path, help="instead: run this application ELF and exit with its status")
    args = parser.parse_args(argv)
    if args.app is not None:
        return run_app(args.app, args.board, args.backend, args.timeout)
    if args.model is None or args.cases is None:
        parser.error("pass MODEL and --cases (or --app ELF)")
    try:
        result = run_model(args.model, args.board, args.cases, args.backend, args.timeout, args.arena_size,
                           tolerance=args.tolerance, float_tolerance=args.float_tolerance)
    except RunModelError as error:
        print(f"run-model: error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=1))
    return 3 if result.get("passed") is False else 0


if __name__ == "__main__":
    sys.exit(main())
