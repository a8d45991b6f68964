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

from accord.coefficients import _many_data as md
from accord.coefficients._chance import chance_corrected
from accord.coefficients._count_based import CountTerms
from accord.coefficients._many_data import LongCodes
from accord.inference.resampling import Resampling, row_patterns

Arr = NDArray[np.float64]
IntArray = NDArray[np.int64]


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


def conger_estimate(lc: LongCodes, t: CountTerms) -> tuple[float, float, float]:
    """Conger's kappa, p_a and p_e, from the raters' category counts (O(ratings))."""
    classif = lc.rater_category_counts()
    p = classif / classif.sum(axis=1, keepdims=True)
    pe = float(conger_pe(p[None], t.w)[0])
    pa = t.p_a
    return float(chance_corrected(np.array([pa]), np.array([pe]))[0]), pa, pe


def conger_se(lc: LongCodes, t: CountTerms, est: float, pe: float) -> float:
    """Gwet's (2014) SE of Conger's kappa (irrCAC ``conger.kappa.raw``), linearised over units.

    Each unit's chance term is ``p_e,i = sum_g lambda_ig / (r (r - 1))`` with
    ``lambda_ig = (n / n_g) (e_ig b_g,c_ig - (e_ig - n_g / n) d_g)``, where ``e_ig``
    marks a rating, ``c_ig`` its category, ``b_g = a_g W``, ``d_g = sum_k (W p_g)_k a_gk``
    and ``a_gk = r pbar_k - p_gk``. A rater who did not rate unit i adds ``d_g``, so
    ``sum_g lambda_ig = sum_g d_g + sum_{g rated i} (n / n_g) (b_g,c_ig - d_g)``: one
    ``bincount`` over the ratings, no units x raters array.
    """
    n, n2 = t.n, t.n2
    if n < 2 or not math.isfinite(est):
        return math.nan
    r = lc.n_raters
    w = np.eye(t.q) if t.w is None else t.w
    classif = lc.rater_category_counts()
    n_g = classif.sum(axis=1)
    p = classif / n_g[:, None]
    a = p.sum(axis=0)[None, :] - p
    b = a @ w
    d = np.sum((p @ w.T) * a, axis=1)
    lam_i = np.full(lc.n_units, float(d.sum()))
    step = md.RATINGS_STEP  # ratings at a time: the temporaries stay small on a crowd
    for s in range(0, lc.units.shape[0], step):
        g, k = lc.raters[s:s + step], lc.values[s:s + step]
        term = (n / n_g[g]) * (b[g, k] - d[g])
        lam_i += np.bincount(lc.units[s:s + step], weights=term, minlength=lc.n_units)
    pe_i = lam_i / (r * (r - 1.0))
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
    """Unweighted Cohen's kappa of every pair of columns of a small dense code matrix
    (pairs without common units: n = 0); :func:`light_irr_z` uses it on complete units."""
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


@dataclass(frozen=True)
class PairCohen:
    """Unweighted Cohen's kappa of the rater pairs sharing at least ``min_shared`` units,
    from per-pair tables of a sparse join on units (:mod:`accord.coefficients._pair_join`).

    ``a < b`` are rater codes; ``n_sharing`` pairs share at least one unit, ``n_possible``
    is ``r (r - 1) / 2``.
    """

    a: IntArray
    b: IntArray
    n: IntArray
    p_o: Arr
    p_e: Arr
    kappa: Arr
    n_sharing: int
    n_possible: int
    min_shared: int
    sharing: tuple[IntArray, IntArray] | None = None  # every sharing pair, when few


def pair_cohen(lc: LongCodes, min_shared: int) -> PairCohen:
    """Cohen's kappa of every pair of raters with at least ``min_shared`` shared units.

    Per pair, ``p_o = sum_k n_kk / n`` and ``p_e = sum_k n_k+ n_+k / n^2`` of its table,
    exactly as for two raters on the units both rated.
    """
    from accord.coefficients._pair_join import pair_tables, shared_units

    a, b, n = shared_units(lc.units, lc.raters, lc.n_units, lc.n_raters)
    n_sharing = int(a.shape[0])
    r = lc.n_raters
    sharing = (a, b) if r * (r - 1) // 2 <= LISTED_PAIRS else None
    keep = n >= min_shared
    a, b, n = a[keep], b[keep], n[keep]
    tables = pair_tables(lc.units, lc.raters, lc.values, lc.n_units, lc.n_raters, lc.q, a, b)
    diag = np.einsum("pkk->p", tables).astype(np.float64)
    nf = n.astype(np.float64)
    po = diag / nf
    pe = np.einsum("pk,pk->p", tables.sum(axis=2), tables.sum(axis=1)).astype(np.float64)
    pe = pe / nf**2
    return PairCohen(a, b, n, po, pe, chance_corrected(po, pe), n_sharing, r * (r - 1) // 2,
                     min_shared, sharing)


