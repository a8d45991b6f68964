"""From what users pass (lists per unit, a SpanTable, Annotations) to encoded span arrays.

Coverage: a rater who annotated a unit and marked nothing there takes part in
the comparison of that unit (the other side's spans there are misses); a unit
a rater skipped or never saw is left out of every comparison with that rater,
and counted. Spans themselves imply coverage: a rater with a span in a unit
annotated it. A table that records no coverage at all (built by hand) is taken
to have every rater annotate every unit, and says so in its notes.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError, InvalidParameterError
from accord.readers.spans import SpanTable
from accord.spans._spanset import Fragments, SpanSet, build, from_columns

Row = tuple[int, int, int, str, Fragments | None]


@dataclass(frozen=True)
class Encoded:
    """Every rater's spans as a :class:`SpanSet` over shared unit and label codes."""

    units: tuple[Any, ...]
    labels: tuple[str, ...]
    raters: tuple[str, ...]
    sets: dict[str, SpanSet]
    annotated: dict[str, NDArray[np.bool_]]
    skipped: dict[str, NDArray[np.bool_]]
    notes: tuple[str, ...]
    rows: dict[str, list[Any]] = field(default_factory=dict)


def table_of(data: Any, func: str, param: str) -> SpanTable:
    """The SpanTable of a SpanTable or of Annotations with spans."""
    if isinstance(data, SpanTable):
        return data
    spans = getattr(data, "spans", None)
    if isinstance(spans, SpanTable):
        return spans
    if hasattr(data, "raters") and hasattr(data, "audit"):
        raise DataError(
            f"{func}: the {param} hold no spans; span agreement needs spans read from a span "
            "export (brat, INCEpTION, Label Studio, doccano, ...) or a span table read with "
            "start= and end= columns."
        )
    raise InvalidParameterError(
        f"The '{param}' parameter of {func} must be a list with one list of (start, end, label) "
        f"per unit, a SpanTable or Annotations with spans. Got {type(data).__name__} instead."
    )


def encode_table(
    table: SpanTable,
    raters: Sequence[str] | None,
    labels: Sequence[str] | None,
    func: str,
    rename: dict[str, str] | None = None,
) -> Encoded:
    """Encode the spans of ``raters`` (default: all) in ``table``, column by column."""
    chosen = _raters(table, raters, func)
    wanted = set(chosen)
    rows = [s for s in table.spans if s.rater in wanted]
    units: dict[Any, int] = {}
    for s in rows:  # a unit where a chosen rater marked a span gets a code, kept label or not
        units.setdefault(s.unit, len(units))
    for unit, _ in table.coverage:
        units.setdefault(unit, len(units))
    keep_labels = None if labels is None else {str(x) for x in labels}
    notes = []
    if keep_labels is not None:
        kept = [s for s in rows if s.label in keep_labels]
        if len(kept) < len(rows):
            notes.append(f"{len(rows) - len(kept)} span(s) with a label outside labels= left out")
        rows = kept
    return _finish(table, chosen, units, rows, notes, keep_labels, rename or {})


def _raters(table: SpanTable, raters: Sequence[str] | None, func: str) -> list[str]:
    present = list(table.raters)
    if raters is None:
        return present
    chosen = [str(r) for r in raters]
    unknown = [r for r in chosen if r not in present]
    if unknown:
        raise InvalidParameterError(
            f"The 'raters' parameter of {func} names {unknown!r}, which marked no span and "
            f"covered no unit; the raters are {present!r}."
        )
    return chosen


def _finish(
    table: SpanTable,
    chosen: list[str],
    units: dict[Any, int],
    rows: list[Any],
    notes: list[str],
    keep_labels: set[str] | None,
    rename: dict[str, str],
) -> Encoded:
    n = len(units)
    codes: dict[str, int] = {lab: i for i, lab in enumerate(sorted(keep_labels or ()))}
    for lab in sorted({s.label for s in rows}):
        codes.setdefault(lab, len(codes))
    by_rater: dict[str, list[Any]] = {r: [] for r in chosen}
    for s in rows:
        by_rater[s.rater].append(s)
    sets, annotated, skipped = {}, {}, {}
    for r in chosen:
        name = rename.get(r, r)
        sets[name] = _columns(by_rater[r], units, codes, r)
        annotated[name] = np.zeros(n, dtype=bool)
        skipped[name] = np.zeros(n, dtype=bool)
        annotated[name][sets[name].unit] = True
    if not table.coverage:
        notes.append("no coverage recorded: every rater taken to have annotated every unit")
        for name in annotated:
            annotated[name][:] = True
    for (unit, rater), status in table.coverage.items():
        name = rename.get(rater, rater)
        if name in annotated and unit in units:
            target = annotated if status == "annotated" else skipped
            target[name][units[unit]] = True
    for name in annotated:
        skipped[name] &= ~annotated[name]
    names = tuple(rename.get(r, r) for r in chosen)
    spans = {rename.get(r, r): by_rater[r] for r in chosen}
    return Encoded(
        tuple(units), tuple(codes), names, sets, annotated, skipped, tuple(notes), spans
    )


