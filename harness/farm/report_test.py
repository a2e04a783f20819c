"""The report: never green for a night that did not finish; the gate at the top; an infrastructure storm as one
line with its cause; no rows of +0; pass rates not rounded up to 100 %; the devices named; a relative JUnit link."""

from __future__ import annotations

import time
from pathlib import Path

from harness.farm.history import CaseRecord, History, RunInfo
from harness.farm.report import render


def _night(history: History, run_id: str, exitstatus: int | None) -> None:
    history.begin_run(RunInfo(run_id=run_id, night="2026-03-01", started_at=time.time(), commit_sha="c" * 40,
                              host="h", label=""))
    history.add_results([CaseRecord(run_id=run_id, case_id="a_test.cc::A", board="host", outcome="passed")])
    if exitstatus is not None:
        history.finish_run(run_id, exitstatus)


def _status(html: str) -> str:
    return html.split('id="status">', 1)[1].split("<", 1)[0]


def test_a_finished_passing_night_is_green(tmp_path: Path) -> None:
    with History(tmp_path / "farm.db") as history:
        _night(history, "r1", 0)
        assert _status(render(history)) == "GREEN"


def test_a_killed_night_is_not_green(tmp_path: Path) -> None:
    """SIGKILL of the night: the run has no exit status and only some results, all of them passing."""
    with History(tmp_path / "farm.db") as history:
        _night(history, "r1", None)
        html = render(history)
    assert _status(html) == "INCOMPLETE" and "never finished" in html and ">GREEN<" not in html


def _run(history: History, run_id: str, night: str, results: list[CaseRecord], exitstatus: int = 0,
         measures: list[tuple[str, str, str, str, float]] = ()) -> None:  # type: ignore[assignment]
    from harness.farm.history import Measure

    history.begin_run(RunInfo(run_id=run_id, night=night, started_at=time.time(), host="ci-1"))
    for record in results:
        record.run_id = run_id
    history.add_results(results)
    history.add_measures(Measure(run_id, board, binary, figure, value, subject)
                         for figure, board, binary, subject, value in measures)
    history.finish_run(run_id, exitstatus)


def _case(name: str, outcome: str = "passed", failure_class: str | None = None, message: str | None = None,
          device: str | None = "qemu@ci-1") -> CaseRecord:
    return CaseRecord(run_id="", case_id=f"a_test.cc::{name}", board="bluepill", outcome=outcome,
                      failure_class=failure_class, message=message, device_id=device)


def test_an_infrastructure_storm_is_one_line_with_its_cause(tmp_path: Path) -> None:
    with History(tmp_path / "farm.db") as history:
        _run(history, "r1", "2026-03-01", [_case(f"C{i}") for i in range(6)])
        _run(history, "r2", "2026-03-02", [_case(f"C{i}", "error", "infra", "every bluepill place is unhealthy (…)",
                                                 device=None) for i in range(6)], exitstatus=1)
        html = render(history)
    assert "<b>6 of the 6 new failures are infrastructure errors</b>" in html
    assert "the most common (6): every bluepill place is unhealthy" in html


def test_gate_violations_are_a_section_at_the_top(tmp_path: Path) -> None:
    with History(tmp_path / "farm.db") as history:
        _run(history, "r1", "2026-03-01", [_case("A")], exitstatus=1)
        history.add_note("r1", "gate", "conv_test[bluepill]", "FAILED: flash_bytes of conv_test on bluepill grew ...")
        html = render(history)
    gate = html.index('id="gate"')
    assert gate < html.index('id="new-failures"') and "Gate: 1 violation(s)" in html
    assert "FAILED: flash_bytes of conv_test on bluepill grew" in html[gate:html.index("</section>", gate)]


def test_unchanged_figures_are_counted_not_listed_and_changes_say_since_when(tmp_path: Path) -> None:
    with History(tmp_path / "farm.db") as history:
        same = [("flash_bytes", "bluepill", f"t{i}", "", 1000.0) for i in range(20)]
        _run(history, "r1", "2026-03-01", [_case("A")], measures=same)
        grown = ("flash_bytes", "bluepill", "t0", "", 1100.0)
        _run(history, "r2", "2026-03-02", [_case("A")],
             measures=[*same[1:], grown, ("flash_bytes", "bluepill", "new_test", "", 50.0)])
        _run(history, "r3", "2026-03-03", [_case("A")],
             measures=[*same[1:], grown, ("flash_bytes", "bluepill", "new_test", "", 60.0)])
        html = render(history)
    table = html[html.index("Biggest footprint changes per binary"):]
    table = table[:table.index("</table>") + 200]
    assert table.count("<tr><td class='case'>") == 2  # t0 and new_test; not 19 rows of +0
    assert "19 more figures unchanged since they were first measured" in table
    assert "since 2026-03-02</span>" in table and "since 2026-03-01</span>" in table  # new_test from its first night


