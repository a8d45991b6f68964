"""Pairwise preference judgements: A or B (or a tie), with the pair shown in both orders.

A judge that sees two answers may prefer whichever comes first. Before any
agreement is computed, each verdict is *normalised* to the candidate it picks
(or ``"tie"``), so the display order no longer matters; a rater who saw a pair
in both orders and picked different candidates is counted as a tie (Zheng et
al. 2023, sec. 3.4: a win only when it holds in both orders). Position
consistency and position bias are reported per rater.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.coefficients.pairwise import call_quietly
from accord.coefficients.two_raters import cohen_kappa
from accord.data import _encoding as enc
from accord.data import _validation as v
from accord.data._frames import columns_of
from accord.data.annotations import Annotations, build
from accord.errors import DataError
from accord.inference._normal import norm_ppf
from accord.inference.display import Tabular
from accord.inference.results import AgreementResult, _jsonable
from accord.judge import biases as bz

__all__ = ["PositionBias", "PreferenceResult", "preferences", "wilson_interval"]

Verdicts = Literal["position", "candidate"]
TIE = "tie"


@dataclass(frozen=True)
class PositionBias:
    """How one rater's verdicts depend on the order the two answers were shown in.

    Attributes
    ----------
    rater : object
    n_verdicts : int
        Verdicts read (both orders counted).
    n_decisive : int
        Verdicts that are not ties.
    first_share : float
        Share of decisive verdicts for the answer shown first (0.5 = no bias).
    first_interval : tuple of float
        Wilson score interval of ``first_share``.
    bias : float
        ``first_share - 0.5``.
    pvalue : float
        Exact two-sided binomial test of ``first_share = 0.5``.
    n_swapped : int
        Pairs this rater judged in both orders.
    consistency : float
        Share of those pairs given the same normalised verdict in both orders
        (``nan`` when no pair was shown both ways).
    tie_share : float
        Share of verdicts that are ties.
    """

    rater: Any
    n_verdicts: int
    n_decisive: int
    first_share: float
    first_interval: tuple[float, float]
    bias: float
    pvalue: float
    n_swapped: int
    consistency: float
    tie_share: float

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready mapping; undefined numbers are ``None``. The Wilson interval of
        ``first_share`` (at the level it was computed) is ``confidence_interval``."""
        out = {k: _jsonable(getattr(self, k)) for k in self.__dataclass_fields__
               if k != "first_interval"}
        low, high = _jsonable(self.first_interval)
        out["confidence_interval"] = {"low": low, "high": high,
                                      "confidence_level": confidence_level, "method": "wilson"}
        return out


@dataclass(frozen=True)
class PreferenceResult(Tabular):
    """Position effects per rater, normalised verdicts, and the judge's agreement.

    Attributes
    ----------
    per_rater : mapping
        ``rater -> PositionBias``.
    annotations : Annotations
        One normalised verdict per (pair, rater): the winning candidate or ``"tie"``;
        feed it to any coefficient.
    judge : object or None
    agreement : mapping
        ``human -> AgreementResult``: Cohen's kappa of the judge and each human on
        the normalised verdicts (``observed`` is the share of equal verdicts).
    confidence_level : float
    """

    per_rater: Mapping[Any, PositionBias]
    annotations: Annotations = field(repr=False)
    judge: Any
    agreement: Mapping[Any, AgreementResult] = field(repr=False)
    confidence_level: float
    biases: bz.Biases | None = field(default=None, repr=False)

    @property
    def position(self) -> Mapping[Any, AgreementResult]:
        """``rater -> P(first shown wins)`` on the pairs seen in both orders, resampled by
        pair; raters who saw no pair both ways are absent (see ``biases.notes``)."""
        return MappingProxyType({}) if self.biases is None else self.biases.position

    @property
    def length_bias(self) -> AgreementResult | None:
        """The judge's P(prefers the longer output) (with ``lengths=``)."""
        return _part(self.biases, "length", "judge")

    @property
    def length_bias_humans(self) -> AgreementResult | None:
        """The humans' P(prefers the longer output) on the pairs the judge decided."""
        return _part(self.biases, "length", "humans")

    @property
    def length_bias_excess(self) -> AgreementResult | None:
        """The judge's share minus the humans', paired by pair."""
        return _part(self.biases, "length", "excess")

    @property
    def length_slope(self) -> AgreementResult | None:
        """Log-odds of "first shown wins" per 100 units of length difference."""
        return None if self.biases is None else self.biases.length_slope

    @property
    def self_preference(self) -> AgreementResult | None:
        """The judge's win rate for its own family's outputs (with ``generators=``)."""
        return _part(self.biases, "self_preference", "judge")

    @property
    def self_preference_humans(self) -> AgreementResult | None:
        """The humans' rate for the same outputs on the same pairs."""
        return _part(self.biases, "self_preference", "humans")

    @property
    def self_preference_excess(self) -> AgreementResult | None:
        """The judge's rate minus the humans', paired by pair."""
        return _part(self.biases, "self_preference", "excess")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        out = {
            "per_rater": [r.to_dict(self.confidence_level) for r in self.per_rater.values()],
            "judge": _jsonable(self.judge),
            "agreement": {str(h): r.to_dict(self.confidence_level)
                          for h, r in self.agreement.items()},
            "confidence_level": self.confidence_level,
            "audit": self.annotations.audit.to_dict(),
        }
        if self.biases is not None:
            out["biases"] = self.biases.to_dict(self.confidence_level)
        return out

    def sentence(self, confidence_level: float = 0.95) -> str:
        """One sentence: the judge's length preference (and self-preference), verdict first."""
        from .sentences import bias_sentence

        return bias_sentence(self, confidence_level)

    def __str__(self) -> str:
        lines = []
        for r in self.per_rater.values():
            lo, hi = r.first_interval
            lines.append(
                f"{r.rater}: first shown wins {_pct(r.first_share)} of {r.n_decisive} decisive "
                f"verdicts ({_pct(lo)} to {_pct(hi)}), consistent when swapped "
                f"{_pct(r.consistency)} of {r.n_swapped}")
        for h, res in self.agreement.items():
            lines.append(f"{self.judge} vs {h}: same verdict {_pct(res.observed)}, "
                         f"kappa {res.estimate:.3f} (n={res.n_units})")
        return "\n".join(lines)


