"""Robot Framework keywords for the harness: ``Library    harness.robot.HarnessLibrary``."""

from harness.robot.HarnessLibrary import HarnessLibrary

__all__ = ["HarnessLibrary"]
