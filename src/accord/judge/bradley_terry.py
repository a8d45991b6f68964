r"""Rankings from pairwise verdicts: Bradley-Terry strengths, an order effect, Davidson ties.

For a comparison with :math:`i` shown first and :math:`j` second, with
log-strengths :math:`\theta`, an order (position) effect :math:`h` and a tie
parameter :math:`\nu` (Bradley & Terry 1952; the order effect as Agresti 2013,
*Categorical Data Analysis*, sec. 11.6.4; ties after Davidson 1970, JASA 65,
317-328):

.. math::

    P(i \text{ wins}) = \frac{e^{\theta_i + h}}{D}, \quad
    P(j \text{ wins}) = \frac{e^{\theta_j}}{D}, \quad
    P(\text{tie}) = \frac{\nu\, e^{(\theta_i + h + \theta_j)/2}}{D},

:math:`D` the sum of the three numerators (no tie term when no tie was seen).
The fit is maximum likelihood by Newton-Raphson on the counts per ordered pair
and outcome (the sufficient statistic), with :math:`\theta` centred to mean zero
as choix reports it; standard errors come from the inverse Fisher information.
Elo ratings are a view of the same strengths: :math:`1000 + 400\,\theta/\ln 10`
(the scale of Chatbot Arena's Bradley-Terry ratings, Chiang et al. 2024).

Every figure also has a bootstrap interval over comparisons
(``confidence_interval(method=accord.Bootstrap(...))``): each resample draws the
comparisons with replacement, as multiplicities of the distinct (first, second,
outcome) patterns, and refits the model by the same Newton-Raphson. A resample in
which some item never beats (or ties) another through a chain of comparisons has
infinite strengths (Ford 1957); it is left out and counted in the interval's
``n_excluded`` (so the interval is conditional on finite strengths); so is a resample
without ties for Davidson's :math:`\nu` (its estimate would be 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.data._frames import columns_of
from accord.errors import DataError, InsufficientDataError
from accord.inference.display import Tabular
from accord.inference.resampling import FloatArray, Resampling
from accord.inference.results import AgreementResult, _jsonable

__all__ = ["BradleyTerryResult", "bradley_terry"]

ELO_SCALE = 400.0 / math.log(10.0)
ELO_BASE = 1000.0
_TIED = 1e-9  # strengths closer than this are tied in ranking()


@dataclass(frozen=True)
class BradleyTerryResult(Tabular):
    """Strengths of the compared items, the order effect and the tie parameter.

    Attributes
    ----------
    strength : mapping
        ``item -> AgreementResult``: the log-strength :math:`\\theta` (mean zero), SE
        from the Fisher information.
    order_effect : AgreementResult or None
        :math:`h`, the log-odds advantage of being shown first (with ``order_effect=True``).
    tie_parameter : AgreementResult or None
        Davidson's :math:`\\nu` (when ties were seen); SE by the delta method.
    n_comparisons, n_ties : int
    log_likelihood : float
    """

    strength: Mapping[Any, AgreementResult]
    order_effect: AgreementResult | None
    tie_parameter: AgreementResult | None
    n_comparisons: int
    n_ties: int
    log_likelihood: float

    def elo(self, *, scale: float = 400.0, base: float = ELO_BASE) -> dict[Any, AgreementResult]:
        """The strengths on the Elo scale: ``base + scale * theta / ln 10``."""
        k = scale / math.log(10.0)
        return {i: _scaled(r, k, base, "elo") for i, r in self.strength.items()}

    def ranking(self) -> list[Any]:
        """Items from strongest to weakest.

        Strengths within 1e-9 of each other are tied (the fit cannot order them:
        e.g. two items with the same record against the same opponents); tied items
        keep the order in which they were first seen, so the ranking does not depend
        on rounding in the last bits.
        """
        order = sorted(self.strength, key=lambda i: -self.strength[i].estimate)
        seen = {item: n for n, item in enumerate(self.strength)}
        ranked: list[Any] = []
        group: list[Any] = []
        for item in order:
            if group and self.strength[group[0]].estimate - self.strength[item].estimate > _TIED:
                ranked += sorted(group, key=seen.__getitem__)
                group = []
            group.append(item)
        return ranked + sorted(group, key=seen.__getitem__)

    def sentence(self, confidence_level: float = 0.95, *, method: Any = "asymptotic") -> str:
        """One sentence: who ranks first, by how much, and the order effect."""
        from .sentences import ranking_sentence

        return ranking_sentence(self, confidence_level, method=method)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {
            "strength": {str(i): r.to_dict() for i, r in self.strength.items()},
            "order_effect": None if self.order_effect is None else self.order_effect.to_dict(),
            "tie_parameter": None if self.tie_parameter is None else self.tie_parameter.to_dict(),
            "n_comparisons": self.n_comparisons, "n_ties": self.n_ties,
            "log_likelihood": _jsonable(self.log_likelihood),
        }


def bradley_terry(
    pairs: Any,
    *,
    order_effect: bool = False,
    first: str | int = "first",
    second: str | int = "second",
    winner: str | int = "winner",
    tie: Any = "tie",
) -> BradleyTerryResult:
    """Bradley-Terry strengths from pairwise verdicts, with an order effect and Davidson ties.

    Parameters
    ----------
    pairs : sequence of (first, second, winner) or a table
        One comparison each: the item shown first, second, and the winner (one of
        the two, or ``tie``). A table is read by the column names below.
    order_effect : bool
        Fit :math:`h`, the advantage of the item shown first.
    first, second, winner : column names of a table
    tie : object
        The winner value that means a tie (default ``"tie"``).

    Returns
    -------
    BradleyTerryResult
        Undefined (``nan`` strengths, a reason, a DegenerateDataWarning) when the
        maximum-likelihood estimate is infinite: the graph of "beat or tied" is not
        strongly connected (Ford 1957), e.g. an item that never lost.

    Raises
    ------
    DataError
        A winner that is neither item nor ``tie``; an item compared with itself.
    InsufficientDataError
        Fewer than two items.

    Examples
    --------
    >>> import accord
    >>> bt = accord.bradley_terry([("a", "b", "a"), ("b", "a", "a"), ("a", "c", "c"),
    ...                            ("c", "b", "b"), ("b", "c", "c"), ("c", "a", "c")])
    >>> bt.ranking()
    ['c', 'a', 'b']
    >>> round(bt.strength["c"].estimate, 6)
    0.756308
    >>> round(bt.elo()["c"].estimate, 1)
    1131.4
    """
    func = "bradley_terry"
    a, b, w = _read(pairs, first, second, winner, func)
    items, cells = _cells(a, b, w, tie, func)
    k = len(items)
    n_ties = int(cells[:, 4].sum())
    undefined = _not_connected(cells, k)
    if undefined:
        v.warn_undefined(func, undefined)
        return _undefined(items, undefined, order_effect, n_ties, int(cells[:, 2:].sum()))
    beta, cov, loglik = _fit(cells, k, order_effect, n_ties > 0)
    if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) <= 0):
        reason = ("the order effect cannot be told apart from the strengths (e.g. every "
                  "comparison shows the same item first); fit without it" if order_effect else
                  "the comparisons do not identify the strengths")
        v.warn_undefined(func, reason)
        return _undefined(items, reason, order_effect, n_ties, int(cells[:, 2:].sum()))
    boot = _Refits(cells, k, order_effect, n_ties > 0)
    return _result(items, beta, cov, loglik, order_effect, n_ties, int(cells[:, 2:].sum()), boot)


BOOTSTRAP_NOTE = ("resamples of comparisons in which some item never beats (or ties) another "
                  "through a chain of comparisons give infinite strengths (Ford 1957) and are "
                  "left out (n_excluded); for Davidson's nu, so are resamples without a tie")


class _Refits:
    """The model refitted on resampled comparisons; one fit per resample, shared by figures.

    The patterns are the non-empty (ordered pair, outcome) cells; a resample is a vector
    of their multiplicities. Each row of the refit is (theta centred, h, nu) with ``nan``
    where the resample's estimate is infinite.
    """

    def __init__(self, cells: NDArray[np.int64], k: int, order: bool, ties: bool) -> None:
        counts = cells[:, 2:]
        self.where = np.argwhere(counts > 0)  # (cell, outcome) of each pattern
        self.counts = counts[self.where[:, 0], self.where[:, 1]].astype(np.int64)
        self.cells, self.k, self.order, self.ties = cells, k, order, ties
        self.cache: dict[bytes, FloatArray] = {}

    def resampling(self, column: int) -> Resampling:
        m = self.counts.shape[0]
        return Resampling(np.eye(m), self.counts, partial(self.statistic, column=column))

    def statistic(self, sums: FloatArray, *, column: int) -> FloatArray:
        return np.array([self.refit(row)[column] for row in sums])

    def refit(self, weights: FloatArray) -> FloatArray:
        key = weights.tobytes()
        if key not in self.cache:
            self.cache[key] = self._fit(weights)
        return self.cache[key]

    def _fit(self, weights: FloatArray) -> FloatArray:
        k, out = self.k, np.full(self.k + 2, math.nan)
        counts = np.zeros((self.cells.shape[0], 3), dtype=np.int64)
        counts[self.where[:, 0], self.where[:, 1]] = np.rint(weights).astype(np.int64)
        keep = counts.sum(axis=1) > 0
        cells = np.column_stack([self.cells[keep, :2], counts[keep]])
        ties = self.ties and bool(cells[:, 4].sum())
        if _not_connected(cells, k):
            return out
        with np.errstate(all="ignore"):
            beta, cov, _ = _fit(cells, k, self.order, ties)
        if not np.all(np.isfinite(cov)):
            return out
        theta = np.concatenate([[0.0], beta[: k - 1]])
        out[:k] = theta - theta.mean()
        if self.order:
            out[k] = beta[k - 1]
        if ties:
            out[k + 1] = math.exp(beta[-1])
        return out


def _read(pairs: Any, first: str | int, second: str | int, winner: str | int, func: str
          ) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    if isinstance(pairs, Sequence) and pairs and isinstance(pairs[0], (tuple, list)):
        if any(len(p) != 3 for p in pairs):
            raise v.fail("pairs", func, "(first, second, winner) triples", pairs[0])
        cols = [np.empty(len(pairs), dtype=object) for _ in range(3)]
        for c, values in zip(cols, zip(*pairs)):
            c[:] = list(values)
        return cols[0], cols[1], cols[2]
    a, b, w = columns_of(pairs, [first, second, winner], func=func)
    return a, b, w


def _cells(a: NDArray[Any], b: NDArray[Any], w: NDArray[Any], tie: Any, func: str
           ) -> tuple[list[Any], NDArray[np.int64]]:
    """Items and per ordered pair: (first, second, first wins, second wins, ties)."""
    index: dict[Any, int] = {}
    fa = np.asarray([index.setdefault(x, len(index)) for x in a], dtype=np.int64)
    fb = np.asarray([index.setdefault(x, len(index)) for x in b], dtype=np.int64)
    fw = np.asarray([-2 if _is(z, tie) else index.get(z, -1) for z in w], dtype=np.int64)
    outcome = np.where(fw == fa, 0, np.where(fw == fb, 1, np.where(fw == -2, 2, -1)))
    same = np.flatnonzero(fa == fb)
    if same.size:
        n = int(same[0])
        raise DataError(f"bradley_terry: comparison {n + 1} sets {a[n]!r} against itself.")
    bad = np.flatnonzero(outcome < 0)
    if bad.size:
        n = int(bad[0])
        raise DataError(f"bradley_terry: comparison {n + 1} ({a[n]!r} vs {b[n]!r}) has winner "
                        f"{w[n]!r}, which is neither item nor the tie value {tie!r}.")
    k = len(index)
    if k < 2:
        raise InsufficientDataError(f"{func} needs comparisons between at least two items; "
                                    f"found {k}.")
    key = (fa * k + fb) * 3 + outcome
    counts = np.bincount(key, minlength=k * k * 3).reshape(k * k, 3)
    seen = np.flatnonzero(counts.sum(axis=1))
    cells = np.column_stack([seen // k, seen % k, counts[seen]]).astype(np.int64)
    return list(index), cells


def _is(z: Any, tie: Any) -> bool:
    try:
        return bool(z == tie)
    except (TypeError, ValueError):
        return False


def _not_connected(cells: NDArray[np.int64], k: int) -> str | None:
    i, j, wi, wj, t = cells.T
    src = np.concatenate([i, j])
    dst = np.concatenate([j, i])
    beat = np.concatenate([wi + t, wj + t]) > 0  # src beat (or tied) dst
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    graph = csr_matrix((np.ones(int(beat.sum())), (src[beat], dst[beat])), shape=(k, k))
    n, _ = connected_components(graph, directed=True, connection="strong")
    if n == 1:
        return None
    return ("the items do not all beat (or tie) one another through some chain of "
            "comparisons, so some strength is infinite (Ford 1957)")


def _design(cells: NDArray[np.int64], k: int, order: bool, ties: bool) -> FloatArray:
    """Per cell the three linear predictors (first, second, tie) as rows over the parameters:
    theta_1..theta_{k-1} (theta_0 = 0), then h, then log nu."""
    p = k - 1 + int(order) + int(ties)
    m = np.zeros((cells.shape[0], 3, p))
    rows = np.arange(cells.shape[0])
    for col, item in ((0, cells[:, 0]), (1, cells[:, 1])):
        ok = item > 0
        m[rows[ok], col, item[ok] - 1] = 1.0
    if order:
        m[:, 0, k - 1] = 1.0
    if ties:
        m[:, 2] = 0.5 * (m[:, 0] + m[:, 1])
        m[:, 2, p - 1] = 1.0
    return m


def _fit(cells: NDArray[np.int64], k: int, order: bool, ties: bool
         ) -> tuple[FloatArray, FloatArray, float]:
    m = _design(cells, k, order, ties)
    y = cells[:, 2:].astype(np.float64)
    if not ties:
        y = y[:, :2]
        m = m[:, :2]
    beta = np.zeros(m.shape[2])
    loglik = _loglik(m, y, beta)
    for _ in range(200):
        grad, info = _derivatives(m, y, beta)
        step = np.linalg.lstsq(info, grad, rcond=None)[0]
        t = 1.0
        while t > 1e-10:
            trial = _loglik(m, y, beta + t * step)
            if trial >= loglik - 1e-12 * abs(loglik):
                break
            t /= 2
        beta, loglik = beta + t * step, _loglik(m, y, beta + t * step)
        if np.max(np.abs(t * step)) < 1e-13 * (1.0 + np.max(np.abs(beta))):
            break
    _, info = _derivatives(m, y, beta)
    if np.linalg.matrix_rank(info) < info.shape[0]:
        return beta, np.full(info.shape, np.nan), loglik
    return beta, np.asarray(np.linalg.inv(info), dtype=np.float64), loglik


def _probabilities(m: FloatArray, beta: FloatArray) -> FloatArray:
    eta = m @ beta
    eta -= eta.max(axis=1, keepdims=True)
    e = np.exp(eta)
    out: FloatArray = e / e.sum(axis=1, keepdims=True)
    return out


def _loglik(m: FloatArray, y: FloatArray, beta: FloatArray) -> float:
    eta = m @ beta
    top = eta.max(axis=1, keepdims=True)
    log_p = eta - top - np.log(np.exp(eta - top).sum(axis=1, keepdims=True))
    return float(np.sum(y * log_p))


def _derivatives(m: FloatArray, y: FloatArray, beta: FloatArray) -> tuple[FloatArray, FloatArray]:
    p = _probabilities(m, beta)
    n = y.sum(axis=1)
    grad = np.einsum("cap,ca->p", m, y - n[:, None] * p)
    mean = np.einsum("cap,ca->cp", m, p)
    second = np.einsum("cap,caq,ca->cpq", m, m, p)
    info = np.einsum("c,cpq->pq", n, second - mean[:, :, None] * mean[:, None, :])
    return grad, info


def _result(items: list[Any], beta: FloatArray, cov: FloatArray, loglik: float, order: bool,
            n_ties: int, n: int, boot: _Refits) -> BradleyTerryResult:
    k = len(items)
    full = np.zeros((k, beta.size + 1))  # theta (with theta_0 = 0) as a map of beta
    full[np.arange(1, k), np.arange(k - 1)] = 1.0
    centre = np.eye(k) - 1.0 / k
    lin = (centre @ full)[:, : beta.size]
    theta = lin @ beta
    theta_cov = lin @ cov @ lin.T
    strength = {it: _figure("bt_strength", float(theta[i]), math.sqrt(theta_cov[i, i]), n, k,
                            {"item": it}, boot=partial(boot.resampling, i))
                for i, it in enumerate(items)}
    h = _figure("order_effect", float(beta[k - 1]), math.sqrt(cov[k - 1, k - 1]), n, k,
                {"odds_ratio": math.exp(beta[k - 1])},
                boot=partial(boot.resampling, k)) if order else None
    nu = None
    if n_ties:
        j = beta.size - 1
        value = math.exp(beta[j])
        nu = _figure("davidson_nu", value, value * math.sqrt(cov[j, j]), n, k,
                     {"log_nu": float(beta[j]), "log_nu_se": math.sqrt(cov[j, j])},
                     bounds=(0.0, math.inf), boot=partial(boot.resampling, k + 1))
    return BradleyTerryResult(MappingProxyType(strength), h, nu, n, n_ties, loglik)


def _figure(name: str, est: float, se: float, n: int, k: int, details: Mapping[str, Any],
            bounds: tuple[float, float] = (-math.inf, math.inf),
            boot: Callable[[], Resampling] | None = None) -> AgreementResult:
    return AgreementResult(coefficient=name, estimate=est, observed=math.nan,
                           expected=math.nan, se=se, n_units=n, n_raters=k,
                           details={**details, "se_method": "Fisher information",
                                    "bootstrap_note": BOOTSTRAP_NOTE},
                           bounds=bounds, resampling=boot, terms=("", ""))


def _scaled(r: AgreementResult, k: float, base: float, name: str) -> AgreementResult:
    return AgreementResult(coefficient=name, estimate=base + k * r.estimate, observed=math.nan,
                           expected=math.nan, se=k * r.se, n_units=r.n_units,
                           n_raters=r.n_raters, undefined_reason=r.undefined_reason,
                           terms=("", ""),
                           details={**r.details, "scale": k * math.log(10.0), "base": base},
                           resampling=None if r.resampling is None else partial(
                               _rescaled, r.resampling, k, base))


def _rescaled(resampling: Callable[[], Resampling], k: float, base: float) -> Resampling:
    inner = resampling()
    return Resampling(inner.features, inner.counts,
                      lambda sums: base + k * inner.statistic(sums))


def _undefined(items: list[Any], reason: str, order: bool, n_ties: int, n: int
               ) -> BradleyTerryResult:
    def nan(name: str) -> AgreementResult:
        return AgreementResult(coefficient=name, estimate=math.nan, observed=math.nan,
                               expected=math.nan, se=math.nan, n_units=n,
                               n_raters=len(items), undefined_reason=reason, terms=("", ""))
    strength = {it: nan("bt_strength") for it in items}
    return BradleyTerryResult(MappingProxyType(strength), nan("order_effect") if order else None,
                              nan("davidson_nu") if n_ties else None, n, n_ties, math.nan)
