r"""Biases of a pairwise judge: position, length (verbosity) and self-preference.

Every figure is a share of decisive verdicts, counted per pair and resampled by
whole pairs (both display orders of a pair stay together), with the linearised
standard error of a ratio of sums (see ``accord.judge._figures``):

* **position**: among pairs a rater saw in both orders, the share of decisive
  verdicts that went to the answer shown first (0.5 = none). A pair shown in one
  order only says nothing about position (its first answer may simply be the
  better one): it is left out and counted.
* **length**: the share of decisive verdicts that went to the longer answer
  (pairs of equal length are left out and counted), as AlpacaEval reports
  P(prefer longer) (Dubois et al. 2024); the humans' share on the same pairs, and
  the judge's excess over them. A logistic model of "the first shown wins" on the
  length difference separates length (the slope) from position (the intercept).
* **self-preference**: on pairs where exactly one answer comes from the judge's
  own family of generators, the share of decisive verdicts for that answer
  (Panickssery, Bowman & Feng 2024), beside the humans' share on the same pairs.

The judge's share for a single rater uses the Wilson (1927) interval as its
``"asymptotic"`` interval; the humans' pooled share and the differences use the
linearised SE; every figure also takes ``"jackknife"`` and ``Bootstrap(...)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError
from accord.inference._normal import norm_ppf
from accord.inference.display import Displayed
from accord.inference.results import AgreementResult
from accord.judge import _figures as fig
from accord.judge import _logistic

#: The logistic slope is per this many units of length difference (characters or tokens).
LENGTH_UNIT = 100.0


@dataclass(frozen=True)
class Verdicts:
    """One row per verdict: pair index, rater, first/second candidate, and who won."""

    pair: NDArray[np.int64]
    rater: NDArray[Any]
    first: NDArray[Any]
    second: NDArray[Any]
    position: NDArray[np.int64]  # 0 first wins, 1 second wins, 2 tie
    n_pairs: int

    def decisive(self) -> NDArray[np.bool_]:
        return self.position < 2

    def winner(self) -> NDArray[Any]:
        out = np.where(self.position == 0, self.first, self.second)
        return np.asarray(out, dtype=object)

    def by(self, raters: Sequence[Any]) -> NDArray[np.bool_]:
        wanted = set(raters)
        return np.asarray([r in wanted for r in self.rater], dtype=bool)


def wilson(successes: float, trials: float, level: float) -> tuple[float, float]:
    """Wilson interval for possibly fractional counts (shares of verdicts)."""
    if trials <= 0:
        return math.nan, math.nan
    z = float(norm_ppf(0.5 + level / 2.0))
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2.0 * trials)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / trials + z * z / (4.0 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def per_pair(vd: Verdicts, rows: NDArray[np.bool_], hit: NDArray[np.bool_]
             ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per pair: decisive verdicts among ``rows`` that are ``hit``, and all decisive ones."""
    use = rows & vd.decisive()
    y = np.bincount(vd.pair[use & hit], minlength=vd.n_pairs).astype(np.float64)
    x = np.bincount(vd.pair[use], minlength=vd.n_pairs).astype(np.float64)
    return y, x


def position_share(vd: Verdicts, rater: Any) -> AgreementResult | None:
    """P(first shown wins) on the pairs ``rater`` saw in both orders; None when none."""
    mine = vd.by([rater])
    orders = np.bincount(vd.pair[mine], minlength=vd.n_pairs)
    both = _both_orders(vd, mine)
    if not both.any():
        return None
    y, x = per_pair(vd, mine & both[vd.pair], vd.position == 0)
    one = int(np.count_nonzero((orders > 0) & ~both))
    return fig.ratio(
        "position_first_share", y[both], x[both],
        reason_if_empty=f"{rater!r} gave no decisive verdict on a pair seen in both orders",
        details={"rater": rater, "pairs_both_orders": int(both.sum()),
                 "pairs_one_order": one, "resampling_unit": "pair"},
        interval=None)


def _both_orders(vd: Verdicts, mine: NDArray[np.bool_]) -> NDArray[np.bool_]:
    firsts: dict[int, set[Any]] = {}
    for p, a in zip(vd.pair[mine], vd.first[mine]):
        firsts.setdefault(int(p), set()).add(a)
    out = np.zeros(vd.n_pairs, dtype=bool)
    out[[p for p, s in firsts.items() if len(s) == 2]] = True
    return out


@dataclass(frozen=True)
class Targeted:
    """A bias as a share of verdicts for a target answer: judge, humans, and the gap."""

    judge: AgreementResult
    humans: AgreementResult | None
    excess: AgreementResult | None


