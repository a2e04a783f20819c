"""Compatibility name for the log reader: ``harness.formats.reader`` holds it now.

Every format's protocol lives in ``harness/formats/`` (one module each); this module keeps the
old import path (``parse_log``, ``LogParser``, ``BinaryReport``, ``CaseResult``) working.
"""

from __future__ import annotations

from harness.formats.base import CaseResult
from harness.formats.reader import TAIL_LINES, BinaryReport, LogReader, parse_log

LogParser = LogReader

__all__ = ["TAIL_LINES", "BinaryReport", "CaseResult", "LogParser", "LogReader", "parse_log"]
