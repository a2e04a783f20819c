"""The harness as another project gets it: a wheel, installed into a fresh venv, testing
``examples/user_project`` (copied out of this checkout) on emulated boards.

Nothing of the checkout is importable or readable in those runs: the wheel must bring the runtime,
the built-in boards and the board support; the project's own board, sources and model must be found
from its ``pyproject.toml``; builds must land in the project's build folder. The venv sees the system's
site-packages only for pytest/xdist/pyserial (no network here); which ``harness`` it imports is checked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.core.project import PROJECT_ENV
from tests.harness_helpers import requires_mcu

pytestmark = [pytest.mark.slow, requires_mcu]

EXAMPLE = REPO_ROOT / "examples" / "user_project"
EXPECTED_CASES = {
    ("tests.smoothing_test.cc", "FirstSampleIsTakenAsIs"), ("tests.smoothing_test.cc", "HalfWayWithAlphaOneHalf"),
    ("tests.smoothing_test.cc", "ConvergesToAConstantInput"), ("tests.smoothing_test.cc", "QuantizeSaturates"),
    ("tests.sine_model_test.cc", "ModelLoadsAndPredictsASine"),
}


def _clean_env() -> dict[str, str]:
    """The environment of a user's shell: no checkout on PYTHONPATH, no project inherited from this run."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", PROJECT_ENV) and not k.startswith("PYTEST_")}
    env["CI"] = "true"
    return env


def _tracked_copy(to: Path) -> Path:
    """The checkout's tracked files (what a clone or an sdist has), without build outputs."""
    listed = subprocess.run(["git", "-C", str(REPO_ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot tell source files from build outputs")
    for rel in filter(None, listed.stdout.decode().split("\0")):
        source = REPO_ROOT / rel
        if source.is_file():
            (to / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / rel)
    return to


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = _tracked_copy(tmp_path_factory.mktemp("src"))
    dist = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                           "-w", str(dist), "-q"], capture_output=True, text=True, env=_clean_env(), timeout=600,
                          check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(dist.glob("micro_harness-*.whl"))
    assert len(wheels) == 1, list(dist.iterdir())
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(folder)], check=True, timeout=300)
    python = folder / "bin" / "python"
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True, env=_clean_env(), timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return folder


@pytest.fixture(scope="module")
def user_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("user") / "sensor-firmware"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("build", "__pycache__", ".pytest_cache"))
    return project


