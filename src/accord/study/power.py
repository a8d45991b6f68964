"""How many units to rate so that a test of Cohen's kappa has the power you need.

Two questions a study plan asks, for two raters:

- *power*: how many units so that the one-sided test of ``H0: kappa = kappa_0``
  rejects with probability ``power`` when the true kappa is ``kappa_1``:
  ``n = ((z_(1-a) tau_0 + z_power tau_1) / (kappa_1 - kappa_0))^2`` with ``tau^2`` the
  per-unit variance of the kappa estimate. Two categories: Cantor (1996), whose
  variance allows the raters different rates (R ``irr::N.cohen.kappa``). More
  categories, both raters with the same marginals: Flack, Afifi, Lachenbruch &
  Schouten (1988), who take the largest variance over the tables with those
  marginals and that agreement, a linear programme (R ``irr::N2.cohen.kappa``);
- *lower limit*: how many units so that the lower limit of the confidence interval
  accord's ``check`` reads clears a threshold (acceptance rules say "the lower 95 %
  limit must be at least 0.6") with probability ``assurance`` when kappa is as
  anticipated: ``n = ((z_c + z_assurance) sqrt(V) / (kappa - threshold))^2`` with
  ``V`` the Fleiss, Cohen & Everitt (1969) variance at the anticipated kappa (the SE
  the interval uses) and ``z_c`` the interval's two-sided quantile.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from scipy import optimize, stats

from accord.data import _validation as v
from accord.errors import InvalidParameterError
from accord.inference.display import Displayed

__all__ = ["PowerPlan", "plan_lower_limit", "plan_power"]

Arr = NDArray[np.float64]
_CANTOR = ("Cantor, A. B. (1996). Sample-size calculations for Cohen's kappa. Psychological "
           "Methods 1(2), 150-153.")
_FLACK = ("Flack, V. F., Afifi, A. A., Lachenbruch, P. A. & Schouten, H. J. A. (1988). Sample "
          "size determinations for the two rater kappa statistic. Psychometrika 53(3), 321-325.")
_FCE = ("Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of "
        "kappa and weighted kappa. Psychological Bulletin 72(5), 323-327.")


@dataclass(frozen=True)
class PowerPlan(Displayed):
    """The number of units a test of Cohen's kappa (or its interval's lower limit) needs.

    Attributes
    ----------
    n_units : int
        Units to rate, rounded up.
    goal : {"power", "lower_limit"}
        What was planned for.
    expected, null : float
        The anticipated kappa and the value to beat (``kappa_0`` or the threshold).
    power : float
        The probability of rejecting ``kappa = null`` (or of the lower limit clearing it).
    significance_level : float
        The test's one-sided level (for ``"lower_limit"``: half of 1 - confidence level).
    method : str
        ``"cantor_1996"``, ``"flack_1988"`` or ``"fleiss_cohen_everitt_1969"``.
    citation : str
        Where the variance comes from.
    details : mapping
        ``prevalence`` and the per-unit SDs ``tau_null`` / ``tau_expected``.
    """

    n_units: int
    goal: str
    expected: float
    null: float
    power: float
    significance_level: float
    method: str
    citation: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {"n_units": self.n_units, "goal": self.goal, "expected_estimate": self.expected,
                "null": self.null, "power": self.power,
                "significance_level": self.significance_level, "method": self.method,
                "citation": self.citation,
                "details": {k: (list(x) if isinstance(x, tuple) else x)
                            for k, x in self.details.items()}}

    def __str__(self) -> str:
        if self.goal == "lower_limit":
            level = 1.0 - 2.0 * self.significance_level
            return (f"cohen_kappa: {self.n_units} units so that, if kappa is {self.expected:g}, "
                    f"the lower {level:.0%} limit clears {self.null:g} with probability "
                    f"{self.power:g} ({self.method})")
        return (f"cohen_kappa: {self.n_units} units to reject kappa = {self.null:g} at "
                f"level {self.significance_level:g} with power {self.power:g} if kappa is "
                f"{self.expected:g} ({self.method})")


def plan_power(expected: float, null: float, *, prevalence: float | Sequence[float] | None = None,
               rater_rates: tuple[float, float] | None = None, power: float = 0.8,
               significance_level: float = 0.05,
               alternative: Literal["one-sided", "two-sided"] = "one-sided") -> PowerPlan:
    """Units for a test of ``kappa = null`` to have ``power`` when kappa is ``expected``.

    Parameters
    ----------
    expected, null : float
        The anticipated kappa (``k1`` in R's irr) and the null value (``k0``), different.
    prevalence : float or sequence of float, optional
        The category proportions of both raters: a float ``pi`` means two categories
        ``(pi, 1 - pi)`` (Cantor 1996, ``irr::N.cohen.kappa`` with equal rates); three or
        more proportions summing to 1 use Flack et al. (1988), ``irr::N2.cohen.kappa``.
    rater_rates : (float, float), optional
        Instead of ``prevalence``, for two categories: each rater's rate of the first
        category (``rate1, rate2`` of ``irr::N.cohen.kappa``; Cantor 1996 allows them to
        differ).
    power, significance_level : float
        In (0, 1).
    alternative : {"one-sided", "two-sided"}
        A two-sided test halves the significance level, as irr's ``twosided=TRUE``.

    Examples
    --------
    R irr's manual: ``N.cohen.kappa(0.5, 0.5, 0.7, 0.85)`` is 96 and
    ``N2.cohen.kappa(c(0.2, 0.25, 0.55), k1 = 0.6, k0 = 0.4)`` is 101.

    >>> import accord
    >>> accord.plan_power(0.7, 0.85, rater_rates=(0.5, 0.5)).n_units
    96
    >>> accord.plan_power(0.6, 0.4, prevalence=[0.2, 0.25, 0.55]).n_units
    101
    """
    func = "plan_power"
    k1 = _kappa(expected, "expected", func)
    k0 = _kappa(null, "null", func)
    if k1 == k0:
        raise v.fail("null", func, "different from expected", null)
    beta = _probability(power, "power", func)
    level = _probability(significance_level, "significance_level", func)
    sides = 2.0 if v.choice(alternative, ("one-sided", "two-sided"), param="alternative",
                            func=func) == "two-sided" else 1.0
    rates = _margins(prevalence, rater_rates, func)
    if rates.shape[0] == 2:
        r1, r2 = (rates[0], rates[0]) if rater_rates is None else rater_rates
        tau0, tau1 = (math.sqrt(_cantor_q(r1, r2, k)) for k in (k0, k1))
        method, cite = "cantor_1996", _CANTOR
    else:
        if rates.shape[0] > FLACK_MAX_CATEGORIES:
            raise InvalidParameterError(
                f"{func}: Flack et al.'s (1988) power solves a linear programme over the k x k "
                f"table, too large for {rates.shape[0]} categories (at most "
                f"{FLACK_MAX_CATEGORIES}: 100 take about a second, 400 half a minute); merge "
                "rare categories, or plan for one category against the rest (two categories).")
        tau0, tau1 = _flack_tau(rates, k0, func), _flack_tau(rates, k1, func)
        method, cite = "flack_1988", _FLACK
    za, zb = stats.norm.ppf(1.0 - level / sides), stats.norm.ppf(beta)
    n = math.ceil(((za * tau0 + zb * tau1) / (k1 - k0)) ** 2 - 1e-9)
    shown = rates if rater_rates is None else np.asarray(rater_rates, dtype=np.float64)
    return PowerPlan(n, "power", k1, k0, beta, level / sides, method, cite,
                     {"prevalence" if rater_rates is None else "rater_rates":
                      tuple(float(x) for x in shown), "tau_null": tau0, "tau_expected": tau1,
                      "alternative": alternative})


def plan_lower_limit(expected: float, threshold: float, *, prevalence: float | Sequence[float],
                     confidence_level: float = 0.95, assurance: float = 0.8) -> PowerPlan:
    """Units so that the interval's lower limit clears ``threshold`` with ``assurance``.

    With the anticipated kappa ``expected`` and category proportions ``prevalence`` (both
    raters), the estimate is about normal with SD ``sqrt(V(kappa) / n)``, ``V`` the
    Fleiss, Cohen & Everitt (1969) variance (the one of accord's asymptotic interval).
    The lower limit ``kappa_hat - z_c sqrt(V(kappa_hat) / n)`` clears ``threshold``
    exactly when ``kappa_hat`` exceeds the cut ``k*`` with
    ``k* - z_c sqrt(V(k*) / n) = threshold``, which happens with probability
    ``assurance`` when

        n = ((z_c sqrt(V(k*)) + z_assurance sqrt(V(expected))) / (expected - threshold))^2,

    solved by iterating on ``k*`` (``z_c`` the two-sided quantile of
    ``confidence_level``; ``details["kappa_cut"]``). This is the rule ``accord check``
    applies with ``on = "lower"``. A simulation of 1500 studies at the planned n
    (``tests/test_power.py``) reaches the assurance within Monte-Carlo error.

    Examples
    --------
    Kappa anticipated at 0.8 with prevalence 0.3; the lower 95 % limit must clear 0.6:

    >>> import accord
    >>> plan = accord.plan_lower_limit(0.8, 0.6, prevalence=0.3)
    >>> plan.n_units, plan.method
    (100, 'fleiss_cohen_everitt_1969')
    """
    from accord.study.planning import _kappa_variance, _prevalence

    func = "plan_lower_limit"
    k1 = _kappa(expected, "expected", func)
    t = _kappa(threshold, "threshold", func)
    if not k1 > t:
        raise v.fail("threshold", func, f"below expected ({k1!r}): a lower limit cannot be "
                     "planned to clear a value the coefficient is not expected to exceed",
                     threshold)
    level = v.confidence_level(confidence_level, func=func)
    beta = _probability(assurance, "assurance", func)
    rates = _prevalence(prevalence, 2, func)
    zc, zb = float(stats.norm.ppf(0.5 + level / 2.0)), float(stats.norm.ppf(beta))
    tau1 = math.sqrt(_kappa_variance(k1, rates, func))
    cut, n_real = t, math.nan
    for _ in range(50):  # the cut point k* moves with n; a few steps settle it
        tau_cut = math.sqrt(_kappa_variance(cut, rates, func))
        n_real = ((zc * tau_cut + zb * tau1) / (k1 - t)) ** 2
        new_cut = k1 - zb * tau1 / math.sqrt(n_real)
        if abs(new_cut - cut) < 1e-12:
            break
        cut = new_cut
    n = math.ceil(n_real - 1e-9)
    return PowerPlan(max(n, 2), "lower_limit", k1, t, beta, (1.0 - level) / 2.0,
                     "fleiss_cohen_everitt_1969", _FCE,
                     {"prevalence": tuple(float(x) for x in rates), "tau_expected": tau1,
                      "tau_cut": tau_cut, "kappa_cut": cut, "confidence_level": level})


# --------------------------------------------------------------------------- variances
def _cantor_q(rate1: float, rate2: float, kappa: float) -> float:
    """Cantor's (1996) per-unit variance of kappa for two categories (irr N.cohen.kappa)."""
    q1, q2 = 1.0 - rate1, 1.0 - rate2
    pe = rate1 * rate2 + q1 * q2
    p0 = kappa * (1.0 - pe) + pe
    p22 = (p0 - rate1 + q2) / 2.0
    p11 = p0 - p22
    p12, p21 = rate1 - p11, rate2 - p11
    return float((1.0 - pe) ** -4 * (
        p11 * (1.0 - pe - (rate2 + rate1) * (1.0 - p0)) ** 2
        + p22 * (1.0 - pe - (q2 + q1) * (1.0 - p0)) ** 2
        + (1.0 - p0) ** 2 * (p12 * (rate2 + q1) ** 2 + p21 * (q2 + rate1) ** 2)
        - (p0 * pe - 2.0 * pe + p0) ** 2))


#: The most categories :func:`plan_power` takes for Flack et al.'s programme (k^2 cells).
FLACK_MAX_CATEGORIES = 100


def _flack_tau(p: Arr, kappa: float, func: str) -> float:
    """Flack et al.'s (1988) largest per-unit SD of kappa over the tables with marginals
    ``p`` (both raters) and agreement ``p_0 = kappa + p_e (1 - kappa)`` (a linear programme)."""
    k = p.shape[0]
    pe = float(p @ p)
    p0 = kappa + pe * (1.0 - kappa)
    if not p0 > 0:
        raise v.fail("null", func, "a kappa these proportions can reach", kappa)
    m = (1.0 - p0) ** 2 * (p[:, None] + p[None, :]) ** 2
    np.fill_diagonal(m, -(1.0 - p0) * 2.0 * p * (2.0 * (1.0 - pe) - (1.0 - p0) * 2.0 * p))
    from scipy import sparse

    # the constraints as a sparse matrix: dense, (2k + 1) x k^2 (400 categories: 1 GB each)
    one = sparse.csr_array(np.ones((1, k)))
    rows = sparse.kron(sparse.eye_array(k), one)  # row sums of x (k x k, row-major)
    cols = sparse.kron(one, sparse.eye_array(k))  # column sums
    diag = sparse.csr_array((np.ones(k), (np.zeros(k, dtype=np.int64),
                                          np.arange(k) * (k + 1))), shape=(1, k * k))
    a_eq = sparse.vstack([rows, cols, diag], format="csr")
    b_eq = np.concatenate([p, p, [p0]])
    lp = optimize.linprog(-m.reshape(-1), A_eq=a_eq, b_eq=b_eq, bounds=(0, None),
                          method="highs")
    if lp.status != 0:
        raise InvalidParameterError(f"{func}: no table has these proportions and kappa "
                                    f"{kappa!r}; check prevalence and the kappas.")
    tau_sq = p0 * (1.0 - pe) ** 2 - float(lp.fun) - (p0 * pe - 2.0 * pe + p0) ** 2
    if not tau_sq > 0:
        raise InvalidParameterError(f"{func}: the variance of kappa is not positive for "
                                    f"kappa {kappa!r} with these proportions.")
    return math.sqrt(tau_sq) / (1.0 - pe) ** 2


# --------------------------------------------------------------------------- validation
def _margins(prevalence: Any, rater_rates: Any, func: str) -> Arr:
    """The category proportions, from ``prevalence`` or from two raters' rates."""
    from accord.study.planning import _prevalence

    if (prevalence is None) == (rater_rates is None):
        raise InvalidParameterError(f"{func} needs one of prevalence (category proportions) "
                                    "or rater_rates (two raters' rates of the first category).")
    if rater_rates is None:
        return _prevalence(prevalence, 2, func)
    try:
        r = np.asarray(rater_rates, dtype=np.float64)
    except (TypeError, ValueError):
        raise v.fail("rater_rates", func, "two proportions", rater_rates) from None
    if r.shape != (2,) or not np.all((r > 0) & (r < 1)):
        raise v.fail("rater_rates", func, "two proportions strictly between 0 and 1",
                     rater_rates)
    return np.array([r.mean(), 1.0 - r.mean()])


def _kappa(value: Any, param: str, func: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
            or not -1.0 < float(value) < 1.0:
        raise v.fail(param, func, "a kappa strictly between -1 and 1", value)
    return float(value)


def _probability(value: Any, param: str, func: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
            or not 0.0 < float(value) < 1.0:
        raise v.fail(param, func, "a probability strictly between 0 and 1", value)
    return float(value)