def targeted(vd: Verdicts, target: NDArray[Any], judge: Any, humans: Sequence[Any],
             name: str, what: str, details: Mapping[str, Any]) -> Targeted:
    """Share of decisive verdicts that go to ``target[pair]`` (None = no target)."""
    has = np.asarray([t is not None for t in target], dtype=bool)
    for_target = np.asarray([w == target[p] for w, p in zip(vd.winner(), vd.pair)], dtype=bool)
    hit = for_target & has[vd.pair]
    jy, jx = per_pair(vd, vd.by([judge]) & has[vd.pair], hit)
    j = fig.ratio(name, jy, jx, reason_if_empty=f"the judge {judge!r} gave no decisive "
                  f"verdict on a pair with {what}", details={**details, "rater": judge},
                  interval=wilson)
    if not humans or not j.defined:  # one warning for one cause
        return Targeted(j, None, None)
    hy, hx = per_pair(vd, vd.by(humans) & has[vd.pair], hit)
    on_same = jx > 0
    h = fig.ratio(f"{name}_humans", hy[on_same], hx[on_same], n_raters=len(humans),
                  reason_if_empty=f"no human gave a decisive verdict on the pairs with {what} "
                  "that the judge decided", details={"raters": list(humans)})
    gap = fig.ratio_difference(
        f"{name}_excess", (jy, jx), (hy, hx), reason_if_empty="the judge and the humans "
        f"decided no pair with {what} in common", n_raters=1 + len(humans),
        details={"judge": judge, "humans": list(humans)})
    return Targeted(j, h, gap)


def longer(lengths: Mapping[tuple[int, Any], float], vd: Verdicts
           ) -> tuple[NDArray[Any], int]:
    """The longer candidate of each pair (None when equal), and how many pairs tie."""
    out = np.full(vd.n_pairs, None, dtype=object)
    cands: dict[int, tuple[Any, Any]] = {}
    for p, a, b in zip(vd.pair, vd.first, vd.second):
        cands.setdefault(int(p), (a, b))
    equal = 0
    for p, (a, b) in cands.items():
        la, lb = lengths[(p, a)], lengths[(p, b)]
        if la == lb:
            equal += 1
        else:
            out[p] = a if la > lb else b
    return out, equal


def own(generators: Mapping[tuple[int, Any], Any], family: frozenset[Any], vd: Verdicts
        ) -> tuple[NDArray[Any], int]:
    """The judge-family candidate of pairs with exactly one; how many pairs have one."""
    out = np.full(vd.n_pairs, None, dtype=object)
    for p, a, b in zip(vd.pair, vd.first, vd.second):
        ins = [c for c in (a, b) if generators[(int(p), c)] in family]
        if len(ins) == 1:
            out[int(p)] = ins[0]
    return out, int(sum(t is not None for t in out))


def length_slope(vd: Verdicts, lengths: Mapping[tuple[int, Any], float], judge: Any,
                 ) -> AgreementResult:
    r"""Logistic regression of "first shown wins" on (length first - length second) / 100.

    :math:`\operatorname{logit} P(\text{first wins}) = \beta_0 + \beta_1 \Delta / 100`
    on the judge's decisive verdicts. ``estimate`` is :math:`\beta_1` (log-odds per 100
    units of length); ``se`` is clustered by pair (both orders of a pair are one
    cluster); ``details`` holds the intercept (the position effect at equal length)
    and the model-based SEs, as statsmodels' ``Logit`` reports them.
    """
    rows = vd.by([judge]) & vd.decisive()
    diff = np.asarray([lengths[(int(p), a)] - lengths[(int(p), b)] for p, a, b in
                       zip(vd.pair[rows], vd.first[rows], vd.second[rows])], dtype=np.float64)
    y = (vd.position[rows] == 0).astype(np.float64)
    name = "length_slope"
    if y.size < 3 or np.ptp(diff) == 0 or y.min() == y.max():
        return fig.undefined(name, "the judge's decisive verdicts do not vary in both the "
                             "winner and the length difference", 1)
    X = np.column_stack([np.ones(y.size), diff / LENGTH_UNIT])
    _, clusters = np.unique(vd.pair[rows], return_inverse=True)
    res = _logistic.fit(X, y, clusters=clusters.astype(np.int64))
    if not res.converged:
        return fig.undefined(name, "the verdicts are perfectly separated by the length "
                             "difference, so the slope is infinite", 1)
    return AgreementResult(
        coefficient=name, estimate=float(res.coef[1]), observed=math.nan, expected=math.nan,
        terms=("", ""), se=math.sqrt(float(res.cov_cluster[1, 1])),
        n_units=int(np.unique(clusters).size),
        n_raters=1, details={
            "rater": judge, "intercept": float(res.coef[0]),
            "intercept_se": math.sqrt(float(res.cov_cluster[0, 0])),
            "se_model": math.sqrt(float(res.cov[1, 1])),
            "intercept_se_model": math.sqrt(float(res.cov[0, 0])),
            "n_verdicts": int(y.size), "length_unit": LENGTH_UNIT, "se_clustered_by": "pair"},
    )


