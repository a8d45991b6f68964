"""Coefficients that need rater identity: Conger's kappa and Light's kappa.

Conger (1980) notation as in Gwet (2014, ch. 5) and R irrCAC
``conger.kappa.raw``: ``r`` raters, ``n_g`` units rated by rater ``g``,
``p_gk`` the share of rater ``g``'s ratings in category ``k``,
``pbar_k = (1/r) sum_g p_gk`` and
``s2_kl = (sum_g p_gk p_gl - r pbar_k pbar_l) / (r - 1)``; chance agreement is
``p_e = sum_kl w_kl (pbar_k pbar_l - s2_kl / r)``, i.e. the mean over ordered
pairs of raters ``g != h`` of ``sum_kl w_kl p_gk p_hl``. Observed agreement
``p_a`` is the one of :mod:`accord.coefficients._count_based`.

Light (1971): the mean of the Cohen's kappas of all pairs of raters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._chance import chance_corrected
from accord.coefficients._count_based import CountTerms
from accord.inference.resampling import Resampling, pattern_index

Arr = NDArray[np.float64]
IntArray = NDArray[np.int64]


def row_patterns(codes: IntArray, q: int) -> tuple[IntArray, IntArray, IntArray]:
    """Distinct rows of a code matrix (``-1`` = not rated), their counts and each row's index."""
    if codes.shape[0] == 0:
        return codes, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if codes.shape[1] * math.log2(q + 1) < 62:
        radix = (q + 1) ** np.arange(codes.shape[1], dtype=np.int64)
        keys = (codes + 1) @ radix
        _, first, inverse, counts = np.unique(
            keys, return_index=True, return_inverse=True, return_counts=True
        )
        return codes[first], counts.astype(np.int64), inverse.reshape(-1).astype(np.int64)
    rows, counts, inverse = pattern_index(codes)
    return np.asarray(rows, dtype=np.int64), counts, inverse


def rater_category_counts(codes: IntArray, q: int) -> Arr:
    """How often each rater used each category, shape (r, q)."""
    r = codes.shape[1]
    rated = codes >= 0
    flat = (np.nonzero(rated)[1] * q + codes[rated]).astype(np.int64)
    return np.bincount(flat, minlength=r * q).reshape(r, q).astype(np.float64)


# --------------------------------------------------------------------------- Conger
def conger_pe(p: Arr, w: Arr | None) -> Arr:
    """Conger's chance agreement for rater x category shares ``p`` of shape (B, r, q)."""
    r = p.shape[1]
    total = p.sum(axis=1)  # r * pbar
    if w is None:
        cross = np.einsum("bk,bk->b", total, total) - np.einsum("bgk,bgk->b", p, p)
    else:
        cross = np.einsum("bk,kl,bl->b", total, w, total) - np.einsum("bgk,kl,bgl->b", p, w, p)
    return np.asarray(cross / (r * (r - 1.0)), dtype=np.float64)


def conger_estimate(codes: IntArray, t: CountTerms) -> tuple[float, float, float]:
    """Conger's kappa, p_a and p_e."""
    classif = rater_category_counts(codes, t.q)
    p = classif / classif.sum(axis=1, keepdims=True)
    pe = float(conger_pe(p[None], t.w)[0])
    pa = t.p_a
    return float(chance_corrected(np.array([pa]), np.array([pe]))[0]), pa, pe


def conger_se(codes: IntArray, t: CountTerms, est: float, pe: float) -> float:
    """Gwet's (2014) SE of Conger's kappa (irrCAC ``conger.kappa.raw``), linearised over units.

    Each unit's chance term is ``p_e,i = sum_g lambda_ig / (r (r - 1))`` with
    ``lambda_ig = (n / n_g) (e_ig b_g,c_ig - (e_ig - n_g / n) d_g)``, where ``e_ig``
    marks a rating, ``c_ig`` its category, ``b_g = a_g W``, ``d_g = sum_k (W p_g)_k a_gk``
    and ``a_gk = r pbar_k - p_gk``.
    """
    n, n2 = t.n, t.n2
    if n < 2 or not math.isfinite(est):
        return math.nan
    r = codes.shape[1]
    w = np.eye(t.q) if t.w is None else t.w
    classif = rater_category_counts(codes, t.q)
    n_g = classif.sum(axis=1)
    p = classif / n_g[:, None]
    a = p.sum(axis=0)[None, :] - p
    b = a @ w
    d = np.sum((p @ w.T) * a, axis=1)
    rated = codes >= 0
    b_chosen = np.where(rated, np.take_along_axis(b.T, np.maximum(codes, 0), axis=0), 0.0)
    lam = (n / n_g)[None, :] * (b_chosen - (rated - (n_g / n)[None, :]) * d[None, :])
    pe_i = lam.sum(axis=1) / (r * (r - 1.0))
    c_i = (n / n2) * (t.pa_i - pe * t.two) / (1.0 - pe)
    c_i = c_i - 2.0 * (1.0 - est) * (pe_i - pe) / (1.0 - pe)
    return math.sqrt(float(np.sum((c_i - est) ** 2)) / (n * (n - 1.0)))


