"""Rendering the shape section (boxes, polygons, keypoints) in HTML, Markdown and the console.

Each function takes the plain :class:`~accord.report.shapes_section.ShapesSection` and
formats its text cells (:func:`~accord.report.shapes_section.cells`); nothing is
computed. Every text from the data (labels, annotators, images) is escaped for the
medium: :func:`html.escape` in HTML (the SVG too), the Markdown escape in Markdown, and
:class:`rich.text.Text` (never markup) on the console.
"""

from __future__ import annotations

from typing import Any

from accord.report.job import TITLES
from accord.report.shapes_section import FIGURE_HEAD, ShapesSection, cells, data_lines, heads

__all__ = ["console_parts", "html_section", "html_summary", "markdown_data",
           "markdown_lines", "title"]

METHOD_NOTE = ("On each image, each pair of annotators is matched one to one "
               "(scipy's linear_sum_assignment): two {plural} match when their {m} is at "
               "least the threshold, the most pairs first, then the largest total {m}. F1 and "
               "mean {m} match {plural} of the same label; alpha groups the label-blind "
               "matches of every pair into objects. Intervals: bootstrap over images (the "
               "images are resampled, the {plural} never matched again).")
PICTURE_NOTE = ("The images with the lowest pairwise F1 (all pairs pooled), up to six: every "
                "annotator's {plural}, scaled to their extent (no image pixels). Each "
                "annotator has a line style and a number, written with the label beside each "
                "{noun}{points}.")
SWEEP_NOTE = ("F1, mean {m} and alpha at COCO's {m} thresholds 0.50, 0.55, ..., 0.95; "
              "a value below 0 is drawn at 0 (the table has it).")


def title(s: ShapesSection) -> str:
    """``Agreement on boxes``, ``... on polygons`` or ``... on keypoints``."""
    return TITLES[s.kind.name]


def _note(text: str, s: ShapesSection) -> str:
    k = s.kind
    points = (" (each keypoint a marker of the annotator's shape, no skeleton)"
              if k.name == "keypoints" else "")
    return text.format(plural=k.plural, noun=k.noun, m=k.upper, points=points)


def _sentence(s: ShapesSection, figure: str) -> str:
    from accord.report.shapes_section import sentence

    return sentence(figure, s.threshold, s.kind)


# --------------------------------------------------------------------------- HTML
def html_section(s: ShapesSection | None) -> str:
    """The section as HTML (empty when there is none)."""
    if s is None:
        return ""
    from accord.report._html import _figure, _table, e
    from accord.report.plots_shapes import box_legend, shape_picture, sweep_chart

    c, h, m = cells(s), heads(s.kind), s.kind.upper
    out = [f'<section id="{s.kind.name}">', f"<h2>{e(title(s))}</h2>",
           _table(FIGURE_HEAD, c["figures"], [False, True, True],
                  caption=f"At {m} >= {s.threshold:g} (bootstrap over images)"),
           *(f'<p class="note">{e(_sentence(s, f.figure))}</p>' for f in s.figures),
           _table(h["labels"], c["labels"], [False, True, True, True, True, True],
                  caption=f"Per label (the other labels' {s.kind.plural} left out)"),
           _table(h["pairs"], c["pairs"], [False, True, True, True, True],
                  caption="Annotator pairs"),
           f'<h3 id="box-sweep">Over {m} thresholds</h3>',
           _figure(sweep_chart(s.sweep, m), _note(SWEEP_NOTE, s)),
           _table(h["sweep"], c["sweep"], [True] * 4, caption="The sweep's figures")]
    if s.disputed:
        out += ['<h3 id="disputed-images">The most disputed images</h3>',
                f'<p class="note">{e(_note(PICTURE_NOTE, s))}</p>',
                '<div class="box-legend">', box_legend(s.annotators), "</div>",
                '<div class="box-pictures">']
        out += [_figure(shape_picture(d, s.annotators, f"box-image-{i + 1}", s.kind), text)
                for i, (d, text) in enumerate(zip(s.disputed, c["disputed"]))]
        out.append("</div>")
    out.append(f'<p class="note">{e(_note(METHOD_NOTE, s))}</p>')
    out += [f'<p class="note">{e(n)}</p>' for n in s.notes]
    return "".join(out) + "</section>"


def html_summary(s: ShapesSection) -> str:
    """The data facts of a shape report."""
    from accord.report._html import e

    dl = "".join(f"<dt>{e(k)}</dt><dd>{e(x)}</dd>" for k, x in
                 (line.split(": ", 1) for line in data_lines(s)))
    return f'<section id="summary"><h2>Summary</h2><dl class="facts">{dl}</dl></section>'


# --------------------------------------------------------------------------- Markdown
def markdown_data(s: ShapesSection) -> list[str]:
    """The data lines of a shape report."""
    from accord.report._markdown import escape

    return ["## Data", ""] + [f"- {escape(x)}" for x in data_lines(s)] + [""]


def markdown_lines(s: ShapesSection | None) -> list[str]:
    """The section as Markdown lines (none when there is no section)."""
    if s is None:
        return []
    from accord.report._markdown import _table, escape

    c, h, m = cells(s), heads(s.kind), s.kind.upper

    def esc(rows: list[list[str]]) -> list[list[str]]:
        return [[escape(x) for x in row] for row in rows]

    out = [f"## {title(s)}", ""] + _table(FIGURE_HEAD, esc(c["figures"]), "lrr")
    out += [f"- {escape(_sentence(s, f.figure))}" for f in s.figures] + [""]
    out += ["### Per label", ""] + _table(h["labels"], esc(c["labels"]), "lrrrrr")
    out += ["### Annotator pairs", ""] + _table(h["pairs"], esc(c["pairs"]), "lrrrr")
    out += [f"### Over {m} thresholds", ""] + _table(h["sweep"], esc(c["sweep"]), "rrrr")
    if c["disputed"]:
        out += ["### The most disputed images", "",
                f"The HTML report draws each annotator's {s.kind.plural} on them.", ""]
        out += [f"- {escape(x)}" for x in c["disputed"]] + [""]
    out += [escape(_note(METHOD_NOTE, s)), ""]
    return out + [f"- {escape(n)}" for n in s.notes] + ([""] if s.notes else [])


# --------------------------------------------------------------------------- console
def console_parts(s: ShapesSection | None) -> list[Any]:
    """The figures, per label, the pairs and the disputed images (text, never markup)."""
    if s is None:
        return []
    from rich.text import Text

    from accord.report._rich_table import text_table

    c, h, m = cells(s), heads(s.kind), s.kind.upper
    out: list[Any] = [Text(title(s), style="bold")]
    out += [Text(x) for x in data_lines(s)]
    out.append(text_table(f"At {m} >= {s.threshold:g}", FIGURE_HEAD, c["figures"]))
    out += [Text(_sentence(s, f.figure), style="dim") for f in s.figures]
    out += [text_table("Per label", h["labels"], c["labels"]),
            text_table("Annotator pairs", h["pairs"], c["pairs"]),
            text_table(f"Over {m} thresholds", h["sweep"], c["sweep"])]
    if c["disputed"]:
        out.append(Text("The most disputed images (drawn in the HTML report):", style="bold"))
        out += [Text(f"  {x}") for x in c["disputed"]]
    out += [Text(x, style="dim") for x in (_note(METHOD_NOTE, s), *s.notes)]
    return out