@dataclass(frozen=True)
class Biases(Displayed):
    """Position (per rater, whole pairs), length and self-preference figures."""

    position: Mapping[Any, AgreementResult]
    length: Targeted | None
    length_slope: AgreementResult | None
    self_preference: Targeted | None
    notes: tuple[str, ...]

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready mapping; each figure with its interval at ``confidence_level``."""
        level = confidence_level
        out: dict[str, Any] = {"position": {str(r): x.to_dict(level)
                                            for r, x in self.position.items()}}
        for key, t in (("length_bias", self.length), ("self_preference", self.self_preference)):
            if t is not None:
                out[key] = t.judge.to_dict(level)
                out[f"{key}_humans"] = None if t.humans is None else t.humans.to_dict(level)
                out[f"{key}_excess"] = None if t.excess is None else t.excess.to_dict(level)
        if self.length_slope is not None:
            out["length_slope"] = self.length_slope.to_dict(level)
        out["notes"] = list(self.notes)
        return out


def verdicts(unit: NDArray[Any], rater: NDArray[Any], first: NDArray[Any],
             second: NDArray[Any], position: NDArray[np.int64]) -> Verdicts:
    """Number the pairs in order of first appearance."""
    index: dict[Any, int] = {}
    pair = np.asarray([index.setdefault(u, len(index)) for u in unit], dtype=np.int64)
    return Verdicts(pair, rater, first, second, position, len(index))


def per_candidate(vd: Verdicts, first_values: NDArray[Any], second_values: NDArray[Any],
                  what: str, func: str) -> dict[tuple[int, Any], Any]:
    """(pair, candidate) -> the value given for it; one value per candidate of a pair."""
    out: dict[tuple[int, Any], Any] = {}
    for p, a, b, va, vb in zip(vd.pair, vd.first, vd.second, first_values, second_values):
        for cand, val in ((a, va), (b, vb)):
            val = val.item() if isinstance(val, np.generic) else val
            if _missing(val):
                raise DataError(f"{func}: the {what} of output {cand!r} in pair "
                                f"{_unit_of(vd, int(p))} is missing; give every output's {what}.")
            if out.setdefault((int(p), cand), val) != val:
                raise DataError(f"{func}: output {cand!r} of pair {_unit_of(vd, int(p))} is "
                                f"given two different {what}s ({out[(int(p), cand)]!r} and "
                                f"{val!r}); one output has one {what}.")
    return out


def lengths_of(vd: Verdicts, first_len: NDArray[Any], second_len: NDArray[Any],
               func: str) -> dict[tuple[int, Any], float]:
    """Validated output lengths: finite, non-negative numbers."""
    raw = per_candidate(vd, first_len, second_len, "length", func)
    out: dict[tuple[int, Any], float] = {}
    for key, val in raw.items():
        try:
            num = float(val)
        except (TypeError, ValueError):
            num = math.nan
        if not math.isfinite(num) or num < 0:
            raise DataError(f"{func}: output {key[1]!r} has length {val!r}; lengths are "
                            "non-negative numbers (characters or tokens of its text).")
        out[key] = num
    return out


def bias_figures(vd: Verdicts, *, judge: Any, lengths: Mapping[tuple[int, Any], float] | None,
                 generators: Mapping[tuple[int, Any], Any] | None,
                 family: frozenset[Any]) -> Biases:
    """Every bias figure the inputs allow."""
    raters = list(dict.fromkeys(vd.rater.tolist()))
    position = {r: res for r in raters if (res := position_share(vd, r)) is not None}
    notes = [f"{r!r} saw no pair in both orders: its position bias is undefined."
             for r in raters if r not in position]
    humans = [r for r in raters if r != judge]
    length = slope = selfp = None
    if lengths is not None:
        target, equal = longer(lengths, vd)
        length = targeted(vd, target, judge, humans, "length_bias", "outputs of unequal length",
                          {"pairs_equal_length": equal})
        slope = length_slope(vd, lengths, judge)
        if equal:
            notes.append(f"{equal} pair(s) have outputs of equal length and do not count "
                         "towards the length bias.")
    if generators is not None:
        target, n_own = own(generators, family, vd)
        selfp = targeted(vd, target, judge, humans, "self_preference",
                         "exactly one output from the judge's family",
                         {"family": sorted(map(str, family)), "pairs_with_own": n_own})
    return Biases(position, length, slope, selfp, tuple(notes))


def _missing(val: Any) -> bool:
    return val is None or (isinstance(val, float) and math.isnan(val))


def _unit_of(vd: Verdicts, p: int) -> str:
    return f"#{p + 1}"
