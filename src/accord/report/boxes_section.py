"""The report's box section: agreement between annotators on boxes, for data that hold boxes.

Built from :func:`accord.box_agreement` (pairwise F1, mean IoU and Krippendorff's alpha on
the matched objects, per label, per annotator pair and over COCO's IoU thresholds, with
bootstrap intervals over images) and, for the picture of the most disputed images, from
the per image counts of the same matching
(:meth:`accord.images.BoxAgreement.image_counts`). The renderers
(:mod:`accord.report.render_boxes`) show the text cells of :func:`cells`, each escaping
them for its medium.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.errors import DegenerateDataWarning
from accord.inference import Bootstrap
from accord.inference.results import AgreementResult
from accord.readers.boxes import BoxTable
from accord.report.model import DataSummary, Report, Settings, UnitsSection

__all__ = ["BoxFigure", "BoxLabelRow", "BoxPairRow", "BoxSweepRow", "BoxesSection",
           "DisputedImage", "DrawnBox", "box_annotations", "box_report", "boxes_section",
           "cells", "chosen", "has_boxes", "no_boxes"]

DEFAULT_RESAMPLES = 1999
#: How many of the images with the lowest agreement are drawn.
MOST_DISPUTED = 6
#: The IoU two boxes reach at least to match (COCO's AP50, CVAT's and kalphacv's use).
IOU_THRESHOLD = 0.5
#: What each figure counts, in one sentence ({t}: the IoU threshold).
SENTENCES = {
    "f1": "Pairwise F1 counts, for two annotators, the boxes both drew (same label, IoU at "
          "least {t}, matched one to one) against all the boxes either drew: 2 M / (n_A + "
          "n_B), the mean over annotator pairs.",
    "mean_iou": "Mean IoU counts how tightly the matched boxes overlap (1 is the same box, "
                "{t} the least a match has), over every matched pair.",
    "alpha": "Krippendorff's alpha counts the labels the annotators gave each matched object "
             "(\"no box\" for an annotator who drew none there) against chance: 1 is "
             "perfect, 0 chance, so a box only one annotator drew costs agreement.",
}
NAMES = {"f1": "pairwise F1", "mean_iou": "mean IoU", "alpha": "alpha on matched objects"}


@dataclass(frozen=True)
class BoxFigure:
    """One figure with its bootstrap interval over images (``nan`` limits when undefined)."""

    figure: str
    coefficient: str
    estimate: float
    ci_low: float
    ci_high: float
    method: str
    undefined_reason: str | None

    def to_dict(self, confidence_level: float, iou_threshold: float) -> dict[str, Any]:
        """The figure in the shape of every command's JSON."""
        ci = None if not self.method else {"low": _num(self.ci_low), "high": _num(self.ci_high),
                                           "confidence_level": confidence_level,
                                           "method": self.method}  # fmt: skip
        return {"figure": self.figure, "coefficient": self.coefficient,
                "estimate": _num(self.estimate), "se": None, "confidence_interval": ci,
                "undefined_reason": self.undefined_reason,
                "iou_threshold": iou_threshold}  # fmt: skip


@dataclass(frozen=True)
class BoxLabelRow:
    """One label: its boxes, its pairwise F1 and mean IoU (other labels' boxes left out)."""

    label: str
    n_boxes: int
    f1: BoxFigure
    mean_iou: BoxFigure


@dataclass(frozen=True)
class BoxPairRow:
    """One pair of annotators: their F1 and mean IoU."""

    annotators: tuple[str, str]
    f1: BoxFigure
    mean_iou: BoxFigure


@dataclass(frozen=True)
class BoxSweepRow:
    """The three estimates at one IoU threshold (COCO's 0.50:0.05:0.95)."""

    iou_threshold: float
    f1: float
    mean_iou: float
    alpha: float


@dataclass(frozen=True)
class DrawnBox:
    """One annotator's box on an image (x, y of the top-left corner, width, height)."""

    annotator: str
    label: str
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class DisputedImage:
    """An image of low agreement: its pairwise F1 (all pairs pooled), its boxes and matched
    pairs (same label, IoU at least the threshold), and every box drawn on it."""

    image: str
    f1: float
    n_boxes: int
    n_matched: int
    boxes: tuple[DrawnBox, ...]