def test_the_wheel_carries_runtime_and_boards_but_no_build_outputs_or_tests(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    data = "harness/_data/"
    for needed in ("micro_runtime/Makefile", "micro_runtime/micro_interpreter.cc", "micro_runtime/micro_test.h",
                   "micro_runtime/schema/schema.fbs", "micro_runtime/tools/model_to_cc.py",
                   "micro_runtime/model_runner/model_runner.mk", "boards/bluepill/board.toml",
                   "boards/cortex_m/cortex_m.ld", "boards/cortex_m/startup.c", "renode/bluepill.resc"):
        assert data + needed in names, needed
    assert "harness/pytest/plugin.py" in names and "harness/core/project.py" in names
    # The instruction-counting QEMU plugin's sources, built on the user's machine on first use.
    plugin = "harness/runners/insn_counter/"
    assert {plugin + "insn_counter.c", plugin + "qemu_plugin_api.h"} <= set(names)
    assert not [n for n in names if "/gen/" in n or n.endswith("_test.cc") or "__pycache__" in n]
    # The harness's tests, test support and test data stay in the checkout.
    assert {"harness/session.py", "harness/formats/reader.py", "harness/formats/micro_test.py"} <= set(names)
    assert not [n for n in names if n.startswith(("harness/testing/", "harness/testdata/"))
                or (n.endswith("_test.py") and n != "harness/formats/micro_test.py")]
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "harness = harness.pytest.plugin" in text and "harness = harness.cli.main:main" in text


def test_the_wheel_declares_the_model_extra(wheel: Path) -> None:
    """run-model's numpy and flatbuffers come with the `model` extra (pyproject.toml says why not base dependencies)."""
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "Provides-Extra: model" in metadata
    for package in ("numpy", "flatbuffers"):
        assert any(line.startswith(f"Requires-Dist: {package}") and 'extra == "model"' in line
                   for line in metadata.splitlines()), package
    assert not any(line.startswith("Requires-Dist: numpy") and "extra ==" not in line for line in metadata.splitlines())


def _harness_without(venv: Path, cwd: Path, modules: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """The venv's ``harness ARGS`` with ``modules`` unimportable: an install without their extras."""
    code = (f"import sys\nfor name in {modules!r}:\n    sys.modules[name] = None\n"
            "from harness.cli.main import main\nsys.exit(main(sys.argv[1:]))")
    return subprocess.run([str(venv / "bin" / "python"), "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          env=_clean_env(), timeout=300, check=False)


def test_a_wheel_install_without_extras_is_told_which_to_install(venv: Path, user_project: Path) -> None:
    """Hints a wheel user can follow: pip install 'micro-harness[<extra>]', never the checkout's .ci/install-deps."""
    model = user_project / "tests" / "models"
    tflite = next(model.glob("*.tflite"))
    cases = user_project / "cases.json"
    cases.write_text("{}")
    try:
        out = _harness_without(venv, user_project, ("numpy",), "run-model", str(tflite), "--board", "host",
                               "--cases", str(cases))
    finally:
        cases.unlink()
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.strip().endswith("install: pip install 'micro-harness[model]'"), out.stderr
    out = _harness_without(venv, user_project, ("pyocd",), "devices", "scan")
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr
    assert "install: pip install 'micro-harness[hil]'" in out.stderr, out.stderr
    out = _harness_without(venv, user_project, ("numpy", "labgrid", "robot", "pyocd"), "doctor")
    for extra in ("model", "farm", "robot", "hil"):
        assert f"install: pip install 'micro-harness[{extra}]'" in out.stdout, out.stdout
    assert ".ci/install-deps" not in out.stdout + out.stderr


def test_the_venv_imports_the_wheel_not_the_checkout(venv: Path, user_project: Path) -> None:
    proc = subprocess.run([str(venv / "bin" / "python"), "-c", "import harness; print(harness.REPO_ROOT)"],
                          capture_output=True, text=True, cwd=user_project, env=_clean_env(), check=True)
    root = Path(proc.stdout.strip())
    assert root.is_relative_to(venv) and root.name == "_data", root


def test_user_project_runs_end_to_end_on_emulated_boards(venv: Path, user_project: Path) -> None:
    """pytest in the project folder: its own board (bluepill_128k), its sources, its model, built-in bluepill,
    its Python test using the dut fixture."""
    junit = user_project / "build" / "junit.xml"
    proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "--board=bluepill,bluepill_128k", "-p",
                           "no:cacheprovider", f"--junitxml={junit}"], capture_output=True, text=True,
                          cwd=user_project, env=_clean_env(), timeout=1200, check=False)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-4000:]
    assert f"project {user_project}" in output and f"build {user_project / 'build' / 'micro-harness'}" in output
    assert "harness: 10 micro test cases ran (bluepill (qemu): 5, bluepill_128k (qemu): 5)" in output
    counted = [c for c in ET.parse(junit).iter("testcase")
               if any(p.get("name") == "instructions" and int(p.get("value", "0")) > 0 for p in c.iter("property"))]
    assert len(counted) == 10, "every micro case carries its instruction count (the wheel built the plugin)"
    cases = {(c.get("classname"), c.get("name").split("[")[0]): c for c in ET.parse(junit).iter("testcase")}
    assert set(cases) >= EXPECTED_CASES, sorted(cases)
    for board in ("bluepill", "bluepill_128k"):  # the project's Python test through the wheel's dut fixture
        key = ("tests.test_sine_dut", f"test_the_model_test_reports_its_case[{board}]")
        assert key in {(c.get("classname"), c.get("name")) for c in ET.parse(junit).iter("testcase")}, key
    for key in EXPECTED_CASES:
        bad = [child.tag for child in cases[key] if child.tag in ("failure", "error", "skipped")]
        assert not bad, f"{key} did not pass: {ET.tostring(cases[key]).decode()[:500]}"
    # Builds went to the project's build folder, with project-relative binary names; nothing into the venv.
    for board in ("bluepill", "bluepill_128k"):
        assert (user_project / "build" / "micro-harness" / board / "bin" / "tests" / "sine_model_test").is_file()
    assert not list(venv.rglob("harness/_data/micro_runtime/gen"))


def test_a_failing_user_test_fails_through_the_wheel(venv: Path, user_project: Path) -> None:
    broken = user_project / "tests" / "broken_test.cc"
    broken.write_text('#include "micro_runtime/micro_test.h"\n#include "smoothing.h"\n'
                      "TF_LITE_MICRO_TESTS_BEGIN\n"
                      "TF_LITE_MICRO_TEST(Passes) { TF_LITE_MICRO_EXPECT_EQ(7, Smoother(32767).Update(7)); }\n"
                      "TF_LITE_MICRO_TEST(Fails) { TF_LITE_MICRO_EXPECT_EQ(1, Smoother(32767).Update(7)); }\n"
                      "TF_LITE_MICRO_TESTS_END\n")
    try:
        proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "--board=bluepill", "-p",
                               "no:cacheprovider", "-rA", "tests/broken_test.cc"], capture_output=True, text=True,
                              cwd=user_project, env=_clean_env(), timeout=600, check=False)
    finally:
        broken.unlink()
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output[-3000:]
    assert "PASSED tests/broken_test.cc::Passes[bluepill]" in output
    assert "FAILED tests/broken_test.cc::Fails[bluepill]" in output


