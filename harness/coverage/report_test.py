"""Reports from gcovr's JSON: totals, LCOV, and the merge of several binaries' tracefiles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.coverage.report import line_counts, merge, to_lcov, totals


def _line(number: int, count: int, *, noncode: bool = False, branches: list[int] | None = None) -> dict[str, Any]:
    return {"line_number": number, "count": count, "gcovr/noncode": noncode, "gcovr/excluded": False,
            "branches": [{"count": c, "fallthrough": False, "throw": False} for c in branches or []]}


def _trace(*lines: dict[str, Any], functions: Sequence[tuple[str, int, int]] = ()) -> dict[str, Any]:
    return {"gcovr/format_version": "0.3", "files": [{"file": "k/add.cc", "lines": list(lines), "functions": [
        {"name": n, "lineno": ln, "execution_count": c} for n, ln, c in functions]}]}


def test_totals_count_code_lines_and_functions() -> None:
    data = _trace(_line(1, 0, noncode=True), _line(2, 3), _line(3, 0), functions=[("Add", 2, 3), ("Sub", 3, 0)])
    found = totals(data)
    assert (found.lines_covered, found.lines_total, found.functions_covered, found.functions_total) == (1, 2, 1, 2)
    assert str(found) == "1/2 lines (50.0 %), 1/2 functions"
    assert line_counts(data, "k/add.cc") == {2: 3, 3: 0}


def test_lcov_has_functions_lines_and_branches() -> None:
    text = to_lcov(_trace(_line(2, 3, branches=[2, 1]), _line(3, 0, branches=[0, 0]), functions=[("Add", 2, 3)]),
                   test_name="add_test on host")
    assert text.splitlines() == [
        "TN:add_test_on_host", "SF:k/add.cc", "FN:2,Add", "FNDA:3,Add", "FNF:1", "FNH:1",
        "BRDA:2,0,0,2", "BRDA:2,0,1,1", "BRDA:3,0,0,-", "BRDA:3,0,1,-", "BRF:4", "BRH:2",
        "DA:2,3", "DA:3,0", "LF:2", "LH:1", "end_of_record"]


def test_merge_sums_counts_and_keeps_a_function_at_two_lines() -> None:
    one = _trace(_line(2, 3, branches=[1, 2]), _line(3, 0, noncode=True), functions=[("Add", 2, 3)])
    two = _trace(_line(2, 4, branches=[0, 5]), _line(3, 7), functions=[("Add", 2, 1), ("Add", 9, 2)])
    data = merge([one, two])
    assert line_counts(data, "k/add.cc") == {2: 7, 3: 7}  # line 3 is code in the second binary
    assert [b["count"] for b in data["files"][0]["lines"][0]["branches"]] == [1, 7]
    functions = {(f["name"], f["lineno"]): f["execution_count"] for f in data["files"][0]["functions"]}
    assert functions == {("Add", 2): 4, ("Add [line 9]", 9): 2}
