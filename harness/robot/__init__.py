"""Front end: Robot Framework keywords for the harness (``Library    harness.robot.HarnessLibrary``).

May import: every stage below the front ends; runs go through ``harness.session.run_binary``.
"""

from harness.robot.HarnessLibrary import HarnessLibrary

__all__ = ["HarnessLibrary"]
