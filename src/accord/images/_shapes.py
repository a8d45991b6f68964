"""Agreement on shapes other than boxes: the box figures with another similarity.

Keypoints (OKS) and polygons (polygon IoU) are matched, grouped and counted by the
same code as boxes (:func:`accord.images._counts.count` given a similarity matrix);
this module turns those counts into the figures under the shape's own names
(``keypoint_f1``, ``mean_oks``, ``keypoint_alpha``; ``polygon_f1``, ``mean_iou``,
``polygon_alpha``) and holds the result, shaped as
:class:`~accord.images.agreement.BoxAgreement`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from accord.images._counts import Counts, Similarity, count
from accord.images._figures import alpha_stat, alpha_terms, f1_stat, figure, ratio_stat
from accord.inference.bootstrap import Bootstrap
from accord.inference.display import Tabular, flatten_row
from accord.inference.results import AgreementResult, ConfidenceInterval
from accord.readers.boxes import BoxTable, audit_json

#: COCO's thresholds 0.50:0.05:0.95 (for IoU and for OKS alike).
COCO_THRESHOLDS: tuple[float, ...] = tuple(round(0.5 + 0.05 * i, 2) for i in range(10))

ONE_VALUE = (
    "every matched object has the same value from every annotator (no variation, so "
    "no expected disagreement), or fewer than two annotators"
)


@dataclass(frozen=True)
class Kind:
    """A shape's names: ``shape`` ("keypoint", "polygon") and ``measure`` ("oks", "iou")."""

    shape: str
    measure: str

    @property
    def upper(self) -> str:
        return "OKS" if self.measure == "oks" else "IoU"


@dataclass(frozen=True)
class ShapeFigures:
    """``f1``, the mean similarity and ``alpha`` at one threshold (``alpha`` is ``None``
    per label and per pair)."""

    threshold: float
    measure: str
    f1: AgreementResult
    mean: AgreementResult
    alpha: AgreementResult | None = None

    def results(self) -> dict[str, AgreementResult]:
        """The figures by name: ``f1``, ``mean_oks`` or ``mean_iou``, ``alpha``."""
        out = {"f1": self.f1, f"mean_{self.measure}": self.mean}
        if self.alpha is not None:
            out["alpha"] = self.alpha
        return out


