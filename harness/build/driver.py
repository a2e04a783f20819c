"""Build driver: ``make -C micro_runtime TARGET=<board> <targets>`` with the harness's rules.

- one make call builds every requested test binary of a board, in parallel (``-j`` = CPU count);
- incremental: Make decides what is stale, the driver never forces a rebuild;
- outputs go to the project's build folder (``harness.core.project``): ``micro_runtime/gen/`` in this
  checkout, ``build/micro-harness/`` (or ``build-dir``) in a user's project, whose ``*_test.cc``
  files are built with the project's sources and models (``build_test``);
- shared between processes (pytest-xdist workers, parallel CLI calls): an OS file lock
  ``<build>/<board>/.build.lock`` lets one process build a board at a time; the others
  wait, then find everything up to date;
- a failed build is narrowed to the binaries that failed, each with its compiler output, and
  leaves no ELF of them (the Makefile removes it too; this covers any other way it survived);
- linked binaries are measured (``harness.build.footprint``) against the board's memory, and the
  footprint report ``gen/<board>/footprint.json`` (per binary, per section, per object) is updated.

Size: just over 400 lines: what to build and the one make call per board; running make is
``harness.build.make``, reading its failures ``harness.build.diagnostics``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from harness import REPO_ROOT
from harness.board.boards import Board
from harness.build.diagnostics import errors_only, explain_link_error, first_error_line, warning_lines
from harness.build.footprint import Footprint, FootprintError, measure, misfit_message, report, write_report
from harness.build.make import (
    RUNTIME_DIR,
    Progress,
    board_lock,
    elf_path,
    gen_dir,
    gen_root,
    make_command,
    make_env,
    make_paths,
    run_make,
)
from harness.core import project

_NOT_REMADE = re.compile(r"Target [`']([^']+)' not remade because of errors")
MODEL_TOOL = RUNTIME_DIR / "tools" / "model_to_cc.py"

ARM_PACKAGES = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib"


class BuildError(Exception):
    """A build that cannot run or did not succeed; the message carries the fix or the compiler output."""


@dataclass
class BinaryBuild:
    name: str
    elf: Path | None  # None when it failed to build
    error: str | None = None  # compiler/linker output, or why it does not fit the board
    footprint: Footprint | None = None
    warnings: list[str] = field(default_factory=list)  # compiler warnings of a build that passed with them


@dataclass
class BuildResult:
    board: str
    binaries: dict[str, BinaryBuild] = field(default_factory=dict)
    duration_s: float = 0.0
    output: str = ""  # make's output of the main call
    folder: str = ""  # gen/<folder>/ the binaries are in (the board, or a variant such as <board>_handshake)

    @property
    def ok(self) -> bool:
        return all(b.error is None for b in self.binaries.values())


def _stderr_progress(message: str) -> None:
    print(f"harness: {message}", file=sys.stderr, flush=True)


_SKIPPED_DIRS = {"build", "dist", "venv", ".venv", "node_modules", "__pycache__"}


def discover_tests(root: Path | None = None) -> dict[str, Path]:
    """Binary name -> source of every ``*_test.cc`` the project builds: micro_runtime's (outside gen/),
    like the Makefile, in this checkout; the project's own elsewhere (outside its build folder)."""
    proj = project.current()
    if root is None:
        root = RUNTIME_DIR if proj.is_checkout else proj.root
    found: dict[str, Path] = {}
    outputs = {gen_root().resolve(), (RUNTIME_DIR / "gen").resolve()}
    sources = []
    # A pruned walk: build folders (micro_runtime/gen holds tens of thousands of files) are never entered.
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = [d for d in dirs if not (d.startswith(".") or d in _SKIPPED_DIRS or (here / d).resolve() in outputs)]
        sources += [here / name for name in files if name.endswith("_test.cc")]
    for source in sorted(sources):
        name = source.stem if root == RUNTIME_DIR else test_binary_name(source)
        found.setdefault(name, source)
    return found


