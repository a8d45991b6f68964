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


def factorize(arr: NDArray[Any], *, order: str = "sorted") -> tuple[NDArray[np.int64], list[Any]]:
    """Integer codes and the distinct values; ``order`` is ``"sorted"`` or ``"appearance"``."""
    if arr.shape[0] == 0:
        return np.zeros(0, dtype=np.int64), []
    if arr.dtype.kind in "iu":
        fast = _small_int_codes(arr)
        if fast is not None:
            codes, uniques = fast
            return (codes, uniques) if order == "sorted" else _reorder(codes, uniques)
    try:
        uniques_arr, inverse = np.unique(arr, return_inverse=True)
        codes = inverse.reshape(-1).astype(np.int64)
        uniques = [_py(x) for x in uniques_arr]
    except TypeError:
        codes, uniques = _factorize_mixed(arr)
    return (codes, uniques) if order == "sorted" else _reorder(codes, uniques)


def _small_int_codes(arr: NDArray[Any]) -> tuple[NDArray[np.int64], list[Any]] | None:
    """O(n) codes for non-negative ints below 2**22 via a look-up table (no sort)."""
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= 1 << 22:
        return None
    present = np.bincount(arr, minlength=hi + 1) > 0
    if lo == 0 and present.all():  # already codes (a reader's): the look-up is the identity
        return np.array(arr, dtype=np.int64), list(range(hi + 1))  # a copy: never aliased
    lut = np.cumsum(present) - 1
    codes = lut[arr].astype(np.int64, copy=False)
    return codes, np.flatnonzero(present).tolist()  # Python ints, built in C


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
    if codes.shape[0] < 2 or bool((codes[1:] >= codes[:-1]).all()):
        return codes, uniques  # sorted rows (a file grouped by unit): first seen is sorted
    first = np.full(len(uniques), codes.shape[0], dtype=np.int64)
    np.minimum.at(first, codes, np.arange(codes.shape[0]))
    order = np.argsort(first, kind="stable")
    remap = np.empty(len(uniques), dtype=np.int64)
    remap[order] = np.arange(len(uniques))
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
