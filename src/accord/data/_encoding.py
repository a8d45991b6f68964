"""Turning user columns into integer codes without silent coercion.

A Python list is never handed to ``np.asarray`` as is: ``np.asarray([1, "a"])``
would quietly turn the 1 into the string "1". Lists are inspected element by
element and kept as objects unless every element is an int or every element a
number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError

DEFAULT_MISSING: tuple[str, ...] = ("",)


def to_array(values: Any, *, name: str) -> NDArray[Any]:
    """A 1-D numpy array of ``values`` (list, tuple, numpy, pandas/polars/pyarrow)."""
    if isinstance(values, np.ndarray):
        arr = values
    elif hasattr(values, "to_numpy"):
        try:
            arr = np.asarray(values.to_numpy(zero_copy_only=False))
        except TypeError:
            arr = np.asarray(values.to_numpy())
    elif isinstance(values, (str, bytes, Mapping, set, frozenset)) or not isinstance(
        values, Iterable
    ):
        # a mapping would give its keys and a set an arbitrary order: never one label per unit
        raise DataError(f"{name} must be a sequence of labels; got {type(values).__name__}.")
    else:
        arr = _from_list(list(values))
    if arr.ndim != 1:
        raise DataError(f"{name} must be one-dimensional; got an array of shape {arr.shape}.")
    return arr


def _from_list(items: list[Any]) -> NDArray[Any]:
    if items and all(type(x) is int or isinstance(x, np.integer) for x in items):
        try:
            return np.asarray(items, dtype=np.int64)
        except OverflowError:
            pass
    # Floats (with None as NaN) become a float array; ints mixed with floats stay objects,
    # so a label 1 is not shown back as 1.0.
    if items and all(isinstance(x, (float, np.floating)) or x is None for x in items):
        return np.asarray([math.nan if x is None else x for x in items], dtype=np.float64)
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def missing_mask(arr: NDArray[Any], markers: Sequence[Any] = DEFAULT_MISSING) -> NDArray[np.bool_]:
    """True where a value is missing: None, NaN, or one of ``markers`` (default: "")."""
    numeric_markers = [
        float(m) for m in markers
        if isinstance(m, (int, float, np.integer, np.floating)) and not isinstance(m, bool)
    ]
    if arr.dtype.kind in "iu":
        # a numeric marker such as -9 or 999 is common in integer-coded data
        return np.isin(arr, numeric_markers) if numeric_markers else np.zeros(arr.shape[0], bool)
    if arr.dtype.kind == "b":
        return np.zeros(arr.shape[0], dtype=bool)
    if arr.dtype.kind in "fc":
        mask = np.isnan(arr)
        return mask | np.isin(arr, numeric_markers) if numeric_markers else mask
    if arr.dtype.kind in "US":
        return np.isin(arr, [str(m) for m in markers])
    marker_set = set()
    for m in markers:
        try:
            marker_set.add(m)
        except TypeError:
            continue
    out = np.empty(arr.shape[0], dtype=bool)
    for i, x in enumerate(arr):
        out[i] = x is None or (isinstance(x, float) and x != x) or _in(x, marker_set)
    return out


def _in(x: Any, markers: set[Any]) -> bool:
    try:
        return x in markers
    except TypeError:
        return False


def check_hashable(arr: NDArray[Any], *, name: str) -> None:
    """Raise a DataError naming the first unhashable label (lists, dicts, sets)."""
    if arr.dtype != object:
        return
    for i, x in enumerate(arr):
        try:
            hash(x)
        except TypeError:
            raise DataError(
                f"found an unhashable label {x!r} in {name} at position {i}; labels must be "
                "strings, numbers or tuples (use a tuple for a multi-label value)."
            ) from None


def one_letter_labels(labels: Any) -> Any:
    """A published table's categories may be given as a string of one-letter labels
    (``"ab"``); the table's size check then catches a word given by mistake."""
    return list(labels) if isinstance(labels, str) else labels


