"""The report's shape section: agreement between annotators on boxes, polygons or
keypoints, for data that hold only those.

One section for the three shapes, named by its :class:`ShapeKind`: built from the result
of :func:`accord.box_agreement`, :func:`accord.polygon_agreement` or
:func:`accord.keypoint_agreement` (pairwise F1, the mean IoU or OKS of the matched pairs
and Krippendorff's alpha on the matched objects, per label, per annotator pair and over
COCO's thresholds, with bootstrap intervals over images, all from one draw of the
images) and, for the picture of the most disputed images, from the per image counts of
the same matching. The data side (reading, choosing annotators, the report itself) is in
:mod:`accord.report.shapes_report`; the renderers (:mod:`accord.report.render_shapes`)
show the text cells of :func:`cells`, each escaping them for its medium.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from accord.inference.results import AgreementResult

__all__ = ["BOXES", "KEYPOINTS", "KINDS", "POLYGONS", "DisputedImage", "DrawnShape",
           "LabelRow", "PairRow", "ShapeFigure", "ShapeKind", "ShapesSection", "SweepRow",
           "cells", "data_lines", "section_of", "sentence"]

#: How many of the images with the lowest agreement are drawn.
MOST_DISPUTED = 6


@dataclass(frozen=True)
class ShapeKind:
    """A shape's names: ``name`` (the job and the JSON key: "boxes", "polygons",
    "keypoints"), ``noun`` and ``plural`` (in sentences), ``count`` (the JSON key of the
    counts and of the drawn shapes: "boxes" or "objects") and ``measure`` ("iou", "oks")."""

    name: str
    noun: str
    plural: str
    count: str
    measure: str

    @property
    def upper(self) -> str:
        """``"IoU"`` or ``"OKS"``."""
        return "OKS" if self.measure == "oks" else "IoU"

    @property
    def mean(self) -> str:
        """The mean similarity's key: ``mean_iou`` or ``mean_oks``."""
        return f"mean_{self.measure}"

    @property
    def threshold(self) -> str:
        """The threshold's key: ``iou_threshold`` or ``oks_threshold``."""
        return f"{self.measure}_threshold"


BOXES = ShapeKind("boxes", "box", "boxes", "boxes", "iou")
POLYGONS = ShapeKind("polygons", "polygon", "polygons", "objects", "iou")
KEYPOINTS = ShapeKind("keypoints", "keypoint object", "keypoint objects", "objects", "oks")
KINDS = {k.name: k for k in (BOXES, POLYGONS, KEYPOINTS)}

#: What each figure counts, in one sentence ({t}: the threshold).
SENTENCES = {
    "f1": "Pairwise F1 counts, for two annotators, the {plural} both drew (same label, "
          "{m} at least {t}, matched one to one) against all the {plural} either drew: 2 M / "
          "(n_A + n_B), the mean over annotator pairs.",
    "mean": "Mean {m} counts how closely the matched {plural} agree (1 is the same "
            "{noun}, {t} the least a match has), over every matched pair.",
    "alpha": "Krippendorff's alpha counts the labels the annotators gave each matched object "
             "(\"no {noun}\" for an annotator who drew none there) against chance: 1 is "
             "perfect, 0 chance, so a {noun} only one annotator drew costs agreement.",
}


def name_of(figure: str, kind: ShapeKind) -> str:
    """The figure's name in words: pairwise F1, mean IoU (OKS), alpha on matched objects."""
    return {"f1": "pairwise F1", kind.mean: f"mean {kind.upper}",
            "alpha": "alpha on matched objects"}[figure]


def sentence(figure: str, threshold: float, kind: ShapeKind = BOXES) -> str:
    """What ``figure`` counts at ``threshold``."""
    key = "mean" if figure == kind.mean else figure
    return SENTENCES[key].format(t=f"{threshold:g}", m=kind.upper, noun=kind.noun,
                                 plural=kind.plural)


