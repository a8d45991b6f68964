"""The report in a notebook: the whole report inline, Markdown, one line for IPython.

The renderers are registered by :mod:`accord.report.output` (as the file renderers
are), so that the model imports no renderer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from accord.inference.display import Card, Displayed

__all__ = ["NOTEBOOK", "Notebook"]

#: "html" -> the report as an HTML fragment for a notebook cell.
NOTEBOOK: dict[str, Callable[[Any], str]] = {}


class Notebook(Displayed):
    """Mixed into :class:`~accord.report.model.Report`."""

    def _card(self) -> Card:
        job = getattr(self, "job", None)
        figure = (job.figure_name, job.figure) if job is not None and job.figure else ("", "")
        return Card(title=str(getattr(self, "title", "report")), figure_name=figure[0],
                    figure=figure[1], reading=str(getattr(self, "headline", "")))

    def _repr_html_(self) -> str:
        return NOTEBOOK["html"](self)

    def _repr_markdown_(self) -> str:
        return str(getattr(self, "to_markdown")())  # noqa: B009

    def __str__(self) -> str:
        return self._repr_markdown_()
