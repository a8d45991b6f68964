"""Coefficients computed from rater counts, with Gwet's (2014) variances.

Notation (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5;
R irrCAC ``*.raw`` / ``*.dist``): ``n`` units rated at least once, ``q``
categories, ``x_ik`` raters putting unit ``i`` in category ``k``,
``r_i = sum_k x_ik``, agreement weights ``w_kl`` and weighted counts
``x*_ik = sum_l w_kl x_il``. With ``n'`` the number of units rated at least twice,

* ``p_a = (1/n') sum_{i: r_i >= 2} sum_k x_ik (x*_ik - 1) / (r_i (r_i - 1))``
  (units with fewer than two ratings leave p_a),
* ``pi_k = (1/n) sum_i x_ik / r_i`` (chance terms use every rating),
* Fleiss: ``p_e = sum_kl w_kl pi_k pi_l``; Gwet's AC1/AC2:
  ``p_e = T_w / (q (q - 1)) sum_k pi_k (1 - pi_k)`` with ``T_w = sum_kl w_kl``;
  Brennan-Prediger: ``p_e = T_w / q^2``; percent agreement: ``p_a`` itself.

The variance is Gwet's linearisation over units,
``v = 1 / (n (n - 1)) sum_i (c*_i - c)^2`` with
``c_i = (n / n') (p_a,i - p_e [r_i >= 2]) / (1 - p_e)`` and, for Fleiss and
Gwet, ``c*_i = c_i - 2 (1 - c) (p_e,i - p_e) / (1 - p_e)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._chance import chance_corrected, pooled_p_e
from accord.errors import BudgetError
from accord.inference.resampling import Resampling
from accord.tables.rater_counts import DENSE_BUDGET, RaterCounts

CountChance = Literal["fleiss", "gwet", "bp", "none"]
Arr = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class CountTerms:
    """Per-unit terms of the count-based coefficients (units rated at least once)."""

    x: Arr
    r: Arr
    two: NDArray[np.bool_]
    pa_i: Arr
    pi: Arr
    w: Arr | None

    @property
    def n(self) -> int:
        """Units rated at least once."""
        return int(self.x.shape[0])

    @property
    def n2(self) -> int:
        """Units rated at least twice (those in p_a)."""
        return int(np.count_nonzero(self.two))

    @property
    def q(self) -> int:
        """Number of categories."""
        return int(self.x.shape[1])

    @property
    def p_a(self) -> float:
        """Observed agreement."""
        return float(self.pa_i.sum() / self.n2) if self.n2 else math.nan


def terms(x: Any, w: Arr | None) -> CountTerms:
    """The per-unit terms of a counts matrix whose rows all have at least one rating.

    ``x`` may be a scipy sparse matrix (:attr:`RaterCounts.matrix` of a crowd with
    thousands of labels): unweighted, the terms are then computed on its stored cells,
    in memory linear in the ratings, and ``CountTerms.x`` stays sparse."""
    if hasattr(x, "tocsr"):
        if w is not None:  # weights are dense q x q already (at most a few thousand)
            return terms(x.toarray(), w)
        return _sparse_terms(x.tocsr())
    xf = np.asarray(x, dtype=np.float64)
    n, q = xf.shape
    r = xf @ np.ones(q)
    xw = xf if w is None else xf @ w.T
    two = r >= 2
    with np.errstate(divide="ignore", invalid="ignore"):
        pa_i = np.where(two, (np.einsum("ik,ik->i", xf, xw) - r) / (r * (r - 1.0)), 0.0)
        pi = (xf.T @ (1.0 / r)) / n if n else np.zeros(q)
    return CountTerms(xf, r, two, pa_i, pi, w)


def _sparse_terms(x: Any) -> CountTerms:
    """:func:`terms` of a CSR matrix, unweighted (``x*_ik = x_ik``)."""
    xf = x.astype(np.float64)
    n, q = xf.shape
    r = np.asarray(xf.sum(axis=1), dtype=np.float64).ravel()
    two = r >= 2
    same = np.asarray(xf.multiply(xf).sum(axis=1), dtype=np.float64).ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        pa_i = np.where(two, (same - r) / (r * (r - 1.0)), 0.0)
        pi = np.asarray(xf.T @ (1.0 / r), dtype=np.float64) / n if n else np.zeros(q)
    return CountTerms(xf, r, two, pa_i, pi, None)


def p_e(kind: CountChance, pi: Arr, w: Arr | None, q: int) -> Arr:
    """Chance agreement for each row of category proportions ``pi`` (shape (B, q))."""
    return pooled_p_e(kind, pi, w, q)


def estimate(kind: CountChance, t: CountTerms) -> tuple[float, float, float]:
    """The coefficient, p_a and p_e (``nan`` estimate when p_e = 1)."""
    pa = t.p_a
    if kind == "none":
        return pa, pa, math.nan
    pe = float(p_e(kind, t.pi[None, :], t.w, t.q)[0])
    est = float(chance_corrected(np.array([pa]), np.array([pe]))[0])
    return est, pa, pe


def gwet_se(kind: CountChance, t: CountTerms, est: float, pe: float) -> float:
    """Gwet's (2014) design-based standard error over units (irrCAC ``*.raw``, N = inf)."""
    n, n2 = t.n, t.n2
    if n < 2 or not math.isfinite(est):
        return math.nan
    scale = n / n2
    if kind == "none":
        dev = scale * t.pa_i - est
    else:
        c_i = scale * (t.pa_i - pe * t.two) / (1.0 - pe)
        if kind != "bp":
            c_i = c_i - 2.0 * (1.0 - est) * (_unit_pe(kind, t) - pe) / (1.0 - pe)
        dev = c_i - est
    return math.sqrt(float(np.sum(dev**2)) / (n * (n - 1.0)))


