"""Tests for harness.cli.run_model: the log decoding on its own, and whole runs of the reference models."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from harness import REPO_ROOT
from harness.board.boards import available_boards, load_board
from harness.cli.run_model import (
    RunModelError,
    compare_outputs,
    parse_runner_log,
    run_model,
)

EXAMPLES = REPO_ROOT / "micro_runtime" / "examples"
HELLO_FLOAT = EXAMPLES / "hello_world" / "models" / "hello_world_float.tflite"
HELLO_INT8 = EXAMPLES / "hello_world" / "models" / "hello_world_int8.tflite"
MICRO_SPEECH = EXAMPLES / "micro_speech" / "models" / "micro_speech_quantized.tflite"


def _cases(model: Path) -> Path:
    return model.with_name(model.stem + "_cases.json")


# ------------------------------------------------------------------ parsing --
def test_parse_decodes_float_and_int8_exactly() -> None:
    value = np.float32(0.026405289769172668)
    log = "\r\n".join([
        "model_runner: model_bytes=3164 arena_bytes=1024 cases=2",
        f"case 0 output 0 type=float32 shape=1,1 data={struct.pack('<f', value).hex()}",
        "case 0 output 1 type=int8 shape=2,2 data=80ff007f",
        "case 0 invoke_ticks=12 ticks_per_second=1000000",
        "case 1 output 0 type=float32 shape=1,1 data=0000803f",
        "case 1 output 1 type=int8 shape=2,2 data=00000000",
        "case 1 invoke_ticks=7 ticks_per_second=1000000",
        "arena_used_bytes=640",
        "~~~MODEL RUNNER DONE~~~",
    ])
    result = parse_runner_log(log)
    assert result["arena_used_bytes"] == 640
    assert result["arena_bytes"] == 1024 and result["model_bytes"] == 3164
    first = result["cases"][0]
    assert first["output"] == [[float(value)]] and first["output_dtype"] == "float32"
    assert first["outputs"][1] == {"data": [[-128, -1], [0, 127]], "dtype": "int8", "shape": [2, 2]}
    assert first["invoke_ticks"] == 12 and first["ticks_per_second"] == 1000000
    assert result["cases"][1]["output"] == [[1.0]]


def test_parse_scalar_output() -> None:
    log = "case 0 output 0 type=int32 shape= data=2a000000\narena_used_bytes=1\n~~~MODEL RUNNER DONE~~~\n"
    assert parse_runner_log(log)["cases"][0]["output"] == 42


def test_parse_error_carries_runtime_message() -> None:
    log = ("model_runner: model_bytes=10 arena_bytes=100 cases=1\n"
           "arena too small: this model needs 7584 bytes (given 100); make the arena at least 7584 bytes\n"
           "model_runner: error: AllocateTensors failed\n")
    with pytest.raises(RunModelError) as error:
        parse_runner_log(log)
    assert str(error.value).splitlines() == [
        "arena too small: this model needs 7584 bytes (given 100); make the arena at least 7584 bytes",
        "AllocateTensors failed"]


def test_parse_error_keeps_the_runtimes_lines_in_order_before_the_verdict() -> None:
    # The interpreter's "see the error above" must have its error above it in the message.
    log = ("model_runner: model_bytes=10 arena_bytes=100 cases=1\n"
           "model schema version 2 is not supported (want 3)\n"
           "AllocateTensors: the model was rejected when the interpreter was created (see the error above)\n"
           "model_runner: error: AllocateTensors failed (see the messages above)\n")
    with pytest.raises(RunModelError) as error:
        parse_runner_log(log)
    assert str(error.value).splitlines() == [
        "model schema version 2 is not supported (want 3)",
        "AllocateTensors: the model was rejected when the interpreter was created (see the error above)",
        "AllocateTensors failed",  # an older runner's "(see the messages above)" points at nothing here
    ]


def test_parse_without_done_marker_fails() -> None:
    with pytest.raises(RunModelError, match="stopped before"):
        parse_runner_log("model_runner: model_bytes=1 arena_bytes=1 cases=1\ncase 0 output 0 type=int8 shape=1 data=00")


# ------------------------------------------------------------------ running --
def _check_against_expected(result: dict[str, Any], cases_path: Path) -> None:
    expected_cases = json.loads(cases_path.read_text())["cases"]
    assert len(result["cases"]) == len(expected_cases)
    for index, (got, want) in enumerate(zip(result["cases"], expected_cases, strict=True)):
        assert got["output_dtype"] == want["expected_dtype"], index
        ours, ref = np.asarray(got["output"]), np.asarray(want["expected"])
        assert ours.shape == ref.shape, index
        if want["expected_dtype"] == "float32":
            np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-6, err_msg=f"case {index}")
        else:
            assert np.abs(ours.astype(int) - ref.astype(int)).max() <= 1, f"case {index}: {ours} vs {ref}"


@pytest.mark.parametrize("model", [HELLO_FLOAT, HELLO_INT8, MICRO_SPEECH], ids=lambda p: p.stem)
def test_host_matches_reference(model: Path) -> None:
    result = run_model(model, "host", _cases(model))
    assert result["board"] == "host" and result["backend"] == "host"
    _check_against_expected(result, _cases(model))
    assert 0 < result["arena_used_bytes"] <= result["arena_bytes"]
    assert result["flash_bytes"] > 0
    # run_model compares with the cases' expected outputs itself: exact for int8 by default.
    assert result["passed"] is True and result["failed_cases"] == [] and result["tolerance"] == 0
    assert result["compared_cases"] == len(result["cases"])
    assert all(case["passed"] is True for case in result["cases"])
    assert max(case["max_abs_error"] for case in result["cases"]) <= result["float_tolerance"]


@pytest.mark.parametrize("model", [HELLO_FLOAT, HELLO_INT8], ids=lambda p: p.stem)
def test_tampered_expected_value_fails_that_case(model: Path, tmp_path: Path) -> None:
    data = json.loads(_cases(model).read_text())
    data["cases"][1]["expected"][0][0] += 2 if data["cases"][1]["expected_dtype"] == "int8" else 0.01
    tampered = tmp_path / "tampered_cases.json"
    tampered.write_text(json.dumps(data))
    result = run_model(model, "host", tampered)
    assert result["passed"] is False and result["failed_cases"] == [1]
    case = result["cases"][1]
    assert case["passed"] is False and case["max_abs_error"] == pytest.approx(2 if "int8" in model.stem else 0.01)
    assert "1 of 1 values differ" in case["mismatch"]
    assert all(c["passed"] for i, c in enumerate(result["cases"]) if i != 1)
    loose = run_model(model, "host", tampered, tolerance=2, float_tolerance=0.02)
    assert loose["passed"] is True and loose["tolerance"] == 2


def _decoded(dtype: str, data: list[float]) -> list[dict[str, Any]]:
    return [{"outputs": [{"data": data, "dtype": dtype, "shape": [len(data)]}]}]


def test_compare_outputs_rules(tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"

    def summary_of(expected: dict[str, object], got: list[dict[str, Any]], tolerance: int = 0) -> dict[str, Any] | None:
        cases.write_text(json.dumps({"cases": [{"input": [0], "input_dtype": "int8", **expected}]}))
        return compare_outputs(got, cases, tolerance=tolerance)

    def compare(expected: dict[str, object], got: list[dict[str, Any]], tolerance: int = 0) -> dict[str, Any]:
        summary = summary_of(expected, got, tolerance)
        assert summary is not None
        return summary

    assert summary_of({}, _decoded("int8", [1])) is None  # nothing to compare: no verdict
    got = _decoded("int8", [1, 5])
    assert compare({"expected": [1, 4], "expected_dtype": "int8"}, got)["passed"] is False
    assert got[0]["max_abs_error"] == 1 and "flat index 1): 5 vs expected 4" in got[0]["mismatch"]
    assert compare({"expected": [1, 4], "expected_dtype": "int8"}, _decoded("int8", [1, 5]), tolerance=1)["passed"]
    got = _decoded("uint8", [1, 4])
    assert not compare({"expected": [1, 4], "expected_dtype": "int8"}, got)["passed"]
    assert got[0]["mismatch"] == "output 0 is uint8, expected int8"
    got = _decoded("int8", [1, 4])
    assert not compare({"expected": [1, 4, 0], "expected_dtype": "int8"}, got)["passed"]
    assert "2 values, expected 3" in got[0]["mismatch"]
    # float32: relative to the value above 1, absolute below; NaN only equals NaN
    assert compare({"expected": [1000.0, 0.0]}, _decoded("float32", [1000.005, 5e-6]))["passed"]
    assert not compare({"expected": [1000.0]}, _decoded("float32", [1000.02]))["passed"]
    assert not compare({"expected": [1.0]}, _decoded("float32", [float("nan")]))["passed"]
    # several outputs
    two: list[dict[str, Any]] = [{"outputs": [{"data": [1], "dtype": "int8", "shape": [1]},
                                          {"data": [2.5], "dtype": "float32", "shape": [1]}]}]
    summary = compare({"expected_outputs": [[1], [2.0]], "expected_dtypes": ["int8", "float32"]}, two)
    assert summary == {"passed": False, "compared_cases": 1, "failed_cases": [0]}
    assert two[0]["max_abs_error"] == 0.5 and two[0]["mismatch"].startswith("output 1:")


# ------------------------------------------------ how a failed run is named --
_RUNNER_HEADER = "model_runner: model_bytes=18712 arena_bytes=14336 cases=1\n"
# The boards' fault handler line of a store into flash (a constant graph input written by the runner):
# precise bus error at the flash address 0x08004000.
_HARDFAULT = ("*** HardFault: PC=0x08001234 LR=0x08000567 xPSR=0x01000000 CFSR=0x00008200 HFSR=0x40000000 "
              "MMFAR=0x00000000 BFAR=0x08004000\n")
_ARENA_TOO_SMALL = ("arena too small: this model needs 21400 bytes (given 14336); make the arena at least 21400 "
                    "bytes\n")


def _fake_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, log: str, exit_code: int | None, end: str,
              backend: str = "qemu") -> None:
    """run_model's build and backend replaced: the runner 'prints' ``log`` and ends with ``exit_code``/``end``;
    the harness's own run session and log reader judge it, as for a real run."""
    from contextlib import contextmanager

    import harness.cli.run_model as module
    from harness.run_result import RunResult

    elf = tmp_path / "model_runner_fake"

    @contextmanager
    def build(*_args: Any, **_kwargs: Any) -> Any:
        yield elf

    class Runner:
        name = backend

        def unavailable_reason(self, _board: Any) -> None:
            return None

        def run(self, _elf: Path, _board: Any, _timeout: float, on_line: Any = None) -> RunResult:
            return RunResult(backend, log.encode(), exit_code, False, 0.5, end)

    monkeypatch.setattr(module, "runner_build", build)
    monkeypatch.setattr(module, "elf_sizes", lambda _elf, _board: (1000, 2000))
    monkeypatch.setattr(module, "_resolve", lambda *_args, **_kwargs: (Runner(), backend))


