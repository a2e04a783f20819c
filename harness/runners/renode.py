"""Runs a firmware ELF in Renode (renode.io).

Renode is started headless (``--disable-xwt --console``) with the board's generated
``renode/<board>.resc``; the log UART and the semihosting pseudo-UART write into
files (``CreateFileBackend``) that the runner follows and merges into the log.
Renode has no semihosting exit, so runs end at the end marker (plus a short grace),
a HardFault line, or the timeout; ``exit_code`` is therefore None.

Where Renode is looked for, in order: ``$RENODE`` (the executable or its folder),
``renode`` on PATH, the folder of ``renode-test`` on PATH, and renode-run's downloads (``~/.config/renode``:
``renode-run.path``, ``renode-run.json``, ``renode-run.download/*/renode-*/renode``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from harness.boards import Board
from harness.renode_scripts import RENODE_DIR, RenodeConfigError, render_resc, renode_path, renode_settings
from harness.runners._process import run_process
from harness.runners.base import RunResult, captured_transports
from harness.runners.qemu import elf_problem

RENODE_RUN_DIR = Path.home() / ".config" / "renode"
INSTALL_HINT = "install it from renode.io or `pip install renode-run && renode-run download`"


def _executable(path: Path) -> Path | None:
    if path.is_dir():
        path = path / "renode"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def renode_candidates(home: Path | None = None) -> list[tuple[str, Path | None]]:
    """(where, executable or None) for every place Renode may be; for the not-found message."""
    config = (home / ".config" / "renode") if home is not None else RENODE_RUN_DIR
    found: list[tuple[str, Path | None]] = []
    env = os.environ.get("RENODE")
    found.append(("$RENODE", _executable(Path(env)) if env else None))
    on_path = shutil.which("renode")
    found.append(("PATH", Path(on_path) if on_path else None))
    # renode-test lives in the Renode folder, next to the renode launcher.
    tester = shutil.which("renode-test")
    found.append(("renode-test's folder", _executable(Path(tester).resolve().parent) if tester else None))
    path_file = config / "renode-run.path"
    try:
        recorded = _executable(Path(path_file.read_text().strip()))
    except OSError:
        recorded = None
    found.append((str(path_file), recorded))
    json_file = config / "renode-run.json"
    from_json = None
    try:
        data = json.loads(json_file.read_text())
        for entry in list(data.get("default", {}).values()) + list(data.get("installations", {})):
            from_json = _executable(Path(entry))
            if from_json:
                break
    except (OSError, ValueError, AttributeError):
        pass
    found.append((str(json_file), from_json))
    downloads = sorted((config / "renode-run.download").glob("*/renode-*/renode"), reverse=True)
    found.append((str(config / "renode-run.download"), next(filter(None, map(_executable, downloads)), None)))
    return found


def find_renode(home: Path | None = None) -> Path | None:
    return next((path for _, path in renode_candidates(home) if path is not None), None)


def renode_command(renode: Path, elf: Path, script: Path, uart_log: Path, semihosting_log: Path) -> list[str]:
    return [
        str(renode),
        "--disable-xwt",
        "--console",
        "--plain",
        "-e",
        f"$elf={renode_path(elf)}",
        "-e",
        f"$uart_log={renode_path(uart_log)}",
        "-e",
        f"$semihosting_log={renode_path(semihosting_log)}",
        "-e",
        f"include {renode_path(script)}",
        "-e",
        "start",
    ]


class RenodeRunner:
    name = "renode"

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        try:
            renode_settings(board)
        except RenodeConfigError as error:
            return str(error)
        if find_renode() is None:
            looked = ", ".join(where for where, _ in renode_candidates())
            return f"Renode not found: {INSTALL_HINT}; looked in {looked}"
        return None

    def run(
        self,
        elf: Path,
        board: Board,
        timeout_s: float,
        on_line: Callable[[str], None] | None = None,
    ) -> RunResult:
        reason = self.unavailable_reason(board)
        if reason is not None:
            return _infra(reason)
        renode = find_renode()
        assert renode is not None
        elf = Path(elf).resolve()
        if not elf.is_file():
            return _infra(f"firmware {elf} does not exist; build it first (make -C micro_runtime TARGET={board.name})")
        problem = elf_problem(elf)
        if problem is not None:
            return _infra(problem)
        with tempfile.TemporaryDirectory(prefix="harness-renode-") as tmp:
            work = Path(tmp)
            script = RENODE_DIR / f"{board.name}.resc"
            text = render_resc(board)
            if not script.is_file() or script.read_text() != text:
                script = work / f"{board.name}.resc"  # not committed yet: run what the board file says
                script.write_text(text)
            uart_log, semi_log = work / "uart.log", work / "semihosting.log"
            captured = captured_transports(board)
            argv = renode_command(renode, elf, script, uart_log, semi_log)
            out = run_process(
                argv,
                timeout_s,
                on_line,
                merge_stderr=True,
                log_from_stdout=False,
                tail_files=[log for kind, log in (("semihosting", semi_log), ("uart", uart_log)) if kind in captured],
                term_first=True,  # let Renode shut its threads down before SIGKILL
                hold_stdin=True,  # the --console monitor reads stdin
            )
        if out.start_error is not None:
            return _infra(f"cannot start {renode}: {out.start_error}; {INSTALL_HINT}")
        diag = out.stderr.decode("utf-8", errors="replace")
        if out.returncode is not None and not out.log:
            # Renode quit by itself before the device said anything: a script or platform error.
            errors = [line for line in diag.splitlines() if "error" in line.lower()] or diag.splitlines()[-5:]
            return RunResult(
                self.name,
                out.log,
                None,
                False,
                out.duration_s,
                "infra-error",
                infra_error=f"Renode exited ({out.returncode}) before the firmware printed anything: "
                f"{' | '.join(errors) or 'no output'}; check the board's [renode] table",
            )
        end_reason = out.end_reason if out.end_reason != "exit" else "crash"
        return RunResult(self.name, out.log, None, out.timed_out, out.duration_s, end_reason)


def _infra(message: str) -> RunResult:
    return RunResult("renode", b"", None, False, 0.0, "infra-error", infra_error=message)