def _unit_pe(kind: CountChance, t: CountTerms) -> Arr:
    """Each unit's contribution ``p_e,i`` to chance agreement."""
    if kind == "fleiss":
        pbw = t.pi if t.w is None else (t.w @ t.pi + t.w.T @ t.pi) / 2.0
        return np.asarray((t.x @ pbw) / t.r, dtype=np.float64)
    total_w = float(t.q) if t.w is None else float(t.w.sum())
    return np.asarray(total_w / (t.q * (t.q - 1.0)) * (t.x @ (1.0 - t.pi)) / t.r, dtype=np.float64)


def resampling(rc: RaterCounts, w: Arr | None, kind: CountChance) -> Resampling:
    """Resampling over units: patterns are the distinct count rows.

    Features of a pattern: ``[1, [r >= 2], p_a,i, x_i / r_i]``; the statistic is the
    coefficient of the summed features (``p_a`` = third / second, ``pi`` = rest / first).
    """
    if rc.is_sparse and rc.n_units * rc.n_categories > DENSE_BUDGET:
        raise BudgetError(
            f"resampling these counts needs a features table of units x categories "
            f"({rc.n_units:,} x {rc.n_categories:,}), past the budget of {DENSE_BUDGET:,} "
            "cells; the asymptotic interval (Gwet's SE) needs no resampling, or merge rare "
            "labels into fewer categories.")
    rows, counts, inverse = rc.patterns()
    t = terms(rows, w)
    feats = np.column_stack([np.ones(t.n), t.two.astype(np.float64), t.pa_i, t.x / t.r[:, None]])
    q = t.q

    def statistic(s: Arr) -> Arr:
        pa = s[:, 2] / s[:, 1]
        if kind == "none":
            return pa
        pi = s[:, 3:] / s[:, :1]
        return chance_corrected(pa, p_e(kind, pi, w, q))

    return Resampling(features=feats, counts=counts, statistic=statistic,
                      unit_patterns=inverse, unit_ids=rc.unit_ids)