def label_list(labels: Any, *, param: str, distinct: bool = True) -> list[Any]:
    """A user's list of labels (``categories``, ``raters``, ``missing``) as a list.

    A string is refused rather than read as its characters, and so is anything that
    is not a collection (a number, None); the labels must be hashable and, with
    ``distinct``, appear once each.
    """
    if isinstance(labels, (str, bytes, Mapping)) or not isinstance(labels, Iterable):
        raise DataError(
            f"{param} must be a list of labels, e.g. ['a', 'b']; got {labels!r:.80}."
        )
    out = list(labels)
    seen: set[Any] = set()
    for x in out:
        try:
            hash(x)
        except TypeError:
            raise DataError(
                f"{param} must hold hashable labels (strings, numbers, tuples); got {x!r}."
            ) from None
        if distinct and x in seen:
            raise DataError(f"{param} must be distinct; {x!r} appears more than once.")
        seen.add(x)
    return out


#: Non-negative integers below this bound (or below the number of values) are coded
#: through a table of the values present: O(n + bound), no sort.
SMALL_INT = 1 << 22
#: Rows per block where a long column is worked through block by block.
BLOCK = 1 << 20


def factorize(
    arr: NDArray[Any], *, order: str = "sorted", copy: bool = True
) -> tuple[NDArray[np.int64], list[Any]]:
    """Integer codes and the distinct values; ``order`` is ``"sorted"`` or ``"appearance"``.

    ``copy=False``: ``arr`` is the caller's own, so codes that are ``arr`` itself
    (integers already numbered 0..k-1 in that order) are returned without a copy.
    """
    if arr.shape[0] == 0:
        return np.zeros(0, dtype=np.int64), []
    if arr.dtype.kind in "iu":
        fast = small_int_codes(arr, appearance=order == "appearance", copy=copy)
        if fast is not None:
            return fast[0], fast[1].tolist()  # Python ints, built in C
    try:
        uniques_arr, inverse = np.unique(arr, return_inverse=True)
        codes = inverse.reshape(-1).astype(np.int64)
        uniques = [_py(x) for x in uniques_arr]
    except TypeError:
        codes, uniques = _factorize_mixed(arr)
    return (codes, uniques) if order == "sorted" else _reorder(codes, uniques)


def small_int_codes(
    arr: NDArray[Any], *, appearance: bool = False, copy: bool = True, bound: int = SMALL_INT,
    overwrite: bool = False,
) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """Codes of non-negative integers below ``max(bound, len(arr))`` in O(n), and the
    distinct values (sorted, or in order of first appearance); None outside that range.

    A table of the values present numbers them (no sort); when the values are already
    their own codes the table is not applied, and with ``copy=False`` ``arr`` itself is
    returned (an int64 array), else a copy, so the codes never alias the caller's data.
    ``overwrite=True``: the caller needs ``arr`` no more, so a writable int64 ``arr``
    is turned into the codes in place, block by block (no second array of n codes).
    """
    n = arr.shape[0]
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= max(bound, n):
        return None
    ids = arr.astype(np.intp, copy=False)  # in range: exact, and an index for bincount
    distinct = np.flatnonzero(np.bincount(ids, minlength=hi + 1))
    if appearance:
        distinct = _in_order_seen(ids, distinct, hi + 1)
    k = distinct.shape[0]
    if k == hi + 1 and bool((distinct == np.arange(k)).all()):
        return arr.astype(np.int64, copy=copy), distinct
    lut = np.empty(hi + 1, dtype=np.int64)
    lut[distinct] = np.arange(k)
    if overwrite and arr.dtype == np.int64 and arr.flags.writeable:
        for start in range(0, n, BLOCK):
            arr[start:start + BLOCK] = lut[arr[start:start + BLOCK]]
        return arr, distinct
    return lut[ids], distinct


def _in_order_seen(ids: NDArray[np.intp], distinct: NDArray[Any], size: int) -> NDArray[Any]:
    """``distinct`` (the values of ``ids``, each below ``size``) in order of first appearance.

    Sorted ``ids`` show them in sorted order. Otherwise the first position of each
    value is found over growing prefixes, stopping once every value has been seen (a
    rater column usually shows all its raters early), so at most one O(n) pass.
    """
    n, k = ids.shape[0], distinct.shape[0]
    if k < 2 or non_decreasing(ids):
        return distinct
    first = np.full(size, n, dtype=np.int64)
    start, step = 0, 1 << 16
    while start < n:
        stop = min(n, start + step)
        np.minimum.at(first, ids[start:stop], np.arange(start, stop))
        start, step = stop, 2 * step
        if np.count_nonzero(first < n) == k:
            break
    return distinct[np.argsort(first[distinct], kind="stable")]


