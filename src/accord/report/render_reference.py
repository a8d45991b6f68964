"""Rendering the "Model against reference" section in HTML, Markdown and the console.

Kept apart from the other renderers: each function takes the plain
:class:`~accord.report.model.ReferenceSection` and formats it; nothing is computed.
"""

from __future__ import annotations

from typing import Any

from accord.report import _text as t
from accord.report.model import FigureRow, ReferenceSection, SystemEvaluation

__all__ = ["console_parts", "html_section", "markdown_lines"]

TITLE = "Model against reference"


def _fig(row: FigureRow) -> str:
    return "undefined" if row.undefined_reason else t.num(row.estimate)


def _class_rows(s: SystemEvaluation) -> list[list[str]]:
    return [[c.label, str(c.support), _fig(c.precision), t.span(c.precision.ci_low,
             c.precision.ci_high), _fig(c.recall), t.span(c.recall.ci_low, c.recall.ci_high),
             _fig(c.f1), t.span(c.f1.ci_low, c.f1.ci_high)] for c in s.classes]


SUMMARY_CAPTION = ("Summary: accuracy beside kappa and the Matthews correlation, and the "
                   "baselines")
CLASS_HEAD = ["class", "support", "precision", "CI", "recall", "CI", "F1", "CI"]


def _summary_rows(s: SystemEvaluation) -> list[list[str]]:
    rows = [[r.name, _fig(r), t.span(r.ci_low, r.ci_high), r.method] for r in s.summary]
    rows.append([f"always {s.majority_class} (majority class)", t.num(s.majority_accuracy),
                 t.DASH, "baseline"])
    rows.append(["chance accuracy p_e", t.num(s.chance_accuracy), t.DASH, "baseline"])
    return rows


CONFUSED_HEAD = ["reference class", "predicted as", "units", "examples"]
CONFUSED_CAPTION = "Error analysis: the most confused class pairs, with example units"


def _confused_rows(s: SystemEvaluation) -> list[list[str]]:
    return [[c.reference, c.predicted, str(c.count), ", ".join(c.examples)]
            for c in s.confused]


def _ceiling_rows(s: SystemEvaluation) -> list[list[str]]:
    return [[r.name, _fig(r), t.span(r.ci_low, r.ci_high)] for r in s.ceiling]


# --------------------------------------------------------------------------- HTML
def html_section(ref: ReferenceSection | None, level: float) -> str:
    """The section as HTML (empty when there is none)."""
    if ref is None:
        return ""
    from accord.report import plots
    from accord.report._html import _figure, _table, e

    lvl = t.level(level)
    out = [f'<section id="reference"><h2>{TITLE}</h2>',
           f'<p class="note">Reference: {e(ref.reference)}. Rows of each confusion matrix are '
           "the reference classes, columns the system's. Intervals: Wilson for accuracy, "
           "precision and recall; a bootstrap over the cells of the confusion matrix for the "
           "rest.</p>"]
    for i, s in enumerate(ref.systems):
        grid = t.worksheet_grid(s.confusion)
        out.append(f"<h3>{e(s.system)} against {e(s.reference)} ({s.n_units} units)</h3>")
        out += [f'<p class="note">{e(x)}</p>' for x in s.sentences]
        out.append(_table(grid[0], grid[1:], [False] + [True] * (len(grid[0]) - 1),
                          caption="Confusion matrix (rows = reference)", total_last=True,
                          diagonal=True))
        out.append(_figure(plots.contingency_heatmap(s.confusion, f"confusion-{i + 1}",
                                                     title="Confusion matrix"),
                           f"Rows: {s.reference} (reference); columns: {s.system}."
                           + plots.numbered(len(s.confusion.categories))))
        out.append(_table(CLASS_HEAD, _class_rows(s), [False] + [True] * 7,
                          caption="Per class"))
        out.append(_figure(plots.class_bars(s, f"classes-{i + 1}"),
                           "Precision, recall and F1 per class with their intervals."))
        out.append(_table(["figure", "estimate", f"{lvl} CI", "interval"], _summary_rows(s),
                          [False, True, True, False], caption=SUMMARY_CAPTION))
        if s.ceiling:
            out.append(_table([s.ceiling_figure or "", "estimate", f"{lvl} CI"],
                              _ceiling_rows(s), [False, True, True],
                              caption="Human ceiling: each against the same reference"))
            out.append(_figure(plots.figure_intervals(s.ceiling, f"ceiling-{i + 1}",
                                                      title="Human ceiling"),
                               f"{s.ceiling_figure}: the system first, then each human; "
                               "human-human agreement is the humans' pairwise percent "
                               "agreement on the same units."))
        if s.confused:
            out.append(_table(CONFUSED_HEAD, _confused_rows(s), [False, False, True, False],
                              caption=CONFUSED_CAPTION, cls="ids"))
    out += [f"<p>{e(x)}</p>" for x in ref.comparisons]
    return "".join(out) + "</section>"


