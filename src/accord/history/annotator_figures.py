"""Per-annotator figures of a run, for the history store's per-annotator trends.

Each annotator's figure is ``majority_agreement``: the share of the annotator's
units on which their label equals the majority label of all the annotators
(units whose majority is tied are left out), with its binomial standard error
and asymptotic interval (``accuracy`` of :func:`accord.annotators` with
``method="majority"``). Unlike a pairwise figure (the annotator's kappa against
the others), it moves little when *another* annotator drifts, so a drop can be
told apart: with three annotators of whom one guesses, the others' figures stay
near their level. With two annotators the majority cannot be told from either
of them, so no per-annotator figure is recorded (said in the run's register).
The history charts each annotator over the batches, with control limits from the
annotator's own first batches (:func:`accord.history.drift.annotator_charts`).
"""

from __future__ import annotations

import warnings
from typing import Any

from accord.errors import AccordError, DegenerateDataWarning

from .store import Figure

__all__ = ["PER_ANNOTATOR", "annotator_figures"]

#: The per-annotator coefficient recorded with each run.
PER_ANNOTATOR = "majority_agreement"
#: Above this many annotators a run records no per-annotator figures (a crowd: the
#: per-annotator pass of :func:`accord.annotators` grows with annotators x ratings).
MAX_ANNOTATORS = 500


def annotator_figures(annotations: Any, *, confidence_level: float = 0.95
                      ) -> tuple[tuple[Figure, ...], str | None]:
    """``(figures, note)``: one :class:`Figure` per annotator (``rater`` set), or none and
    the sentence that says why (numeric scores, fewer than three annotators, a crowd of
    more than :data:`MAX_ANNOTATORS`)."""
    from dataclasses import replace

    from accord.annotators.quality import annotators

    raters = getattr(annotations, "raters", ())
    if len(raters) < 3:
        return (), (f"no per-annotator figures: {len(raters)} annotator(s); a drifting "
                    "annotator can be told apart from three on")
    if len(raters) > MAX_ANNOTATORS:
        return (), (f"no per-annotator figures: {len(raters)} annotators, more than the "
                    f"{MAX_ANNOTATORS} a run charts one by one (accord annotators rates a crowd)")
    level = getattr(annotations, "level", None)
    if level in ("interval", "ratio"):
        return (), (f"no per-annotator figures: agreement with the majority needs "
                    f"categories; the data are {level} scores")
    try:
        with warnings.catch_warnings():  # an undefined figure is recorded with its reason
            warnings.simplefilter("ignore", DegenerateDataWarning)
            quality = annotators(annotations, method="majority",
                                 confidence_level=confidence_level)
            figures = tuple(
                replace(Figure.of(q.accuracy, q.accuracy.confidence_interval(confidence_level)
                                  if q.accuracy.defined else None, rater=str(q.name)),
                        coefficient=PER_ANNOTATOR) for q in quality)
    except AccordError as exc:
        return (), f"no per-annotator figures: {exc}"
    return figures, None
