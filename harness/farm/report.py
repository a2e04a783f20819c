"""One static, offline HTML page per night, from the history.

Everything is inline (CSS, SVG charts); no script, no font or image is fetched, so the page
reads the same from a CI artifact, a mail attachment or a file:// URL.

Size: over 400 lines because the page is one self-contained HTML document (its CSS and sections live
together); the charts are in ``harness.farm.svg``.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from harness.farm import health, svg
from harness.farm.flaky import SEVERITY, FlakyCase, flaky_cases
from harness.farm.history import SCHEMA_VERSION, History

FIGURE_LABELS = {"flash_bytes": "flash", "ram_bytes": "RAM", "arena_bytes": "arena",
                 "instructions_per_invoke": "instructions / Invoke", "case_instructions": "instructions per case",
                 "case_cycles": "estimated cycles per case", "case_stack_bytes": "stack per case",
                 "binary_duration_s": "run time"}


@dataclass
class NightCell:
    outcome: str
    quarantined: bool = False
    message: str | None = None
    failure_class: str | None = None


@dataclass
class ReportData:
    night: str
    previous: str | None
    nights: list[str]
    runs: list[dict[str, object]]
    boards: list[str]
    cells: dict[tuple[str, str], NightCell]  # (case_id, board) -> tonight
    before: dict[tuple[str, str], NightCell]  # the night before
    pass_rates: dict[str, dict[str, float]]  # board ("all") -> night -> rate
    counts: dict[str, int] = field(default_factory=dict)  # tonight's outcomes
    measures: dict[tuple[str, str, str, str], dict[str, float]] = field(default_factory=dict)
    notes: list[tuple[str, str, str]] = field(default_factory=list)


def _worst(cells: dict[tuple[str, str], NightCell], key: tuple[str, str], cell: NightCell) -> None:
    old = cells.get(key)
    if old is None or SEVERITY.get(cell.outcome, 2) > SEVERITY.get(old.outcome, 2):
        cells[key] = cell


def collect(history: History, night: str | None = None) -> ReportData:
    nights = history.nights()
    if not nights:
        raise ValueError(f"{history.path}: the history has no runs yet")
    night = night or nights[-1]
    if night not in nights:
        raise ValueError(f"night {night} is not in the history (first {nights[0]}, last {nights[-1]})")
    nights = [n for n in nights if n <= night]
    previous = nights[-2] if len(nights) > 1 else None
    runs = [dict(row) for row in history.query("SELECT * FROM runs WHERE night = ? ORDER BY started_at", (night,))]
    cells: dict[tuple[str, str], NightCell] = {}
    before: dict[tuple[str, str], NightCell] = {}
    rows = history.conn.execute(
        "SELECT runs.night, r.case_id, r.board, r.outcome, r.quarantined, r.message, r.failure_class "
        "FROM results r JOIN runs USING (run_id) WHERE runs.night IN (?, ?)", (night, previous or night))
    for row_night, case_id, board, outcome, quarantined, message, failure_class in rows:
        target = cells if row_night == night else before
        _worst(target, (case_id, board), NightCell(outcome, bool(quarantined), message, failure_class))
    totals: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row_night, board, outcome, count in history.conn.execute(
            "SELECT runs.night, r.board, r.outcome, COUNT(*) FROM results r JOIN runs USING (run_id) "
            "WHERE runs.night <= ? GROUP BY 1, 2, 3", (night,)):
        if outcome == "skipped":
            continue
        for name in (board, "all"):
            totals[name][row_night][1] += count
            totals[name][row_night][0] += count if outcome == "passed" else 0
    pass_rates = {name: {n: p / t for n, (p, t) in by_night.items() if t} for name, by_night in totals.items()}
    measures: dict[tuple[str, str, str, str], dict[str, float]] = defaultdict(dict)
    for row_night, board, binary, figure, subject, value in history.conn.execute(
            "SELECT runs.night, m.board, m.binary, m.figure, m.subject, m.value FROM measures m "
            "JOIN runs USING (run_id) WHERE runs.night <= ? ORDER BY runs.started_at", (night,)):
        measures[(figure, board, binary, subject)][row_night] = value
    counts: dict[str, int] = defaultdict(int)
    for cell in cells.values():
        counts["quarantined" if cell.quarantined and cell.outcome != "passed" else cell.outcome] += 1
    run_ids = [str(r["run_id"]) for r in runs]
    marks = ", ".join("?" * len(run_ids))
    notes = [(n["kind"], n["subject"], n["text"]) for n in history.query(
        f"SELECT kind, subject, text FROM notes WHERE run_id IN ({marks}) ORDER BY at", run_ids)]
    boards = sorted({board for _, board in cells} | {b for _, b in before})
    return ReportData(night, previous, nights, runs, boards, cells, before, pass_rates, dict(counts), dict(measures),
                      notes)


# ---------------------------------------------------------------------- HTML --
CSS = """
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#f6f8fa; --pass:#2da44e; --fail:#cf222e;
  --err:#bc4c00; --skip:#afb8c1; --quar:#8250df; --flaky:#9a6700; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg);
  background: var(--bg); margin: 0; }
