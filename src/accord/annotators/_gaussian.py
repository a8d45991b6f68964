r"""EM for numeric scores: each annotator's additive bias and Gaussian noise.

The model (Piech et al. 2013, model PG1, without its priors on bias and
reliability; with every bias zero and the true score free it is the
regression model of Raykar et al. 2010, sec. 3, without features):

.. math::

    y_{ij} = t_i + b_j + e_{ij}, \quad e_{ij} \sim N(0, \sigma_j^2), \quad
    t_i \sim N(\mu, \tau^2),

with :math:`\sum_j b_j = 0` over the annotators who rated (the likelihood does
not change when every :math:`b_j` moves by :math:`c` and :math:`\mu` by
:math:`-c`). EM (Dempster, Laird & Rubin 1977) is exact for this linear Gaussian
model. With :math:`A_i = \sum_{j \in i} \sigma_j^{-2}`:

* E step: :math:`v_i = 1 / (\tau^{-2} + A_i)`,
  :math:`m_i = v_i (\mu / \tau^2 + \sum_{j \in i} (y_{ij} - b_j) / \sigma_j^2)`;
* M step: :math:`b_j = \overline{y_{ij} - m_i}`,
  :math:`\sigma_j^2 = \overline{(y_{ij} - b_j - m_i)^2 + v_i}` (over annotator
  :math:`j`'s ratings), :math:`\mu = \overline{m_i}`,
  :math:`\tau^2 = \overline{v_i + (m_i - \mu)^2}` (over units); then the biases
  are centred.

Each sum is a ``np.bincount`` over the long codes. The log-likelihood is the
marginal one, per unit :math:`y_i \sim N(\mu + b, \tau^2 11^T + D)`, by the
matrix determinant lemma and Sherman-Morrison. ``shared=True`` fits one
:math:`\sigma` for all annotators (the random-intercept model with fixed
annotator effects that ``statsmodels.MixedLM`` fits by maximum likelihood).
Unit weights (bootstrap multiplicities) weight every sum.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from accord.errors import ConvergenceWarning

from ._crowd import FloatArray, IntArray, wsum

LOG_2PI = math.log(2.0 * math.pi)


@dataclass(frozen=True)
class Scores:
    """Numeric ratings as long arrays (one entry per rating)."""

    unit: IntArray
    rater: IntArray
    y: FloatArray
    n_units: int
    n_raters: int


@dataclass(frozen=True)
class GaussianFit:
    """The fitted model and the posterior of each unit's true score."""

    mean: FloatArray  # m_i
    var: FloatArray  # v_i
    bias: FloatArray  # b_j
    noise: FloatArray  # sigma_j (standard deviation)
    mu: float
    tau: float
    n_iter: int
    log_likelihood: float
    converged: bool
    last_change: float


def unit_means(s: Scores, w: FloatArray) -> FloatArray:
    """The plain mean of each unit's ratings (``nan`` for a unit with weight 0)."""
    wr = w[s.unit]
    with np.errstate(invalid="ignore", divide="ignore"):
        return wsum(s.unit, wr * s.y, s.n_units) / wsum(s.unit, wr, s.n_units)


def fit(s: Scores, *, shared: bool = False, tol: float = 1e-10, max_iter: int = 1000,
        weights: FloatArray | None = None, start: GaussianFit | None = None,
        warn: bool = True) -> GaussianFit:
    """Maximum likelihood by EM; ``start`` warm-starts from a previous fit's parameters."""
    w = np.ones(s.n_units) if weights is None else weights
    wr = w[s.unit]
    floor = 1e-12 * max(float(np.var(s.y)), 1e-300)
    if start is None:
        bias, var_j, mu, tau2 = _initial(s, w, wr, shared, floor)
    else:
        bias = start.bias.copy()
        var_j = np.where(np.isfinite(start.noise), np.maximum(start.noise ** 2, floor), np.inf)
        mu, tau2 = start.mu, max(start.tau ** 2, floor)
    total = float(wr.sum())
    ll, change = -math.inf, math.inf
    for it in range(1, max_iter + 1):
        m, v = _e_step(s, bias, var_j, mu, tau2)
        new = _loglik(s, w, bias, var_j, mu, tau2)
        change = (new - ll) / total if math.isfinite(ll) else math.inf
        ll = new
        bias, var_j, mu, tau2 = _m_step(s, w, wr, m, v, shared, floor)
        if abs(change) < tol:
            return _done(s, bias, var_j, mu, tau2, w, it, True, change)
    if warn:
        warnings.warn(f"score_consensus did not converge in {max_iter} iterations: the "
                      f"log-likelihood still moved by {change:.3g} per rating (tol={tol:g}); "
                      "the result is the last iterate (raise max_iter= or tol=).",
                      ConvergenceWarning, stacklevel=3)
    return _done(s, bias, var_j, mu, tau2, w, max_iter, False, change)


