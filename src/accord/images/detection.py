"""A model's boxes against a reference: precision, recall, F1 and COCO's AP.

* ``precision``, ``recall``, ``f1`` at one IoU threshold: on each image the
  reference's and the system's boxes of the same label are matched one-to-one
  (:func:`accord.images.matching.match_pair`); a matched system box is a true
  positive. Counts are summed over images (micro), and per label.
* ``ap``, ``ap50``, ``ap75``: COCO's average precision as pycocotools computes it
  (``COCOeval`` for bbox, area range "all", at most 100 detections per image):
  per image and label, detections by decreasing score each take the unmatched
  reference box of highest IoU at least the threshold; per label, precision at
  the 101 recall points 0, 0.01, ..., 1 from the detections of all images by
  decreasing score, made non-increasing; the mean over labels with reference
  boxes and over the thresholds 0.50:0.05:0.95 (AP), at 0.50 (AP50) and at 0.75
  (AP75). Every reference box counts (no crowd regions, no area ranges).

Each figure has a bootstrap over images: P/R/F1 through per image counts; AP
through each detection's image (a resample weights every detection and every
reference box by the number of times its image is drawn), never matching again.

When the table holds human annotators besides the reference and the system, the
result carries the human ceiling (:mod:`accord.images.detection_ceiling`): each
human's precision, recall or F1 against the same reference on the same images,
beside the system's, with a paired bootstrap over images.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import DataError
from accord.images._figures import figure, ratio_stat
from accord.images.detection_ceiling import FIGURES, box_ceiling, resolve_humans
from accord.images.matching import iou_matrix, match_pair
from accord.inference.bootstrap import Bootstrap
from accord.inference.ceiling import HumanCeiling
from accord.inference.display import Tabular
from accord.inference.results import AgreementResult
from accord.readers.boxes import BoxTable, audit_json, box_table

__all__ = ["BoxDetection", "evaluate_boxes"]

FUNC = "evaluate_boxes"
#: pycocotools' thresholds and recall points, built as it builds them.
IOU_THRESHOLDS = np.linspace(0.5, 0.95, int(np.round((0.95 - 0.5) / 0.05)) + 1, endpoint=True)
RECALL_POINTS = np.linspace(0.0, 1.00, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
MAX_DETECTIONS = 100

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class BoxDetection(Tabular):
    """A system's boxes against a reference (see :func:`evaluate_boxes`).

    ``ceiling`` is the human ceiling (:class:`accord.HumanCeiling`) when human
    annotators besides the reference and the system are in the table, else ``None``.
    """

    iou_threshold: float
    precision: AgreementResult
    recall: AgreementResult
    f1: AgreementResult
    per_label: Mapping[str, Mapping[str, AgreementResult]]
    ap: AgreementResult | None
    ap50: AgreementResult | None
    ap75: AgreementResult | None
    bootstrap: Bootstrap
    confidence_level: float = 0.95
    audit: Mapping[str, Any] = field(default_factory=dict)
    ceiling: HumanCeiling | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures with their bootstrap intervals."""

        def one(res: AgreementResult, **extra: Any) -> dict[str, Any]:
            ci = res.confidence_interval(self.confidence_level, method=self.bootstrap)
            return {**res.to_dict(), "confidence_interval": ci.to_dict(), **extra}

        out: dict[str, Any] = {"reference": self.audit.get("reference"),
                               "system": self.audit.get("system")}
        out |= {
            k: one(getattr(self, k), iou_threshold=self.iou_threshold)
            for k in ("precision", "recall", "f1")
        }
        for k in ("ap", "ap50", "ap75"):
            res = getattr(self, k)
            out[k] = None if res is None else one(res)
        out["per_label"] = [{k: one(r, label=lab, iou_threshold=self.iou_threshold)
                             for k, r in figs.items()} for lab, figs in self.per_label.items()]
        out["ceiling"] = None if self.ceiling is None else self.ceiling.to_dict()
        out["audit"] = audit_json(self.audit)
        return out


