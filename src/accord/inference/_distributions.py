"""Quantiles and tails of the t and F distributions from ``scipy.special``, the functions
``scipy.stats.t`` and ``scipy.stats.f`` call (``stdtrit``, ``fdtri``, ``fdtrc``), so a
coefficient's first call does not import ``scipy.stats`` (about twice the import time of
``scipy.special``). Inside the support the values are bit for bit scipy.stats'; at its
edges (a probability of 0 or 1, an infinite or negative statistic, degrees of freedom
that are not positive) these defer to scipy.stats, whose generic checks decide them.
Like scipy.stats on a scalar, they return a numpy float64 (so a division by a quantile
of 0 follows numpy's rules, not Python's).
"""

from __future__ import annotations

import math

__all__ = ["f_ppf", "f_sf", "t_ppf"]


def _inner(*dfs: float) -> bool:
    return all(math.isfinite(d) and d > 0 for d in dfs)


def t_ppf(q: float, df: float) -> float:
    """``scipy.stats.t.ppf(q, df)``."""
    if 0.0 < q < 1.0 and _inner(df):
        from scipy.special import stdtrit

        return stdtrit(df, q)
    from scipy import stats

    return stats.t.ppf(q, df)


def f_ppf(q: float, dfn: float, dfd: float) -> float:
    """``scipy.stats.f.ppf(q, dfn, dfd)``."""
    if 0.0 < q < 1.0 and _inner(dfn, dfd):
        from scipy.special import fdtri

        return fdtri(dfn, dfd, q)
    from scipy import stats

    return stats.f.ppf(q, dfn, dfd)


def f_sf(x: float, dfn: float, dfd: float) -> float:
    """``scipy.stats.f.sf(x, dfn, dfd)``."""
    if math.isfinite(x) and x > 0 and _inner(dfn, dfd):
        from scipy.special import fdtrc

        return fdtrc(dfn, dfd, x)
    from scipy import stats

    return stats.f.sf(x, dfn, dfd)
