"""The ``harness`` command line, run as a user would (``python -m harness`` from the checkout)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness_helpers import MCU_BOARD, requires_mcu, run_cli, subprocess_env

from harness import REPO_ROOT
from harness.core.project import PROJECT_ENV


def test_boards_lists_every_board_with_memory_and_usable_backends() -> None:
    out = run_cli("boards")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:4] == ["BOARD", "CORE", "FLASH", "RAM"]
    host = next(line for line in lines if line.startswith("host "))
    assert "native" in host and "host*" in host
    for board_file in (REPO_ROOT / "boards").glob("*/board.toml"):
        assert any(line.startswith(board_file.parent.name + " ") for line in lines[1:])


def test_doctor_passes_on_a_complete_machine() -> None:
    if shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-g++") is None:
        pytest.skip("this machine lacks required tools; the next test covers that case")
    out = run_cli("doctor")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "all required tools found" in out.stdout


def test_doctor_names_the_install_command_of_each_missing_tool(tmp_path: Path) -> None:
    # A PATH holding only make and python: compilers, flatc and QEMU are "missing".
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("make",):
        found = shutil.which(tool)
        if found:
            os.symlink(found, bin_dir / tool)
    env = dict(subprocess_env(), PATH=str(bin_dir))
    out = run_cli("doctor", env=env)
    assert out.returncode == 1
    assert "MISSING g++" in out.stdout and "apt-get install g++" in out.stdout
    assert "MISSING qemu-system-arm" in out.stdout and "apt-get install qemu-system-arm" in out.stdout
    assert "apt-get install flatbuffers-compiler" in out.stdout
    assert "required piece(s) missing" in out.stderr


@pytest.mark.parametrize(
    ("program", "code", "verdict"),
    [("pass", 0, "PASSED"), ("fail", 1, "FAILED"), ("crash", 2, "CRASHED"), ("hang", 3, "TIMEOUT"),
     ("zero", 4, "NO-TESTS")],
)
def test_run_exit_code_and_verdict_on_host(host_programs: dict[str, Path], program: str, code: int,
                                           verdict: str) -> None:
    out = run_cli("run", str(host_programs[program]), "--board", "host", "--timeout", "3")
    assert out.returncode == code, out.stdout + out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith(f"harness: {verdict}: {program}_test on host (host, ")
    if program != "zero":
        # the device log (its signed records: "~~~MT <seq> <mac> BEGIN <case>") is echoed live
        assert re.search(r"^~~~MT [0-9]+ [0-9a-f]{8} BEGIN ", out.stdout, re.MULTILINE), out.stdout


def test_run_failure_names_the_file_and_line(host_programs: dict[str, Path]) -> None:
    out = run_cli("run", str(host_programs["fail"]), "--board", "host")
    assert "10 == Triple(3) failed at " in out.stdout and "pytester_fail.cc:12 (10 vs 9)" in out.stdout
    assert "1 of 3 tests failed: WrongProduct" in out.stdout


def test_run_usage_errors_are_clear() -> None:
    out = run_cli("run", "no/such/firmware.elf", "--board", "host")
    assert out.returncode == 5 and "does not exist; build it first" in out.stderr
    out = run_cli("run", "anything", "--board", "no_such_board")
    assert out.returncode == 5 and "unknown board 'no_such_board'" in out.stderr and "host" in out.stderr
    out = run_cli("run", "no_such_test", "--board", "host")
    assert out.returncode == 5 and "no test named 'no_such_test'" in out.stderr


def test_build_lists_and_rejects_unknown_targets() -> None:
    out = run_cli("build", "--board", "host", "--list")
    assert out.returncode == 0
    listed = {line.split("\t")[0] for line in out.stdout.splitlines()}
    from harness.build.driver import discover_tests

    assert listed == set(discover_tests())
    out = run_cli("build", "--board", "host", "no_such_test")
    assert out.returncode == 5 and "unknown test binaries: no_such_test" in out.stderr


def _cli_in(folder: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m harness ARGS`` started in ``folder``, as a user in their project (no project inherited)."""
    env = {k: v for k, v in (env or subprocess_env()).items() if k != PROJECT_ENV}
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=folder, check=False)