def evaluate_boxes(
    data: Any,
    *,
    reference: str,
    system: str,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    box: Sequence[str] = ("x", "y", "w", "h"),
    score: str | None = None,
    iou_threshold: float = 0.5,
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = 0,
    humans: str | Sequence[str] | None = None,
    ceiling_figure: str | None = None,
) -> BoxDetection:
    """Precision, recall and F1 of ``system``'s boxes against ``reference``'s, and COCO AP.

    ``data`` is one table of boxes in which ``rater`` tells the reference and the
    system apart; ``score`` names the column of the system's confidence scores
    (without it, AP is ``None``). See the module docstring for the definitions.

    The human ceiling (``BoxDetection.ceiling``, as :func:`accord.evaluate` gives
    for labels and spans): ``humans`` names the human annotators to set against the
    same reference (by default every annotator besides the reference and the
    system whose boxes carry no score; ``[]`` for none); ``ceiling_figure`` is the
    figure compared, ``"f1"`` (default), ``"precision"`` or ``"recall"`` at
    ``iou_threshold``. Each human's figure is computed on the same images exactly
    as the system's, the difference system minus each human gets a paired
    bootstrap over images (the same ``n_resamples`` and ``rng``), and
    ``human_agreement`` is the humans' mean pairwise box F1. With no human there is
    no ceiling (``None``); naming ``ceiling_figure`` then is an error.

    Examples
    --------
    >>> import accord
    >>> from accord.images.detection import evaluate_boxes
    >>> res = evaluate_boxes({"image": ["i", "i", "i"], "annotator": ["gold", "model", "model"],
    ...     "label": ["cat", "cat", "cat"], "x": [0, 1, 40], "y": [0, 0, 40],
    ...     "w": [10, 10, 5], "h": [10, 10, 5], "score": [None, 0.9, 0.3]},
    ...     reference="gold", system="model", score="score")
    >>> res.precision.estimate, res.recall.estimate, round(res.ap50.estimate, 6)
    (0.5, 1.0, 1.0)

    A human annotator besides, on two images: on ``i`` the model adds a spurious box,
    on ``j`` the annotator misses the cat. The model's F1 is 2*2/(2+3) = 0.8, hers
    2*1/(2+1) = 0.67 against the same reference:

    >>> res = evaluate_boxes({"image": ["i", "i", "i", "i", "j", "j"],
    ...     "annotator": ["gold", "model", "model", "ann", "gold", "model"],
    ...     "label": ["cat"] * 6, "x": [0, 1, 40, 0, 5, 5], "y": [0, 0, 40, 1, 5, 6],
    ...     "w": [10, 10, 5, 10, 20, 20], "h": [10, 10, 5, 10, 20, 20]},
    ...     reference="gold", system="model", n_resamples=99)
    >>> res.f1.estimate, round(res.ceiling.humans["ann"].estimate, 4), res.ceiling.outcome
    (0.8, 0.6667, 'above')
    """
    level = v.confidence_level(confidence_level, func=FUNC)
    ok = isinstance(iou_threshold, (int, float)) and not isinstance(iou_threshold, bool)
    if not ok or not 0.0 < float(iou_threshold) <= 1.0:
        raise v.fail("iou_threshold", FUNC, "a number in (0, 1]", iou_threshold)
    boot = Bootstrap(n_resamples=n_resamples, rng=rng)
    t = box_table(data, unit=unit, rater=rater, label=label, box=box, score=score, func=FUNC)
    for name, who in (("reference", reference), ("system", system)):
        if who not in t.raters:
            raise DataError(f"{FUNC}: {name}={who!r} is not an annotator here; the annotators "
                            f"are {list(t.raters)!r}.")  # fmt: skip
    ref, sys_ = t.raters.index(reference), t.raters.index(system)
    if t.score is not None and not np.isfinite(t.score[t.rater == sys_]).all():
        where = "" if score is None else f" (column {score!r})"
        raise DataError(f"{FUNC}: a box of {system!r} has no score{where}; AP "
                        "ranks every detection by its score.")  # fmt: skip
    if ceiling_figure is not None:
        v.choice(ceiling_figure, FIGURES, param="ceiling_figure", func=FUNC)
    chosen, models = resolve_humans(t, humans, reference, system, FUNC)
    if ceiling_figure is not None and not chosen:
        raise DataError(f"{FUNC}: ceiling_figure={ceiling_figure!r} asks for a human ceiling, "
                        "and no human annotator besides the reference and the system is here; "
                        "name them with humans=[...].")  # fmt: skip
    counts = _counts(t, ref, sys_, float(iou_threshold))
    common: dict[str, Any] = {"images": t.units, "n_raters": 2, "warn": True}
    prf = _prf(counts.sum(axis=2), common, float(iou_threshold), "")
    common["warn"] = False
    per_label = {name: _prf(counts[:, :, k], common, float(iou_threshold), name)
                 for k, name in enumerate(t.labels)}  # fmt: skip
    aps: tuple[AgreementResult | None, AgreementResult | None, AgreementResult | None] = (
        None, None, None)  # fmt: skip
    if t.score is not None:
        from accord.images._coco_ap import ap_table

        aps = ap_table(t, t.score, ref, sys_, IOU_THRESHOLDS, RECALL_POINTS, MAX_DETECTIONS)
    audit: dict[str, Any] = {**t.audit, "images": len(t.units), "reference": reference,
                             "system": system, "humans": list(chosen)}
    if models:
        audit["scored annotators left out of the human ceiling"] = list(models)
    ceiling = None
    if chosen:
        fig = ceiling_figure or "f1"
        ceiling = box_ceiling(t, _prf, reference, chosen, system, prf[fig], fig,
                              float(iou_threshold), boot)  # fmt: skip
    return BoxDetection(float(iou_threshold), prf["precision"], prf["recall"], prf["f1"],
                        per_label, aps[0], aps[1], aps[2], boot, level, audit,
                        ceiling)  # fmt: skip


