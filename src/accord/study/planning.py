"""How many units to rate: sample size for a target confidence-interval width.

For Cohen's kappa with two raters the large-sample variance is known in closed
form, so the planner uses it (the approach of Flack et al. 1988): under the
anticipated table, ``Var(kappa_hat) = V / n`` with ``V`` the Fleiss, Cohen &
Everitt (1969) variance, and the interval ``kappa +/- z sqrt(V / n)`` has width
``w`` when ``n = V (2 z / w)^2``. The anticipated table has both raters with
marginals ``p`` (the prevalence) and ``p_kl = (1 - kappa) p_k p_l + kappa p_k
[k = l]``; for two categories with prevalence ``pi`` this is Bloch & Kraemer's
(1989) closed form ``V = (1 - kappa) [(1 - kappa)(1 - 2 kappa) + kappa (2 - kappa)
/ (2 pi (1 - pi))]``.

Every other coefficient is planned by simulation (seeded, so reproducible):
ratings with the anticipated agreement are drawn from the model of
:mod:`accord.inference.simulate`, the standard deviation of the estimate is
measured at a pilot size, ``n`` is scaled by ``(2 z sd / w)^2``, and the
step is repeated once at the new ``n``.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from scipy import stats

from accord.data import _validation as v
from accord.errors import DegenerateDataWarning
from accord.inference.display import Displayed
from accord.inference.resampling import FloatArray
from accord.inference.simulate import categorical_ratings, continuous_ratings

__all__ = ["SamplePlan", "plan_sample_size"]

#: A plan beyond this many units is refused: no study rates them, and the arithmetic
#: of a width near 0 would overflow.
MAX_UNITS = 1e12

_CITE_FORMULA = (
    "Flack, V. F., Afifi, A. A., Lachenbruch, P. A. & Schouten, H. J. A. (1988). Sample size "
    "determinations for the two rater kappa statistic. Psychometrika 53(3), 321-325; variance: "
    "Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Psychological Bulletin 72(5), 323-327; "
    "binary closed form: Bloch, D. A. & Kraemer, H. C. (1989). 2 x 2 kappa coefficients: measures "
    "of agreement or association. Biometrics 45(1), 269-287."
)
_CITE_SIMULATION = (
    "Monte-Carlo planning: ratings simulated from the latent-class model of Kraemer, H. C. (1979). "
    "Ramifications of a population model for kappa as a coefficient of reliability. Psychometrika "
    "44(4), 461-472 (scores: the two-way random-effects model of Shrout, P. E. & Fleiss, J. L. "
    "(1979). Psychological Bulletin 86(2), 420-428); n scaled by (2 z sd / width)^2."
)
# Population p_o of each categorical coefficient at its anticipated value e, given the
# sum of squared prevalences s2 and the number of categories q (see module docstring).
_KAPPA_LIKE = ("cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa", "light_kappa",
               "krippendorff_alpha")
_P_O: dict[str, Callable[[float, FloatArray], float]] = {
    **{name: (lambda e, p: e + (1 - e) * float(p @ p)) for name in _KAPPA_LIKE},
    "gwet_ac1": lambda e, p: e + (1 - e) * float(p @ (1 - p)) / (p.shape[0] - 1),
    "brennan_prediger": lambda e, p: e + (1 - e) / p.shape[0],
    "percent_agreement": lambda e, p: e,
}


@dataclass(frozen=True)
class SamplePlan(Displayed):
    """The number of units needed for a confidence interval of a given width.

    Attributes
    ----------
    coefficient : str
        Registry name of the coefficient planned for.
    n_units : int
        Units to rate (rounded up).
    expected, ci_width, confidence_level : float
        The anticipated value, the target full width and the interval's level.
    n_raters : int
        Raters per unit assumed.
    method : {"formula", "simulation"}
        How ``n_units`` was found.
    citation : str
        Where the formula or the simulation model comes from.
    details : mapping
        ``variance_per_unit`` (formula) or ``sd_at_pilot``, ``pilot_n``,
        ``n_simulations``, ``n_undefined``, ``seed`` (simulation), and the prevalence used.
    """

    coefficient: str
    n_units: int
    expected: float
    ci_width: float
    confidence_level: float
    n_raters: int
    method: str
    citation: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {
            "coefficient": self.coefficient, "n_units": self.n_units,
            "expected_estimate": self.expected,
            "ci_width": self.ci_width, "confidence_level": self.confidence_level,
            "n_raters": self.n_raters, "method": self.method, "citation": self.citation,
            "details": {k: (list(x) if isinstance(x, tuple) else x)
                        for k, x in self.details.items()},
        }

    def __str__(self) -> str:
        return (f"{self.coefficient}: {self.n_units} units for a {self.confidence_level:.0%} "
                f"interval of width {self.ci_width:g} around {self.expected:g} ({self.method})")


def plan_sample_size(
    coefficient: str = "cohen_kappa",
    *,
    expected: float,
    ci_width: float,
    confidence_level: float = 0.95,
    prevalence: float | Sequence[float] | None = None,
    n_raters: int = 2,
    n_categories: int = 2,
    n_simulations: int = 400,
    rng: int | np.random.Generator = 0,
) -> SamplePlan:
    r"""Units needed so that the ``confidence_level`` interval has full width ``ci_width``.

    .. math:: n = V \left(\frac{2 z_{1-(1-c)/2}}{w}\right)^2

    with ``V`` the per-unit variance of the estimate (Fleiss, Cohen & Everitt
    1969 for Cohen's kappa, as in Flack et al. 1988; by simulation otherwise).

    Parameters
    ----------
    coefficient : str
        ``"cohen_kappa"`` (formula, two raters) or, by simulation, ``"scott_pi"``,
        ``"fleiss_kappa"``, ``"conger_kappa"``, ``"light_kappa"``,
        ``"krippendorff_alpha"`` (nominal), ``"gwet_ac1"``, ``"brennan_prediger"``,
        ``"percent_agreement"``, or ``"icc"`` (its default form ICC(2,1); scores
        from the two-way model without rater effects, so rater variance, which
        widens the interval of ICC(2,1), is not planned for).
    expected : float
        The anticipated value of the coefficient.
    ci_width : float
        The target full width of the interval (high - low), in (0, 2).
    confidence_level : float
        Level of the planned interval.
    prevalence : float or sequence of float, optional
        Anticipated category proportions; a float ``pi`` means two categories
        ``(pi, 1 - pi)``. Default: equal proportions over ``n_categories``.
    n_raters, n_categories : int
        Raters per unit and number of categories. When ``prevalence`` is given, its
        length sets the number of categories; an ``n_categories`` other than the
        default 2 must then agree with it.
    n_simulations : int
        Simulated data sets per step (simulation only).
    rng : int or numpy.random.Generator
        Seed of the simulation (default 0: the same plan every time).

    Returns
    -------
    SamplePlan

    Examples
    --------
    Kappa anticipated at 0.6 with prevalence 0.3: the per-unit variance is Bloch &
    Kraemer's ``0.4 (0.4 * (-0.2) + 0.6 * 1.4 / 0.42) = 0.768``, so an interval of
    width 0.2 needs ``0.768 (2 * 1.95996 / 0.2)^2 = 295.03``, i.e. 296 units:

    >>> import accord
    >>> plan = accord.plan_sample_size("cohen_kappa", expected=0.6, ci_width=0.2, prevalence=0.3)
    >>> plan.n_units, plan.method, round(plan.details["variance_per_unit"], 6)
    (296, 'formula', 0.768)
    """
    func = "plan_sample_size"
    level = v.confidence_level(confidence_level, func=func)
    width = _in_open(ci_width, 0.0, 2.0, "ci_width", func)
    est = _in_open(expected, -1.0, 1.0, "expected", func)
    raters = _at_least(n_raters, 2, "n_raters", func)
    q = _at_least(n_categories, 2, "n_categories", func)
    p = _prevalence(prevalence, q, func)
    _categories_agree(p, q, func)
    v.positive_int(n_simulations, param="n_simulations", func=func)
    gen = _generator(rng, func)
    z = float(stats.norm.ppf(0.5 + level / 2.0))
    base = {"prevalence": tuple(float(x) for x in p), "z": z}
    if coefficient == "cohen_kappa" and raters == 2:
        var = _kappa_variance(est, p, func)
        ratio = 2.0 * z / width
        n_exact = var * ratio * ratio  # inf, not OverflowError, for a width near 0
        if not n_exact < MAX_UNITS:
            raise v.fail("ci_width", func, f"a width that needs fewer than {MAX_UNITS:.0e} "
                         "units", width)
        n = max(2, math.ceil(n_exact - 1e-9))
        return SamplePlan(coefficient, n, est, width, level, raters, "formula", _CITE_FORMULA,
                          {**base, "variance_per_unit": var})
    simulate = _simulator(coefficient, est, p, raters, func)
    n, info = _simulated_n(simulate, z, width, n_simulations, gen, raters)
    info["seed"] = rng if isinstance(rng, numbers.Integral) else None
    return SamplePlan(coefficient, n, est, width, level, raters, "simulation", _CITE_SIMULATION,
                      {**base, **info})


def _in_open(x: Any, lo: float, hi: float, param: str, func: str) -> float:
    ok = isinstance(x, numbers.Real) and not isinstance(x, bool) and lo < float(x) < hi
    if not ok:
        raise v.fail(param, func, f"a number in ({lo:g}, {hi:g})", x)
    return float(x)


def _at_least(x: Any, lo: int, param: str, func: str) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or int(x) < lo:
        raise v.fail(param, func, f"an integer >= {lo}", x)
    return int(x)


def _prevalence(prevalence: Any, q: int, func: str) -> FloatArray:
    if prevalence is None:
        return np.full(q, 1.0 / q)
    if isinstance(prevalence, numbers.Real) and not isinstance(prevalence, bool):
        pi = _in_open(prevalence, 0.0, 1.0, "prevalence", func)
        return np.array([pi, 1.0 - pi])
    expected = "a proportion in (0, 1) or positive proportions summing to 1"
    if isinstance(prevalence, (str, bytes)):
        raise v.fail("prevalence", func, expected, prevalence)
    try:
        p = np.asarray(prevalence, dtype=np.float64)
    except (TypeError, ValueError):
        raise v.fail("prevalence", func, expected, prevalence) from None
    if p.ndim != 1 or p.shape[0] < 2 or not np.all(p > 0) or abs(p.sum() - 1.0) > 1e-9:
        raise v.fail("prevalence", func, expected, prevalence)
    return p


def _categories_agree(p: FloatArray, n_categories: int, func: str) -> None:
    """``n_categories`` left at its default (2) is taken from ``prevalence``; set, it must match."""
    if n_categories != 2 and p.shape[0] != n_categories:
        raise v.fail("n_categories", func,
                     f"the number of proportions in prevalence ({p.shape[0]})", n_categories)


def _generator(rng: Any, func: str) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, bool) or not isinstance(rng, numbers.Integral) or int(rng) < 0:
        raise v.fail("rng", func, "a non-negative int seed or a numpy.random.Generator", rng)
    return np.random.default_rng(int(rng))


def _kappa_variance(kappa: float, p: FloatArray, func: str) -> float:
    """Fleiss-Cohen-Everitt per-unit variance of kappa at the anticipated table."""
    from accord.coefficients._two_rater_core import _coefficient, _se_cohen
    from accord.tables.contingency import ContingencyTable

    if not 1.0 - float(p @ p) > 1e-12:
        raise v.fail("prevalence", func, "proportions not (almost) all in one category: "
                     "there chance agreement is 1 and kappa is 0/0", tuple(float(x) for x in p))
    cells = (1.0 - kappa) * np.outer(p, p) + kappa * np.diag(p)
    if np.any(cells < 0):
        low = float(np.max(-p / (1.0 - p)))
        raise v.fail("expected", func, f"at least {low:.4g} for this prevalence (a lower "
                     "kappa needs negative cell probabilities)", kappa)
    # the table of cell probabilities has n = 1, so the FCE variance is per unit
    est, _, pe, terms, _ = _coefficient("cohen_kappa", ContingencyTable(cells), None, "cohen")
    if terms is None:
        return math.nan
    return float(_se_cohen(terms, None, est, pe)[0] ** 2)


def _simulator(
    name: str, expected: float, p: FloatArray, raters: int, func: str
) -> Callable[[int, np.random.Generator], float]:
    """A function drawing one data set of n units and returning the coefficient on it."""
    from accord.study import REGISTRY

    info = REGISTRY.get(name)
    if info is not None and info.family == "intraclass":
        icc = _in_open(expected, 0.0, 1.0, "expected", func)
        return lambda n, g: _call(info.function, continuous_ratings(n, raters, icc, g), False)
    if info is None or name not in _P_O:
        supported = sorted(set(_P_O) | {k for k, i in REGISTRY.items() if i.family == "intraclass"})
        raise v.fail("coefficient", func, f"one of {supported} (registered in this version)", name)
    pairs = info.raters == "two"
    if pairs and raters != 2:
        raise v.fail("n_raters", func, f"2 for {name}", raters)
    s2 = float(p @ p)
    agreement = (_P_O[name](expected, p) - s2) / (1.0 - s2)
    if not 0.0 <= agreement <= 1.0:
        raise v.fail("expected", func, f"a value reachable by {name} with this prevalence "
                     "under the simulation model (agreement at least chance)", expected)
    return lambda n, g: _call(info.function,
                              categorical_ratings(n, raters, p, agreement, g), pairs)


def _call(function: Callable[..., Any], data: Any, pairs: bool) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # counted as nan instead
        res = function(data[:, 0], data[:, 1]) if pairs else function(data)
    return float(res.estimate)


#: Simulated ratings one step may draw (about 1-10 s); a step that would draw more runs
#: fewer simulations, and the refining step is left out below ``MIN_SIMULATIONS``.
MAX_SIMULATED_RATINGS = 20_000_000
MIN_SIMULATIONS = 50
PILOT_N = 100


def _simulated_n(
    simulate: Callable[[int, np.random.Generator], float], z: float, width: float,
    n_sims: int, rng: np.random.Generator, raters: int = 2,
) -> tuple[int, dict[str, Any]]:
    """Pilot at 100 units, rescale by the measured sd, then once more at the new n.

    Each step draws at most ``MAX_SIMULATED_RATINGS`` ratings: fewer simulations when
    the units times the raters are many; when even ``MIN_SIMULATIONS`` would draw more,
    the pilot refuses (too many raters) and the second step is left out (``n`` is the
    pilot's extrapolation, ``sd`` shrinking as ``1 / sqrt(n)``; ``details["note"]``).
    """
    first = min(n_sims, MAX_SIMULATED_RATINGS // (PILOT_N * raters))
    if first < MIN_SIMULATIONS:
        most = MAX_SIMULATED_RATINGS // (PILOT_N * MIN_SIMULATIONS)
        raise v.fail("n_raters", "plan_sample_size",
                     f"at most {most:,} raters per unit for a simulated plan (each of "
                     f"{MIN_SIMULATIONS} simulations rates {PILOT_N} units)", raters)
    n, undefined, sd, sims, info = PILOT_N, 0, math.nan, first, {}
    for step in range(2):
        values = np.array([simulate(n, rng) for _ in range(sims)])
        ok = np.isfinite(values)
        undefined += int((~ok).sum())
        if ok.sum() < 2:
            raise v.fail("expected", "plan_sample_size",
                         "a value whose simulated estimate is defined", "undefined throughout")
        pilot, sd = n, float(np.std(values[ok], ddof=1))
        n = _scaled(pilot, z * sd / width)
        sims = min(n_sims, MAX_SIMULATED_RATINGS // max(n * raters, 1))
        if step == 0 and sims < MIN_SIMULATIONS:
            info["note"] = (f"{n:,} units x {raters} raters is too many to simulate again; "
                            f"n is the pilot's extrapolation from {PILOT_N} units")
            break
    return n, {**info, "pilot_n": pilot, "sd_at_pilot": sd, "n_simulations": n_sims,
               "n_undefined": undefined}


def _scaled(pilot: int, ratio: float) -> int:
    """``ceil(pilot (2 z sd / w)^2)``, refused beyond what anyone can rate."""
    n = pilot * (2.0 * ratio) * (2.0 * ratio)
    if not n < MAX_UNITS:
        raise v.fail("ci_width", "plan_sample_size",
                     f"a width that needs fewer than {MAX_UNITS:.0e} units", "a width this small")
    return max(2, math.ceil(n))
