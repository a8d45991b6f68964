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
  alignment (the observed disorder ``D_o``) is an exact integer programme
  (``scipy.optimize.milp``) over the unitary alignments that could be in it: one
  whose disorder exceeds that of leaving its units alone (``delta_empty`` each)
  never is (section 5.1.1 of the paper);
* the expected disorder ``D_e`` is the mean best-alignment disorder of
  ``n_samples`` continua drawn by pygamma-agreement's statistical sampler
  (``StatisticalContinuumSampler``): per rater a normal number of units, normal
  gaps and durations, labels drawn with their observed frequencies;
* ``gamma = 1 - D_o / D_e`` (1 when ``D_o = 0``); ``gamma_cat`` weighs the
  categorical dissimilarity of aligned pairs by their positional agreement
  (section 4.2.5 of Mathet 2017, as pygamma's ``gamma_k_disorder`` computes it).

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

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: the upper bound on candidate unitary alignments one document may produce
MAX_CANDIDATES = 5_000_000
#: two alignments whose summed disorders differ by less are tied
TIE = 1e-7


@dataclass(frozen=True)
class Continuum:
    """One document: per rater, the units' start, end and label code (sorted by start)."""

    starts: tuple[FloatArray, ...]
    ends: tuple[FloatArray, ...]
    labels: tuple[IntArray, ...]

    @property
    def n_units(self) -> int:
        return int(sum(s.shape[0] for s in self.starts))


@dataclass(frozen=True)
class Alignment:
    """The best alignment of a continuum: per chosen unitary alignment, each rater's
    unit index (``-1``: the empty unit), and its disorder."""

    members: IntArray  # (k, n_raters)
    disorders: FloatArray  # (k,)


def pair_dissimilarity(c: Continuum, a: int, b: int, alpha: float, beta: float) -> FloatArray:
    """``(n_a + 1, n_b + 1)`` combined dissimilarities, the last row and column the empty unit."""
    sa, ea, la = c.starts[a][:, None], c.ends[a][:, None], c.labels[a][:, None]
    sb, eb, lb = c.starts[b][None, :], c.ends[b][None, :], c.labels[b][None, :]
    pos = ((np.abs(sa - sb) + np.abs(ea - eb)) / ((ea - sa) + (eb - sb))) ** 2
    d = alpha * pos + beta * (la != lb)
    out = np.ones((d.shape[0] + 1, d.shape[1] + 1))  # delta_empty = 1
    out[:-1, :-1] = d
    return out


def candidates(c: Continuum, alpha: float, beta: float) -> tuple[IntArray, FloatArray]:
    """The unitary alignments that can be in the best alignment, and their disorders.

    Built rater by rater; a partial tuple whose summed pair dissimilarities already
    exceed ``n * C(n, 2)`` (the most any useful one may reach) is dropped, and a full
    one is kept when its sum is at most ``k * C(n, 2)`` for its ``k`` units (else its
    units alone cost less).
    """
    n = len(c.starts)
    c2n = n * (n - 1) // 2
    sizes = [s.shape[0] + 1 for s in c.starts]  # the last index of each: the empty unit
    d = {(a, b): pair_dissimilarity(c, a, b, alpha, beta) for a, b in combinations(range(n), 2)}
    tuples = np.arange(sizes[0], dtype=np.int64)[:, None]
    sums = np.zeros(sizes[0])
    bound = n * c2n + 1e-9
    for j in range(1, n):
        rows = np.repeat(np.arange(tuples.shape[0]), sizes[j])
        col = np.tile(np.arange(sizes[j], dtype=np.int64), tuples.shape[0])
        total = sums[rows] + sum(d[(a, j)][tuples[rows, a], col] for a in range(j))
        keep = total <= bound
        if int(keep.sum()) > MAX_CANDIDATES:
            from accord.errors import DataError

            raise DataError(
                f"gamma: one document has more than {MAX_CANDIDATES:,} possible unitary "
                "alignments; the exact best alignment is out of reach for it."
            )
        tuples = np.concatenate([tuples[rows[keep]], col[keep, None]], axis=1)
        sums = total[keep]
    empty = tuples == np.asarray(sizes)[None, :] - 1
    k = n - empty.sum(axis=1)
    useful = (k > 0) & (sums <= k * c2n + 1e-9)
    members = np.where(empty, -1, tuples)[useful]
    return members, sums[useful] / c2n


def best_alignment(c: Continuum, alpha: float, beta: float) -> Alignment:
    """The alignment of least total disorder, by an exact integer programme."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    members, disorders = candidates(c, alpha, beta)
    offsets = np.cumsum([0, *(s.shape[0] for s in c.starts)])
    cols, rows = np.nonzero(members >= 0)
    unit_rows = offsets[rows] + members[cols, rows]
    a = csr_matrix((np.ones(cols.shape[0]), (unit_rows, cols)),
                   shape=(int(offsets[-1]), members.shape[0]))  # fmt: skip
    whole = np.ones(members.shape[0])
    opts = {"mip_rel_gap": 0.0}
    res = milp(disorders, constraints=LinearConstraint(a, 1, 1), integrality=whole,
               bounds=Bounds(0, 1), options=opts)  # fmt: skip
    if res.x is None:  # pragma: no cover - the singletons always make a solution
        raise RuntimeError(f"gamma: the alignment programme failed: {res.message}")
    # ties: of the alignments of least disorder, the one with the fewest unitary alignments
    # (the most units aligned together), as pygamma-agreement's best alignments are
    least = LinearConstraint(disorders[None, :], -np.inf, float(disorders @ res.x) + TIE)
    again = milp(whole, constraints=[LinearConstraint(a, 1, 1), least], integrality=whole,
                 bounds=Bounds(0, 1), options=opts)  # fmt: skip
    if again.x is not None:
        res = again
    chosen = np.flatnonzero(res.x > 0.5)
    return Alignment(members[chosen], disorders[chosen])


def cat_terms(c: Continuum, al: Alignment, alpha: float) -> tuple[float, float, bool, bool]:
    """The sums behind pygamma's gamma-cat disorder (``gamma_k_disorder(category=None)``):
    weighted categorical disorder, total weight, and whether no pair / no aligned pair
    of two units was seen."""
    total = weight = 0.0
    no_loop = no_cat = True
    n = len(c.starts)
    for row in al.members:
        nv = int((row >= 0).sum())
        base = 0.0 if nv < 2 else 1.0 / (nv - 1)
        for a, b in combinations(range(n), 2):
            no_cat = False
            if row[a] < 0 or row[b] < 0:
                if row[a] >= 0 or row[b] >= 0:  # a unit against the empty unit
                    total += 1.0  # delta_empty squared
                    weight += 1.0  # delta_empty
                continue
            no_loop = False
            i, j = int(row[a]), int(row[b])
            sa, ea, sb, eb = c.starts[a][i], c.ends[a][i], c.starts[b][j], c.ends[b][j]
            pos = alpha * ((abs(sa - sb) + abs(ea - eb)) / ((ea - sa) + (eb - sb))) ** 2
            w = base * max(0.0, 1.0 - pos)
            total += float(c.labels[a][i] != c.labels[b][j]) * w
            weight += w
    return total, weight, no_loop, no_cat


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
        starts.append(s)
        ends.append(s + dur)
        labels.append(rng.choice(st.weights.shape[0], size=k, p=st.weights).astype(np.int64))
    return Continuum(tuple(starts), tuple(ends), tuple(labels))


def corpus_disorders(docs: Sequence[Continuum], alpha: float, beta: float,
                     n_raters: int) -> tuple[float, float]:  # fmt: skip
    """The disorder and the gamma-cat disorder of a corpus's best alignments."""
    sums, units = 0.0, 0
    total = weight = 0.0
    no_loop = no_cat = True
    for c in docs:
        if c.n_units == 0:
            continue
        al = best_alignment(c, alpha, beta)
        sums += float(al.disorders.sum())
        units += c.n_units
        t, w, nl, nc = cat_terms(c, al, alpha)
        total, weight, no_loop, no_cat = total + t, weight + w, no_loop and nl, no_cat and nc
    if units == 0:
        return math.nan, math.nan
    return sums / (units / n_raters), _cat(total, weight, no_loop, no_cat)


def _cat(total: float, weight: float, no_loop: bool, no_cat: bool) -> float:
    if no_loop:
        return 1.0 if no_cat else 0.0
    return 0.0 if total == 0 else total / weight


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
        ``n_unitary_alignments`` of the best alignments. A bootstrap interval
        resamples documents through their best alignments with ``D_e`` held fixed.

    Notes
    -----
    The definitions are pygamma-agreement's (see the module): combined
    dissimilarity ``alpha * d_pos + beta * d_cat``, the empty unit at
    ``delta_empty = 1``, the best alignment solved exactly (``scipy.optimize.milp``),
    the expected disorder from the statistical sampler. Undefined (``nan``) when no
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
    import math as _math

    from accord.data import _validation as v
    from accord.inference.results import AgreementResult

    func = "gamma"
    for name, x in (("alpha", alpha), ("beta", beta)):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not _math.isfinite(x) or x < 0:
            raise v.fail(name, func, "a non-negative finite number", x)
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
        raise v.fail("n_samples", func, "a positive integer", n_samples)
    docs, raters, labels, ids = _continua(data, unit, rater, label, start, end, func)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    aligned = [best_alignment(c, alpha, beta) if c.n_units else None for c in docs]
    n = len(raters)
    per_doc = np.array([[0.0 if al is None else float(al.disorders.sum()), c.n_units]
                        for al, c in zip(aligned, docs)])  # fmt: skip
    d_o, cat_o = corpus_disorders(docs, alpha, beta, n)
    st = statistics(docs, len(labels))
    draws = np.array([corpus_disorders([sample(st, n, gen) for _ in docs], alpha, beta, n)
                      for _ in range(n_samples)])  # fmt: skip
    d_e, cat_e = float(draws[:, 0].mean()), float(draws[:, 1].mean())
    est = 1.0 if d_o == 0 else 1.0 - d_o / d_e
    cat = 1.0 if cat_o == 0 else (0.0 if cat_e == 0 else 1.0 - cat_o / cat_e)
    stat = _gamma_stat(n, d_e)
    return AgreementResult(
        coefficient="gamma", estimate=est, observed=d_o, expected=d_e, se=_math.nan,
        n_units=len(docs), n_raters=n, undefined_reason=None,
        details={"gamma_cat": cat, "observed_disorder": d_o, "expected_disorder": d_e,
                 "expected_disorder_se": float(draws[:, 0].std(ddof=1) / np.sqrt(n_samples))
                 if n_samples > 1 else _math.nan,
                 "sampler": "statistical (pygamma-agreement's StatisticalContinuumSampler)",
                 "n_samples": n_samples, "alpha": float(alpha), "beta": float(beta),
                 "n_unitary_alignments": int(sum(0 if a is None else a.disorders.shape[0]
                                                 for a in aligned))},
        bounds=(-_math.inf, 1.0), resampling=lambda: _resampling(per_doc, stat, ids),
    )  # fmt: skip


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
