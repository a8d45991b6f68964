"""Result objects: every coefficient returns an :class:`AgreementResult`.

Inference is a method on the result (after scipy's ``OddsRatioResult``):
``result.confidence_interval(0.95, method="asymptotic" | "jackknife" | Bootstrap(...))``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

from accord.data import _validation as v
from accord.errors import InvalidParameterError
from accord.inference._distributions import t_ppf
from accord.inference._normal import norm_ppf
from accord.inference.bootstrap import Bootstrap, bootstrap_interval
from accord.inference.display import Card, Displayed, agreement_card, fmt
from accord.inference.finite_population import fpc_factor, shrink
from accord.inference.jackknife import jackknife_se
from accord.inference.resampling import FloatArray, Resampling

IntervalMethod = Literal["asymptotic", "jackknife"] | Bootstrap

__all__ = ["DISAGREEMENT_COEFFICIENTS", "AgreementResult", "ConfidenceInterval"]


#: Coefficients of the form 1 - D_o / D_e: their ``observed`` and ``expected`` are the
#: observed and expected disagreement (Krippendorff 2004; Janson & Olsson 2001), not
#: agreement; ``to_dict`` names the keys accordingly.
DISAGREEMENT_COEFFICIENTS = frozenset({"krippendorff_alpha", "janson_olsson_iota",
                                       "unitizing_alpha", "box_alpha", "gamma",
                                       "keypoint_alpha", "polygon_alpha"})


@dataclass(frozen=True)
class ConfidenceInterval(Displayed):
    """A confidence interval for a coefficient.

    Attributes
    ----------
    low, high : float
        The limits (``nan`` when the coefficient is undefined).
    confidence_level : float
        The nominal coverage, e.g. 0.95.
    method : str
        ``"asymptotic"``, ``"F"`` (ICC), ``"jackknife"`` or ``"bootstrap-<kind>"``;
        ``"asymptotic-t"`` / ``"jackknife-t"`` with Student's t quantile (irrCAC).
    n_excluded : int
        Resamples (or leave-one-out values) in which the coefficient was undefined
        and which were therefore left out.
    replicates : numpy.ndarray or None
        The finite bootstrap replicates, for plots; ``None`` for other methods.
        (Without the finite-population correction.)
    population_size : int or None
        The population size ``N`` of a finite-population correction, if one was applied.
    """

    low: float
    high: float
    confidence_level: float
    method: str
    n_excluded: int = 0
    replicates: FloatArray | None = field(default=None, repr=False, compare=False)
    population_size: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined limits are ``None``.

        ``population_size`` appears only when a finite-population correction was applied.
        """
        out: dict[str, Any] = {
            "low": _num(self.low),
            "high": _num(self.high),
            "confidence_level": self.confidence_level,
            "method": self.method,
            "n_excluded": self.n_excluded,
        }
        if self.population_size is not None:
            out["population_size"] = self.population_size
        return out

    def _card(self) -> Card:
        return Card(title=f"{self.confidence_level:.0%} confidence interval ({self.method})",
                    figure=f"{fmt(self.low)} to {fmt(self.high)}",
                    facts=(("n_excluded", str(self.n_excluded)),))


