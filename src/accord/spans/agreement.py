"""Pairwise F1 between raters of spans (Hripcsak & Rothschild 2005).

Span annotation has no true negatives (nobody counts the stretches of text
that are not entities), so chance-corrected coefficients need a choice of
units that the data do not give; F1 between two raters needs none. With one
rater as reference and the other as prediction, precision and recall swap when
the raters swap, and F1 (their harmonic mean) does not change:

    F1(A, B) = 2 M / (n_A + n_B),   M = correct + partial / 2

for ``n_A`` and ``n_B`` spans of the two raters in the units both annotated
(``M`` from the one-to-one matching of :mod:`accord.spans.matching`, in the
chosen mode). With more than two raters, the figure is the mean over pairs.

The per-unit values of ``M`` and ``n_A + n_B`` for each pair are the
sufficient statistic: a bootstrap over units sums them, never matching again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, cast

import numpy as np

from accord.data import _validation as v
from accord.errors import InsufficientDataError
from accord.inference.display import Tabular
from accord.inference.resampling import FloatArray, Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.spans._inputs import Encoded, case_notes, encode_cached, table_of
from accord.spans._scores import SpanCounts, score
from accord.spans.evaluate import _restrict
from accord.spans.matching import MODES, Mode, candidates, match

__all__ = ["PairAgreement", "SpanAgreement", "span_agreement"]

FUNC = "span_agreement"


@dataclass(frozen=True)
class PairAgreement:
    """Agreement of one pair of raters on spans.

    Attributes
    ----------
    raters : (str, str)
        The pair; the first is taken as reference for ``counts`` (F1 does not depend on it).
    f1 : AgreementResult
        Micro F1 over the units both annotated.
    macro_f1 : AgreementResult
        The mean of ``per_label`` F1 (each label matched on its own spans).
    per_label : mapping of label to AgreementResult
        F1 of each label either rater used in the units compared.
    per_unit : mapping of unit to float
        F1 in each unit compared; ``nan`` where neither rater marked a span.
    counts : SpanCounts
        correct, incorrect, partial, missed (spans of the first rater only),
        spurious (of the second only).
    n_units : int
        Units both raters annotated.
    left_out : mapping
        Units only one of the two annotated: ``"skipped"`` (the other skipped it)
        and ``"not seen"``.
    """

    raters: tuple[str, str]
    f1: AgreementResult
    macro_f1: AgreementResult
    per_label: Mapping[str, AgreementResult]
    per_unit: Mapping[Any, float]
    counts: SpanCounts
    n_units: int
    left_out: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (per-unit values left out)."""
        return {
            "raters": list(self.raters),
            "f1": self.f1.to_dict(),
            "macro_f1": self.macro_f1.to_dict(),
            "per_label": {k: r.to_dict() for k, r in self.per_label.items()},
            "counts": self.counts.to_dict(),
            "n_units": self.n_units,
            "left_out": {k.replace(" ", "_"): n for k, n in self.left_out.items()},
        }


