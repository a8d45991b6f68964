"""The human ceiling of a model's boxes: the model's figure beside each human annotator's.

The same concept as for labels and spans (:class:`accord.HumanCeiling`, the "upper
bound" of Gale, Church & Yarowsky 1992): when the table holds human annotators
besides the reference and the system, each human's boxes are scored against the same
reference exactly as the system's are (precision, recall or F1 at the same IoU
threshold, label-aware one-to-one matching on each image, counts summed over images),
on the same images, and the difference system minus each human gets a paired
bootstrap over images (:func:`accord.compare`: both figures are recomputed on the
same resampled images through their per image counts, never matching again).
``human_agreement`` is the mean pairwise box F1 among the humans themselves (the
``f1`` of :func:`accord.box_agreement` on the humans alone), when there are two or
more.

Who counts as a human: the annotators named by ``humans=``; by default every
annotator besides the reference and the system whose boxes carry no score (an
annotator with a scored box is taken to be a model and left out, said in the
audit). Every annotator of a box table is taken to have seen every image, so the
ceiling's units are all the table's images. AP has no human ceiling: a human's
boxes have no scores to rank.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np

from accord.errors import DataError, DegenerateDataWarning
from accord.images._figures import f1_stat, figure
from accord.inference.bootstrap import Bootstrap
from accord.inference.ceiling import HumanCeiling, ceiling_for
from accord.inference.results import AgreementResult
from accord.readers.boxes import BoxTable

__all__ = ["FIGURES", "box_ceiling", "default_humans", "resolve_humans", "scored"]

#: The figures a human ceiling of boxes compares (AP needs scores, which humans lack).
FIGURES = ("f1", "precision", "recall")


def scored(t: BoxTable, rater: int) -> bool:
    """Whether any box of this annotator carries a score (a model's detection)."""
    return t.score is not None and bool(np.isfinite(t.score[t.rater == rater]).any())


def default_humans(t: BoxTable, exclude: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The annotators besides ``exclude`` with no scored box, and those left out as models.

    >>> from accord.readers.boxes import box_table
    >>> t = box_table({"image": ["i"] * 4, "annotator": ["gold", "m1", "m2", "ann"],
    ...     "label": ["cat"] * 4, "x": [0] * 4, "y": [0] * 4, "w": [5] * 4, "h": [5] * 4,
    ...     "score": [None, 0.9, 0.8, None]}, score="score")
    >>> default_humans(t, ("gold", "m1"))
    (('ann',), ('m2',))
    """
    others = [r for r in t.raters if r not in exclude]
    models = tuple(r for r in others if scored(t, t.raters.index(r)))
    return tuple(r for r in others if r not in models), models


def resolve_humans(t: BoxTable, humans: Any, reference: str, system: str, func: str
                   ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``humans=`` checked against the table (or the default rule when ``None``): the
    humans, and the scored annotators the default rule left out."""
    if humans is None:
        return default_humans(t, (reference, system))
    names = (humans,) if isinstance(humans, str) else tuple(humans)
    missing = [h for h in names if h not in t.raters]
    if missing:
        raise DataError(f"{func}: humans={missing!r} are not annotators here; the annotators "
                        f"are {list(t.raters)!r}.")  # fmt: skip
    for role, who in (("reference", reference), ("system", system)):
        if who in names:
            raise DataError(f"{func}: {who!r} is the {role}; it cannot also be one of the "
                            "humans of the ceiling.")  # fmt: skip
    if len(set(names)) != len(names):
        raise DataError(f"{func}: humans= names an annotator twice: {list(names)!r}.")
    return names, ()


def box_ceiling(t: BoxTable, counts_of: Any, prf: Any, ref: int, humans: Sequence[str],
                system: str, system_result: AgreementResult, figure_name: str,
                threshold: float, method: Bootstrap) -> HumanCeiling:
    """Each human's ``figure_name`` against the reference beside the system's, with the
    paired bootstrap of each difference (``counts_of`` and ``prf`` are the detection
    module's per image counts and figures, so a human is scored exactly as a system)."""
    common: dict[str, Any] = {"images": t.units, "n_raters": 2, "warn": False}
    scores: dict[str, AgreementResult] = {}
    for h in humans:
        c = counts_of(t, ref, t.raters.index(h), threshold).sum(axis=2)
        scores[h] = prf(c, common, threshold, "")[figure_name]
    return ceiling_for(system, system_result, scores, human_agreement(t, counts_of, humans,
                       threshold), figure_name, method)  # fmt: skip


def human_agreement(t: BoxTable, counts_of: Any, humans: Sequence[str], threshold: float
                    ) -> AgreementResult | None:
    """Mean pairwise box F1 among the humans (``2 M / (n_A + n_B)`` per pair, summed over
    images, then the mean over pairs where defined); ``None`` for fewer than two."""
    if len(humans) < 2:
        return None
    pairs = list(combinations([t.raters.index(h) for h in humans], 2))
    m, n = [], []
    for a, b in pairs:
        c = counts_of(t, a, b, threshold).sum(axis=2)
        m.append(c[:, 0])
        n.append(c[:, 1] + c[:, 2])
    x = np.column_stack([*m, *n]).astype(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return figure("box_f1", x, f1_stat(len(pairs)), images=t.units, n_raters=len(humans),
                      what="box_f1", why_undefined="no pair of human annotators drew a box",
                      details={"iou_threshold": threshold}, warn=False)  # fmt: skip
