r"""The alternative annotator test: may this judge replace one of the human annotators?

Calderon, Reichart & Dror (2025). Each human ``h`` is left out in turn; on every
unit the judge and ``h`` are scored against the *remaining* humans, and a
one-sided test asks whether the human's advantage over the judge is below
``epsilon``. The judge *wins* against ``h`` when that null is rejected after a
Benjamini-Yekutieli correction across the humans, and passes when it wins
against at least half of them.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import InsufficientDataError
from accord.inference.display import Tabular
from accord.inference.results import _jsonable
from accord.judge._panel import panel
from accord.judge._scoring import Scoring, alignment, scoring_name

__all__ = ["AltTestHuman", "AltTestResult", "alt_test", "by_adjusted"]

Test = Literal["t", "wilcoxon"]
MIN_UNITS_T = 30
TIE_TOLERANCE = 1e-9  # scores closer than this (relative) are a tie, not a rounding win


@dataclass(frozen=True)
class AltTestHuman:
    """The judge against one left-out human.

    Attributes
    ----------
    human : object
        The left-out human.
    n_units : int
        Units rated by the judge, by this human and by at least one other human.
    advantage_probability : float
        Share of those units on which the judge aligns with the other humans at least
        as well as this human does (``rho_h``).
    human_advantage_probability : float
        Share of units on which this human aligns at least as well as the judge.
    statistic : float
        The t statistic (or the signed-rank statistic with ``test="wilcoxon"``).
    pvalue : float
        One-sided p-value of "human advantage minus judge advantage >= epsilon".
    adjusted_pvalue : float
        Benjamini-Yekutieli adjusted p-value across the humans.
    won : bool
        Whether the adjusted p-value is at most ``fdr``.
    undefined_reason : str or None
        Why the p-value is ``nan`` (no unit, or a single one), else ``None``.
    """

    human: Any
    n_units: int
    advantage_probability: float
    human_advantage_probability: float
    statistic: float
    pvalue: float
    adjusted_pvalue: float
    won: bool
    undefined_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision; undefined numbers are ``None``."""
        return {k: _jsonable(getattr(self, k)) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class AltTestResult(Tabular):
    """Outcome of :func:`alt_test`.

    Attributes
    ----------
    judge : object
        The rater tested as a replacement.
    humans : tuple
        The human panel, in the order given.
    per_human : mapping
        ``human -> AltTestHuman`` for every human.
    winning_rate : float
        Share of the tested humans (those with at least one unit) the judge won against.
    advantage_probability : float
        ``rho``: the mean of the per-human advantage probabilities; use it to rank judges.
    passed : bool
        ``winning_rate >= 0.5``.
    epsilon, fdr : float
        The human's allowance and the false-discovery rate used.
    scoring : str
        ``"accuracy"``, ``"neg_rmse"``, ``"abs_error"`` or the similarity function's name.
    test : {"t", "wilcoxon"}
        The per-human test.
    n_units : int
        Units rated by the judge and by at least two humans.
    notes : tuple of str
        Caveats stated in words (few units for a t-test, humans without units).
    min_units : int
        Humans with fewer units were not tested.
    """

    judge: Any
    humans: tuple[Any, ...]
    per_human: Mapping[Any, AltTestHuman]
    winning_rate: float
    advantage_probability: float
    passed: bool
    epsilon: float
    fdr: float
    scoring: str
    test: str
    n_units: int
    notes: tuple[str, ...] = ()
    min_units: int = 1

    @property
    def rho(self) -> float:
        """The average advantage probability (same as :attr:`advantage_probability`)."""
        return self.advantage_probability

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision."""
        return {
            "judge": _jsonable(self.judge),
            "humans": [_jsonable(h) for h in self.humans],
            "per_human": [h.to_dict() for h in self.per_human.values()],
            "winning_rate": _jsonable(self.winning_rate),
            "advantage_probability": _jsonable(self.advantage_probability),
            "passed": self.passed,
            "epsilon": self.epsilon,
            "fdr": self.fdr,
            "scoring": self.scoring,
            "test": self.test,
            "n_units": self.n_units,
            "min_units": self.min_units,
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        verdict = "passes" if self.passed else "does not pass"
        won = sum(h.won for h in self.per_human.values())
        return (
            f"{self.judge} {verdict} the alt-test (epsilon={self.epsilon:g}): won against "
            f"{won} of {self.n_tested} humans (winning rate {self.winning_rate:.2f}), "
            f"advantage probability {self.advantage_probability:.3f}, n_units={self.n_units}"
        )

    @property
    def n_tested(self) -> int:
        """Humans tested: those sharing ``min_units`` units with the judge and another human."""
        return sum(h.n_units >= self.min_units for h in self.per_human.values())


def alt_test(
    data: Any,
    *,
    judge: Any,
    humans: Sequence[Any] | None = None,
    epsilon: float = 0.2,
    scoring: Scoring = "accuracy",
    test: Test = "t",
    fdr: float = 0.05,
    min_units: int = 1,
) -> AltTestResult:
    r"""The alternative annotator test of a judge (an LLM) against a panel of humans.

    For each human :math:`h` (left out in turn) and each unit :math:`i` the judge
    :math:`J` and :math:`h` rated, with :math:`H_i` the other humans who rated it:

    .. math::

        S_J = \frac{1}{|H_i|}\sum_{k \in H_i} \mathrm{sim}(J_i, y_{ik}), \qquad
        S_h = \frac{1}{|H_i|}\sum_{k \in H_i} \mathrm{sim}(y_{ih}, y_{ik}),

        W^J_i = 1[S_J \ge S_h], \quad W^h_i = 1[S_h \ge S_J], \quad
        d_i = W^h_i - W^J_i,

    :math:`H_0: E[d] \ge \varepsilon` against :math:`H_1: E[d] < \varepsilon`,
    tested with :math:`t = (\bar d - \varepsilon) / (s_d / \sqrt{n_h})` on
    :math:`n_h - 1` degrees of freedom (or the Wilcoxon signed-rank test of
    :math:`d_i - \varepsilon`). The p-values of the humans are adjusted with the
    Benjamini-Yekutieli procedure; the judge wins against :math:`h` when the
    adjusted p-value is at most ``fdr``. The advantage probability is
    :math:`\rho_h = \overline{W^J}`, :math:`\rho` their mean, the winning rate
    :math:`\omega` the share of humans won against; the judge passes when
    :math:`\omega \ge 0.5`.

    Parameters
    ----------
    data : Annotations or units x raters table
        The judge's and the humans' ratings; ``None``/``NaN`` = not rated.
    judge : str
        The judge's rater name (a column of a table).
    humans : sequence of str, optional
        The human panel (at least two). Default: every other rater of kind ``"human"``.
    epsilon : float
        The allowance given to the judge for being cheaper and faster. The authors'
        guidance: 0.2 when the humans are experts, 0.15 for skilled annotators
        (trained students or workers), 0.1 for crowd workers; smaller when the
        humans agree little among themselves.
    scoring : {"accuracy", "neg_rmse", "abs_error"} or callable
        Alignment with the remaining humans: the share of them with the same label
        (categories); minus the root mean squared difference, or minus the mean
        absolute difference (scores); or ``f(a, b)`` returning a similarity per
        element of two equally long arrays of labels (floats when every label is a
        number), averaged over the remaining humans.
    test : {"t", "wilcoxon"}
        The one-sided paired t-test (the authors' default), or the Wilcoxon
        signed-rank test they recommend for fewer than 30 units per human.
    fdr : float
        False-discovery rate of the Benjamini-Yekutieli correction, in (0, 1).
    min_units : int
        A human sharing fewer units with the judge is not tested (nor counted in the
        winning rate) but stays among the others the judge and the other humans are
        scored against. The authors' implementation uses 30; the default tests every
        human with a unit, warning below 30.

    Returns
    -------
    AltTestResult
        With ``per_human[name]`` for every human; a human who shares fewer than two
        units with the judge has a ``nan`` p-value and a reason, and does not win.

    Raises
    ------
    InsufficientDataError
        Fewer than two humans, or no unit rated by the judge and two humans.

    Warns
    -----
    UserWarning
        With ``test="t"``, when a human shares fewer than 30 units with the judge.

    Notes
    -----
    Two scores within ``1e-9`` of each other (relative to the larger magnitude, or
    absolute below 1) are a tie, won by both: means of the same decimal scores
    summed in another order differ by rounding only (the authors' code compares
    floats exactly, so rounding decides some ties there).

    Units are kept when the judge and at least two humans rated them, as in the
    authors' implementation. Unlike it, by default a human with fewer than 30
    units is tested (with a warning) instead of silently left out; pass
    ``min_units=30`` for the authors' rule.

    References
    ----------
    N. Calderon, R. Reichart and R. Dror (2025). The Alternative Annotator Test for
    LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators with
    LLMs. Proceedings of ACL 2025, 16051-16081.

    Examples
    --------
    Three humans who each miss one unit in five, and a judge that gives the
    majority label, on 40 units:

    >>> import accord
    >>> data = {"llm": ["x", "y", "x", "y", "x"] * 8,
    ...         "a":   ["y", "y", "x", "y", "x"] * 8,
    ...         "b":   ["x", "x", "x", "y", "x"] * 8,
    ...         "c":   ["x", "y", "y", "y", "x"] * 8}
    >>> res = accord.alt_test(data, judge="llm", epsilon=0.2)
    >>> res.winning_rate, res.advantage_probability, res.passed
    (1.0, 1.0, True)
    >>> res.per_human["a"].human_advantage_probability, res.per_human["a"].won
    (0.8, True)
    """
    func = "alt_test"
    eps = _number(epsilon, "epsilon", func, -1.0, 1.0)
    q = _number(fdr, "fdr", func, 0.0, 1.0, open_interval=True)
    v.choice(test, ("t", "wilcoxon"), param="test", func=func)
    name = scoring_name(scoring, func)
    least = v.positive_int(min_units, param="min_units", func=func)
    p = panel(data, judge, humans, func=func)
    judge_s, human_s, eligible = alignment(p, scoring, func)
    n_units = int(eligible.any(axis=1).sum())
    if n_units == 0:
        raise InsufficientDataError(
            f"No unit was rated by the judge {judge!r} and at least two humans, so {func} "
            "has no unit to score the judge on."
        )
    ok = eligible.astype(bool)
    tie = _ties(judge_s, human_s)
    w_judge = ((judge_s >= human_s) | tie) & ok
    w_human = ((human_s >= judge_s) | tie) & ok
    per = [_one(p.humans[h], ok[:, h], w_judge[:, h], w_human[:, h], eps, test)
           for h in range(len(p.humans))]
    return _result(p.judge, p.humans, per, eps, q, name, test, n_units, least)


def _ties(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Scores equal but for rounding: within ``TIE_TOLERANCE`` of the larger magnitude (or 1).

    A score is a mean of similarities; two means of the same decimal numbers summed
    in a different order can differ in the last bits, which would decide a tie.
    """
    with np.errstate(invalid="ignore"):
        scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), 1.0)
        return np.asarray(np.abs(a - b) <= TIE_TOLERANCE * scale)