@dataclass(frozen=True)
class ShapeFigure:
    """One figure with its bootstrap interval over images (``nan`` limits when undefined)."""

    figure: str
    coefficient: str
    estimate: float
    ci_low: float
    ci_high: float
    method: str
    undefined_reason: str | None

    def to_dict(self, confidence_level: float, threshold: dict[str, float]) -> dict[str, Any]:
        """The figure in the shape of every command's JSON (``threshold``: its key and
        value, e.g. ``{"iou_threshold": 0.5}``)."""
        ci = None if not self.method else {"low": _num(self.ci_low), "high": _num(self.ci_high),
                                           "confidence_level": confidence_level,
                                           "method": self.method}  # fmt: skip
        return {"figure": self.figure, "coefficient": self.coefficient,
                "estimate": _num(self.estimate), "se": None, "confidence_interval": ci,
                "undefined_reason": self.undefined_reason, **threshold}  # fmt: skip


@dataclass(frozen=True)
class LabelRow:
    """One label: its shapes, its pairwise F1 and mean similarity (other labels left out)."""

    label: str
    n_shapes: int
    f1: ShapeFigure
    mean: ShapeFigure


@dataclass(frozen=True)
class PairRow:
    """One pair of annotators: their F1 and mean similarity."""

    annotators: tuple[str, str]
    f1: ShapeFigure
    mean: ShapeFigure


@dataclass(frozen=True)
class SweepRow:
    """The three estimates at one threshold (COCO's 0.50:0.05:0.95)."""

    threshold: float
    f1: float
    mean: float
    alpha: float


@dataclass(frozen=True)
class DrawnShape:
    """One annotator's shape on an image: its bounding box (x, y of the top-left corner,
    width, height), and a polygon's outline (``rings``, each a ring of points) or an
    object's keypoints (``points``: x, y, v; x and y ``nan`` where v is 0)."""

    annotator: str
    label: str
    x: float
    y: float
    w: float
    h: float
    rings: tuple[tuple[tuple[float, float], ...], ...] = ()
    points: tuple[tuple[float, float, float], ...] = ()

    def to_dict(self, kind: ShapeKind) -> dict[str, Any]:
        """Boxes: x, y, w, h; polygons: their rings; keypoints: their points."""
        out: dict[str, Any] = {"annotator": self.annotator, "label": self.label}
        if kind.name == "polygons":
            return {**out, "rings": [[list(p) for p in r] for r in self.rings]}
        if kind.name == "keypoints":
            return {**out, "points": [[_num(x), _num(y), int(v)] for x, y, v in self.points]}
        return {**out, "x": self.x, "y": self.y, "w": self.w, "h": self.h}


@dataclass(frozen=True)
class DisputedImage:
    """An image of low agreement: its pairwise F1 (all pairs pooled), its shapes and
    matched pairs (same label, similarity at least the threshold), and every shape drawn
    on it."""

    image: str
    f1: float
    n_shapes: int
    n_matched: int
    shapes: tuple[DrawnShape, ...]


