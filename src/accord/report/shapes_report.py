"""The report of data that hold shapes only: boxes, polygons or keypoints.

A reader gives such data as :class:`~accord.data.annotations.Annotations` without a label
per image, the shapes in ``meta["boxes"]`` (a :class:`~accord.readers.boxes.BoxTable`),
``meta["polygons"]`` (a :class:`~accord.readers.polygons.PolygonTable`) or
``meta["keypoints"]`` (a :class:`~accord.readers.keypoints.KeypointTable`). This module
tells which, keeps the annotators asked for, computes the shape's agreement
(:func:`accord.box_agreement`, :func:`accord.polygon_agreement`,
:func:`accord.keypoint_agreement`) with the report's bootstrap, picks the most disputed
images to draw, and builds the :class:`~accord.report.model.Report` around the section
(:mod:`accord.report.shapes_section`).
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.errors import DegenerateDataWarning
from accord.inference import Bootstrap
from accord.report.model import DataSummary, Report, Settings, UnitsSection
from accord.report.shapes_section import (
    KINDS,
    MOST_DISPUTED,
    DisputedImage,
    DrawnShape,
    ShapeKind,
    ShapesSection,
    section_of,
)

__all__ = ["DEFAULT_RESAMPLES", "MOST_DISPUTED", "THRESHOLD", "chosen", "disputed",
           "no_threshold", "shape_annotations", "shape_kind", "shape_report", "shapes_section"]

DEFAULT_RESAMPLES = 1999
#: The IoU (OKS) two shapes reach at least to match (COCO's AP50, CVAT's and kalphacv's).
THRESHOLD = 0.5
#: Each table's class name by the shape it holds.
_TABLES = {"BoxTable": "boxes", "PolygonTable": "polygons", "KeypointTable": "keypoints"}


def shape_kind(ann: Annotations) -> str | None:
    """``"boxes"``, ``"polygons"`` or ``"keypoints"`` when ``ann`` holds shapes only (what
    :func:`accord.read` or ``accord report`` gives for an export or a table of shapes)."""
    meta = getattr(ann, "meta", None) or {}
    if ann.n_ratings != 0:
        return None
    return next((k for k in KINDS if _TABLES.get(type(meta.get(k)).__name__) == k), None)


def no_threshold(threshold: Any, param: str, func: str, what: str) -> None:
    """Refuse a threshold for data it does not apply to (it would change nothing)."""
    if threshold is not None:
        from accord.data._validation import fail

        raise fail(param, func, f"None for data without {what}", threshold)


def shape_annotations(table: Any, caveats: Sequence[str] = (), source: str | None = None,
                      ) -> Annotations:  # fmt: skip
    """Annotations that hold ``table`` (a box, polygon or keypoint table) only, read from
    ``source`` (default: the table's class name), with ``caveats`` (what was guessed in
    reading it)."""
    from accord.data.annotations import Audit

    name = type(table).__name__
    empty = np.zeros(0, dtype=np.int64)
    rows = int(table.audit.get("rows", len(table)))
    return Annotations(empty, empty, empty, units=table.units, raters=table.raters,
                       categories=(), audit=Audit(source or name, rows, 0, caveats=tuple(caveats)),
                       meta={"format": name, _TABLES[name]: table})  # fmt: skip


def chosen(table: Any, raters: Sequence[str]) -> Any:
    """The shapes of ``raters`` only (``raters=`` of the report), every image kept (each
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
    index = np.flatnonzero(rows)
    per_shape = {f.name: _take(getattr(table, f.name), index) for f in fields(table)
                 if f.name not in ("unit", "rater", "label", "units", "raters", "labels",
                                   "names", "audit")}  # fmt: skip
    return replace(table, raters=tuple(table.raters[k] for k in keep),
                   labels=tuple(table.labels[k] for k in used.tolist()),
                   unit=table.unit[rows], rater=rater_code[table.rater[rows]],
                   label=label_code[table.label[rows]], **per_shape,
                   audit={**table.audit, _count(table): int(rows.sum())})  # fmt: skip


def _count(table: Any) -> str:
    return "boxes" if type(table).__name__ == "BoxTable" else "objects"


def _take(x: Any, index: Any) -> Any:
    if x is None:
        return None
    if isinstance(x, tuple):
        return tuple(x[i] for i in index.tolist())
    return x[index]


def _agreement(table: Any, kind: str, threshold: float, level: float, boot: Bootstrap,
               options: Mapping[str, Any]) -> Any:  # fmt: skip
    """The shape's agreement with the report's bootstrap (its kind and progress too)."""
    from accord.images import box_agreement, keypoint_agreement, polygon_agreement

    common: dict[str, Any] = {"confidence_level": level, "n_resamples": boot.n_resamples,
                              "rng": boot.rng}
    res: Any
    if kind == "boxes":
        res = box_agreement(table, iou_threshold=threshold, **common)
    elif kind == "polygons":
        res = polygon_agreement(table, iou_threshold=threshold, **common)
    else:
        res = keypoint_agreement(table, oks_threshold=threshold, **common,
                                        sigmas=options.get("sigmas"),
                                        visible=options.get("visible") or "either")
    return replace(res, bootstrap=boot)


def shapes_section(table: Any, kind: str, confidence_level: float, method: Any,
                   seed: int | None, threshold: float = THRESHOLD,
                   options: Mapping[str, Any] | None = None) -> ShapesSection:
    """Every figure of the section; intervals by bootstrap over images (``method`` when it
    is a :class:`~accord.inference.Bootstrap`, else 1999 percentile resamples), all from
    one draw of the images. ``options``: a keypoint agreement's ``sigmas`` and
    ``visible``."""
    boot = method if isinstance(method, Bootstrap) else Bootstrap(
        n_resamples=DEFAULT_RESAMPLES, rng=seed)  # fmt: skip
    res = _agreement(table, kind, threshold, confidence_level, boot, options or {})
    counts = res.image_counts()
    return section_of(res, KINDS[kind], table, disputed(table, KINDS[kind], counts))


def disputed(table: Any, kind: ShapeKind, counts: Mapping[str, Any],
             top: int = MOST_DISPUTED) -> tuple[DisputedImage, ...]:
    """The images with the lowest pairwise F1 (all annotator pairs pooled: 2 M / N over the
    image), ties broken by more shapes, then by name; images without a shape are left
    out. ``counts``: the agreement's ``image_counts()``."""
    matched, boxes = counts["matched"], counts["boxes"]
    drawn = [u for u in range(len(table.units)) if boxes[u] > 0]
    f1 = {u: 2.0 * float(matched[u]) / float(boxes[u]) for u in drawn}
    order = sorted(drawn, key=lambda u: (f1[u], -boxes[u], table.units[u]))[:top]
    xywh = table.xywh if kind.name == "boxes" else table.as_boxes().xywh
    out = []
    for u in order:
        shapes = tuple(_drawn(table, kind, int(i), xywh[i])
                       for i in np.flatnonzero(table.unit == u))
        out.append(DisputedImage(str(table.units[u]), f1[u], len(shapes), int(matched[u]),
                                 shapes))
    return tuple(out)


def _drawn(table: Any, kind: ShapeKind, i: int, box: Any) -> DrawnShape:
    who, label = table.raters[int(table.rater[i])], table.labels[int(table.label[i])]
    x, y, w, h = (float(v) for v in box)
    if kind.name == "polygons":
        rings = tuple(tuple((float(a), float(b)) for a, b in r) for r in table.rings[i])
        return DrawnShape(who, label, x, y, w, h, rings=rings)
    if kind.name == "keypoints":
        points = tuple((float(a), float(b), float(v)) for a, b, v in table.points[i])
        return DrawnShape(who, label, x, y, w, h, points=points)
    return DrawnShape(who, label, x, y, w, h)


def _few_images(n: int) -> tuple[str, ...]:
    """The note that the bootstrap is over too few images to trust, when it is."""
    from accord.images._figures import few_images

    return tuple(k.removeprefix("note: ") for k in few_images({"images": n})
                 if k.startswith("note: "))


def shape_report(ann: Annotations, settings: Settings, method: Any, title: str | None,
                 threshold: float | None = None,
                 options: Mapping[str, Any] | None = None) -> Report:
    """The report of shape-only data: the data summary and the shape section (shapes
    matched at IoU or OKS at least ``threshold``, default :data:`THRESHOLD`)."""
    from accord._version import __version__

    kind = shape_kind(ann)
    if kind is None:
        raise ValueError("shape_report needs annotations holding shapes only")
    table = chosen(ann.meta[kind], ann.raters)
    t = THRESHOLD if threshold is None else threshold
    section = shapes_section(table, kind, settings.confidence_level, method, settings.seed,
                             t, options)
    if not isinstance(method, Bootstrap):
        settings = replace(settings, method="bootstrap-percentile",
                           n_resamples=DEFAULT_RESAMPLES)
    units = UnitsSection(section.annotators, (), 0, 0)  # no label per image: see the section
    few = _few_images(len(table.units))
    # the headline quotes the intervals: what they rest on is said beside them
    headline = " ".join([section.sentence, *(f"{n[0].upper()}{n[1:]}." for n in few)])
    return Report(
        title=title or "Agreement report", headline=headline,
        accord_version=__version__, data=_data(ann, table), settings=settings,
        coefficients=(), primary=None, pairs=(), raters=(), loo_coefficient=None, matrix=None,
        units=units, bootstrap=None, study=None, notes=few,
        shapes=section,
    )


def _data(ann: Annotations, table: Any) -> DataSummary:
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


def quiet_counts(table: Any, kind: str, threshold: float) -> Mapping[str, Any]:
    """The per image counts of ``table`` at ``threshold`` (the figures' warnings muted:
    only the counts are used)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = _agreement(table, kind, threshold, 0.95, Bootstrap(n_resamples=99, rng=0), {})
    out: Mapping[str, Any] = res.image_counts()
    return out