def no_tests_message() -> str:
    """What ``discover_tests`` looked for and where, for a project where it found nothing."""
    proj = project.current()
    where = RUNTIME_DIR if proj.is_checkout else proj.root
    skipped = ", ".join(f"{d}/" for d in sorted(d for d in _SKIPPED_DIRS if not d.startswith(("_", "."))))
    return (f"no *_test.cc under {where} (project root {proj.root}: {project.root_reason(proj)}; not searched: "
            f"the build folder, hidden folders, {skipped}); put your tests there, or run harness from your "
            "project's folder")


def is_runtime_test(source: Path) -> bool:
    """A micro_runtime test of this checkout, built by the Makefile's own rules (one make call per board)."""
    return project.current().is_checkout and RUNTIME_DIR in source.resolve().parents


def test_binary_name(source: Path) -> str:
    """The binary of a project's test: its project-relative path without ``.cc`` (``tests/dsp_test``);
    a file outside the project gets ``ext/<name>_<hash of its path>`` (two checkouts never share one)."""
    resolved = source.resolve()
    root = project.current().root
    if resolved.is_relative_to(root):
        return resolved.relative_to(root).with_suffix("").as_posix()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:8]
    return f"ext/{resolved.stem}_{digest}"


def model_data(source: Path) -> list[Path]:
    """The generated sources of the models a project test uses: every ``X.tflite`` beside it or in its
    ``models/`` folder becomes ``<build>/models/<project-relative folder>/X_model_data.{h,cc}`` (included as
    ``"<folder>/X_model_data.h"``), regenerated when the model changes."""
    folder = source.resolve().parent
    root = project.current().root
    generated = []
    for model in sorted([*folder.glob("*.tflite"), *folder.glob("models/*.tflite")]):
        rel = model.parent.relative_to(root) if model.is_relative_to(root) else Path("ext") / model.parent.name
        out_dir = gen_root() / "models" / rel
        out = out_dir / f"{model.stem}_model_data.cc"
        header = out.with_suffix(".h")
        fresh = out.is_file() and header.is_file() and out.stat().st_mtime >= max(
            model.stat().st_mtime, MODEL_TOOL.stat().st_mtime)
        if not fresh:
            proc = subprocess.run([sys.executable, str(MODEL_TOOL), str(model), "--out-dir", str(out_dir),
                                   "--name", model.stem], capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                raise BuildError(f"model {model}: {(proc.stderr or proc.stdout).strip()}")
        generated.append(out)
    return generated


def excluded_tests(board: Board) -> dict[str, str]:
    """Tests the Makefile leaves out for this board (EXCLUDED_TESTS, from requirements.mk), with its note."""
    proc = subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", str(RUNTIME_DIR), f"TARGET={board.name}",
         f"PYTHON={sys.executable}", *make_paths(board), "print-EXCLUDED_TESTS"],
        capture_output=True, text=True, check=False, env=make_env(),
    )
    if proc.returncode != 0:
        return {}  # the build itself will report what is wrong
    notes = {}
    for line in proc.stderr.splitlines():
        words = line.split()
        if line.startswith("note: ") and len(words) > 1:
            notes[words[1]] = line.removeprefix("note: ")
    return {name: notes.get(name, f"{name} is not built for {board.name}") for name in proc.stdout.split()}


def missing_tools(board: Board) -> list[str]:
    """Each tool the board's build needs but this machine lacks, with its install command."""
    problems = []
    if shutil.which("make") is None:
        problems.append("make not found; install it: apt-get install make")
    if shutil.which(os.environ.get("FLATC", "flatc")) is None:
        problems.append("flatc not found; install it: apt-get install flatbuffers-compiler libflatbuffers-dev")
    if shutil.which(board.cxx) is None:
        if board.toolchain_prefix == "arm-none-eabi-":
            fix = ARM_PACKAGES
        elif board.is_host:
            fix = "apt-get install g++ make"
        else:
            fix = f"install the {board.toolchain_prefix.rstrip('-')} toolchain and put it on PATH"
        problems.append(f"compiler {board.cxx} for board '{board.name}' not found; install it: {fix}")
    return problems


