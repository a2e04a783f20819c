"""The project under test: where its micro tests, board files, models and build folder are.

The harness serves two kinds of project:

- **this checkout** (``micro_runtime``'s own tests, run from an editable install): builds go to
  ``micro_runtime/gen/`` as ``make -C micro_runtime`` puts them;
- **a user's project** anywhere else (the harness installed from a wheel, or from a checkout
  elsewhere): its ``*_test.cc`` files are built against the runtime the harness carries, into
  a build folder of the *project* (default ``build/micro-harness/``), with its own boards.

Settings, all optional, in ``pyproject.toml``::

    [tool.micro-harness]
    boards = ["boards"]              # folders holding <name>/board.toml; searched before the built-in boards
    build-dir = "build/micro-harness"
    sources = ["src/*.cc"]           # linked into every test binary (globs, project-relative)
    include-dirs = ["src"]           # besides the project root, which is always on the include path
    warnings-as-errors = true        # false: compiler warnings in the project's code do not fail its build
    case-budgets = { max_stack = 4096, max_cycles = 5000000 }  # every micro case's default budgets

    [[tool.micro-harness.firmware]]  # firmware built elsewhere (any build system), tested as pytest items
    elf = "build/{board}/app.elf"    # the linked binary; {board} is the board's name
    boards = ["bluepill"]            # the boards it is built for
    build = "make BOARD={board}"     # optional: run in the project root before its items are collected
    framework = "unity"              # optional: its test framework (else detected from its output)
    exit-status = false              # optional: it never exits; its framework's end of run ends the run
    timeout = 30                     # optional: seconds per run (else the board's)
    name = "app"                     # optional: what messages call it (default: the ELF's name)

(``firmware`` and ``case-budgets`` only in ``pyproject.toml``) or as ``micro_boards``, ``micro_build_dir``,
``micro_sources``, ``micro_include_dirs``, ``micro_warnings_as_errors`` in the ``[pytest]`` section of
``pytest.ini`` (``[tool:pytest]`` of ``setup.cfg``, ``[pytest]`` of ``tox.ini``).

The project in use is process-wide (``use()``), and passed to child processes (make calling
``harness.board.board_mk``, pytest-xdist workers) through ``MICRO_HARNESS_PROJECT``; a harness of another
installation (another checkout, a wheel in a venv) started from such a process ignores it.
"""

from __future__ import annotations

import configparser
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import REPO_ROOT

PROJECT_ENV = "MICRO_HARNESS_PROJECT"  # "<project root>" + os.pathsep + "<REPO_ROOT of the harness that set it>"
CONFIG_TABLE = "micro-harness"
BUILTIN_BOARDS = REPO_ROOT / "boards"
RUNTIME_DIR = REPO_ROOT / "micro_runtime"
CHECKOUT_BUILD_DIR = RUNTIME_DIR / "gen"
DEFAULT_BUILD_DIR = Path("build") / "micro-harness"

# pyproject key -> ini key
_KEYS = {"boards": "micro_boards", "build-dir": "micro_build_dir", "sources": "micro_sources",
         "include-dirs": "micro_include_dirs", "warnings-as-errors": "micro_warnings_as_errors"}
