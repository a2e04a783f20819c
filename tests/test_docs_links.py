"""Every relative link of README.md and docs/ resolves: the file exists, and an anchor names a heading there.

Anchors follow GitHub's rule: the heading's text lower-cased, punctuation other than hyphens and
underscores removed, spaces turned into hyphens (a repeated heading gets ``-1``, ``-2``...).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness import REPO_ROOT

PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md")),
         *sorted(REPO_ROOT.glob("*/README.md")), *sorted((REPO_ROOT / "examples").glob("*/README.md"))]
_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_CODE = re.compile(r"`[^`\n]*`")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``page``."""
    seen: dict[str, int] = {}
    found = set()
    for line in _FENCE.sub("", page.read_text()).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match is None:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))  # a link in a heading: its text
        slug = re.sub(r"[^\w\- ]", "", text.lower().replace("`", "")).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(page: Path) -> list[str]:
    text = _CODE.sub("", _FENCE.sub("", page.read_text()))
    return [target for target in _LINK.findall(text) if not re.match(r"^[a-z]+:", target)]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO_ROOT)) for p in PAGES])
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in links(page):
        path_part, _, anchor = target.partition("#")
        where = (page.parent / path_part).resolve() if path_part else page
        if not where.exists():
            shown = where.relative_to(REPO_ROOT) if REPO_ROOT in where.parents else where
            broken.append(f"{target}: no such file {shown}")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading with anchor #{anchor} in {where.relative_to(REPO_ROOT)}")
    assert not broken, f"{page.relative_to(REPO_ROOT)}:\n" + "\n".join(broken)


def test_the_anchor_rule_is_githubs(tmp_path: Path) -> None:
    page = tmp_path / "x.md"
    page.write_text("# Log protocol\n## micro_test (ours: `micro_runtime/micro_test.h`): authenticated, sequenced\n"
                    "## Verdict (`RunReport.outcome`, a `harness.outcome.Outcome`)\n## Twice\n## Twice\n")
    assert anchors(page) == {"log-protocol", "micro_test-ours-micro_runtimemicro_testh-authenticated-sequenced",
                             "verdict-runreportoutcome-a-harnessoutcomeoutcome", "twice", "twice-1"}
    (tmp_path / "y.md").write_text("[ok](x.md#twice-1) [bad](x.md#nowhere) [gone](z.md)\n")
    assert links(tmp_path / "y.md") == ["x.md#twice-1", "x.md#nowhere", "z.md"]
