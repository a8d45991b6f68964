"""Units x raters label tables read as spans, for the registry-wide tests of span figures."""

from __future__ import annotations

from typing import Any

import numpy as np

from accord.readers.spans import Span, SpanTable


def table_spans(table: Any) -> SpanTable:
    """Row ``i``, column ``j``: label ``x`` is the span (0, 4, str(x)) of rater ``r{j}`` in
    document ``d{i}``, plus a span (6, 9, str(x)) in the rows where the raters disagree (so
    that documents hold one or two spans, unchanged by a permutation of raters or rows or a
    one-to-one relabelling); ``None`` or ``nan``: the rater did not annotate the document.
    A repeated row is another document."""
    spans, coverage = [], {}
    table = np.asarray(table, dtype=object)
    for (i, j), x in np.ndenumerate(table):
        if _missing(x):
            continue
        coverage[(f"d{i}", f"r{j}")] = "annotated"
        spans.append(Span(f"d{i}", f"r{j}", 0, 4, str(x)))
        if len({str(y) for y in table[i] if not _missing(y)}) > 1:
            spans.append(Span(f"d{i}", f"r{j}", 6, 9, str(x)))
    return SpanTable(tuple(spans), coverage)


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and x != x)
