"""Coverage reports with gcovr: per binary from its .gcda files, merged from the binaries' JSON tracefiles.

Each report folder holds ``coverage.json`` (gcovr's JSON tracefile, what merging reads), ``coverage.info``
(LCOV tracefile, written here from the JSON: gcovr 5 has no LCOV output), ``coverage.xml`` (Cobertura) and
``index.html`` (gcovr's HTML with a page per source file).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GCOVR_INSTALL = "apt-get install gcovr (or pip install gcovr)"
JSON, LCOV, COBERTURA, HTML = "coverage.json", "coverage.info", "coverage.xml", "index.html"


class ReportError(Exception):
    """gcovr is missing or failed; the message names the fix or carries its output."""


@dataclass(frozen=True)
class Totals:
    lines_covered: int
    lines_total: int
    functions_covered: int
    functions_total: int

    @property
    def percent(self) -> float:
        return 100.0 * self.lines_covered / self.lines_total if self.lines_total else 0.0

    def __str__(self) -> str:
        return (f"{self.lines_covered:,}/{self.lines_total:,} lines ({self.percent:.1f} %), "
                f"{self.functions_covered:,}/{self.functions_total:,} functions")


def gcovr_problem() -> str | None:
    """Why no report can be made here (gcovr missing), or None."""
    if shutil.which("gcovr") is None:
        return f"gcovr not found; install it: {GCOVR_INSTALL}"
    return None


def _gcovr(args: Sequence[str], cwd: Path) -> None:
    problem = gcovr_problem()
    if problem is not None:
        raise ReportError(problem)
    proc = subprocess.run(["gcovr", *args], cwd=cwd, capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise ReportError(f"gcovr failed (status {proc.returncode}): {(proc.stderr or proc.stdout).strip()[-2000:]}")


def _outputs(folder: Path, title: str) -> list[str]:
    return ["--json", str(folder / JSON), "--cobertura", str(folder / COBERTURA), "--html-details",
            str(folder / HTML), "--html-title", title]


def from_gcda(gcda_dir: Path, folder: Path, *, root: Path, gcov: str, exclude: Sequence[Path] = (),
              title: str) -> Totals:
    """The reports of one binary from the .gcda files under ``gcda_dir`` (each with its .gcno beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    excludes = [arg for path in exclude for arg in ("--exclude", re.escape(str(path)) + "/.*")]
    _gcovr(["--root", str(root), "--gcov-executable", gcov, *excludes, *_outputs(folder, title), str(gcda_dir)],
           cwd=root)
    return _finish(folder)


def merged(tracefiles: Sequence[Path], folder: Path, *, root: Path, title: str) -> Totals:
    """One report from several binaries' JSON tracefiles: a line's count is the sum of theirs (``merge``)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = merge([json.loads(path.read_text()) for path in tracefiles])
    (folder / JSON).write_text(json.dumps(data))
    _gcovr(["--root", str(root), "--add-tracefile", str(folder / JSON), "--cobertura", str(folder / COBERTURA),
            "--html-details", str(folder / HTML), "--html-title", title], cwd=root)
    return _finish(folder)


def merge(tracefiles: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """gcovr JSON tracefiles as one: per file and line the counts (and each branch's) summed, a line code where
    any binary has code there; functions by name and line, summed. Done here, not by gcovr 5 (whose merge
    asserts when one function name sits at two lines of a file, as a header's ``#if`` branches do across boards):
    such a function keeps both entries, the later named ``<name> [line N]``."""
    files: dict[str, dict[str, Any]] = {}
    for data in tracefiles:
        for entry in data.get("files", []):
            into = files.setdefault(entry["file"], {"file": entry["file"], "lines": {}, "functions": {}})
            for line in entry.get("lines", []):
                number = line["line_number"]
                have = into["lines"].get(number)
                if have is None:
                    into["lines"][number] = {**line, "branches": [dict(b) for b in line.get("branches", [])]}
                    continue
                have["count"] += line["count"]
                have["gcovr/noncode"] = bool(have.get("gcovr/noncode")) and bool(line.get("gcovr/noncode"))
                have["gcovr/excluded"] = bool(have.get("gcovr/excluded")) or bool(line.get("gcovr/excluded"))
                for index, branch in enumerate(line.get("branches", [])):
                    if index < len(have["branches"]):
                        have["branches"][index]["count"] += branch.get("count", 0)
                    else:
                        have["branches"].append(dict(branch))
            for function in entry.get("functions", []):
                key = (function["name"], function["lineno"])
                if key in into["functions"]:
                    into["functions"][key]["execution_count"] += function["execution_count"]
                    continue
                named = {f["name"] for f in into["functions"].values()}
                name = function["name"] if function["name"] not in named else \
                    f"{function['name']} [line {function['lineno']}]"
                into["functions"][key] = {**function, "name": name}
    return {"gcovr/format_version": tracefiles[0].get("gcovr/format_version", "0.3") if tracefiles else "0.3",
            "files": [{"file": name, "lines": [entry["lines"][n] for n in sorted(entry["lines"])],
                       "functions": list(entry["functions"].values())} for name, entry in sorted(files.items())]}


def _finish(folder: Path) -> Totals:
    data = json.loads((folder / JSON).read_text())
    (folder / LCOV).write_text(to_lcov(data, test_name=folder.name))
    return totals(data)


def _code_lines(entry: dict[str, Any]) -> list[dict[str, Any]]:
    return [line for line in entry.get("lines", []) if not line.get("gcovr/noncode") and not line.get("gcovr/excluded")]


def totals(data: dict[str, Any]) -> Totals:
    """Line and function totals of a gcovr JSON tracefile (functions by name and line: templates and lambdas
    reported twice count once)."""
    covered = total = 0
    functions: dict[tuple[str, str, int], int] = {}
    for entry in data.get("files", []):
        for line in _code_lines(entry):
            total += 1
            covered += line.get("count", 0) > 0
        for function in entry.get("functions", []):
            key = (entry["file"], function["name"], function["lineno"])
            functions[key] = functions.get(key, 0) + function["execution_count"]
    return Totals(covered, total, sum(1 for count in functions.values() if count > 0), len(functions))


def line_counts(data: dict[str, Any], source: str) -> dict[int, int]:
    """Line number -> execution count of the code lines of ``source`` (root-relative path) in a tracefile."""
    counts: dict[int, int] = {}
    for entry in data.get("files", []):
        if entry["file"] == source:
            for line in _code_lines(entry):
                counts[line["line_number"]] = counts.get(line["line_number"], 0) + line["count"]
    return counts


def to_lcov(data: dict[str, Any], test_name: str = "") -> str:
    """An LCOV tracefile (``lcov``/``genhtml`` read it) of a gcovr JSON tracefile: functions, lines, branches."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", test_name)
    out: list[str] = []
    for entry in sorted(data.get("files", []), key=lambda e: str(e["file"])):
        out += [f"TN:{name}", f"SF:{entry['file']}"]
        functions: dict[tuple[str, int], int] = {}
        for function in entry.get("functions", []):
            key = (function["name"], function["lineno"])
            functions[key] = functions.get(key, 0) + function["execution_count"]
        for (fname, lineno), _ in sorted(functions.items(), key=lambda kv: kv[0][1]):
            out.append(f"FN:{lineno},{fname}")
        for (fname, _), count in functions.items():
            out.append(f"FNDA:{count},{fname}")
        out += [f"FNF:{len(functions)}", f"FNH:{sum(1 for c in functions.values() if c > 0)}"]
        lines = _code_lines(entry)
        branches_found = branches_hit = 0
        for line in lines:
            for index, branch in enumerate(line.get("branches", [])):
                count = branch.get("count", 0)
                taken = "-" if line["count"] == 0 else str(count)
                out.append(f"BRDA:{line['line_number']},0,{index},{taken}")
                branches_found += 1
                branches_hit += count > 0
        out += [f"BRF:{branches_found}", f"BRH:{branches_hit}"]
        out += [f"DA:{line['line_number']},{line['count']}" for line in lines]
        out += [f"LF:{len(lines)}", f"LH:{sum(1 for line in lines if line['count'] > 0)}", "end_of_record"]
    return "\n".join(out) + "\n"