def _run_model_error(tmp_path: Path, board: str) -> str:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [{"input": [[0]], "input_dtype": "int8"}]}))
    with pytest.raises(RunModelError) as raised:
        run_model(HELLO_INT8, board, cases)
    return str(raised.value)


def test_a_crash_is_reported_as_a_crash_not_as_an_arena_problem(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The runner's first line always says arena_bytes=; the crash must not be read as "does not fit".
    _fake_run(monkeypatch, tmp_path, _RUNNER_HEADER + _HARDFAULT, None, "crash")
    message = _run_model_error(tmp_path, "bluepill")
    assert "does not fit" not in message, message
    assert "model runner crashed on bluepill" in message, message
    # decoded by the harness's crash decoder (harness.core.crash), registers and all
    assert "BusFault: precise data bus error at 0x08004000" in message, message
    assert "PC   = 0x08001234" in message and "PRECISERR" in message, message


def test_a_host_runner_killed_by_a_signal_is_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_run(monkeypatch, tmp_path, _RUNNER_HEADER, -11, "exit", backend="host")
    message = _run_model_error(tmp_path, "host")
    assert "does not fit" not in message, message
    assert "model runner crashed on host" in message and "SIGSEGV" in message, message


def test_arena_too_small_on_a_board_does_not_fit_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A real runner log (micro_interpreter.cc's message, model_runner.cc's verdict) with the default arena.
    log = _RUNNER_HEADER + _ARENA_TOO_SMALL + "model_runner: error: AllocateTensors failed\n"
    _fake_run(monkeypatch, tmp_path, log, 1, "exit")
    message = _run_model_error(tmp_path, "bluepill")
    assert message.startswith("model does not fit board 'bluepill' (RAM 20 KB)"), message
    assert _ARENA_TOO_SMALL.strip() in message and "AllocateTensors failed" in message, message
    assert "crashed" not in message, message


def test_other_runner_errors_mentioning_an_arena_are_not_misfits(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the runtime's "arena too small" line says the board's arena is short; this model is broken on any.
    scratch = "operator 3 requested a 4294967295-byte scratch buffer; that cannot fit any arena\n"
    _fake_run(monkeypatch, tmp_path, _RUNNER_HEADER + scratch + "model_runner: error: AllocateTensors failed\n",
              1, "exit")
    message = _run_model_error(tmp_path, "bluepill")
    assert "does not fit board" not in message and "crashed" not in message, message
    assert message == scratch.strip() + "\nAllocateTensors failed"
    # A runner that stopped early without a crash is said to have stopped, with its output (arena_bytes= too).
    _fake_run(monkeypatch, tmp_path, _RUNNER_HEADER + "case 0 output 0 type=int8 shape=1 data=00\n", 0, "exit")
    message = _run_model_error(tmp_path, "bluepill")
    assert "does not fit board" not in message and "stopped before" in message, message


# ---------------------------------------------------------- runner cache --
def test_run_model_bounds_its_runner_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.build.model_runner import RUNNER_CACHE_ENV, RUNNER_CACHE_SIZE

    assert RUNNER_CACHE_SIZE == 8
    monkeypatch.setenv(RUNNER_CACHE_ENV, "3")
    elves = []
    for index in range(4):  # four different cases files: four runner builds
        cases = tmp_path / f"cases{index}.json"
        cases.write_text(json.dumps({"cases": [{"input": [[index]], "input_dtype": "int8"}]}))
        elves.append(Path(run_model(HELLO_INT8, "host", cases)["elf"]))
    # The least recently used of the four is gone, the one just run is there. (How many folders there
    # are now depends on what other test workers build meanwhile; test_runner_cache_keeps_... counts.)
    assert not elves[0].exists() and not (elves[0].parent.parent / "model_runner" / elves[0].name[13:]).exists()
    assert elves[-1].exists()
    monkeypatch.setenv(RUNNER_CACHE_ENV, "0")
    with pytest.raises(RunModelError, match=f"{RUNNER_CACHE_ENV}='0'"):
        run_model(HELLO_INT8, "host", tmp_path / "cases0.json")


def _emulated(board: str) -> pytest.MarkDecorator:
    missing = board not in available_boards() or shutil.which("qemu-system-arm") is None
    reason = f"needs boards/{board} and qemu-system-arm (apt-get install qemu-system-arm)"
    return pytest.mark.skipif(missing, reason=reason)


@pytest.mark.emulator
@_emulated("bluepill")
@pytest.mark.parametrize("model", [HELLO_FLOAT, HELLO_INT8], ids=lambda p: p.stem)
def test_bluepill_qemu_matches_reference(model: Path) -> None:
    result = run_model(model, "bluepill", _cases(model), backend="qemu", timeout_s=120)
    _check_against_expected(result, _cases(model))
    board = load_board("bluepill")
    assert board.flash is not None and board.ram is not None
    assert result["flash_bytes"] <= board.flash.size and result["ram_bytes"] <= board.ram.size


def _m4f_board() -> str:
    for name in available_boards():
        if load_board(name).core.startswith("cortex-m4"):
            return name
    return "m4f-board-missing"


@pytest.mark.emulator
@_emulated(_m4f_board())
def test_micro_speech_on_m4f() -> None:
    board = _m4f_board()
    result = run_model(MICRO_SPEECH, board, _cases(MICRO_SPEECH), backend="qemu", timeout_s=180)
    _check_against_expected(result, _cases(MICRO_SPEECH))


@pytest.mark.emulator
@_emulated("bluepill")
def test_micro_speech_on_bluepill_fits_or_says_so() -> None:
    """bluepill has 64 KB flash / 20 KB RAM: micro_speech must either pass or fail with 'does not fit'."""
    try:
        result = run_model(MICRO_SPEECH, "bluepill", _cases(MICRO_SPEECH), backend="qemu", timeout_s=180)
    except RunModelError as error:
        assert "does not fit board 'bluepill'" in str(error)
        return
    _check_against_expected(result, _cases(MICRO_SPEECH))


@pytest.mark.emulator
@_emulated("bluepill")
def test_icount_is_honoured_and_makes_the_figures_deterministic() -> None:
    """run-model runs through the one session: ``icount`` picks QEMU with -icount, so two runs agree tick for tick."""
    first, second = (run_model(HELLO_INT8, "bluepill", _cases(HELLO_INT8), icount=4) for _ in range(2))
    assert first["backend"] == "qemu"
    ticks = [[case.get("invoke_ticks") for case in result["cases"]] for result in (first, second)]
    assert ticks[0] == ticks[1] and all(tick is not None for tick in ticks[0]), ticks
    _check_against_expected(first, _cases(HELLO_INT8))


def test_icount_with_another_backend_is_an_error_before_any_build() -> None:
    with pytest.raises(RunModelError, match="icount"):
        run_model(HELLO_INT8, "bluepill", _cases(HELLO_INT8), backend="renode", icount=4)


def test_bad_inputs_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(RunModelError, match="does not exist"):
        run_model(tmp_path / "missing.tflite", "host", _cases(HELLO_INT8))
    junk = tmp_path / "junk.tflite"
    junk.write_bytes(b"not a model at all")
    with pytest.raises(RunModelError, match="not a TensorFlow Lite model"):
        run_model(junk, "host", _cases(HELLO_INT8))
    with pytest.raises(RunModelError, match="no-such-board|unknown board|not found"):
        run_model(HELLO_INT8, "no-such-board", _cases(HELLO_INT8))


def test_wrong_input_type_names_the_mismatch(tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [{"input": [[0.5]], "input_dtype": "float32"}]}))
    with pytest.raises(RunModelError, match="case 0 input 0 is float32 .* the model wants int8"):
        run_model(HELLO_INT8, "host", cases)


