"""Mathet's gamma for overlapping units, as pygamma-agreement defines it.

Notation and steps after Mathet, Widlöcher & Métivier (2015) and
pygamma-agreement 0.5 (Titeux & Riad 2021; ``dissimilarity.py``, ``continuum.py``,
``alignment.py``, ``sampler.py``):

* a *unit* is (rater, start, end, label) in one document (a *continuum*);
* the combined dissimilarity of two units is
  ``d = alpha * d_pos + beta * d_cat`` with the positional sporadic
  ``d_pos = ((|s_u - s_v| + |e_u - e_v|) / ((e_u - s_u) + (e_v - s_v)))^2 * delta_empty``
  and the categorical ``d_cat = [l_u != l_v] * delta_empty``; a unit paired with
  the *empty unit* costs ``delta_empty = 1``;
* a *unitary alignment* takes one unit or the empty unit from every rater; its
  disorder is the mean of ``d`` over its ``C(n, 2)`` rater pairs;
* an *alignment* puts every unit in exactly one unitary alignment; its disorder
  is the sum of theirs over the mean number of units per rater. The best
  alignment (the observed disorder ``D_o``) is found exactly among the unitary
  alignments that could be in it (:mod:`accord.spans._alignment`): one whose
  disorder exceeds that of leaving its units alone (``delta_empty`` each) never is
  (section 5.1.1 of the paper);
* the expected disorder ``D_e`` is the mean best-alignment disorder of
  ``n_samples`` continua drawn by pygamma-agreement's statistical sampler
  (``StatisticalContinuumSampler``): per rater a normal number of units, normal
  gaps and durations, labels drawn with their observed frequencies;
* ``gamma = 1 - D_o / D_e`` (1 when ``D_o = 0``); ``gamma_cat`` weighs the
  categorical dissimilarity of aligned pairs by their positional agreement
  (section 4.2.5 of Mathet 2017, as pygamma's ``gamma_k_disorder`` computes it), and
  ``gamma_k`` of a label does so over the pairs where a unit has that label.

Several documents: units align only within their document; ``D_o`` sums the
documents' best alignments over the mean number of units per rater, and each
sample draws one continuum per document from the statistics of all of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.spans._alignment import Alignment, Continuum, best_alignment

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: how the expected disorder is drawn (named in every result)
SAMPLER = "statistical (pygamma-agreement's StatisticalContinuumSampler)"


def cat_terms(c: Continuum, al: Alignment, alpha: float, n_labels: int) -> FloatArray:
    """The sums behind pygamma's ``gamma_k_disorder``: column 0 for gamma-cat (every
    pair), column ``1 + k`` for gamma-k of label ``k`` (the pairs where a unit has it);
    rows: weighted categorical disorder, total weight, aligned pairs of two units seen,
    pairs seen."""
    out = np.zeros((4, n_labels + 1))
    m = al.members
    nv = (m >= 0).sum(axis=1)
    base = np.where(nv < 2, 0.0, 1.0 / np.maximum(nv - 1, 1))
    for a, b in combinations(range(len(c.starts)), 2):
        (sa, ea, la), (sb, eb, lb) = _unit(c, a, m[:, a]), _unit(c, b, m[:, b])
        both, one = (la >= 0) & (lb >= 0), (la >= 0) ^ (lb >= 0)
        pos = alpha * ((np.abs(sa - sb) + np.abs(ea - eb)) / ((ea - sa) + (eb - sb))) ** 2
        w = np.where(both, base * np.maximum(0.0, 1.0 - pos), 0.0)
        # a unit against the empty unit adds delta_empty^2 = 1 and weight delta_empty = 1
        rows = np.stack([(la != lb) * w + one, w + one, both.astype(np.float64),
                         np.ones(m.shape[0])])  # fmt: skip
        out[:, 0] += rows.sum(axis=1)
        for k, keep in ((la, la >= 0), (lb, (lb >= 0) & (lb != la))):
            for r in range(4):
                out[r, 1:] += np.bincount(k[keep], rows[r][keep], minlength=n_labels)
    return out


def _unit(c: Continuum, r: int, idx: IntArray) -> tuple[FloatArray, FloatArray, IntArray]:
    """Start, end and label of rater ``r``'s units ``idx`` (the empty unit: 0, 1, -1)."""
    at = np.where(idx < 0, c.starts[r].shape[0], idx)
    return (np.append(c.starts[r], 0.0)[at], np.append(c.ends[r], 1.0)[at],
            np.append(c.labels[r], -1)[at])  # fmt: skip