def check_tools(board: Board) -> None:
    problems = missing_tools(board)
    if problems:
        raise BuildError("; ".join(problems))


def _finish_binary(board: Board, name: str, check_fit: bool, out: str | None = None) -> BinaryBuild:
    elf = elf_path(out or board, name)
    if not elf.is_file():
        return BinaryBuild(name, None, f"make reported success but {elf} does not exist")
    try:
        footprint = measure(elf, board)
    except FootprintError as error:
        return BinaryBuild(name, None, str(error))
    problem = misfit_message(name, board, footprint.flash, footprint.ram) if check_fit else None
    return BinaryBuild(name, elf if problem is None else None, problem, footprint)


def _not_built(elf: Path, message: str) -> BinaryBuild:
    """A binary whose build failed: no ELF of older sources is left behind to run as if it were built."""
    elf.unlink(missing_ok=True)
    return BinaryBuild(elf.name, None, message)


FOOTPRINT_JSON = "footprint.json"  # gen/<folder>/footprint.json: the footprint report of the last builds


def footprint_report(board: Board, result: BuildResult) -> dict[str, object]:
    """The footprint report (harness.build.footprint.report) of the binaries ``result`` built."""
    built = {name: b.elf for name, b in result.binaries.items() if b.elf is not None}
    return report(board, built, REPO_ROOT, result.folder or board.name)


def _update_footprint_report(board: Board, result: BuildResult, out: str, progress: Progress | None) -> None:
    """Merges this build's binaries into gen/<out>/footprint.json (under the board lock)."""
    try:
        write_report(gen_dir(out) / FOOTPRINT_JSON, footprint_report(board, result), merge_root=REPO_ROOT)
    except OSError as error:  # the build itself succeeded; the report is a by-product
        if progress is not None:
            progress(f"could not write {gen_dir(out) / FOOTPRINT_JSON}: {error}")


HANDSHAKE_VARIANT = "handshake"  # gen/<board>_handshake/: the Makefile's HANDSHAKE=1 build


def build(
    board: Board,
    targets: Sequence[str] | None = None,
    *,
    jobs: int | None = None,
    progress: Progress | None = _stderr_progress,
    check_fit: bool = True,
    handshake: bool = False,
) -> BuildResult:
    """Builds ``targets`` (test binary names; None = every test) for ``board`` in one make call.

    ``handshake`` builds the variant with the UART start handshake linked in (make HANDSHAKE=1,
    into gen/<board>_handshake/), for boards whose USB serial port loses the first bytes.
    Raises BuildError only when nothing can be built (missing tools); per-binary failures are in
    the result so one broken test does not hide the others.
    """
    check_tools(board)
    names = list(targets) if targets is not None else list(discover_tests(RUNTIME_DIR))
    result = BuildResult(board=board.name)
    if not names:
        return result
    start = time.monotonic()
    result.folder = f"{board.name}_{HANDSHAKE_VARIANT}" if handshake else board.name
    # A variant has its own output folder, so it takes that folder's lock, not the plain build's.
    out = f"{board.name}_{HANDSHAKE_VARIANT}" if handshake else board.name
    flags = ("HANDSHAKE=1",) if handshake else ()
    with board_lock(out, progress):
        if progress is not None:
            progress(f"building {len(names)} binaries for {out} (make -j{jobs or os.cpu_count()})")
        # -k: keep going so every binary that can be built is.
        code, output = run_make(make_command(board, names, jobs, "-k", *flags), progress, out)
        result.output = output
        if code == 0:
            for name in names:
                result.binaries[name] = _finish_binary(board, name, check_fit, out)
        else:
            # Narrow the failure down: each binary make could not remake, alone (everything
            # else is up to date now), so its own compiler output is attached to it.
            not_remade = set(_NOT_REMADE.findall(output)) & set(names)
            for name in names:
                if not_remade and name not in not_remade:
                    result.binaries[name] = _finish_binary(board, name, check_fit, out)
                    continue
                one_code, one_output = run_make(make_command(board, [name], jobs, *flags), None, name)
                if one_code == 0:
                    result.binaries[name] = _finish_binary(board, name, check_fit, out)
                else:
                    message = explain_link_error(name, board, one_output) or (
                        f"build of {name} for {board.name} failed: "
                        f"{first_error_line(one_output, discover_tests(RUNTIME_DIR).get(name))}\n"
                        f"{errors_only(one_output)}"
                    )
                    result.binaries[name] = _not_built(elf_path(out, name), message)
        _update_footprint_report(board, result, out, progress)
    result.duration_s = time.monotonic() - start
    if progress is not None:
        failed = [n for n, b in result.binaries.items() if b.error]
        status = f"{len(failed)} failed ({', '.join(failed[:5])})" if failed else "all built"
        progress(f"{board.name}: {len(names)} binaries in {result.duration_s:.1f} s, {status}")
    return result


