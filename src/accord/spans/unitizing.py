"""Krippendorff's alpha for unitizing (alpha_U) on character offsets.

Every rater cuts one continuum of length ``L`` into segments: the spans of a
category ``c`` and the gaps between them. With ``R`` raters (Krippendorff 1995;
2004, sec. 12.4; the notation of DKPro Agreement's implementation):

    D_o(c) = 1 / (R (R - 1) L^2) * sum over ordered rater pairs (i, j) of
             sum over overlapping segments g of i and h of j of delta^2(g, h)

with ``delta^2`` = ``(b_g - b_h)^2 + (e_g - e_h)^2`` for two overlapping spans
(b = begin, e = end), ``l_g^2`` for a span ``g`` that lies inside a gap ``h``
of the other rater (i.e. overlaps none of their spans), and 0 otherwise;

    D_e(c) = 2 / L * sum over the N_c spans u of c of
             [ (N_c - 1) (2 l^3 - 3 l^2 + l) / 3 + l^2 sum_{gaps k, l_k >= l} (l_k - l + 1) ]
             / ( R L (R L - 1) - sum_u l (l - 1) )

(``l`` the length of ``u``, the gaps those of every rater), and
``alpha_c = 1 - D_o(c) / D_e(c)``. The overall alpha_U is
``1 - mean_c D_o(c) / mean_c D_e(c)`` over the categories used.

Several units (documents) are laid end to end into one continuum; a gap ends
at a document's end (a span cannot be placed across two documents), so alpha_U
does not depend on the order of the documents or of the spans, and one
document is DKPro's single continuum. Every rater must have annotated every
unit used, so a unit
some rater skipped or never saw is left out (and counted). The length of each
unit is its text length when given (``lengths=``), else the end of its last
span (which shortens the gaps; say which in the result's details). Spans of
one category by one rater must not overlap (the measure has no place for
them): they are refused with a sentence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.errors import DataError, InsufficientDataError
from accord.inference.results import AgreementResult
from accord.spans._inputs import case_notes, encode_table, table_of
from accord.spans._spanset import SpanSet
from accord.spans.matching import candidates

__all__ = ["unitizing_alpha"]

FUNC = "unitizing_alpha"
FloatArray = np.ndarray[Any, np.dtype[np.float64]]


def unitizing_alpha(
    annotations: Any,
    *,
    raters: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
    lengths: Mapping[Any, int] | None = None,
) -> AgreementResult:
    """Krippendorff's alpha_U for spans on character offsets.

    Parameters
    ----------
    annotations : Annotations or SpanTable
        Spans of two or more raters.
    raters, labels : sequence of str, optional
        The raters and the span labels (categories) to use (default: all).
    lengths : mapping of unit to int, optional
        The length of each unit's text. Default: the end of the unit's last span.

    Returns
    -------
    AgreementResult
        ``estimate`` alpha_U, ``observed`` D_o and ``expected`` D_e (means over
        categories), ``per_category[c]`` with ``alpha``, ``d_o`` and ``d_e``. No
        standard error or interval: D_e is not a sum over units.

    Notes
    -----
    See the module docstring for the formulas. alpha_c is undefined (``nan``) when
    ``D_e(c)`` is 0; alpha_U when no rater marked a span.

    References
    ----------
    Krippendorff (1995). On the reliability of unitizing continuous data.
    *Sociological Methodology* 25, 47-76.
    Krippendorff (2004). *Content Analysis*, 2nd ed., sec. 12.4. Sage.
    Meyer, Mieskes, Stab & Gurevych (2014). DKPro Agreement. *COLING 2014 demos*.

    Examples
    --------
    Krippendorff (2004, p. 254): two observers, categories c and k, continuum
    150-450 (here 0-300); the book gives 0.8591 from D_o and D_e rounded to 4 places.

    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> rows = [("i", 75, 145, "c"), ("i", 220, 250, "c"), ("j", 70, 150, "c"),
    ...         ("j", 205, 225, "c"), ("j", 250, 270, "c"), ("i", 30, 90, "k"),
    ...         ("i", 150, 200, "k"), ("j", 30, 90, "k"), ("j", 150, 200, "k")]
    >>> t = SpanTable(tuple(Span("doc", r, s, e, lab) for r, s, e, lab in rows))
    >>> res = accord.unitizing_alpha(t, lengths={"doc": 300})
    >>> round(res.estimate, 3), round(res.per_category["c"]["alpha"], 4)
    (0.859, 0.7286)
    """
    enc = encode_table(table_of(annotations, FUNC, "annotations"), raters, labels, FUNC)
    if len(enc.raters) < 2:
        raise InsufficientDataError(f"{FUNC}: alpha_U needs two raters or more.")
    every = np.logical_and.reduce([enc.annotated[r] for r in enc.raters])
    units = np.flatnonzero(every)
    offsets, total, note = _continuum(enc.units, units, enc.sets.values(), lengths)
    sets = [_laid_out(enc.sets[r], every, offsets, total, r, enc.labels) for r in enc.raters]
    edges = np.unique(offsets[units])
    per = {}
    for code, lab in enumerate(enc.labels):
        d_o, d_e = _d_o(sets, code, total), _d_e(sets, code, total, edges)
        if any(int((s.label == code).sum()) for s in sets):
            per[lab] = {"alpha": _alpha(d_o, d_e), "d_o": d_o, "d_e": d_e}
    notes = (note, *enc.notes, *case_notes(enc.labels))
    return _result(per, len(units), len(enc.raters), int(every.shape[0] - units.shape[0]), notes,
                   total)  # fmt: skip


def _continuum(
    ids: tuple[Any, ...], units: Any, sets: Any, lengths: Mapping[Any, int] | None
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], int, str]:
    """Each unit's offset in the joined continuum, its total length, and how it was sized."""
    last = np.zeros(len(ids), dtype=np.int64)
    for s in sets:
        if len(s):
            np.maximum.at(last, s.unit, s.end)
    if lengths is None:
        size, note = last, "unit lengths: the end of each unit's last span"
    else:
        size = np.asarray([_length(lengths, u) for u in ids], dtype=np.int64)
        if bool((size < last).any()):
            bad = ids[int(np.flatnonzero(size < last)[0])]
            raise DataError(f"{FUNC}: a span of unit {bad!r} ends after its length in lengths=.")
        note = "unit lengths: as given in lengths="
    kept = np.zeros(len(ids), dtype=np.int64)
    kept[units] = size[units]
    offsets = np.concatenate([[0], np.cumsum(kept)[:-1]]).astype(np.int64)
    return offsets, int(kept.sum()), note


