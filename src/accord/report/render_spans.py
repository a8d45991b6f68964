"""Rendering the span section in HTML, Markdown and the console.

Each function takes the plain :class:`~accord.report.spans_section.SpansSection`
and formats its text cells (:func:`~accord.report.spans_section.cells`); nothing is
computed. Every text from the data (labels, raters, units, span text) is escaped
for the medium: :func:`html.escape` in HTML, the Markdown escape in Markdown, and
:class:`rich.text.Text` (never markup) on the console.
"""

from __future__ import annotations

from typing import Any

from accord.report import _text as t
from accord.report.relations_section import (
    DISPUTE_HEAD,
    RELATION_PAIR_HEAD,
    RelationsSection,
    relation_cells,
)
from accord.report.spans_section import (
    CONFUSION_HEAD,
    DISAGREEMENT_HEAD,
    PAIR_HEAD,
    SpansSection,
    cells,
)
from accord.report.unitizing_section import UNITIZING_HEAD, UnitizingSection, unitizing_cells

__all__ = ["TITLE", "console_parts", "html_section", "markdown_lines"]

TITLE = "Agreement on spans"
UNITIZING_TITLE = "Unitizing: alpha_U and gamma"
MODES_NOTE = ("Modes (SemEval-2013 task 9.1): strict, same boundaries and label; exact, same "
              "boundaries, any label; partial, overlapping, any label, counted half; type, "
              "overlapping with the same label. F1 between two raters is 2 M / (n_A + n_B), "
              "M the matched spans (Hripcsak & Rothschild 2005); each figure is the mean over "
              "rater pairs. Intervals: bootstrap over units (documents).")
KINDS_NOTE = ("Kinds: incorrect, the spans were matched but disagree (label or boundaries); "
              "partial, they only overlap; missed, only the first rater marked the span; "
              "spurious, only the second did.")


def _data_lines(s: SpansSection) -> list[str]:
    return [f"field: {s.field}", f"spans: {s.n_spans} in {s.n_units} units",
            f"raters: {', '.join(s.raters)}"]


# --------------------------------------------------------------------------- HTML
def html_section(s: SpansSection | None, level: float) -> str:
    """The section as HTML (empty when there is none)."""
    if s is None:
        return ""
    from accord.report._html import _table, e

    c = cells(s, t.level(level))
    out = ['<section id="spans">', f"<h2>{TITLE}</h2>", f'<p class="note">{e(MODES_NOTE)}</p>']
    if s.unitizing is not None and s.unitizing.left_out:
        out.append(f"<p><strong>{e(s.unitizing.left_out)}</strong></p>")
    for mode, rows in c["modes"]:
        out.append(_table(c["mode_head"], rows, [False, True, True],
                          caption=f"Per label, mode {mode} (mean over rater pairs)"))
    out.append(_table(PAIR_HEAD, c["pairs"], [False] + [True] * 5, caption="Rater pairs"))
    if c["confusion"]:
        out.append(_table(CONFUSION_HEAD, c["confusion"], [False, False, False, True],
                          caption=c["confusion_title"]))
    if c["disagreements"]:
        out.append(_table(DISAGREEMENT_HEAD, c["disagreements"], [False] * 5,
                          caption=c["dis_title"]))
        out.append(f'<p class="note">{e(KINDS_NOTE)}</p>')
    out += [f'<p class="note">{e(n)}</p>' for n in s.notes]
    out += _html_unitizing(s.unitizing)
    out += _html_relations(s.relations, level)
    return "".join(out) + "</section>"


def _html_unitizing(u: UnitizingSection | None) -> list[str]:
    if u is None:
        return []
    from accord.report._html import _table, e

    return [f'<h3 id="unitizing">{UNITIZING_TITLE}</h3>',
            _table(UNITIZING_HEAD, unitizing_cells(u), [False, True, True, False]),
            *(f'<p class="note">{e(r.sentence)}</p>' for r in u.rows)]


RELATIONS_TITLE = "Relations"
RELATIONS_NOTE = ("A relation is (document, head, tail, type); two raters' relations are the "
                  "same when their arguments are matched spans (strict: same offsets and "
                  "label). F1 = 2 C / (n_A + n_B), the mean over rater pairs; kappa on the "
                  "type of every argument pair some rater linked, \"no relation\" included. "
                  "Intervals: bootstrap over documents.")


def _html_relations(r: RelationsSection | None, level: float) -> list[str]:
    if r is None:
        return []
    from accord.report._html import _table, e

    c = relation_cells(r, t.level(level))
    out = [f'<h3 id="relations">{RELATIONS_TITLE}</h3>', f"<p><strong>{e(r.sentence)}</strong></p>",
           _table(c["type_head"], c["types"], [False, True, True], caption="Per type"),
           _table(RELATION_PAIR_HEAD, c["pairs"], [False] + [True] * 5, caption="Rater pairs")]
    if c["disputes"]:
        out.append(_table(DISPUTE_HEAD, c["disputes"], [False] * 4,
                          caption="The most disputed relations"))
    out.append(f'<p class="note">{e(RELATIONS_NOTE)}</p>')
    return out + [f'<p class="note">{e(n)}</p>' for n in r.notes]