@dataclass(frozen=True)
class ShapeAgreement(Tabular):
    """Agreement between annotators on keypoints or polygons.

    Attributes
    ----------
    measure : {"oks", "iou"}
        The similarity shapes are matched on.
    threshold : float
        The similarity a matched pair reaches at least.
    f1, mean, alpha : AgreementResult
        Pairwise F1, the mean similarity of the matched pairs, and Krippendorff's
        alpha on the matched objects, at ``threshold``.
    per_label, pairs, sweep
        As :class:`~accord.images.agreement.BoxAgreement`'s.
    bootstrap, confidence_level, audit
        The interval method of :meth:`to_dict`, its level, and what was read.
    sweep_intervals : bool
        Whether :meth:`to_dict` gives the sweep's figures their intervals too (else the
        sweep has its estimates only; each figure's ``confidence_interval()`` still gives
        its interval on request).
    counts, images
        The per image counts every figure is a statistic of, and the images in their
        order (as :class:`~accord.images.agreement.BoxAgreement`'s).
    """

    measure: str
    threshold: float
    f1: AgreementResult
    mean: AgreementResult
    alpha: AgreementResult
    per_label: Mapping[str, ShapeFigures]
    pairs: Mapping[tuple[str, str], ShapeFigures]
    sweep: tuple[ShapeFigures, ...]
    bootstrap: Bootstrap
    confidence_level: float = 0.95
    audit: Mapping[str, Any] = field(default_factory=dict)
    sweep_intervals: bool = False
    counts: Counts | None = field(default=None, compare=False, repr=False)
    images: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    def intervals(self) -> dict[tuple[Any, ...], ConfidenceInterval]:
        """The bootstrap interval of every figure but the sweep's, all from one draw of
        the images: keys ``("f1",)``, ``("mean_oks",)`` or ``("mean_iou",)``,
        ``("alpha",)``, ``("per_label", label, figure)``, ``("pairs", (a, b), figure)``;
        each as the figure's own ``confidence_interval(confidence_level,
        method=bootstrap)`` gives it from an int seed."""
        from accord.images._joint import intervals

        main = ShapeFigures(self.threshold, self.measure, self.f1, self.mean, self.alpha)
        named: dict[tuple[Any, ...], AgreementResult] = {
            (k,): r for k, r in main.results().items()}
        for section, rows in (("per_label", self.per_label), ("pairs", self.pairs)):
            for key, f in rows.items():
                named.update({(section, key, k): r for k, r in f.results().items()})
        cis = intervals(list(named.values()), self.confidence_level, self.bootstrap)
        return dict(zip(named, cis, strict=True))

    def image_counts(self) -> dict[str, Any]:
        """Each image's shapes and matched pairs at the threshold, summed over the
        annotator pairs: ``images``, ``boxes`` (each pair's ``n_A + n_B``), ``matched``
        and ``f1`` (``2 matched / boxes``, ``nan`` without a shape), in image order."""
        c = self.counts
        if c is None:
            from accord.errors import InvalidParameterError

            raise InvalidParameterError("this result was built without its counts.")
        matched, boxes = c.matched[0].sum(axis=1), c.boxes[0].sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            f1 = np.where(boxes > 0, 2.0 * matched / boxes, np.nan)
        return {"images": self.images, "boxes": boxes, "matched": matched, "f1": f1}

    def figure_dict(self, res: AgreementResult, **fields: Any) -> dict[str, Any]:
        """One figure as JSON: the result, its bootstrap interval and ``fields``."""
        ci = res.confidence_interval(self.confidence_level, method=self.bootstrap)
        return {**res.to_dict(self.confidence_level, interval=ci), **fields}

    def _figures(self, f: ShapeFigures, interval: bool = True, **fields: Any) -> dict[str, Any]:
        key = {f"{self.measure}_threshold": f.threshold}
        if not interval:
            return {k: {**r.to_dict(self.confidence_level), **key, **fields}
                    for k, r in f.results().items()}  # fmt: skip
        return {k: self.figure_dict(r, **key, **fields) for k, r in f.results().items()}

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per label: its F1 and mean similarity with their intervals."""
        return [flatten_row({"label": k, **self._figures(f)}) for k, f in self.per_label.items()]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures with their bootstrap intervals, at full precision (the
        sweep's figures with theirs only when :attr:`sweep_intervals`)."""
        main = ShapeFigures(self.threshold, self.measure, self.f1, self.mean, self.alpha)
        return {
            **self._figures(main),
            "per_label": [self._figures(f, label=k) for k, f in self.per_label.items()],
            "pairs": [self._figures(f, annotators=list(k)) for k, f in self.pairs.items()],
            "sweep": [self._figures(f, self.sweep_intervals) for f in self.sweep],
            "audit": audit_json(self.audit),
        }


