"""``accord.evaluate`` on set-valued Annotations: each system's label sets against the
reference rater's, scored by :func:`accord.evaluate_multilabel`, with the human ceiling.

The human ceiling of a label-set system compares one figure (micro F1 by default)
of the system with the same figure of each human annotator against the same
reference, on the units the system and the reference both rated. Each figure is
an :class:`~accord.AgreementResult` of summed per-unit counts (micro: ``tp``,
``fp``, ``fn`` over the labels; subset accuracy: equal sets), so the paired
bootstrap of :func:`accord.compare` resamples units with all their labels.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DegenerateDataWarning
from accord.evaluation import _annotations as ann_mod
from accord.inference.bootstrap import Bootstrap
from accord.inference.resampling import Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.multilabel.metrics import MultilabelEvaluation, evaluate_multilabel

__all__ = ["FIGURES", "evaluate_sets"]

FloatArray = NDArray[np.float64]

#: The figures a human ceiling of label sets compares: the statistic of summed
#: per-unit ``(tp, fp, fn, equal sets, units)``.
FIGURES: dict[str, Callable[[FloatArray], FloatArray]] = {
    "micro.f1": lambda s: 2 * s[:, 0] / (2 * s[:, 0] + s[:, 1] + s[:, 2]),
    "micro.precision": lambda s: s[:, 0] / (s[:, 0] + s[:, 1]),
    "micro.recall": lambda s: s[:, 0] / (s[:, 0] + s[:, 2]),
    "subset_accuracy": lambda s: s[:, 3] / s[:, 4],
}


def evaluate_sets(ann: Annotations, reference: Any, systems: Any, *, categories: Any,
                  unused: dict[str, Any], ceiling_figure: str | None = None,
                  method: Bootstrap | None = None,
                  ) -> MultilabelEvaluation | dict[Any, MultilabelEvaluation]:
    """One :class:`MultilabelEvaluation` per system (a dict unless ``systems`` is one name),
    each with its human ceiling when human raters are present.

    ``categories`` are the labels and their order; ``unused`` holds the options of
    single-label evaluation, each refused unless left at its default.
    """
    for name, value in unused.items():
        if value is not None:
            raise v.fail(name, "evaluate", "left unset for label sets (scored as scikit-learn "
                         "scores multilabel data)", value)
    figure = v.choice(ceiling_figure or "micro.f1", FIGURES, param="ceiling_figure",
                      func="evaluate")
    roles = ann_mod.roles(ann, reference, systems)
    sets = ann.as_sets()
    codes = sets.wide()
    cats = [*sets.categories, None]  # code -1 (not rated) picks None
    ref_col = codes[:, sets.raters.index(roles.reference)]
    ref = [cats[c] for c in ref_col]
    labels = list(categories) if categories is not None else list(sets.labels)
    out = {}
    for system in roles.systems:
        sys_col = codes[:, sets.raters.index(system)]
        ev = evaluate_multilabel(ref, [cats[c] for c in sys_col], labels=labels)
        if roles.humans:
            ev = replace(ev, ceiling=_ceiling(sets, codes, ref_col, str(system), roles.humans,
                                              labels, figure, method))
        out[system] = ev
    if isinstance(systems, (str, int)):
        return out[systems]
    return out


def _ceiling(sets: Annotations, codes: NDArray[np.int64], ref_col: NDArray[np.int64],
             system: str, humans: Sequence[Any], labels: list[Any], figure: str,
             method: Bootstrap | None) -> Any:
    from accord.inference.ceiling import ceiling_for

    indicator = _indicators(sets.categories, labels)
    scope = (ref_col >= 0) & (codes[:, sets.raters.index(system)] >= 0)
    system_result = _figure(indicator, ref_col, codes[:, sets.raters.index(system)], scope,
                            sets.units, figure)
    scores = {}
    for human in humans:
        col = codes[:, sets.raters.index(human)]
        if not (scope & (col >= 0)).any():
            continue  # this annotator rated none of the system's units
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            scores[str(human)] = _figure(indicator, ref_col, col, scope, sets.units, figure)
    return ceiling_for(system, system_result, scores, None, figure,
                       method or Bootstrap(n_resamples=9999, rng=0))


def _indicators(categories: Sequence[Any], labels: list[Any]) -> NDArray[np.bool_]:
    """The label-indicator row of each label set (a row of False for code -1, last)."""
    where = {x: j for j, x in enumerate(labels)}
    out = np.zeros((len(categories) + 1, len(labels)), dtype=bool)
    for i, labelset in enumerate(categories):
        for x in labelset:
            if x in where:
                out[i, where[x]] = True
    return out


def _figure(indicator: NDArray[np.bool_], ref: NDArray[np.int64], other: NDArray[np.int64],
            scope: NDArray[np.bool_], units: Sequence[Any], figure: str) -> AgreementResult:
    """``figure`` of ``other`` against ``ref`` on the units of ``scope`` both rated, from
    per-unit ``(tp, fp, fn, equal, 1)`` rows labelled by unit."""
    keep = np.flatnonzero(scope & (other >= 0))
    t, p = indicator[ref[keep]], indicator[other[keep]]
    rows = np.column_stack([(t & p).sum(axis=1), (~t & p).sum(axis=1), (t & ~p).sum(axis=1),
                            (t == p).all(axis=1), np.ones(len(keep))]).astype(np.float64)
    stat = FIGURES[figure]
    with np.errstate(divide="ignore", invalid="ignore"):
        est = float(stat(rows.sum(axis=0)[None, :])[0])
    reason = None if math.isfinite(est) else f"{figure} has a zero denominator on these units"
    if reason is not None:
        v.warn_undefined(figure, reason)
    ids = tuple(units[i] for i in keep.tolist())

    def resampling() -> Resampling:
        patterns, counts, inverse = pattern_index(rows)

        def quiet(s: FloatArray) -> FloatArray:
            with np.errstate(divide="ignore", invalid="ignore"):
                return stat(s)

        return Resampling(np.asarray(patterns, dtype=np.float64), counts, quiet, inverse, ids)

    return AgreementResult(
        coefficient=figure, estimate=est, observed=math.nan, expected=math.nan, se=math.nan,
        n_units=len(keep), n_raters=2, undefined_reason=reason,
        details={"tp": int(rows[:, 0].sum()), "fp": int(rows[:, 1].sum()),
                 "fn": int(rows[:, 2].sum()), "equal_sets": int(rows[:, 3].sum())},
        bounds=(0.0, 1.0), resampling=resampling,
    )