@dataclass(frozen=True)
class AgreementResult(Displayed):
    """The value of one agreement coefficient on one data set.

    Attributes
    ----------
    coefficient : str
        Registry name, e.g. ``"cohen_kappa"``.
    estimate : float
        The coefficient at full precision; ``nan`` when undefined.
    observed, expected : float
        p_o and p_e as the coefficient defines them (D_o and D_e for Krippendorff's alpha).
    se : float
        Analytic standard error where the literature gives one, else ``nan``.
    n_units, n_raters : int
        What was used after missing-data handling.
    undefined_reason : str or None
        Why the estimate is undefined, in one sentence; ``None`` when it is defined.
    details : mapping
        Further named figures (``se0``, ``z``, ``pvalue``, ``prevalence_index``, ...).
    per_category : mapping or None
        Per-category results where the coefficient defines them.
    terms : tuple of two str or None, optional
        The names ``to_dict`` gives ``observed`` and ``expected`` when they are not an
        agreement (a ratio's counts: ``("n_events", "n_trials")``); an empty name
        leaves the term out (it is in ``details``). ``None``: p_o and p_e (or D_o, D_e).
    """

    coefficient: str
    estimate: float
    observed: float
    expected: float
    se: float
    n_units: int
    n_raters: int
    undefined_reason: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    per_category: Mapping[Any, Mapping[str, float]] | None = None
    bounds: tuple[float, float] = (-math.inf, math.inf)
    resampling: Callable[[], Resampling] | None = field(default=None, repr=False, compare=False)
    analytic_interval: Callable[[float], tuple[float, float]] | None = field(
        default=None, repr=False, compare=False
    )
    terms: tuple[str, str] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    @property
    def defined(self) -> bool:
        """Whether the estimate is a number."""
        return self.undefined_reason is None and math.isfinite(self.estimate)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: IntervalMethod = "asymptotic",
        population_size: int | None = None,
        distribution: Literal["normal", "t"] = "normal",
    ) -> ConfidenceInterval:
        """A confidence interval at ``confidence_level``.

        Parameters
        ----------
        confidence_level : float
            Nominal coverage in (0, 1).
        method : {"asymptotic", "jackknife"} or Bootstrap
            ``"asymptotic"``: the estimate plus or minus the normal quantile times
            ``se`` (or the coefficient's own analytic interval, e.g. the F-based ICC
            interval), clipped to the coefficient's range. ``"jackknife"``: the same
            with the leave-one-unit-out SE. ``Bootstrap(...)``: a bootstrap over units.
        population_size : int, optional
            The number ``N`` of units in the finite population the rated units were
            sampled from. The variance is multiplied by ``1 - n_units / N`` (Gwet 2014,
            ch. 5): both limits move toward the estimate by ``sqrt(1 - n_units / N)``.
            Not defined for the F-based ICC interval (use the jackknife or bootstrap).
        distribution : {"normal", "t"}
            The quantile of the SE-based intervals (``"asymptotic"`` and
            ``"jackknife"``): the standard normal (default), or Student's t with
            ``n_units - 1`` degrees of freedom, the convention of R's irrCAC (its
            ``conf.int``), for replicating an irrCAC analysis. The interval's ``method``
            then reads ``"asymptotic-t"`` / ``"jackknife-t"``. Not defined for the
            bootstrap or the F-based ICC interval.

        Returns
        -------
        ConfidenceInterval
            With ``nan`` limits when the coefficient is undefined on the data.
        """
        level = v.confidence_level(confidence_level, func="confidence_interval")
        label = _method_label(method)
        t_df = self._t_df(distribution, method)
        if t_df is not None:
            label += "-t"
        fpc, pop = 1.0, population_size
        if pop is not None:
            fpc = fpc_factor(self.n_units, pop, func="confidence_interval")
        if not self.defined:
            return ConfidenceInterval(math.nan, math.nan, level, label, population_size=pop)
        if isinstance(method, Bootstrap):
            low, high, reps, excluded = bootstrap_interval(
                self._resampling("a bootstrap interval"), self.estimate, level, method
            )
            low, high = self._clip(*shrink(self.estimate, low, high, fpc))
            return ConfidenceInterval(low, high, level, label, excluded, reps, pop)
        if method == "jackknife":
            se, excluded = jackknife_se(self._resampling("a jackknife interval"))
            low, high = self._normal(se * fpc, level, t_df)
            return ConfidenceInterval(low, high, level, label, excluded, population_size=pop)
        if self.analytic_interval is not None:
            if t_df is not None:
                raise InvalidParameterError(
                    f"distribution='t' is not defined for the {self.coefficient} analytic "
                    "interval; it applies to SE-based intervals."
                )
            if pop is not None:
                raise InvalidParameterError(
                    f"population_size is not defined for the {self.coefficient} analytic "
                    "interval; use method='jackknife' or method=accord.Bootstrap(...)."
                )
            low, high = (float(x) for x in self.analytic_interval(level))
            return ConfidenceInterval(low, high, level, str(self.details.get("ci_method", "F")))
        if not math.isfinite(self.se):
            if self.resampling is None:
                why = self.details.get("se_note") or "it was computed from a summary without units"
                raise InvalidParameterError(
                    f"{self.coefficient} has no confidence interval here: {why}."
                )
            if self.n_units < 2:
                raise InvalidParameterError(
                    f"{self.coefficient} has no confidence interval from {self.n_units} "
                    "unit(s): an interval needs at least two units."
                )
            raise InvalidParameterError(
                f"{self.coefficient} has no analytic standard error; use "
                "method='jackknife' or method=accord.Bootstrap(...) instead."
            )
        low, high = self._normal(self.se * fpc, level, t_df)
        return ConfidenceInterval(low, high, level, label, population_size=pop)

    def _t_df(self, distribution: str, method: object) -> int | None:
        """The t quantile's degrees of freedom, or None for the normal quantile.

        ``n_units - 1``, unless the coefficient names its own (``details["t_df"]``:
        Krippendorff's alpha counts unpairable units, as irrCAC 1.4).
        """
        v.choice(distribution, ("normal", "t"), param="distribution", func="confidence_interval")
        if distribution == "normal":
            return None
        if isinstance(method, Bootstrap):
            raise InvalidParameterError(
                "distribution='t' applies to the asymptotic and jackknife intervals, not to "
                "the bootstrap (which has no quantile to replace)."
            )
        if self.n_units < 2:
            raise InvalidParameterError(
                f"distribution='t' needs at least two units (n_units - 1 degrees of "
                f"freedom); {self.coefficient} used {self.n_units}."
            )
        return int(self.details.get("t_df", self.n_units - 1))

    def _normal(self, se: float, level: float, t_df: int | None = None) -> tuple[float, float]:
        if t_df is None:
            z = float(norm_ppf(0.5 + level / 2.0))
        else:
            z = float(t_ppf(0.5 + level / 2.0, t_df))
        return self._clip(self.estimate - z * se, self.estimate + z * se)

    def _clip(self, low: float, high: float) -> tuple[float, float]:
        lo, hi = self.bounds
        return float(np.clip(low, lo, hi)), float(np.clip(high, lo, hi))

    def _resampling(self, what: str) -> Resampling:
        if self.resampling is None:
            raise InvalidParameterError(
                f"{self.coefficient} computed from this input cannot be resampled for {what}: "
                "it needs unit-level data (not a summary without units, proportions or "
                "sample weights that are not whole numbers)."
            )
        return self.resampling()

    def to_dict(self, confidence_level: float = 0.95, *,
                interval: ConfidenceInterval | None = None) -> dict[str, Any]:
        """JSON-ready mapping at full precision; an undefined estimate is ``None``.

        ``observed`` and ``expected`` are written ``observed_agreement`` and
        ``expected_agreement`` (p_o, p_e) for the kappa family, and
        ``observed_disagreement`` and ``expected_disagreement`` (D_o, D_e) for the
        coefficients of the form 1 - D_o / D_e (:data:`DISAGREEMENT_COEFFICIENTS`), so
        that no key means two things; a figure that is not an agreement names them by
        its :attr:`terms` (counts are ``n_*``).

        ``confidence_interval`` is ``interval`` when given, else the asymptotic interval
        at ``confidence_level`` of a defined figure that has one (an ``se`` or its own
        analytic interval): a figure with an ``se`` always carries its interval.
        """
        out: dict[str, Any] = {"coefficient": self.coefficient,
                               "estimate": _num(self.estimate)}
        for key, value in zip(self._term_names(), (self.observed, self.expected), strict=True):
            if key:
                out[key] = _num(value)
        out["se"] = _num(self.se)
        ci = interval if interval is not None else self._default_interval(confidence_level)
        if ci is not None:
            out["confidence_interval"] = ci.to_dict()
        out.update({
            "n_units": self.n_units,
            "n_raters": self.n_raters,
            "undefined_reason": self.undefined_reason,
            "details": {k: _jsonable(x) for k, x in self.details.items()},
        })
        if self.per_category is not None:
            out["per_category"] = {str(c): self._category_row(row, confidence_level)
                                   for c, row in self.per_category.items()}
        return out

    def variant(self, data_level: str | None = None, weights: str | None = None) -> str:
        """How the coefficient treated the scale, said next to its title wherever it is
        shown: the ICC form in both namings (``"ICC2 = ICC(A,1)"``), the agreement
        weights (``"quadratic weights"``), the level of measurement (``"ordinal"``),
        ``"unweighted"`` for a figure computed unweighted on ordered data (``data_level``
        ordinal or above, or ``weights`` declared), or ``""``.
        """
        form, mcgraw_wong = self.details.get("form"), self.details.get("mcgraw_wong")
        if isinstance(form, str):
            return f"{form} = {mcgraw_wong}" if isinstance(mcgraw_wong, str) else form
        w = self.details.get("weights")
        if isinstance(w, str) and w != "identity":
            return f"{w} weights"
        level = self.details.get("level")
        if isinstance(level, str):
            return level
        ordered = data_level not in (None, "nominal") or weights not in (None, "identity")
        return "unweighted" if w == "identity" and ordered else ""

    def _category_row(self, row: Mapping[str, Any], level: float) -> dict[str, Any]:
        """A per-category row, with its normal interval where it has an ``se`` only (its
        estimate is ``estimate``, or ``kappa`` for Fleiss' per-category kappa)."""
        out = {k: _jsonable(x) for k, x in row.items()}
        est, se = out.get("estimate", out.get("kappa")), out.get("se")
        if "confidence_interval" not in out and est is not None and se is not None:
            half = float(norm_ppf(0.5 + level / 2.0)) * se
            low, high = self._clip(est - half, est + half)
            out["confidence_interval"] = {"low": low, "high": high,
                                          "confidence_level": level, "method": "asymptotic"}
        return out

    def _term_names(self) -> tuple[str, str]:
        if self.terms is not None:
            return self.terms
        kind = "disagreement" if self.coefficient in DISAGREEMENT_COEFFICIENTS else "agreement"
        return f"observed_{kind}", f"expected_{kind}"

    def _default_interval(self, confidence_level: float) -> ConfidenceInterval | None:
        """The asymptotic interval when the figure has one, else ``None``."""
        if not self.defined or (self.analytic_interval is None and not math.isfinite(self.se)):
            return None
        try:
            return self.confidence_interval(confidence_level)
        except InvalidParameterError:
            return None

    def _card(self) -> Card:
        return agreement_card(self)

    def __str__(self) -> str:
        est = "undefined" if not self.defined else f"{self.estimate:.4f}"
        se = "" if not math.isfinite(self.se) else f" (SE {self.se:.4f})"
        why = f" [{self.undefined_reason}]" if self.undefined_reason else ""
        return f"{self.coefficient} = {est}{se}, n_units={self.n_units}{why}"


def labelled(title: str, variant: str) -> str:
    """A figure's title with its :meth:`AgreementResult.variant`, e.g. ``Cohen's kappa
    (quadratic weights)``; a title that ends in parentheses takes the variant inside them.

    >>> labelled("Intraclass correlation (ICC)", "ICC2 = ICC(A,1)")
    'Intraclass correlation (ICC, ICC2 = ICC(A,1))'
    """
    if not variant:
        return title
    if title.endswith(")"):
        return f"{title[:-1]}, {variant})"
    return f"{title} ({variant})"


def _method_label(method: object) -> str:
    if isinstance(method, Bootstrap):
        return f"bootstrap-{method.kind}"
    return v.choice(method, ("asymptotic", "jackknife"), param="method", func="confidence_interval")  # type: ignore[return-value]


def _num(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def _jsonable(x: Any) -> Any:
    if isinstance(x, (bool, str)) or x is None:
        return x
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return _num(float(x))
    if isinstance(x, Mapping):
        return {str(k): _jsonable(val) for k, val in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_jsonable(val) for val in x]
    return str(x)
