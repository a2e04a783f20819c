"""harness.core.project: the warnings-as-errors setting (pyproject and ini forms) and why a folder is the root."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.core import project


def test_warnings_are_errors_unless_the_project_says_otherwise(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.micro-harness]\n")
    assert project.load(tmp_path).warnings_as_errors is True
    (tmp_path / "pyproject.toml").write_text("[tool.micro-harness]\nwarnings-as-errors = false\n")
    assert project.load(tmp_path).warnings_as_errors is False


@pytest.mark.parametrize(("text", "expected"), [("false", False), ("no", False), ("0", False), ("True", True)])
def test_the_ini_key_takes_pytest_booleans(tmp_path: Path, text: str, expected: bool) -> None:
    (tmp_path / "pytest.ini").write_text(f"[pytest]\nmicro_warnings_as_errors = {text}\n")
    loaded = project.load(tmp_path)
    assert loaded.warnings_as_errors is expected and loaded.config_file == tmp_path / "pytest.ini"


def test_a_warnings_setting_that_is_not_a_boolean_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.micro-harness]\nwarnings-as-errors = "off"\n')
    with pytest.raises(project.ProjectError, match="warnings-as-errors must be true or false"):
        project.load(tmp_path)
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "tox.ini").write_text("[pytest]\nmicro_warnings_as_errors = sometimes\n")
    with pytest.raises(project.ProjectError, match="micro_warnings_as_errors must be true or false, not 'sometimes'"):
        project.load(tmp_path)


def test_root_reason_says_why_a_folder_is_the_project(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = x\n")
    assert project.root_reason(project.load(tmp_path)) == "the nearest folder with a setup.cfg"
    (tmp_path / "pytest.ini").write_text("[pytest]\nmicro_sources = \n")
    assert project.root_reason(project.load(tmp_path)) == "its pytest.ini has harness settings"
    bare = tmp_path / "bare"
    bare.mkdir()
    assert project.root_reason(project.load(bare)).endswith("so the folder the harness started in")