def _number(value: Any, param: str, func: str, low: float, high: float,
            open_interval: bool = False) -> float:
    expected = f"a number in {'(' if open_interval else '['}{low:g}, {high:g}" + (
        ")" if open_interval else "]")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise v.fail(param, func, expected, value)
    x = float(value)
    inside = low < x < high if open_interval else low <= x <= high
    if not inside:
        raise v.fail(param, func, expected, value)
    return x


def _one(human: Any, ok: NDArray[np.bool_], w_judge: NDArray[np.bool_],
         w_human: NDArray[np.bool_], eps: float, test: str) -> tuple[Any, ...]:
    n = int(ok.sum())
    d = w_human[ok].astype(np.float64) - w_judge[ok].astype(np.float64)
    rho_j = float(w_judge[ok].mean()) if n else math.nan
    rho_h = float(w_human[ok].mean()) if n else math.nan
    if n < 2:
        why = f"the judge and {human!r} share {n} unit(s) with another human; a test needs 2"
        return human, n, rho_j, rho_h, math.nan, math.nan, why
    stat, pvalue = _t_test(d, eps) if test == "t" else _wilcoxon(d, eps)
    reason: str | None = None
    if math.isnan(pvalue):
        reason = (f"on every unit the human-minus-judge indicator of {human!r} equals epsilon "
                  f"({eps:g}), so the test is 0/0")
    return human, n, rho_j, rho_h, stat, pvalue, reason