_PYPROJECT_ONLY = ("firmware", "case-budgets")  # tables: no ini form
# Budget settings a case, a board ([run] case_budgets) or the project (case-budgets) can give (docs/measurement.md)
BUDGET_KEYS = ("max_instructions", "max_cycles", "max_stack")
_FIRMWARE_KEYS = ("elf", "boards", "build", "framework", "exit-status", "timeout", "name")
_BOOLEANS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}
_INI_FILES = (("pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))


class ProjectError(Exception):
    """A project setting that cannot be used; the message names the file and the fix."""


@dataclass(frozen=True)
class Firmware:
    """A firmware binary another build system makes (``[[tool.micro-harness.firmware]]``, or an ELF named on
    pytest's command line): each test case it reports becomes a pytest item per board."""

    elf: str  # path template, project-relative or absolute; "{board}" is the board's name
    boards: tuple[str, ...] = ()  # () = the session's boards (an ELF named on the command line)
    build: str | None = None  # shell command run in the project root first; "{board}" as in ``elf``
    framework: str | None = None  # a format of harness.formats (None: detected from the output)
    exit_status: bool | None = None  # False: the firmware never exits (None: the board's [run] exit_status)
    timeout_s: float | None = None
    name: str = ""
    origin: str = ""  # where it is declared, for messages

    def elf_for(self, root: Path, board: str) -> Path:
        path = Path(self.elf.replace("{board}", board))
        return path if path.is_absolute() else root / path

    def build_for(self, board: str) -> str | None:
        return self.build.replace("{board}", board) if self.build else None

    @property
    def label(self) -> str:
        return self.name or Path(self.elf).name


def _firmware(entries: Any, source: Path | None) -> tuple[Firmware, ...]:
    """The checked ``firmware`` entries: a typo or a wrong type is an error naming the entry and the fix."""
    where = f"{source}: [[tool.{CONFIG_TABLE}.firmware]]"
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ProjectError(f"{where} must be an array of tables: [[tool.{CONFIG_TABLE}.firmware]] with elf = ...")
    found: list[Firmware] = []
    for index, entry in enumerate(entries, 1):
        here = f"{where} #{index}"
        unknown = sorted(set(entry) - set(_FIRMWARE_KEYS))
        if unknown:
            raise ProjectError(f"{here} has unknown keys {unknown}; known: {list(_FIRMWARE_KEYS)}")
        elf = entry.get("elf")
        if not isinstance(elf, str) or not elf.strip():
            raise ProjectError(f'{here} needs elf = "<path of the linked binary>" (may contain {{board}})')
        boards = entry.get("boards")
        if isinstance(boards, str):
            boards = [boards]
        if not isinstance(boards, list) or not boards or not all(isinstance(b, str) and b for b in boards):
            raise ProjectError(f'{here} ({elf}) needs boards = ["<board>", ...]: the boards it is built for')
        if len(boards) > 1 and "{board}" not in elf:
            raise ProjectError(f"{here} ({elf}) names {len(boards)} boards but one ELF path: put {{board}} in elf, "
                               "one binary per board")
        build = entry.get("build")
        if build is not None and (not isinstance(build, str) or not build.strip()):
            raise ProjectError(f'{here} ({elf}): build must be a shell command, e.g. build = "make BOARD={{board}}"')
        framework = entry.get("framework")  # checked against the format registry by the pytest plugin
        if framework is not None and (not isinstance(framework, str) or not framework):
            raise ProjectError(f'{here} ({elf}): framework must be a format name, e.g. framework = "unity"')
        exit_status = entry.get("exit-status")
        if exit_status is not None and not isinstance(exit_status, bool):
            raise ProjectError(f"{here} ({elf}): exit-status must be true or false")
        timeout = entry.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or timeout <= 0):
            raise ProjectError(f"{here} ({elf}): timeout must be a number of seconds > 0, not {timeout!r}")
        name = entry.get("name", "")
        if not isinstance(name, str):
            raise ProjectError(f"{here} ({elf}): name must be a string")
        found.append(Firmware(elf=elf.strip(), boards=tuple(dict.fromkeys(boards)), build=build, framework=framework,
                              exit_status=exit_status, timeout_s=float(timeout) if timeout is not None else None,
                              name=name, origin=here))
    return tuple(found)


@dataclass(frozen=True)
class Project:
    root: Path
    build_dir: Path
    board_dirs: tuple[Path, ...] = ()  # the project's own board folders, before the built-in ones
    source_globs: tuple[str, ...] = ()
    include_dirs: tuple[Path, ...] = ()
    config_file: Path | None = None
    settings: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    firmware: tuple[Firmware, ...] = ()  # [[tool.micro-harness.firmware]]: binaries built by other tools
    # -Werror for the project's own sources (its tests, ``sources``); the runtime is always built with it.
    warnings_as_errors: bool = True
    # case-budgets: default budgets of every micro case (budget key -> limit), below a board's and a case's own
    case_budgets: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def is_checkout(self) -> bool:
        """The harness's own checkout: micro_runtime's tests, built the Makefile's way into gen/."""
        return self.root == REPO_ROOT

    def sources(self) -> list[Path]:
        """The files of ``sources`` (every glob must match something: a typo is an error, not nothing)."""
        found: list[Path] = []
        for pattern in self.source_globs:
            matches = sorted(p for p in self.root.glob(pattern) if p.is_file())
            if not matches:
                raise ProjectError(f"{self.config_file or self.root}: sources pattern '{pattern}' matches no file "
                                   f"under {self.root}; fix the pattern or remove it")
            found.extend(m for m in matches if not m.name.endswith("_test.cc") and m not in found)
        return found

    def include_paths(self) -> list[Path]:
        """-I folders of the project's test binaries: the root, then the configured ones."""
        return [self.root, *self.include_dirs]

    def relative(self, path: Path) -> str:
        """``path`` as shown to the user: project-relative when inside the project."""
        resolved = path.resolve()
        return str(resolved.relative_to(self.root)) if resolved.is_relative_to(self.root) else str(resolved)


def _read_pyproject(path: Path) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ProjectError(f"{path}: cannot read it: {error}") from error
    table = data.get("tool", {}).get(CONFIG_TABLE)
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ProjectError(f"{path}: [tool.{CONFIG_TABLE}] must be a table")
    unknown = sorted(set(table) - set(_KEYS) - set(_PYPROJECT_ONLY))
    if unknown:
        raise ProjectError(f"{path}: [tool.{CONFIG_TABLE}] has unknown keys {unknown}; "
                           f"known: {sorted([*_KEYS, *_PYPROJECT_ONLY])}")
    return table


def _read_ini(path: Path, section: str) -> dict[str, Any] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path)
    except configparser.Error as error:
        raise ProjectError(f"{path}: cannot read it: {error}") from error
    if not parser.has_section(section):
        return None
    found: dict[str, Any] = {}
    for key, ini_key in _KEYS.items():
        if parser.has_option(section, ini_key):
            value = parser.get(section, ini_key)
            if key == "warnings-as-errors":
                flag = _BOOLEANS.get(value.strip().lower())
                if flag is None:
                    raise ProjectError(f"{path}: {ini_key} must be true or false, not {value.strip()!r}")
                found[key] = flag
            else:
                found[key] = value.strip() if key == "build-dir" else value.split()
    return found or None