# --------------------------------------------------------------------------- unanimous
def unanimous(x: NDArray[np.integer],
              tolerance: float) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Units rated at least twice, and whether all their ratings lie within ``tolerance``."""
    used = np.asarray(x) > 0
    q = used.shape[1]
    first = np.argmax(used, axis=1)
    last = q - 1 - np.argmax(used[:, ::-1], axis=1)
    two = np.asarray(x).sum(axis=1) >= 2
    return two, two & (last - first <= tolerance)


def unanimous_resampling(rc: RaterCounts, tolerance: float) -> Resampling:
    """Resampling of the unanimous share: features ``[r >= 2, unanimous]``."""
    rows, counts, inverse = rc.patterns()
    two, agree = unanimous(rows, tolerance)
    feats = np.column_stack([two, agree]).astype(np.float64)

    def statistic(s: Arr) -> Arr:
        return np.asarray(s[:, 1] / s[:, 0], dtype=np.float64)

    return Resampling(features=feats, counts=counts, statistic=statistic,
                      unit_patterns=inverse, unit_ids=rc.unit_ids)


# --------------------------------------------------------------------------- Fleiss extras
def fleiss_null_se(t: CountTerms) -> float:
    """Fleiss, Nee & Landis (1979) SE of unweighted Fleiss' kappa under kappa = 0.

    ``var0 = 2 / ((sum_j p_j q_j)^2 n m (m - 1)) * ((sum_j p_j q_j)^2 - sum_j p_j q_j (q_j - p_j))``
    with ``m`` ratings on every unit; ``nan`` when units have different numbers of ratings.
    """
    m = constant_m(t)
    if m is None:
        return math.nan
    p = t.x.sum(axis=0) / (t.n * m)
    pq = p * (1.0 - p)
    s = float(pq.sum())
    if s <= 0:
        return math.nan
    var = 2.0 / (s**2 * t.n * m * (m - 1.0)) * (s**2 - float(np.sum(pq * (1.0 - 2.0 * p))))
    return math.sqrt(max(var, 0.0))


def constant_m(t: CountTerms) -> float | None:
    m = float(t.r[0]) if t.n else 0.0
    return m if m >= 2 and bool(np.all(t.r == m)) else None


def fleiss_per_category(t: CountTerms) -> dict[int, dict[str, float]]:
    """Fleiss (1971) kappa of each category against the rest, with its SEs and z.

    ``kappa_j`` is Fleiss' kappa of the two-category table (j, not j), which with
    ``m`` ratings per unit is ``1 - sum_i x_ij (m - x_ij) / (n m (m - 1) p_j q_j)``;
    ``se0 = sqrt(2 / (n m (m - 1)))`` (its SE under kappa_j = 0, Fleiss 1971),
    ``z = kappa_j / se0`` with its two-sided normal ``pvalue`` (R ``irr::kappam.fleiss(x,
    detail = TRUE)``), and ``se`` is Gwet's design-based SE of kappa_j. All
    categories at once: every array below is units x categories.
    """
    m = constant_m(t)
    se0 = math.sqrt(2.0 / (t.n * m * (m - 1.0))) if m is not None else math.nan
    n, n2 = t.n, t.n2
    # a unit's disagreeing pairs on (j, not j): x (r - x) of r (r - 1) / 2 pairs
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(t.two, 2.0 / (t.r * (t.r - 1.0)), 0.0)
        u = t.x / t.r[:, None]
    dis = t.x * (t.r[:, None] - t.x)
    dis *= a[:, None]  # 1 - p_a,ij on units rated at least twice
    pa = 1.0 - dis.sum(axis=0) / n2
    pi = t.pi
    pe = pi**2 + (1.0 - pi) ** 2
    kappa = chance_corrected(pa, pe)
    with np.errstate(divide="ignore", invalid="ignore"):
        # c_ij - kappa_j = (n/n') ([r_i >= 2] (1 - pe_j) - dis_ij) / (1 - pe_j)
        #                  - 2 (1 - kappa_j) (pe_ij - pe_j) / (1 - pe_j) - kappa_j,
        # with pe_ij = (1 - pi_j) + u_ij (2 pi_j - 1)
        scale = (n / n2) / (1.0 - pe)
        slope = -2.0 * (1.0 - kappa) * (2.0 * pi - 1.0) / (1.0 - pe)
        const = -2.0 * (1.0 - kappa) * (1.0 - pi - pe) / (1.0 - pe) - kappa
        dev = dis
        dev *= -scale
        u *= slope
        dev += u
        dev += const
        dev += (n / n2) * t.two[:, None]
        se = np.sqrt(np.einsum("ij,ij->j", dev, dev) / (n * (n - 1.0)))
    se[~np.isfinite(kappa)] = np.nan
    out: dict[int, dict[str, float]] = {}
    for j in range(t.q):
        z = kappa[j] / se0 if math.isfinite(kappa[j]) and math.isfinite(se0) else math.nan
        p = math.erfc(abs(z) / math.sqrt(2.0)) if math.isfinite(z) else math.nan
        out[j] = {"kappa": float(kappa[j]), "se0": se0, "z": float(z), "pvalue": p,
                  "se": float(se[j])}
    return out


def unit_pair_agreement(x: NDArray[np.integer]) -> Arr:
    """Share of agreeing rater pairs on each unit, ``sum_k x_k (x_k - 1) / (r (r - 1))``."""
    xf = np.asarray(x, dtype=np.float64)
    r = xf.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sum(xf * (xf - 1.0), axis=1) / (r * (r - 1.0))
    return np.asarray(np.where(r >= 2, out, np.nan), dtype=np.float64)


def describe(kind: CountChance) -> dict[str, Any]:
    """The formula labels recorded in ``details``."""
    return {"missing": "gwet_2014", "chance": kind}
