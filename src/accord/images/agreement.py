"""Agreement between annotators on boxes: pairwise F1, mean IoU and alpha on matched objects.

On each image, every pair of annotators is matched one-to-one
(:mod:`accord.images.matching`). Then:

* ``f1``: for each pair, ``F1 = 2 M / (n_A + n_B)`` with ``M`` the matched pairs
  of the same label at IoU at least the threshold, summed over images; the mean
  over pairs (Hripcsak & Rothschild 2005, as for spans);
* ``mean_iou``: the mean IoU of those matched pairs, pooled over pairs and images;
* ``alpha``: Krippendorff's alpha (nominal) with each matched object (group) as a
  unit and each annotator's label of it as the value, "no box" for an annotator
  with no box in the group (the convention of kalphacv, Tschirschwitz et al. 2022).
  Groups are formed on each image from the label-blind matchings of every pair
  (:func:`accord.images.matching.groups`); the coincidences of all groups of all
  images are pooled into one alpha.

Every figure is a statistic of per image counts (:mod:`accord.images._counts`);
its bootstrap interval resamples images through them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import numpy as np

from accord.data import _validation as v
from accord.errors import InsufficientDataError
from accord.images._counts import Counts, count
from accord.images._figures import alpha_stat, alpha_terms, f1_stat, figure, ratio_stat
from accord.inference.bootstrap import Bootstrap
from accord.inference.display import Tabular, flatten_row
from accord.inference.results import AgreementResult
from accord.readers.boxes import BoxTable, audit_json, box_table

__all__ = ["BoxAgreement", "BoxFigures", "box_agreement"]

FUNC = "box_agreement"

#: COCO's IoU thresholds 0.50:0.05:0.95.
COCO_THRESHOLDS: tuple[float, ...] = tuple(round(0.5 + 0.05 * i, 2) for i in range(10))

NO_MATCH = "no pair of boxes matched at this IoU threshold"
NO_BOX = "no annotator pair drew a box"
ONE_VALUE = (
    "every matched object has the same value from every annotator (no variation, so "
    "no expected disagreement), or fewer than two annotators"
)


@dataclass(frozen=True)
class BoxFigures:
    """``f1``, ``mean_iou`` and ``alpha`` at one IoU threshold (``alpha`` may be ``None``:
    per label and per pair it is not computed)."""

    iou_threshold: float
    f1: AgreementResult
    mean_iou: AgreementResult
    alpha: AgreementResult | None = None

    def results(self) -> dict[str, AgreementResult]:
        """The figures by name."""
        out = {"f1": self.f1, "mean_iou": self.mean_iou}
        if self.alpha is not None:
            out["alpha"] = self.alpha
        return out


@dataclass(frozen=True)
class BoxAgreement(Tabular):
    """Agreement between annotators on boxes (see :func:`box_agreement`).

    Attributes
    ----------
    iou_threshold : float
        The IoU a matched pair reaches at least.
    f1, mean_iou, alpha : AgreementResult
        The figures at ``iou_threshold``.
    per_label : mapping of label to BoxFigures
        ``f1`` and ``mean_iou`` of each label (boxes of other labels left out).
    pairs : mapping of (annotator, annotator) to BoxFigures
        ``f1`` and ``mean_iou`` of each pair.
    sweep : tuple of BoxFigures
        The three figures at COCO's thresholds 0.50, 0.55, ..., 0.95.
    bootstrap : Bootstrap
        The interval method of :meth:`to_dict` (images resampled, seeded).
    confidence_level : float
    audit : mapping
        What was read (rows, boxes, no-box rows), images, annotators and labels.
    """

    iou_threshold: float
    f1: AgreementResult
    mean_iou: AgreementResult
    alpha: AgreementResult
    per_label: Mapping[str, BoxFigures]
    pairs: Mapping[tuple[str, str], BoxFigures]
    sweep: tuple[BoxFigures, ...]
    bootstrap: Bootstrap
    confidence_level: float = 0.95
    audit: Mapping[str, Any] = field(default_factory=dict)

    def figure_dict(self, res: AgreementResult, **fields: Any) -> dict[str, Any]:
        """One figure as JSON: the result, its bootstrap interval and ``fields``."""
        ci = res.confidence_interval(self.confidence_level, method=self.bootstrap)
        return {**res.to_dict(self.confidence_level, interval=ci), **fields}

    def _figures(self, f: BoxFigures, **fields: Any) -> dict[str, Any]:
        return {k: self.figure_dict(r, iou_threshold=f.iou_threshold, **fields)
                for k, r in f.results().items()}  # fmt: skip

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per label: its F1, mean IoU and alpha with their intervals."""
        return [flatten_row({"label": k, **self._figures(f)}) for k, f in self.per_label.items()]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures with their bootstrap intervals, at full precision."""
        main = BoxFigures(self.iou_threshold, self.f1, self.mean_iou, self.alpha)
        return {
            **self._figures(main),
            "per_label": [self._figures(f, label=k) for k, f in self.per_label.items()],
            "pairs": [self._figures(f, annotators=list(k)) for k, f in self.pairs.items()],
            "sweep": [self._figures(f) for f in self.sweep],
            "audit": audit_json(self.audit),
        }


def box_agreement(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    box: Sequence[str] = ("x", "y", "w", "h"),
    iou_threshold: float = 0.5,
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = 0,
) -> BoxAgreement:
    """Agreement between annotators on boxes: pairwise F1, mean IoU and alpha.

    Parameters
    ----------
    data : BoxTable, dataframe, mapping of columns, records, a CSV/Parquet path, or exports
        One row per box (see :func:`accord.readers.boxes.box_table` for the rules);
        or the path(s) of a tool's export, detected by content
        (:func:`accord.readers.box_formats.read_boxes`): COCO JSON or CVAT XML, one
        file per annotator (or one file whose boxes carry the annotator under the key
        or attribute ``rater``), Label Studio JSON with rectangles, a YOLO folder of
        annotator folders; or what :func:`accord.read` gave for such an export.
    unit, rater, label : str
        The columns of the image, the annotator and the label.
    box : four column names
        x, y, width, height (COCO's ``bbox``).
    iou_threshold : float in (0, 1]
        Two boxes can match when their IoU is at least this (equal counts).
    confidence_level, n_resamples, rng
        The bootstrap over images behind every interval of ``to_dict()``
        (``rng=0`` by default, so the intervals repeat; ``None`` for fresh draws).

    Returns
    -------
    BoxAgreement
        ``f1``, ``mean_iou``, ``alpha``, ``per_label``, ``pairs``, ``sweep``.

    Notes
    -----
    Matching (:mod:`accord.images.matching`): on each image and for each pair of
    annotators, one-to-one by ``linear_sum_assignment``, the most pairs first and
    then the largest total IoU. F1 and mean IoU use pairs of the same label; alpha
    uses the label-blind matching (the label is what the annotators are compared
    on). A group holds at most one box per annotator; groups join along the
    matched pairs by decreasing IoU, which does not depend on the order of the
    annotators or of the rows. Every annotator is taken to have seen every image.

    Undefined: F1 when no pair drew a box, mean IoU when nothing matched, alpha
    when all values agree on one category (kalphacv reports 1 there).

    References
    ----------
    Hripcsak & Rothschild (2005), *JAMIA* 12(3). Krippendorff (2019), *Content
    Analysis*, 4th ed., ch. 12. Tschirschwitz et al. (2022), GCPR (kalphacv).

    Examples
    --------
    Two annotators on one image: the cats match (IoU 0.9), the dog is drawn once.

    >>> import accord
    >>> res = accord.box_agreement({"image": ["i1", "i1", "i1"], "annotator": ["a", "b", "a"],
    ...     "label": ["cat", "cat", "dog"], "x": [0, 0, 50], "y": [0, 0, 50],
    ...     "w": [10, 10, 5], "h": [10, 9, 5]})
    >>> res.f1.estimate, round(res.mean_iou.estimate, 2)
    (0.6666666666666666, 0.9)
    """
    level = v.confidence_level(confidence_level, func=FUNC)
    ok = isinstance(iou_threshold, (int, float)) and not isinstance(iou_threshold, bool)
    if not ok or not 0.0 < float(iou_threshold) <= 1.0:
        raise v.fail("iou_threshold", FUNC, "a number in (0, 1]", iou_threshold)
    boot = Bootstrap(n_resamples=n_resamples, rng=rng)
    table = _table(data, unit=unit, rater=rater, label=label, box=box)
    if len(table.raters) < 2:
        raise InsufficientDataError(
            f"{FUNC}: agreement needs two annotators or more; found {list(table.raters)!r}."
        )
    thresholds = tuple(dict.fromkeys((float(iou_threshold), *COCO_THRESHOLDS)))
    c = count(table, thresholds)
    main = _at(c, table, 0, warn=True)
    audit = {**table.audit, "images": len(table.units), "annotators": list(table.raters),
             "labels": list(table.labels)}  # fmt: skip
    return BoxAgreement(
        float(iou_threshold), main.f1, main.mean_iou, cast(AgreementResult, main.alpha),
        _per_label(c, table), _pairs(c, table),
        tuple(_at(c, table, thresholds.index(t), warn=False) for t in COCO_THRESHOLDS),
        boot, level, audit,
    )  # fmt: skip


def _table(data: Any, *, unit: str, rater: str, label: str, box: Sequence[str]) -> BoxTable:
    """A box export (COCO, CVAT, Label Studio, YOLO), what accord.read gave, or a table."""
    meta = getattr(data, "meta", None)
    if isinstance(meta, dict) and isinstance(meta.get("boxes"), BoxTable):
        return meta["boxes"]  # accord.read of a box export
    paths = [data] if isinstance(data, (str, Path)) else data
    is_paths = isinstance(paths, (list, tuple)) and bool(paths) and all(
        isinstance(p, (str, Path)) for p in paths)  # fmt: skip
    tables = {".csv", ".tsv", ".parquet", ".pq"}
    if is_paths and not all(Path(p).suffix.lower() in tables for p in paths):
        from accord.readers.box_formats import read_boxes

        return read_boxes(paths, rater_key=rater if len(paths) == 1 else None, func=FUNC)
    return box_table(data, unit=unit, rater=rater, label=label, box=box, func=FUNC)


def _at(c: Counts, t: BoxTable, k: int, *, warn: bool) -> BoxFigures:
    thr = c.thresholds[k]
    n_p, n_r = len(c.pairs), len(t.raters)
    common: dict[str, Any] = {"images": t.units, "n_raters": n_r, "warn": warn}
    f1 = figure("box_f1", np.concatenate([c.matched[k], c.boxes[k]], axis=1), f1_stat(n_p),
                what=f"box_f1 (IoU >= {thr:g})", why_undefined=NO_BOX,
                details={"iou_threshold": thr, "n_pairs": n_p}, **common)  # fmt: skip
    iou = figure("mean_iou", np.stack([c.iou_sum[k].sum(1), c.matched[k].sum(1)], axis=1),
                 ratio_stat, what=f"mean_iou (IoU >= {thr:g})", why_undefined=NO_MATCH,
                 details={"iou_threshold": thr}, **common)  # fmt: skip
    n_cat = len(t.labels) + 1
    alpha = figure("box_alpha", c.coincidences[k].reshape(len(t.units), -1), alpha_stat(n_cat),
                   what=f"box_alpha (IoU >= {thr:g})", why_undefined=ONE_VALUE,
                   details={"iou_threshold": thr, "level": "nominal"}, bounds=(-1.0, 1.0),
                   **common)  # fmt: skip
    d_o, d_e = alpha_terms(c.coincidences[k].sum(axis=0).ravel(), n_cat)
    return BoxFigures(thr, f1, iou, replace(alpha, observed=d_o, expected=d_e))


def _per_label(c: Counts, t: BoxTable) -> dict[str, BoxFigures]:
    out = {}
    n_p, thr = len(c.pairs), c.thresholds[0]
    for code, name in enumerate(t.labels):
        m, n = c.matched_by_label[0, :, :, code], c.boxes_by_label[0, :, :, code]
        s = c.iou_by_label[0, :, :, code]
        common: dict[str, Any] = {"images": t.units, "n_raters": len(t.raters), "warn": False}
        details = {"iou_threshold": thr, "label": name}
        f1 = figure("box_f1", np.concatenate([m, n], axis=1), f1_stat(n_p),
                    what="box_f1", why_undefined=NO_BOX, details=details, **common)  # fmt: skip
        iou = figure("mean_iou", np.stack([s.sum(1), m.sum(1)], axis=1), ratio_stat,
                     what="mean_iou", why_undefined=NO_MATCH, details=details,
                     **common)  # fmt: skip
        out[name] = BoxFigures(thr, f1, iou)
    return out


def _pairs(c: Counts, t: BoxTable) -> dict[tuple[str, str], BoxFigures]:
    out = {}
    thr = c.thresholds[0]
    for p, (a, b) in enumerate(c.pairs):
        names = (t.raters[a], t.raters[b])
        m, n, s = c.matched[0, :, p : p + 1], c.boxes[0, :, p : p + 1], c.iou_sum[0, :, p]
        common: dict[str, Any] = {"images": t.units, "n_raters": 2, "warn": False}
        details = {"iou_threshold": thr, "annotators": list(names)}
        f1 = figure("box_f1", np.concatenate([m, n], axis=1), f1_stat(1),
                    what="box_f1", why_undefined=NO_BOX, details=details, **common)  # fmt: skip
        iou = figure("mean_iou", np.stack([s, m[:, 0]], axis=1), ratio_stat,
                     what="mean_iou", why_undefined=NO_MATCH, details=details,
                     **common)  # fmt: skip
        out[names] = BoxFigures(thr, f1, iou)
    return out