def read_settings(root: Path) -> tuple[dict[str, Any], Path | None]:
    """The project's settings and the file they came from ({} and None when it has none)."""
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        table = _read_pyproject(pyproject)
        if table is not None:
            return table, pyproject
    for name, section in _INI_FILES:
        ini = root / name
        if ini.is_file():
            found = _read_ini(ini, section)
            if found is not None:
                return found, ini
    return {}, None


_MARKERS = ("pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg", ".git")


def _is_project_dir(folder: Path) -> bool:
    return any((folder / marker).exists() for marker in _MARKERS)


def root_reason(proj: Project) -> str:
    """Why ``proj.root`` is the project root, for messages: the file with its settings, the marker that made
    it a project folder, or that nothing marked one (``find_root``)."""
    if proj.is_checkout:
        return "the harness's own checkout"
    if proj.config_file is not None:
        return f"its {proj.config_file.name} has harness settings"
    marker = next((m for m in _MARKERS if (proj.root / m).exists()), None)
    if marker is not None:
        return f"the nearest folder with a {marker}"
    return f"no {', '.join(_MARKERS)} in it or above it, so the folder the harness started in"


def find_root(start: Path) -> Path:
    """The project ``start`` is in: the nearest folder with harness settings, else the nearest with a
    pyproject.toml / pytest.ini / tox.ini / setup.cfg / .git, else ``start`` itself."""
    start = start.resolve()
    chain = [start, *start.parents]
    for folder in chain:
        if read_settings(folder)[1] is not None:
            return folder
    return next((folder for folder in chain if _is_project_dir(folder)), start)


