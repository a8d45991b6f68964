"""The declared study protocol and the acceptance decision.

A study protocol is written *before* the annotation starts (a TOML file) and
says what a pilot is meant to show: the population and the sampled items, the
annotators and whether their labels are independent, the task basis (category
set, ontology revision, missing-label treatment), the metric (coefficient,
weights or level, confidence level and interval method) and the acceptance
rule, e.g. ``cohen_kappa >= 0.80`` applied to the estimate or to the lower
confidence limit. The report then sets each declared field next to what the
data showed, and the rule gives a decision: ``accepted``, ``rejected`` or
``undefined``. An undefined coefficient (or an undefined lower limit) is never
accepted.

The file (every table and key is optional except ``[acceptance]``)::

    title = "Review spam pilot, batch 1"

    [population]
    description = "Product reviews posted in Q1 2024"
    sampling = "simple random sample of 120, seed 20240301"
    items_file = "pilot_items.txt"      # or: items = ["rev-0001", ...]

    [annotators]
    names = ["annotator_a", "annotator_b"]
    independent = true                   # labelled alone, before any adjudication

    [task]
    categories = ["genuine", "spam", "off_topic"]   # the set and its order
    ontology_revision = "review guidelines v2.1"
    missing = "exclude"                  # or "not-allowed": any missing label is a deviation

    [metric]
    coefficient = "cohen_kappa"
    weights = "identity"                 # or level = "ordinal" for Krippendorff's alpha
    confidence_level = 0.95
    interval = "asymptotic"              # "jackknife" or "bootstrap" (n_resamples, seed)

    [acceptance]
    rule = "kappa >= 0.70"               # the metric's name or a part of it; >= or >
    on = "lower-ci"                      # or "estimate"

    [disposition]                        # filled in after the review
    disagreement_review = ""
    reference = ""
    decided_by = ""
    date = ""

Examples
--------
>>> import accord
>>> study = accord.Study.from_dict({"acceptance": {"rule": "cohen_kappa >= 0.5"}})
>>> ann = accord.Annotations.from_pairs(list("aabbab"), list("aabbaa"))
>>> study.evaluate(ann).decision.line()
'ACCEPTED: cohen_kappa estimate 0.6667 >= 0.5 (n = 6 units)'
"""

from __future__ import annotations

import importlib
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from accord.data._files import read_small_text
from accord.data.annotations import LEVELS, Annotations
from accord.errors import AccordError, StudyError
from accord.inference.results import AgreementResult, ConfidenceInterval

On = Literal["estimate", "lower-ci"]
Status = Literal["accepted", "rejected", "undefined"]
ON_CHOICES: tuple[str, ...] = ("estimate", "lower-ci")
INTERVALS: tuple[str, ...] = ("asymptotic", "jackknife", "bootstrap")
MISSING_CHOICES: tuple[str, ...] = ("exclude", "not-allowed")
DISPOSITION_FIELDS: tuple[str, ...] = ("disagreement_review", "reference", "decided_by", "date")

__all__ = [
    "AcceptanceRule", "Annotators", "Decision", "Disposition", "Evaluation", "Metric",
    "Population", "Study", "Task", "evaluate", "load_study",
]


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
                         rng=self.seed)

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
                   f"seed {self.seed})")
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
        """JSON-ready mapping at full precision (an undefined value is ``None``)."""
        ci = self.interval
        return {
            "status": self.status,
            "rule": {"coefficient": self.rule.coefficient, "operator": self.rule.operator,
                     "threshold": float(self.rule.threshold), "on": self.rule.on,
                     "text": self.rule.text()},
            "value": None if not math.isfinite(self.value) else float(self.value),
            "estimate": None if not self.result.defined else float(self.result.estimate),
            "interval": None if ci is None else ci.to_dict(),
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


# --------------------------------------------------------------------------- study
@dataclass(frozen=True)
class Study:
    """A declared study protocol: the evidence register and the acceptance rule.

    Build one with :func:`load_study` (a TOML file) or :meth:`from_dict`.
    """

    acceptance: AcceptanceRule
    metric: Metric
    title: str | None = None
    population: Population = field(default_factory=Population)
    annotators: Annotators = field(default_factory=Annotators)
    task: Task = field(default_factory=Task)
    disposition: Disposition = field(default_factory=Disposition)
    source: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str | None = None,
                  base_dir: str | Path | None = None) -> Study:
        """A study from the parsed TOML mapping; ``items_file`` is read relative to ``base_dir``."""
        from accord.study._toml import Parser

        p = Parser(source or "study")
        p.keys(data, "")
        population = p.population(p.table(data, "population"), base_dir)
        metric_t = p.table(data, "metric")
        acceptance_t = p.table(data, "acceptance")
        if not acceptance_t:
            raise p.error("acceptance", "is required: declare the rule, e.g. "
                          "rule = \"cohen_kappa >= 0.8\"")
        rule = p.rule(acceptance_t, metric_t.get("coefficient"))
        return cls(
            acceptance=rule, metric=p.metric(metric_t, rule.coefficient),
            title=p.text(data, "", "title"), population=population,
            annotators=p.annotators(p.table(data, "annotators")),
            task=p.task(p.table(data, "task")),
            disposition=p.disposition(p.table(data, "disposition")), source=source,
        )

    def prepare(self, annotations: Annotations) -> tuple[Annotations, tuple[str, ...]]:
        """The annotations as the protocol reads them: declared annotators and category order.

        Declared annotators are selected when at least two of them are in the data;
        the declared category order is applied when every label seen is declared.
        What could not be applied is returned as notes (the register shows it too).
        """
        ann, notes = annotations, []
        names = self.annotators.names
        if names:
            by_str = {str(r): r for r in ann.raters}
            found = [by_str[n] for n in names if n in by_str]
            if len(found) >= 2 and tuple(found) != ann.raters:
                ann = ann.select(found)
            elif len(found) < 2:
                notes.append("fewer than two declared annotators are in the data; "
                             "all raters in the data were used")
        cats = self.task.categories
        if cats:
            ann, note = _apply_categories(ann, cats, self.metric.level)
            notes += [note] if note else []
        return ann, tuple(notes)

    def evaluate(self, annotations: Annotations) -> Evaluation:
        """Apply the protocol to ``annotations``: the metric, its interval and the decision."""
        ann, notes = self.prepare(annotations)
        ev = evaluate(ann, self.metric, self.acceptance)
        return replace(ev, notes=notes + ev.notes)