def non_decreasing(arr: NDArray[Any]) -> bool:
    """Whether ``arr`` never decreases (a column grouped by sorted ids)."""
    head = arr[:4096]  # unsorted data usually shows it at once
    if not bool((head[1:] >= head[:-1]).all()):
        return False
    return bool((arr[1:] >= arr[:-1]).all())


def _factorize_mixed(arr: NDArray[Any]) -> tuple[NDArray[np.int64], list[Any]]:
    seen: dict[Any, int] = {}
    codes = np.empty(arr.shape[0], dtype=np.int64)
    for i, x in enumerate(arr):
        codes[i] = seen.setdefault(x, len(seen))
    uniques = list(seen)
    try:
        order = sorted(range(len(uniques)), key=lambda j: uniques[j])
    except TypeError:
        order = sorted(
            range(len(uniques)), key=lambda j: (type(uniques[j]).__name__, str(uniques[j]))
        )
    remap = np.empty(len(uniques), dtype=np.int64)
    remap[order] = np.arange(len(uniques))
    return remap[codes], [uniques[j] for j in order]


def _reorder(codes: NDArray[np.int64], uniques: list[Any]) -> tuple[NDArray[np.int64], list[Any]]:
    k = len(uniques)
    order = _in_order_seen(codes.astype(np.intp, copy=False), np.arange(k), k)
    if bool((order == np.arange(k)).all()):
        return codes, uniques  # first seen is sorted (e.g. a file grouped by unit)
    remap = np.empty(k, dtype=np.int64)
    remap[order] = np.arange(k)
    return remap[codes], [uniques[j] for j in order.tolist()]  # list indices: no numpy scalars


def _py(x: Any) -> Any:
    """Numpy scalars back to Python scalars, so labels print and serialise plainly."""
    return x.item() if isinstance(x, np.generic) else x


def encode_declared(
    arr: NDArray[Any], categories: Sequence[Any], *, name: str
) -> NDArray[np.int64]:
    """Codes of ``arr`` in the declared ``categories``; unknown values raise one sentence."""
    from accord.errors import UnknownCategoryError

    categories = label_list(categories, param="declared categories")
    lookup = {c: i for i, c in enumerate(categories)}
    text_lookup = {str(c): i for i, c in enumerate(categories)}
    uniques_codes, uniques = factorize(arr)
    mapped = np.empty(len(uniques), dtype=np.int64)
    unknown = []
    for j, u in enumerate(uniques):
        hit = lookup.get(u)
        if hit is None and isinstance(u, str):
            hit = text_lookup.get(u)
        if hit is None:
            unknown.append(u)
        else:
            mapped[j] = hit
    if unknown:
        shown = ", ".join(repr(u) for u in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise UnknownCategoryError(
            f"found values outside the declared categories in {name}: {shown}{more}; "
            f"declared: {list(categories)!r}."
        )
    return mapped[uniques_codes]


def unit_counts(units: NDArray[np.int64], values: NDArray[np.int64], shape: tuple[int, int],
                made: NDArray[np.int64] | None) -> NDArray[np.int64]:
    """Units x categories rating counts: ``made`` when it has this ``shape``, else one
    ``np.bincount`` over ``unit * k + value`` (read-only).

    :meth:`accord.Annotations.unit_counts` keeps the table, so the many-rater
    coefficients, the consensus and the per-annotator figures of a report count it once.

    Examples
    --------
    >>> import numpy as np
    >>> unit_counts(np.array([0, 0, 0, 1, 1]), np.array([0, 0, 1, 1, 1]), (2, 2), None).tolist()
    [[2, 1], [0, 2]]
    """
    if made is not None and made.shape == shape:
        return made
    n, k = shape
    counts = np.asarray(np.bincount(units * k + values, minlength=n * k).reshape(n, k),
                        dtype=np.int64)
    counts.flags.writeable = False
    return counts