def html_summary(s: SpansSection) -> str:
    """The data facts of a span-only report."""
    from accord.report._html import e

    dl = "".join(f"<dt>{e(k)}</dt><dd>{e(x)}</dd>" for k, x in
                 (line.split(": ", 1) for line in _data_lines(s)))
    return f'<section id="summary"><h2>Summary</h2><dl class="facts">{dl}</dl></section>'


# --------------------------------------------------------------------------- Markdown
def markdown_lines(s: SpansSection | None, level: float) -> list[str]:
    """The section as Markdown lines (none when there is no section)."""
    if s is None:
        return []
    from accord.report._markdown import _table, escape

    c = cells(s, t.level(level))

    def esc(rows: list[list[str]]) -> list[list[str]]:
        return [[escape(x) for x in row] for row in rows]

    out = [f"## {TITLE}", "", escape(MODES_NOTE), ""]
    if s.unitizing is not None and s.unitizing.left_out:
        out += [f"**{escape(s.unitizing.left_out)}**", ""]
    for mode, rows in c["modes"]:
        out += [f"### Mode {mode}", ""] + _table(c["mode_head"], esc(rows), "lrr")
    out += ["### Rater pairs", ""] + _table(PAIR_HEAD, esc(c["pairs"]), "lrrrrr")
    if c["confusion"]:
        out += [f"### {escape(c['confusion_title'])}", ""]
        out += _table(CONFUSION_HEAD, esc(c["confusion"]), "lllr")
    if c["disagreements"]:
        out += [f"### {escape(c['dis_title'])}", ""]
        out += _table(DISAGREEMENT_HEAD, esc(c["disagreements"]), "lllll")
        out += [escape(KINDS_NOTE), ""]
    out += [f"- {escape(n)}" for n in s.notes] + ([""] if s.notes else [])
    if s.unitizing is not None:
        out += [f"### {UNITIZING_TITLE}", ""]
        out += _table(UNITIZING_HEAD, esc(unitizing_cells(s.unitizing)), "lrrl")
        out += [f"- {escape(r.sentence)}" for r in s.unitizing.rows] + [""]
    return out + _markdown_relations(s.relations, level)


def _markdown_relations(r: RelationsSection | None, level: float) -> list[str]:
    if r is None:
        return []
    from accord.report._markdown import _table, escape

    c = relation_cells(r, t.level(level))

    def esc(rows: list[list[str]]) -> list[list[str]]:
        return [[escape(x) for x in row] for row in rows]

    out = [f"### {RELATIONS_TITLE}", "", f"**{escape(r.sentence)}**", ""]
    out += _table(c["type_head"], esc(c["types"]), "lrr")
    out += _table(RELATION_PAIR_HEAD, esc(c["pairs"]), "lrrrrr")
    if c["disputes"]:
        out += ["The most disputed relations:", ""] + _table(DISPUTE_HEAD, esc(c["disputes"]),
                                                              "llll")
    out += [escape(RELATIONS_NOTE), ""]
    return out + [f"- {escape(n)}" for n in r.notes] + ([""] if r.notes else [])


def markdown_data(s: SpansSection) -> list[str]:
    """The data lines of a span-only report."""
    from accord.report._markdown import escape

    return ["## Data", ""] + [f"- {escape(x)}" for x in _data_lines(s)] + [""]


# --------------------------------------------------------------------------- console
def console_parts(s: SpansSection | None, level: float) -> list[Any]:
    """The strict per-label table, the pairs and the disagreements (text, never markup)."""
    if s is None:
        return []
    from rich.text import Text

    from accord.report._rich_table import text_table

    c = cells(s, t.level(level))
    out: list[Any] = [Text(TITLE, style="bold")]
    out += [Text(x) for x in _data_lines(s)]
    if s.unitizing is not None and s.unitizing.left_out:
        out.append(Text(s.unitizing.left_out, style="bold"))
    strict = c["modes"][0]
    tables = [(f"Per label, mode {strict[0]}", c["mode_head"], strict[1]),
              ("Rater pairs", PAIR_HEAD, c["pairs"]),
              (c["dis_title"], DISAGREEMENT_HEAD, c["disagreements"])]
    for title, head, rows in tables:
        if not rows:
            continue
        out.append(text_table(title, head, rows))
    out += [Text(x, style="dim") for x in (KINDS_NOTE, *s.notes)]
    if s.unitizing is not None:
        out.append(text_table(UNITIZING_TITLE, UNITIZING_HEAD, unitizing_cells(s.unitizing)))
        out += [Text(r.sentence, style="dim") for r in s.unitizing.rows]
    if s.relations is not None:
        c = relation_cells(s.relations, t.level(level))
        out += [Text(s.relations.sentence, style="bold"),
                text_table("Relations per type", c["type_head"], c["types"]),
                text_table("Relations: rater pairs", RELATION_PAIR_HEAD, c["pairs"])]
        if c["disputes"]:
            out.append(text_table("The most disputed relations", DISPUTE_HEAD, c["disputes"]))
    out.append(Text("The other modes and the label confusion are in the HTML, Markdown and "
                    "JSON reports.", style="dim"))
    return out
