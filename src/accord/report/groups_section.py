"""Agreement by group (``--by COLUMN`` or ``--by file``): each group's figure with its
interval, their chart, whether the groups are equal, then the pooled figure.

A batch question is answered in that order by ``accord report --by`` (the report's
first section, in every format) and ``accord compare --by``. The chart is a forest of
intervals: an SVG in the HTML report (:func:`accord.report.charts.interval_rows`), a
line of text per group on the console and in Markdown (:func:`text_chart`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["GroupRow", "GroupsSection", "console_parts", "html_section", "markdown_lines",
           "test_sentence", "text_chart"]

#: The characters of a text chart's plotting area.
CHART_WIDTH = 31


@dataclass(frozen=True)
class GroupRow:
    """One group's figure (``pooled``: all the data)."""

    group: str
    n_units: int
    estimate: float
    ci_low: float
    ci_high: float
    undefined_reason: str | None = None
    pooled: bool = False

    def to_dict(self) -> dict[str, Any]:
        def f(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {"group": None if self.pooled else self.group, "pooled": self.pooled,
                "n_units": self.n_units, "estimate": f(self.estimate),
                "confidence_interval": {"low": f(self.ci_low), "high": f(self.ci_high)},
                "undefined_reason": self.undefined_reason}


@dataclass(frozen=True)
class GroupsSection:
    """The groups' answer: ``rows`` are the groups in order, then the pooled data.

    ``test`` is the chi-square test of homogeneity (Fleiss 1981) over the groups with a
    defined estimate and a positive SE (``None``: fewer than two), ``left_out`` the
    groups it could not weigh."""

    by: str
    coefficient: str
    title: str
    confidence_level: float
    rows: tuple[GroupRow, ...]
    test: Any = None
    left_out: tuple[str, ...] = ()
    instead: str = ""  # said instead of the test (two batches: their difference answers)

    @property
    def what(self) -> str:
        return "file" if self.by == "file" else self.by

    def to_dict(self) -> dict[str, Any]:
        return {"by": self.by, "coefficient": self.coefficient,
                "confidence_level": self.confidence_level,
                "groups": [r.to_dict() for r in self.rows],
                "homogeneity": None if self.test is None else self.test.to_dict(),
                "left_out": list(self.left_out)}


def test_sentence(section: GroupsSection) -> str:
    """Whether the groups are equal, in one sentence."""
    test, left = section.test, section.left_out
    if section.instead:
        return f"groups equal? {section.instead}"
    if test is None:
        out = ("groups equal? not tested: fewer than two groups have an estimate with a "
               "positive standard error")
    elif test.undefined_reason is not None:
        out = f"groups equal? undefined: {test.undefined_reason}"
    else:
        out = (f"groups equal? chi-square test of homogeneity (Fleiss 1981): chi2 = "
               f"{test.statistic:.4f}, df = {test.df}, p = {test.pvalue:.4g}")
    if left:
        out += (f" ({len(left)} group(s) left out, without an estimate or a positive SE: "
                f"{', '.join(left)})")
    return out


def _axis_low(rows: Sequence[GroupRow]) -> float:
    lows = [r.ci_low if math.isfinite(r.ci_low) else r.estimate for r in rows]
    least = min([0.0, *(x for x in lows if math.isfinite(x))])
    return max(-1.0, math.floor(least * 2) / 2)


def text_chart(rows: Sequence[GroupRow], width: int = CHART_WIDTH) -> tuple[list[str], str]:
    """One line per row (``|---*---|``: the interval and the estimate; ``#`` the pooled
    estimate) on a shared axis, and the axis line under them."""
    low = _axis_low(rows)

    def at(v: float) -> int:
        return round((min(1.0, max(low, v)) - low) / (1.0 - low) * (width - 1))

    lines = []
    for r in rows:
        cells = [" "] * width
        if low < 0:
            cells[at(0.0)] = ":"
        if math.isfinite(r.ci_low) and math.isfinite(r.ci_high):
            a, b = at(r.ci_low), at(r.ci_high)
            cells[a:b + 1] = ["-"] * (b - a + 1)
            cells[a], cells[b] = "|", "|"
        if math.isfinite(r.estimate):
            cells[at(r.estimate)] = "#" if r.pooled else "*"
        lines.append("".join(cells).rstrip())
    axis = [" "] * (width + 4)
    for v in sorted({low, 0.0, 0.5, 1.0}):
        text = f"{v:g}"
        start = max(0, min(at(v) - len(text) // 2, width + 4 - len(text)))
        axis[start:start + len(text)] = list(text)
    return lines, "".join(axis).rstrip()


def _cells(section: GroupsSection) -> list[list[str]]:
    from accord.report.labels import short

    out = []
    for r in section.rows:
        name = "(pooled)" if r.pooled else short(r.group)
        est = f"{r.estimate:.4f}" if math.isfinite(r.estimate) else "undefined"
        ci = (f"{r.ci_low:.4f} to {r.ci_high:.4f}"
              if math.isfinite(r.ci_low) and math.isfinite(r.ci_high) else "-")
        out.append([name, str(r.n_units), est, ci])
    return out


def _heading(section: GroupsSection) -> str:
    return f"{section.title} by {section.what}"


def _head(section: GroupsSection) -> list[str]:
    return [section.what, "units", "estimate", f"{section.confidence_level * 100:g}% CI"]


def _chart_lines(section: GroupsSection) -> list[str]:
    """The text chart, each line after its group's name, the axis under them."""
    lines, axis = text_chart(section.rows)
    names = [c[0] for c in _cells(section)]
    wide = max(len(n) for n in names)
    return [*(f"{n:<{wide}}  {line}" for n, line in zip(names, lines)), f"{'':<{wide}}  {axis}"]


def console_parts(section: GroupsSection | None) -> list[Any]:
    """The groups' table, their text chart (under it, so that a narrow terminal never
    wraps it), the test, and a blank line."""
    if section is None:
        return []
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(_heading(section)), title_justify="left", box=None,
                  pad_edge=False)
    for j, head in enumerate(_head(section)):
        table.add_column(Text(head), justify="right" if j else "left")
    for cells in _cells(section):
        table.add_row(*(Text(c) for c in cells))
    chart = [Text(line, no_wrap=True, overflow="crop") for line in _chart_lines(section)]
    return [table, *chart, Text(test_sentence(section)), Text("")]


def markdown_lines(section: GroupsSection | None) -> list[str]:
    """The groups' Markdown: the table, the chart as text, the test."""
    if section is None:
        return []
    from accord.report._markdown import _table, escape

    out = [f"## {escape(_heading(section))}", ""]
    out += _table([escape(h) for h in _head(section)],
                  [[escape(c) for c in row] for row in _cells(section)], "lrrr")
    out += ["```text", *_chart_lines(section), "```", "", test_sentence(section), ""]
    return out


def chart_svg(section: GroupsSection) -> str:
    """The forest of intervals: a dot per group, a diamond for the pooled figure."""
    from accord.report.charts import IntervalRow, interval_rows
    from accord.report.labels import short

    rows = [IntervalRow(f"{'pooled' if r.pooled else short(r.group)} ({r.n_units} units)",
                        math.nan if r.pooled else r.estimate, r.ci_low, r.ci_high,
                        mark=r.estimate if r.pooled else math.nan) for r in section.rows]
    lvl = f"{section.confidence_level * 100:g}%"
    return interval_rows(rows, "groups", title=_heading(section), low=_axis_low(section.rows),
                         legend=[("diamond", f"pooled; lines: {lvl} CI")])


def html_section(section: GroupsSection | None) -> str:
    """The groups' section, first in the report: the test, the chart and the table."""
    if section is None:
        return ""
    from accord.report._html import _table, e

    table = _table(_head(section), _cells(section), [False, True, True, True])
    return (f'<section id="groups"><h2>{e(_heading(section))}</h2>'
            f"<p>{e(test_sentence(section))}</p><figure>{chart_svg(section)}</figure>"
            f"{table}</section>")
