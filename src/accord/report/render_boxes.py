"""Rendering the box section in HTML, Markdown and the console.

Each function takes the plain :class:`~accord.report.boxes_section.BoxesSection` and
formats its text cells (:func:`~accord.report.boxes_section.cells`); nothing is
computed. Every text from the data (labels, annotators, images) is escaped for the
medium: :func:`html.escape` in HTML (the SVG too), the Markdown escape in Markdown, and
:class:`rich.text.Text` (never markup) on the console.
"""

from __future__ import annotations

from typing import Any

from accord.report.boxes_section import (
    FIGURE_HEAD,
    LABEL_HEAD,
    PAIR_HEAD,
    SWEEP_HEAD,
    BoxesSection,
    cells,
    data_lines,
    sentence,
)

__all__ = ["TITLE", "console_parts", "html_section", "html_summary", "markdown_data",
           "markdown_lines"]

TITLE = "Agreement on boxes"
METHOD_NOTE = ("On each image, each pair of annotators is matched one to one "
               "(scipy's linear_sum_assignment): two boxes match when their IoU is at least "
               "the threshold, the most pairs first, then the largest total IoU. F1 and mean "
               "IoU match boxes of the same label; alpha groups the label-blind matches of "
               "every pair into objects. Intervals: bootstrap over images (the images are "
               "resampled, the boxes never matched again).")
PICTURE_NOTE = ("The images with the lowest pairwise F1 (all pairs pooled), up to six: every "
                "annotator's boxes, scaled to their extent (no image pixels). Each annotator "
                "has a line style and a number, written with the label beside each box.")
SWEEP_NOTE = ("F1, mean IoU and alpha at COCO's IoU thresholds 0.50, 0.55, ..., 0.95; "
              "a value below 0 is drawn at 0 (the table has it).")


# --------------------------------------------------------------------------- HTML
def html_section(s: BoxesSection | None) -> str:
    """The section as HTML (empty when there is none)."""
    if s is None:
        return ""
    from accord.report._html import _figure, _table, e
    from accord.report.plots_boxes import box_legend, box_picture, sweep_chart

    c = cells(s)
    out = ['<section id="boxes">', f"<h2>{TITLE}</h2>",
           _table(FIGURE_HEAD, c["figures"], [False, True, True],
                  caption=f"At IoU >= {s.iou_threshold:g} (bootstrap over images)"),
           *(f'<p class="note">{e(sentence(f.figure, s.iou_threshold))}</p>'
             for f in s.figures),
           _table(LABEL_HEAD, c["labels"], [False, True, True, True, True, True],
                  caption="Per label (the other labels' boxes left out)"),
           _table(PAIR_HEAD, c["pairs"], [False, True, True, True, True],
                  caption="Annotator pairs"),
           '<h3 id="box-sweep">Over IoU thresholds</h3>',
           _figure(sweep_chart(s.sweep), SWEEP_NOTE),
           _table(SWEEP_HEAD, c["sweep"], [True] * 4, caption="The sweep's figures")]
    if s.disputed:
        out += ['<h3 id="disputed-images">The most disputed images</h3>',
                f'<p class="note">{e(PICTURE_NOTE)}</p>',
                '<div class="box-legend">', box_legend(s.annotators), "</div>",
                '<div class="box-pictures">']
        out += [_figure(box_picture(d, s.annotators, f"box-image-{i + 1}"), text)
                for i, (d, text) in enumerate(zip(s.disputed, c["disputed"]))]
        out.append("</div>")
    out.append(f'<p class="note">{e(METHOD_NOTE)}</p>')
    out += [f'<p class="note">{e(n)}</p>' for n in s.notes]
    return "".join(out) + "</section>"


def html_summary(s: BoxesSection) -> str:
    """The data facts of a box report."""
    from accord.report._html import e

    dl = "".join(f"<dt>{e(k)}</dt><dd>{e(x)}</dd>" for k, x in
                 (line.split(": ", 1) for line in data_lines(s)))
    return f'<section id="summary"><h2>Summary</h2><dl class="facts">{dl}</dl></section>'


# --------------------------------------------------------------------------- Markdown
def markdown_data(s: BoxesSection) -> list[str]:
    """The data lines of a box report."""
    from accord.report._markdown import escape

    return ["## Data", ""] + [f"- {escape(x)}" for x in data_lines(s)] + [""]


def markdown_lines(s: BoxesSection | None) -> list[str]:
    """The section as Markdown lines (none when there is no section)."""
    if s is None:
        return []
    from accord.report._markdown import _table, escape

    c = cells(s)

    def esc(rows: list[list[str]]) -> list[list[str]]:
        return [[escape(x) for x in row] for row in rows]

    out = [f"## {TITLE}", ""] + _table(FIGURE_HEAD, esc(c["figures"]), "lrr")
    out += [f"- {escape(sentence(f.figure, s.iou_threshold))}" for f in s.figures] + [""]
    out += ["### Per label", ""] + _table(LABEL_HEAD, esc(c["labels"]), "lrrrrr")
    out += ["### Annotator pairs", ""] + _table(PAIR_HEAD, esc(c["pairs"]), "lrrrr")
    out += ["### Over IoU thresholds", ""] + _table(SWEEP_HEAD, esc(c["sweep"]), "rrrr")
    if c["disputed"]:
        out += ["### The most disputed images", "",
                "The HTML report draws each annotator's boxes on them.", ""]
        out += [f"- {escape(x)}" for x in c["disputed"]] + [""]
    out += [escape(METHOD_NOTE), ""]
    return out + [f"- {escape(n)}" for n in s.notes] + ([""] if s.notes else [])


# --------------------------------------------------------------------------- console
def console_parts(s: BoxesSection | None) -> list[Any]:
    """The figures, per label, the pairs and the disputed images (text, never markup)."""
    if s is None:
        return []
    from rich.text import Text

    from accord.report._rich_table import text_table

    c = cells(s)
    out: list[Any] = [Text(TITLE, style="bold")]
    out += [Text(x) for x in data_lines(s)]
    out.append(text_table(f"At IoU >= {s.iou_threshold:g}", FIGURE_HEAD, c["figures"]))
    out += [Text(sentence(f.figure, s.iou_threshold), style="dim") for f in s.figures]
    out += [text_table("Per label", LABEL_HEAD, c["labels"]),
            text_table("Annotator pairs", PAIR_HEAD, c["pairs"]),
            text_table("Over IoU thresholds", SWEEP_HEAD, c["sweep"])]
    if c["disputed"]:
        out.append(Text("The most disputed images (drawn in the HTML report):", style="bold"))
        out += [Text(f"  {x}") for x in c["disputed"]]
    out += [Text(x, style="dim") for x in (METHOD_NOTE, *s.notes)]
    return out
