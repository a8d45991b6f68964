"""From what a tool reader collected to :class:`~accord.data.annotations.Annotations`.

Picks the field, keeps the latest answer per (unit, rater, field), leaves out
rater kinds not asked for, and encodes with :func:`accord.data.annotations.build`;
the per-file audits become ``audit.parts``.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from accord.data.annotations import RATER_KINDS, Annotations, Audit, build
from accord.errors import FormatError
from accord.readers._base import Collected, Judgment, Part, Skip
from accord.readers.relations import RelationTable
from accord.readers.spans import SpanTable

SUPERSEDED = "superseded by a later answer of the same rater"
#: Marks, among the notes of :func:`_latest`, the one that is a caveat.
CAVEAT_MARK = "caveat: "


def choose_field(col: Collected, field: str | None, source: str) -> str | None:
    """The field to read: the one asked for, the only one, or an error listing them."""
    fields = list(col.fields_seen)
    if field is not None:
        if field not in fields:
            shown = ", ".join(repr(f) for f in fields) or "none"
            raise FormatError(f"{source}: field {field!r} not found; the fields are: {shown}.")
        return field
    if len(fields) > 1:
        shown = ", ".join(repr(f) for f in fields)
        raise FormatError(
            f"{source}: this export has {len(fields)} fields: {shown}; "
            "choose one with field=...."
        )
    return fields[0] if fields else None


def finish(col: Collected, opts: dict[str, Any], source: str) -> Annotations:
    """Annotations of the chosen field (see :func:`accord.read`)."""
    fld = choose_field(col, opts.get("field"), source)
    kinds = dict(col.kinds)
    kinds.update({str(k): str(x) for k, x in (opts.get("kinds") or {}).items()})
    include = _included(opts.get("include_kinds"))
    judgments = [j for j in col.judgments if j.field == fld]
    judgments = _drop_missing(judgments, opts.get("missing", ()), col.parts)
    judgments = _filter_kinds(judgments, kinds, include, col.parts)
    judgments, dup_notes = _latest(judgments, col.parts)
    spans = _span_table(col, fld, kinds, include) if fld in col.span_fields else None
    raters = list(dict.fromkeys(j.rater for j in judgments))
    if spans is not None:
        raters = list(dict.fromkeys([*raters, *spans.raters]))
    for j in judgments:
        col.parts[j.part].used += 1
    caveats = [n.removeprefix(CAVEAT_MARK) for n in dup_notes if n.startswith(CAVEAT_MARK)]
    dup_notes = [n for n in dup_notes if not n.startswith(CAVEAT_MARK)]
    ann = _build(judgments, opts, source, raters, kinds, fld, col, dup_notes)
    if caveats:
        ann.audit = ann.audit.with_caveats(*caveats)
    ann.spans = spans
    if spans is not None:
        status = list(spans.coverage.values())
        ann.audit = _with_note(
            ann.audit,
            (
                f"{len(spans)} span(s) in field {fld!r}; (unit, rater) pairs: "
                f"{status.count('annotated')} annotated, {status.count('skipped')} skipped"
            ),
        )
    ann.meta.update(
        {
            "format": col.format,
            "fields": list(col.fields_seen),
            "span_fields": sorted(col.span_fields),
            "aliases": dict(col.aliases),
            **col.meta,
        }
    )
    return ann


def _included(include: Sequence[str] | None) -> set[str] | None:
    if include is None:
        return None
    chosen = {include} if isinstance(include, str) else set(include)
    unknown = chosen - set(RATER_KINDS)
    if unknown:
        raise FormatError(
            f"include_kinds must name kinds among {list(RATER_KINDS)!r}; got {sorted(unknown)!r}."
        )
    return chosen


def _filter_kinds(
    judgments: list[Judgment], kinds: dict[str, str], include: set[str] | None, parts: list[Part]
) -> list[Judgment]:
    if include is None:
        return judgments
    out = []
    for j in judgments:
        kind = kinds.get(j.rater, "human")
        if kind in include:
            out.append(j)
        else:
            parts[j.part].dropped[f"rater kind {kind!r} not included"] += 1
    return out


def _drop_missing(
    judgments: list[Judgment], extra: Sequence[Any], parts: list[Part]
) -> list[Judgment]:
    markers = {"", *(m for m in extra if isinstance(m, (str, int, float)))}
    out = []
    for j in judgments:
        x = j.value
        if isinstance(x, Skip):
            parts[j.part].dropped[x.reason] += 1
            continue
        gone = (
            x is None
            or (isinstance(x, float) and x != x)
            or (isinstance(x, (str, int, float)) and not isinstance(x, bool) and x in markers)
        )
        if gone:
            parts[j.part].dropped["missing value"] += 1
        elif isinstance(x, float) and math.isinf(x):  # 1e999 in JSON: never a category
            raise FormatError(f"{parts[j.part].source}: rater {j.rater!r} gave unit {j.unit!r} "
                              f"the value {x!r}, not a finite number; expected a label.")
        else:
            out.append(j)
    return out


def _latest(judgments: list[Judgment], parts: list[Part]) -> tuple[list[Judgment], list[str]]:
    """Keep the latest answer per (unit, rater); name the conflicting repeats."""
    groups: dict[tuple[str, str], list[Judgment]] = defaultdict(list)
    for j in judgments:
        groups[(j.unit, j.rater)].append(j)
    kept: list[Judgment] = []
    conflicts: list[str] = []
    for (unit, rater), group in groups.items():
        if len(group) == 1:
            kept.append(group[0])
            continue
        group.sort(key=_time_key)
        kept.append(group[-1])
        for old in group[:-1]:
            parts[old.part].dropped[SUPERSEDED] += 1
        if len({repr(g.value) for g in group}) > 1:
            conflicts.append(f"unit {unit!r} by rater {rater!r} ({len(group)} answers)")
    kept.sort(key=lambda j: j.order)
    notes = []
    if conflicts:
        notes.append(f"{CAVEAT_MARK}dropped the earlier answers of {len(conflicts)} (unit, "
                     "rater) pair(s) answered differently more than once: the tool's latest "
                     "answer was kept")
        shown = "; ".join(conflicts[:5]) + (
            f"; and {len(conflicts) - 5} more" if len(conflicts) > 5 else ""
        )
        notes.append(
            f"{len(conflicts)} (unit, rater) pair(s) answered differently more than once, "
            f"kept the latest by the tool's timestamp: {shown}"
        )
    return kept, notes


def _time_key(j: Judgment) -> tuple[int, str, float, int]:
    t = j.time
    if t is None:
        return (0, "", 0.0, j.order)
    if isinstance(t, (int, float)):
        return (1, "", float(t), j.order)
    return (2, str(t), 0.0, j.order)


def _span_table(
    col: Collected, fld: str | None, kinds: dict[str, str], include: set[str] | None
) -> SpanTable:
    def ok(rater: str) -> bool:
        return include is None or kinds.get(rater, "human") in include

    chosen = [(s, o) for s, o in zip(col.spans, _origins(col)) if s.field == fld and ok(s.rater)]
    latest: dict[tuple[str, str], tuple[Any, ...]] = {}
    for s, (time, origin) in chosen:
        key = _time_key(Judgment(s.unit, s.rater, fld or "", None, 0, time, 0)) + (origin,)
        if latest.get((s.unit, s.rater), ()) < key:
            latest[(s.unit, s.rater)] = key
    spans = tuple(
        s
        for s, (time, origin) in chosen
        if _time_key(Judgment(s.unit, s.rater, fld or "", None, 0, time, 0)) + (origin,)
        == latest[(s.unit, s.rater)]
    )
    coverage = {(u, r): st for (u, r, f), st in col.coverage.items() if f == fld and ok(r)}
    relations = _relations(col, latest, ok, fld) if col.relations else None
    return SpanTable(spans, coverage, fld or "spans", relations)


def _same_layer(layer: str | None, fld: str | None) -> bool:
    """Whether a relation over spans of ``layer`` belongs beside span field ``fld``."""
    return layer is None or fld is None or fld == layer or fld.startswith(layer + ".")


def _relations(
    col: Collected, latest: dict[tuple[str, str], tuple[Any, ...]], ok: Any, fld: str | None
) -> RelationTable:
    """The relations of the annotations whose spans were kept (the latest per unit and rater)."""
    kept, older = [], 0
    for rel, (time, origin) in col.relations:
        if not ok(rel.rater) or not _same_layer(rel.field, fld):
            continue
        key = _time_key(Judgment(rel.unit, rel.rater, "", None, 0, time, 0)) + (origin,)
        if latest.get((rel.unit, rel.rater), key) == key:
            kept.append(rel)
        else:
            older += 1
    notes = (f"{older} relation(s) of superseded annotations left out with their spans",)
    return RelationTable(tuple(kept), notes if older else ())


def _with_note(a: Audit, note: str) -> Audit:
    return replace(a, notes=(*a.notes, note))


def _origins(col: Collected) -> list[tuple[Any, int]]:
    if len(col.span_origin) == len(col.spans):
        return col.span_origin
    return [(None, 0)] * len(col.spans)


def _build(
    judgments: list[Judgment],
    opts: dict[str, Any],
    source: str,
    raters: list[str],
    kinds: dict[str, str],
    fld: str | None,
    col: Collected,
    dup_notes: list[str],
) -> Annotations:
    n = len(judgments)
    units = np.empty(n, dtype=object)
    units[:] = [j.unit for j in judgments]
    rater_arr = np.empty(n, dtype=object)
    rater_arr[:] = [j.rater for j in judgments]
    values = np.empty(n, dtype=object)
    for i, j in enumerate(judgments):
        values[i] = j.value  # element-wise: a tuple label must not be broadcast
    dropped: Counter[str] = Counter()
    for p in col.parts:
        dropped.update(p.dropped)
    rows = sum(p.rows_read for p in col.parts)
    notes = [*col.notes, *dup_notes]
    ann = build(
        units,
        rater_arr,
        values,
        categories=opts.get("categories"),
        level=opts.get("level"),
        missing=tuple(opts.get("missing", ())),
        duplicates="error",
        source=source,
        rater_order=raters,
        kinds={r: kinds.get(r, "human") for r in raters},
        field=fld,
        dropped=dict(dropped),
        notes=notes,
        rows_read=rows,
    )
    parts = tuple(
        Audit(p.source, p.rows_read, p.used, dict(+p.dropped), tuple(p.notes)) for p in col.parts
    )
    if len(parts) > 1:
        a = ann.audit
        ann.audit = replace(a, parts=parts)
    elif parts:
        a = ann.audit
        ann.audit = replace(a, notes=tuple(parts[0].notes) + a.notes)
    return ann
