"""The model runner's output (docs/model_runner.md), decoded in full by ``harness.cli.run_model``.

::

    model_runner: model_bytes=<n> arena_bytes=<n> cases=<n>
    case <i> output <j> type=<t> shape=<d,...> data=<hex>
    arena_used_bytes=<n>
    ~~~MODEL RUNNER DONE~~~             | model_runner: error: <reason>

One "case" per model input case: it opens at its first ``case <i>`` line. The run ends at the
done line, or at the error line (a failed run).
"""

from __future__ import annotations

import re

from harness.formats.base import FAILED, PASSED, FormatReader

DONE_MARKER = "~~~MODEL RUNNER DONE~~~"
ERROR_PREFIX = "model_runner: error: "

_HEADER = re.compile(r"^model_runner: model_bytes=\d+ arena_bytes=\d+ cases=(?P<cases>\d+)$")
_CASE_LINE = re.compile(r"^case (?P<index>\d+) ")


class ModelRunnerReader(FormatReader):
    name = "model_runner"
    description = "the model runner (harness run-model)"

    def __init__(self, expected: list[str] | None = None) -> None:
        super().__init__(expected)
        self.declared: int | None = None

    @classmethod
    def detects(cls, line: str) -> bool:
        return _HEADER.match(line) is not None or line == DONE_MARKER or line.startswith(ERROR_PREFIX)

    def line(self, text: str, raw: str, now: float) -> None:
        if self.ended:
            if text == DONE_MARKER or text.startswith(ERROR_PREFIX) or _CASE_LINE.match(text):
                self.after_end(text)
            return
        if match := _HEADER.match(text):
            self.declared = int(match["cases"])
        elif match := _CASE_LINE.match(text):
            name = f"case{match['index']}"
            if self.current is None or self.current.name != name:
                self.start_case(name, now)
        elif text.startswith(ERROR_PREFIX):
            self.fail_current(raw)
            self.close_case(now)
            self.claimed = FAILED
            self.ended = True
        elif text == DONE_MARKER:
            self.close_case(now)
            self.claimed = PASSED
            self.ended = True
        else:
            self.message(raw)

    def finish(self) -> None:
        if self.claimed == PASSED and self.declared is not None and self.declared != len(self.cases):
            self.problems.append(f"the runner announced {self.declared} cases but printed {len(self.cases)}")
