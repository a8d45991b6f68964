"""Spans as columns: the integer arrays the matching sweeps over.

One :class:`SpanSet` holds the spans of one rater (or system) over all units:
unit code, start, end (end exclusive), label code, and the fragments of the
discontinuous ones. Building it is the only place that looks at every span as
a Python object; everything after it is numpy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError

IntArray = NDArray[np.int64]
Fragments = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class SpanSet:
    """The spans of one rater as arrays, sorted by (unit, start, end, label).

    ``fragments`` maps a span's position to its pieces when it has more than one;
    ``origin`` gives each span's row in the input it was built from.
    """

    unit: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    fragments: dict[int, Fragments] = field(default_factory=dict)
    origin: IntArray | None = None

    def __len__(self) -> int:
        return int(self.unit.shape[0])

    def subset(self, keep: NDArray[np.bool_]) -> SpanSet:
        """The spans where ``keep`` is true, in the same order."""
        where = np.flatnonzero(keep)
        new_pos = {int(old): i for i, old in enumerate(where)}
        frags = {new_pos[i]: f for i, f in self.fragments.items() if i in new_pos}
        origin = None if self.origin is None else self.origin[where]
        return SpanSet(
            self.unit[where], self.start[where], self.end[where], self.label[where], frags, origin
        )


def build(
    rows: Iterable[tuple[int, int, int, str, Fragments | None]],
    labels: dict[str, int],
    *,
    who: str,
) -> SpanSet:
    """A sorted :class:`SpanSet` from ``(unit code, start, end, label, fragments)`` rows.

    Labels get codes in ``labels`` (extended in place). A span must satisfy
    ``0 <= start < end``; fragments must be ordered and must not overlap.
    """
    rows = list(rows)
    units = [r[0] for r in rows]
    codes = [labels.setdefault(str(r[3]), len(labels)) for r in rows]
    frags = {i: r[4] for i, r in enumerate(rows) if r[4] is not None and len(r[4]) > 1}
    return from_columns(units, [r[1] for r in rows], [r[2] for r in rows], codes, frags, who=who)


def from_columns(
    units: Sequence[int],
    starts: Sequence[Any],
    ends: Sequence[Any],
    codes: Sequence[int],
    frags: dict[int, Fragments],
    *,
    who: str,
) -> SpanSet:
    """A sorted :class:`SpanSet` from columns; ``frags`` maps a row to its fragments."""
    s, e = _offsets(starts, who, "start"), _offsets(ends, who, "end")
    for i, fr in list(frags.items()):
        frags[i] = _fragments(fr, who)
        if (s[i], e[i]) != (frags[i][0][0], frags[i][-1][1]):
            raise DataError(
                f"{who}: a discontinuous span starts where its first fragment starts and ends "
                f"where its last ends; got start={int(s[i])}, end={int(e[i])} with fragments "
                f"{list(frags[i])!r}."
            )
    bad = np.flatnonzero(e <= s)
    if bad.shape[0]:
        k = int(bad[0])
        raise DataError(
            f"{who}: a span needs end > start (end exclusive); got start={int(s[k])}, "
            f"end={int(e[k])}."
        )
    u = np.asarray(units, dtype=np.int64)
    lab = np.asarray(codes, dtype=np.int64)
    order = np.lexsort((lab, e, s, u))
    if frags:
        inverse = np.empty_like(order)
        inverse[order] = np.arange(order.shape[0])
        frags = {int(inverse[i]): f for i, f in frags.items()}
    return SpanSet(u[order], s[order], e[order], lab[order], frags, order.astype(np.int64))


def _offsets(values: Sequence[Any], who: str, what: str) -> IntArray:
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    arr = np.asarray(values)
    if arr.dtype.kind not in "iu" or int(arr.min()) < 0 or int(arr.max()) > MAX_OFFSET:
        for x in values:
            _offset(x, who, what)
    return arr.astype(np.int64)


#: The largest offset read: beyond any text, and far from where 64-bit integers wrap.
MAX_OFFSET = 2**53


def _offset(x: Any, who: str, what: str) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or x < 0:
        raise DataError(f"{who}: span offsets must be non-negative integers; got {what}={x!r}.")
    if x > MAX_OFFSET:
        raise DataError(f"{who}: span offsets must be at most 2**53 (no text is longer); got "
                        f"{what}={int(x)}.")
    return int(x)


def _fragments(fr: Sequence[tuple[int, int]], who: str) -> Fragments:
    out = tuple((_offset(a, who, "start"), _offset(b, who, "end")) for a, b in fr)
    for (a, b), nxt in zip(out, [*out[1:], None]):
        if b <= a or (nxt is not None and nxt[0] < b):
            raise DataError(
                f"{who}: the fragments of a discontinuous span must be non-empty, in order "
                f"and not overlap; got {list(out)!r}."
            )
    return out


def shapes_equal(a: SpanSet, ia: IntArray, b: SpanSet, ib: IntArray) -> NDArray[np.bool_]:
    """Whether span ``a[ia[k]]`` and ``b[ib[k]]`` have the same fragment set, for each k."""
    same = (a.start[ia] == b.start[ib]) & (a.end[ia] == b.end[ib])
    if a.fragments or b.fragments:
        for k in np.flatnonzero(same):
            fa = a.fragments.get(int(ia[k]), ((int(a.start[ia[k]]), int(a.end[ia[k]])),))
            fb = b.fragments.get(int(ib[k]), ((int(b.start[ib[k]]), int(b.end[ib[k]])),))
            same[k] = fa == fb
    return same


def fragment_overlap(fa: Fragments, fb: Fragments) -> int:
    """Characters the two fragment sets share."""
    return sum(max(0, min(b1, b2) - max(a1, a2)) for a1, b1 in fa for a2, b2 in fb)
