"""``span_f1``: pairwise span F1 as a registered figure, for ``compute``, ``check`` and studies.

A thin wrapper of :func:`accord.span_agreement` (which holds the matching,
per-pair, per-label and per-unit figures): the mean over rater pairs of each
pair's micro F1, with the same bootstrap over units.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from accord.coefficients._registry import register
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DegenerateDataWarning, InvalidParameterError
from accord.inference.results import AgreementResult
from accord.readers.spans import SpanTable
from accord.spans._inputs import table_of
from accord.spans.agreement import span_agreement

__all__ = ["span_f1"]


@register("span_f1", title="Pairwise span F1", family="spans", raters="many",
          chance_corrected=False, bounds=(0.0, 1.0),
          citation="Hripcsak & Rothschild (2005). Agreement, the F-measure, and reliability "
          "in information retrieval. JAMIA 12(3), 296-298.")
def span_f1(
    annotations: Any,
    *,
    mode: str = "strict",
    raters: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
) -> AgreementResult:
    """Mean pairwise F1 between raters of spans (the figure of :func:`accord.span_agreement`).

    Parameters
    ----------
    annotations : Annotations or SpanTable
        Spans read from an export (``accord.read``), with each rater's coverage.
    mode : {"strict", "exact", "partial", "type"}
        When two spans agree (SemEval-2013 task 9.1; see :func:`accord.evaluate_spans`).
    raters : sequence of str, optional
        The raters to compare (default: the raters of ``annotations``).
    labels : sequence of str, optional
        Only spans with these labels.

    Returns
    -------
    AgreementResult
        ``coefficient="span_f1"``, ``details["mode"]``; no analytic SE: intervals by
        ``method="jackknife"`` or ``method=accord.Bootstrap(...)``, over units.

    Notes
    -----
    For raters ``A`` and ``B``, ``F1(A, B) = 2 M / (n_A + n_B)`` with ``M`` the spans
    matched one-to-one in ``mode`` (partial matches counted half) in the units both
    annotated; the figure is the mean over the pairs where it is defined. It is not
    chance-corrected: span annotation has no true negatives (Hripcsak & Rothschild 2005).

    References
    ----------
    Hripcsak & Rothschild (2005). Agreement, the F-measure, and reliability in
    information retrieval. *JAMIA* 12(3), 296-298.

    Examples
    --------
    Two raters, two documents: one span agrees exactly, one only overlaps, so strict
    F1 = 2 * 1 / (2 + 2) and type F1 = 1.

    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> t = SpanTable((Span("d1", "ann", 0, 5, "PER"), Span("d1", "bob", 0, 5, "PER"),
    ...                Span("d2", "ann", 3, 9, "LOC"), Span("d2", "bob", 4, 9, "LOC")))
    >>> accord.span_f1(t).estimate
    0.5
    >>> accord.span_f1(t, mode="type").estimate
    1.0
    """
    if not isinstance(annotations, (Annotations, SpanTable)):
        raise InvalidParameterError(
            "The 'annotations' parameter of span_f1 must be a SpanTable or Annotations with "
            "spans (accord.read of a span export, or of a table with start= and end= "
            f"columns). Got {type(annotations).__name__} instead.")
    table = table_of(annotations, "span_f1", "annotations")
    if raters is None and isinstance(annotations, Annotations):
        # raters selected from the annotations (ann.select) keep the full span table
        chosen = [str(r) for r in annotations.raters if r in table.raters]
        raters = chosen if len(chosen) < len(table.raters) else None
    with warnings.catch_warnings():  # one warning, for this figure only
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = span_agreement(table, mode=mode, raters=raters, labels=labels)  # type: ignore[arg-type]
    out = replace(res.f1, coefficient="span_f1")
    if out.undefined_reason is not None:
        v.warn_undefined(f"span_f1 ({mode})", out.undefined_reason)
    return out