def test_a_pass_rate_just_under_100_is_not_shown_as_100(tmp_path: Path) -> None:
    from harness.farm.report import _rate

    assert (_rate(1.0), _rate(0.998), _rate(0.9995), _rate(0.5)) == ("100%", "99.8%", "99.95%", "50.0%")
    with History(tmp_path / "farm.db") as history:
        _run(history, "r1", "2026-03-01", [_case(f"C{i}") for i in range(499)] + [_case("X", "failed", "test")],
             exitstatus=1)
        html = render(history)
    assert '<div class="n">99.8%</div>' in html


def test_the_header_names_the_devices_and_the_junit_link_is_relative(tmp_path: Path) -> None:
    from harness.farm.report import write_report

    with History(tmp_path / "farm.db") as history:
        _run(history, "r1", "2026-03-01",
             [_case("A", device="bluepill-1@rack-a"), _case("B", device="bluepill-2@rack-b")])
        (tmp_path / "out").mkdir()
        junit = tmp_path / "night-2026-03-01.xml"
        junit.write_text("<testsuites/>")
        page = write_report(history, tmp_path / "out" / "night.html", junit=str(junit)).read_text()
    assert "devices bluepill-1@rack-a, bluepill-2@rack-b" in page and "run from ci-1" in page
    assert 'href="../night-2026-03-01.xml"' in page


def test_an_infrastructure_storm_counts_one_cause_across_binaries(tmp_path: Path) -> None:
    """The items' messages name their binary ("<binary> on hil:farm: <cause>"): the storm line counts the cause."""
    gone = "the labgrid coordinator at 127.0.0.1:5 is gone: not back after 5 s of reconnecting"
    with History(tmp_path / "farm.db") as history:
        _run(history, "r1", "2026-03-01", [_case(f"C{i}") for i in range(6)])
        broken = [_case(f"C{i}", "error", "infra", f"a_test on hil:farm: {gone}") for i in range(3)]
        for i in range(3, 6):
            record = _case(f"C{i}", "error", "infra", f"b_test on hil:farm: {gone}")
            record.case_id = f"b_test.cc::C{i}"
            broken.append(record)
        _run(history, "r2", "2026-03-02", broken, exitstatus=1)
        html = render(history)
    assert f"the most common (6): {gone}</p>" in html


def test_a_killed_night_says_how_many_results_are_missing(tmp_path: Path) -> None:
    """379 of 555 results and no exit status: INCOMPLETE, with the count against the last complete night."""
    with History(tmp_path / "farm.db") as history:
        _run(history, "r1", "2026-03-01", [_case(f"C{i}") for i in range(555)])
        history.begin_run(RunInfo(run_id="r2", night="2026-03-02", started_at=time.time(), host="ci-1"))
        killed = [_case(f"C{i}") for i in range(379)]
        for record in killed:
            record.run_id = "r2"
        history.add_results(killed)  # ... and SIGKILL: no finish_run
        html = render(history)
    assert _status(html) == "INCOMPLETE"
    assert ("176 of the 555 results of the last complete night (2026-03-01) are missing tonight (379 recorded), so "
            "the night is not green") in html


def test_a_binary_missing_one_night_does_not_make_the_footprint_chart_dip(tmp_path: Path) -> None:
    """The flash chart sums the binaries measured every night: a failed build one night (no figure) is no dip."""
    import re

    with History(tmp_path / "farm.db") as history:
        for n, night in enumerate(("2026-03-01", "2026-03-02", "2026-03-03")):
            figures = [("flash_bytes", "bluepill", "t0", "", 40960.0)]
            if n != 1:  # t1 failed to build on the second night
                figures.append(("flash_bytes", "bluepill", "t1", "", 51200.0))
            _run(history, f"r{n}", night, [_case("A")], measures=figures)
        html = render(history)
    chart = html[html.index("Flash, binaries of every night (KiB)"):]
    path = re.search(r'<path d="([^"]+)"', chart)
    assert path is not None
    heights = {point.split(",")[1] for point in path.group(1).replace("M", "").replace("L", "").split()}
    assert len(heights) == 1, path.group(1)  # flat: t0 alone, every night
