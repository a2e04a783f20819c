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


def test_firmware_entries_are_read_with_their_defaults(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[[tool.micro-harness.firmware]]\nelf = "build/{board}/app.elf"\nboards = ["bluepill", "netduinoplus2"]\n'
        'build = "make BOARD={board}"\nframework = "unity"\nexit-status = false\ntimeout = 20\n\n'
        '[[tool.micro-harness.firmware]]\nelf = "/abs/other.axf"\nboards = "bluepill"\nname = "other"\n')
    first, second = project.load(tmp_path).firmware
    assert first.boards == ("bluepill", "netduinoplus2") and first.framework == "unity"
    assert first.exit_status is False and first.timeout_s == 20.0 and first.label == "app.elf"
    assert first.elf_for(tmp_path, "bluepill") == tmp_path / "build" / "bluepill" / "app.elf"
    assert first.build_for("netduinoplus2") == "make BOARD=netduinoplus2"
    assert first.origin.endswith("[[tool.micro-harness.firmware]] #1")
    assert second.boards == ("bluepill",) and second.build is None and second.exit_status is None
    assert second.elf_for(tmp_path, "bluepill") == Path("/abs/other.axf") and second.label == "other"


@pytest.mark.parametrize(("entry", "message"), [
    ('boards = ["bluepill"]', r"#1 needs elf = "),
    ('elf = "a.elf"', r"\(a.elf\) needs boards = "),
    ('elf = "a.elf"\nboards = ["bluepill", "netduinoplus2"]', r"names 2 boards but one ELF path: put \{board\}"),
    ('elf = "a.elf"\nboards = ["bluepill"]\nexit_status = false', r"unknown keys \['exit_status'\]"),
    ('elf = "a.elf"\nboards = ["bluepill"]\nexit-status = "no"', "exit-status must be true or false"),
    ('elf = "a.elf"\nboards = ["bluepill"]\ntimeout = 0', "timeout must be a number of seconds > 0"),
    ('elf = "a.elf"\nboards = ["bluepill"]\nbuild = ""', "build must be a shell command"),
])
def test_a_wrong_firmware_entry_is_an_error_naming_it(tmp_path: Path, entry: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[[tool.micro-harness.firmware]]\n{entry}\n")
    with pytest.raises(project.ProjectError, match=message):
        project.load(tmp_path)


def test_firmware_must_be_an_array_of_tables(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.micro-harness]\nfirmware = "build/app.elf"\n')
    with pytest.raises(project.ProjectError, match=r"must be an array of tables"):
        project.load(tmp_path)
