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
from accord.errors import InsufficientDataError, InvalidParameterError
from accord.images._counts import Counts, count
from accord.images._figures import (
    Stat,
    alpha_margin_stat,
    alpha_margins,
    alpha_stat,
    alpha_terms,
    f1_stat,
    few_images,
    figure,
    ratio_stat,
)
from accord.inference.bootstrap import Bootstrap
from accord.inference.display import Tabular, flatten_row
from accord.inference.results import AgreementResult, ConfidenceInterval
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
    sweep_intervals : bool
        Whether :meth:`to_dict` gives the sweep's figures their intervals too (else the
        sweep has its estimates only; each figure's ``confidence_interval()`` still
        gives its interval on request).
    counts : Counts
        The per image counts every figure is a statistic of (see :class:`Counts`):
        ``counts.matched[k, u, p]`` matched pairs of image ``u`` and annotator pair
        ``counts.pairs[p]`` at ``counts.thresholds[k]`` (``k = 0``: ``iou_threshold``,
        then COCO's), ``counts.boxes`` their boxes, ``counts.iou_sum`` the IoUs of the
        matched pairs, the same ``*_by_label`` and the ``coincidences``; images, pairs
        and labels in the order of ``audit``. :meth:`image_counts` gives them by name.
    images : tuple
        The images, in the order of ``counts``.
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
    sweep_intervals: bool = False
    counts: Counts | None = field(default=None, compare=False, repr=False)
    images: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    def figure_dict(self, res: AgreementResult, **fields: Any) -> dict[str, Any]:
        """One figure as JSON: the result, its bootstrap interval and ``fields``."""
        ci = res.confidence_interval(self.confidence_level, method=self.bootstrap)
        return {**res.to_dict(self.confidence_level, interval=ci), **fields}

    def intervals(self, *, sweep: bool | None = None) -> dict[tuple[Any, ...], ConfidenceInterval]:
        """The bootstrap interval of every figure, all from one draw of the images.

        Keys: ``("f1",)``, ``("mean_iou",)``, ``("alpha",)``; ``("per_label", label,
        figure)``; ``("pairs", (annotator, annotator), figure)``; ``("sweep", threshold,
        figure)``, only with ``sweep=True`` (default: :attr:`sweep_intervals`). Each is
        the interval the figure's own ``confidence_interval(confidence_level,
        method=bootstrap)`` gives from an int seed (the same resamples of the images),
        drawn once for all instead of once per figure.
        """
        from accord.images._joint import intervals

        named = self._named(self.sweep_intervals if sweep is None else sweep)
        cis = intervals(list(named.values()), self.confidence_level, self.bootstrap)
        return dict(zip(named, cis, strict=True))

    def _named(self, sweep: bool) -> dict[tuple[Any, ...], AgreementResult]:
        main = BoxFigures(self.iou_threshold, self.f1, self.mean_iou, self.alpha)
        out: dict[tuple[Any, ...], AgreementResult] = {
            (name,): r for name, r in main.results().items()}
        parts: list[tuple[str, Any, BoxFigures]] = [
            *(("per_label", k, f) for k, f in self.per_label.items()),
            *(("pairs", k, f) for k, f in self.pairs.items()),
            *(("sweep", f.iou_threshold, f) for f in (self.sweep if sweep else ()))]
        for section, key, f in parts:
            out.update({(section, key, name): r for name, r in f.results().items()})
        return out

    def image_counts(self, iou_threshold: float | None = None) -> dict[str, Any]:
        """Each image's boxes and matched pairs at ``iou_threshold`` (default the result's;
        or one of COCO's), summed over the annotator pairs: ``images``, ``boxes`` (each
        pair's ``n_A + n_B``), ``matched`` (same label, IoU at least the threshold),
        ``iou_sum`` (their IoUs), and ``f1`` (``2 matched / boxes``, ``nan`` without a
        box), as arrays in the order of ``images``.

        >>> import accord
        >>> res = accord.box_agreement({"image": ["i1", "i1", "i2"], "annotator": ["a", "b", "a"],
        ...     "label": ["cat"] * 3, "x": [0, 0, 5], "y": [0, 0, 5], "w": [4] * 3, "h": [4] * 3})
        >>> c = res.image_counts()
        >>> c["images"], c["boxes"].tolist(), c["matched"].tolist(), c["f1"].tolist()
        (('i1', 'i2'), [2.0, 1.0], [1.0, 0.0], [1.0, 0.0])
        """
        c = self.counts
        if c is None:
            raise InvalidParameterError(f"{FUNC}: this result was built without its counts.")
        thr = self.iou_threshold if iou_threshold is None else iou_threshold
        if thr not in c.thresholds:
            raise v.fail("iou_threshold", "BoxAgreement.image_counts",
                         f"one of {list(c.thresholds)}", iou_threshold)
        k = c.thresholds.index(thr)
        matched, boxes = c.matched[k].sum(axis=1), c.boxes[k].sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            f1 = np.where(boxes > 0, 2.0 * matched / boxes, np.nan)
        return {"images": self.images, "boxes": boxes,
                "matched": matched, "iou_sum": c.iou_sum[k].sum(axis=1), "f1": f1}

    def _figures(self, f: BoxFigures, cis: Mapping[int, ConfidenceInterval],
                 **fields: Any) -> dict[str, Any]:  # fmt: skip
        return {k: {**r.to_dict(self.confidence_level, interval=cis.get(id(r))),
                    "iou_threshold": f.iou_threshold, **fields}
                for k, r in f.results().items()}  # fmt: skip

    def _cis(self) -> dict[int, ConfidenceInterval]:
        """The intervals of :meth:`to_dict`, by the identity of their figure."""
        named = self._named(self.sweep_intervals)
        return {id(named[k]): ci for k, ci in self.intervals().items()}

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per label: its F1, mean IoU and alpha with their intervals."""
        cis = self._cis()
        return [flatten_row({"label": k, **self._figures(f, cis)})
                for k, f in self.per_label.items()]  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures with their bootstrap intervals, at full precision (the
        sweep's figures with theirs only when :attr:`sweep_intervals`)."""
        main = BoxFigures(self.iou_threshold, self.f1, self.mean_iou, self.alpha)
        cis = self._cis()
        return {
            **self._figures(main, cis),
            "per_label": [self._figures(f, cis, label=k) for k, f in self.per_label.items()],
            "pairs": [self._figures(f, cis, annotators=list(k)) for k, f in self.pairs.items()],
            "sweep": [self._figures(f, cis) for f in self.sweep],
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
    sweep_intervals: bool = False,
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
        (``rng=0`` by default, so the intervals repeat; ``None`` for fresh draws). The
        images are drawn once for all the figures (:meth:`BoxAgreement.intervals`).
    sweep_intervals : bool
        Whether ``to_dict()`` gives the 30 figures of the IoU sweep their intervals too
        (default: the sweep's estimates only, which cost no resampling).

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
    if not isinstance(sweep_intervals, bool):
        raise v.fail("sweep_intervals", FUNC, "True or False", sweep_intervals)
    boot = Bootstrap(n_resamples=n_resamples, rng=rng)
    table = _table(data, unit=unit, rater=rater, label=label, box=box)
    if len(table.raters) < 2:
        raise InsufficientDataError(
            f"{FUNC}: agreement needs two annotators or more; found {list(table.raters)!r}."
        )
    thresholds = tuple(dict.fromkeys((float(iou_threshold), *COCO_THRESHOLDS)))
    c = count(table, thresholds)
    main = _at(c, table, 0, warn=True)
    audit = few_images({**table.audit, "images": len(table.units),
                        "annotators": list(table.raters), "labels": list(table.labels)})
    return BoxAgreement(
        float(iou_threshold), main.f1, main.mean_iou, cast(AgreementResult, main.alpha),
        _per_label(c, table), _pairs(c, table),
        tuple(_at(c, table, thresholds.index(t), warn=False) for t in COCO_THRESHOLDS),
        boot, level, audit, sweep_intervals, c, tuple(table.units),
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


def _figure(name: str, x: Any, stat: Stat, **kw: Any) -> AgreementResult:
    """A figure resampled image by image from its own columns (see ``_joint``)."""
    return figure(name, x, stat, by_image=kw.pop("by_image", (x, stat)), **kw)


def _at(c: Counts, t: BoxTable, k: int, *, warn: bool) -> BoxFigures:
    thr = c.thresholds[k]
    n_p, n_r = len(c.pairs), len(t.raters)
    common: dict[str, Any] = {"images": t.units, "n_raters": n_r, "warn": warn}
    f1 = _figure("box_f1", np.concatenate([c.matched[k], c.boxes[k]], axis=1), f1_stat(n_p),
                what=f"box_f1 (IoU >= {thr:g})", why_undefined=NO_BOX,
                details={"iou_threshold": thr, "n_pairs": n_p}, **common)  # fmt: skip
    iou = _figure("mean_iou", np.stack([c.iou_sum[k].sum(1), c.matched[k].sum(1)], axis=1),
                 ratio_stat, what=f"mean_iou (IoU >= {thr:g})", why_undefined=NO_MATCH,
                 details={"iou_threshold": thr}, **common)  # fmt: skip
    n_cat = len(t.labels) + 1
    alpha = _figure("box_alpha", c.coincidences[k].reshape(len(t.units), -1), alpha_stat(n_cat),
                    what=f"box_alpha (IoU >= {thr:g})", why_undefined=ONE_VALUE,
                    details={"iou_threshold": thr, "level": "nominal"}, bounds=(-1.0, 1.0),
                    by_image=(alpha_margins(c.coincidences[k]), alpha_margin_stat),
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
        f1 = _figure("box_f1", np.concatenate([m, n], axis=1), f1_stat(n_p),
                    what="box_f1", why_undefined=NO_BOX, details=details, **common)  # fmt: skip
        iou = _figure("mean_iou", np.stack([s.sum(1), m.sum(1)], axis=1), ratio_stat,
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
        f1 = _figure("box_f1", np.concatenate([m, n], axis=1), f1_stat(1),
                    what="box_f1", why_undefined=NO_BOX, details=details, **common)  # fmt: skip
        iou = _figure("mean_iou", np.stack([s, m[:, 0]], axis=1), ratio_stat,
                     what="mean_iou", why_undefined=NO_MATCH, details=details,
                     **common)  # fmt: skip
        out[names] = BoxFigures(thr, f1, iou)
    return out
