"""Writing a report to a file, the format chosen by the suffix or by name."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from accord.data import _validation as v
from accord.data._files import write_atomic
from accord.report._notebook import NOTEBOOK
from accord.report.model import RENDERERS

if TYPE_CHECKING:
    from accord.report.model import Report

FORMATS: tuple[str, ...] = ("html", "markdown", "json")
SUFFIXES: dict[str, str] = {".html": "html", ".htm": "html", ".md": "markdown",
                            ".markdown": "markdown", ".json": "json"}

__all__ = ["FORMATS", "format_for", "render", "save"]


def format_for(path: Path, format: str | None = None) -> str:
    """The output format for ``path``: ``format`` if given, else from the suffix."""
    if format is not None:
        return v.choice(format, FORMATS, param="format", func="Report.save")
    fmt = SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        raise v.fail("path", "Report.save", "a file name ending in .html, .md or .json "
                     "(or pass format=)", str(path))
    return fmt


def render(report: Report, format: str) -> str:
    """The report as text in ``format`` ("html", "markdown" or "json")."""
    v.choice(format, FORMATS, param="format", func="render")
    if format == "html":
        return report.to_html()
    if format == "markdown":
        return report.to_markdown()
    return report.to_json() + "\n"


def save(report: Report, path: Path, format: str | None = None) -> Path:
    """Write ``report`` to ``path`` (UTF-8, all at once: see :func:`write_atomic`)."""
    fmt = format_for(path, format)
    return write_atomic(path, render(report, fmt))


# The renderers are imported when first used: a report that is only saved as JSON
# never imports rich or the HTML templates.
def _dict(report: Report) -> Any:
    from accord.report.json import report_dict

    return report_dict(report)


def _json(report: Report, *, indent: int | None = 2) -> str:
    from accord.report.json import render_json

    return render_json(report, indent=indent)


def _markdown(report: Report) -> str:
    from accord.data._text import visible
    from accord.report.markdown import render_markdown

    # every cell is escaped; this also catches text a section writes as it is (a control
    # character or a bidirectional override in a file read by cat or an editor)
    return visible(render_markdown(report))


def _html(report: Report) -> str:
    from accord.report.html import render_html

    return render_html(report)


def _console(report: Report) -> Any:
    from accord.report.console import render_console

    return render_console(report)


def _inline_html(report: Report) -> str:
    from accord.report.display import inline_html

    return inline_html(report)


NOTEBOOK.update(html=_inline_html)
RENDERERS.update(dict=_dict, json=_json, markdown=_markdown, html=_html, console=_console,
                 save=save)
