"""What the report says of its data: units, raters, categories, the audit and the level."""

from __future__ import annotations

from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.report.model import DataSummary


def _data_summary(ann: Annotations, weights: str | None = None) -> DataSummary:
    units, raters, values = ann.codes
    m = np.bincount(units, minlength=ann.n_units)
    counts = np.bincount(values, minlength=len(ann.categories))
    audit = ann.audit
    categories, category_counts = _category_counts(ann, counts)
    return DataSummary(
        source=audit.source, n_units=ann.n_units, n_raters=ann.n_raters,
        raters=tuple(str(r) for r in ann.raters),
        kinds=tuple(str(ann.kinds.get(r, "human")) for r in ann.raters),
        categories=categories, category_counts=category_counts,
        label_sets=len(ann.categories) if ann.set_valued else 0,
        level=_level(ann.level, weights),
        n_ratings=ann.n_ratings, rows_read=audit.rows_read,
        dropped=tuple((str(k), int(n)) for k, n in audit.dropped.items()),
        notes=tuple(audit.notes), units_rated_once=int((m == 1).sum()),
        units_complete=int((m == ann.n_raters).sum()), audit=tuple(audit.lines()),
        caveats=tuple(audit.caveats),
        ratings_reader_used=int(audit.ratings_used),
        weights=weights if weights not in (None, "identity") else None,
    )


def _category_counts(ann: Annotations, counts: Any) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The categories and their ratings; for label sets, each label and the ratings that
    give it (a rating of several labels counts once for each)."""
    if not ann.set_valued:
        return tuple(str(c) for c in ann.categories), tuple(int(x) for x in counts)
    per_label: dict[Any, int] = {}
    for labels, n in zip(ann.categories, counts.tolist()):
        for label in labels:
            per_label[label] = per_label.get(label, 0) + int(n)
    labels = sorted(per_label, key=str)
    return tuple(str(x) for x in labels), tuple(per_label[x] for x in labels)


def _level(level: str | None, weights: str | None) -> str:
    """The data's level; weights declare an ordered scale (as in ``accord.compute``)."""
    if level is not None:
        return level
    return "ordinal" if weights not in (None, "identity") else "nominal"