def build_program(
    board: Board, source: Path | Sequence[Path], name: str, *, include_dirs: Sequence[Path] = (),
    progress: Progress | None = _stderr_progress, warnings_as_errors: bool = True,
) -> BinaryBuild:
    """Builds a standalone program (its sources + testing library + runtime + board) via the Makefile's
    ``program`` goal; ``include_dirs`` are -I folders for its own sources only. ``warnings_as_errors=False``
    compiles its own sources with ``-Wno-error`` (warnings are printed, the build goes on); the runtime keeps
    ``-Werror``."""
    check_tools(board)
    sources = [Path(s).resolve() for s in ([source] if isinstance(source, (str, Path)) else source)]
    for path in sources:
        if not path.is_file():
            raise BuildError(f"program source {path} does not exist")
        if any(c.isspace() for c in str(path)):
            raise BuildError(f"program source {path}: make cannot build paths with spaces; move or rename it")
    with board_lock(board, progress):
        argv = make_command(board, ["program"], None, f"PROGRAM_SRC={' '.join(map(str, sources))}",
                            f"PROGRAM_NAME={name}", f"PROGRAM_INCLUDES={' '.join(map(str, include_dirs))}",
                            f"PROGRAM_WERROR={int(warnings_as_errors)}")
        code, output = run_make(argv, progress, name)
    if code != 0:
        message = explain_link_error(name, board, output) or (
            f"build of {name} for {board.name} failed: {first_error_line(output, sources)}\n{errors_only(output)}")
        return _not_built(elf_path(board, name), message)
    built = _finish_binary(board, name, check_fit=True)
    built.warnings = warning_lines(output)
    if built.warnings and progress is not None:
        more = f" (+{len(built.warnings) - 1} more)" if len(built.warnings) > 1 else ""
        progress(f"{name}: built with {len(built.warnings)} compiler warning(s): {built.warnings[0]}{more}")
    return built


def build_test(board: Board, source: Path, *, progress: Progress | None = _stderr_progress) -> BinaryBuild:
    """A project's ``*_test.cc`` (not micro_runtime's own): the test, the project's ``sources`` and the
    models beside it, linked with the runtime into ``<build>/<board>/bin/<test_binary_name>``."""
    proj = project.current()
    try:
        sources = [source, *proj.sources(), *model_data(source)]
    except project.ProjectError as error:
        raise BuildError(str(error)) from error
    includes = [*proj.include_paths(), gen_root() / "models"]
    built = build_program(board, sources, test_binary_name(source), include_dirs=includes, progress=progress,
                          warnings_as_errors=proj.warnings_as_errors)
    if built.elf is not None and built.error is None:
        # Which source a built binary came from (its per-case limits), for front ends given only the ELF.
        source_note(built.elf).write_text(str(Path(source).resolve()) + "\n")
    return built