def test_small_arena_is_reported(tmp_path: Path) -> None:
    with pytest.raises(RunModelError, match="(?i)arena"):
        run_model(MICRO_SPEECH, "host", _cases(MICRO_SPEECH), arena_size=512)


def _builder() -> ModuleType:
    import importlib.util
    import sys

    path = REPO_ROOT / "micro_runtime" / "tools" / "tflite_builder.py"
    spec = importlib.util.spec_from_file_location("tflite_builder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tflite_builder"] = module
    spec.loader.exec_module(module)
    return module


def _single_op_model(tmp_path: Path, op: str, version: int = 1) -> tuple[Path, Path]:
    tb = _builder()
    b = tb.ModelBuilder()
    x = b.add_tensor("x", "FLOAT32", [1, 4])
    y = b.add_tensor("y", "FLOAT32", [1, 4])
    b.add_operator(op, [x], [y], version=version)
    b.set_inputs([x])
    b.set_outputs([y])
    model = tmp_path / f"{op.lower()}_v{version}.tflite"
    model.write_bytes(b.build())
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [{"input": [[1, -2, 3, -4]], "input_dtype": "float32"}]}))
    return model, cases


def test_single_op_model_runs(tmp_path: Path) -> None:
    model, cases = _single_op_model(tmp_path, "RELU")
    assert run_model(model, "host", cases)["cases"][0]["output"] == [[1.0, 0.0, 3.0, 0.0]]