def _cat(terms: FloatArray) -> FloatArray:
    """pygamma's gamma-k disorder from :func:`cat_terms`'s sums, per column."""
    total, weight, looped, seen = terms
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(total == 0, 0.0, total / weight)
    return np.where(looped == 0, np.where(seen == 0, 1.0, 0.0), ratio)


@dataclass(frozen=True)
class Statistics:
    """What the statistical sampler draws from: units per rater and document, gaps,
    durations (means and standard deviations) and label frequencies."""

    units: tuple[float, float]
    gap: tuple[float, float]
    duration: tuple[float, float]
    weights: FloatArray


def statistics(docs: Sequence[Continuum], n_labels: int) -> Statistics:
    """pygamma's ``StatisticalContinuumSampler.init_sampling``, pooled over documents."""
    gaps: list[float] = [0.0]
    durations, counts, labels = [], [], []
    for c in docs:
        for s, e, lab in zip(c.starts, c.ends, c.labels):
            counts.append(s.shape[0])
            if s.shape[0]:
                gaps += (s[1:] - e[:-1]).tolist()
                if s[0] > 0:
                    gaps.append(float(s[0]))
            durations += (e - s).tolist()
            labels.append(lab)
    freq = np.bincount(np.concatenate(labels), minlength=n_labels).astype(np.float64)
    return Statistics((float(np.mean(counts)), float(np.std(counts))),
                      (float(np.mean(gaps)), float(np.std(gaps))),
                      (float(np.mean(durations)), float(np.std(durations))),
                      freq / freq.sum())  # fmt: skip


def sample(st: Statistics, n_raters: int, rng: np.random.Generator) -> Continuum:
    """One continuum drawn as pygamma's ``StatisticalContinuumSampler`` draws it."""
    starts, ends, labels = [], [], []
    for r in range(n_raters):
        k = abs(int(rng.normal(*st.units)))
        if r == 0:
            k = max(1, k)  # pygamma: the first rater gets a unit, so the continuum is not empty
        gap = rng.normal(*st.gap, size=k)
        dur = np.abs(rng.normal(*st.duration, size=k))
        while (dur < 1e-6).any():
            small = dur < 1e-6
            dur[small] = np.abs(rng.normal(*st.duration, size=int(small.sum())))
        s = np.cumsum(gap + dur) - dur
        lab = rng.choice(st.weights.shape[0], size=k, p=st.weights).astype(np.int64)
        order = np.lexsort((s + dur, s))  # a negative gap may start a unit before the last
        starts.append(s[order])
        ends.append((s + dur)[order])
        labels.append(lab[order])
    return Continuum(tuple(starts), tuple(ends), tuple(labels))


def corpus_disorders(docs: Sequence[Continuum], alpha: float, beta: float, n_raters: int,
                     n_labels: int) -> FloatArray:  # fmt: skip
    """The disorder of a corpus's best alignments, then its gamma-cat disorder and each
    label's gamma-k disorder."""
    aligned = [best_alignment(c, alpha, beta) if c.n_units else None for c in docs]
    return _disorders(docs, aligned, alpha, n_raters, n_labels)


def _disorders(docs: Sequence[Continuum], aligned: Sequence[Alignment | None], alpha: float,
               n_raters: int, n_labels: int) -> FloatArray:  # fmt: skip
    sums, units = 0.0, 0
    terms = np.zeros((4, n_labels + 1))
    for c, al in zip(docs, aligned):
        if al is None:
            continue
        sums += float(al.disorders.sum())
        units += c.n_units
        terms += cat_terms(c, al, alpha, n_labels)
    if units == 0:
        return np.full(n_labels + 2, math.nan)
    return np.concatenate([[sums / (units / n_raters)], _cat(terms)])