def _t_test(d: NDArray[np.float64], eps: float) -> tuple[float, float]:
    """One-sided one-sample t-test of mean(d) < eps; a constant d gives t = -inf, +inf or nan."""
    n = d.shape[0]
    diff = float(d.mean()) - eps
    se = float(d.std(ddof=1)) / math.sqrt(n)
    t = diff / se if se > 0.0 else _signed_infinity(diff)
    from scipy import stats

    return t, float(stats.t.cdf(t, n - 1)) if not math.isnan(t) else math.nan


def _signed_infinity(x: float) -> float:
    return math.nan if x == 0.0 else math.copysign(math.inf, x)


def _wilcoxon(d: NDArray[np.float64], eps: float) -> tuple[float, float]:
    shifted = d - eps
    if not np.any(shifted != 0.0):
        return math.nan, math.nan
    from scipy import stats

    res = stats.wilcoxon(shifted, alternative="less")
    return float(res.statistic), float(res.pvalue)


def by_adjusted(pvalues: Sequence[float] | NDArray[np.float64]) -> NDArray[np.float64]:
    r"""Benjamini-Yekutieli adjusted p-values.

    .. math:: \tilde p_{(i)} = \min_{j \ge i} \min\Big(1, \frac{m\, c(m)}{j}\, p_{(j)}\Big),
              \qquad c(m) = \sum_{k=1}^m 1/k

    A ``nan`` p-value counts in ``m``, is ordered last and stays ``nan``, so that
    rejecting ``adjusted <= q`` is the step-up procedure of Benjamini & Yekutieli
    (2001, Theorem 1.3) over all ``m`` hypotheses.

    Examples
    --------
    >>> by_adjusted([0.01, 0.02, 0.03]).round(4).tolist()
    [0.055, 0.055, 0.055]
    """
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.shape[0]
    if m == 0:
        return p.copy()
    c_m = float(np.sum(1.0 / np.arange(1, m + 1)))
    filled = np.where(np.isnan(p), np.inf, p)
    order = np.argsort(filled, kind="stable")
    scaled = filled[order] * m * c_m / np.arange(1, m + 1)
    stepped = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(stepped, 1.0)
    out[np.isnan(p)] = np.nan
    return out


