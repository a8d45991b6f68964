"""Relations checked against their spans, and their arguments found across raters.

Every relation names two spans of its own rater, in its own document, by id.
:func:`encode_relations` checks that once (a missing id, an id of another
document, a self-relation, a duplicate: a :class:`~accord.errors.DataError`
each, naming the relation) and turns the relations into arrays of sorted span
positions (:class:`RelArrays`).

:func:`argument_matches` pairs the spans of two raters in one of the four
matching modes (:mod:`accord.spans.matching`): a pair is the same argument when
the mode counts it *correct* (in the partial mode: correct or partial).
:func:`clusters` joins these pairs over every pair of raters into argument
clusters, so that an argument pair means the same thing for three raters or more.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError, InvalidParameterError
from accord.readers.relations import Relation, RelationTable
from accord.spans._inputs import Encoded
from accord.spans._spanset import IntArray, SpanSet
from accord.spans.matching import CORRECT, PARTIAL, Mode, candidates, pairs_of


@dataclass(frozen=True)
class RelArrays:
    """One rater's relations: unit code, head and tail span positions (in the rater's
    sorted :class:`SpanSet`), type code and whether the two arguments may be swapped."""

    unit: IntArray
    head: IntArray
    tail: IntArray
    type: IntArray
    undirected: NDArray[np.bool_]
    ids: tuple[str, ...]

    def __len__(self) -> int:
        return int(self.unit.shape[0])


def relation_rows(
    relations: Any, spans_relations: RelationTable | None, func: str
) -> RelationTable:
    """The relations asked for: a RelationTable, a sequence of Relation, or those read
    beside the spans."""
    if relations is None:
        if spans_relations is None:
            raise DataError(
                f"{func}: no relations: the spans were read without any, and relations= "
                "was not given (a RelationTable or a list of Relation)."
            )
        return spans_relations
    if isinstance(relations, RelationTable):
        return relations
    if isinstance(relations, (list, tuple)) and all(isinstance(r, Relation) for r in relations):
        return RelationTable(tuple(relations))
    raise InvalidParameterError(
        f"The 'relations' parameter of {func} must be a RelationTable or a list of Relation. "
        f"Got {type(relations).__name__} instead."
    )


def encode_relations(
    table: RelationTable, enc: Encoded, symmetric: Collection[str], func: str
) -> tuple[dict[str, RelArrays], tuple[str, ...], tuple[str, ...]]:
    """Each chosen rater's relations as :class:`RelArrays`, the type names, and notes."""
    types = sorted({r.type for r in table})
    codes = {t: i for i, t in enumerate(types)}
    unit_codes = {u: i for i, u in enumerate(enc.units)}
    by_rater: dict[str, list[Relation]] = {r: [] for r in enc.raters}
    other = 0
    for rel in table:
        if rel.rater in by_rater:
            by_rater[rel.rater].append(rel)
        else:
            other += 1
    if other and not set(enc.raters) & {r.rater for r in table}:
        raise DataError(f"{func}: no relation belongs to the raters compared {list(enc.raters)!r}.")
    notes = [f"{other} relation(s) of raters not compared left out"] if other else []
    out = {
        r: _rater_arrays(by_rater[r], enc, r, unit_codes, codes, set(symmetric), func)
        for r in enc.raters
    }
    return out, tuple(types), (*table.notes, *notes)


def _positions(enc: Encoded, rater: str) -> dict[tuple[Any, str], int]:
    """(unit, span id) -> position in the rater's sorted SpanSet (the first span with it)."""
    rows, s = enc.rows[rater], enc.sets[rater]
    origin = (s.origin if s.origin is not None else np.arange(len(s))).tolist()
    spans = [rows[row] for row in origin]
    return {(sp.unit, sp.id): pos for pos, sp in reversed(list(enumerate(spans)))
            if sp.id is not None}  # fmt: skip


