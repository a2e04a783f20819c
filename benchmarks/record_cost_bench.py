"""What authenticated micro_test records cost: flash on the Blue Pill and instructions per record.

    python3 benchmarks/record_cost_bench.py            # instructions (bluepill, netduinoplus2) + flash
    python3 benchmarks/record_cost_bench.py --no-flash # skip the flash comparison (it builds an old tree)

1. Instructions per record, counted exactly by QEMU's TCG plugin (harness/runners/insn_counter/) around one
   record in ``benchmarks/record_cost/record_cost.cc``: an authenticated record as micro_test.h prints it
   (text formatted, authenticator, DebugLog), the same text printed plainly as before, and the
   authenticator alone. The record text is 34 characters (``END ConvInt8PerChannelSame PASSED``).
2. Flash: three bluepill test binaries built from this tree and from the last tree with plain records
   (``--base``, default 3311bb4, checked out into a temporary git worktree). Target: <= 1 KB each.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from target_bench import build_counter

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.driver import build_program
from harness.runners.qemu import qemu_command

SOURCE = REPO_ROOT / "benchmarks" / "record_cost" / "record_cost.cc"
FLASH_TESTS = ("micro_log_test", "conv_test", "micro_speech_test", "all_ops_resolver_model_ops_test")
ROWS = ("markers only", "authenticated record (format + authenticator + DebugLog)",
        "plain record as before (MicroPrintf)", "authenticator alone")


def instructions(board_name: str) -> list[int]:
    board = load_board(board_name)
    built = build_program(board, SOURCE, "record_cost_bench", progress=None)
    if built.elf is None:
        raise SystemExit(f"cannot build {SOURCE.name} for {board_name}: {built.error}")
    symbols = subprocess.run([board.tool("nm"), str(built.elf)], capture_output=True, text=True, check=True).stdout
    found = {parts[2]: int(parts[0], 16) & ~1 for parts in (line.split() for line in symbols.splitlines())
             if len(parts) == 3 and parts[2] in ("record_bench_begin", "record_bench_end")}
    plugin = build_counter()
    with tempfile.TemporaryDirectory() as tmp:
        counts = Path(tmp) / "counts.txt"
        argv = qemu_command(built.elf, board, icount=0)
        argv[1:1] = ["-plugin", f"{plugin},begin=0x{found['record_bench_begin']:x},"
                     f"end=0x{found['record_bench_end']:x},out={counts},per_insn=1"]  # exact under -icount
        subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=False)
        values = [int(line) for line in counts.read_text().splitlines() if line.isdigit()]  # not "total N"
    if len(values) != len(ROWS):
        raise SystemExit(f"{board_name}: {len(values)} counts, expected {len(ROWS)}")
    return [values[0]] + [v - values[0] for v in values[1:]]


def _flash(elf: Path) -> int:
    out = subprocess.run(["arm-none-eabi-size", "-A", str(elf)], capture_output=True, text=True, check=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1].isdigit() and re.fullmatch(r"\d+", parts[2]):
            address = int(parts[2])
            if 0x08000000 <= address < 0x08100000 or parts[0] == ".data":
                total += int(parts[1])
    return total


def flash(base: str) -> list[tuple[str, int, int]]:
    def build(tree: Path) -> dict[str, int]:
        subprocess.run(["make", "-s", "-C", str(tree / "micro_runtime"), "TARGET=bluepill", "-j2", *FLASH_TESTS],
                       check=True, capture_output=True)
        return {name: _flash(tree / "micro_runtime" / "gen" / "bluepill" / "bin" / name) for name in FLASH_TESTS}

    now = build(REPO_ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(REPO_ROOT), "worktree", "add", "--detach", str(tree), base], check=True,
                       capture_output=True)
        try:
            before = build(tree)
        finally:
            subprocess.run(["git", "-C", str(REPO_ROOT), "worktree", "remove", "--force", str(tree)], check=False,
                           capture_output=True)
    return [(name, before[name], now[name]) for name in FLASH_TESTS]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="3311bb4", help="the last commit with plain records (flash comparison)")
    parser.add_argument("--no-flash", action="store_true")
    args = parser.parse_args()
    boards = ("bluepill", "netduinoplus2")
    counts = {board: instructions(board) for board in boards}
    width = max(len(r) for r in ROWS)
    print(f"{'instructions per record'.ljust(width)}  " + "  ".join(f"{b:>13}" for b in boards))
    for index, label in enumerate(ROWS):
        print(f"{label.ljust(width)}  " + "  ".join(f"{counts[b][index]:>13,}" for b in boards))
    added = {b: counts[b][1] - counts[b][2] for b in boards}
    print(f"{'added by authentication'.ljust(width)}  " + "  ".join(f"{added[b]:>+13,}" for b in boards))
    if not args.no_flash:
        print(f"\nflash on bluepill (bytes)   {args.base:>10}  {'now':>8}  {'added':>6}  (target <= 1,024)")
        for name, before, now in flash(args.base):
            print(f"{name:<34} {before:>10,}  {now:>8,}  {now - before:>+6,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