def preferences(
    data: Any,
    *,
    unit: str | int = "unit",
    rater: str | int = "rater",
    first: str | int = "first",
    second: str | int = "second",
    verdict: str | int = "verdict",
    verdicts: Verdicts = "position",
    labels: Sequence[Any] = ("A", "B", "tie"),
    judge: Any = None,
    missing: Sequence[Any] = (),
    lengths: tuple[str | int, str | int] | None = None,
    generators: tuple[str | int, str | int] | None = None,
    family: Any = None,
    confidence_level: float = 0.95,
) -> PreferenceResult:
    r"""Position consistency, position bias and agreement on normalised pairwise verdicts.

    Position bias of a rater: with :math:`f` of :math:`n` decisive verdicts
    going to the answer shown first, :math:`\hat p = f / n` with the Wilson
    (1927) score interval

    .. math:: \frac{\hat p + z^2/2n}{1 + z^2/n} \pm
              \frac{z}{1 + z^2/n}\sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}

    and the exact binomial test of :math:`p = 1/2`. Position consistency: the
    share of pairs shown in both orders that get the same normalised verdict.

    Parameters
    ----------
    data : long table (mapping of columns, records, DataFrame)
        One row per verdict.
    unit, rater, first, second, verdict : column names (or positions)
        The pair's id (the same for both orders), who judged, the candidate shown
        first and second, and the verdict.
    verdicts : {"position", "candidate"}
        ``"position"``: the verdict names a position, ``labels = (first wins,
        second wins, tie)``; ``"candidate"``: the verdict names the winning
        candidate (or ``labels[2]`` for a tie).
    labels : three labels
        Default ``("A", "B", "tie")``.
    judge : str, optional
        The judge among the raters: its agreement with each other rater is given.
    missing : sequence, optional
        Verdicts that mean "no verdict" (a parse failure such as ``"ERROR"`` or
        ``-1``): dropped and counted in the audit, like None and NaN.
    lengths : (column, column), optional
        The length (characters or tokens) of the answer shown first and second: adds
        the length bias (:attr:`PreferenceResult.length_bias`, the humans' share on
        the same pairs and the judge's excess) and the logistic length slope.
    generators : (column, column), optional
        The generator (model) of the answer shown first and second, with ``family``
        (a generator name or a list of them: the judge's own family): adds the
        self-preference figures.
    confidence_level : float

    Returns
    -------
    PreferenceResult
        With the position share per rater resampled by whole pairs
        (:attr:`PreferenceResult.position`) and, given ``lengths`` or
        ``generators``, the bias figures of :mod:`accord.judge.biases`.

    Raises
    ------
    DataError
        A verdict that is none of the labels; a pair id shown with different
        candidates; a rater who gave one pair, in one order, two different verdicts;
        an output without a length (or generator); ``lengths``/``generators`` with
        several raters and no ``judge``; ``generators`` without ``family``.

    References
    ----------
    L. Zheng et al. (2023). Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena.
    NeurIPS 2023 Datasets and Benchmarks. E. B. Wilson (1927). Probable inference,
    the law of succession, and statistical inference. JASA 22, 209-212.

    Examples
    --------
    A judge shown each of four pairs both ways, preferring the first answer twice:

    >>> import accord
    >>> rows = {"unit": [1, 1, 2, 2, 3, 3, 4, 4] * 2,
    ...         "rater": ["llm"] * 8 + ["ann"] * 8,
    ...         "first": ["x", "y"] * 8, "second": ["y", "x"] * 8,
    ...         "verdict": ["A", "B", "A", "A", "B", "A", "A", "A",
    ...                     "A", "B", "B", "A", "B", "A", "tie", "tie"]}
    >>> res = accord.preferences(rows, judge="llm")
    >>> p = res.per_rater["llm"]
    >>> p.consistency, p.first_share, p.n_decisive
    (0.5, 0.75, 8)
    >>> res.annotations.categories
    ('tie', 'x', 'y')
    >>> res.agreement["ann"].observed  # same normalised verdict on 3 of the 4 pairs
    0.75
    """
    func = "preferences"
    level = v.confidence_level(confidence_level, func=func)
    v.choice(verdicts, ("position", "candidate"), param="verdicts", func=func)
    tri = enc.label_list(labels, param="labels")
    if len(tri) != 3:
        raise v.fail("labels", func, "three labels (first wins, second wins, tie)", labels)
    extra = [c for pair in (lengths, generators) if pair is not None for c in pair]
    cols = columns_of(data, [unit, rater, first, second, verdict, *extra], func=func)
    rows = _Rows.read(cols, tri, verdicts, tuple(missing), func)
    ann = rows.normalised(func)
    per = {r: _position(rows, r, ann, level) for r in ann.raters}
    agreement = _agreement(ann, judge, func)
    found = _biases(rows, ann, judge, lengths is not None, generators is not None, family, func)
    return PreferenceResult(MappingProxyType(per), ann, judge, MappingProxyType(agreement), level,
                            found)