def source_note(elf: Path) -> Path:
    """The file beside a project test's ELF naming its source (``source_of``)."""
    return elf.with_name(elf.name + ".source")


def source_of(elf: Path) -> Path | None:
    """The ``*_test.cc`` a binary was built from: micro_runtime's own by name, a project's from the note
    ``build_test`` leaves beside it; None for other binaries."""
    elf = Path(elf)
    note = source_note(elf)
    if note.is_file():
        found = Path(note.read_text().strip())
        return found if found.is_file() else None
    return discover_tests().get(elf.name)


def build_tests(board: Board, names: Sequence[str], *, jobs: int | None = None,
                progress: Progress | None = _stderr_progress) -> BuildResult:
    """Builds test binaries by name (``discover_tests()``): micro_runtime's own in one make call, a
    project's each with its sources and models; one result for all."""
    tests = discover_tests()
    runtime = [n for n in names if n in tests and is_runtime_test(tests[n])]
    start = time.monotonic()
    result = build(board, runtime, jobs=jobs, progress=progress) if runtime else BuildResult(board=board.name)
    for name in names:
        if name not in runtime:
            result.binaries[name] = build_test(board, tests[name], progress=progress)
    result.folder = result.folder or board.name
    result.duration_s = time.monotonic() - start
    return result


def ensure_binary(
    board: Board, name: str, *, progress: Progress | None = _stderr_progress, handshake: bool = False
) -> Path:
    """Path of test binary ``name`` for ``board`` (its start-handshake variant), built (incrementally) first."""
    tests = discover_tests()
    source = Path(name)
    if source.name.endswith("_test.cc") and source.is_file():  # a test's source path
        name = next((n for n, s in tests.items() if s.resolve() == source.resolve()), test_binary_name(source))
        tests.setdefault(name, source.resolve())
    if name not in tests:
        where = "micro_runtime" if project.current().is_checkout else str(project.current().root)
        close = ", ".join(sorted(t for t in tests if name.split("_")[0] in t)[:5]) or "run `harness build --list`"
        raise BuildError(f"no test named '{name}' (no {name}.cc under {where}); similar: {close}")
    if not is_runtime_test(tests[name]):
        if handshake:
            raise BuildError(f"{name}: the start-handshake variant is built only for micro_runtime's own tests")
        built = build_test(board, tests[name], progress=progress)
        if built.error or built.elf is None:
            raise BuildError(built.error or f"{name} was not built")
        return built.elf
    built = build(board, [name], progress=progress, handshake=handshake).binaries[name]
    if built.error or built.elf is None:
        raise BuildError(built.error or f"{name} was not built")
    return built.elf


def binary_for(board: Board, what: str | Path, *, progress: Progress | None = _stderr_progress) -> Path:
    """The ELF a user means by ``what``: a test by name (``conv_test``, ``tests/dsp_test``) or by source
    (``path/to/x_test.cc``), built (incrementally) first; an existing file as it is; a program built
    earlier by name (``<build>/<board>/bin/<name>``). Used by ``harness run``, ``dut`` and Robot."""
    text, path = str(what), Path(what)
    if text in discover_tests() or (path.name.endswith("_test.cc") and path.is_file()):
        return ensure_binary(board, text, progress=progress)
    if path.is_file():
        return path
    if "/" in text or text.endswith(".elf"):
        raise BuildError(f"{text} does not exist; build it first (harness build --board {board.name}), or name a "
                         "test (harness build --list)")
    if elf_path(board, text).is_file():
        return elf_path(board, text)
    return ensure_binary(board, text, progress=progress)  # says which tests exist
