"""What a file holds, as plain data: the model behind ``accord inspect``."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.data.audit import reason_counts
from accord.readers._base import Skip


def summary(ann: Annotations) -> dict[str, Any]:
    """Format, field, raters (kind, ratings), units, categories with counts, drops, audit.

    Examples
    --------
    >>> ann = Annotations.from_wide({"a": ["x", "y"], "b": ["x", None]})
    >>> s = summary(ann)
    >>> s["categories"], [(r["name"], r["ratings"]) for r in s["raters"]]
    ([{'label': 'x', 'count': 2}, {'label': 'y', 'count': 1}], [('a', 2), ('b', 1)])
    """
    u, r, c = ann.codes
    per_rater = np.bincount(r, minlength=ann.n_raters)
    per_cat = np.bincount(c, minlength=len(ann.categories))
    aliases = ann.meta.get("aliases", {})
    span_counts = Counter(s.rater for s in ann.spans) if ann.spans is not None else None
    out: dict[str, Any] = {
        "format": ann.meta.get("format"),
        "field": ann.field,
        "fields": list(ann.meta.get("fields", [])),
        "units": ann.n_units if ann.spans is None else max(ann.n_units, len(ann.spans.units)),
        "ratings": ann.n_ratings,
        "raters": [
            {
                "name": _plain(name),
                "kind": ann.kinds.get(name, "human"),
                "ratings": int(per_rater[i]),
                "alias": aliases.get(name),
                **({"spans": span_counts[name]} if span_counts is not None else {}),
            }
            for i, name in enumerate(ann.raters)
        ],
        "categories": [
            {"label": _plain(cat), "count": int(per_cat[i])} for i, cat in enumerate(ann.categories)
        ],
        "level": ann.level,
        "dropped": reason_counts(ann.audit.dropped),
        "spans": _spans(ann.spans),
        "audit": ann.audit.to_dict(),
        "audit_lines": ann.audit.lines(),
        "caveats": list(ann.audit.caveats),
    }
    return out


def _plain(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_plain(v) for v in x]
    return x


def _spans(table: Any) -> dict[str, Any] | None:
    if table is None:
        return None
    status = Counter(table.coverage.values())
    return {
        "field": table.field,
        "spans": len(table),
        "units": len(table.units),
        "raters": list(table.raters),
        "labels": table.labels(),
        "annotated": status.get("annotated", 0),
        "skipped": status.get("skipped", 0),
    }


def describe(
    path_or_paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    format: str | None = None,
    field: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """:func:`summary` of a file; an export with several fields and none chosen lists them.

    For such an export the result has ``"fields"`` with, per field, the number
    of answers and whether it holds spans, and the raters seen, but no categories.
    """
    from accord.readers._base import Collected
    from accord.readers._inputs import on_copies, prepared
    from accord.readers._read import _TABLES, _paths, read, resolve, scan

    paths = _paths(path_or_paths)
    with prepared(paths) as prep:
        if prep.names:  # a pipe is read once; audits name the originals
            out: dict[str, Any] = on_copies(
                prep, lambda ps: describe(ps, format=format, field=field, **options))
            return out
    paths, name = resolve(path_or_paths, format)
    if field is None and name not in _TABLES:
        collected = scan(
            paths, format=name, **{k: v for k, v in options.items() if k in ("fields",)}
        )
        if isinstance(collected, Collected) and len(collected.fields_seen) > 1:
            return _fields_overview(collected, name, paths)
    ann = read(paths, format=name, field=field, **options)
    out = summary(ann)
    out["format"] = name
    return out


def _fields_overview(col: Any, name: str, paths: Sequence[Any]) -> dict[str, Any]:
    answers = Counter(
        j.field for j in col.judgments if j.value is not None and not isinstance(j.value, Skip)
    )
    spans = Counter(s.field for s in col.spans)
    fields = [
        {
            "name": f,
            "kind": "spans" if f in col.span_fields else "labels",
            "answers": spans[f] if f in col.span_fields else answers[f],
        }
        for f in col.fields_seen
    ]
    raters = list(
        dict.fromkeys([*(j.rater for j in col.judgments), *(r for _, r, _ in col.coverage)])
    )
    return {
        "format": name,
        "field": None,
        "fields": [f["name"] for f in fields],
        "field_details": fields,
        "raters": [
            {
                "name": r,
                "kind": col.kinds.get(r, "human"),
                "ratings": None,
                "alias": col.aliases.get(r),
            }
            for r in raters
        ],
        "units": len({j.unit for j in col.judgments} | {u for u, _, _ in col.coverage}),
        "categories": [],
        "choose_field": True,
        "audit_lines": [f"{p.source}: {p.rows_read} read" for p in col.parts]
        + [f"  note: {n}" for p in col.parts for n in p.notes],
        "sources": [str(p) for p in paths],
    }