# --------------------------------------------------------------------------- the public entry
def gamma(
    data: Any,
    *,
    unit: str = "doc",
    rater: str = "annotator",
    label: str = "label",
    start: str = "start",
    end: str = "end",
    alpha: float = 1.0,
    beta: float = 1.0,
    n_samples: int = 30,
    rng: Any = 0,
) -> Any:
    """Mathet's gamma: agreement on units that may overlap, with their labels.

    Parameters
    ----------
    data : SpanTable, Annotations with spans, or a frame / mapping of columns
        One row per unit: document (``unit``; one document when the column is
        absent), ``rater``, ``label``, ``start`` and ``end`` (numbers, end > start).
    alpha, beta : float
        Weights of the positional and the categorical dissimilarity.
    n_samples : int
        Continua drawn for the expected disorder.
    rng : int or numpy.random.Generator
        Seed of the sampler (0 by default, as every accord resampling).

    Returns
    -------
    AgreementResult
        ``estimate = 1 - D_o / D_e`` (``observed``, ``expected``); ``details`` has
        ``gamma_cat``, ``observed_disorder``, ``expected_disorder`` and its
        Monte-Carlo standard error ``expected_disorder_se``, the ``sampler``, and
        ``n_unitary_alignments`` of the best alignments; ``per_category`` has each
        label's ``gamma_k`` with its observed and expected disorders (``nan`` when the
        sampled continua show no disorder for the label). A bootstrap interval
        resamples documents through their best alignments with ``D_e`` held fixed.

    Notes
    -----
    The definitions are pygamma-agreement's (see the module): combined
    dissimilarity ``alpha * d_pos + beta * d_cat``, the empty unit at
    ``delta_empty = 1``, the best alignment solved exactly (dynamic programming over
    the units in start order, an integer programme when that grows too large), the
    expected disorder from the statistical sampler, whose draws differ from
    pygamma-agreement's only in the random stream (numpy's ``Generator`` seeded by
    ``rng``, the draws of a rater taken together rather than unit by unit) and in
    pooling the statistics of several documents; so the two agree within the
    Monte-Carlo error, not digit for digit. Undefined (``nan``) when no
    rater marked a unit. The work grows with the product of the raters' units per
    document; a document with more than 5 million possible unitary alignments is
    refused.

    References
    ----------
    Mathet, Widlöcher & Métivier (2015). The unified and holistic method gamma for
    inter-annotator agreement measure and alignment. *Computational Linguistics*
    41(3), 437-479. Titeux & Riad (2021). pygamma-agreement: gamma agreement
    measure in Python. *JOSS* 6(62), 2989.

    Examples
    --------
    >>> import accord
    >>> rows = {"annotator": ["a", "a", "b", "b"], "label": ["x", "y", "x", "y"],
    ...         "start": [0, 10, 0, 10], "end": [5, 20, 5, 20]}
    >>> accord.gamma(rows).estimate
    1.0
    """
    from accord.data import _validation as v
    from accord.inference.results import AgreementResult

    func = "gamma"
    for name, x in (("alpha", alpha), ("beta", beta)):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x < 0:
            raise v.fail(name, func, "a non-negative finite number", x)
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
        raise v.fail("n_samples", func, "a positive integer", n_samples)
    docs, raters, labels, ids = _continua(data, unit, rater, label, start, end, func)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    aligned = [best_alignment(c, alpha, beta) if c.n_units else None for c in docs]
    n = len(raters)
    per_doc = np.array([[0.0 if al is None else float(al.disorders.sum()), c.n_units]
                        for al, c in zip(aligned, docs)])  # fmt: skip
    observed = _disorders(docs, aligned, alpha, n, len(labels))
    st = statistics(docs, len(labels))
    draws = np.array([corpus_disorders([sample(st, n, gen) for _ in docs], alpha, beta, n,
                                       len(labels)) for _ in range(n_samples)])  # fmt: skip
    expected = draws.mean(axis=0)
    d_o, d_e = float(observed[0]), float(expected[0])
    est = 1.0 if d_o == 0 else 1.0 - d_o / d_e
    cat = _gamma_cat(float(observed[1]), float(expected[1]))
    per = {lab: {"gamma_k": _gamma_k(float(o), float(e)), "observed_disorder": float(o),
                 "expected_disorder": float(e)}
           for lab, o, e in zip(labels, observed[2:], expected[2:])}  # fmt: skip
    stat = _gamma_stat(n, d_e)
    return AgreementResult(
        coefficient="gamma", estimate=est, observed=d_o, expected=d_e, se=math.nan,
        n_units=len(docs), n_raters=n, undefined_reason=None,
        details={"gamma_cat": cat, "observed_disorder": d_o, "expected_disorder": d_e,
                 "expected_disorder_se": float(draws[:, 0].std(ddof=1) / np.sqrt(n_samples))
                 if n_samples > 1 else math.nan,
                 "sampler": SAMPLER, "n_samples": n_samples, "alpha": float(alpha),
                 "beta": float(beta),
                 "n_unitary_alignments": int(sum(0 if a is None else a.disorders.shape[0]
                                                 for a in aligned))},
        per_category=per, bounds=(-math.inf, 1.0),
        resampling=lambda: _resampling(per_doc, stat, ids),
    )  # fmt: skip