def _biases(rows: _Rows, ann: Annotations, judge: Any, lengths: bool, generators: bool,
            family: Any, func: str) -> bz.Biases:
    vd = bz.verdicts(rows.unit, rows.rater, rows.first, rows.second, rows.position)
    if (lengths or generators) and judge is None:
        if len(ann.raters) > 1:
            raise DataError(f"{func} needs judge= to measure length bias or self-preference "
                            f"when there are several raters ({list(ann.raters)!r}).")
        judge = ann.raters[0]
    if generators and family is None:
        raise DataError(f"{func} needs family= (the judge's own generator name or names) to "
                        "measure self-preference from generators=.")
    extra = list(rows.extra)
    len_map = gen_map = None
    if lengths:
        len_map = bz.lengths_of(vd, extra.pop(0), extra.pop(0), func)
    if generators:
        gen_map = bz.per_candidate(vd, extra.pop(0), extra.pop(0), "generator", func)
    fam = frozenset([family] if isinstance(family, str) or not hasattr(family, "__iter__")
                    else family)
    return bz.bias_figures(vd, judge=judge, lengths=len_map, generators=gen_map, family=fam)


def _part(b: bz.Biases | None, which: str, part: str) -> AgreementResult | None:
    t = None if b is None else getattr(b, which)
    return None if t is None else getattr(t, part)


@dataclass
class _Rows:
    unit: NDArray[Any]
    rater: NDArray[Any]
    first: NDArray[Any]
    second: NDArray[Any]
    position: NDArray[np.int64]  # 0 first wins, 1 second wins, 2 tie
    dropped: int
    n_read: int
    extra: tuple[NDArray[Any], ...] = ()

    @classmethod
    def read(cls, cols: list[NDArray[Any]], labels: list[Any], verdicts: str,
             missing: tuple[Any, ...], func: str) -> _Rows:
        verdict = cols[4]
        gone = enc.missing_mask(verdict, (*enc.DEFAULT_MISSING, *missing))
        keep = ~gone
        unit, rater, first, second, verdict, *extra = (c[keep] for c in cols)
        if verdicts == "position":
            options = [labels[0], labels[1], labels[2]]
            pos = _match(verdict, options)
        else:
            pos = np.full(verdict.shape[0], -1, dtype=np.int64)
            pos[_eq(verdict, labels[2])] = 2
            pos[_eq(verdict, second) & (pos < 0)] = 1
            pos[_eq(verdict, first) & (pos < 0)] = 0
        bad = np.flatnonzero(pos < 0)
        if bad.size:
            shown = sorted({repr(verdict[i]) for i in bad[:50]})[:5]
            expected = (f"one of {labels!r}" if verdicts == "position"
                        else f"the first or second candidate, or {labels[2]!r}")
            raise DataError(
                f"{func} read {bad.size} verdict(s) that are not {expected}: "
                f"{', '.join(shown)}; declare parse failures with missing=[...].")
        return cls(unit, rater, first, second, pos, int(gone.sum()), int(gone.shape[0]),
                   tuple(extra))

    def normalised(self, func: str) -> Annotations:
        groups = _group(self, func)
        units, raters, values = [], [], []
        for (u, r), by_order in groups.items():
            winners = set(by_order.values())
            units.append(u)
            raters.append(r)
            values.append(winners.pop() if len(winners) == 1 else TIE)
        notes = [] if not self.dropped else [
            f"{self.dropped} verdict(s) were missing or parse failures and are not counted"]
        arr = [np.asarray(x, dtype=object) for x in (units, raters, values)]
        return build(*arr, source=func, rows_read=self.n_read,
                     dropped={"missing value": self.dropped}, notes=notes)