def _rater_arrays(
    rels: list[Relation],
    enc: Encoded,
    rater: str,
    unit_codes: dict[Any, int],
    codes: dict[str, int],
    symmetric: set[str],
    func: str,
) -> RelArrays:
    where = _positions(enc, rater)
    head = np.array([where.get((r.unit, r.head), -1) for r in rels], dtype=np.int64)
    tail = np.array([where.get((r.unit, r.tail), -1) for r in rels], dtype=np.int64)
    bad = np.flatnonzero((head < 0) | (tail < 0))
    if bad.shape[0]:
        rel = rels[int(bad[0])]
        raise _missing(rel, rel.head if head[bad[0]] < 0 else rel.tail, where, func)
    same = np.flatnonzero(head == tail)
    if same.shape[0]:
        rel = rels[int(same[0])]
        raise DataError(
            f"{func}: relation {rel.id!r} of {rater!r} in {rel.unit!r} links span "
            f"{rel.head!r} to itself; a relation needs two different spans."
        )
    unit = np.array([unit_codes[r.unit] for r in rels], dtype=np.int64)
    typ = np.array([codes[r.type] for r in rels], dtype=np.int64)
    undirected = np.array([not r.directed or r.type in symmetric for r in rels], dtype=bool)
    lo, hi = np.minimum(head, tail), np.maximum(head, tail)
    a, b = np.where(undirected, lo, head), np.where(undirected, hi, tail)
    _no_duplicates(rels, a, b, typ, func)
    return RelArrays(unit, a, b, typ, undirected, tuple(r.id for r in rels))


def _missing(rel: Relation, sid: str, where: dict[tuple[Any, str], int], func: str) -> DataError:
    elsewhere = sorted({str(u) for u, i in where if i == sid and u != rel.unit})
    if elsewhere:
        return DataError(
            f"{func}: relation {rel.id!r} of {rel.rater!r} in {rel.unit!r} names span {sid!r} "
            f"of document {elsewhere[0]!r}; a relation links two spans of one document."
        )
    return DataError(
        f"{func}: relation {rel.id!r} of {rel.rater!r} in {rel.unit!r} names span {sid!r}, "
        f"which {rel.rater!r} did not mark there (or it carries no id)."
    )


def _no_duplicates(
    rels: Sequence[Relation], head: IntArray, tail: IntArray, typ: IntArray, func: str
) -> None:
    if not rels:
        return
    key = np.stack([head, tail, typ], axis=1)
    _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
    if (counts > 1).any():
        dup = key[first[np.flatnonzero(counts > 1)[0]]]
        same = [r for r, h, t, y in zip(rels, head, tail, typ) if (h, t, y) == tuple(dup)]
        a, b = same[0], same[1]
        raise DataError(
            f"{func}: relations {a.id!r} and {b.id!r} of {a.rater!r} in {a.unit!r} are the same "
            f"relation ({a.type!r} from {a.head!r} to {a.tail!r}); keep one of them."
        )


def argument_matches(enc: Encoded, a: str, b: str, mode: Mode) -> tuple[IntArray, IntArray]:
    """Positions ``(pa, pb)`` of the spans of ``a`` and ``b`` that are the same argument, in
    the units both annotated."""
    both = enc.annotated[a] & enc.annotated[b]
    sa, wa = _within(enc.sets[a], both)
    sb, wb = _within(enc.sets[b], both)
    p = pairs_of(sa, sb, candidates(sa, sb), mode)
    ok = (p.kind == CORRECT) | ((p.kind == PARTIAL) if mode == "partial" else False)
    return wa[p.pa[ok]], wb[p.pb[ok]]


def _within(s: SpanSet, units: NDArray[np.bool_]) -> tuple[SpanSet, IntArray]:
    keep = units[s.unit]
    return s.subset(keep), np.flatnonzero(keep).astype(np.int64)


def clusters(
    enc: Encoded, matches: dict[tuple[str, str], tuple[IntArray, IntArray]]
) -> dict[str, IntArray]:
    """An argument cluster for every span of every rater: spans joined by some match."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    offset, start = {}, 0
    for r in enc.raters:
        offset[r] = start
        start += len(enc.sets[r])
    rows = [offset[a] + pa for (a, _), (pa, _) in matches.items()]
    cols = [offset[b] + pb for (_, b), (_, pb) in matches.items()]
    i = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    j = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
    graph = coo_matrix((np.ones(i.shape[0]), (i, j)), shape=(start, start))
    _, label = connected_components(graph, directed=False)
    return {r: label[offset[r]: offset[r] + len(enc.sets[r])].astype(np.int64) for r in enc.raters}