def _columns(spans: list[Any], units: dict[Any, int], codes: dict[str, int], rater: str) -> SpanSet:
    frags = {i: s.fragments for i, s in enumerate(spans) if len(s.fragments) > 1}
    return from_columns(
        [units[s.unit] for s in spans],
        [s.start for s in spans],
        [s.end for s in spans],
        [codes[s.label] for s in spans],
        frags,
        who=f"rater {rater!r}",
    )


def encode_lists(
    reference: Sequence[Sequence[Any]], predicted: Sequence[Sequence[Any]], func: str
) -> Encoded:
    """Encode two lists with one list of ``(start, end, label)`` per unit."""
    if len(reference) != len(predicted):
        raise DataError(
            f"{func}: reference and predicted must have one list per unit each; got "
            f"{len(reference)} and {len(predicted)} units."
        )
    codes: dict[str, int] = {}
    sets = {
        "reference": build(_rows(reference, func, "reference"), codes, who="reference"),
        "predicted": build(_rows(predicted, func, "predicted"), codes, who="predicted"),
    }
    n = len(reference)
    sets = _recode_sorted(sets, codes)
    full = {k: np.ones(n, dtype=bool) for k in sets}
    none = {k: np.zeros(n, dtype=bool) for k in sets}
    labels = tuple(sorted(codes))
    return Encoded(tuple(range(n)), labels, ("reference", "predicted"), sets, full, none, ())


def _recode_sorted(sets: dict[str, SpanSet], codes: dict[str, int]) -> dict[str, SpanSet]:
    """Label codes in sorted label order (codes were given in order of first sight)."""
    ranks = np.zeros(len(codes), dtype=np.int64)
    for rank, lab in enumerate(sorted(codes)):
        ranks[codes[lab]] = rank
    return {
        k: SpanSet(s.unit, s.start, s.end, ranks[s.label], s.fragments, s.origin)
        for k, s in sets.items()
    }


def _rows(units: Sequence[Sequence[Any]], func: str, side: str) -> list[Row]:
    rows: list[Row] = []
    for u, spans in enumerate(units):
        if isinstance(spans, (str, bytes)):
            raise _shape_error(func, side, spans)
        for sp in spans:
            if not isinstance(sp, (tuple, list)) or len(sp) not in (3, 4):
                raise _shape_error(func, side, sp)
            if sp[2] is None or (isinstance(sp[2], str) and not sp[2].strip()):
                raise DataError(f"{func}: every span needs a label; {side} has {sp!r}.")
            frags = _pieces(sp[3], func, side) if len(sp) == 4 else None
            rows.append((u, sp[0], sp[1], str(sp[2]), frags))
    return rows


def _pieces(frags: Any, func: str, side: str) -> tuple[tuple[Any, ...], ...]:
    """The 4th item of a span: a sequence of (start, end) pairs."""
    ok = isinstance(frags, (tuple, list)) and all(
        isinstance(f, (tuple, list)) and len(f) == 2 for f in frags)
    if not ok:
        raise _shape_error(func, side, frags)
    return tuple(tuple(f) for f in frags)


def _shape_error(func: str, side: str, got: Any) -> InvalidParameterError:
    return InvalidParameterError(
        f"The '{side}' parameter of {func} must hold one list per unit of (start, end, label) "
        f"tuples (optionally with a 4th item, the fragments). Got {got!r} instead."
    )


def case_notes(labels: Sequence[str]) -> tuple[str, ...]:
    """A note for each group of labels that differ only in case (they stay distinct)."""
    groups: dict[str, list[str]] = {}
    for lab in labels:
        groups.setdefault(lab.casefold(), []).append(lab)
    return tuple(
        f"labels {sorted(g)!r} differ only in case; they are compared as different labels"
        for g in groups.values()
        if len(g) > 1
    )


_CACHE: dict[int, tuple[Any, tuple[Any, ...], Encoded]] = {}


def encode_cached(
    table: SpanTable, raters: Sequence[str] | None, labels: Sequence[str] | None, func: str
) -> Encoded:
    """:func:`encode_table`, kept for the table's lifetime (a weak reference): asking for
    several modes or figures of one table encodes its spans once."""
    key = (None if raters is None else tuple(raters), None if labels is None else tuple(labels))
    hit = _CACHE.get(id(table))
    if hit is not None and hit[0]() is table and hit[1] == key:
        return hit[2]
    enc = encode_table(table, raters, labels, func)
    if len(_CACHE) >= 4:
        _CACHE.clear()
    _CACHE[id(table)] = (weakref.ref(table), key, enc)
    return enc
