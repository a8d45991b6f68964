"""``accord.evaluate`` on set-valued Annotations: each system's label sets against the
reference rater's, scored by :func:`accord.evaluate_multilabel`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from accord import _validation as v
from accord.annotations import Annotations
from accord.evaluation import _annotations as ann_mod
from accord.multilabel_metrics import MultilabelEvaluation, evaluate_multilabel

__all__ = ["evaluate_sets"]


def evaluate_sets(ann: Annotations, reference: Any, systems: Any, *, categories: Any,
                  unused: dict[str, Any]) -> MultilabelEvaluation | dict[Any,
                                                                        MultilabelEvaluation]:
    """One :class:`MultilabelEvaluation` per system (a dict unless ``systems`` is one name).

    ``categories`` are the labels and their order; ``unused`` holds the options of
    single-label evaluation, each refused unless left at its default.
    """
    for name, value in unused.items():
        if value is not None:
            raise v.fail(name, "evaluate", "left unset for label sets (scored as scikit-learn "
                         "scores multilabel data)", value)
    roles = ann_mod.roles(ann, reference, systems)
    sets = ann.as_sets()
    codes = sets.wide()
    cats = [*sets.categories, None]  # code -1 (not rated) picks None
    ref = [cats[c] for c in codes[:, sets.raters.index(roles.reference)]]
    labels = list(categories) if categories is not None else list(sets.labels)
    note = ((f"The human raters {', '.join(repr(h) for h in roles.humans)} give no ceiling "
             "for label sets; score them as systems to compare.",) if roles.humans else ())
    out = {}
    for system in roles.systems:
        pred = [cats[c] for c in codes[:, sets.raters.index(system)]]
        ev = evaluate_multilabel(ref, pred, labels=labels)
        out[system] = replace(ev, notes=ev.notes + note)
    if isinstance(systems, (str, int)):
        return out[systems]
    return out
