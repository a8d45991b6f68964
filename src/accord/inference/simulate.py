"""Simulated ratings with a known population agreement, for planning and coverage studies.

Categorical ratings follow the latent-class model used by Kraemer (1979) and
Donner & Eliasziw (1992): each unit has a true category ``T`` drawn from the
``prevalence``; each rater independently reports ``T`` with probability
``s``, otherwise an independent draw from the same ``prevalence``. Every rater
then has the marginal distribution ``p``, two raters agree with probability
``p_o = s^2 + (1 - s^2) sum_k p_k^2`` and chance agreement is ``sum_k p_k^2``,
so the population value of Cohen's kappa, Scott's pi, Fleiss', Conger's and
Light's kappa (and of Krippendorff's nominal alpha as the sample grows) is
``agreement = s^2``.

Scores follow the two-way random-effects model of Shrout & Fleiss (1979, case
2): ``x_ij = u_i + b_j + e_ij`` with independent normal unit, rater and error
effects of variances ``icc``, ``rater_variance`` and ``1 - icc -
rater_variance``, so ICC(2,1) (McGraw & Wong's ICC(A,1)) is ``icc``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from accord.inference.resampling import FloatArray, IntArray


def categorical_ratings(
    n_units: int,
    n_raters: int,
    prevalence: Sequence[float] | FloatArray,
    agreement: float,
    rng: np.random.Generator,
) -> IntArray:
    """Category codes ``(n_units, n_raters)`` whose population kappa is ``agreement`` (>= 0).

    Examples
    --------
    >>> import numpy as np
    >>> x = categorical_ratings(5, 3, [0.5, 0.5], 1.0, np.random.default_rng(0))
    >>> bool(np.all(x == x[:, :1]))  # perfect agreement: every rater reports T
    True
    """
    p = np.asarray(prevalence, dtype=np.float64)
    truth = rng.choice(p.shape[0], size=n_units, p=p)
    copy = rng.random((n_units, n_raters)) < np.sqrt(agreement)
    noise = rng.choice(p.shape[0], size=(n_units, n_raters), p=p)
    return np.where(copy, truth[:, None], noise).astype(np.int64)


def continuous_ratings(
    n_units: int,
    n_raters: int,
    icc: float,
    rng: np.random.Generator,
    *,
    rater_variance: float = 0.0,
) -> FloatArray:
    """Scores ``(n_units, n_raters)`` from the two-way random model with ICC(2,1) = ``icc``.

    Examples
    --------
    >>> import numpy as np
    >>> continuous_ratings(4, 3, 0.7, np.random.default_rng(0), rater_variance=0.1).shape
    (4, 3)
    """
    unit = rng.normal(0.0, np.sqrt(icc), size=(n_units, 1))
    rater = rng.normal(0.0, np.sqrt(rater_variance), size=(1, n_raters))
    error = rng.normal(0.0, np.sqrt(1.0 - icc - rater_variance), size=(n_units, n_raters))
    return np.asarray(unit + rater + error, dtype=np.float64)