def conger_resampling(codes: IntArray, q: int, w: Arr | None,
                      unit_ids: tuple[Any, ...] | None) -> Resampling:
    """Resampling over units; a pattern is a unit's row of ratings.

    Features: ``[1, [r_i >= 2], p_a,i, one-hot rating of each rater (r * q), rated (r)]``.
    """
    from accord.coefficients._count_based import terms

    rows, counts, inverse = row_patterns(codes, q)
    m, r = rows.shape
    onehot = np.zeros((m, r, q))
    rated = rows >= 0
    ii, gg = np.nonzero(rated)
    onehot[ii, gg, rows[rated]] = 1.0
    t = terms(onehot.sum(axis=1), w)
    feats = np.column_stack([np.ones(m), t.two, t.pa_i, onehot.reshape(m, r * q), rated])

    def statistic(s: Arr) -> Arr:
        pa = s[:, 2] / s[:, 1]
        c = s[:, 3:3 + r * q].reshape(-1, r, q)
        p = c / s[:, 3 + r * q:][:, :, None]
        return chance_corrected(pa, conger_pe(p, w))

    return Resampling(features=feats.astype(np.float64), counts=counts, statistic=statistic,
                      unit_patterns=inverse, unit_ids=unit_ids)


# --------------------------------------------------------------------------- Light
@dataclass(frozen=True)
class PairKappa:
    """Cohen's kappa of one pair of raters on the units both rated."""

    pair: tuple[int, int]
    n: int
    p_o: float
    p_e: float
    kappa: float


def pair_kappas(codes: IntArray, q: int) -> list[PairKappa]:
    """Unweighted Cohen's kappa of every pair of raters (pairs without common units: n = 0)."""
    out = []
    for g, h in combinations(range(codes.shape[1]), 2):
        both = (codes[:, g] >= 0) & (codes[:, h] >= 0)
        n = int(both.sum())
        if n == 0:
            out.append(PairKappa((g, h), 0, math.nan, math.nan, math.nan))
            continue
        a, b = codes[both, g], codes[both, h]
        po = float(np.count_nonzero(a == b)) / n
        pe = float(np.bincount(a, minlength=q) @ np.bincount(b, minlength=q)) / n**2
        kap = float(chance_corrected(np.array([po]), np.array([pe]))[0])
        out.append(PairKappa((g, h), n, po, pe, kap))
    return out


def light_resampling(codes: IntArray, q: int, pairs: list[tuple[int, int]],
                     unit_ids: tuple[Any, ...] | None) -> Resampling:
    """Resampling of Light's kappa; per pair the features ``[both rated, agree, row, column]``."""
    rows, counts, inverse = row_patterns(codes, q)
    m = rows.shape[0]
    width = 2 + 2 * q
    feats = np.zeros((m, len(pairs) * width))
    for j, (g, h) in enumerate(pairs):
        both = (rows[:, g] >= 0) & (rows[:, h] >= 0)
        idx = np.flatnonzero(both)
        base = j * width
        feats[idx, base] = 1.0
        feats[idx, base + 1] = rows[idx, g] == rows[idx, h]
        feats[idx, base + 2 + rows[idx, g]] = 1.0
        feats[idx, base + 2 + q + rows[idx, h]] = 1.0

    def statistic(s: Arr) -> Arr:
        blocks = s.reshape(s.shape[0], len(pairs), width)
        n = blocks[:, :, 0]
        po = blocks[:, :, 1] / n
        pe = np.einsum("bpk,bpk->bp", blocks[:, :, 2:2 + q], blocks[:, :, 2 + q:]) / n**2
        kap = chance_corrected(po.ravel(), pe.ravel()).reshape(po.shape)
        return np.asarray(kap.mean(axis=1), dtype=np.float64)

    return Resampling(features=feats, counts=counts, statistic=statistic,
                      unit_patterns=inverse, unit_ids=unit_ids)