header { background: #24292f; color: #fff; padding: 18px 28px; display: flex; align-items: center; gap: 18px; }
header h1 { font-size: 22px; margin: 0; font-weight: 600; }
header .sub { color: #d1d9e0; font-size: 13px; }
.pill { font-weight: 700; padding: 4px 12px; border-radius: 999px; font-size: 14px; letter-spacing: .04em; }
.pill.green { background: var(--pass); } .pill.red { background: var(--fail); }
.pill.incomplete { background: var(--fail); }
main { padding: 18px 28px 40px; max-width: 1400px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 12px; margin-bottom: 18px; }
.tile { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.tile .n { font-size: 28px; font-weight: 650; line-height: 1.1; }
.tile .l { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .05em; }
.tile.bad .n { color: var(--fail); } .tile.good .n { color: var(--pass); } .tile.warn .n { color: var(--flaky); }
.tile .d { font-size: 12px; color: var(--muted); }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px;
  margin-bottom: 18px; }
section h2 { font-size: 16px; margin: 0 0 10px; }
.storm { background: #fff1e5; border: 1px solid var(--err); border-radius: 8px; padding: 10px 14px; }
td.wrap { white-space: normal; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 18px; }
.grid2 > section { min-width: 0; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eaeef2; vertical-align: middle; }
th { font-size: 12px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .04em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .case { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
.msg { color: var(--muted); font-size: 12px; max-width: 560px; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.cell { display: inline-block; min-width: 64px; white-space: nowrap; text-align: center; border-radius: 4px;
  color: #fff; font-size: 12px;
  font-weight: 600; padding: 1px 6px; }
.passed { background: var(--pass); } .failed { background: var(--fail); } .error { background: var(--err); }
.skipped { background: var(--skip); } .quarantined { background: var(--quar); } .none { background: #eaeef2;
  color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
.chart { width: 100%; height: auto; }
.grid3 { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 18px; }
.chart .grid { stroke: #eaeef2; } .chart .axis { fill: var(--muted); font-size: 11px; }
figure { margin: 0; } figcaption { font-size: 12px; color: var(--muted); }
.key { margin-right: 12px; white-space: nowrap; } .key i { display: inline-block; width: 10px; height: 10px;
  border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.up { color: var(--fail); font-weight: 600; } .down { color: var(--pass); font-weight: 600; }
details summary { cursor: pointer; color: var(--muted); margin: 8px 0; }
footer { color: var(--muted); font-size: 12px; padding: 0 28px 30px; }
"""


def _short(case_id: str) -> str:
    path, _, case = case_id.partition("::")
    return f"{Path(path).name}::{case}" if case else Path(path).name


def _cell(cell: NightCell | None) -> str:
    if cell is None:
        return '<span class="cell none">–</span>'
    label = cell.outcome
    css = cell.outcome
    if cell.quarantined and cell.outcome != "passed":
        css, label = "quarantined", f"{cell.outcome} (q)"
    title = escape(cell.message or cell.outcome)
    return f'<span class="cell {css}" title="{title}">{escape(label)}</span>'


def _tile(number: str, label: str, css: str = "", delta: str = "") -> str:
    return (f'<div class="tile {css}"><div class="n">{escape(number)}</div><div class="l">{escape(label)}</div>'
            f'<div class="d">{delta}</div></div>')


def _failing(cell: NightCell | None) -> bool:
    return cell is not None and cell.outcome in ("failed", "error")


def render(history: History, night: str | None = None, *, quarantine: object | None = None,
           junit: str | None = None, flaky_nights: int = 30, health_nights: int = 7) -> str:
    data = collect(history, night)
    night = data.night
    new_failures = sorted(k for k, c in data.cells.items() if _failing(c) and not _failing(data.before.get(k)))
    new_passes = sorted(k for k, c in data.cells.items()
                        if c.outcome == "passed" and _failing(data.before.get(k)))
    since = data.nights[max(0, len(data.nights) - flaky_nights)]
    flaky = flaky_cases(history, since_night=since)
    devices = health.device_health(history, since_night=data.nights[max(0, len(data.nights) - health_nights)])
    gate_notes = [n for n in data.notes if n[0] == "gate"]
    gate_failed = [n for n in gate_notes if n[2].startswith(("FAILED", "ERROR"))]
    red = any(r["exitstatus"] not in (0, None) for r in data.runs) or bool(gate_failed)
    # A run without an exit status never finished (killed, or still running): its results are a part of
    # the night at best, so the night is not green (the gate counts it as not good either).
    unfinished = [r for r in data.runs if r["exitstatus"] is None]
    rate = data.pass_rates.get("all", {})
    tonight_rate = rate.get(night)
    prev_rate = rate.get(data.previous) if data.previous else None
    commits = sorted({str(r["commit_sha"])[:10] for r in data.runs if r["commit_sha"]})
    hosts = sorted({str(r["host"]) for r in data.runs if r["host"]})
    devices_tonight = sorted({str(row[0]) for row in history.query(
        "SELECT DISTINCT r.device_id FROM results r JOIN runs USING (run_id) WHERE runs.night = ? AND "
        "r.device_id IS NOT NULL", (night,))})
    unhealthy = [d for d in devices if d.unhealthy()]

    out: list[str] = []
    out.append(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Nightly {escape(night)}</title>"
               f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{CSS}</style></head><body>")
    status = "red" if red else ("incomplete" if unfinished or not data.runs else "green")
    facts = [f"commit {', '.join(commits) or '?'}", f"run from {', '.join(hosts) or '?'}",
             f"boards {', '.join(data.boards)}", f"devices {_listed(devices_tonight)}", f"{len(data.runs)} run(s)"]
    out.append(f'<header><span class="pill {status}" id="status">{status.upper()}</span><div><h1>Nightly {night}</h1>'
               f'<div class="sub">{escape(" · ".join(facts))}</div></div></header><main>')
    if unfinished:
        out.append(f'<p class="sub" id="unfinished">{len(unfinished)} run(s) of this night never finished (killed, or '
                   f"still running): {_missing(history, data)}, so the night is not green.</p>")

    # -- tiles --
    delta = ""
    if tonight_rate is not None and prev_rate is not None:
        points = (tonight_rate - prev_rate) * 100
        delta = (f'<span class="{"down" if points >= 0 else "up"}">{points:+.1f} pt</span> since {data.previous}')
    total = len(data.cells)
    out.append('<div class="tiles">')
    out.append(_tile(_rate(tonight_rate) if tonight_rate is not None else "–", "pass rate",
                     "good" if tonight_rate == 1.0 else ("bad" if tonight_rate is not None else ""), delta))
    out.append(_tile(str(total), "case × board results", "",
                     f"{data.counts.get('passed', 0)} passed · {data.counts.get('failed', 0)} failed · "
                     f"{data.counts.get('error', 0)} errors · {data.counts.get('skipped', 0)} skipped · "
                     f"{data.counts.get('quarantined', 0)} quarantined"))
    out.append(_tile(str(len(new_failures)), "new failures", "bad" if new_failures else "good"))
    out.append(_tile(str(len(new_passes)), "new passes", "good" if new_passes else ""))
    out.append(_tile(str(len(flaky)), "flaky cases", "warn" if flaky else "good"))
    out.append(_tile(str(sum(1 for c in data.cells.values() if c.quarantined)), "quarantined"))
    out.append(_tile(str(len(gate_failed)), "gate violations", "bad" if gate_failed else "good"))
    out.append(_tile(str(len(unhealthy)), "unhealthy devices", "bad" if unhealthy else "good"))
    out.append("</div>")

    # -- the gate: what failed it, at the top (not only a tile and a note at the bottom) --
    gate_problems = [n for n in gate_notes if n[2].startswith(("FAILED", "ERROR", "MISSING"))]
    if gate_problems:
        rows = "".join(f"<tr><td class='case'>{escape(subject)}</td><td class='msg wrap'>{escape(text)}</td></tr>"
                       for _, subject, text in gate_problems)
        out.append(f'<section id="gate"><h2>Gate: {len(gate_failed)} violation(s)</h2><table><tr><th>binary</th>'
                   f"<th>what</th></tr>{rows}</table></section>")
    # -- an infrastructure storm: one line with its cause, not hundreds of "new failures" --
    infra = [k for k in new_failures if data.cells[k].failure_class == "infra"]
    storm = bool(new_failures) and len(infra) >= max(3, len(new_failures) // 2)
    if storm:
        causes: dict[str, int] = defaultdict(int)
        for key in infra:
            causes[_cause(key[0], data.cells[key].message)] += 1
        cause, times = max(causes.items(), key=lambda item: item[1])
        out.append(f'<p class="storm" id="infra-storm"><b>{len(infra)} of the {len(new_failures)} new failures are '
                   f"infrastructure errors</b>, not test failures; the most common ({times}): {escape(cause)}</p>")

    # -- new since last night --
    def change_table(keys: list[tuple[str, str]], empty: str, with_message: bool) -> str:
        if not keys:
            return f'<p class="empty">{escape(empty)}</p>'
        rows = []
        for case_id, board in keys:
            cell = data.cells[(case_id, board)]
            message = f'<td class="msg" title="{escape(cell.message or "")}">{escape(cell.message or "")}</td>' \
                if with_message else ""
            rows.append(f'<tr><td class="case" title="{escape(case_id)}">{escape(_short(case_id))}</td>'
                        f"<td>{escape(board)}</td><td>{_cell(cell)}</td>{message}</tr>")
        return "<table>" + "".join(rows) + "</table>"

    since_text = f"since {data.previous}" if data.previous else "(first night in the history)"
    # In a storm the infrastructure errors are folded under the line that names their cause; the test failures
    # among the new failures stay listed. Long lists (with their messages) get the page's width, short ones sit
    # side by side.
    listed = [k for k in new_failures if k not in infra] if storm else new_failures
    failures = change_table(listed, "no test failure among them" if storm else "none", True)
    if storm:
        failures += (f"<details><summary>{len(infra)} infrastructure errors (their cause: the line above)</summary>"
                     f"{change_table(infra, '', True)}</details>")
    layout = "grid2" if not storm and len(listed) + len(new_passes) <= 20 else "stack"
    out.append(f'<div class="{layout}"><section id="new-failures"><h2>New failures {since_text}</h2>'
               f'{failures}</section>'
               f'<section id="new-passes"><h2>New passes {since_text}</h2>'
               f'{change_table(new_passes, "none", False)}</section></div>')

    # -- pass-rate history --
    series = {"all boards": [rate.get(n) for n in data.nights]}
    for board in data.boards:
        series[board] = [data.pass_rates.get(board, {}).get(n) for n in data.nights]
    lows = [v for points in series.values() for v in points if v is not None]
    low = min(lows, default=1.0)
    # The axis spans what happened (a one-case drop in 500 must show), never less than 1 point.
    floor = max(0.0, low - max(0.01, (1.0 - low) * 0.5))
    out.append(f'<section id="pass-rate"><h2>Pass rate, {len(data.nights)} nights</h2>'
               + svg.line_chart(data.nights, series, width=1000, height=220,
                                y_range=(floor, 1.0 + (1.0 - floor) * 0.02), y_format=_rate,
                                title="pass rate per night")
               + "</section>")

    # -- matrix --
    out.append(_matrix(data))
    # -- flaky --
    out.append(_flaky(flaky, data, since))
    # -- quarantine --
    out.append(_quarantine(data, quarantine))
    # -- footprint and timing --
    out.append(_trends(data))
    # -- board health --
    out.append(_health(devices, data))
    # -- notes --
    if data.notes:
        rows = "".join(f"<tr><td>{escape(k)}</td><td class='case'>{escape(s)}</td><td>{escape(t)}</td></tr>"
                       for k, s, t in data.notes)
        out.append(f'<section id="notes"><h2>What the runs decided</h2><table><tr><th>kind</th><th>subject</th>'
                   f"<th>note</th></tr>{rows}</table></section>")
    junit_link = f' · <a href="{escape(junit)}">merged JUnit</a>' if junit else ""
    out.append(f"</main><footer>Generated {time.strftime('%Y-%m-%d %H:%M:%S')} from {escape(str(history.path))} "
               f"(history schema v{SCHEMA_VERSION}){junit_link}. Static page: no script, nothing fetched.</footer>"
               "</body></html>")
    return "".join(out)


def _missing(history: History, data: ReportData) -> str:
    """How many results of the last complete night (every run finished) on tonight's boards are not here tonight."""
    complete = [str(row[0]) for row in history.query(
        "SELECT night FROM runs WHERE night < ? GROUP BY night HAVING COUNT(*) = COUNT(exitstatus) "
        "ORDER BY night DESC LIMIT 1", (data.night,))]
    if not complete:
        return "their results are partial (no complete night before it to count what is missing)"
    boards = {board for _, board in data.cells}
    expected = {(str(case_id), str(board)) for case_id, board in history.query(
        "SELECT DISTINCT r.case_id, r.board FROM results r JOIN runs USING (run_id) WHERE runs.night = ?",
        (complete[0],)) if board in boards or not boards}
    missing = len(expected - set(data.cells))
    return (f"{missing} of the {len(expected)} results of the last complete night ({complete[0]}) are missing "
            f"tonight ({len(data.cells)} recorded)")


def _cause(case_id: str, message: str | None) -> str:
    """The cause an infrastructure error's message names, without the binary it happened to (``<binary> on
    <backend>: ...``), so one cause shared by many binaries counts as one."""
    line = (message or "(no message)").splitlines()[0]
    binary = Path(case_id.partition("::")[0]).stem
    if line.startswith((f"{binary} on ", f"{binary}: ")) and ": " in line:
        line = line.split(": ", 1)[1]
    return line[:200]


def _listed(names: list[str], most: int = 6) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "") if names else "?"


def _rate(value: float) -> str:
    """A pass rate as read: 100% only when it is; 99.8% is not rounded up to it."""
    if value >= 1.0:
        return "100%"
    return f"{value:.2%}" if value > 0.999 else f"{value:.1%}"


def _matrix(data: ReportData) -> str:
    cases = sorted({case_id for case_id, _ in data.cells})
    problem: list[str] = []
    green: list[str] = []
    for case_id in cases:
        row_cells = [data.cells.get((case_id, b)) for b in data.boards]
        row = (f'<tr><td class="case" title="{escape(case_id)}">{escape(_short(case_id))}</td>'
               + "".join(f"<td>{_cell(c)}</td>" for c in row_cells) + "</tr>")
        bad = any(c is not None and (c.outcome != "passed") for c in row_cells)
        (problem if bad else green).append(row)
    head = "<tr><th>case</th>" + "".join(f"<th>{escape(b)}</th>" for b in data.boards) + "</tr>"
    per_board = []
    for board in data.boards:
        mine = [c for (_, b), c in data.cells.items() if b == board]
        passed = sum(1 for c in mine if c.outcome == "passed")
        per_board.append(f"{escape(board)}: {passed}/{len(mine)} passed")
    body = [f'<section id="matrix"><h2>Test × board, {data.night}</h2><p>{" · ".join(per_board)}</p>']
    if problem:
        body.append(f"<table>{head}{''.join(problem)}</table>")
    else:
        body.append('<p class="empty">every case passed on every board</p>')
    if green:
        body.append(f"<details><summary>{len(green)} cases green on every board</summary>"
                    f"<table>{head}{''.join(green)}</table></details>")
    body.append("</section>")
    return "".join(body)


def _flaky(flaky: list[FlakyCase], data: ReportData, since: str) -> str:
    if not flaky:
        return (f'<section id="flaky"><h2>Flaky cases (since {since})</h2>'
                '<p class="empty">no case changed its outcome on the same binary and board</p></section>')
    rows = []
    for case in flaky[:50]:
        rows.append(f'<tr><td class="case" title="{escape(case.case_id)}">{escape(_short(case.case_id))}</td>'
                    f"<td>{escape(case.board)}</td><td class='num'>{case.flip_rate:.0%}</td>"
                    f"<td>{svg.bar(case.flip_rate, color='#9a6700')}</td>"
                    f"<td class='num'>{case.failures}/{case.runs}</td><td>{svg.outcome_strip(case.last_outcomes)}</td>"
                    f"<td>{escape(case.last_night)}</td></tr>")
    more = f"<p>{len(flaky) - 50} more: <code>harness farm flaky</code></p>" if len(flaky) > 50 else ""
    return (f'<section id="flaky"><h2>Flaky cases (since {since}): {len(flaky)}</h2><table><tr><th>case</th>'
            f"<th>board</th><th class='num'>flip rate</th><th></th><th class='num'>fails/runs</th>"
            f"<th>last runs (oldest first)</th><th>last seen</th></tr>{''.join(rows)}</table>{more}</section>")


def _quarantine(data: ReportData, quarantine: object | None) -> str:
    rows = []
    for (case_id, board), cell in sorted(data.cells.items()):
        if cell.quarantined:
            rows.append(f'<tr><td class="case">{escape(_short(case_id))}</td><td>{escape(board)}</td>'
                        f'<td>{_cell(cell)}</td><td class="msg">{escape(cell.message or "")}</td></tr>')
    entries = []
    for entry in getattr(quarantine, "entries", []) or []:
        active = entry.active_on(data.night)
        state = "active" if active else f"EXPIRED {entry.expires}"
        entries.append(f"<tr><td class='case'>{escape(entry.case)}</td><td>{escape(entry.board)}</td>"
                       f"<td>{escape(entry.reason)}</td>"
                       f"<td><a href='{escape(entry.link)}'>{escape(entry.link)}</a></td>"
                       f"<td>{escape(state)}</td></tr>")
    fixed = [n for n in data.notes if n[0] == "fixed"]
    expired = [n for n in data.notes if n[0] == "quarantine" and n[2].startswith("expired")]
    parts = [f'<section id="quarantine"><h2>Quarantine: {len(rows)} quarantined results tonight</h2>']
    if rows:
        parts.append("<table><tr><th>case</th><th>board</th><th>outcome</th><th>message</th></tr>"
                     + "".join(rows) + "</table>")
    else:
        parts.append('<p class="empty">no quarantined case ran tonight</p>')
    for _, subject, text in fixed:
        parts.append(f"<p><b>Fixed?</b> <code>{escape(subject)}</code>: {escape(text)}</p>")
    for _, subject, text in expired:
        parts.append(f"<p><b>Expired:</b> <code>{escape(subject)}</code>: {escape(text)}</p>")
    if entries:
        parts.append("<details open><summary>quarantine file</summary><table><tr><th>pattern</th><th>board</th>"
                     "<th>reason</th><th>link</th><th>state</th></tr>" + "".join(entries) + "</table></details>")
    parts.append("</section>")
    return "".join(parts)


def _trends(data: ReportData) -> str:
    nights = data.nights
    parts = ['<section id="trends"><h2>Footprint and timing</h2><div class="grid3">']
    for figure, title, fmt in (("flash_bytes", "Flash, binaries of every night (KiB)", lambda v: f"{v / 1024:,.0f}"),
                               ("ram_bytes", "RAM, binaries of every night (KiB)", lambda v: f"{v / 1024:,.0f}"),
                               ("binary_duration_s", "Run time, binaries of every night (s)",
                                lambda v: f"{v:,.1f}")):
        series = {}
        for board in data.boards:
            # The sum over the binaries measured on every night of the chart: a binary that failed to build one
            # night (or was added later) would make the sum dip or jump on nothing (the table below has it).
            rows = [values for (f, b, _, _), values in data.measures.items() if f == figure and b == board]
            steady = [values for values in rows if all(n in values for n in nights)]
            if steady:
                series[board] = [sum(values[n] for values in steady) for n in nights]
        chart = svg.line_chart(nights, series, width=620, height=200, y_format=fmt, title=title)
        parts.append(f"<div><h3>{escape(title)}</h3>{chart}</div>")
    parts.append("</div>")
    parts.append(_changes_table(data, ("flash_bytes", "ram_bytes"), "Biggest footprint changes per binary", 15,
                                hide_unchanged=True))
    parts.append(_changes_table(data, ("arena_bytes",), "Arena per model", 12))
    parts.append(_changes_table(data, ("instructions_per_invoke",), "Instructions per Invoke (where measured)", 12))
    parts.append(_changes_table(data, ("case_instructions",),
                                "Instructions per micro case (QEMU, exact): biggest changes", 15, hide_unchanged=True))
    parts.append(_changes_table(data, ("case_cycles",), "Estimated cycles per micro case (Cortex-M timing model): "
                                "biggest changes", 15, hide_unchanged=True))
    parts.append(_changes_table(data, ("case_stack_bytes",), "Stack peak per micro case (bytes): biggest changes",
                                15, hide_unchanged=True))
    parts.append(_changes_table(data, ("binary_duration_s",), "Slowest binaries: run time", 10, by="value"))
    parts.append("</section>")
    return "".join(parts)


def _changes_table(data: ReportData, figures: tuple[str, ...], title: str, limit: int, by: str = "change",
                   hide_unchanged: bool = False) -> str:
    """The figures of ``figures`` tonight with their change (biggest first, or by value); ``hide_unchanged``: a
    figure equal on every night it was measured is counted in a line, not listed as a row of +0."""
    nights = data.nights
    rows = []
    unchanged = 0
    for (figure, board, binary, subject), values in data.measures.items():
        if figure not in figures or data.night not in values:
            continue
        seen = [n for n in nights if n in values]
        first, last = values[seen[0]], values[data.night]
        previous = next((values[n] for n in reversed(nights[:-1]) if n in values), None)
        if hide_unchanged and last == first and previous in (None, last):
            unchanged += 1  # the same every night it was measured: no row of "+0"
            continue
        rows.append((figure, board, binary, subject, first, last, previous, [values.get(n) for n in nights], seen[0]))
    if not rows:
        return (f"<h3>{escape(title)}</h3><p class='empty'>{unchanged} figures, none changed since they were first "
                "measured</p>") if unchanged else ""
    if by == "change":
        rows.sort(key=lambda r: (-abs(r[5] - r[4]) / (r[4] or 1), r[2]))
    else:
        rows.sort(key=lambda r: -r[5])
    body = []
    for figure, board, binary, subject, first, last, previous, series, first_night in rows[:limit]:
        unit = " s" if figure == "binary_duration_s" else ""
        fmt: Callable[[float], str] = ((lambda v: f"{v:,.3f}") if figure == "binary_duration_s"
                                       else (lambda v: f"{v:,.0f}"))
        change = last - first
        css = "up" if change > 0 else ("down" if change < 0 else "")
        since_prev = "" if previous is None else f"{last - previous:+,.0f}" if not unit else f"{last - previous:+.3f}"
        name = escape(binary) + (f" <code>{escape(subject)}</code>" if subject else "")
        body.append(f"<tr><td class='case'>{name}</td><td>{escape(board)}</td><td>{FIGURE_LABELS[figure]}</td>"
                    f"<td class='num'>{fmt(last)}{unit}</td><td class='num'>{since_prev}</td>"
                    f"<td class='num {css}' title='since {first_night}'>{change:+,.0f} ({change / (first or 1):+.1%})"
                    f"<span class='sub'> since {first_night}</span></td>"
                    f"<td>{svg.sparkline(series, tooltip=f'{binary} {figure}: {fmt(first)} -> {fmt(last)}')}</td>"
                    "</tr>")
    more = f"<p class='sub'>{unchanged} more figures unchanged since they were first measured.</p>" if unchanged else ""
    return (f"<h3>{escape(title)}</h3><table><tr><th>binary</th><th>board</th><th>figure</th><th class='num'>tonight"
            f"</th><th class='num'>since last night</th><th class='num'>since first measured</th><th>trend</th></tr>"
            + "".join(body) + "</table>" + more)


def _health(devices: list[health.DeviceHealth], data: ReportData) -> str:
    taken_out = {subject for kind, subject, _ in data.notes if kind == "health"}
    if not devices:
        return '<section id="health"><h2>Board health</h2><p class="empty">no device recorded</p></section>'
    rows = []
    for device in sorted(devices, key=lambda d: (-d.rate, d.device_id)):
        status = ("taken out" if device.device_id in taken_out
                  else "unhealthy" if device.unhealthy() else "healthy")
        css = {"taken out": "failed", "unhealthy": "error", "healthy": "passed"}[status]
        rows.append(f"<tr><td class='case'>{escape(device.device_id)}</td><td>{escape(device.board)}</td>"
                    f"<td>{escape(device.hosts)}</td><td class='num'>{device.infra}/{device.runs}</td>"
                    f"<td class='num'>{device.rate:.0%}</td><td>{svg.bar(device.rate)}</td>"
                    f"<td class='num'>{device.retries}</td><td><span class='cell {css}'>{status}</span></td>"
                    f"<td class='msg'>{escape(device.last_error or '')}</td></tr>")
    return ('<section id="health"><h2>Board health</h2><table><tr><th>device</th><th>board</th><th>host</th>'
            "<th class='num'>infra failures</th><th class='num'>rate</th><th></th><th class='num'>retries</th>"
            f"<th>status</th><th>last infra error</th></tr>{''.join(rows)}</table></section>")


def write_report(history: History, out: Path, night: str | None = None, **kwargs: object) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    junit = kwargs.get("junit")
    if isinstance(junit, (str, Path)) and "://" not in str(junit):
        # A file beside the report: linked relative to it, so the page works wherever the folder is served from.
        kwargs["junit"] = os.path.relpath(Path(junit).resolve(), out.resolve().parent)
    out.write_text(render(history, night, **kwargs), encoding="utf-8")  # type: ignore[arg-type]
    return out
