"""Bangdiwala's B: the agreement chart's share of agreeing area (two raters).

Notation of Shankar & Bangdiwala (2014): ``p_kl = n_kl / n``, marginals ``p_k+`` and
``p_+k``;

    B = sum_k p_kk^2 / sum_k p_k+ p_+k,

the total area of the black squares (sides ``n_kk``) of Bangdiwala's (1985)
agreement chart over the area of the rectangles (sides ``n_k+`` and ``n_+k``). Its SE
is the delta method on the cell proportions, ``var = sum_kl p_kl g_kl^2 / n`` with
``g_kl = (2 p_kk [k = l] - B (p_+k + p_l+)) / sum_k p_k+ p_+k``, which is the SE of
R irrCAC's ``bangdiwala.table`` (Gwet's form of the same variance).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_table
from accord.coefficients._registry import register
from accord.coefficients._two_rater_core import _empty_reason, _root, _whole
from accord.data import _validation as v
from accord.errors import DataError
from accord.inference.resampling import Resampling
from accord.inference.results import AgreementResult
from accord.tables.contingency import DENSE_LIMIT, ContingencyTable

__all__ = ["bangdiwala_b"]

Arr = NDArray[np.float64]
_FUNC = "bangdiwala_b"


@register(_FUNC, title="Bangdiwala's B", family="two_raters", chance_corrected=False,
          bounds=(0.0, 1.0), levels=("nominal", "ordinal"),
          citation="Bangdiwala, S. I. (1985). A graphical test for observer agreement. "
          "Proceedings of the 45th Session of the International Statistical Institute, 307-308; "
          "Shankar, V. & Bangdiwala, S. I. (2014). Observer agreement paradoxes in 2x2 tables. "
          "BMC Medical Research Methodology 14, 100.")
def bangdiwala_b(data: Any, y2: Any = None, /, *, categories: Sequence[Any] | None = None,
                 raters: Sequence[Any] | None = None) -> AgreementResult:
    """Bangdiwala's B for two raters: ``sum_k p_kk^2 / sum_k p_k+ p_+k``.

    The share of the agreement chart's rectangles (one per category, sides the two
    raters' marginal counts) covered by the squares of exact agreement. 1 means perfect
    agreement; it is not corrected for chance. ``observed`` is ``sum p_kk^2`` and
    ``expected`` ``sum p_k+ p_+k``; ``se`` is the delta-method SE (R irrCAC
    ``bangdiwala.table``). Undefined when no category is used by both raters.

    Examples
    --------
    irrCAC README, ``bangdiwala.table(cont3x3abstractors)``: 0.8059604, SE 0.05449465.

    >>> import accord
    >>> t = accord.ContingencyTable([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    >>> res = accord.bangdiwala_b(t)
    >>> round(res.estimate, 7), round(res.se, 8)
    (0.8059604, 0.05449465)
    """
    table = as_table(data, y2, categories=categories, raters=raters, func=_FUNC)
    if table.k > DENSE_LIMIT:
        raise DataError(f"{_FUNC} needs a dense table; the data have {table.k} categories "
                        f"(at most {DENSE_LIMIT}).")
    counts = np.asarray(table.counts, dtype=np.float64)
    p = counts / max(float(counts.sum()), 1.0)
    r, c, d = p.sum(axis=1), p.sum(axis=0), np.diag(p)
    b1, b2 = float(d @ d), float(r @ c)
    est, se, why = math.nan, math.nan, _empty_reason(table)
    if why is None and b2 <= 0:
        why = "no category is used by both raters, so B is 0/0"
    if why:
        v.warn_undefined(_FUNC, why)
        b1 = b2 = math.nan
    else:
        est = b1 / b2
        g = -est * (c[:, None] + r[None, :])
        g[np.diag_indices_from(g)] += 2.0 * d
        se = _root(float(np.sum(p * (g / b2) ** 2)) / table.n) if _whole(table) else math.nan
    return AgreementResult(
        coefficient=_FUNC, estimate=est, observed=b1, expected=b2, se=se,
        n_units=int(round(table.n)), n_raters=2, undefined_reason=why,
        details={"se_method": "delta"}, bounds=(0.0, 1.0),
        resampling=_resampler(table) if _whole(table) and table.n > 0 else None)


def _resampler(table: ContingencyTable) -> Callable[[], Resampling]:
    def make() -> Resampling:
        k = table.k
        flat = np.flatnonzero(table.counts.reshape(-1) > 0)
        i, j = flat // k, flat % k
        feats = np.zeros((flat.size, 3 * k + 1))
        rows = np.arange(flat.size)
        on_diag = i == j
        feats[rows[on_diag], i[on_diag]] = 1.0
        feats[rows, k + i] = 1.0
        feats[rows, 2 * k + j] = 1.0
        feats[:, -1] = 1.0
        patterns = None
        cells = table.unit_cells
        if cells is not None and table.unit_weights is None:
            lookup = np.full(k * k, -1, dtype=np.int64)
            lookup[flat] = np.arange(flat.size)
            patterns = lookup[cells]

        def statistic(s: Arr) -> Arr:
            n = s[:, -1:]
            d, r, c = s[:, :k] / n, s[:, k:2 * k] / n, s[:, 2 * k:3 * k] / n
            return np.sum(d * d, axis=1) / np.sum(r * c, axis=1)

        n_per = np.rint(table.counts.reshape(-1)[flat]).astype(np.int64)
        return Resampling(features=feats, counts=n_per, statistic=statistic,
                          unit_patterns=patterns,
                          unit_ids=None if table.unit_weights is not None else table.unit_ids)

    return make
