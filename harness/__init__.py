"""Hardware-in-the-loop test harness for micro_runtime firmware."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

__all__ = ["REPO_ROOT"]