def _counts(t: BoxTable, ref: int, sys_: int, threshold: float) -> FloatArray:
    """Per image and label: (true positives, reference boxes, system boxes)."""
    n_k = len(t.labels)
    out = np.zeros((len(t.units), 3, n_k))
    for u in range(len(t.units)):
        here = t.unit == u
        r, s = np.flatnonzero(here & (t.rater == ref)), np.flatnonzero(here & (t.rater == sys_))
        out[u, 1] = np.bincount(t.label[r], minlength=n_k)
        out[u, 2] = np.bincount(t.label[s], minlength=n_k)
        if r.size and s.size:
            i, _ = match_pair(iou_matrix(t.xywh[r], t.xywh[s]), threshold, t.label[r], t.label[s])
            out[u, 0] = np.bincount(t.label[r][i], minlength=n_k)
    return out


def _f1_stat(s: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(2.0 * s[:, 0] / (s[:, 1] + s[:, 2]), dtype=np.float64)


def _prf(
    c: FloatArray, common: dict[str, Any], thr: float, lab: str
) -> dict[str, AgreementResult]:
    details: dict[str, Any] = {"iou_threshold": thr, **({"label": lab} if lab else {})}
    tp, n_ref, n_sys = c[:, 0], c[:, 1], c[:, 2]
    return {
        "precision": figure("box_precision", np.stack([tp, n_sys], axis=1), ratio_stat,
                            what="box_precision", why_undefined="the system drew no box",
                            details=details, **common),
        "recall": figure("box_recall", np.stack([tp, n_ref], axis=1), ratio_stat,
                         what="box_recall", why_undefined="the reference drew no box",
                         details=details, **common),
        "f1": figure("box_detection_f1", np.stack([tp, n_ref, n_sys], axis=1), _f1_stat,
                     what="box_detection_f1", why_undefined="neither drew a box",
                     details=details, **common),
    }  # fmt: skip