@dataclass(frozen=True)
class BoxesSection:
    """Agreement on boxes: the verdict's three figures, per label, per pair, the IoU sweep
    and the most disputed images.

    Attributes
    ----------
    iou_threshold : float
    n_images, n_boxes : int
    annotators, labels : tuple of str
    sentence : str
        The three figures in words (the report's verdict).
    figures : tuple of BoxFigure
        ``f1``, ``mean_iou``, ``alpha``, in that order.
    per_label : tuple of BoxLabelRow
    pairs : tuple of BoxPairRow
    sweep : tuple of BoxSweepRow
    disputed : tuple of DisputedImage
        Up to :data:`MOST_DISPUTED`, the lowest per image F1 first.
    notes : tuple of str
    confidence_level : float
    """

    iou_threshold: float
    n_images: int
    n_boxes: int
    annotators: tuple[str, ...]
    labels: tuple[str, ...]
    sentence: str
    figures: tuple[BoxFigure, ...]
    per_label: tuple[BoxLabelRow, ...]
    pairs: tuple[BoxPairRow, ...]
    sweep: tuple[BoxSweepRow, ...]
    disputed: tuple[DisputedImage, ...]
    notes: tuple[str, ...]
    confidence_level: float = 0.95

    def figure(self, name: str) -> BoxFigure:
        """The figure ``"f1"``, ``"mean_iou"`` or ``"alpha"``."""
        return next(f for f in self.figures if f.figure == name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision (``None`` for undefined figures)."""
        level, t = self.confidence_level, self.iou_threshold

        def fig(f: BoxFigure) -> dict[str, Any]:
            return f.to_dict(level, t)

        return {
            "iou_threshold": t, "n_images": self.n_images, "n_boxes": self.n_boxes,
            "annotators": list(self.annotators), "labels": list(self.labels),
            "sentence": self.sentence,
            "results": [{**fig(f), "sentence": sentence(f.figure, t)} for f in self.figures],
            "per_label": [{"label": r.label, "n_boxes": r.n_boxes, "f1": fig(r.f1),
                           "mean_iou": fig(r.mean_iou)} for r in self.per_label],
            "pairs": [{"annotators": list(p.annotators), "f1": fig(p.f1),
                       "mean_iou": fig(p.mean_iou)} for p in self.pairs],
            "sweep": [{"iou_threshold": s.iou_threshold, "f1": _num(s.f1),
                       "mean_iou": _num(s.mean_iou), "alpha": _num(s.alpha)}
                      for s in self.sweep],
            "disputed_images": [
                {"image": d.image, "f1": _num(d.f1), "n_boxes": d.n_boxes,
                 "n_matched": d.n_matched,
                 "boxes": [{"annotator": b.annotator, "label": b.label, "x": b.x, "y": b.y,
                            "w": b.w, "h": b.h} for b in d.boxes]}
                for d in self.disputed],
            "notes": list(self.notes),
        }  # fmt: skip


def sentence(name: str, iou_threshold: float) -> str:
    """What the figure ``name`` counts, at ``iou_threshold``."""
    return SENTENCES[name].format(t=f"{iou_threshold:g}")


def has_boxes(ann: Annotations) -> bool:
    """Boxes only (what :func:`accord.read` gives for a box export or a table of boxes)."""
    meta = getattr(ann, "meta", None) or {}
    return ann.n_ratings == 0 and isinstance(meta.get("boxes"), BoxTable)


def no_boxes(iou_threshold: Any, func: str) -> None:
    """Refuse an IoU threshold for data without boxes (it would change nothing)."""
    if iou_threshold is not None:
        from accord.data._validation import fail

        raise fail("iou_threshold", func, "None for data without boxes", iou_threshold)


def box_annotations(table: BoxTable) -> Annotations:
    """Annotations that hold ``table`` only (what a reader gives for a box export)."""
    from accord.data.annotations import Audit

    empty = np.zeros(0, dtype=np.int64)
    rows = int(table.audit.get("rows", len(table)))
    return Annotations(empty, empty, empty, units=table.units, raters=table.raters,
                       categories=(), audit=Audit("BoxTable", rows, 0),
                       meta={"format": "BoxTable", "boxes": table})  # fmt: skip


def boxes_section(table: BoxTable, confidence_level: float, method: Any, seed: int | None,
                  iou_threshold: float = IOU_THRESHOLD) -> BoxesSection:
    """Every figure of the section; intervals by bootstrap over images (``method`` when it
    is a :class:`~accord.inference.Bootstrap`, else 1999 percentile resamples), all from
    one draw of the images (:meth:`accord.images.BoxAgreement.intervals`)."""
    from accord.images import box_agreement

    boot = method if isinstance(method, Bootstrap) else Bootstrap(
        n_resamples=DEFAULT_RESAMPLES, rng=seed)  # fmt: skip
    res = box_agreement(table, iou_threshold=iou_threshold, confidence_level=confidence_level,
                        n_resamples=boot.n_resamples, rng=boot.rng)  # fmt: skip
    res = replace(res, bootstrap=boot)  # its kind (BCa, basic) and progress too
    cis = res.intervals()

    def row(name: str, r: AgreementResult, *where: Any) -> BoxFigure:
        if not r.defined:
            return BoxFigure(name, r.coefficient, r.estimate, math.nan, math.nan, "",
                             r.undefined_reason)
        ci = cis[tuple(where) + (name,)]
        return BoxFigure(name, r.coefficient, r.estimate, ci.low, ci.high, ci.method, None)

    figures = tuple(row(k, getattr(res, k)) for k in ("f1", "mean_iou", "alpha"))
    n_label = Counter(table.labels[k] for k in table.label.tolist())
    labels = tuple(BoxLabelRow(k, n_label[k], row("f1", f.f1, "per_label", k),
                               row("mean_iou", f.mean_iou, "per_label", k))
                   for k, f in res.per_label.items())  # fmt: skip
    pairs = tuple(BoxPairRow(k, row("f1", f.f1, "pairs", k),
                             row("mean_iou", f.mean_iou, "pairs", k))
                  for k, f in res.pairs.items())  # fmt: skip
    sweep = tuple(BoxSweepRow(f.iou_threshold, f.f1.estimate, f.mean_iou.estimate,
                              math.nan if f.alpha is None else f.alpha.estimate)
                  for f in res.sweep)
    return BoxesSection(
        iou_threshold, len(table.units), len(table), tuple(table.raters), tuple(table.labels),
        _sentence(figures, len(table.raters), confidence_level, iou_threshold), figures,
        labels, pairs, sweep, disputed(table, iou_threshold, counts=res.image_counts()), (),
        confidence_level,
    )  # fmt: skip


def disputed(table: BoxTable, iou_threshold: float, top: int = MOST_DISPUTED, *,
             counts: Mapping[str, Any] | None = None) -> tuple[DisputedImage, ...]:
    """The images with the lowest pairwise F1 (all annotator pairs pooled: 2 M / N over the
    image), ties broken by more boxes, then by name; images without a box are left out.
    ``counts``: :meth:`accord.images.BoxAgreement.image_counts` at ``iou_threshold``, if
    already counted."""
    if counts is None:
        from accord.images import box_agreement

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)  # figures not shown here
            counts = box_agreement(table, iou_threshold=iou_threshold).image_counts()
    matched, boxes = counts["matched"], counts["boxes"]
    drawn = [u for u in range(len(table.units)) if boxes[u] > 0]
    f1 = {u: 2.0 * float(matched[u]) / float(boxes[u]) for u in drawn}
    order = sorted(drawn, key=lambda u: (f1[u], -boxes[u], table.units[u]))[:top]
    out = []
    for u in order:
        rows = np.flatnonzero(table.unit == u)
        shapes = tuple(DrawnBox(table.raters[int(table.rater[i])],
                                table.labels[int(table.label[i])],
                                *(float(x) for x in table.xywh[i])) for i in rows)
        out.append(DisputedImage(str(table.units[u]), f1[u], len(shapes), int(matched[u]),
                                 shapes))
    return tuple(out)


def chosen(table: BoxTable, raters: Sequence[str]) -> BoxTable:
    """The boxes of ``raters`` only (``raters=`` of the report), every image kept (each
    annotator saw every image); the labels are those the chosen annotators used."""
    keep = [k for k, r in enumerate(table.raters) if r in set(raters)]
    if len(keep) == len(table.raters):
        return table
    rows = np.isin(table.rater, keep)
    used = np.unique(table.label[rows])
    rater_code = np.full(len(table.raters), -1, dtype=np.int64)
    rater_code[keep] = np.arange(len(keep))
    label_code = np.full(len(table.labels), -1, dtype=np.int64)
    label_code[used] = np.arange(used.size)
    return replace(table, raters=tuple(table.raters[k] for k in keep),
                   labels=tuple(table.labels[k] for k in used.tolist()),
                   unit=table.unit[rows], rater=rater_code[table.rater[rows]],
                   label=label_code[table.label[rows]], xywh=table.xywh[rows],
                   score=None if table.score is None else table.score[rows],
                   audit={**table.audit, "boxes": int(rows.sum())})


def box_report(ann: Annotations, settings: Settings, method: Any, title: str | None,
               iou_threshold: float | None = None) -> Report:
    """The report of box-only data: the data summary and the box section (boxes matched
    at IoU at least ``iou_threshold``, default :data:`IOU_THRESHOLD`)."""
    from accord._version import __version__

    table = chosen(ann.meta["boxes"], ann.raters)
    iou = IOU_THRESHOLD if iou_threshold is None else iou_threshold
    section = boxes_section(table, settings.confidence_level, method, settings.seed, iou)
    if not isinstance(method, Bootstrap):
        settings = replace(settings, method="bootstrap-percentile",
                           n_resamples=DEFAULT_RESAMPLES)
    units = UnitsSection(section.annotators, (), 0, 0)  # no label per image: see the section
    return Report(
        title=title or "Agreement report", headline=section.sentence,
        accord_version=__version__, data=_data(ann, table), settings=settings,
        coefficients=(), primary=None, pairs=(), raters=(), loo_coefficient=None, matrix=None,
        units=units, bootstrap=None, study=None, notes=(), boxes=section,
    )


def _data(ann: Annotations, table: BoxTable) -> DataSummary:
    labels = Counter(table.labels[k] for k in table.label.tolist())
    per_image = Counter(table.unit.tolist())
    audit = ann.audit
    return DataSummary(
        source=audit.source, n_units=len(table.units), n_raters=len(table.raters),
        raters=tuple(table.raters), kinds=tuple("human" for _ in table.raters),
        categories=tuple(sorted(labels)),
        category_counts=tuple(labels[k] for k in sorted(labels)), level="nominal",
        n_ratings=0, rows_read=audit.rows_read,
        dropped=tuple((str(k), int(n)) for k, n in audit.dropped.items()),
        notes=tuple(audit.notes), units_rated_once=0, units_complete=len(per_image),
        audit=tuple(audit.lines()), caveats=tuple(audit.caveats), ratings_reader_used=0,
    )  # fmt: skip


def _sentence(figures: tuple[BoxFigure, ...], n_annotators: int, level: float,
              iou_threshold: float = IOU_THRESHOLD) -> str:
    parts = []
    for f in figures:
        if f.undefined_reason:
            parts.append(f"{NAMES[f.figure]} undefined ({f.undefined_reason})")
            continue
        ci = (f" ({level * 100:g}% CI {_f(f.ci_low)} to {_f(f.ci_high)})"
              if math.isfinite(f.ci_low) else "")
        parts.append(f"{NAMES[f.figure]} {_f(f.estimate)}{ci}")
    return (f"{n_annotators} annotators' boxes matched at IoU >= {iou_threshold:g}: "
            f"{parts[0]}; {parts[1]}; {parts[2]}.")


# --------------------------------------------------------------------------- text cells
FIGURE_HEAD = ["figure", "estimate", "interval"]
LABEL_HEAD = ["label", "boxes", "F1", "F1 interval", "mean IoU", "IoU interval"]
PAIR_HEAD = ["annotators", "F1", "F1 interval", "mean IoU", "IoU interval"]
SWEEP_HEAD = ["IoU threshold", "F1", "mean IoU", "alpha"]


def cells(s: BoxesSection) -> dict[str, Any]:
    """The section as text: the three figures, per label, per pair, the sweep (raw text:
    each renderer escapes it)."""
    figures = [[NAMES[f.figure], _fig(f), _ci(f)] for f in s.figures]
    labels = [[r.label, str(r.n_boxes), _fig(r.f1), _ci(r.f1), _fig(r.mean_iou),
               _ci(r.mean_iou)] for r in s.per_label]
    pairs = [[" / ".join(p.annotators), _fig(p.f1), _ci(p.f1), _fig(p.mean_iou),
              _ci(p.mean_iou)] for p in s.pairs]
    sweep = [[f"{r.iou_threshold:.2f}", _f(r.f1), _f(r.mean_iou), _f(r.alpha)]
             for r in s.sweep]
    disputed = [f"{d.image}: pairwise F1 {_f(d.f1)}, {d.n_boxes} boxes, {d.n_matched} "
                "matched pairs" for d in s.disputed]
    return {"figures": figures, "labels": labels, "pairs": pairs, "sweep": sweep,
            "disputed": disputed}


def data_lines(s: BoxesSection) -> list[str]:
    """The data facts of a box report."""
    return [f"boxes: {s.n_boxes} on {s.n_images} images",
            f"annotators: {', '.join(s.annotators)}", f"labels: {', '.join(s.labels)}",
            f"IoU threshold: {s.iou_threshold:g} (a pair exactly at it matches)"]


def _fig(f: BoxFigure) -> str:
    return "undefined" if f.undefined_reason else _f(f.estimate)


def _ci(f: BoxFigure) -> str:
    return f"{_f(f.ci_low)} to {_f(f.ci_high)}" if math.isfinite(f.ci_low) else "–"


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None