def _result(judge: Any, humans: tuple[Any, ...], per: list[tuple[Any, ...]], eps: float,
            q: float, scoring: str, test: str, n_units: int, least: int) -> AltTestResult:
    tested = [row for row in per if row[1] >= least]
    if not tested:
        raise InsufficientDataError(
            f"No human shares {least} or more units with the judge {judge!r} and another "
            f"human (min_units={least}), so alt_test tests nobody.")
    adjusted = by_adjusted([row[5] for row in tested])
    adj_of = {row[0]: a for row, a in zip(tested, adjusted)}
    per_human = {}
    for human, n, rho_j, rho_h, stat, pvalue, why in per:
        adj = float(adj_of.get(human, math.nan))
        per_human[human] = AltTestHuman(human, n, rho_j, rho_h, stat, pvalue, adj,
                                        bool(adj <= q), why)
    won = sum(h.won for h in per_human.values())
    rate = won / len(tested)
    rho = float(np.mean([row[2] for row in tested]))
    notes = _notes(per_human, test, least)
    return AltTestResult(judge, humans, MappingProxyType(per_human), rate, rho, rate >= 0.5,
                         eps, q, scoring, test, n_units, notes, least)


def _notes(per_human: Mapping[Any, AltTestHuman], test: str, least: int) -> tuple[str, ...]:
    notes = []
    untested = [h for h, r in per_human.items() if r.n_units < least]
    if untested:
        notes.append(f"humans {untested!r} share fewer than {least} unit(s) with the judge and "
                     "another human; they are not tested nor counted in the winning rate.")
    few = {h: r.n_units for h, r in per_human.items() if least <= r.n_units < MIN_UNITS_T}
    if few and test == "t":
        shown = ", ".join(f"{h!r} ({n})" for h, n in few.items())
        note = (f"humans with fewer than {MIN_UNITS_T} units: {shown}; the t-test's normal "
                "approximation is doubtful there: use test='wilcoxon' (the signed-rank test "
                "the authors recommend) or have more units rated.")
        notes.append(note)
        warnings.warn(note, UserWarning, stacklevel=v.user_level())
    return tuple(notes)
