"""The standard normal distribution without scipy.stats (whose import alone takes longer
than numpy's): ``ppf`` by Wichura's algorithm AS 241 (``statistics.NormalDist.inv_cdf``,
about 16 significant digits) and ``cdf``/``sf`` through ``math.erfc``, accurate in both
tails as scipy's ``ndtr`` is. Other distributions (t, F, chi-squared) import scipy.stats
inside the function that needs them.

Reference: Wichura, M. J. (1988). Algorithm AS 241: the percentage points of the normal
distribution. *Applied Statistics* 37(3), 477-484.
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["norm_cdf", "norm_ppf", "norm_sf"]

_STANDARD = NormalDist()


def norm_ppf(p: float) -> float:
    """The quantile of the standard normal at probability ``p`` (``scipy.stats.norm.ppf``):
    -inf at 0, inf at 1, nan outside [0, 1].

    >>> round(norm_ppf(0.975), 12)
    1.959963984540
    """
    p = float(p)
    if not 0.0 < p < 1.0:
        return -math.inf if p == 0.0 else math.inf if p == 1.0 else math.nan
    return _STANDARD.inv_cdf(p)


def norm_cdf(x: float) -> float:
    """``P(Z <= x)`` for a standard normal ``Z`` (``scipy.stats.norm.cdf``)."""
    return 0.5 * math.erfc(-float(x) / math.sqrt(2.0))


def norm_sf(x: float) -> float:
    """``P(Z > x)`` for a standard normal ``Z`` (``scipy.stats.norm.sf``)."""
    return 0.5 * math.erfc(float(x) / math.sqrt(2.0))
