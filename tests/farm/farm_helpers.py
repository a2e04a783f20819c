"""Helpers of the farm tests: real pytest runs of real micro tests recording into a history."""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness_helpers import FIXTURES, junit_cases, plugin_args, subprocess_env

FARM_FIXTURES = Path(__file__).resolve().parent / "fixtures"


def put(directory: Path, name: str) -> Path:
    """A fixture program as ``<name>_test.cc`` in ``directory`` (collected by the harness plugin)."""
    source = FARM_FIXTURES / f"{name}.cc"
    if not source.is_file():
        source = FIXTURES / f"{name}.cc"
    target = directory / f"{name}_test.cc"
    shutil.copyfile(source, target)
    return target


def run_pytest(cwd: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 900,
               wait: bool = True) -> subprocess.CompletedProcess[str] | subprocess.Popen[str]:
    """``python -m pytest ARGS`` in ``cwd`` as a farm host would run it."""
    full_env = subprocess_env()
    full_env.pop("FARM_COIN", None)
    full_env.update(env or {})
    # labgrid's pytest plugin (installed for part 1 of the farm work) is not what these tests are about.
    cmd = [sys.executable, "-m", "pytest", *plugin_args(), "-p", "no:randomly", "-p", "no:cacheprovider",
           "-p", "no:labgrid",
           f"--rootdir={cwd}", *args]
    if not wait:
        return subprocess.Popen(cmd, cwd=cwd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
    return subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout, check=False)


def run_harness(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, timeout=300,
                          env=subprocess_env(), cwd=cwd, check=False)


def binaries_done(db: Path) -> int:
    """binary-checks records in the history so far (one per binary that ended)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM results WHERE case_id LIKE '%::binary-checks'")
                       .fetchone()[0])
    except sqlite3.Error:
        return 0


def tagged(tag: str) -> list[int]:
    """Live processes started with ``tag`` in their environment: the night, its pytest, the xdist workers (whose
    command lines name nothing of the night) and anything they started."""
    found = []
    needle = tag.encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ and state != "Z":
            found.append(int(entry))
    return found


def page_status(page: Path) -> str:
    """The status pill of a night's report: GREEN, RED or INCOMPLETE."""
    return page.read_text().split('id="status">', 1)[1].split("<", 1)[0]


@dataclass
class Night:
    """What a night with a fault left: its output and exit status, the history, the JUnit items, the page."""

    output: str
    status: int
    runs: list[Any]
    results: list[Any]
    attempts: list[Any]
    notes: list[tuple[str, str, str]]
    page: Path
    junit: dict[str, Any]
    done_at_fault: int
    ended_after_s: float
    extra: dict[str, Any] = field(default_factory=dict)

    def checks(self, binaries: list[str]) -> dict[str, Any]:
        """Every binary accounted for (one binary-checks record each, every JUnit item in the history, one run
        with the night's exit status): binary name -> its binary-checks record."""
        checks = {r.binary: r for r in self.results if r.case_id.endswith("::binary-checks")}
        assert sorted(checks) == sorted(binaries), (sorted(checks), self.output[-3000:])
        assert len(self.results) == len(self.junit), (len(self.results), len(self.junit))
        assert len(self.runs) == 1 and self.runs[0].exitstatus == self.status
        return checks


def night_with_a_fault(coordinator: str, tmp_path: Path, paths: list[str], fault: Callable[[], Any], *,
                       farm_table: str = "", after: int = 2, ready: Callable[[], bool] = lambda: True,
                       then: Callable[[], Any] | None = None, workers: int = 2) -> Night:
    """Runs ``harness farm night`` (the real CLI: the micro tests ``paths``, relative to the checkout or absolute,
    on bluepill places of the farm at ``coordinator``) and calls ``fault()`` once ``after`` binaries are recorded
    and ``ready()`` holds, then ``then()`` (when given) while the night goes on; waits for the night to end and
    checks that nothing it started is left running."""
    from harness import REPO_ROOT
    from harness.farm.history import History

    rack = tmp_path / "farm.toml"
    rack.write_text(f'[farm]\ncoordinator = "{coordinator}"\n{farm_table}')
    db, page = tmp_path / "history.db", tmp_path / "night.html"
    argv = [sys.executable, "-m", "harness", "farm", "night", "--board", "bluepill", "--hardware-map", str(rack),
            "--history", str(db), "-o", str(page), "-n", str(workers),
            *paths]
    env = {k: v for k, v in subprocess_env().items() if not k.startswith(("PYTEST_", "MICRO_HARNESS"))}
    tag = f"FARM_NIGHT_UNDER_TEST={uuid.uuid4().hex}"
    env.update([tag.split("=", 1)])
    night = subprocess.Popen(argv, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    extra: dict[str, Any] = {}
    try:
        deadline = time.monotonic() + 180
        while (binaries_done(db) < after or not ready()) and night.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        done_at_fault = binaries_done(db)
        assert night.poll() is None and done_at_fault < len(paths), "the night ended before the fault"
        extra["fault"] = fault()
        faulted_at = time.monotonic()
        if then is not None:
            extra["then"] = then()
        output, _ = night.communicate(timeout=300)
        ended_after_s = time.monotonic() - faulted_at
        # The night process is gone; nothing it started may be (its pytest, the workers, their clients).
        deadline = time.monotonic() + 5
        while tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = tagged(tag)
    finally:
        if night.poll() is None:
            night.kill()
            night.wait(10)
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes of the night still running: {left}"
    junit = re.search(r"JUnit (\S+\.xml), report", output)
    assert junit is not None, output[-3000:]
    with History(db) as history:
        runs, results = history.runs(), history.results()
        attempts = history.query("SELECT * FROM attempts ORDER BY at")
        notes = [(n["kind"], n["subject"], n["text"]) for n in history.notes()]
    return Night(output, night.returncode, runs, results, attempts, notes, page, junit_cases(Path(junit.group(1))),
                 done_at_fault, ended_after_s, extra)


def png_rows(path: Path, max_rows: int) -> tuple[int, int, list[bytes]]:
    """(width, channels, the first ``max_rows`` rows of RGB(A) bytes) of a non-interlaced 8-bit PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat, width = 8, b"", 0
    height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color in (2, 6), f"unexpected PNG format depth={depth} color={color}"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    offset = 0
    for _ in range(min(height, max_rows)):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, channels, rows
