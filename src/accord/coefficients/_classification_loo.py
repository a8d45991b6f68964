"""Leave-one-unit-out values of the classification averages and MCC, in closed form.

The jackknife SE of a figure of the confusion matrix needs the figure with one unit of
each non-empty cell ``(i, j)`` left out. Evaluated on the summed features
``[n, n_cc, n_c+, n_+c]`` (:mod:`accord.coefficients._classification_core`) that is
O(cells x k); but leaving out a unit of ``(i, j)`` takes one from ``n``, ``n_i+`` and
``n_+j`` (and ``n_ii`` when ``i = j``) and nothing else, so every figure here is its
sums over classes at ``n - 1``, corrected for classes ``i`` and ``j`` alone: O(cells +
k). The values equal the direct ones up to the order of the floating-point sums.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

Arr = NDArray[np.float64]
IntArray = NDArray[np.int64]
#: A per-class figure of ``(n, n_cc, n_c+, n_+c)``: shapes ``(B,)``, ``(B, k)`` x 3.
ClassFigure = Callable[[Arr, Arr, Arr, Arr], Arr]


def _parts(k: int, sums: Arr, flat: IntArray) -> tuple[float, Arr, Arr, Arr, IntArray,
                                                        IntArray, Arr]:
    n = float(sums[0])
    d, r, c = sums[1 : 1 + k], sums[1 + k : 1 + 2 * k], sums[1 + 2 * k :]
    i, j = flat // k, flat % k
    return n, d, r, c, i, j, (i == j).astype(np.float64)


def averaged(figure: ClassFigure, average: str, k: int, sums: Arr, flat: IntArray) -> Arr:
    """The macro or weighted average of ``figure`` (``_classification_core.averaged``) with
    one unit of each cell left out, shape ``(cells,)``."""
    n, d, r, c, i, j, same = _parts(k, sums, flat)
    n1 = np.array([n - 1.0])
    totals = [t.sum(axis=1) for t in _terms(figure, average, n1, d[None], r[None], c[None])]
    m1 = np.full(i.shape[0], n - 1.0)

    def change(at: IntArray, dd: Arr, dr: Arr, dc: Arr) -> list[Arr]:
        da, ra, ca = d[at][:, None], r[at][:, None], c[at][:, None]
        new = _terms(figure, average, m1, da - dd[:, None], ra - dr[:, None], ca - dc[:, None])
        old = _terms(figure, average, m1, da, ra, ca)
        return [(a - b)[:, 0] for a, b in zip(new, old)]

    on_i = change(i, same, np.ones_like(same), same)
    on_j = change(j, np.zeros_like(same), np.zeros_like(same), 1.0 - same)
    w_num, w_den, p_num, p_den = (t + a + b for t, a, b in zip(totals, on_i, on_j))
    weighted = w_den > 0  # else the plain mean, as scikit-learn's _nanaverage
    num, den = np.where(weighted, w_num, p_num), np.where(weighted, w_den, p_den)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(den > 0, num / den, np.nan))


def _terms(figure: ClassFigure, average: str, n: Arr, d: Arr, r: Arr, c: Arr) -> list[Arr]:
    """Per class: the weighted and the plain numerator and denominator of the average
    (classes whose figure is undefined are left out)."""
    vals = figure(n, d, r, c)
    ok = np.isfinite(vals)
    plain = ok.astype(np.float64)
    w = plain if average == "macro" else np.where(ok, r, 0.0)
    kept = np.where(ok, vals, 0.0)
    return [kept * w, w, kept, plain]


def micro_specificity(k: int, sums: Arr, flat: IntArray) -> Arr:
    """``(k n - 2 n + sum_c n_cc) / ((k - 1) n)`` with one unit of each cell left out."""
    n, d, _, _, _, _, same = _parts(k, sums, flat)
    n1 = n - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray((k * n1 - 2.0 * n1 + (d.sum() - same)) / ((k - 1.0) * n1))


def mcc(k: int, sums: Arr, flat: IntArray) -> Arr:
    """Gorodkin's ``R_K`` (``_classification_core.mcc_stat``) with one unit of each cell
    left out: ``sum_c n_c+ n_+c`` loses ``n_+i + n_j+ - [i = j]``, ``sum_c n_+c^2`` loses
    ``2 n_+j - 1`` and ``sum_c n_c+^2`` loses ``2 n_i+ - 1``."""
    n, d, r, c, i, j, same = _parts(k, sums, flat)
    n1 = n - 1.0
    cov = n1 * (d.sum() - same) - (np.sum(r * c) - c[i] - r[j] + same)
    den = ((n1**2 - (np.sum(c**2) - 2.0 * c[j] + 1.0))
           * (n1**2 - (np.sum(r**2) - 2.0 * r[i] + 1.0)))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(den > 0, cov / np.sqrt(np.maximum(den, 0.0)), np.nan))
