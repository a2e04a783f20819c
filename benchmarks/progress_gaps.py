#!/usr/bin/env python3
"""How long a new user waits between signs of life: the README's main command in a fresh clone.

Clones this checkout (committed state) into a temporary folder, so nothing is built yet, runs
the command there with output on a pipe (as CI sees it), timestamps every chunk of output, and
prints the longest silences with the line that ended each. Issue 12's bar: progress at least every
10 s on every long step.

    python3 benchmarks/progress_gaps.py                      # main job: -n auto --board=bluepill -m micro micro_runtime
    python3 benchmarks/progress_gaps.py -- -n 2 --board=host -m micro micro_runtime/kernels
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAIN_JOB = ["-n", "auto", "--board=bluepill", "-m", "micro", "micro_runtime"]


def run_timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, list[tuple[float, str]], float]:
    """Runs ``argv``; returns (exit code, [(seconds since start, text of the chunk)], total seconds)."""
    start = time.monotonic()
    chunks: list[tuple[float, str]] = []
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    while True:
        data = os.read(fd, 65536)
        if not data:
            break
        chunks.append((time.monotonic() - start, data.decode(errors="replace")))
    code = proc.wait()
    return code, chunks, time.monotonic() - start


def gaps(chunks: list[tuple[float, str]], total: float) -> list[tuple[float, float, str]]:
    """(silence in s, when it ended, the text that ended it), longest first; the start counts as output."""
    found = []
    previous = 0.0
    for at, text in chunks:
        line = next((part.strip() for part in text.splitlines() if part.strip()), text.strip())
        found.append((at - previous, at, line[:100]))
        previous = at
    found.append((total - previous, total, "(end)"))
    return sorted(found, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=5, help="how many of the longest silences to print")
    parser.add_argument("--limit", type=float, default=10.0, help="the longest acceptable silence (s)")
    parser.add_argument("pytest_args", nargs="*", help="arguments of pytest (default: the README's main job)")
    args = parser.parse_args()
    pytest_args = args.pytest_args or MAIN_JOB
    with tempfile.TemporaryDirectory(prefix="progress-gaps-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MICRO_HARNESS", "PYTEST_"))}
        env.update(PYTHONPATH=str(clone), CI="true", PYTHONUNBUFFERED="1")
        argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *pytest_args]
        print(f"fresh clone, cold build: pytest {' '.join(pytest_args)}", flush=True)
        code, chunks, total = run_timed(argv, clone, env)
    longest = gaps(chunks, total)
    print(f"exit {code}, {total:.1f} s, {len(chunks)} output chunks")
    print(f"{'silence (s)':>12}  {'ended at (s)':>12}  ended by")
    for silence, at, text in longest[: args.top]:
        print(f"{silence:12.1f}  {at:12.1f}  {text}")
    worst = longest[0][0] if longest else total
    verdict = "ok" if worst <= args.limit else "TOO LONG"
    print(f"longest silence {worst:.1f} s (limit {args.limit:.0f} s): {verdict}")
    return 0 if code == 0 and worst <= args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
