"""Building Krippendorff's coincidences: value codes, per-unit count patterns.

The counting helpers of :mod:`accord.tables.coincidence` (Krippendorff 2011,
section C): from a units x raters array or a units x values count matrix to the
distinct per-unit value-count vectors and their multiplicities, in O(n).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError
from accord.inference.resampling import pattern_index

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

_BINCOUNT_KEYS = 50_000_000
_BLOCK_CELLS = 1 << 18


def _numeric_or_none(categories: Sequence[Any]) -> FloatArray | None:
    if any(isinstance(c, (bool, np.bool_)) for c in categories):
        return None
    try:
        out = np.asarray(list(categories), dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return out if out.ndim == 1 else None


def _numeric_2d(data: Any) -> NDArray[np.float64]:
    arr = np.asarray(data)
    if arr.dtype.kind not in "iuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise DataError(
                "CoincidenceMatrix.from_array needs numbers (NaN = not rated); "
                "use from_annotations for labels."
            ) from None
    if arr.ndim != 2:
        raise DataError(f"the data must be a 2-D units x raters table; got shape {arr.shape}.")
    return arr.astype(np.float64, copy=False)


def _small_int_patterns(arr: NDArray[np.float64]) -> tuple[Any, ...] | None:
    """Patterns of whole-number scores whose range fits one base-(r+1) key, or None.

    Each unit's key is ``sum_c n_uc (r + 1)^(value_c - min)``, computed one block of
    rows at a time (cache-sized temporaries, not copies of the whole table).
    """
    n, r = arr.shape
    if n == 0 or np.isnan(arr).all():
        return None
    lo, hi = float(np.nanmin(arr)), float(np.nanmax(arr))
    if not hi - lo <= 1 << 20:  # also rules out infinite values
        return None
    span = int(hi - lo) + 1
    if span * np.log2(r + 1) >= 62:
        return None
    table = np.append((r + 1) ** np.arange(span, dtype=np.int64), 0)  # slot span: missing
    keys = np.empty(n, dtype=np.int64)
    sizes = np.empty(n, dtype=np.int64)
    step = max(1, _BLOCK_CELLS // r)
    for start in range(0, n, step):
        shifted = arr[start : start + step] - lo
        miss = np.isnan(shifted)
        with np.errstate(invalid="ignore"):
            idx = shifted.astype(np.int64)
        if not np.all((idx == shifted) | miss):
            return None
        idx[miss] = span
        keys[start : start + step] = table[idx].sum(axis=1)
        sizes[start : start + step] = r - miss.sum(axis=1)
    uniq, _, inverse, n_per = _unique_keys(keys)
    digits = (uniq[:, None] // table[None, :span]) % (r + 1)
    present = np.flatnonzero(digits.any(axis=0))
    digits = digits[:, present]
    pairable = digits.sum(axis=1) >= 2
    remap = np.cumsum(pairable) - 1
    keep = sizes >= 2
    ptr, codes, mult = _entries_from_counts(digits[pairable])
    values = present.astype(np.float64) + lo
    return (
        values,
        ptr,
        codes,
        mult,
        n_per[pairable],
        remap[inverse[keep]],
        int(np.sum(sizes == 1)),
    )


def _numeric_codes(arr: NDArray[np.float64]) -> tuple[IntArray, FloatArray]:
    """Codes (``-1`` = missing) and the sorted distinct values of a float array."""
    missing = np.isnan(arr)
    if missing.all():
        return np.full(arr.shape, -1, dtype=np.int64), np.zeros(0)
    lo, hi = float(np.nanmin(arr)), float(np.nanmax(arr))
    if hi - lo < 1 << 22:
        # small whole numbers: one look-up table, no sort (the missing slot maps to -1)
        span = int(hi - lo) + 1
        shifted = np.where(missing, hi + 1.0, arr) - lo
        ints = shifted.astype(np.int64)
        if np.array_equal(ints, shifted):
            present = np.bincount(ints.reshape(-1), minlength=span + 1)[:span] > 0
            lut = np.append(np.cumsum(present) - 1, -1)
            return lut[ints], np.flatnonzero(present).astype(np.float64) + lo
    ok = ~missing
    values, inverse = np.unique(arr[ok], return_inverse=True)
    codes = np.full(arr.shape, -1, dtype=np.int64)
    codes[ok] = inverse.reshape(-1)
    return codes, values


def _count_matrix(counts: Any) -> IntArray:
    if hasattr(counts, "to_numpy") and not isinstance(counts, np.ndarray):
        counts = counts.to_numpy()
    try:
        arr = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError("value counts must be numbers (units x values).") from None
    if arr.ndim != 2:
        raise DataError(f"value counts must be a 2-D units x values table; got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or (arr.size and arr.min() < 0) or np.any(arr != np.floor(arr)):
        raise DataError("value counts must be non-negative whole numbers.")
    return arr.astype(np.int64)


def _unique_keys(keys: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Distinct keys, first index, inverse and counts; a bincount when the key range is
    small next to the number of keys (memory stays proportional to the keys)."""
    top = int(keys.max())
    if top < min(_BINCOUNT_KEYS, 4 * keys.shape[0] + _BLOCK_CELLS):
        cnt = np.bincount(keys, minlength=top + 1)
        present = np.flatnonzero(cnt)
        lut = np.full(top + 1, -1, dtype=np.int64)
        lut[present] = np.arange(present.shape[0])
        inverse = lut[keys]
        first = np.full(present.shape[0], keys.shape[0], dtype=np.int64)
        first[inverse[::-1]] = np.arange(keys.shape[0] - 1, -1, -1)
        return present.astype(np.int64), first, inverse, cnt[present].astype(np.int64)
    uniq, first, inverse, cnt = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    return uniq, first.astype(np.int64), inverse.reshape(-1).astype(np.int64), cnt.astype(np.int64)