def complete_codes(lc: LongCodes) -> IntArray:
    """The units x raters codes of the units every rater rated (at most the ratings)."""
    sizes = np.bincount(lc.units, minlength=lc.n_units)
    full = np.flatnonzero(sizes == lc.n_raters)
    if full.size == 0:
        return np.zeros((0, lc.n_raters), dtype=np.int64)
    row = np.full(lc.n_units, -1, dtype=np.int64)
    row[full] = np.arange(full.size)
    keep = row[lc.units] >= 0
    out = np.full((full.size, lc.n_raters), -1, dtype=np.int64)
    out[row[lc.units[keep]], lc.raters[keep]] = lc.values[keep]
    return out


def light_irr_z(codes: IntArray, q: int) -> tuple[float, float]:
    """R ``irr::kappam.light``'s z and two-sided p-value, on the units every rater rated
    (irr's Light's kappa is the mean pairwise kappa on those units too); ``codes`` may
    hold those units only (:func:`complete_codes`).

    irr's chance term (after Light 1971): for each pair of raters, ``D = sum_{i != j}
    n_gi n_hj`` (how many ordered unit pairs could disagree), ``B = (number of pairs)
    prod D`` and ``P = 1 - B / n^(2 * pairs)``; ``var = P / (n (1 - P))``,
    ``z = kappa / sqrt(var)``. Computed in logarithms, where irr overflows to ``NaN``
    for large n.
    """
    complete = codes[(codes >= 0).all(axis=1)]
    n, r = complete.shape
    kappa = float(np.mean([p.kappa for p in pair_kappas(complete, q)])) if n else math.nan
    if not math.isfinite(kappa):
        return math.nan, math.nan
    counts = rater_category_counts(complete, q)
    log_b = math.log(r * (r - 1) / 2.0)
    for g, h in combinations(range(r), 2):
        dis = float(counts[g].sum() * counts[h].sum() - counts[g] @ counts[h])
        if dis <= 0:
            return math.nan, math.nan
        log_b += math.log(dis)
    ratio = math.exp(log_b - (r * (r - 1)) * math.log(n))
    chance = 1.0 - ratio
    if not 0.0 < chance < 1.0:
        return math.nan, math.nan
    z = kappa / math.sqrt(chance / (n * (1.0 - chance)))
    return z, math.erfc(abs(z) / math.sqrt(2.0))


LISTED_PAIRS = 10_000  # pairs named one by one in Light's details up to this many


def light_undefined(pc: PairCohen, names: tuple[Any, ...]) -> str | None:
    """Why Light's kappa is undefined (a pair's kappa is, or no pair is kept), or None."""
    bad = ~np.isfinite(pc.kappa)
    if bad.any():
        shown = [f"{names[a]!r} and {names[b]!r}" for a, b in zip(pc.a[bad][:3], pc.b[bad][:3])]
        more = " and more" if np.count_nonzero(bad) > 3 else ""
        return f"Cohen's kappa is undefined (p_e = 1) for the pair(s) {', '.join(shown)}{more}"
    if pc.a.shape[0] == 0:
        return f"no pair of raters shares at least {pc.min_shared} units"
    return None


def light_details(pc: PairCohen, names: tuple[Any, ...]) -> dict[str, Any]:
    """Light's details: the pairs averaged, and how many were left out and why."""
    kept = int(pc.a.shape[0])
    without = pc.n_possible - pc.n_sharing
    below = pc.n_sharing - kept
    details: dict[str, Any] = {"n_pairs": kept, "min_shared": pc.min_shared,
                               "n_pairs_left_out": without + below,
                               "n_pairs_without_common_units": without}
    if kept <= LISTED_PAIRS:
        details["pairs"] = {(names[a], names[b]): k for a, b, k in
                            zip(pc.a.tolist(), pc.b.tolist(), pc.kappa.tolist())}
    if pc.sharing is not None:
        r = len(names)
        sharing = np.zeros((r, r), dtype=bool)
        sharing[pc.sharing] = True
        details["pairs_without_common_units"] = [
            (names[g], names[h]) for g, h in combinations(range(r), 2) if not sharing[g, h]]
    if without + below:
        shared = f"at least {pc.min_shared} units" if pc.min_shared > 1 else "a unit"
        details["note"] = (
            f"the mean over the {kept:,} of {pc.n_possible:,} rater pairs that share {shared} "
            f"(Light 1971 averages every pair): {below:,} pair(s) share fewer units and "
            f"{without:,} share none.")
    return details
