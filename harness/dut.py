"""The ``dut`` fixture object: run a firmware binary on a board and talk about its output.

    def test_hello(dut):
        dut.start("hello_world_test")           # a test name (built first) or an ELF path
        match = dut.expect(r"x=(\\d+)", timeout=5)
        assert int(match.group(1)) > 0
        result = dut.wait()                       # RunResult once the device ends

The run happens in a background thread so ``expect`` can match lines while the
device is still running; everything the device printed is in ``dut.log``.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from harness.boards import Board
from harness.build import Progress, ensure_binary
from harness.runners import get_runner
from harness.runners.base import RunResult

if TYPE_CHECKING:
    from harness.log_parser import BinaryReport
    from harness.runners.base import Runner


class DutError(AssertionError):
    """An expectation on the device output that did not hold; the message has the log tail."""


class Dut:
    def __init__(self, board: Board, backend: str, timeout_s: float, progress: Progress | None = None,
                 runner: Runner | None = None) -> None:
        """``runner``: what runs the binaries (e.g. the hardware map's, or QEMU with -icount);
        default: the registered runner of ``backend``."""
        self.board = board
        self.backend = backend
        self._runner = runner
        self.timeout_s = timeout_s
        self._progress = progress
        self._lock = threading.Condition()
        self._lines: list[str] = []
        self._text = ""  # joined lines, kept in step with _lines for searching
        self._cursor = 0  # where the next expect() starts searching
        self._thread: threading.Thread | None = None
        self._result: RunResult | None = None
        self._error: BaseException | None = None
        self.elf: Path | None = None

    # -- starting -------------------------------------------------------------------------
    def resolve(self, elf_or_name: str | Path) -> Path:
        """An existing ELF path as is; a bare test name is built for the board first."""
        path = Path(elf_or_name)
        if path.is_file():
            return path
        if isinstance(elf_or_name, str) and "/" not in elf_or_name:
            return ensure_binary(self.board, elf_or_name, progress=self._progress)
        raise DutError(f"{elf_or_name} does not exist; pass a built ELF or the name of a *_test.cc binary")

    def start(self, elf_or_name: str | Path, timeout: float | None = None) -> None:
        if self._thread is not None and self._thread.is_alive():
            raise DutError("the device is still running the previous binary; call dut.wait() first")
        self.elf = self.resolve(elf_or_name)
        runner = self._runner or get_runner(self.backend)
        with self._lock:
            self._lines, self._text, self._cursor = [], "", 0
            self._result, self._error = None, None
        limit = timeout if timeout is not None else self.timeout_s
        elf = self.elf

        def work() -> None:
            try:
                result = runner.run(elf, self.board, limit, on_line=self._on_line)
            except BaseException as error:  # surfaced to the test thread by wait()/expect()
                with self._lock:
                    self._error = error
                    self._lock.notify_all()
                return
            with self._lock:
                self._result = result
                self._lock.notify_all()

        self._thread = threading.Thread(target=work, name=f"dut-{self.board.name}", daemon=True)
        self._thread.start()

    def _on_line(self, line: str) -> None:
        with self._lock:
            self._lines.append(line)
            self._text += line + "\n"
            self._lock.notify_all()

    # -- waiting --------------------------------------------------------------------------
    def wait(self, timeout: float | None = None) -> RunResult:
        """Blocks until the device ended (exit, end marker, crash or the run's own timeout)."""
        if self._thread is None:
            raise DutError("nothing is running; call dut.start() or dut.run() first")
        self._thread.join(timeout if timeout is not None else self.timeout_s + 30)
        with self._lock:
            if self._error is not None:
                raise self._error
            if self._result is None:
                raise DutError(f"the {self.backend} runner did not return; log tail:\n{self._tail()}")
            return self._result

    def run(self, elf_or_name: str | Path, timeout: float | None = None) -> RunResult:
        """Runs to the end and returns the RunResult (``dut.log`` / ``dut.report()`` for the output)."""
        self.start(elf_or_name, timeout)
        return self.wait()

    def expect(self, pattern: str | re.Pattern[str], timeout: float = 10.0) -> re.Match[str]:
        """The first match of ``pattern`` in output not consumed by an earlier expect().

        Raises DutError (an AssertionError) with the log tail when the device ends or
        ``timeout`` seconds pass without a match.
        """
        regex = re.compile(pattern, re.MULTILINE) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                match = regex.search(self._text, self._cursor)
                if match is not None:
                    self._cursor = match.end()
                    return match
                if self._error is not None:
                    raise self._error
                ended = self._result is not None or self._thread is None
                if ended:
                    why = "the device run ended" if self._result else "nothing is running"
                    reason = f"{why} ({self._result.end_reason})" if self._result else why
                    raise DutError(f"{regex.pattern!r} not found: {reason}; log tail:\n{self._tail()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DutError(f"{regex.pattern!r} not seen within {timeout} s; log tail:\n{self._tail()}")
                self._lock.wait(left)

    # -- output ---------------------------------------------------------------------------
    @property
    def log(self) -> str:
        """Everything printed so far (the full log, including a last partial line, once ended)."""
        with self._lock:
            if self._result is not None:
                return self._result.log.decode("utf-8", errors="replace")
            return self._text

    @property
    def result(self) -> RunResult | None:
        return self._result

    def report(self) -> BinaryReport:
        """The parsed per-test verdict of the finished run."""
        from harness.log_parser import parse_log

        result = self.wait()
        return parse_log(result.log, result, self.elf, self.board)

    def _tail(self, lines: int = 20) -> str:
        return "\n".join(f"  | {line}" for line in self._lines[-lines:]) or "  (no output)"

    def close(self) -> None:
        if self._thread is not None:
            self._thread.join(self.timeout_s + 30)
