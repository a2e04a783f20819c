"""Issue 12 part 6: the README and docs/harness.md stay true.

- every fenced block marked ``<!-- runnable -->`` (the line before its fence) in README.md and docs/
  runs, each command exiting 0 within its time limit;
- every option that a ``pytest`` or ``harness`` command of README.md / docs/harness.md names (in its sh
  blocks and in its command tables) exists in that command's ``--help``;
- the ``harness run`` exit codes written in the docs and in ``harness --help`` are the code's.
"""

from __future__ import annotations

import functools
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from harness_helpers import subprocess_env

from harness import REPO_ROOT
from harness.cli.main import EXIT_CODES, EXIT_USAGE

DOCS = [REPO_ROOT / "README.md", REPO_ROOT / "docs" / "harness.md"]
RUNNABLE_DOCS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
RUNNABLE_TIMEOUT_S = 120
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
# Options argparse accepts under a name its --help does not print (pytest: "--junitxml", "--junit-xml").
_HELP_NAME = {"--junitxml": "--junit-xml"}
_OPTION = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")


def _blocks(path: Path, runnable_only: bool = False) -> list[str]:
    text = path.read_text()
    found = []
    for match in _FENCE.finditer(text):
        if match.group(1) not in ("sh", "bash", ""):
            continue
        before = text[: match.start()].rstrip().splitlines()[-1:] or [""]
        if runnable_only and before[0].strip() != "<!-- runnable -->":
            continue
        found.append(match.group(2))
    return found


def _commands(text: str) -> list[str]:
    """Command lines of a block, without comments, split at ``&&``, ``;`` and pipes."""
    commands = []
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        commands += [part.strip() for part in re.split(r"&&|;|\|", line) if part.strip()]
    return commands


@functools.cache
def _help(*command: str) -> str:
    argv = [sys.executable, "-m", *command, "--help"]
    proc = subprocess.run(argv, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, env=subprocess_env())
    assert proc.returncode == 0, f"{' '.join(command)} --help failed: {proc.stderr}"
    return proc.stdout


def _help_for(words: list[str]) -> tuple[str, str] | None:
    """(what, its --help text) for a pytest or harness command line, else None."""
    words = [w for w in words if not w.startswith("PYTHONPATH=")]
    if words[:3] == ["python3", "-m", "pytest"] or words[:3] == ["python", "-m", "pytest"]:
        words = words[2:]
    if words[:3] in (["python3", "-m", "harness"], ["python", "-m", "harness"]):
        words = words[2:]
    if not words:
        return None
    if words[0] == "pytest":
        return "pytest", _help("pytest")
    if words[0] == "harness" and len(words) > 1 and not words[1].startswith("-"):
        sub = [words[1]]
        if words[1] in ("devices", "farm") and len(words) > 2 and not words[2].startswith("-"):
            sub.append(words[2])
        return "harness " + " ".join(sub), _help("harness", *sub)
    return None


def _documented_commands() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for block in _blocks(doc):
            found += [(doc.name, command) for command in _commands(block)]
        # Command tables: | `harness run BINARY --board B [--backend …]` | ... |
        for cell in re.findall(r"^\| `((?:harness|pytest) [^`]+)`", doc.read_text(), re.MULTILINE):
            found += [(doc.name, command) for command in cell.split(" / ") if command.startswith("harness")]
    return found


def test_every_documented_option_exists() -> None:
    missing = []
    checked = 0
    for doc, command in _documented_commands():
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
        target = _help_for(words)
        if target is None:
            continue
        what, text = target
        for option in _OPTION.findall(command):
            checked += 1
            shown = _HELP_NAME.get(option, option)
            if not re.search(rf"(?<![\w-]){re.escape(shown)}(?![\w-])", text):
                missing.append(f"{doc}: `{command}`: {what} has no {option}")
    assert checked > 20  # the parser found the commands
    assert not missing, "\n".join(missing)