def test_the_cli_of_the_wheel_knows_the_project_boards(venv: Path, user_project: Path) -> None:
    proc = subprocess.run([str(venv / "bin" / "harness"), "boards"], capture_output=True, text=True,
                          cwd=user_project / "tests", env=_clean_env(), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "bluepill_128k" in proc.stdout and "bluepill" in proc.stdout


FOREIGN = REPO_ROOT / "examples" / "foreign_firmware"


def test_foreign_firmware_runs_as_items_through_the_wheel(venv: Path, tmp_path: Path) -> None:
    """examples/foreign_firmware (its own startup, linker scripts, UART/semihosting logging, Unity-style tests,
    its own Makefile) as a user tests it: `pytest` in its folder, each case an item on bluepill and
    netduinoplus2; a failing case fails with the file:line its framework printed."""
    project = tmp_path / "foreign"
    shutil.copytree(FOREIGN, project, ignore=shutil.ignore_patterns("build", "__pycache__", ".pytest_cache"))
    with open(project / "pyproject.toml", "a") as toml:
        toml.write('\n[[tool.micro-harness.firmware]]\nname = "unity-failure"\n'
                   'elf = "build/{board}/uart-failure/unity_tests.elf"\nboards = ["bluepill", "netduinoplus2"]\n'
                   'build = "make BOARD={board} LOG=uart DEMO_FAILURE=1"\nframework = "unity"\nexit-status = false\n')
    junit = project / "junit.xml"
    proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "-p", "no:cacheprovider", "-n", "2",
                           f"--junitxml={junit}"], capture_output=True, text=True, cwd=project, env=_clean_env(),
                          timeout=1200, check=False)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output[-4000:]
    results: dict[tuple[str, str], str] = {}
    for case in ET.parse(junit).iter("testcase"):
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        results[(case.get("classname", ""), case.get("name", ""))] = outcome
    for board in ("bluepill", "netduinoplus2"):
        for build in ("uart", "semihosting", "uart-failure"):
            classname = f"build.{board}.{build}.unity_tests.elf"
            assert results[(classname, f"test_moving_average_starts_at_first_sample[{board}]")] == "passed"
            assert results[(classname, f"test_moving_average_tracks_a_ramp_without_lag[{board}]")] == "skipped"
            assert results[(classname, f"binary-checks[{board}]")] == "passed"
        assert results[(f"build.{board}.uart-failure.unity_tests.elf", f"test_demo_failure[{board}]")] == "failure"
    assert sorted(outcome for outcome in results.values() if outcome in ("failure", "error")) == ["failure"] * 2
    assert "tests/test_main.c:82:test_demo_failure:FAIL: Expected 3 Was 4" in ET.tostring(
        ET.parse(junit).getroot()).decode()
    assert not list(venv.rglob("harness/_data/micro_runtime/gen"))