@dataclass(frozen=True)
class SpanAgreement(Tabular):
    """Pairwise span F1 for every pair of raters (see :func:`span_agreement`).

    Attributes
    ----------
    mode : str
        The matching mode.
    f1, macro_f1 : AgreementResult
        The mean over pairs of each pair's micro and macro F1, with a bootstrap
        over units.
    per_label : mapping of label to AgreementResult
        The mean over pairs of each label's F1 (pairs that used the label).
    pairs : mapping of (rater, rater) to PairAgreement
        Each pair, in the order of the raters.
    per_unit : mapping of unit to float
        The mean over pairs of the per-unit F1 (pairs where it is defined).
    notes : tuple of str
        Choices made on the data.
    """

    mode: str
    f1: AgreementResult
    macro_f1: AgreementResult
    per_label: Mapping[str, AgreementResult]
    pairs: Mapping[tuple[str, str], PairAgreement]
    per_unit: Mapping[Any, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision (per-unit values left out)."""
        return {
            "mode": self.mode,
            "f1": self.f1.to_dict(),
            "macro_f1": self.macro_f1.to_dict(),
            "per_label": {k: r.to_dict() for k, r in self.per_label.items()},
            "pairs": [p.to_dict() for p in self.pairs.values()],
            "notes": list(self.notes),
        }


def span_agreement(
    annotations: Any,
    *,
    mode: Mode = "strict",
    raters: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
) -> SpanAgreement:
    """Pairwise F1 between raters of spans, for each pair and averaged over pairs.

    Parameters
    ----------
    annotations : Annotations or SpanTable
        Spans read from an export (``accord.read``), with each rater's coverage.
    mode : {"strict", "exact", "partial", "type"}
        When two spans agree (SemEval-2013 task 9.1, see :func:`evaluate_spans`).
    raters : sequence of str, optional
        The raters to compare (default: all).
    labels : sequence of str, optional
        Only spans with these labels (the others are left out, with a note).

    Returns
    -------
    SpanAgreement
        ``f1`` (mean over pairs), ``macro_f1`` and ``pairs[(a, b)]`` with micro,
        macro, per-label and per-unit F1.

    Notes
    -----
    ``F1(A, B) = 2 M / (n_A + n_B)`` with ``M`` the matched spans (partial
    matches counted half) in the units both raters annotated; it is symmetric
    in the raters and equals the positive specific agreement. A unit one rater
    annotated with no span counts (the other's spans there do not match); a unit
    one of them skipped or never saw is left out of that pair and counted in its
    ``left_out``. F1 is undefined (``nan``) when neither rater of a pair marked a
    span; the mean over pairs is then taken over the pairs where it is defined.
    Intervals: ``res.f1.confidence_interval(method=accord.Bootstrap(...))``
    resamples units (documents) through their per-unit match counts.

    References
    ----------
    Hripcsak & Rothschild (2005). Agreement, the F-measure, and reliability in
    information retrieval. *JAMIA* 12(3), 296-298.

    Examples
    --------
    Two raters, two documents: one span agrees exactly, one only overlaps.

    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> t = SpanTable((Span("d1", "ann", 0, 5, "PER"), Span("d1", "bob", 0, 5, "PER"),
    ...                Span("d2", "ann", 3, 9, "LOC"), Span("d2", "bob", 4, 9, "LOC")))
    >>> accord.span_agreement(t, mode="strict").f1.estimate
    0.5
    >>> accord.span_agreement(t, mode="type").pairs[("ann", "bob")].f1.estimate
    1.0
    """
    v.choice(mode, MODES, param="mode", func=FUNC)
    table = table_of(annotations, FUNC, "annotations")
    enc = encode_cached(table, raters, labels, FUNC)
    if len(enc.raters) < 2:
        raise InsufficientDataError(
            f"{FUNC}: span agreement needs two raters or more; found {list(enc.raters)!r}."
        )
    pairs = {(a, b): _pair(enc, a, b, mode) for a, b in combinations(enc.raters, 2)}
    per_pair = [p for p, _ in pairs.values()]
    notes = enc.notes + case_notes(enc.labels)
    feats = [f for _, f in pairs.values()]
    what = f"span_f1 ({mode}, mean over rater pairs"
    f1 = _mean("span_f1_mean", feats, enc, mode, _micro_block, what + ")")
    macro = _mean("span_macro_f1_mean", feats, enc, mode, _macro_block, what + ")")
    used = sorted({c for f in feats for c in f.by_label})
    per_label = {
        enc.labels[c]: _mean("span_f1_mean", feats, enc, mode, _label_block(c),
                             f"{what}, label {enc.labels[c]!r})")
        for c in used
    }  # fmt: skip
    return SpanAgreement(
        mode, f1, macro, per_label, {p.raters: p for p in per_pair},
        _unit_means(per_pair, len(enc.units), enc.units), notes,
    )  # fmt: skip


@dataclass(frozen=True)
class _Features:
    """Per unit (all units of the data): M and n_A + n_B, overall and per label."""

    matched: FloatArray
    total: FloatArray
    by_label: dict[int, tuple[FloatArray, FloatArray]]
    compared: np.ndarray[Any, np.dtype[np.bool_]]
    ids: tuple[Any, ...]


def _pair(enc: Encoded, a: str, b: str, mode: Mode) -> tuple[PairAgreement, _Features]:
    both = enc.annotated[a] & enc.annotated[b]
    units = np.flatnonzero(both)
    ref, pred = _restrict(enc.sets[a], both), _restrict(enc.sets[b], both)
    cand = candidates(ref, pred)
    n_all = both.shape[0]
    overall = match(ref, pred, cand, mode).per_unit(n_all)
    events = match(ref, pred, cand, mode, same_label_only=True)
    used = np.flatnonzero(np.bincount(np.concatenate([ref.label, pred.label]), minlength=1))
    split = events.by_label()
    lab_units = {int(c): split[int(c)].per_unit(n_all) for c in used}
    by_label = {c: _m_and_total(x) for c, x in lab_units.items()}
    what = f"span_f1 ({mode}, {a!r} and {b!r}"
    f1 = score("f1", overall[units], mode=mode, what=what + ")", details={"raters": [a, b]})
    per_label = {
        enc.labels[c]: score("f1", lab_units[c][units], mode=mode,
                             what=f"{what}, label {enc.labels[c]!r})")
        for c in sorted(by_label)
    }  # fmt: skip
    feats = _Features(*_m_and_total(overall), by_label, both, enc.units)
    macro = _macro(feats, units, mode, what + ")")
    m, t = feats.matched[units], feats.total[units]
    with np.errstate(divide="ignore", invalid="ignore"):
        unit_f1 = np.where(t > 0, 2.0 * m / t, np.nan)
    per_unit = UnitValues(enc.units, units, unit_f1)
    counts = SpanCounts.of(overall[units].sum(axis=0))
    left = _left(enc, a, b)
    pair = PairAgreement((a, b), f1, macro, per_label, per_unit, counts, len(units), left)
    return pair, feats


def _m_and_total(per_unit: np.ndarray[Any, np.dtype[np.int64]]) -> tuple[FloatArray, FloatArray]:
    c, i, p, mi, s = (per_unit[:, k].astype(np.float64) for k in range(5))
    return c + 0.5 * p, 2.0 * (c + i + p) + mi + s


def _left(enc: Encoded, a: str, b: str) -> dict[str, int]:
    one = enc.annotated[a] ^ enc.annotated[b]
    skipped = one & (enc.skipped[a] | enc.skipped[b])
    return {"skipped": int(skipped.sum()), "not seen": int((one & ~skipped).sum())}


def _finite_mean(x: FloatArray) -> FloatArray:
    """Mean over the last axis of the finite values; nan where none is."""
    ok = np.isfinite(x)
    n = ok.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(ok, x, 0.0).sum(axis=-1) / n, dtype=np.float64)


def _macro_stat(n_labels: int) -> Callable[[FloatArray], FloatArray]:
    def stat(s: FloatArray) -> FloatArray:
        m, t = s[:, :n_labels], s[:, n_labels:]
        with np.errstate(divide="ignore", invalid="ignore"):
            return _finite_mean(2.0 * m / t)

    return stat


def _macro(feats: _Features, units: Any, mode: str, what: str) -> AgreementResult:
    codes = sorted(feats.by_label)
    cols = [feats.by_label[c][0] for c in codes] + [feats.by_label[c][1] for c in codes]
    x = np.stack(cols, axis=1)[units] if codes else np.zeros((len(units), 0))
    return _result("span_macro_f1", x, _macro_stat(len(codes)), mode, what, 2, (feats.ids, units))


def _result(
    name: str,
    x: FloatArray,
    stat: Callable[[FloatArray], FloatArray],
    mode: str,
    what: str,
    n_raters: int,
    unit_ids: tuple[tuple[Any, ...], Any],
    details: dict[str, Any] | None = None,
) -> AgreementResult:
    with np.errstate(divide="ignore", invalid="ignore"):
        est = float(stat(x.sum(axis=0)[None, :])[0]) if x.shape[1] else math.nan
    reason = None if math.isfinite(est) else "no rater pair marked a span in the units compared"
    if reason is not None:
        v.warn_undefined(what.replace("span_f1", name, 1), reason)

    def resampling() -> Resampling:
        patterns, counts, inverse = pattern_index(x)
        ids = tuple(unit_ids[0][i] for i in unit_ids[1].tolist())
        return Resampling(np.asarray(patterns, dtype=np.float64), counts, stat, inverse, ids)

    return AgreementResult(
        coefficient=name, estimate=est, observed=math.nan, expected=math.nan, se=math.nan,
        n_units=int(x.shape[0]), n_raters=n_raters, undefined_reason=reason,
        details={"mode": mode, **(details or {})}, bounds=(0.0, 1.0), resampling=resampling,
    )  # fmt: skip


Block = tuple[FloatArray, Callable[[FloatArray], FloatArray]]


def _micro_block(f: _Features) -> Block:
    return np.stack([f.matched, f.total], axis=1), _micro_stat


def _macro_block(f: _Features) -> Block:
    codes = sorted(f.by_label)
    cols = [f.by_label[c][0] for c in codes] + [f.by_label[c][1] for c in codes]
    block = np.stack(cols, axis=1) if codes else np.zeros((f.compared.shape[0], 0))
    return block, _macro_stat(len(codes))


def _label_block(code: int) -> Callable[[_Features], Block]:
    def block(f: _Features) -> Block:
        if code not in f.by_label:
            return np.zeros((f.compared.shape[0], 0)), _micro_stat
        return np.stack(f.by_label[code], axis=1), _micro_stat

    return block


def _mean(
    name: str,
    feats: list[_Features],
    enc: Encoded,
    mode: str,
    block: Callable[[_Features], Block],
    what: str,
) -> AgreementResult:
    """The mean over pairs, from per-unit features of every unit some pair compared.

    A pair whose figure is undefined (no span in it) is left out of the mean.
    """
    compared = np.zeros(len(enc.units), dtype=bool)
    for f in feats:
        compared |= f.compared
    units = np.flatnonzero(compared)
    blocks, stats = [], []
    for f in feats:
        x, stat = block(f)
        blocks.append(np.where(f.compared[:, None], x, 0.0)[units])
        stats.append(stat)
    x = np.concatenate(blocks, axis=1)
    widths = [b.shape[1] for b in blocks]
    ids = (enc.units, units)
    return _result(name, x, _pairs_stat(stats, widths), mode, what, len(enc.raters), ids,
                   {"n_pairs": len(feats)})  # fmt: skip


def _micro_stat(s: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(2.0 * s[:, 0] / s[:, 1], dtype=np.float64)


def _pairs_stat(
    stats: list[Callable[[FloatArray], FloatArray]], widths: list[int]
) -> Callable[[FloatArray], FloatArray]:
    edges = np.cumsum([0, *widths])

    def stat(s: FloatArray) -> FloatArray:
        cols = [
            st(s[:, lo:hi]) if hi > lo else np.full(s.shape[0], np.nan)
            for st, lo, hi in zip(stats, edges[:-1], edges[1:])
        ]
        return _finite_mean(np.stack(cols, axis=1))

    return stat


def _unit_means(pairs: list[PairAgreement], n_units: int, ids: tuple[Any, ...]) -> UnitValues:
    """The mean over pairs of the per-unit F1, where defined, for units some pair compared."""
    values = np.full((len(pairs), n_units), np.nan)
    compared = np.zeros(n_units, dtype=bool)
    for k, p in enumerate(pairs):
        pu = cast(UnitValues, p.per_unit)  # built by _pair
        values[k, pu.positions] = pu.array
        compared[pu.positions] = True
    where = np.flatnonzero(compared)
    return UnitValues(ids, where, _finite_mean(values[:, where].T))


class UnitValues(Mapping[Any, float]):
    """A read-only mapping of unit to value, kept as arrays (built for 10^5 units)."""

    def __init__(self, ids: tuple[Any, ...], positions: Any, values: FloatArray) -> None:
        self._ids = ids
        self.positions = np.asarray(positions, dtype=np.int64)
        self.array = np.asarray(values, dtype=np.float64)
        self._index: dict[Any, int] | None = None

    def __getitem__(self, unit: Any) -> float:
        if self._index is None:
            self._index = {self._ids[p]: k for k, p in enumerate(self.positions.tolist())}
        return float(self.array[self._index[unit]])

    def __iter__(self) -> Iterator[Any]:
        return (self._ids[p] for p in self.positions.tolist())

    def __len__(self) -> int:
        return int(self.positions.shape[0])

    def __repr__(self) -> str:
        return repr(dict(self))