def _done(s: Scores, bias: FloatArray, var_j: FloatArray, mu: float, tau2: float,
          w: FloatArray, n_iter: int, converged: bool, change: float) -> GaussianFit:
    m, v = _e_step(s, bias, var_j, mu, tau2)
    ll = _loglik(s, w, bias, var_j, mu, tau2)
    noise = np.where(np.isfinite(var_j), np.sqrt(var_j), np.nan)
    return GaussianFit(m, v, bias, noise, mu, math.sqrt(tau2), n_iter, ll, converged,
                       change)


def _initial(s: Scores, w: FloatArray, wr: FloatArray, shared: bool, floor: float
             ) -> tuple[FloatArray, FloatArray, float, float]:
    """Start from the unit means: the biases and noise of the annotators around them."""
    m = np.nan_to_num(unit_means(s, w))
    return _m_step(s, w, wr, m, np.zeros(s.n_units), shared, floor)


def _e_step(s: Scores, bias: FloatArray, var_j: FloatArray, mu: float, tau2: float
            ) -> tuple[FloatArray, FloatArray]:
    prec = 1.0 / var_j[s.rater]
    a = wsum(s.unit, prec, s.n_units)
    v = 1.0 / (1.0 / tau2 + a)
    m = v * (mu / tau2 + wsum(s.unit, (s.y - bias[s.rater]) * prec, s.n_units))
    return m, v


def _m_step(s: Scores, w: FloatArray, wr: FloatArray, m: FloatArray, v: FloatArray,
            shared: bool, floor: float) -> tuple[FloatArray, FloatArray, float, float]:
    n_j = wsum(s.rater, wr, s.n_raters)
    rated = n_j > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        bias = wsum(s.rater, wr * (s.y - m[s.unit]), s.n_raters) / n_j
        bias = np.where(rated, bias, 0.0)
        shift = float(bias[rated].mean())
        bias = np.where(rated, bias - shift, 0.0)
        m = m + shift  # the true scores move with the centred biases
        resid = (s.y - bias[s.rater] - m[s.unit]) ** 2 + v[s.unit]
        if shared:
            var_j = np.full(s.n_raters, float((wr * resid).sum() / wr.sum()))
        else:
            var_j = wsum(s.rater, wr * resid, s.n_raters) / n_j
    var_j = np.where(rated, np.maximum(var_j, floor), np.inf)  # unrated: no weight
    mu = float((w * m).sum() / w.sum())
    tau2 = max(float((w * (v + (m - mu) ** 2)).sum() / w.sum()), floor)
    return bias, var_j, mu, tau2


def _loglik(s: Scores, w: FloatArray, bias: FloatArray, var_j: FloatArray, mu: float,
            tau2: float) -> float:
    """The marginal log-likelihood of the ratings (true scores integrated out)."""
    prec = 1.0 / var_j[s.rater]
    r = s.y - mu - bias[s.rater]
    a = wsum(s.unit, prec, s.n_units)
    sr = wsum(s.unit, r * prec, s.n_units)
    q = wsum(s.unit, r * r * prec, s.n_units)
    logdet = wsum(s.unit, np.log(var_j[s.rater]), s.n_units) + np.log1p(tau2 * a)
    n_i = np.bincount(s.unit, minlength=s.n_units)
    per_unit = -0.5 * (n_i * LOG_2PI + logdet + q - sr * sr * tau2 / (1.0 + tau2 * a))
    used = w > 0
    return float((w[used] * per_unit[used]).sum())
