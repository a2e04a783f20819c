"""harness.core.extras: the install command fits the installation (wheel or checkout); a missing extra is one line."""

from __future__ import annotations

import sys

import pytest

from harness import REPO_ROOT
from harness.core import extras


def test_a_wheel_user_is_told_the_extra_to_pip_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extras, "is_checkout", lambda: False)
    assert extras.install_hint("hil") == "pip install 'micro-harness[hil]'"
    monkeypatch.setitem(sys.modules, "numpy", None)
    message = extras.problem("model", "harness run-model")
    assert message == ("harness run-model needs the Python package numpy (the 'model' extra), which is not "
                       "installed; install: pip install 'micro-harness[model]'")
    assert ".ci" not in message


def test_a_checkout_names_its_editable_install_and_install_deps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extras, "is_checkout", lambda: True)
    monkeypatch.chdir(REPO_ROOT)
    assert extras.install_hint("farm") == "pip install -e '.[farm]' (or .ci/install-deps for every extra)"


def test_require_raises_with_every_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("numpy", "flatbuffers"):
        monkeypatch.setitem(sys.modules, name, None)
    assert extras.missing("model") == ["numpy", "flatbuffers"]
    with pytest.raises(extras.MissingExtra, match=r"needs the Python packages numpy and flatbuffers \(the 'model'"):
        extras.require("model")


def test_every_extra_exists_in_pyproject() -> None:
    import tomllib

    declared = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for name, extra in extras.EXTRAS.items():
        assert name in declared, name
        pinned = {requirement.split(">")[0].split("=")[0].split("~")[0].strip() for requirement in declared[name]}
        assert set(extra.packages) <= pinned, (name, declared[name])


def test_the_robot_run_model_keyword_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("robot")
    from harness.robot.HarnessLibrary import HarnessLibrary

    monkeypatch.setattr(extras, "is_checkout", lambda: False)
    monkeypatch.setitem(sys.modules, "flatbuffers", None)
    with pytest.raises(AssertionError, match=r"^the Run Model keyword needs the Python package flatbuffers \(the "
                       r"'model' extra\), which is not installed; install: pip install 'micro-harness\[model\]'$"):
        HarnessLibrary(board="host").run_model("model.tflite", "cases.json")