def test_unsupported_op_carries_runtime_message(tmp_path: Path) -> None:
    model, cases = _single_op_model(tmp_path, "FLOOR")  # no FLOOR kernel in micro_runtime
    with pytest.raises(RunModelError, match="opcode '8'|FLOOR"):
        run_model(model, "host", cases)


def test_unsupported_version_carries_runtime_message(tmp_path: Path) -> None:
    model, cases = _single_op_model(tmp_path, "RELU", version=7)
    with pytest.raises(RunModelError, match="RELU.*version 7"):
        run_model(model, "host", cases)


def test_corrupt_model_carries_verifier_message(tmp_path: Path) -> None:
    truncated = tmp_path / "truncated.tflite"
    truncated.write_bytes(HELLO_FLOAT.read_bytes()[:1500])
    with pytest.raises(RunModelError, match="corrupt or truncated"):
        run_model(truncated, "host", _cases(HELLO_FLOAT))


def test_several_inputs_and_outputs(tmp_path: Path) -> None:
    """ADD of two inputs feeding two outputs (the sum, and its RELU6): every output comes back in order."""
    tb = _builder()
    b = tb.ModelBuilder()
    x = b.add_tensor("x", "FLOAT32", [1, 3])
    y = b.add_tensor("y", "FLOAT32", [1, 3])
    total = b.add_tensor("sum", "FLOAT32", [1, 3])
    clipped = b.add_tensor("clipped", "FLOAT32", [1, 3])
    b.add_operator("ADD", [x, y], [total])
    b.add_operator("RELU6", [total], [clipped])
    b.set_inputs([x, y])
    b.set_outputs([total, clipped])
    model = tmp_path / "two_out.tflite"
    model.write_bytes(b.build())
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cases": [
        {"inputs": [[[1.5, -4.0, 5.0]], [[0.25, 1.0, 2.0]]], "input_dtypes": ["float32", "float32"]}]}))
    case = run_model(model, "host", cases)["cases"][0]
    assert [o["data"] for o in case["outputs"]] == [[[1.75, -3.0, 7.0]], [[1.75, 0.0, 6.0]]]
    assert case["output"] == [[1.75, -3.0, 7.0]]


@pytest.mark.emulator
@_emulated("bluepill")
def test_run_app_returns_the_firmware_status(capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess

    from harness.cli.run_model import run_app

    runtime = REPO_ROOT / "micro_runtime"
    subprocess.run(["make", "-s", "-C", str(runtime), "TARGET=bluepill", "example_hello_world"], check=True)
    elf = runtime / "gen" / "bluepill" / "bin" / "example_hello_world"
    assert run_app(elf, "bluepill", backend="qemu") == 0
    assert "x=0.000" in capsys.readouterr().out
    assert run_app(elf, "no-such-board") == 1
