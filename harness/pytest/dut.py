"""The ``dut`` fixture object: run firmware on a board, talk to it, and match what it prints.

    def test_echo(dut):
        dut.start("echo_test")                    # a test name (built first) or an ELF path
        dut.expect_exact("echo> ", timeout=5)      # a prompt without a newline matches too
        dut.write("hello\\n")                       # bytes to the firmware's input (DebugRead)
        match = dut.expect(r"echo: (\\w+)", not_matching=[r"FAIL"], timeout=5)
        assert match.group(1) == "hello"
        result = dut.wait()                        # RunResult once the device ends

The run happens in a background thread so ``expect`` sees output while the device runs: every
byte the device prints reaches the Dut as it arrives (``harness.runners.control.RunControl``),
``\\r\\n`` read as ``\\n``. ``expect``/``expect_exact`` search the output not consumed by an earlier
match; each call has its own timeout. With a ``log_path`` (the fixture gives one per DUT and
test) everything the device printed is also written there as it arrives.
"""

from __future__ import annotations

import codecs
import re
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from harness.board.boards import Board
from harness.build.driver import BuildError, binary_for, source_of
from harness.build.make import Progress
from harness.run_result import Note
from harness.runners import get_runner
from harness.runners.control import InputClosed, RunControl, input_problem
from harness.session import RunOptions, RunReport, run_binary

if TYPE_CHECKING:
    from harness.runners.base import Runner

DEFAULT_EXPECT_TIMEOUT_S = 10.0
STOP_WAIT_S = 30.0  # how long close()/stop() wait for a runner to end after being told to stop
INPUT_WORKS = ("the host board (stdin) and QEMU for boards that log through a UART "
               "(e.g. bluepill, netduinoplus2: the log UART's receiver)")

Pattern = str | bytes | re.Pattern[str] | re.Pattern[bytes]


class DutError(AssertionError):
    """An expectation on the device output that did not hold; the message has the log tail."""


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (str, bytes, re.Pattern)):
        return [value]
    return list(value)


def _compile(pattern: Pattern) -> re.Pattern[str]:
    """A str regex over the decoded output (bytes patterns are decoded as UTF-8); MULTILINE by default."""
    if isinstance(pattern, re.Pattern):
        if isinstance(pattern.pattern, bytes):
            return re.compile(pattern.pattern.decode("utf-8"), pattern.flags & ~re.UNICODE & ~re.ASCII | re.MULTILINE)
        return pattern
    text = pattern.decode("utf-8") if isinstance(pattern, bytes) else pattern
    return re.compile(text, re.MULTILINE)


def _exact(text: str | bytes) -> re.Pattern[str]:
    return re.compile(re.escape(text.decode("utf-8") if isinstance(text, bytes) else text))


