"""The interpreter core's error messages, exactly as users see them.

The C++ tests can only check statuses (DebugLog belongs to the board), so
this runs their host binaries and checks the logged lines word for word.
Also checks that models/generate.py reproduces the committed test models.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.core.run_token import TOKEN_ENV, UNKEYED
from harness.formats.micro_test import find_record

RUNTIME = Path(__file__).resolve().parent
REPO = RUNTIME.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None or shutil.which("g++") is None,
                                reason="needs make and g++ (apt-get install build-essential)")


def run_test_binary(name: str) -> list[str]:
    build = subprocess.run(["make", "-s", "-C", str(RUNTIME), "TARGET=host", name], capture_output=True, text=True,
                           timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}  # no run token: records signed with key 0
    run = subprocess.run([str(RUNTIME / "gen" / "host" / "bin" / name)], capture_output=True, text=True, timeout=120,
                         env=env)
    assert run.returncode == 0, run.stdout[-3000:]
    lines = run.stdout.splitlines()
    records = [r.text for r in (find_record(line.encode(), UNKEYED) for line in lines) if r is not None]
    assert records[-1:] == ["DONE PASSED"], run.stdout[-3000:]
    return lines


def test_resolver_messages() -> None:
    lines = run_test_binary("micro_op_resolver_test")
    for expected in [
        "Didn't find op for builtin opcode 'CONV_2D' version '3'",
        "Encountered unresolved custom op: Atan.",
        "Didn't find op for builtin opcode '200' version '2'",
        "Op 'CONV_2D' version 3 in the model is newer than this runtime supports (versions 1-2); "
        "rebuild with a newer micro_runtime or re-convert the model",
        "Op 'CONV_2D' version 3 in the model is older than this runtime supports (versions 4-5); "
        "re-convert the model with a current converter",
        "Op 'Atan' version 2 in the model is newer than this runtime supports (version 1); "
        "rebuild with a newer micro_runtime or re-convert the model",
        "op resolver: full (2 ops) while adding 'MUL'; raise the N of MicroMutableOpResolver<N>",
        "op resolver: op 'ADD' is already registered; register each op once",
    ]:
        assert expected in lines


def test_verifier_messages() -> None:
    lines = run_test_binary("model_verifier_test")
    for expected in [
        "model has 2 subgraphs; micro_runtime supports 1",
        "model schema version is 2 but micro_runtime reads version 3; re-convert the model with a current TFLite "
        "converter",
        "operator 0: input 0 refers to tensor 99 but the subgraph has 4 tensors; the model is corrupt",
        "tensor 1 ('w') has 20 bytes of constant data but its shape and type need 24 bytes",
        "tensor 2 ('bias') refers to buffer 42 but the model has 3 buffers; the model is corrupt",
        "operator 0 uses operator code 5 but the model has 1; the model is corrupt",
        "operator 0 writes tensor 1 ('w'), which is constant; the model is corrupt",
        "subgraph input 0 is tensor 1 ('w'), which is constant: its data is in the model (read-only flash on a "
        "board), where the application would write the input; the model is corrupt",
        "not a .tflite model: file identifier is not 'TFL3'; check that the bytes are a TFLite model",
    ]:
        assert expected in lines
    assert any(line.startswith("model flatbuffer is corrupt or truncated") for line in lines)


ARENA_EXACT = re.compile(r"^arena too small: this model needs (\d+) bytes \(given (\d+)\); "
                         r"make the arena at least (\d+) bytes$")
ARENA_AT_LEAST = re.compile(r"^arena too small: this model needs at least (\d+) bytes \(given (\d+)\); "
                            r"with that much, the exact total is reported if it is still short$")


def test_arena_too_small_names_the_whole_models_need() -> None:
    lines = run_test_binary("micro_allocator_test")
    too_small = [line for line in lines if line.startswith("arena too small")]
    assert too_small and all(ARENA_EXACT.match(line) or ARENA_AT_LEAST.match(line) for line in too_small), too_small
    # ExactRequirement*: the arena that worked minus one byte is told that arena's size.
    exact = [ARENA_EXACT.match(line) for line in too_small]
    one_short = [m for m in exact if m and int(m.group(2)) == int(m.group(1)) - 1]
    assert len(one_short) >= 4, too_small
    assert all(m.group(1) == m.group(3) for m in exact if m)
    # TooSmallArenaIsToldTheWholeModelsNeed: every size tried after the model's own figure is told that
    # figure, including arenas that run out in the tables-and-ops phase, not only in the tensor plan; an
    # arena too small to hold even the tables gets a lower bound that is above what it was given.
    start = lines.index(next(line for line in lines if line.startswith("hello_float_ref arena_used_bytes=")))
    end = lines.index(next(line for line in lines if line.startswith("chain_greedy arena_used_bytes=")))
    needed = int(lines[start].split("=")[1])
    told = [line for line in lines[start:end] if line.startswith("arena too small")]
    givens = set()
    for line in told:
        m = ARENA_EXACT.match(line)
        if m:
            assert int(m.group(1)) == needed, line
        else:
            m = ARENA_AT_LEAST.match(line)
            assert int(m.group(2)) < int(m.group(1)) <= needed, line
        givens.add(int(m.group(2)))
    assert givens == {needed - 1, needed - 64, needed // 2, needed // 4, 48}, told
    assert needed - 1 in {int(m.group(2)) for m in map(ARENA_EXACT.match, told) if m}
    # ArenaShortOfOpDataIsToldTheWholeModelsNeed: 300 and 500 bytes short, the arena runs out in the ops'
    # init (three ops of 256 bytes each), and the dry run still measures the exact total.
    start = lines.index(next(line for line in lines if line.startswith("chain_greedy arena_used_bytes=")))
    needed = int(lines[start].split("=")[1])
    told = [ARENA_EXACT.match(line) for line in lines[start:] if line.startswith("arena too small")][:2]
    assert [(int(m.group(1)), int(m.group(2))) for m in told if m] == [(needed, needed - 300), (needed, needed - 500)]


def test_interpreter_messages() -> None:
    lines = run_test_binary("micro_interpreter_test")
    assert ("Invoke() called without a successful AllocateTensors(); call AllocateTensors() first and check its "
            "status") in lines
    assert "operator 0 (FULLY_CONNECTED) failed to prepare" in lines
    arena = [int(line.split("=")[1]) for line in lines if line.startswith("hello_world_float arena_used_bytes=")]
    assert arena and arena[0] <= 1536  # TFLM's figure on x86-64


def test_generated_models_are_committed_and_current() -> None:
    spec = importlib.util.spec_from_file_location("generate_models", RUNTIME / "models" / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    for name, data in generate.models().items():
        path = RUNTIME / "models" / f"{name}.tflite"
        assert path.read_bytes() == data, f"{path} is stale: run python3 micro_runtime/models/generate.py"