def _str_list(settings: dict[str, Any], key: str, source: Path | None) -> list[str]:
    value = settings.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ProjectError(f"{source}: {key} must be a list of paths, e.g. {key} = [\"...\"]")
    return value


def load(root: Path) -> Project:
    """The project rooted at ``root`` with its settings (checked: missing folders are errors)."""
    root = root.resolve()
    settings, source = read_settings(root)
    default_build = CHECKOUT_BUILD_DIR if root == REPO_ROOT else root / DEFAULT_BUILD_DIR
    build_value = settings.get("build-dir")
    if build_value is not None and (not isinstance(build_value, str) or not build_value.strip()):
        raise ProjectError(f"{source}: build-dir must be a folder path, e.g. build-dir = \"build/micro-harness\"")
    build_dir = (root / build_value).resolve() if build_value else default_build
    if build_dir == root or (root / ".git").exists() and build_dir == root / ".git":
        raise ProjectError(f"{source}: build-dir must be a folder of its own, not {build_dir}")
    board_dirs: list[Path] = []
    configured = _str_list(settings, "boards", source)
    for entry in configured:
        folder = (root / entry).resolve()
        if not folder.is_dir():
            raise ProjectError(f"{source}: boards folder '{entry}' does not exist ({folder}); "
                               "create it or fix the path")
        board_dirs.append(folder)
    if not configured and root != REPO_ROOT and (root / "boards").is_dir():
        board_dirs.append(root / "boards")  # the conventional place, without any setting
    includes = []
    for entry in _str_list(settings, "include-dirs", source):
        folder = (root / entry).resolve()
        if not folder.is_dir():
            raise ProjectError(f"{source}: include-dirs entry '{entry}' does not exist ({folder})")
        includes.append(folder)
    warnings_as_errors = settings.get("warnings-as-errors", True)
    if not isinstance(warnings_as_errors, bool):
        raise ProjectError(f"{source}: warnings-as-errors must be true or false, e.g. warnings-as-errors = false")
    return Project(root=root, build_dir=build_dir, board_dirs=tuple(board_dirs),
                   source_globs=tuple(_str_list(settings, "sources", source)), include_dirs=tuple(includes),
                   config_file=source, settings=settings, warnings_as_errors=warnings_as_errors,
                   firmware=_firmware(settings.get("firmware", []), source),
                   case_budgets=budget_table(settings.get("case-budgets", {}), f"{source}: case-budgets"))


def budget_table(table: Any, where: str) -> dict[str, int]:
    """``{max_instructions|max_cycles|max_stack = N}`` checked: known keys, whole numbers > 0."""
    if not isinstance(table, dict):
        raise ProjectError(f"{where} must be a table, e.g. {{ max_stack = 4096, max_cycles = 5000000 }}")
    found = {}
    for key, value in table.items():
        if key not in BUDGET_KEYS:
            raise ProjectError(f"{where} has unknown key '{key}'; the budgets are {', '.join(BUDGET_KEYS)}")
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ProjectError(f"{where}: {key} must be a whole number > 0, not {value!r}")
        found[key] = value
    return found


_current: Project | None = None


def env_value(project: Project) -> str:
    """``MICRO_HARNESS_PROJECT`` for child processes working for ``project``."""
    return f"{project.root}{os.pathsep}{REPO_ROOT}"


def use(project: Project) -> Project:
    """Makes ``project`` the one this process (and the processes it starts) works for."""
    global _current
    _current = project
    os.environ[PROJECT_ENV] = env_value(project)
    return project


def inherited() -> Path | None:
    """The project root a parent process of this same harness installation works for, if any."""
    root, _, installation = os.environ.get(PROJECT_ENV, "").partition(os.pathsep)
    return Path(root) if root and installation == str(REPO_ROOT) else None


def current() -> Project:
    """The project in use: set by ``use()``, inherited from the parent process, or found from the cwd."""
    global _current
    if _current is None:
        parent = inherited()
        _current = load(parent if parent is not None else find_root(Path.cwd()))
    return _current


def reset() -> None:
    """Forgets the project in use (tests)."""
    global _current
    _current = None
    os.environ.pop(PROJECT_ENV, None)
