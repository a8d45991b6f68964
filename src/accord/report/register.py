"""The evidence register: each declared field of the study next to what the data showed.

Statuses: ``ok`` (the data agree with the declaration), ``mismatch`` (a protocol
deviation, listed again under ``deviations``), ``warning`` (declared, but it
weakens the evidence, e.g. labels that are not independent), ``declared``
(nothing in the data can confirm it) and ``not declared``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.report.model import RegisterRow, StudySection
from accord.study.protocol import Evaluation, Study

SHOWN = 5

__all__ = ["study_section"]


def study_section(study: Study, raw: Annotations, ann: Annotations,
                  notes: Sequence[str]) -> StudySection:
    """Evaluate the study on ``ann`` (prepared from ``raw``) and build its register."""
    ev = study.evaluate(raw)
    rows = [
        *_population(study, raw),
        *_annotators(study, raw),
        *_task(study, raw, ann),
        _metric(study, ev),
        _acceptance(study, ev),
    ]
    deviations = tuple(f"{r.section} {r.item}: {r.observed}" for r in rows
                       if r.status == "mismatch")
    return StudySection(
        title=study.title, source=study.source, metric=study.metric.describe(),
        rule=study.acceptance.text(), register=tuple(rows), decision=ev.decision,
        deviations=deviations, disposition=tuple(study.disposition.items()),
        notes=tuple(dict.fromkeys([*notes, *ev.notes])),
    )


def _listed(items: Sequence[Any], n: int = SHOWN) -> str:
    shown = ", ".join(str(x) for x in list(items)[:n])
    return shown + (f" and {len(items) - n} more" if len(items) > n else "")


def _text_row(section: str, item: str, value: str | None, observed: str = "") -> RegisterRow:
    if value is None:
        return RegisterRow(section, item, "", observed, "not declared")
    return RegisterRow(section, item, value, observed or "(not checkable from the data)",
                       "declared")


def _population(study: Study, raw: Annotations) -> list[RegisterRow]:
    pop = study.population
    rows = [_text_row("population", "description", pop.description),
            _text_row("population", "sampling method", pop.sampling)]
    found = [str(u) for u in raw.units]
    if pop.items is None:
        rows.append(RegisterRow("population", "items", "", f"{len(found)} units in the data",
                                "not declared"))
        return rows
    declared = pop.items
    where = f" (from {pop.items_file})" if pop.items_file else ""
    found_set, declared_set = set(found), set(declared)
    absent = [u for u in declared if u not in found_set]
    extra = [u for u in found if u not in declared_set]
    parts = [f"{len(declared) - len(absent)} of the {len(declared)} declared items found"]
    if absent:
        parts.append(f"declared but not in the data: {_listed(absent)}")
    if extra:
        parts.append(f"{len(extra)} units not declared: {_listed(extra)}")
    status = "mismatch" if absent or extra else "ok"
    rows.append(RegisterRow("population", "items", f"{len(declared)} item ids{where}",
                            "; ".join(parts), status))
    return rows


def _annotators(study: Study, raw: Annotations) -> list[RegisterRow]:
    names = study.annotators.names
    found = [str(r) for r in raw.raters]
    if names is None:
        row = RegisterRow("annotators", "names", "", _listed(found, 10), "not declared")
    else:
        absent = [n for n in names if n not in found]
        others = [r for r in found if r not in names]
        parts = [f"{len(names) - len(absent)} of {len(names)} declared annotators found"]
        if absent:
            parts.append(f"not in the data: {_listed(absent)}")
        if others:
            parts.append(f"also in the data, not used: {_listed(others)}")
        row = RegisterRow("annotators", "names", ", ".join(names), "; ".join(parts),
                          "mismatch" if absent else "ok")
    ind = study.annotators.independent
    if ind is None:
        ind_row = RegisterRow("annotators", "independent labels", "", "", "not declared")
    elif ind:
        ind_row = RegisterRow("annotators", "independent labels",
                              "yes: each labelled alone, before any adjudication",
                              "(not checkable from the data)", "declared")
    else:
        ind_row = RegisterRow("annotators", "independent labels", "no",
                              "labels that are not independent (e.g. after adjudication or "
                              "discussion) overstate agreement", "warning")
    return [row, ind_row]


def _task(study: Study, raw: Annotations, ann: Annotations) -> list[RegisterRow]:
    task = study.task
    return [_categories(task.categories, ann),
            _text_row("task", "ontology revision", task.ontology_revision),
            _missing(task.missing, raw, ann)]


def _categories(declared: Sequence[Any] | None, ann: Annotations) -> RegisterRow:
    counts = np.bincount(ann.codes[2], minlength=len(ann.categories))
    seen = [(str(c), int(n)) for c, n in zip(ann.categories, counts) if n > 0]
    observed = _listed([f"{c} ({n})" for c, n in seen], 12)
    if declared is None:
        return RegisterRow("task", "categories", "", f"seen: {observed}", "not declared")
    declared_s = [str(c) for c in declared]
    undeclared = [c for c, _ in seen if c not in declared_s]
    unused = [c for c in declared_s if c not in {s for s, _ in seen}]
    parts = [f"seen: {observed}"]
    if undeclared:
        parts.append(f"not declared: {_listed(undeclared)}")
    if unused:
        parts.append(f"declared but never used: {_listed(unused)}")
    return RegisterRow("task", "categories (in order)", ", ".join(declared_s), "; ".join(parts),
                       "mismatch" if undeclared else "ok")


def _missing(declared: str | None, raw: Annotations, ann: Annotations) -> RegisterRow:
    missing = int(raw.audit.dropped.get("missing value", 0))
    per_unit = np.bincount(ann.codes[0], minlength=ann.n_units)
    incomplete = int((per_unit < ann.n_raters).sum())
    observed = (f"{missing} missing label(s) in the file; {incomplete} unit(s) not rated by "
                f"every annotator")
    if declared is None:
        return RegisterRow("task", "missing labels", "", observed, "not declared")
    text = {"exclude": "exclude: a unit counts for the raters who labelled it",
            "not-allowed": "not allowed: every annotator labels every item"}[declared]
    bad = declared == "not-allowed" and (missing > 0 or incomplete > 0)
    return RegisterRow("task", "missing labels", text, observed, "mismatch" if bad else "ok")


def _metric(study: Study, ev: Evaluation) -> RegisterRow:
    r, ci = ev.result, ev.interval
    if not r.defined:
        observed = f"undefined: {r.undefined_reason}"
    else:
        observed = f"{r.coefficient} = {r.estimate:.4f}"
        if math.isfinite(r.se):
            observed += f" (SE {r.se:.4f})"
        if ci is not None and math.isfinite(ci.low):
            observed += (f", {ci.confidence_level * 100:g}% CI {ci.low:.4f} to {ci.high:.4f} "
                         f"({ci.method})")
        observed += f", n = {r.n_units} units"
    return RegisterRow("metric", "coefficient and interval", study.metric.describe(), observed,
                       "ok" if r.defined else "warning")


def _acceptance(study: Study, ev: Evaluation) -> RegisterRow:
    d = ev.decision
    return RegisterRow("acceptance", "rule", study.acceptance.text(), d.line(), d.status)
