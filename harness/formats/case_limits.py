"""Per-case time limits of a micro test binary: a comment beside the case, or the board's default.

    // harness: timeout=5
    TF_LITE_MICRO_TEST(SlowCase) { ... }

    TF_LITE_MICRO_TEST(OtherCase) {  // harness: timeout=0.5

A ``// harness: timeout=S`` comment on the line above a ``TF_LITE_MICRO_TEST(Name)`` or at the end
of that line gives that case S seconds; every other case gets the board's ``[run] case_timeout_s``
when the board file sets one. ``--micro-timeout`` / ``[run] timeout_s`` stay the limit of the
whole binary. The run loop (``harness.runners.stream``) enforces them: a case still open past its
limit ends the run as a timeout of that case.

The same comment can give a case budgets, ``// harness: max_instructions=250000``, ``max_cycles=400000``
(estimated cycles) and ``max_stack=2048`` (bytes of stack; with a timeout:
``// harness: timeout=5, max_cycles=400000``):
where the figure is measured (QEMU), a case over its budget fails, naming the figure, the budget and where
it is written (``CaseLimits.budgets``; applied by ``harness.session``).

A ``// harness:`` comment that is not beside a case, names an unknown setting or gives no positive
number is an error (the file does not collect), so a typo never silently drops a limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from harness import REPO_ROOT
from harness.board.boards import Board, BoardError
from harness.formats.micro_test import CASE_RE, blank_comments

__all__ = ["CaseLimitError", "CaseLimits", "CaseTimeout", "board_case_timeout", "case_limits",
           "source_case_settings", "source_case_timeouts"]

_HARNESS_RE = re.compile(r"//\s*harness\s*:(?P<body>.*)$")
_SETTING_RE = re.compile(r"^\s*(?P<key>[A-Za-z_]\w*)\s*=\s*(?P<value>\S+)\s*$")
_SECONDS_RE = re.compile(r"^(?P<number>\d+(?:\.\d*)?|\.\d+)s?$")


@dataclass(frozen=True)
class CaseTimeout:
    """A test case that ran longer than its own limit."""

    case: str
    seconds: float
    source: str  # where the limit came from, e.g. "// harness: timeout=2 at hang_test.cc:12"

    def describe(self) -> str:
        return f"{self.case} ran longer than its case timeout of {self.seconds:g} s ({self.source})"


@dataclass
class CaseLimits:
    """Per-case limits: ``per_case`` name -> (seconds, source); ``default_s`` for the other cases; ``budgets``."""

    per_case: dict[str, tuple[float, str]] = field(default_factory=dict)
    default_s: float | None = None
    default_source: str = ""
    # ``// harness: max_instructions=N, max_cycles=N, max_stack=N``: case -> figure ("instructions", "cycles",
    # "stack") -> (its
    # limit, where the budget is written); checked where the figure is measured (QEMU) by ``harness.session``.
    # Not a time limit: no part of bool().
    budgets: dict[str, dict[str, tuple[int, str]]] = field(default_factory=dict)
    # The board's ([run] case_budgets) and the project's (case-budgets) defaults for every case: figure ->
    # (limit, where); a case's own budget for the same figure wins.
    default_budgets: dict[str, tuple[int, str]] = field(default_factory=dict)

    def budgets_for(self, case: str) -> dict[str, tuple[int, str]]:
        """The budgets that hold for ``case``: its own, else the board's, else the project's."""
        return {**self.default_budgets, **self.budgets.get(case, {})}

    def limit_for(self, case: str) -> tuple[float, str] | None:
        if case in self.per_case:
            return self.per_case[case]
        if self.default_s is not None:
            return self.default_s, self.default_source
        return None

    def __bool__(self) -> bool:
        return bool(self.per_case) or self.default_s is not None


class CaseLimitError(ValueError):
    """A malformed per-case limit: a bad ``// harness:`` comment or ``[run] case_timeout_s``."""


def _seconds(text: str) -> float | None:
    match = _SECONDS_RE.match(text)
    if match is None:
        return None
    value = float(match["number"])
    return value if value > 0 else None