def test_build_without_tests_says_what_it_looked_for_and_where(tmp_path: Path) -> None:
    project = tmp_path / "firmware"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "firmware"\n')
    (project / "src" / "main.cc").write_text("int main() { return 0; }\n")
    out = _cli_in(project / "src", "build", "--board", "host")
    assert out.returncode == 4 and out.stdout == "", out.stdout + out.stderr
    assert f"no *_test.cc under {project}" in out.stderr, out.stderr
    assert "the nearest folder with a pyproject.toml" in out.stderr and "put your tests there" in out.stderr
    assert "Traceback" not in out.stderr
    listed = _cli_in(project, "build", "--list")
    assert listed.returncode == 0 and listed.stdout == "", listed.stdout  # an empty list, and where it looked
    assert f"no *_test.cc under {project}" in listed.stderr, listed.stderr
    # A folder with settings names the file they are in.
    (project / "pyproject.toml").write_text('[project]\nname = "firmware"\n[tool.micro-harness]\n'
                                            'build-dir = "out"\n')
    out = _cli_in(project, "build")
    assert out.returncode == 4 and "its pyproject.toml has harness settings" in out.stderr, out.stderr


def test_warnings_fail_a_project_build_unless_warnings_as_errors_is_off(tmp_path: Path) -> None:
    project = tmp_path / "firmware"
    (project / "tests").mkdir(parents=True)
    (project / "tests" / "unused_test.cc").write_text(
        '#include "micro_runtime/micro_test.h"\nTF_LITE_MICRO_TESTS_BEGIN\n'
        "TF_LITE_MICRO_TEST(Unused) {\n  int unused = 3;\n  TF_LITE_MICRO_EXPECT_EQ(1, 1);\n}\n"
        "TF_LITE_MICRO_TESTS_END\n")
    settings = '[project]\nname = "firmware"\n[tool.micro-harness]\n'
    (project / "pyproject.toml").write_text(settings)
    out = _cli_in(project, "build", "--board", "host")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "FAIL  tests/unused_test" in out.stdout and "unused variable" in out.stdout, out.stdout
    assert "-Werror=unused-variable" in out.stdout
    (project / "pyproject.toml").write_text(settings + "warnings-as-errors = false\n")
    out = _cli_in(project, "build", "--board", "host")
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"^ok +tests/unused_test ", out.stdout, re.MULTILINE), out.stdout
    assert re.search(r"unused_test: built with 1 compiler warning\(s\): \S*unused_test.cc:4:7: warning: unused "
                     "variable", out.stderr), out.stderr  # shown, not lost
    run = _cli_in(project, "run", "tests/unused_test", "--board", "host")
    assert run.returncode == 0 and "harness: PASSED: unused_test on host" in run.stdout, run.stdout + run.stderr
    (project / "pyproject.toml").unlink()  # the ini form, back on: the flag change recompiles the test
    (project / "pytest.ini").write_text("[pytest]\nmicro_warnings_as_errors = true\n")
    out = _cli_in(project, "build", "--board", "host")
    assert out.returncode == 1 and "unused variable" in out.stdout, out.stdout + out.stderr