def evaluate(annotations: Annotations, metric: Metric, rule: AcceptanceRule) -> Evaluation:
    """Compute ``metric`` on ``annotations`` and decide with ``rule``.

    The interval is computed when the rule is on the lower limit, or when the
    coefficient has one (it is shown next to the decision); a coefficient with no
    interval for the declared method is undefined on the lower limit, not accepted.

    Examples
    --------
    >>> import accord
    >>> ann = accord.Annotations.from_pairs(list("aabbab"), list("aabbaa"))
    >>> rule = AcceptanceRule("cohen_kappa", 0.8)
    >>> evaluate(ann, Metric("cohen_kappa"), rule).decision.status
    'rejected'
    """
    from accord.interpret.selection import compute

    result = compute(annotations, [metric.coefficient], weights=metric.weights,
                     level=metric.level, form=metric.form, average=metric.average,
                     positive=metric.positive, mode=metric.mode)[0]
    interval, error = None, None
    if result.defined:
        try:
            interval = result.confidence_interval(metric.confidence_level, method=metric.method())
        except AccordError as exc:
            error = str(exc)
    decision = rule.decide(result, interval, interval_error=error)
    return Evaluation(annotations, result, interval, decision)


#: The largest study file read (bytes): a protocol is a page of TOML.
STUDY_MAX_BYTES = 1024**2


def load_study(path: str | Path) -> Study:
    """Read a study protocol from a TOML file.

    Raises
    ------
    StudyError
        When the file is not valid TOML or a key is unknown, missing or invalid
        (the message names the key).
    """
    # tomllib from Python 3.11; the same parser as the tomli package before (declared for 3.10)
    tomllib = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    if not isinstance(path, (str, os.PathLike)):
        raise StudyError(f"load_study needs the path of a TOML file; got {type(path).__name__}.")
    p = Path(path)
    text = read_small_text(p, STUDY_MAX_BYTES, StudyError)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"{p}: not valid TOML ({exc}).") from None
    except RecursionError:
        raise StudyError(f"{p}: not valid TOML (nested too deeply).") from None
    return Study.from_dict(data, source=str(p), base_dir=p.parent)


# --------------------------------------------------------------------------- helpers
def _pct(level: float) -> str:
    return f"{level * 100:g}%"


def _apply_categories(ann: Annotations, declared: Sequence[Any],
                      level: str | None) -> tuple[Annotations, str | None]:
    used = _used_categories(ann)
    by_str = {str(c): c for c in ann.categories}
    declared_s = {str(c) for c in declared}
    undeclared = [c for c in used if str(c) not in declared_s]
    if undeclared:
        shown = ", ".join(repr(str(c)) for c in undeclared[:5])
        return ann, f"labels outside the declared categories were seen ({shown}); " \
                    "the observed categories were used"
    mapped = [by_str.get(str(c), c) for c in declared]
    lvl = level if level in LEVELS else None
    return ann.with_categories(mapped, level=lvl), None  # type: ignore[arg-type]


def _used_categories(ann: Annotations) -> list[Any]:
    import numpy as np

    counts = np.bincount(ann.codes[2], minlength=len(ann.categories))
    return [c for c, n in zip(ann.categories, counts) if n > 0]
