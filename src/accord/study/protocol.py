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
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from accord.data._files import read_small_text
from accord.data.annotations import LEVELS, Annotations
from accord.errors import AccordError, StudyError
from accord.study._toml import Parser
from accord.study.rules import (
    DISPOSITION_FIELDS,
    INTERVALS,
    MISSING_CHOICES,
    ON_CHOICES,
    RULE_TOLERANCE,
    AcceptanceRule,
    Annotators,
    Decision,
    Disposition,
    Evaluation,
    Metric,
    On,
    Population,
    Status,
    Task,
)

__all__ = [
    "DISPOSITION_FIELDS", "INTERVALS", "MISSING_CHOICES", "ON_CHOICES", "RULE_TOLERANCE",
    "AcceptanceRule", "Annotators", "Decision", "Disposition", "Evaluation", "Metric", "On",
    "Population", "Status", "Study", "Task", "evaluate", "load_study",
]


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
