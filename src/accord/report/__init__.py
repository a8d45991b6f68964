"""The agreement report: one model (:mod:`~accord.report.model`), several renderers.

:func:`report` builds a :class:`Report` from annotations (and optionally a
declared study); it renders to the console (rich), JSON (versioned schema, full
precision), Markdown and one self-contained HTML file.
"""

from accord.report import output as _output  # noqa: F401  (registers the renderers)
from accord.report.build import report
from accord.report.model import Report

__all__ = ["Report", "report"]