def _cli_without(modules: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """``harness ARGS`` in a Python where ``modules`` cannot be imported, as in an install without their extra."""
    code = (f"import sys\nfor name in {modules!r}:\n    sys.modules[name] = None\n"
            "from harness.cli.main import main\nsys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                          env=subprocess_env(), cwd=REPO_ROOT, check=False)


def test_devices_scan_without_pyocd_names_the_extra_to_install() -> None:
    out = _cli_without(("pyocd",), "devices", "scan")
    assert out.returncode != 0 and out.stdout == "", out.stdout + out.stderr
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "harness devices scan" in lines[0] and "pyocd" in lines[0] and "'hil' extra" in lines[0], lines[0]
    assert "[hil]'" in lines[0] and ".ci/install-deps" in lines[0]  # this is a checkout: both ways are named


@pytest.mark.parametrize("blocked", [("numpy",), ("flatbuffers",), ("numpy", "flatbuffers")])
def test_run_model_without_its_extra_fails_with_one_line(tmp_path: Path, blocked: tuple[str, ...]) -> None:
    model, cases = tmp_path / "m.tflite", tmp_path / "cases.json"
    model.write_bytes(b"\0\0\0\0TFL3")
    cases.write_text("{}")
    out = _cli_without(blocked, "run-model", str(model), "--board", "host", "--cases", str(cases))
    assert out.returncode == 1 and out.stdout == "", out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert lines[0].startswith("harness: error: harness run-model needs the Python package")
    assert " and ".join(blocked) in lines[0] and "'model' extra" in lines[0] and "[model]'" in lines[0], lines[0]


def test_doctor_reports_each_missing_extra_with_its_install_command() -> None:
    out = _cli_without(("numpy", "labgrid", "robot", "pyocd"), "doctor")
    assert "Traceback" not in out.stderr, out.stderr
    for label, extra in (("absent  python: numpy, flatbuffers for harness run-model (optional)", "model"),
                         ("absent  python: labgrid for the device farm (optional)", "farm"),
                         ("absent  python: robotframework for Robot Framework suites (optional)", "robot"),
                         ("absent  debug probes (pyOCD) (optional)", "hil")):
        line = next((text for text in out.stdout.splitlines() if text.startswith(label)), None)
        assert line is not None, f"{label!r} not in:\n{out.stdout}"
        assert f"[{extra}]'" in line, line
    assert "numpy not importable" in out.stdout and "flatbuffers not importable" not in out.stdout
    if out.returncode == 0:  # the extras are optional: only the required tools decide the exit status
        assert "optional piece(s) absent, see above" in out.stdout


def test_run_model_errors_go_to_stderr_with_non_zero_exit(tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text("{}")
    out = run_cli("run-model", str(tmp_path / "missing.tflite"), "--board", "host", "--cases", str(cases))
    assert out.returncode == 1 and out.stdout == ""
    assert "missing.tflite does not exist" in out.stderr
    not_a_model = tmp_path / "model.tflite"
    not_a_model.write_bytes(b"definitely not a flatbuffer")
    out = run_cli("run-model", str(not_a_model), "--board", "host", "--cases", str(cases))
    assert out.returncode == 1 and out.stdout == ""
    assert "TFL3" in out.stderr or "not a TensorFlow Lite model" in out.stderr


def test_python_dash_m_works_without_installation(host_programs: dict[str, Path]) -> None:
    """The Makefile calls `python3 -m harness run`: it must work with only PYTHONPATH set.

    ``-S`` drops site-packages, so neither the installed package nor any dependency is used.
    """
    out = subprocess.run([sys.executable, "-S", "-m", "harness", "run", str(host_programs["pass"]), "--board", "host"],
                         capture_output=True, text=True, env=subprocess_env(), cwd=REPO_ROOT, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert "harness: PASSED: pass_test on host" in out.stdout


@requires_mcu
@pytest.mark.emulator
@pytest.mark.parametrize(
    ("program", "code"), [("pass", 0), ("fail", 1), ("crash", 2), ("hang", 3), ("zero", 4)]
)
def test_run_exit_codes_on_the_emulated_board(mcu_programs: dict[str, Path], program: str, code: int) -> None:
    out = run_cli("run", str(mcu_programs[program]), "--board", MCU_BOARD, "--backend", "qemu", "--timeout", "5")
    assert out.returncode == code, out.stdout + out.stderr
    if program == "crash":
        assert "HardFault" in out.stdout + out.stderr
        assert "HarnessFixtureCrashHere" in out.stdout + out.stderr  # PC symbolized to the function
    if program == "fail":
        assert "pytester_fail.cc:12 (10 vs 9)" in out.stdout


def test_run_model_prints_json_results_on_stdout() -> None:
    models = REPO_ROOT / "micro_runtime" / "examples" / "hello_world" / "models"
    cases_file = models / "hello_world_float_cases.json"
    out = run_cli("run-model", str(models / "hello_world_float.tflite"), "--board", "host", "--cases", str(cases_file))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["board"] == "host" and result["backend"] == "host"
    expected = json.loads(cases_file.read_text())["cases"]
    assert len(result["cases"]) == len(expected)
    for got, want in zip(result["cases"], expected, strict=True):
        assert abs(got["output"][0][0] - want["expected"][0][0]) < 1e-4


HELLO_MODELS = REPO_ROOT / "micro_runtime" / "examples" / "hello_world" / "models"
HELLO_ARGS = (str(HELLO_MODELS / "hello_world_float.tflite"), "--board", "host",
              "--cases", str(HELLO_MODELS / "hello_world_float_cases.json"))


def test_run_model_reports_progress_on_stderr_only() -> None:
    out = run_cli("run-model", *HELLO_ARGS)
    assert out.returncode == 0, out.stderr
    json.loads(out.stdout)  # stdout stays pure JSON
    lines = out.stderr.splitlines()
    assert lines[0].startswith("harness: building the model runner for host (hello_world_float.tflite)"), lines
    assert any(line.startswith("harness: build finished in ") and line.endswith(" s") for line in lines), lines
    assert any(line.startswith("harness: running on host") for line in lines), lines
    quiet = run_cli("run-model", *HELLO_ARGS, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    outputs = [[case["outputs"] for case in json.loads(run.stdout)["cases"]] for run in (out, quiet)]
    assert outputs[0] == outputs[1]


def test_run_model_arena_size_too_small_fails_with_the_runtimes_message() -> None:
    used = json.loads(run_cli("run-model", *HELLO_ARGS, "-q").stdout)["arena_used_bytes"]
    out = run_cli("run-model", *HELLO_ARGS, "-q", "--arena-size", str(used - 16))
    assert out.returncode == 1 and out.stdout == "", out.stdout + out.stderr
    lines = out.stderr.splitlines()
    # The runtime's own lines in the order it printed them, then the runner's verdict; nothing
    # refers to messages "above" that the user never sees.
    assert lines[0] == (f"harness: error: arena too small: this model needs {used} bytes (given {used - 16}); "
                        f"make the arena at least {used} bytes"), lines
    assert lines[-1].endswith("AllocateTensors failed"), lines
    assert "above" not in out.stderr


def test_run_model_exits_3_when_outputs_differ_from_expected(tmp_path: Path) -> None:
    data = json.loads((HELLO_MODELS / "hello_world_int8_cases.json").read_text())
    data["cases"][3]["expected"][0][0] -= 3
    tampered = tmp_path / "tampered_cases.json"
    tampered.write_text(json.dumps(data))
    model = str(HELLO_MODELS / "hello_world_int8.tflite")
    out = run_cli("run-model", model, "--board", "host", "--cases", str(tampered), "-q")
    assert out.returncode == 3, out.stderr
    result = json.loads(out.stdout)  # the JSON is still there, with the verdict per case
    assert result["passed"] is False and result["failed_cases"] == [3]
    assert result["cases"][3]["max_abs_error"] == 3 and result["cases"][0]["passed"] is True
    assert "harness: error: case 3: output 0: 1 of 1 values differ" in out.stderr
    assert run_cli("run-model", model, "--board", "host", "--cases", str(tampered), "-q",
                   "--tolerance", "3").returncode == 0
    untouched = run_cli("run-model", model, "--board", "host", "--cases",
                        str(HELLO_MODELS / "hello_world_int8_cases.json"), "-q")
    assert untouched.returncode == 0 and json.loads(untouched.stdout)["passed"] is True


def test_build_footprint_json_option(tmp_path: Path) -> None:
    target = tmp_path / "reports" / "host.json"
    out = run_cli("build", "--board", "host", "add_test", "--footprint-json", str(target))
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"footprint report: {target}" in out.stdout
    report = json.loads(target.read_text())
    assert list(report["binaries"]) == ["add_test"]  # this build's binaries only
    entry = report["binaries"]["add_test"]
    assert entry["flash"] > 0 and ".text" in entry["sections"] and entry["objects"]