class _Text:
    """Incremental decoding of the device's bytes: UTF-8 (bad bytes as U+FFFD), ``\\r\\n`` as ``\\n``."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._cr = False  # a chunk ended in "\r": the "\n" may follow in the next one

    def feed(self, data: bytes, final: bool = False) -> str:
        text = self._decoder.decode(data, final=final)
        if self._cr:
            text = "\r" + text
            self._cr = False
        if text.endswith("\r") and not final:
            text, self._cr = text[:-1], True
        return text.replace("\r\n", "\n")


class Dut:
    def __init__(self, board: Board, backend: str, timeout_s: float, progress: Progress | None = None,
                 runner: Runner | None = None, name: str = "dut", log_path: Path | None = None,
                 expect_timeout: float = DEFAULT_EXPECT_TIMEOUT_S) -> None:
        """``runner``: what runs the binaries (e.g. the hardware map's, or QEMU with -icount);
        default: the registered runner of ``backend``. ``timeout_s``: the default limit of a run;
        ``expect_timeout``: the default of ``expect``/``expect_exact``. ``log_path``: where the
        device's output is written as it arrives (appended to by every run of this Dut)."""
        self.board = board
        self.backend = backend
        self.name = name
        self.log_path = log_path
        self._runner = runner
        self.timeout_s = timeout_s
        self.expect_timeout = expect_timeout
        self._progress = progress
        self._lock = threading.Condition()
        self._text = ""  # everything printed in the current run, decoded
        self._decoder = _Text()
        self._received = 0  # raw bytes received in the current run
        self._cursor = 0  # where the next expect() starts searching
        self._thread: threading.Thread | None = None
        self._control: RunControl | None = None
        self._result: RunReport | None = None
        self._error: BaseException | None = None
        self._logfile: IO[bytes] | None = None
        self._runs = 0
        self.elf: Path | None = None

    def __repr__(self) -> str:
        return f"<Dut {self.name} on {self.board.name} ({self.backend})>"

    @property
    def runner(self) -> Runner:
        return self._runner or get_runner(self.backend)

    # -- starting -------------------------------------------------------------------------
    def resolve(self, elf_or_name: str | Path) -> Path:
        """A test by name (``conv_test``, ``tests/dsp_test``) or source (``x_test.cc``), built for the board
        first; an ELF path as it is (``harness.build.driver.binary_for``)."""
        try:
            return binary_for(self.board, elf_or_name, progress=self._progress)
        except BuildError as error:
            raise DutError(str(error)) from error

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, elf_or_name: str | Path, timeout: float | None = None) -> None:
        """Starts the firmware in the background; ``timeout`` (default ``timeout_s``) limits the run."""
        if self.running:
            raise DutError(f"{self.name} is still running {self.elf}; call dut.wait() or dut.stop() first")
        self.elf = self.resolve(elf_or_name)
        runner = self.runner
        control = RunControl(on_data=self._on_data, wants_input=input_problem(runner, self.board) is None)
        control.on_note = self._on_note
        with self._lock:
            self._text, self._decoder, self._received, self._cursor = "", _Text(), 0, 0
            self._result, self._error, self._control = None, None, control
        self._open_log()
        options = RunOptions(runner=runner, backend=self.backend,
                             timeout_s=timeout if timeout is not None else self.timeout_s)
        elf = self.elf
        source = source_of(elf)

        def work() -> None:
            try:  # the one run session: reader, case limits and run token as for every front end
                result = run_binary(self.board, elf, options, source=source, control=control)
            except BaseException as error:  # surfaced to the test thread by wait()/expect()
                with self._lock:
                    self._error = error
                    self._lock.notify_all()
                self._close_log()
                return
            if self._received == 0 and result.log:
                self._on_data(result.log)  # a runner whose output did not come through the stream
            with self._lock:
                self._text += self._decoder.feed(b"", final=True)
                self._result = result
                self._lock.notify_all()
            self._close_log()

        self._thread = threading.Thread(target=work, name=f"{self.name}-{self.board.name}", daemon=True)
        self._thread.start()

    def _open_log(self) -> None:
        if self.log_path is None:
            return
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._logfile = self.log_path.open("ab")
        self._runs += 1
        if self._runs > 1:
            self._logfile.write(f"\n[harness] --- {self.name}: next run, {self.elf} ---\n".encode())
            self._logfile.flush()

    def _close_log(self) -> None:
        with self._lock:
            logfile, self._logfile = self._logfile, None
        if logfile is not None:
            logfile.close()

    def _on_note(self, note: Note) -> None:
        """A harness remark: into the saved log for the reader, never into what ``expect`` searches."""
        with self._lock:
            if self._logfile is not None:
                self._logfile.write(b"\n" + note.line().encode() + b"\n")
                self._logfile.flush()

    def _on_data(self, data: bytes) -> None:
        with self._lock:
            self._received += len(data)
            self._text += self._decoder.feed(data)
            if self._logfile is not None:
                self._logfile.write(data)
                self._logfile.flush()
            self._lock.notify_all()

    # -- input ----------------------------------------------------------------------------
    def write(self, data: str | bytes) -> None:
        """Sends ``data`` (str: UTF-8) to the running firmware's input, which reads it with
        ``DebugRead()``; nothing is added (send the ``\\n`` a line needs). Returns at once.

        Send after the firmware is ready to read (expect its prompt first): like the real chip, an
        emulated UART drops bytes that arrive before the firmware enabled its receiver.
        """
        __tracebackhide__ = True  # failures point at the test's line, not in here
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        problem = input_problem(self.runner, self.board)
        if problem is not None:
            raise DutError(f"dut.write: the {self.backend} backend cannot send input to {self.board.name}: "
                           f"{problem}. Input works on {INPUT_WORKS}")
        control = self._control
        if control is None:
            raise DutError("dut.write: nothing is running; call dut.start() first")
        try:
            control.send(raw)
        except InputClosed as error:
            reason = f" ({self._ended()})" if self._result is not None else ""
            raise DutError(f"dut.write: {self.name} can no longer take input: {error}{reason}; "
                           f"log tail:\n{self._tail()}{self._where()}") from error

    # -- waiting --------------------------------------------------------------------------
    def wait(self, timeout: float | None = None) -> RunReport:
        """Blocks until the device ended (exit, end marker, crash or the run's own timeout);
        ``timeout`` (default the run's limit + 30 s) bounds the wait itself."""
        __tracebackhide__ = True  # failures point at the test's line, not in here
        if self._thread is None:
            raise DutError("nothing is running; call dut.start() or dut.run() first")
        limit = timeout if timeout is not None else self.timeout_s + 30
        self._thread.join(limit)
        with self._lock:
            if self._error is not None:
                raise self._error
            if self._result is None:
                raise DutError(f"{self.name} still running after dut.wait({limit:g}); log tail:\n"
                               f"{self._tail()}{self._where()}")
            return self._result

    def run(self, elf_or_name: str | Path, timeout: float | None = None) -> RunReport:
        """Runs to the end and returns the RunReport (``dut.log`` / ``dut.report()`` for the output)."""
        self.start(elf_or_name, timeout)
        return self.wait()

    def stop(self, wait_s: float | None = None) -> RunReport | None:
        """Ends the running firmware now (its process is killed) and returns how the run ended.

        ``wait_s``: how long to wait for the runner to end (default 30 s; a runner whose run loop never
        saw the request, which none of the harness's do, is waited for up to its run's limit + 30 s).
        """
        if self._thread is None:
            return None
        control = self._control
        if control is not None and self._thread.is_alive():
            control.stop(f"stopped by the test ({self.name}.stop())")
        if wait_s is None:
            wait_s = STOP_WAIT_S if control is None or control.bound else self.timeout_s + STOP_WAIT_S
        self._thread.join(wait_s)
        if self._thread.is_alive():
            raise DutError(f"the {self.backend} runner of {self.name} did not end within {wait_s:g} s of being stopped")
        return self._result

    def expect(self, pattern: Pattern | Sequence[Pattern], timeout: float | None = None, *,
               not_matching: Pattern | Sequence[Pattern] = (), expect_all: bool = False,
               return_what_before_match: bool = False) -> Any:
        """The first match of ``pattern`` (a regex, or a list: the earliest match of any) in the
        output not consumed by an earlier match; consumes up to the match's end.

        ``timeout`` (default ``expect_timeout``) is this call's limit. ``not_matching``: regexes
        that must not appear before the match (nor in it): the call fails as soon as one does.
        ``expect_all``: every pattern of the list must match (in any order); returns the matches in
        the order of the list. ``return_what_before_match``: returns the text between the previous
        match and this one instead of the match. Raises DutError (an AssertionError) with the log
        tail when the timeout passes, the device ends first, or a ``not_matching`` pattern appears.
        Output is matched as it arrives, so ``x=(\\d+)`` may match before all digits came: anchor it
        (``x=(\\d+)\\n``).
        """
        __tracebackhide__ = True  # failures point at the test's line, not in here
        patterns = [_compile(p) for p in _as_list(pattern)]
        return self._expect(patterns, [_compile(p) for p in _as_list(not_matching)], timeout, expect_all,
                            return_what_before_match)

    def expect_exact(self, text: str | bytes | Sequence[str | bytes], timeout: float | None = None, *,
                     not_matching: Pattern | Sequence[Pattern] = (), expect_all: bool = False,
                     return_what_before_match: bool = False) -> Any:
        """``expect`` for literal text (or a list of texts): no regex characters; returns an re.Match."""
        __tracebackhide__ = True  # failures point at the test's line, not in here
        patterns = [_exact(t) for t in _as_list(text)]
        return self._expect(patterns, [_compile(p) for p in _as_list(not_matching)], timeout, expect_all,
                            return_what_before_match)

    def _expect(self, patterns: list[re.Pattern[str]], banned: list[re.Pattern[str]], timeout: float | None,
                expect_all: bool, before: bool) -> Any:
        __tracebackhide__ = True  # failures point at the test's line, not in here
        if not patterns:
            raise ValueError("expect needs at least one pattern")
        if expect_all and before:
            raise ValueError("return_what_before_match and expect_all cannot both be true")
        limit = self.expect_timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        remaining = list(range(len(patterns)))
        found: dict[int, re.Match[str]] = {}
        wanted = " and ".join(repr(p.pattern) for p in patterns) if expect_all else \
            " or ".join(repr(p.pattern) for p in patterns)
        with self._lock:
            while True:
                text, start = self._text, self._cursor
                best: tuple[int, re.Match[str]] | None = None
                for index in remaining:
                    match = patterns[index].search(text, start)
                    if match is not None and (best is None or match.start() < best[1].start()):
                        best = index, match
                end = best[1].end() if best is not None else len(text)
                for bad in banned:
                    hit = bad.search(text[:end], start)
                    if hit is not None:
                        line = text[text.rfind("\n", 0, hit.start()) + 1:].split("\n", 1)[0]
                        raise DutError(f"{bad.pattern!r} (not_matching) appeared while waiting for {wanted}: "
                                       f"{line!r}; log tail:\n{self._tail()}{self._where()}")
                if best is not None:
                    index, match = best
                    self._cursor = match.end()
                    if not expect_all:
                        return text[start:match.start()] if before else match
                    found[index] = match
                    remaining.remove(index)
                    if not remaining:
                        return [found[i] for i in range(len(patterns))]
                    continue
                if self._error is not None:
                    raise self._error
                if self._result is not None or self._thread is None:
                    why = f"the device run ended ({self._ended()})" if self._result else "nothing is running"
                    missing = " and ".join(repr(patterns[i].pattern) for i in remaining) if expect_all else wanted
                    raise DutError(f"{missing} not found: {why}; log tail:\n{self._tail()}{self._where()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    missing = " and ".join(repr(patterns[i].pattern) for i in remaining) if expect_all else wanted
                    raise DutError(f"{missing} not seen within {limit:g} s; log tail:\n{self._tail()}{self._where()}")
                self._lock.wait(left)

    # -- output ---------------------------------------------------------------------------
    @property
    def log(self) -> str:
        """Everything printed so far (the full log, with the harness's remarks, once ended)."""
        with self._lock:
            if self._result is not None:
                return self._result.annotated_log.decode("utf-8", errors="replace")
            return self._text

    @property
    def result(self) -> RunReport | None:
        return self._result

    def report(self) -> RunReport:
        """The per-test verdict of the finished run (the run session's, read live from the device)."""
        return self.wait()

    def _ended(self) -> str:
        """How the finished run ended, with its cause as ``harness run`` names it: ``infra-error: cannot start
        ...: Exec format error ...`` rather than only ``infra-error``."""
        result = self._result
        if result is None:
            return "still running"
        detail = result.infra_error or result.summary
        if not detail or detail == result.end_reason:
            return result.end_reason or str(result.outcome)
        return f"{result.end_reason or result.outcome}: {detail}"

    def _tail(self, lines: int = 20) -> str:
        shown = self._text.rstrip("\n").split("\n")[-lines:] if self._text else []
        return "\n".join(f"  | {line}" for line in shown) or "  (no output)"

    def _where(self) -> str:
        return f"\nfull log: {self.log_path}" if self.log_path is not None else ""

    def close(self) -> None:
        """Stops the firmware if it still runs (its process is killed and reaped)."""
        self.stop()
        self._close_log()