# --------------------------------------------------------------------------- Markdown
def markdown_lines(ref: ReferenceSection | None, level: float) -> list[str]:
    """The section as Markdown lines (none when there is no section)."""
    if ref is None:
        return []
    from accord.report._markdown import _table, escape

    lvl = t.level(level)
    out = [f"## {TITLE}", "", f"Reference: {escape(ref.reference)} (rows of each confusion "
           "matrix).", ""]
    for s in ref.systems:
        out += [f"### {escape(s.system)} against {escape(s.reference)} ({s.n_units} units)", ""]
        out += [f"- {escape(x)}" for x in s.sentences] + ([""] if s.sentences else [])
        grid = t.worksheet_grid(s.confusion)
        out += ["Confusion matrix (rows = reference):", ""]
        out += _table([escape(x) for x in grid[0]],
                      [[escape(x) for x in row] for row in grid[1:]],
                      "l" + "r" * (len(grid[0]) - 1))
        out += ["Per class:", ""]
        out += _table(CLASS_HEAD, [[escape(x) for x in row] for row in _class_rows(s)],
                      "l" + "r" * 7)
        out += [f"{SUMMARY_CAPTION}:", ""]
        out += _table(["figure", "estimate", f"{lvl} CI", "interval"],
                      [[escape(x) for x in row] for row in _summary_rows(s)], "lrrl")
        if s.ceiling:
            out += ["Human ceiling: each against the same reference:", ""]
            out += _table([escape(s.ceiling_figure or ""), "estimate", f"{lvl} CI"],
                          [[escape(x) for x in row] for row in _ceiling_rows(s)], "lrr")
        if s.confused:
            out += [f"{CONFUSED_CAPTION}:", ""]
            out += _table(CONFUSED_HEAD, [[escape(x) for x in row]
                                          for row in _confused_rows(s)], "llrl")
    out += [f"- {escape(x)}" for x in ref.comparisons] + ([""] if ref.comparisons else [])
    return out


# --------------------------------------------------------------------------- console
def console_parts(ref: ReferenceSection | None) -> list[Any]:
    """A short console summary: one line per system and its sentences."""
    if ref is None:
        return []
    from rich.text import Text

    out: list[Any] = [Text(""), Text(f"{TITLE} ({ref.reference})", style="bold")]
    for s in ref.systems:
        figs = ", ".join(f"{r.name} {_fig(r)}" for r in s.summary[:4])
        out.append(Text(f"{s.system}: {figs} on {s.n_units} units"))
        out += [Text(f"  {x}", style="dim") for x in s.sentences]
        if s.confused:
            out.append(Text("  most confused: " + "; ".join(
                f"{c.reference} as {c.predicted} {c.count}x (e.g. {', '.join(c.examples)})"
                for c in s.confused)))
    out += [Text(x, style="dim") for x in ref.comparisons]
    return out