def _length(lengths: Mapping[Any, int], unit: Any) -> int:
    n = lengths.get(unit)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise v.fail("lengths", FUNC, f"a non-negative int for unit {unit!r}", n)
    return int(n)


def _laid_out(
    s: SpanSet, every: Any, offsets: Any, total: int, rater: str, labels: tuple[str, ...]
) -> SpanSet:
    """The spans of the units every rater annotated, moved to their place in the continuum."""
    if s.fragments:
        raise DataError(f"{FUNC}: rater {rater!r} has discontinuous spans; alpha_U needs "
                        "contiguous spans.")  # fmt: skip
    keep = every[s.unit]
    u, st, en, lab = s.unit[keep], s.start[keep], s.end[keep], s.label[keep]
    start, end = st + offsets[u], en + offsets[u]
    order = np.lexsort((start, lab))
    start, end, lab = start[order], end[order], lab[order]
    clash = (lab[1:] == lab[:-1]) & (start[1:] < end[:-1])
    if bool(clash.any()):
        k = int(np.flatnonzero(clash)[0])
        raise DataError(
            f"{FUNC}: rater {rater!r} has overlapping spans of category {labels[lab[k]]!r}; "
            "alpha_U needs the spans of one category by one rater not to overlap."
        )
    zeros = np.zeros(start.shape[0], dtype=np.int64)
    return SpanSet(zeros, start, end, lab)  # one unit: the continuum, sorted by category, start


def _of(s: SpanSet, code: int) -> SpanSet:
    keep = s.label == code
    return SpanSet(s.unit[keep], s.start[keep], s.end[keep], s.label[keep])


