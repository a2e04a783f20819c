"""What a failed build says, narrowed for a person: the linker's "region overflowed" as a does-not-fit
message with the boards that fit, make's output from the first error on, and the first diagnostic
that points into the user's own sources (``first_error_line``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from harness import PACKAGE_DIR, REPO_ROOT
from harness.board.boards import Board
from harness.build.footprint import misfit_message
from harness.build.make import RUNTIME_DIR, gen_root
from harness.core import project

_OVERFLOW = re.compile(r"region [`']?(\w+)'? overflowed by (\d+) bytes")
_NOT_FIT = re.compile(r"section [`']?([\w.]+)'? will not fit in region [`']?(\w+)'?")


def explain_link_error(name: str, board: Board, output: str) -> str | None:
    """Turns the linker's "region FLASH overflowed by N bytes" into a does-not-fit message."""
    flash_over = ram_over = 0
    for region, amount in _OVERFLOW.findall(output):
        if "RAM" in region.upper():
            ram_over = max(ram_over, int(amount))
        else:
            flash_over = max(flash_over, int(amount))
    if flash_over or ram_over:
        flash = (board.flash.size + flash_over) if board.flash and flash_over else 0
        ram = (board.ram.size + ram_over) if board.ram and ram_over else 0
        return misfit_message(name, board, flash, ram)
    # A single section bigger than the whole region: ld gives no byte count.
    match = _NOT_FIT.search(output)
    if match is None:
        return None
    section, region = match.groups()
    memory = board.ram if "RAM" in region.upper() else board.flash
    if memory is None:
        return f"{name}: section {section} does not fit in region {region} of {board.name}"
    bigger = misfit_message(name, board, memory.size + 1 if memory is board.flash else 0,
                            memory.size + 1 if memory is board.ram else 0)
    hint = bigger.split("; ", 1)[1] if bigger else ""
    return (f"{name} needs more than {board.name}'s {memory.size:,} B of {region}: "
            f"section {section} alone does not fit; {hint}")


def errors_only(output: str, limit: int = 80) -> str:
    """The interesting part of make's output: from the first error on, at most ``limit`` lines."""
    # Compiler command lines are long and say nothing about the error.
    lines = [line for line in output.splitlines() if not (" -c " in line and " -o " in line and ": " not in line)]
    for index, line in enumerate(lines):
        if "error:" in line or "Error " in line or "undefined reference" in line:
            lines = lines[max(0, index - 3) :]
            break
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join(lines)


# A compiler diagnostic: "path:line[:col]: error: text" (also "fatal error", "warning", "note").
_DIAGNOSTIC = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+)(?::(?P<col>\d+))?: "
                         r"(?P<kind>fatal error|error|warning|note): (?P<text>.*)$")
# A template's instantiation chain, printed before its error: "path:line:col:   required from here".
_REQUIRED_FROM = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+)(?::(?P<col>\d+))?:\s+(?P<text>required from .*)$")


def warning_lines(output: str) -> list[str]:
    """The compiler's warnings in a build's output ("path:line:col: warning: text"), each once, in order:
    printed for a build that passed with them (a project that set warnings-as-errors = false)."""
    found = []
    for line in output.splitlines():
        match = _DIAGNOSTIC.match(line.strip())
        if match is not None and match["kind"] == "warning" and line.strip() not in found:
            found.append(line.strip())
    return found


def _is_users(path: Path, sources: set[Path]) -> bool:
    """A file of the user's own code: one of the built sources, or a file of the project (its root or
    include folders) that is neither the harness's (its runtime, boards, package) nor generated."""
    if path in sources:
        return True
    if any(path.is_relative_to(tree) for tree in (REPO_ROOT, PACKAGE_DIR, gen_root())):
        return False
    proj = project.current()
    return any(path.is_relative_to(folder) for folder in (proj.root, *proj.include_dirs))


def first_error_line(output: str, source: Path | Sequence[Path] | None = None) -> str:
    """The one line that best sums up a failed build: the first error in the user's own code (``source``, or any
    project file outside the harness's tree), project-relative. An error inside the harness (a macro or
    template of ``micro_test.h``) is placed at the user's line that led to it, from the macro expansion note
    after it or the ``required from`` chain before it, with the harness's location in brackets. Without any
    such line: the first error, else the first line that mentions one (the linker's ``undefined reference``).
    """
    sources = {Path(s).resolve() for s in ([source] if isinstance(source, (str, Path)) else source or ())}
    lines = output.splitlines()
    proj = project.current()

    def located(match: re.Match[str]) -> tuple[Path, str] | None:
        path = Path(match["path"])
        path = (path if path.is_absolute() else RUNTIME_DIR / path).resolve()  # make runs in micro_runtime/
        if not _is_users(path, sources):
            return None
        col = f":{match['col']}" if match["col"] else ""
        return path, f"{proj.relative(path)}:{match['line']}{col}"

    def harness_place(match: re.Match[str]) -> str:
        path = Path(match["path"])
        path = (path if path.is_absolute() else RUNTIME_DIR / path).resolve()
        shown = path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path
        return f"{shown}:{match['line']}"

    def ends_context(line: str) -> bool:
        match = _DIAGNOSTIC.match(line)
        return match is not None and match["kind"] != "note"

    first = None
    for index, line in enumerate(lines):
        match = _DIAGNOSTIC.match(line)
        if match is None or match["kind"] not in ("error", "fatal error"):
            continue
        first = first or line
        own = located(match)
        if own is not None:
            return f"{own[1]}: {match['kind']}: {match['text']}"
        after = []
        for later in lines[index + 1:]:
            if ends_context(later):
                break
            note = _DIAGNOSTIC.match(later)
            if note is not None and (place := located(note)) is not None:
                after.append((place[1], note["text"]))
        before = []
        for earlier in reversed(lines[:index]):
            if ends_context(earlier):
                break
            chain = _REQUIRED_FROM.match(earlier)
            if chain is not None and (place := located(chain)) is not None:
                before.append((place[1], chain["text"]))
        expansion = [note for note in after if note[1].startswith("in expansion of macro")]
        candidates = expansion or before or after
        if candidates:
            where, context = candidates[0]
            return f"{where}: {match['kind']}: {match['text']} ({harness_place(match)}, {context})"
    if first is not None:
        return first
    return next((line for line in lines if "error:" in line or "undefined reference" in line),
                next((line for line in lines if line.strip()), ""))


