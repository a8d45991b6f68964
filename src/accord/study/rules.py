"""The parts of a declared study: population, annotators, task, metric, acceptance rule,
disposition, and the decision a rule takes on a result (see :mod:`accord.study.protocol`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from accord.data._names import DEFAULT_SEED
from accord.data.annotations import Annotations
from accord.inference.results import AgreementResult, ConfidenceInterval

On = Literal["estimate", "lower-ci"]
Status = Literal["accepted", "rejected", "undefined"]
ON_CHOICES: tuple[str, ...] = ("estimate", "lower-ci")
INTERVALS: tuple[str, ...] = ("asymptotic", "jackknife", "bootstrap")
MISSING_CHOICES: tuple[str, ...] = ("exclude", "not-allowed")
DISPOSITION_FIELDS: tuple[str, ...] = ("disagreement_review", "reference", "decided_by", "date")


# --------------------------------------------------------------------------- parts
@dataclass(frozen=True)
class Population:
    """Who the units stand for, how they were sampled, and which they are."""

    description: str | None = None
    sampling: str | None = None
    items: tuple[str, ...] | None = None
    items_file: str | None = None


@dataclass(frozen=True)
class Annotators:
    """The declared annotators and whether their labels are independent."""

    names: tuple[str, ...] | None = None
    independent: bool | None = None


@dataclass(frozen=True)
class Task:
    """The task basis: the category set and order, the ontology revision, missing labels."""

    categories: tuple[Any, ...] | None = None
    ontology_revision: str | None = None
    missing: str | None = None


@dataclass(frozen=True)
class Metric:
    """The declared coefficient with its options and interval."""

    coefficient: str
    weights: str | None = None
    level: str | None = None
    form: str | None = None
    confidence_level: float = 0.95
    average: str | None = None
    positive: Any = None
    interval: str = "asymptotic"
    n_resamples: int = 9999
    bootstrap_kind: str = "percentile"
    seed: int | None = None
    mode: str | None = None

    def method(self) -> Any:
        """The ``method=`` of ``confidence_interval``: a name or a seeded Bootstrap."""
        if self.interval != "bootstrap":
            return self.interval
        from accord.inference import Bootstrap

        return Bootstrap(n_resamples=self.n_resamples, kind=self.bootstrap_kind,  # type: ignore[arg-type]
                         rng=DEFAULT_SEED if self.seed is None else self.seed)

    def describe(self) -> str:
        """One line, e.g. ``cohen_kappa (weights quadratic), 95% asymptotic interval``."""
        opts = [f"{k} {val}" for k, val in (("weights", self.weights), ("level", self.level),
                                            ("form", self.form), ("average", self.average),
                                            ("positive", self.positive),
                                            ("mode", self.mode)) if val is not None]
        extra = f" ({', '.join(opts)})" if opts else ""
        how = self.interval
        if self.interval == "bootstrap":
            how = (f"bootstrap-{self.bootstrap_kind} ({self.n_resamples} resamples, "
                   f"seed {DEFAULT_SEED if self.seed is None else self.seed})")
        return f"{self.coefficient}{extra}, {_pct(self.confidence_level)} {how} interval"


RULE_TOLERANCE = 1e-12  # floating-point rounding of a value equal to the threshold


@dataclass(frozen=True)
class AcceptanceRule:
    """``coefficient >= threshold`` (or ``>``), on the estimate or the lower confidence limit.

    A value within 1e-12 of the threshold counts as equal to it: kappa = 2/5 is
    computed as 0.39999999999999997, and ``kappa >= 0.4`` must accept it.

    Examples
    --------
    >>> rule = AcceptanceRule("cohen_kappa", 0.8, on="lower-ci")
    >>> rule.text()
    'cohen_kappa >= 0.8 on the lower confidence limit'
    """

    coefficient: str
    threshold: float
    operator: Literal[">=", ">"] = ">="
    on: On = "estimate"

    def __post_init__(self) -> None:
        from accord.data import _validation as v

        v.choice(self.on, ON_CHOICES, param="on", func="AcceptanceRule")
        v.choice(self.operator, (">=", ">"), param="operator", func="AcceptanceRule")
        if not isinstance(self.threshold, (int, float)) or not math.isfinite(self.threshold):
            raise v.fail("threshold", "AcceptanceRule", "a finite number", self.threshold)

    def text(self) -> str:
        """The rule in words."""
        where = "the estimate" if self.on == "estimate" else "the lower confidence limit"
        return f"{self.coefficient} {self.operator} {self.threshold:g} on {where}"

    def decide(self, result: AgreementResult, interval: ConfidenceInterval | None = None,
               *, interval_error: str | None = None) -> Decision:
        """The decision for ``result`` (and its ``interval`` when the rule is on the lower limit).

        Undefined when the estimate is undefined, or when the rule is on the lower
        limit and the interval is missing or undefined; never accepted then.
        """
        value, reason = self._value(result, interval, interval_error)
        if reason is not None:
            return Decision("undefined", self, math.nan, result, interval, reason)
        if self.operator == ">=":
            ok = value >= self.threshold - RULE_TOLERANCE
        else:
            ok = value > self.threshold + RULE_TOLERANCE
        return Decision("accepted" if ok else "rejected", self, value, result, interval, None)

    def _value(self, result: AgreementResult, interval: ConfidenceInterval | None,
               interval_error: str | None) -> tuple[float, str | None]:
        if not result.defined:
            why = result.undefined_reason or "the estimate is not a number"
            return math.nan, f"{result.coefficient} is undefined: {why}"
        if self.on == "estimate":
            return result.estimate, None
        if interval is None or not math.isfinite(interval.low):
            why = interval_error or "the confidence interval could not be computed"
            return math.nan, (f"the lower confidence limit of {result.coefficient} is "
                              f"undefined: {why}")
        return interval.low, None


@dataclass(frozen=True)
class Disposition:
    """What happened after the numbers: filled in by the people who review the pilot."""

    disagreement_review: str = ""
    reference: str = ""
    decided_by: str = ""
    date: str = ""

    def items(self) -> list[tuple[str, str]]:
        """``(field, value)`` pairs in the order they are shown."""
        return [(name, getattr(self, name)) for name in DISPOSITION_FIELDS]


@dataclass(frozen=True)
class Decision:
    """The outcome of an acceptance rule on one result.

    Attributes
    ----------
    status : {"accepted", "rejected", "undefined"}
        ``undefined`` when the value the rule needs is not a number; it is not accepted.
    rule : AcceptanceRule
    value : float
        The figure compared with the threshold (estimate or lower limit); ``nan`` if undefined.
    result : AgreementResult
    interval : ConfidenceInterval or None
    reason : str or None
        Why the decision is undefined.
    """

    status: Status
    rule: AcceptanceRule
    value: float
    result: AgreementResult
    interval: ConfidenceInterval | None
    reason: str | None = None

    @property
    def accepted(self) -> bool:
        """Whether the rule was met on a defined value."""
        return self.status == "accepted"

    def line(self) -> str:
        """The decision in one line, for a terminal or a CI log."""
        rule = self.rule
        n = f"n = {self.result.n_units} units"
        if self.status == "undefined":
            return f"UNDEFINED (not accepted): {self.reason}; rule {rule.text()} ({n})"
        what = "estimate" if rule.on == "estimate" else self._lower_label()
        op = rule.operator if self.accepted else ("<" if rule.operator == ">=" else "<=")
        extra = ""
        if rule.on == "lower-ci":
            extra = f", estimate {self.result.estimate:.4f}"
        return (f"{self.status.upper()}: {rule.coefficient} {what} {self.value:.4f} {op} "
                f"{rule.threshold:g} ({n}{extra})")

    def _lower_label(self) -> str:
        ci = self.interval
        if ci is None:
            return "lower limit"
        return f"lower {_pct(ci.confidence_level)} limit ({ci.method})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision (an undefined value is ``None``): the
        decision, and the coefficient it was made on as a figure (``coefficient``,
        ``estimate``, ``confidence_interval``)."""
        ci = self.interval
        return {
            "coefficient": self.result.coefficient,
            "status": self.status,
            "rule": {"coefficient": self.rule.coefficient, "operator": self.rule.operator,
                     "threshold": float(self.rule.threshold), "on": self.rule.on,
                     "text": self.rule.text()},
            "value": None if not math.isfinite(self.value) else float(self.value),
            "estimate": None if not self.result.defined else float(self.result.estimate),
            "confidence_interval": None if ci is None else ci.to_dict(),
            "reason": self.reason,
            "line": self.line(),
        }


@dataclass(frozen=True)
class Evaluation:
    """A study (or an ad-hoc rule) applied to data: what was computed and decided."""

    annotations: Annotations
    result: AgreementResult
    interval: ConfidenceInterval | None
    decision: Decision
    notes: tuple[str, ...] = ()


def _pct(level: float) -> str:
    return f"{level * 100:g}%"