def _code_patterns(
    codes: IntArray, k: int
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    """CSR entries of the distinct value-count vectors of the rows, counts and inverse."""
    n, r = codes.shape
    if n == 0:
        z = np.zeros(0, dtype=np.int64)
        return np.zeros(1, dtype=np.int64), z, z, z, z
    if k * np.log2(r + 1) < 62:
        # each row's count vector as one base-(r+1) number: no per-row sort
        radix = (r + 1) ** np.arange(k, dtype=np.int64)
        table = np.append(radix, 0)  # code -1 (missing) adds nothing
        keys = table[codes].sum(axis=1)
        uniq, _, inverse, n_per = _unique_keys(keys)
        digits = (uniq[:, None] // radix[None, :]) % (r + 1)
        ptr, ecodes, mult = _entries_from_counts(digits)
        return ptr, ecodes, mult, n_per, inverse
    filled = np.where(codes >= 0, codes, k)
    filled.sort(axis=1)
    # the sorted row in base k + 1, split into 62-bit chunks: one chunk is a 1-D unique,
    # several are one lexsort (np.unique(axis=0) is far slower on many rows)
    per_chunk = max(1, int(62 // np.log2(k + 1)))
    chunks = [
        filled[:, j : j + per_chunk] @ ((k + 1) ** np.arange(min(per_chunk, r - j), dtype=np.int64))
        for j in range(0, r, per_chunk)
    ]
    if len(chunks) == 1:
        _, first, inverse, n_per = _unique_keys(chunks[0])
    else:
        first, inverse, n_per = _group_rows(np.stack(chunks, axis=1))
    ptr, ecodes, mult = _entries_from_sorted(filled[first], k)
    return ptr, ecodes, mult, n_per, inverse


def _group_rows(keys: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """First index, inverse and counts of the distinct rows of an integer key matrix."""
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    new = np.ones(order.shape[0], dtype=bool)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    group = np.cumsum(new) - 1
    inverse = np.empty(order.shape[0], dtype=np.int64)
    inverse[order] = group
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, order.shape[0]))
    return order[starts].astype(np.int64), inverse, counts.astype(np.int64)


def _entries_from_counts(rows: NDArray[np.integer]) -> tuple[IntArray, IntArray, IntArray]:
    p = rows.shape[0]
    which, code = np.nonzero(rows)
    ptr = np.concatenate([[0], np.cumsum(np.bincount(which, minlength=p))]).astype(np.int64)
    return ptr, code.astype(np.int64), rows[which, code].astype(np.int64)


def _entries_from_sorted(rep: IntArray, k: int) -> tuple[IntArray, IntArray, IntArray]:
    """Runs of equal codes in rows sorted ascending (``k`` marks a missing slot)."""
    valid = rep < k
    starts = valid.copy()
    starts[:, 1:] &= rep[:, 1:] != rep[:, :-1]
    which, col = np.nonzero(starts)
    sizes = valid.sum(axis=1)
    nxt = np.empty_like(col)
    nxt[:-1] = col[1:]
    same = np.zeros(col.shape[0], dtype=bool)
    same[:-1] = which[1:] == which[:-1]
    end = np.where(same, nxt, sizes[which])
    ptr = np.concatenate([[0], np.cumsum(np.bincount(which, minlength=rep.shape[0]))])
    return ptr.astype(np.int64), rep[which, col].astype(np.int64), (end - col).astype(np.int64)


def _unique_rows(x: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    if x.shape[0] == 0:
        z = np.zeros(0, dtype=np.int64)
        return x, z, z
    base = int(x.max()) + 1
    if x.shape[1] * np.log2(max(base, 2)) < 62:
        keys = x @ (base ** np.arange(x.shape[1], dtype=np.int64))
        _, first, inverse, n_per = _unique_keys(keys)
        return x[first], n_per, inverse
    rows, n_per, inverse = pattern_index(x)
    return np.asarray(rows, dtype=np.int64), n_per, inverse


def _rated_columns(arr: FloatArray) -> int:
    """Raters (columns) with at least one rating: an all-NaN column is not a rater."""
    if arr.dtype.kind != "f":
        return int(arr.shape[1])
    empty = np.ones(arr.shape[1], dtype=bool)  # no rating seen yet
    for start in range(0, arr.shape[0], 4096):  # row blocks: usually the first settles it
        cols = np.flatnonzero(empty)
        if cols.size == 0:
            break
        seen = ~np.isnan(arr[start : start + 4096][:, cols]).all(axis=0)
        empty[cols[seen]] = False
    return int(arr.shape[1] - np.count_nonzero(empty))


def _sparse_patterns(
    units: IntArray, value_codes: IntArray, n_units: int, k: int
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """Patterns straight from long codes, in O(ratings) memory.

    Each unit's non-zero ``n_uc`` entries (one sort of the ratings), grouped into
    the units' distinct value-count vectors one row length at a time, so no units x
    raters or units x values array is built: the path for many raters and many
    values at once (a crowd with continuous scores).

    Returns ``ptr, codes, mult`` (CSR entries of the patterns), ``n_per`` (units per
    pattern), ``inverse`` (the pattern of each pairable unit, in unit order) and
    ``m`` (values per unit, every unit).
    """
    keys, n_uc = np.unique(units * np.int64(k) + value_codes, return_counts=True)
    eu, ec = keys // k, keys % k
    m = np.bincount(eu, weights=n_uc, minlength=n_units).astype(np.int64)
    pairable = m >= 2
    sel = pairable[eu]
    eu, ec, n_uc = eu[sel], ec[sel], n_uc[sel].astype(np.int64)
    packed = ec * (int(n_uc.max(initial=0)) + 1) + n_uc  # one int per (value, count) entry
    rank = np.cumsum(pairable) - 1  # a pairable unit's position among pairable units
    length = np.bincount(rank[eu], minlength=int(pairable.sum()))
    start = np.concatenate([[0], np.cumsum(length)[:-1]]).astype(np.int64)
    inverse = np.empty(length.shape[0], dtype=np.int64)
    ptrs: list[IntArray] = []
    reps: list[IntArray] = []
    counts: list[IntArray] = []
    offset = 0
    for size in np.unique(length).tolist():
        rows = np.flatnonzero(length == size)
        mat = packed[start[rows][:, None] + np.arange(size)]
        first, inv, n_per = _group_rows(mat)
        inverse[rows] = inv + offset
        offset += first.shape[0]
        reps.append(mat[first].reshape(-1))
        ptrs.append(np.full(first.shape[0], size, dtype=np.int64))
        counts.append(n_per)
    if not reps:
        z = np.zeros(0, dtype=np.int64)
        return np.zeros(1, dtype=np.int64), z, z, z, inverse, m
    rep = np.concatenate(reps)
    base = int(n_uc.max()) + 1
    ptr = np.concatenate([[0], np.cumsum(np.concatenate(ptrs))]).astype(np.int64)
    return ptr, rep // base, rep % base, np.concatenate(counts), inverse, m