@dataclass(frozen=True)
class ShapesSection:
    """Agreement on boxes, polygons or keypoints: the verdict's three figures, per label,
    per pair, the sweep over thresholds and the most disputed images.

    Attributes
    ----------
    kind : ShapeKind
        :data:`BOXES`, :data:`POLYGONS` or :data:`KEYPOINTS`.
    threshold : float
        The IoU (OKS) a matched pair reaches at least.
    n_images, n_shapes : int
    annotators, labels : tuple of str
    sentence : str
        The three figures in words (the report's verdict).
    figures : tuple of ShapeFigure
        ``f1``, ``mean_iou`` (``mean_oks``), ``alpha``, in that order.
    per_label : tuple of LabelRow
    pairs : tuple of PairRow
    sweep : tuple of SweepRow
    disputed : tuple of DisputedImage
        Up to :data:`MOST_DISPUTED`, the lowest per image F1 first.
    notes : tuple of str
    confidence_level : float
    """

    kind: ShapeKind
    threshold: float
    n_images: int
    n_shapes: int
    annotators: tuple[str, ...]
    labels: tuple[str, ...]
    sentence: str
    figures: tuple[ShapeFigure, ...]
    per_label: tuple[LabelRow, ...]
    pairs: tuple[PairRow, ...]
    sweep: tuple[SweepRow, ...]
    disputed: tuple[DisputedImage, ...]
    notes: tuple[str, ...]
    confidence_level: float = 0.95

    @property
    def iou_threshold(self) -> float:
        """The threshold (named as for boxes)."""
        return self.threshold

    def figure(self, name: str) -> ShapeFigure:
        """The figure ``"f1"``, ``"mean_iou"`` (``"mean_oks"``) or ``"alpha"``."""
        return next(f for f in self.figures if f.figure == name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision (``None`` for undefined figures); the keys
        name the shape's measure (``iou_threshold``, ``mean_oks``) and count (``n_boxes``,
        ``n_objects``)."""
        k, level, t = self.kind, self.confidence_level, self.threshold
        n = f"n_{k.count}"

        def fig(f: ShapeFigure) -> dict[str, Any]:
            return f.to_dict(level, {k.threshold: t})

        return {
            k.threshold: t, "n_images": self.n_images, n: self.n_shapes,
            "annotators": list(self.annotators), "labels": list(self.labels),
            "sentence": self.sentence,
            "results": [{**fig(f), "sentence": sentence(f.figure, t, k)} for f in self.figures],
            "per_label": [{"label": r.label, n: r.n_shapes, "f1": fig(r.f1),
                           k.mean: fig(r.mean)} for r in self.per_label],
            "pairs": [{"annotators": list(p.annotators), "f1": fig(p.f1),
                       k.mean: fig(p.mean)} for p in self.pairs],
            "sweep": [{k.threshold: s.threshold, "f1": _num(s.f1), k.mean: _num(s.mean),
                       "alpha": _num(s.alpha)} for s in self.sweep],
            "disputed_images": [
                {"image": d.image, "f1": _num(d.f1), n: d.n_shapes, "n_matched": d.n_matched,
                 k.count: [b.to_dict(k) for b in d.shapes]} for d in self.disputed],
            "notes": list(self.notes),
        }  # fmt: skip


def section_of(res: Any, kind: ShapeKind, table: Any, disputed: tuple[DisputedImage, ...],
               ) -> ShapesSection:  # fmt: skip
    """The section of ``res`` (a box, polygon or keypoint agreement whose bootstrap is the
    report's), its intervals all from one draw of the images; ``table`` the shapes
    compared (codes and names), ``disputed`` the images to draw."""
    from collections import Counter

    cis = res.intervals()
    level = res.confidence_level

    def row(name: str, r: AgreementResult, *where: Any) -> ShapeFigure:
        if not r.defined:
            return ShapeFigure(name, r.coefficient, r.estimate, math.nan, math.nan, "",
                               r.undefined_reason)
        ci = cis[tuple(where) + (name,)]
        return ShapeFigure(name, r.coefficient, r.estimate, ci.low, ci.high, ci.method, None)

    names = ("f1", kind.mean, "alpha")
    figures = tuple(row(k, getattr(res, k)) for k in names)
    n_label = Counter(table.labels[k] for k in table.label.tolist())
    threshold = res.threshold if hasattr(res, "threshold") else res.iou_threshold
    labels = tuple(LabelRow(k, n_label[k], row("f1", f.f1, "per_label", k),
                            row(kind.mean, _mean(f), "per_label", k))
                   for k, f in res.per_label.items())  # fmt: skip
    pairs = tuple(PairRow(k, row("f1", f.f1, "pairs", k), row(kind.mean, _mean(f), "pairs", k))
                  for k, f in res.pairs.items())  # fmt: skip
    sweep = tuple(SweepRow(_threshold(f), f.f1.estimate, _mean(f).estimate,
                           math.nan if f.alpha is None else f.alpha.estimate)
                  for f in res.sweep)  # fmt: skip
    return ShapesSection(
        kind, threshold, len(table.units), len(table), tuple(table.raters),
        tuple(table.labels), _sentence(figures, kind, len(table.raters), level, threshold),
        figures, labels, pairs, sweep, disputed, (), level,
    )  # fmt: skip


def _mean(f: Any) -> AgreementResult:
    """The mean similarity of box figures (``mean_iou``) or shape figures (``mean``)."""
    out: AgreementResult = f.mean if hasattr(f, "mean") else f.mean_iou
    return out


def _threshold(f: Any) -> float:
    return float(f.threshold if hasattr(f, "threshold") else f.iou_threshold)


def _sentence(figures: tuple[ShapeFigure, ...], kind: ShapeKind, n_annotators: int,
              level: float, threshold: float) -> str:
    parts = []
    for f in figures:
        if f.undefined_reason:
            parts.append(f"{name_of(f.figure, kind)} undefined ({f.undefined_reason})")
            continue
        ci = (f" ({level * 100:g}% CI {_f(f.ci_low)} to {_f(f.ci_high)})"
              if math.isfinite(f.ci_low) else "")
        parts.append(f"{name_of(f.figure, kind)} {_f(f.estimate)}{ci}")
    return (f"{n_annotators} annotators' {kind.plural} matched at {kind.upper} >= "
            f"{threshold:g}: {parts[0]}; {parts[1]}; {parts[2]}.")


# --------------------------------------------------------------------------- text cells
FIGURE_HEAD = ["figure", "estimate", "interval"]


def heads(kind: ShapeKind) -> dict[str, list[str]]:
    """The column heads of the per label, pair and sweep tables."""
    m = kind.upper
    return {"labels": ["label", kind.count, "F1", "F1 interval", f"mean {m}", f"{m} interval"],
            "pairs": ["annotators", "F1", "F1 interval", f"mean {m}", f"{m} interval"],
            "sweep": [f"{m} threshold", "F1", f"mean {m}", "alpha"]}


def cells(s: ShapesSection) -> dict[str, Any]:
    """The section as text: the three figures, per label, per pair, the sweep (raw text:
    each renderer escapes it)."""
    figures = [[name_of(f.figure, s.kind), _fig(f), _ci(f)] for f in s.figures]
    labels = [[r.label, str(r.n_shapes), _fig(r.f1), _ci(r.f1), _fig(r.mean), _ci(r.mean)]
              for r in s.per_label]
    pairs = [[" / ".join(p.annotators), _fig(p.f1), _ci(p.f1), _fig(p.mean), _ci(p.mean)]
             for p in s.pairs]
    sweep = [[f"{r.threshold:.2f}", _f(r.f1), _f(r.mean), _f(r.alpha)] for r in s.sweep]
    disputed = [f"{d.image}: pairwise F1 {_f(d.f1)}, {d.n_shapes} {s.kind.count}, "
                f"{d.n_matched} matched pairs" for d in s.disputed]
    return {"figures": figures, "labels": labels, "pairs": pairs, "sweep": sweep,
            "disputed": disputed}


def data_lines(s: ShapesSection) -> list[str]:
    """The data facts of a shape report."""
    k = s.kind
    return [f"{k.plural}: {s.n_shapes} on {s.n_images} images",
            f"annotators: {', '.join(s.annotators)}", f"labels: {', '.join(s.labels)}",
            f"{k.upper} threshold: {s.threshold:g} (a pair exactly at it matches)"]


def _fig(f: ShapeFigure) -> str:
    return "undefined" if f.undefined_reason else _f(f.estimate)


def _ci(f: ShapeFigure) -> str:
    return f"{_f(f.ci_low)} to {_f(f.ci_high)}" if math.isfinite(f.ci_low) else "–"


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None
