"""The options that read a span table (``--start``, ``--end``, ``--label``) in
``accord report`` and ``accord check``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def span_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--start``, ``--end`` and ``--label`` (span tables from CSV, Parquet, JSONL)."""
    options = [
        click.option("--start", "span_start", default=None, metavar="COL",
                     help="Span tables: the start offset column (with --end, --unit, "
                     "--rater, --label)."),
        click.option("--end", "span_end", default=None, metavar="COL",
                     help="Span tables: the end offset column."),
        click.option("--label", "span_label", default=None, metavar="COL",
                     help="Span tables: the label column (as --value)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def span_columns(selection: dict[str, Any]) -> dict[str, Any]:
    """Take the span options out of ``selection``: the label column becomes ``value``;
    returns the ``start``/``end`` keywords of :func:`accord.read`."""
    start, end = selection.pop("span_start", None), selection.pop("span_end", None)
    label = selection.pop("span_label", None)
    if label is not None:
        selection["value"] = label
    return {k: x for k, x in (("start", start), ("end", end)) if x is not None}