def _d_o(sets: list[SpanSet], code: int, total: int) -> float:
    r = len(sets)
    acc = 0.0
    for i in range(r):
        for j in range(i + 1, r):
            acc += _pair_delta(_of(sets[i], code), _of(sets[j], code))
    return 2.0 * acc / (r * (r - 1) * float(total) ** 2) if total else math.nan


def _pair_delta(a: SpanSet, b: SpanSet) -> float:
    """Sum of delta^2 over the overlapping segments of two raters' cuts of the continuum."""
    cand = candidates(a, b)
    ia, ib = cand.ia, cand.ib
    both = ((a.start[ia] - b.start[ib]) ** 2 + (a.end[ia] - b.end[ib]) ** 2).astype(np.float64)
    alone_a = np.ones(len(a), dtype=bool)
    alone_a[ia] = False
    alone_b = np.ones(len(b), dtype=bool)
    alone_b[ib] = False
    len_a = (a.end - a.start)[alone_a].astype(np.float64)
    len_b = (b.end - b.start)[alone_b].astype(np.float64)
    return float(both.sum() + (len_a**2).sum() + (len_b**2).sum())


def _gaps(s: SpanSet, total: int, edges: Any) -> FloatArray:
    """The gaps between one rater's spans, cut where one document ends and the next begins.

    The document edges enter as empty spans: no span crosses one, so sorting by
    start puts each edge between the spans of the two documents.
    """
    start, end = np.concatenate([s.start, edges]), np.concatenate([s.end, edges])
    order = np.lexsort((end, start))
    bounds = np.concatenate([[0], end[order]]), np.concatenate([start[order], [total]])
    gaps = bounds[1] - bounds[0]
    return gaps[gaps > 0].astype(np.float64)


def _d_e(sets: list[SpanSet], code: int, total: int, edges: Any) -> float:
    r, big_l = len(sets), float(total)
    spans = [_of(s, code) for s in sets]
    lens = np.concatenate([(s.end - s.start) for s in spans]).astype(np.float64)
    gaps = np.sort(np.concatenate([_gaps(s, total, edges) for s in spans]))
    n_c = lens.shape[0]
    # sum over gaps k with l_k >= l of (l_k - l + 1), for each span length l
    first = np.searchsorted(gaps, lens, "left")
    tail = np.concatenate([np.cumsum(gaps[::-1])[::-1], [0.0]])
    count = gaps.shape[0] - first
    fit = tail[first] - (lens - 1.0) * count
    within = (n_c - 1) * (2 * lens**3 - 3 * lens**2 + lens) / 3.0
    num = 2.0 / big_l * float((within + lens**2 * fit).sum()) if total else math.nan
    den = r * big_l * (r * big_l - 1.0) - float((lens * (lens - 1.0)).sum())
    return num / den if den else math.nan


def _alpha(d_o: float, d_e: float) -> float:
    return 1.0 - d_o / d_e if d_e > 0 else math.nan


def _result(
    per: dict[str, dict[str, float]], n_units: int, n_raters: int, left_out: int,
    notes: tuple[str, ...],
    total: int,
) -> AgreementResult:  # fmt: skip
    d_o = float(np.mean([p["d_o"] for p in per.values()])) if per else math.nan
    d_e = float(np.mean([p["d_e"] for p in per.values()])) if per else math.nan
    est = _alpha(d_o, d_e) if per else math.nan
    reason = None
    if not math.isfinite(est):
        reason = "no rater marked a span" if not per else "expected disagreement D_e is 0"
        v.warn_undefined("unitizing_alpha", reason)
    details = {"continuum_length": total, "units_left_out": left_out, "note": notes[0],
               "notes": list(notes[1:])}  # fmt: skip
    return AgreementResult(
        coefficient="unitizing_alpha", estimate=est, observed=d_o, expected=d_e, se=math.nan,
        n_units=n_units, n_raters=n_raters, undefined_reason=reason, details=details,
        per_category=per, bounds=(-math.inf, 1.0),
    )  # fmt: skip