def _gamma_cat(d_o: float, d_e: float) -> float:
    """pygamma's gamma-cat: 1 when nothing is in disorder, 0 when chance is not."""
    return 1.0 if d_o == 0 else (0.0 if d_e == 0 else 1.0 - d_o / d_e)


def _gamma_k(d_o: float, d_e: float) -> float:
    """pygamma's gamma-k (undefined, nan, when the sampled continua have no disorder for
    the label: pygamma divides by zero there)."""
    return 1.0 if d_o == 0 else (math.nan if d_e == 0 else 1.0 - d_o / d_e)


def _gamma_stat(n: int, d_e: float) -> Any:
    def stat(s: FloatArray) -> FloatArray:
        d_o = s[:, 0] / (s[:, 1] / n)
        return np.asarray(np.where(d_o == 0, 1.0, 1.0 - d_o / d_e), dtype=np.float64)

    return stat


def _resampling(x: FloatArray, stat: Any, ids: tuple[Any, ...]) -> Any:
    from accord.inference.resampling import Resampling, pattern_index

    patterns, counts, inverse = pattern_index(x)
    return Resampling(np.asarray(patterns, dtype=np.float64), counts, stat, inverse, ids)


Parsed = tuple[list[Continuum], list[str], list[str], tuple[Any, ...]]


def _continua(data: Any, unit: str, rater: str, label: str, start: str, end: str,
              func: str) -> Parsed:  # fmt: skip
    """Documents as continua over shared rater and label lists."""
    from accord.errors import DataError, InsufficientDataError

    rows = _rows(data, unit, rater, label, start, end, func)
    if not rows:
        raise InsufficientDataError(f"{func}: no unit to align.")
    raters = sorted({r[1] for r in rows})
    if len(raters) < 2:
        raise InsufficientDataError(f"{func}: gamma needs two raters or more; found {raters!r}.")
    labels = sorted({r[2] for r in rows})
    docs = list(dict.fromkeys(r[0] for r in rows))
    by: dict[tuple[Any, str], list[tuple[float, float, int]]] = {}
    for d, r, lab, s, e in rows:
        if not (math.isfinite(s) and math.isfinite(e)) or e <= s:
            raise DataError(f"{func}: every unit needs finite offsets with end > start; got "
                            f"start={s!r}, end={e!r} ({r!r} in {d!r}).")  # fmt: skip
        by.setdefault((d, r), []).append((s, e, labels.index(lab)))
    out = []
    for d in docs:
        parts = [sorted(by.get((d, r), [])) for r in raters]
        out.append(Continuum(tuple(np.array([p[0] for p in u], dtype=np.float64) for u in parts),
                             tuple(np.array([p[1] for p in u], dtype=np.float64) for u in parts),
                             tuple(np.array([p[2] for p in u], dtype=np.int64) for u in parts)))
    return out, raters, labels, tuple(docs)


def _rows(data: Any, unit: str, rater: str, label: str, start: str, end: str,
          func: str) -> list[tuple[Any, str, str, float, float]]:  # fmt: skip
    from accord.errors import InvalidParameterError

    table: Any = data if hasattr(data, "coverage") else getattr(data, "spans", None)
    if table is not None and hasattr(table, "spans") and hasattr(table, "coverage"):
        return [(s.unit, str(s.rater), str(s.label), float(s.start), float(s.end))
                for s in table.spans]  # fmt: skip
    try:
        cols = {k: list(data[c]) for k, c in (("r", rater), ("l", label), ("s", start),
                                               ("e", end))}  # fmt: skip
    except (KeyError, TypeError, IndexError) as exc:
        raise InvalidParameterError(
            f"The 'data' parameter of {func} must be a SpanTable, Annotations with spans, or a "
            f"frame with the columns {rater!r}, {label!r}, {start!r} and {end!r} ({exc!r})."
        ) from None
    try:
        units = list(data[unit])
    except (KeyError, TypeError, IndexError):
        units = ["document"] * len(cols["r"])
    return [(u, str(r), str(lab), float(s), float(e))
            for u, r, lab, s, e in zip(units, cols["r"], cols["l"], cols["s"], cols["e"])]
