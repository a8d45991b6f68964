r"""Logistic regression by Newton-Raphson, with model-based and cluster-robust covariances.

Maximises :math:`\ell(\beta) = \sum_i w_i [y_i \eta_i - \log(1 + e^{\eta_i})]`,
:math:`\eta = X\beta` (McCullagh & Nelder 1989, *Generalized Linear Models*,
sec. 4.4). The model-based covariance is the inverse Fisher information
:math:`(X^\top W X)^{-1}`; the cluster-robust (sandwich) one is
:math:`A^{-1} \big(\sum_g s_g s_g^\top\big) A^{-1}` with :math:`s_g` the score of
cluster :math:`g` (Liang & Zeger 1986), without a small-sample factor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from accord.inference.resampling import FloatArray

MAX_ITER = 100
TOL = 1e-12


@dataclass(frozen=True)
class LogisticFit:
    """Coefficients, covariances and whether the fit is finite (no separation)."""

    coef: FloatArray
    cov: FloatArray
    cov_cluster: FloatArray  # the model-based covariance when no clusters were given
    converged: bool


def fit(X: FloatArray, y: FloatArray, *, weights: FloatArray | None = None,
        clusters: NDArray[np.int64] | None = None) -> LogisticFit:
    """Maximum-likelihood logistic regression of ``y`` (0/1 or a probability) on ``X``."""
    w = np.ones(y.shape[0]) if weights is None else weights
    beta = np.zeros(X.shape[1])
    converged = False
    for _ in range(MAX_ITER):
        p = _expit(X @ beta)
        info = (X * (w * p * (1 - p))[:, None]).T @ X
        grad = X.T @ (w * (y - p))
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:
            break
        beta = beta + step
        if not np.all(np.isfinite(beta)) or np.max(np.abs(beta)) > 1e6:
            break
        if np.max(np.abs(step)) < TOL * (1 + np.max(np.abs(beta))):
            converged = True
            break
    p = _expit(X @ beta)
    info = (X * (w * p * (1 - p))[:, None]).T @ X
    nan = np.full((X.shape[1], X.shape[1]), np.nan)
    if not converged:
        return LogisticFit(beta, nan, nan, False)
    cov = np.linalg.inv(info)
    sandwich = cov
    if clusters is not None:
        scores = X * (w * (y - p))[:, None]
        g = np.stack([np.bincount(clusters, weights=scores[:, j])
                      for j in range(X.shape[1])], axis=1)
        sandwich = cov @ (g.T @ g) @ cov
    return LogisticFit(beta, cov, sandwich, True)


def _expit(eta: FloatArray) -> FloatArray:
    out: FloatArray = 0.5 * (1.0 + np.tanh(0.5 * eta))
    return out