def test_documented_pytest_options_exist() -> None:
    text = (REPO_ROOT / "docs" / "harness.md").read_text()
    table = re.findall(r"^\| `(--[\w-]+)", text, re.MULTILINE)
    assert "--board" in table and "--micro-timeout" in table
    helptext = _help("pytest")
    assert not [option for option in table if option not in helptext]


# What each code means in the docs' words; the codes themselves come from harness.cli.main.
_WORDS = {"passed": "passed", "failed": "failed", "crashed": "crashed", "timeout": "timeout",
          "infra-error": "infra", "no-tests": "infra"}


def test_exit_codes_in_docs_and_help_match_the_code() -> None:
    docs = " ".join((REPO_ROOT / "docs" / "harness.md").read_text().split())
    readme = " ".join((REPO_ROOT / "README.md").read_text().split())
    helptext = " ".join(_help("harness").split())
    for outcome, code in EXIT_CODES.items():
        word = _WORDS[outcome]
        assert f"**{code}** {word}" in docs, f"docs/harness.md: exit {code} should say {word}"
        assert f"{code} {word}" in helptext or f"{code} {outcome}" in helptext, f"harness --help: exit {code}"
        assert f"{code} {word[:4]}" in readme, f"README.md: exit {code} should say {word}"
    assert f"**{EXIT_USAGE}** usage" in docs and f"{EXIT_USAGE} usage" in helptext and f"{EXIT_USAGE} usage" in readme
    documented = {int(n) for n in re.findall(r"\*\*(\d)\*\* (?:passed|failed|crashed|timeout|infra|usage)", docs)}
    assert documented == {*EXIT_CODES.values(), EXIT_USAGE}


def _runnable() -> list[tuple[str, str]]:
    return [(f"{doc.name}#{index}", block) for doc in RUNNABLE_DOCS
            for index, block in enumerate(_blocks(doc, runnable_only=True))]


@pytest.mark.parametrize(("where", "block"), _runnable(), ids=[w for w, _ in _runnable()])
def test_runnable_block(where: str, block: str, tmp_path: Path) -> None:
    # `harness` as a user has it after `pip install -e .`, from this checkout whether installed or not.
    prelude = f'harness() {{ "{sys.executable}" -m harness "$@"; }}\ncd "{REPO_ROOT}"\n'
    for command in [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]:
        proc = subprocess.run(["bash", "-c", prelude + command], capture_output=True, text=True,
                              timeout=RUNNABLE_TIMEOUT_S, env=subprocess_env())
        assert proc.returncode == 0, f"{where}: `{command}` exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr, f"{where}: `{command}`\n{proc.stderr}"


def test_there_is_a_runnable_block() -> None:
    assert _runnable(), "no block marked <!-- runnable --> in README.md or docs/"


def test_ops_table_lists_every_registered_op_with_its_versions() -> None:
    """docs/ops.md's table has a row for every builtin all_ops_resolver.h registers, with the same version range
    (rows may name several ops, "MAXIMUM, MINIMUM"), and no row for an op that is not registered."""
    registered = {m[1]: (int(m[2]), int(m[3])) for m in
                  re.finditer(r"^\s*X\((\w+),\s*(\d+),\s*(\d+)\)", (REPO_ROOT / "micro_runtime" / "all_ops_resolver.h")
                              .read_text(), re.M)}
    documented: dict[str, tuple[int, int]] = {}
    for line in (REPO_ROOT / "docs" / "ops.md").read_text().splitlines():
        row = re.match(r"^\| ([A-Z0-9_, ]+) \| (\d+)(?:–(\d+))? \|", line)
        if row:
            first = int(row[2])
            for op in row[1].split(", "):
                documented[op] = (first, int(row[3] or first))
    assert registered, "no X(OP, first, last) entries found in all_ops_resolver.h"
    assert {op: documented.get(op) for op in registered} == registered
    assert set(documented) - set(registered) == set()