def agreement(
    table: BoxTable, similarity: Similarity, kind: Kind, threshold: float,
    boot: Bootstrap, level: float, audit: Mapping[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """The fields of a :class:`ShapeAgreement` (after ``measure`` and ``threshold``)."""
    thresholds = tuple(dict.fromkeys((float(threshold), *COCO_THRESHOLDS)))
    c = count(table, thresholds, similarity=similarity)
    main = _at(c, table, 0, kind, warn=True)
    sweep = tuple(_at(c, table, thresholds.index(t), kind, warn=False) for t in COCO_THRESHOLDS)
    return {"f1": main.f1, "mean": main.mean, "alpha": main.alpha,
            "per_label": _per_label(c, table, kind), "pairs": _pairs(c, table, kind),
            "sweep": sweep, "bootstrap": boot, "confidence_level": level,
            "audit": audit, "counts": c, "images": tuple(table.units)}  # fmt: skip


def _pair_figures(
    kind: Kind, m: Any, n: Any, s: Any, n_pairs: int, thr: float, common: dict[str, Any],
    details: dict[str, Any],
) -> tuple[AgreementResult, AgreementResult]:  # fmt: skip
    u, what = kind.upper, f" ({kind.upper} >= {thr:g})"
    f1 = figure(f"{kind.shape}_f1", np.concatenate([m, n], axis=1), f1_stat(n_pairs),
                what=f"{kind.shape}_f1{what}",
                why_undefined=f"no annotator pair drew a {kind.shape}",
                details=details, **common)  # fmt: skip
    mean = figure(f"mean_{kind.measure}", np.stack([s.sum(1), m.sum(1)], axis=1), ratio_stat,
                  what=f"mean_{kind.measure}{what}",
                  why_undefined=f"no pair of {kind.shape}s matched at this {u} threshold",
                  details=details, **common)  # fmt: skip
    return f1, mean


def _at(c: Counts, t: BoxTable, k: int, kind: Kind, *, warn: bool) -> ShapeFigures:
    thr = c.thresholds[k]
    n_p = len(c.pairs)
    common: dict[str, Any] = {"images": t.units, "n_raters": len(t.raters), "warn": warn}
    details: dict[str, Any] = {f"{kind.measure}_threshold": thr, "n_pairs": n_p}
    f1, mean = _pair_figures(kind, c.matched[k], c.boxes[k], c.iou_sum[k], n_p, thr, common,
                             details)  # fmt: skip
    n_cat = len(t.labels) + 1
    alpha = figure(f"{kind.shape}_alpha", c.coincidences[k].reshape(len(t.units), -1),
                   alpha_stat(n_cat), what=f"{kind.shape}_alpha ({kind.upper} >= {thr:g})",
                   why_undefined=ONE_VALUE, bounds=(-1.0, 1.0),
                   details={f"{kind.measure}_threshold": thr, "level": "nominal"},
                   **common)  # fmt: skip
    d_o, d_e = alpha_terms(c.coincidences[k].sum(axis=0).ravel(), n_cat)
    return ShapeFigures(thr, kind.measure, f1, mean, replace(alpha, observed=d_o, expected=d_e))


def _per_label(c: Counts, t: BoxTable, kind: Kind) -> dict[str, ShapeFigures]:
    out = {}
    n_p, thr = len(c.pairs), c.thresholds[0]
    common: dict[str, Any] = {"images": t.units, "n_raters": len(t.raters), "warn": False}
    for code, name in enumerate(t.labels):
        m, n = c.matched_by_label[0, :, :, code], c.boxes_by_label[0, :, :, code]
        s = c.iou_by_label[0, :, :, code]
        details = {f"{kind.measure}_threshold": thr, "label": name}
        f1, mean = _pair_figures(kind, m, n, s, n_p, thr, common, details)
        out[name] = ShapeFigures(thr, kind.measure, f1, mean)
    return out


def _pairs(c: Counts, t: BoxTable, kind: Kind) -> dict[tuple[str, str], ShapeFigures]:
    out = {}
    thr = c.thresholds[0]
    common: dict[str, Any] = {"images": t.units, "n_raters": 2, "warn": False}
    for p, (a, b) in enumerate(c.pairs):
        names = (t.raters[a], t.raters[b])
        m, n, s = c.matched[0, :, p : p + 1], c.boxes[0, :, p : p + 1], c.iou_sum[0, :, p : p + 1]
        details = {f"{kind.measure}_threshold": thr, "annotators": list(names)}
        f1, mean = _pair_figures(kind, m, n, s, 1, thr, common, details)
        out[names] = ShapeFigures(thr, kind.measure, f1, mean)
    return out