def _match(values: NDArray[Any], options: list[Any]) -> NDArray[np.int64]:
    pos = np.full(values.shape[0], -1, dtype=np.int64)
    for k, label in enumerate(options):
        pos[_eq(values, label) & (pos < 0)] = k
    return pos


def _eq(values: NDArray[Any], other: Any) -> NDArray[np.bool_]:
    return np.asarray([a == b for a, b in zip(values, np.broadcast_to(other, values.shape))],
                      dtype=bool)


def _group(rows: _Rows, func: str) -> dict[tuple[Any, Any], dict[Any, Any]]:
    """(pair, rater) -> {candidate shown first: normalised winner}."""
    pairs: dict[Any, frozenset[Any]] = {}
    out: dict[tuple[Any, Any], dict[Any, Any]] = {}
    for u, r, a, b, p in zip(rows.unit, rows.rater, rows.first, rows.second, rows.position):
        cands = frozenset((a, b))
        if pairs.setdefault(u, cands) != cands:
            raise DataError(
                f"{func}: pair {u!r} is shown with candidates {sorted(map(str, cands))} and "
                f"{sorted(map(str, pairs[u]))}; one pair id must always hold the same two.")
        winner = a if p == 0 else b if p == 1 else TIE
        seen = out.setdefault((u, r), {})
        if seen.get(a, winner) != winner:
            raise DataError(
                f"{func}: rater {r!r} gave pair {u!r}, shown with {a!r} first, two different "
                "verdicts; keep one per order.")
        seen[a] = winner
    return out


def _position(rows: _Rows, rater: Any, ann: Annotations, level: float) -> PositionBias:
    mine = np.asarray([x == rater for x in rows.rater], dtype=bool)
    pos = rows.position[mine]
    n = int(pos.shape[0])
    decisive = int(np.count_nonzero(pos < 2))
    firsts = int(np.count_nonzero(pos == 0))
    share = firsts / decisive if decisive else math.nan
    interval = wilson_interval(firsts, decisive, level)
    from scipy import stats

    pvalue = float(stats.binomtest(firsts, decisive, 0.5).pvalue) if decisive else math.nan
    swapped, consistent = _consistency(rows, mine)
    return PositionBias(
        rater, n, decisive, share, interval, share - 0.5, pvalue, swapped,
        consistent / swapped if swapped else math.nan,
        float(np.count_nonzero(pos == 2) / n) if n else math.nan,
    )


def _consistency(rows: _Rows, mine: NDArray[np.bool_]) -> tuple[int, int]:
    by_pair: dict[Any, dict[Any, Any]] = {}
    for u, a, b, p in zip(rows.unit[mine], rows.first[mine], rows.second[mine],
                          rows.position[mine]):
        by_pair.setdefault(u, {})[a] = a if p == 0 else b if p == 1 else TIE
    both = [set(w.values()) for w in by_pair.values() if len(w) == 2]
    return len(both), sum(len(s) == 1 for s in both)


def wilson_interval(successes: int, n: int, confidence_level: float = 0.95) -> tuple[float, float]:
    """The Wilson (1927) score interval of a binomial proportion; ``(nan, nan)`` for n = 0.

    Examples
    --------
    >>> tuple(round(x, 4) for x in wilson_interval(8, 10))
    (0.4902, 0.9433)
    """
    if n == 0:
        return math.nan, math.nan
    z = float(norm_ppf(0.5 + confidence_level / 2.0))
    p = successes / n
    denom = 1.0 + z * z / n
    center = (p + z * z / (2.0 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    return max(0.0, center - half), min(1.0, center + half)


def _agreement(ann: Annotations, judge: Any, func: str) -> dict[Any, AgreementResult]:
    if judge is None:
        return {}
    if judge not in ann.raters:
        raise DataError(f"The judge {judge!r} of {func} is not among the raters "
                        f"{list(ann.raters)!r}.")
    out = {}
    for h in ann.raters:
        if h == judge:
            continue
        pair = ann.select([judge, h])
        out[h] = call_quietly(cohen_kappa, pair, {}, "cohen_kappa", 2)
    return out


def _pct(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.0%}"
