"""Repeated (unit, rater) pairs: found in O(n) or by sorts of small blocks, then
collapsed (identical), refused (different, ``duplicates="error"``) or resolved to the
last rating (``duplicates="last"``), with the counts for the audit or the error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _encoding as enc
from accord.errors import DuplicateRatingError

if TYPE_CHECKING:
    from accord.data.audit import Duplicates


def resolve_duplicates(
    u: NDArray[np.int64],
    r: NDArray[np.int64],
    c: NDArray[np.int64],
    n_raters: int,
    mode: Duplicates,
    unit_labels: list[Any],
    rater_labels: list[Any],
    cats: list[Any],
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], list[str], int]:
    """Collapse identical repeats; refuse, or keep the last of, different ones.

    Returns the kept codes, audit notes and how many ratings a later different
    rating replaced. Only the rows of repeated (unit, rater) pairs are sorted.
    """
    n = u.shape[0]
    if n == 0:
        return u, r, c, [], 0
    width = max(n_raters, 1)
    rows = repeated_rows(u, r, width)
    if rows is None:
        return u, r, c, [], 0
    key = u[rows] * width + r[rows]
    order = np.argsort(key, kind="stable")
    ks, cs = key[order], c[rows][order]
    same_as_next = ks[1:] == ks[:-1]
    conflict = same_as_next & (cs[1:] != cs[:-1])
    notes: list[str] = []
    if conflict.any() and mode == "error":
        raise _duplicate_error(ks, cs, conflict, width, unit_labels, rater_labels, cats, n)
    last = np.ones(ks.shape[0], dtype=bool)
    last[:-1] = ~same_as_next
    kept_code = cs[np.searchsorted(ks, ks, side="right") - 1]  # the last value of each pair
    n_replaced = int((~last & (cs != kept_code)).sum())
    n_exact = int((~last).sum()) - n_replaced
    if n_exact:
        notes.append(f"{n_exact} identical repeated rating(s) collapsed")
    if n_replaced:
        n_conflict = int(np.unique(ks[1:][conflict]).shape[0])
        notes.append(
            f"{n_conflict} (unit, rater) pair(s) rated differently more than once: "
            f"kept the last value, dropped {n_replaced} earlier rating(s)"
        )
    keep = np.ones(n, dtype=bool)
    keep[rows[order[~last]]] = False
    return u[keep], r[keep], c[keep], notes, n_replaced


def repeated_rows(
    u: NDArray[np.integer[Any]], r: NDArray[np.integer[Any]], width: int
) -> NDArray[np.intp] | None:
    """The rows whose (unit, rater) pair occurs more than once, in row order; None when
    every pair is distinct (units and raters are codes, raters below ``width``).

    With at most 8 possible pairs per rating, one flag per pair proves in O(n) that
    none repeats. Rows grouped by unit (sorted unit codes) are checked in blocks of
    whole units, each block's pair keys sorted on their own (small arrays, reused).
    Otherwise all keys are sorted in place (no copy while nothing repeats).
    """
    n = u.shape[0]
    cells = (int(u.max()) + 1) * width
    if cells <= 8 * n + 1024:
        key = u * width + r
        seen = np.zeros(cells, dtype=bool)
        seen[key] = True
        if np.count_nonzero(seen) == n:
            return None
        del seen
        return _rows_of_repeats(key, np.sort(key))
    if enc.non_decreasing(u):
        return _repeats_by_unit_blocks(u, r, width)
    ordered = u * width
    ordered += r
    ordered.sort()
    if not bool((ordered[1:] == ordered[:-1]).any()):
        return None
    return _rows_of_repeats(u * width + r, ordered)


def _rows_of_repeats(key: NDArray[Any], ordered: NDArray[Any]) -> NDArray[np.intp] | None:
    """The positions of the keys that occur more than once (``ordered``: ``key`` sorted)."""
    twice = ordered[1:] == ordered[:-1]
    if not bool(twice.any()):
        return None
    return np.flatnonzero(np.isin(key, np.unique(ordered[1:][twice])))


def _repeats_by_unit_blocks(
    u: NDArray[np.integer[Any]], r: NDArray[np.integer[Any]], width: int
) -> NDArray[np.intp] | None:
    """:func:`repeated_rows` for sorted unit codes: about ``enc.BLOCK`` rows at a time,
    cut where a unit starts, so that a pair can only repeat inside a block."""
    n, start = u.shape[0], 0
    found = []
    while start < n:
        stop = min(n, start + enc.BLOCK)
        if stop < n:  # end the block where a unit starts; one unit may span more rows
            stop = int(np.searchsorted(u, u[stop], side="left"))
            if stop <= start:
                stop = int(np.searchsorted(u, u[start], side="right"))
        key = u[start:stop] * width
        key += r[start:stop]
        rows = _rows_of_repeats(key, np.sort(key))
        if rows is not None:
            found.append(rows + start)
        start = stop
    return np.concatenate(found) if found else None


def _duplicate_error(
    ks: NDArray[np.int64],
    cs: NDArray[np.int64],
    conflict: NDArray[np.bool_],
    width: int,
    unit_labels: list[Any],
    rater_labels: list[Any],
    cats: list[Any],
    n_rows: int,
) -> DuplicateRatingError:
    """Name the first pairs rated differently twice, and the route that fits the data.

    ``ks`` and ``cs`` are the sorted keys and codes of the rows of repeated pairs, out
    of ``n_rows`` ratings (every other row is a pair of its own)."""
    from accord.data._shapes import duplicate_advice

    pairs = sorted({int(k) for k in ks[1:][conflict]})
    shown = ", ".join(
        f"unit {unit_labels[k // width]!r} by rater {rater_labels[k % width]!r}"
        for k in pairs[:3]
    )
    more = f" and {len(pairs) - 3} more" if len(pairs) > 3 else ""
    advice = duplicate_advice(labels=cats, n_clashes=len(pairs),
                              n_pairs=n_rows - ks.shape[0] + int(np.unique(ks).shape[0]),
                              max_labels=max_labels_per_pair(ks, cs))
    return DuplicateRatingError(
        f"{len(pairs)} unit(s) were rated twice by the same rater with different values "
        f"({shown}{more}); {advice}"
    )


def max_labels_per_pair(keys: NDArray[np.int64], codes: NDArray[np.int64]) -> int:
    """The most distinct codes any one key holds."""
    if keys.shape[0] == 0:
        return 0
    pairs = np.unique(np.stack([keys, codes], axis=1), axis=0)
    return int(np.unique(pairs[:, 0], return_counts=True)[1].max())
