"""docs/extending.md is true: its toy format and toy backend, taken from the page as written, run
through the harness with one registry line each, and get the same verdict rules as the built-ins."""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import REPO_ROOT, formats, runners
from harness.board.boards import load_board
from harness.cli import doctor
from harness.cli.main import make_parser
from harness.outcome import Outcome
from harness.session import RunOptions, run_binary

PAGE = REPO_ROOT / "docs" / "extending.md"
BLOCK = re.compile(r"^```python (?P<target>\S+)\n(?P<code>.*?)^```$", re.MULTILINE | re.DOTALL)
BOARD = load_board("bluepill")  # an MCU board: the host board always runs natively


def _blocks() -> list[tuple[str, str]]:
    return [(m["target"], m["code"]) for m in BLOCK.finditer(PAGE.read_text())]


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The page's modules in a temporary package, and its registry lines applied to the registries."""
    blocks = _blocks()
    assert [target for target, _ in blocks] == ["toyext/tap.py", "registry", "toyext/script_runner.py", "registry"]
    package = tmp_path / "toyext"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for target, code in blocks:
        if target == "registry":
            namespace = {"FORMATS": {}, "REGISTRY": {}, "Backend": runners.Backend}
            exec(code, namespace)  # one line: FORMATS[...] = ... or REGISTRY[...] = ...
            for name, entry in namespace["FORMATS"].items():
                monkeypatch.setitem(formats.FORMATS, name, entry)
            for name, entry in namespace["REGISTRY"].items():
                monkeypatch.setitem(runners.REGISTRY, name, entry)
        else:
            (tmp_path / target).write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    formats.detection_order.cache_clear()  # the registry is read once per process; this one grew
    yield
    formats.detection_order.cache_clear()
    for name in [name for name in sys.modules if name.startswith("toyext")]:
        del sys.modules[name]


def _script(tmp_path: Path, lines: list[str], status: int = 0) -> Path:
    script = tmp_path / "firmware.py"
    script.write_text(textwrap.dedent(f"""\
        import sys
        print({chr(10).join(lines)!r}, flush=True)
        sys.exit({status})
        """))
    return script


PASSING = ["TAP version 13", "1..3", "ok 1 - adds", "ok 2 - subtracts # SKIP no FPU", "ok 3 - multiplies"]


def test_a_toy_format_and_backend_run_through_the_session(toy: None, tmp_path: Path) -> None:
    report = run_binary(BOARD, _script(tmp_path, PASSING), RunOptions(backend="script", fmt="tap"))
    assert report.outcome == Outcome.PASSED, report.summary
    assert report.backend == "script" and report.format == "tap"
    assert [(c.name, c.outcome) for c in report.cases] == [("adds", "passed"), ("subtracts", "skipped"),
                                                           ("multiplies", "passed")]


def test_the_toy_format_is_detected_from_its_first_line(toy: None, tmp_path: Path) -> None:
    report = run_binary(BOARD, _script(tmp_path, PASSING), RunOptions(backend="script"))
    assert report.outcome == Outcome.PASSED and report.format == "tap", report.summary


@pytest.mark.parametrize(
    ("lines", "status", "expected"),
    [
        (["TAP version 13", "1..2", "ok 1 - a", "not ok 2 - b"], 1, Outcome.FAILED),
        # Output that stops before the framework's own end is the run's death, whatever the exit status.
        (["TAP version 13", "1..3", "ok 1 - a", "ok 2 - b"], 0, Outcome.CRASHED),  # two of three planned
        (["TAP version 13", "ok 1 - a", "ok 2 - b"], 0, Outcome.CRASHED),  # no plan: never known complete
        (["TAP version 13", "1..1", "ok 1 - a"], 3, Outcome.FAILED),  # the exit status disagrees
        (["TAP version 13", "1..0"], 0, Outcome.NO_TESTS),
    ],
)
def test_the_built_in_verdict_rules_hold_for_the_toy_pair(
    toy: None, tmp_path: Path, lines: list[str], status: int, expected: Outcome
) -> None:
    report = run_binary(BOARD, _script(tmp_path, lines, status), RunOptions(backend="script", fmt="tap"))
    assert report.outcome != Outcome.PASSED, report.summary
    assert report.outcome == expected, report.summary


def test_the_cli_and_doctor_read_the_registry(toy: None) -> None:
    args = make_parser().parse_args(["run", "x.py", "--board", "bluepill", "--backend", "script"])
    assert args.backend == "script"
    assert "python for script firmware" in {check.name for check in doctor.gather()}
    assert "tap" in formats.format_names()
