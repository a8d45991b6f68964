"""Writing a report to a file, the format chosen by the suffix or by name."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from accord import _validation as v
from accord._files import write_atomic

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
