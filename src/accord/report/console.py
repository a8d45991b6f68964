"""The console summary (rich): headline, decision, data, coefficients, worksheets.

Every text from the data is passed to rich as :class:`rich.text.Text`, never as
markup, so a label such as ``[bold]`` or ``<script>`` is printed as it is.
The full detail (per rater, per unit, the register) is in the HTML, Markdown
and JSON reports.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from accord.report import _text as t
from accord.report import (
    annotators_section,
    groups_section,
    multilabel_section,
    render_judge_lab,
    render_reference,
    render_shapes,
    render_spans,
)
from accord.report._rich_table import text_table
from accord.report.model import CoefficientRow, PairAnalysis, Report, StudySection

__all__ = ["render_console"]

_STATUS_STYLE = {"accepted": "bold green", "rejected": "bold red", "undefined": "bold yellow"}


def render_console(report: Report) -> Any:
    """A rich renderable summarising the report; long labels shortened
    (:func:`accord.report.labels.for_display`)."""
    from accord.report.labels import console_note, for_display

    shown, glossary = for_display(report)
    out = _render(shown)
    return Group(out, Text(console_note(glossary), style="dim")) if glossary else out


def _render(report: Report) -> Any:
    parts: list[Any] = [Text(report.title, style="bold")]
    parts += [Text(f"caveat: {c}", style="bold yellow") for c in report.data.caveats]
    parts += [Text(f"left out: {x}", style="bold yellow") for x in report.left_out]
    job = report.job
    if report.study is not None:
        parts += _decision(report.study)[:-1]
    else:
        parts.append(Text(job.verdict if job is not None else report.headline))
    if job is not None and job.figure:
        parts.append(Text(f"{job.figure_name}: {job.figure}", style="bold"))
    parts.append(Text(""))
    if report.spans is not None or report.shapes is not None:
        parts += (render_spans.console_parts(report.spans, report.settings.confidence_level)
                  if report.shapes is None else render_shapes.console_parts(report.shapes))
        parts += [Text(n, style="dim") for n in report.notes]
        return Group(*parts)
    if report.judge_lab is not None and not report.coefficients:  # the judge lab alone
        parts += render_judge_lab.console_parts(
            report.judge_lab, job.verdict if job is not None else "")[1:]
        parts += [Text(n, style="dim") for n in report.notes]
        return Group(*parts)
    first = job.kind if job is not None else "raters"
    reference = render_reference.console_parts(report.reference)
    multilabel = multilabel_section.console_parts(report.multilabel)
    judge = _judge(report.judge, first == "judge") if report.judge is not None else []
    lead = {"reference": reference, "judge": judge, "label_sets": multilabel}.get(first, [])
    parts += groups_section.console_parts(report.groups)
    if lead:
        parts += lead[1:] + [Text("")]  # without the blank line that opens the section
    if job is not None and job.verdict != report.headline:
        parts += [Text(report.headline), Text("")]
    crowd = annotators_section.console_parts(report.annotators)
    if crowd and report.annotators is not None and report.annotators.leads and not lead:
        parts += crowd[1:] + [Text("")]  # a crowd: the consensus and who to check first
        crowd = []
    parts += [Text(line) for line in t.data_lines(report)] + [Text("")]
    parts.append(_coefficients(report))
    parts += [Text(n, style="dim") for n in t.coefficient_notes(report)]
    parts += crowd
    for pair in report.pairs:
        parts += _pair(pair, report)
    u = report.units
    parts += [Text(""), Text(f"{u.n_disagreements} of {u.n_compared} units rated by two or more "
                             "raters have a disagreement (accord disagreements lists them).")]
    for section in (reference, multilabel, judge):
        parts += section if section is not lead else []
    parts += render_judge_lab.console_parts(report.judge_lab)
    parts += [Text(n, style="dim") for n in report.notes if n not in report.left_out]
    parts.append(Text(t.settings_line(report), style="dim"))
    return Group(*parts)


def _judge(section: Any, lead: bool) -> list[Any]:
    """The judge section; when it is the job (``lead``) the verdict already opened the page."""
    from accord.report.judge_section import cells

    c = cells(section)
    out: list[Any] = [Text(""), Text(f"LLM judge: {section.judge}", style="bold")]
    out += [] if lead else [Text(section.sentence)]
    tables = [("Alternative annotator test", c["alt_head"], c["alt_rows"]),
              (c["agr_title"], c["agr_head"], c["agr_rows"])]
    for title, head, rows in tables:
        out.append(text_table(title, head, rows))
    return (out + [Text(x) for x in c["lines"]]
            + [Text(n, style="dim") for n in c["notes"]])


def _decision(study: StudySection) -> list[Any]:
    d = study.decision
    line = Text("Decision: ", style="bold")
    line.append(d.status.upper(), style=_STATUS_STYLE[d.status])
    out: list[Any] = [line, Text(d.line())]
    if study.deviations:
        out.append(Text(f"{len(study.deviations)} protocol deviation(s):", style="bold yellow"))
        out += [Text(f"  {x}") for x in study.deviations]
    return out + [Text("")]


def _coefficients(report: Report) -> Table:
    lvl = t.level(report.settings.confidence_level)
    table = Table(title=Text("Coefficients"), title_justify="left")
    # the units column only when the coefficients were computed on different units
    units = len({t.units(r) for r in report.coefficients}) > 1
    heads = ["coefficient", *(["units"] if units else []), "estimate", "SE", f"{lvl} CI",
             t.scale_header(report, "band"), "benchmark"]
    for head in heads:
        right = head in ("units", "estimate", "SE", f"{lvl} CI")
        table.add_column(Text(head), justify="right" if right else "left")
    for r in report.coefficients:
        cells = [r.label, *([t.units(r)] if units else []), t.estimate(r), t.num(r.se),
                 t.interval(r), _band(r), t.benchmark(r)]
        table.add_row(*(Text(c) for c in cells))
    return table


def _band(row: CoefficientRow) -> str:
    it = row.interpretation
    return it.grade if it is not None and it.defined else ""


def _pair(pair: PairAnalysis, report: Report) -> list[Any]:
    ws = pair.worksheet
    title = Text(f"Worksheet: {pair.raters[0]} vs {pair.raters[1]} ({pair.reason})",
                 style="bold")
    out: list[Any] = [Text(""), title]
    if ws.shown:
        grid = t.worksheet_grid(ws)
        table = Table()
        table.add_column(Text(grid[0][0]), style="bold")
        for head in grid[0][1:]:
            table.add_column(Text(head), justify="right")
        for row in grid[1:]:
            table.add_row(*(Text(c) for c in row), style="bold" if row is grid[-1] else None)
        out += [table, Text(t.worksheet_line(ws))]
    else:
        out.append(Text(t.worksheet_line(ws)))
    figures = "   ".join(f"{n} {x}" for n, x in t.context_rows(pair.context, report))
    out += [Text(figures, style="dim"), Text(" ".join(pair.context.explanation))]
    return out
