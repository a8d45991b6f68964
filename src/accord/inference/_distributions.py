"""Quantiles and tails of the t, F and chi-squared distributions and the binomial CDF from
``scipy.special``, the functions ``scipy.stats.t``, ``f``, ``chi2`` and ``binom`` call
(``stdtrit``, ``fdtri``, ``fdtrc``, ``chdtrc``, ``_binom_cdf``), so a
coefficient's first call does not import ``scipy.stats`` (about twice the import time of
``scipy.special``). Inside the support the values are bit for bit scipy.stats'; at its
edges (a probability of 0 or 1, an infinite or negative statistic, degrees of freedom
that are not positive) these defer to scipy.stats, whose generic checks decide them.
Like scipy.stats on a scalar, they return a numpy float64 (so a division by a quantile
of 0 follows numpy's rules, not Python's).
"""

from __future__ import annotations

import math

__all__ = ["binom_cdf", "chi2_sf", "f_ppf", "f_sf", "t_ppf"]


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


def chi2_sf(x: float, df: float) -> float:
    """``scipy.stats.chi2.sf(x, df)``.

    For whole ``df`` up to ``SERIES_DF`` (every test of marginal homogeneity, symmetry and
    homogeneity of kappas here), the finite series of Abramowitz & Stegun (1964) 26.4.4
    (even ``df``) and 26.4.5 (odd ``df``), summed in logarithms: the same value as
    scipy's ``chdtrc`` to about ``df`` ulps, without importing scipy.special (whose
    import is longer than a small report's work). Other ``df`` go through scipy.
    """
    if math.isfinite(x) and x > 0 and float(df).is_integer() and 1 <= df <= SERIES_DF:
        return _chi2_sf_series(float(x), int(df))
    if math.isfinite(x) and x > 0 and _inner(df):
        from scipy.special import chdtrc

        return chdtrc(df, x)
    from scipy import stats

    return stats.chi2.sf(x, df)


SERIES_DF = 2000


def _chi2_sf_series(x: float, df: int) -> float:
    y = 0.5 * x
    if df % 2 == 0:  # 26.4.4: exp(-y) sum_{r < df/2} y^r / r!
        terms = [math.exp(-y + r * math.log(y) - math.lgamma(r + 1)) for r in range(df // 2)]
        return min(1.0, math.fsum(terms))
    # 26.4.5: 2 Q(chi) + 2 Z(chi) sum_{r=1}^{(df-1)/2} chi^(2r-1) / (1 * 3 * ... * (2r-1))
    chi = math.sqrt(x)
    log_z = -y - 0.5 * math.log(2.0 * math.pi)
    terms = [math.exp(log_z + (2 * r - 1) * math.log(chi)
                      - (math.lgamma(2 * r + 1) - r * math.log(2.0) - math.lgamma(r + 1)))
             for r in range(1, (df - 1) // 2 + 1)]
    return min(1.0, math.erfc(chi / math.sqrt(2.0)) + 2.0 * math.fsum(terms))


def binom_cdf(k: float, n: float, p: float) -> float:
    """``scipy.stats.binom.cdf(k, n, p)`` for whole ``0 <= k <= n`` and ``0 < p < 1``.

    scipy.stats calls Boost's binomial CDF, which scipy.special holds as the private
    ``_binom_cdf`` (scipy 1.12 on); a scipy without it, or an argument at the edges,
    goes through scipy.stats."""
    if 0 <= k <= n and float(k).is_integer() and 0.0 < p < 1.0:
        try:
            from scipy.special._ufuncs import _binom_cdf
        except ImportError:  # pragma: no cover - an older scipy
            pass
        else:
            return _binom_cdf(float(k), float(n), float(p))
    from scipy import stats

    return stats.binom.cdf(k, n, p)
