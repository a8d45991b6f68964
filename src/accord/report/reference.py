"""The "Model against reference" section of the report, built from :func:`accord.evaluate`.

Present when the data hold exactly one rater of kind ``"gold"`` and at least
one of kind ``"model"`` or ``"llm"``; the other human raters give the ceiling.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.inference.results import AgreementResult, ConfidenceInterval
from accord.report.model import (
    ClassRow,
    ConfusedPair,
    FigureRow,
    ReferenceSection,
    SystemEvaluation,
    Worksheet,
)

__all__ = ["has_reference", "reference_section"]

SUMMARY = (("accuracy", "accuracy"), ("balanced accuracy", "balanced_accuracy"),
           ("macro F1", "macro.f1"), ("weighted F1", "weighted.f1"),
           ("Matthews correlation", "mcc"), ("Cohen's kappa", "kappa"))
MAX_CLASSES = 50
TOP_CONFUSED = 3
EXAMPLES = 3


def has_reference(ann: Annotations) -> bool:
    """Exactly one rater of kind gold and at least one of kind model or llm."""
    golds = [r for r in ann.raters if ann.kinds.get(r) == "gold"]
    return len(golds) == 1 and any(ann.kinds.get(r) in ("model", "llm") for r in ann.raters)


def reference_section(ann: Annotations, confidence_level: float) -> ReferenceSection | None:
    """Every system against the reference, or ``None`` when the data hold no such roles."""
    if ann.set_valued or not has_reference(ann) or len(ann.categories) > MAX_CLASSES:
        return None
    from accord.evaluation import evaluate  # only for data with a reference and a system

    golds = [r for r in ann.raters if ann.kinds.get(r) == "gold"]
    systems = [r for r in ann.raters if ann.kinds.get(r) in ("model", "llm")]
    evs = evaluate(ann, reference=golds[0], systems=systems)
    wide = ann.wide()
    rows = tuple(replace(_system(ev, confidence_level),
                         confused=confused_pairs(ann, wide, golds[0], ev.system))
                 for ev in evs.values())
    names = list(evs)
    tests = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            t = evs.mcnemar(a, b)
            tests.append(f"McNemar's exact test, {a} vs {b}: {t.b} of {t.n_units} units right "
                         f"only under {a}, {t.c} only under {b}; p = {t.pvalue:.4g}.")
    return ReferenceSection(str(golds[0]), tuple(str(h) for h in evs.humans), rows, tuple(tests))


def confused_pairs(ann: Annotations, wide: np.ndarray[Any, Any], reference: Any,
                   system: Any) -> tuple[ConfusedPair, ...]:
    """The class pairs the system confuses most (ties: the reference's class order), each
    with its first units in data order; one ``bincount`` over the units both labelled."""
    k = len(ann.categories)
    ref, sys = wide[:, ann.raters.index(reference)], wide[:, ann.raters.index(system)]
    wrong = np.flatnonzero((ref >= 0) & (sys >= 0) & (ref != sys))
    cell = ref[wrong] * k + sys[wrong]
    counts = np.bincount(cell, minlength=k * k)
    order = np.argsort(-counts, kind="stable")[:TOP_CONFUSED]
    out = []
    for c in order[counts[order] > 0]:
        units = wrong[cell == c][:EXAMPLES]
        out.append(ConfusedPair(str(ann.categories[c // k]), str(ann.categories[c % k]),
                                int(counts[c]), tuple(str(ann.units[u]) for u in units)))
    return tuple(out)


def _system(ev: Any, level: float) -> SystemEvaluation:
    cis = ev.intervals(level)
    t = ev.table
    ws = Worksheet(
        raters=(ev.reference, ev.system), categories=tuple(str(c) for c in t.categories),
        counts=tuple(tuple(float(x) for x in row) for row in t.counts),
        row_totals=tuple(float(x) for x in t.row_totals),
        col_totals=tuple(float(x) for x in t.col_totals), n=float(t.n),
        p_o=ev.kappa.observed, p_e=ev.kappa.expected, kappa=ev.kappa.estimate,
        kappa_undefined_reason=ev.kappa.undefined_reason, shown=True,
    )
    classes = tuple(
        ClassRow(str(label), row.support,
                 *(_row(f, getattr(row, f), cis[f"per_class.{label}.{f}"])
                   for f in ("precision", "recall", "f1")))
        for label, row in ev.per_class.items()
    )
    results = ev.results()
    summary = tuple(_row(name, results[key], cis[key]) for name, key in SUMMARY)
    b = ev.baselines
    sentences = tuple(s for s in (*ev.notes, b.chance_note, b.majority_note) if s)
    ceiling: tuple[FigureRow, ...] = ()
    figure = outcome = None
    if ev.ceiling is not None:
        c = ev.ceiling
        figure, outcome = c.figure, c.outcome
        sentences += (c.sentence,)
        ceiling = (_row(ev.system, c.system_result, _asymptotic(c.system_result, level)),
                   *(_row(h, r, _asymptotic(r, level)) for h, r in c.humans.items()))
        if c.human_agreement is not None:
            ceiling += (_row("human-human agreement", c.human_agreement,
                             _asymptotic(c.human_agreement, level)),)
    return SystemEvaluation(
        system=ev.system, reference=ev.reference, n_units=ev.n_units,
        n_unreferenced=ev.n_unreferenced, n_unpredicted=ev.n_unpredicted, confusion=ws,
        classes=classes, summary=summary, majority_class=str(b.majority_class),
        majority_accuracy=b.majority_accuracy, chance_accuracy=b.chance_accuracy,
        sentences=sentences, ceiling_figure=figure, ceiling=ceiling, ceiling_outcome=outcome,
    )


def _asymptotic(res: AgreementResult, level: float) -> ConfidenceInterval | None:
    return res.confidence_interval(level) if res.defined else None


def _row(name: str, res: AgreementResult, ci: ConfidenceInterval | None) -> FigureRow:
    low = ci.low if ci is not None else math.nan
    high = ci.high if ci is not None else math.nan
    method = ci.method if ci is not None else ""
    return FigureRow(name, res.estimate, low, high, method, res.undefined_reason)