def _where(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


_SETTINGS = {"timeout": "number of seconds > 0 (e.g. '// harness: timeout=5' or 'timeout=0.5')",
             "max_instructions": "whole number of instructions > 0 (e.g. 'max_instructions=250000')",
             "max_cycles": "whole number of estimated cycles > 0 (e.g. 'max_cycles=400000')",
             "max_stack": "whole number of bytes > 0 (e.g. 'max_stack=2048')"}
# Budget settings -> the figure they limit (RunReport.case_instructions, case_cycles, case_stack)
BUDGETS = {"max_instructions": "instructions", "max_cycles": "cycles", "max_stack": "stack"}


def source_case_settings(source: str, path: Path) -> dict[str, dict[str, tuple[float, str]]]:
    """Case name -> setting -> (value, where it came from) of the ``// harness: key=value[, key=value]``
    comments in ``source`` (settings: ``timeout`` in seconds, ``max_instructions``, ``max_cycles``, ``max_stack``)."""
    code = blank_comments(source)
    lines = source.splitlines()
    case_at = {code.count("\n", 0, m.start()): m.group(1) for m in CASE_RE.finditer(code)}  # 0-based line
    found: dict[str, dict[str, tuple[float, str]]] = {}
    for index, line in enumerate(lines):
        comment = _HARNESS_RE.search(line)
        if comment is None:
            continue
        where = f"{path.name}:{index + 1}"
        own_line = line[: comment.start()].strip()
        if index in case_at:
            case = case_at[index]
        elif not own_line and index + 1 in case_at:
            case = case_at[index + 1]
        else:
            raise CaseLimitError(f"{_where(path)}:{index + 1}: '// harness:' comment is not beside a "
                                 "TF_LITE_MICRO_TEST(...): put it on the line above the case or at the end of its line")
        for part in comment["body"].split(","):
            setting = _SETTING_RE.match(part)
            if setting is None or setting["key"] not in _SETTINGS:
                raise CaseLimitError(f"{_where(path)}:{index + 1}: unknown harness setting {part.strip()!r}; the "
                                     "settings are '// harness: timeout=SECONDS, max_instructions=N'")
            key, text = setting["key"], setting["value"]
            value = _seconds(text) if key == "timeout" else (float(text) if text.isdigit() and int(text) > 0 else None)
            if value is None:
                raise CaseLimitError(f"{_where(path)}:{index + 1}: {key}={text} is not a {_SETTINGS[key]}")
            if key in found.get(case, {}):
                raise CaseLimitError(f"{_where(path)}:{index + 1}: {case} already has a {key} "
                                     f"({found[case][key][1]})")
            found.setdefault(case, {})[key] = (value, f"// harness: {key}={text} at {where}")
    return found


def source_case_timeouts(source: str, path: Path) -> dict[str, tuple[float, str]]:
    """Case name -> (seconds, where it came from) of the ``// harness: timeout=S`` comments in ``source``
    (every setting is checked: a malformed one is a CaseLimitError)."""
    return {case: settings["timeout"] for case, settings in source_case_settings(source, path).items()
            if "timeout" in settings}


def board_case_timeout(board: Board) -> tuple[float, str] | None:
    """The board file's default per-case limit (``Board.case_timeout``), a CaseLimitError when malformed."""
    try:
        return board.case_timeout()
    except BoardError as error:
        raise CaseLimitError(str(error)) from error


def case_limits(source_path: Path | None, board: Board) -> CaseLimits:
    """The limits of every case of the binary built from ``source_path`` (None: source unknown, only
    the board's default) when run on ``board``."""
    limits = CaseLimits()
    if source_path is not None:
        try:
            source = Path(source_path).read_text(errors="replace")
        except OSError:
            source = ""
        settings = source_case_settings(source, Path(source_path))  # one read of the comments for both
        limits.per_case = {case: found["timeout"] for case, found in settings.items() if "timeout" in found}
        for case, found in settings.items():
            for setting, figure in BUDGETS.items():
                if setting in found:
                    limits.budgets.setdefault(case, {})[figure] = (int(found[setting][0]), found[setting][1])
    default = board_case_timeout(board)
    if default is not None:
        limits.default_s, limits.default_source = default
    limits.default_budgets = default_budgets(board)
    return limits


def default_budgets(board: Board) -> dict[str, tuple[int, str]]:
    """The project's ``case-budgets``, overridden by the board's ``[run] case_budgets``: figure -> (limit, where)."""
    from harness.core import project

    current = project.current()
    found = {BUDGETS[key]: (value, f"case-budgets {key}={value} in {current.config_file or 'the project'}")
             for key, value in current.case_budgets.items()}
    try:
        board_budgets = board.case_budgets()
    except BoardError as error:
        raise CaseLimitError(str(error)) from error
    toml = board.path / "board.toml"
    where = _where(toml)
    found.update({BUDGETS[key]: (value, f"[run] case_budgets {key}={value} in {where}")
                  for key, value in board_budgets.items()})
    return found
