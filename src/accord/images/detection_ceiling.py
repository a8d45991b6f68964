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
from dataclasses import replace
from typing import Any

import numpy as np

from accord.errors import DataError, DegenerateDataWarning
from accord.images._counts import Counts, count
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


def box_ceiling(t: BoxTable, prf: Any, reference: str, humans: Sequence[str], system: str,
                system_result: AgreementResult, figure_name: str, threshold: float,
                method: Bootstrap) -> HumanCeiling:
    """Each human's ``figure_name`` against the reference beside the system's, with the
    paired bootstrap of each difference (``prf`` is the detection module's counts ->
    figures, so a human is scored exactly as a system is)."""
    members = sorted({reference, *humans})
    c = _pair_counts(t, members, threshold)
    index = {(members[a], members[b]): p for p, (a, b) in enumerate(c.pairs)}
    n_ref = np.bincount(t.unit[t.rater == t.raters.index(reference)],
                        minlength=len(t.units)).astype(np.float64)  # fmt: skip
    common: dict[str, Any] = {"images": t.units, "n_raters": 2, "warn": False}
    scores: dict[str, AgreementResult] = {}
    for h in humans:
        p = index[(reference, h) if reference < h else (h, reference)]
        tp, both = c.matched[0][:, p], c.boxes[0][:, p]
        scores[h] = prf(np.column_stack([tp, n_ref, both - n_ref]), common, threshold,
                        "")[figure_name]  # fmt: skip
    pairs = [p for (a, b), p in index.items() if reference not in (a, b)]
    return ceiling_for(system, system_result, scores, _agreement(t, c, pairs, len(humans),
                       threshold), figure_name, method)  # fmt: skip


def _pair_counts(t: BoxTable, members: list[str], threshold: float) -> Counts:
    """The per image counts of every pair of ``members`` (sorted), from their rows alone."""
    codes = np.array([t.raters.index(m) for m in members])
    keep = np.isin(t.rater, codes)
    recode = np.full(len(t.raters), -1, dtype=np.int64)
    recode[codes] = np.arange(len(codes))
    sub = replace(t, raters=tuple(members), unit=t.unit[keep], rater=recode[t.rater[keep]],
                  label=t.label[keep], xywh=t.xywh[keep],
                  score=None if t.score is None else t.score[keep])  # fmt: skip
    return count(sub, (threshold,))


def _agreement(t: BoxTable, c: Counts, pairs: list[int], n_humans: int, threshold: float
               ) -> AgreementResult | None:
    """Mean pairwise box F1 among the humans (``2 M / (n_A + n_B)`` per pair, summed over
    images, then the mean over pairs where defined); ``None`` for fewer than two."""
    if n_humans < 2:
        return None
    x = np.concatenate([c.matched[0][:, pairs], c.boxes[0][:, pairs]], axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return figure("box_f1", x, f1_stat(len(pairs)), images=t.units, n_raters=n_humans,
                      what="box_f1", why_undefined="no pair of human annotators drew a box",
                      details={"iou_threshold": threshold}, warn=False)  # fmt: skip
