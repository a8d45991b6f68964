"""Encoding aligned (unit, rater, value) columns into :class:`~accord.Annotations`.

Missing values are counted and dropped, labels are checked to be hashable,
numeric levels are checked to be numbers, and duplicate (unit, rater) ratings
are collapsed, refused or resolved, all recorded in the :class:`~accord.Audit`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _encoding as enc
from accord.data import _validation as v
from accord.data._columns import UNIT_NAMES, find_column
from accord.data._duplicates import resolve_duplicates
from accord.data._lookalike import look_alike_caveat
from accord.data._names import GUESSED_LAYOUT, GUESSED_LEVEL, LEVELS
from accord.data.audit import Audit, Duplicates, Level
from accord.errors import DataError, InvalidParameterError

#: Distinct numeric values above which reading them as nominal categories is stated.
MANY_NUMBERS = 10
#: Reason in ``audit.dropped`` for ratings that a later different one replaced.
REPLACED = "replaced by a later rating of the same unit and rater"


def build_parts(
    units: NDArray[Any],
    raters: NDArray[Any],
    values: NDArray[Any],
    *,
    categories: Sequence[Any] | None = None,
    level: Level | None = None,
    missing: Sequence[Any] = (),
    duplicates: Duplicates = "error",
    source: str = "Annotations",
    rater_order: Sequence[Any] | None = None,
    kinds: Mapping[Any, str] | None = None,
    field: str | None = None,
    dropped: Mapping[str, int] | None = None,
    notes: Sequence[str] = (),
    rows_read: int | None = None,
    multilabel: bool = False,
    set_valued: bool = False,
    caveats: Sequence[str] = (),
    values_are_labels: bool = True,
    copy: bool = True,
    coded: tuple[int, int] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], dict[str, Any]]:
    """Encode three aligned columns, recording the audit: the unit, rater and value codes
    and the other arguments of :class:`~accord.data.annotations.Annotations`.

    This does not require two raters (readers use it to show what a file holds);
    the public constructors call :meth:`Annotations.require_pairable` afterwards.
    ``values_are_labels=False`` says the values are codes of text labels (a
    table reader codes them first), so they are not numbers read as categories.
    ``copy=False``: the arrays are the caller's own (a reader's), so codes that need no
    renumbering are kept as they are rather than copied. ``coded=(n_units, n_raters)``:
    ``units`` and ``raters`` are already codes below these counts, numbered in order of
    first appearance (a table reader's), so they are not numbered again.
    """
    func = source
    if level is not None:
        v.choice(level, LEVELS, param="level", func=func)
    v.choice(duplicates, ("error", "last"), param="duplicates", func=func)
    markers = tuple(enc.label_list(missing, param="missing", distinct=False))
    n_read = int(values.shape[0]) if rows_read is None else rows_read
    drop: dict[str, int] = dict(dropped or {})
    keep = _kept_rows(units, raters, values, tuple(enc.DEFAULT_MISSING) + markers, drop)
    if keep is not None:
        units, raters, values = units[keep], raters[keep], values[keep]
    for arr, name in (
        (units, "the unit column"),
        (raters, "the rater column"),
        (values, "the values"),
    ):
        enc.check_hashable(arr, name=name)
    if multilabel:
        if categories is not None:  # the declared labels: every label must be one of them
            enc.encode_declared(values, categories, name="the labels")
            categories = None
        units, raters, values, set_notes = group_sets(units, raters, values)
        notes = tuple(notes) + tuple(set_notes)
    values = _numeric_if_needed(values, level)
    value_codes, cats = _encode_values(values, categories, copy)
    if coded is None or keep is not None or multilabel or rater_order is not None:
        unit_codes, unit_labels = enc.factorize(units, order="appearance", copy=copy)
        rater_codes, rater_labels = _encode_raters(raters, rater_order, copy)
        _check_id_types(unit_labels, "unit", source)
        _check_id_types(rater_labels, "rater", source)
    else:  # every row kept: the reader's codes are the codes
        unit_codes, unit_labels = units.astype(np.int64, copy=copy), list(range(coded[0]))
        rater_codes, rater_labels = raters.astype(np.int64, copy=copy), list(range(coded[1]))
    unit_codes, rater_codes, value_codes, dup_notes, n_replaced = resolve_duplicates(
        unit_codes,
        rater_codes,
        value_codes,
        len(rater_labels),
        duplicates,
        unit_labels,
        rater_labels,
        cats,
    )
    drop[REPLACED] = n_replaced
    stated = [*caveats, *([_replaced_caveat(n_replaced)] if n_replaced else [])]
    if values_are_labels:
        stated += _value_caveats(cats, level, categories is not None, source)
        stated += look_alike_caveat(cats)
    audit = Audit(
        source,
        n_read,
        int(value_codes.shape[0]),
        {k: n for k, n in drop.items() if n},
        tuple(notes) + tuple(dup_notes),
        caveats=tuple(stated),
    )
    return unit_codes, rater_codes, value_codes, {
        "units": unit_labels,
        "raters": rater_labels,
        "categories": cats,
        "level": level,
        "kinds": kinds,
        "field": field,
        "audit": audit,
        "declared_order": categories is not None,
        "set_valued": True if set_valued or multilabel else None,
    }


def _kept_rows(
    units: NDArray[Any], raters: NDArray[Any], values: NDArray[Any], markers: tuple[Any, ...],
    drop: dict[str, int],
) -> NDArray[np.bool_] | None:
    """The rows with a value, a unit and a rater, counting the others in ``drop``;
    None when none is missing (integer columns without numeric markers cannot be)."""
    miss = enc.missing_mask(values, markers)
    drop["missing value"] = drop.get("missing value", 0) + int(np.count_nonzero(miss))
    id_missing = None
    for ids in (units, raters):
        if ids.dtype.kind not in "iub":  # integer ids are never missing
            m = enc.missing_mask(ids)
            id_missing = m if id_missing is None else id_missing | m
    if id_missing is not None:
        id_missing &= ~miss
        n_ids = int(np.count_nonzero(id_missing))
        if n_ids:
            drop["missing unit or rater id"] = n_ids
            miss |= id_missing
    return ~miss if miss.any() else None


def group_sets(
    units: NDArray[Any], raters: NDArray[Any], values: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], list[str]]:
    """One rating per (unit, rater): the sorted tuple of the labels on its rows.

    The labels of each (unit, rater) are gathered as bits (one word per 64
    labels), so only the distinct sets are ever built as Python tuples.
    """
    n = values.shape[0]
    if n == 0:
        return units, raters, values, []
    for arr, name in ((units, "the unit column"), (raters, "the rater column"),
                      (values, "the values")):
        enc.check_hashable(arr, name=name)
    u, _ = enc.factorize(units, order="appearance")
    r, r_labels = enc.factorize(raters, order="appearance")
    c, labels = enc.factorize(values)
    key = u * max(len(r_labels), 1) + r
    order = np.lexsort((c, key))
    key, c = key[order], c[order]
    first = np.ones(n, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(first)
    words = np.zeros((starts.shape[0], (len(labels) + 63) // 64), dtype=np.uint64)
    for w in range(words.shape[1]):
        bits = np.where(c // 64 == w, np.left_shift(np.uint64(1), (c % 64).astype(np.uint64)),
                        np.uint64(0))
        words[:, w] = np.bitwise_or.reduceat(bits, starts)
    distinct, inverse = np.unique(words, axis=0, return_inverse=True)
    tuples = [tuple(labels[j] for j in _bit_positions(row)) for row in distinct]
    sets = np.empty(len(tuples), dtype=object)
    sets[:] = tuples
    rows = order[starts]
    repeated = n - int(np.unique(np.stack([key, c]), axis=1).shape[1])
    notes = [f"multilabel: {n} row(s) gathered into {starts.shape[0]} (unit, rater) set(s)"]
    if repeated:
        notes.append(f"multilabel: {repeated} repeated (unit, rater, label) row(s) counted once")
    return units[rows], raters[rows], sets[inverse.reshape(-1)], notes


def _bit_positions(row: NDArray[np.uint64]) -> list[int]:
    out: list[int] = []
    for w, word in enumerate(row.tolist()):
        j = 0
        while word:
            if word & 1:
                out.append(64 * w + j)
            word >>= 1
            j += 1
    return out


def _replaced_caveat(n: int) -> str:
    return (f"dropped {n} rating(s): a later, different rating of the same unit by the "
            "same rater replaced each (duplicates='last')")


def _value_caveats(cats: list[Any], level: Level | None, declared: bool,
                   source: str) -> list[str]:
    """Say when many numbers were read as nominal categories with no level declared."""
    if any(isinstance(x, tuple) for x in cats):  # label sets: set-valued ratings, not numbers
        return []
    numeric = all(isinstance(x, (int, float, np.number)) and not isinstance(x, bool)
                  for x in cats)
    if level is not None or declared or not numeric or len(cats) <= MANY_NUMBERS:
        return []
    return [f"{GUESSED_LEVEL}: {len(cats)} distinct numeric values were read as nominal "
            "categories, since no level was given; for scores pass level='interval' or "
            "level='ratio', for ranks level='ordinal', or level='nominal' to keep them as "
            "categories"]


def _numeric_if_needed(values: NDArray[Any], level: Level | None) -> NDArray[Any]:
    if level not in ("interval", "ratio") or values.dtype.kind in "iuf":
        return values
    out = np.empty(values.shape[0], dtype=np.float64)
    for i, x in enumerate(values):
        try:
            if isinstance(x, bool):
                raise ValueError
            out[i] = float(x)
        except (TypeError, ValueError):
            raise DataError(
                f"level={level!r} needs numeric values, but value {x!r} (rating {i + 1}) "
                "is not a number."
            ) from None
    return out


def _encode_values(
    values: NDArray[Any], categories: Sequence[Any] | None, copy: bool = True
) -> tuple[NDArray[np.int64], list[Any]]:
    if categories is None:
        return enc.factorize(values, copy=copy)
    cats = enc.label_list(categories, param="declared categories")
    return enc.encode_declared(values, cats, name="the data"), cats


def _encode_raters(
    raters: NDArray[Any], order: Sequence[Any] | None, copy: bool = True
) -> tuple[NDArray[np.int64], list[Any]]:
    if order is None:
        return enc.factorize(raters, order="appearance", copy=copy)
    if raters.dtype.kind in "iu" and list(order) == list(range(len(order))):
        # a reader's column numbers: their own codes (a look-up per row would be a Python loop)
        codes = raters.astype(np.int64, copy=copy)
        if codes.shape[0] and (int(codes.min()) < 0 or int(codes.max()) >= len(order)):
            raise KeyError(int(codes.max()))
        return codes, list(order)
    lookup = {r: i for i, r in enumerate(order)}
    codes = np.fromiter((lookup[r] for r in raters), dtype=np.int64, count=raters.shape[0])
    return codes, list(order)


def _check_id_types(labels: list[Any], what: str, source: str) -> None:
    """Refuse ids that differ only in type (``5`` and ``"5"``): one id written two ways
    would otherwise count as two units or raters. One pass over the distinct ids."""
    types = set(map(type, labels))
    if len(types) < 2 or str not in types:
        return
    texts: dict[str, Any] = {}
    clashes = []
    for x in labels:
        first = texts.setdefault(str(x), x)
        if first is not x and type(first) is not type(x):
            clashes.append((first, x))
    if not clashes:
        return
    n_text = sum(isinstance(x, str) for x in labels)
    a, b = clashes[0]
    raise DataError(
        f"{source}: the {what} ids mix {len(labels) - n_text} numeric and {n_text} text "
        f"id(s), and {len(clashes)} id(s) are written both ways (e.g. {a!r} and {b!r}), so "
        f"one {what} would count as two; give the {what} column one type (e.g. all text)."
    )


def _wide_columns(
    data: Any, raters: Sequence[str | int] | None, unit: str | int | None, func: str
) -> tuple[list[Any], list[NDArray[Any]], NDArray[Any], str]:
    from accord.data._frames import warn_if_transposed, wide_raters, wide_table

    names, columns = wide_table(data, func=func)
    if unit is not None and unit not in names:
        raise DataError(f"unit column {unit!r} not found; the columns are {names!r}.")
    left_out: list[Any] = []
    if raters is None:
        warn_if_transposed(names, columns[0].shape[0] if columns else 0, func)
        unit, chosen, left_out = wide_raters(names, columns, unit, func)
    else:
        if isinstance(raters, (str, bytes)) or not hasattr(raters, "__iter__"):
            raise InvalidParameterError(
                f"raters must be a list of column names, e.g. ['A', 'B']; got {raters!r}."
            )
        chosen = [
            names[r] if isinstance(r, int) and r not in names and 0 <= r < len(names) else r
            for r in raters
        ]
        absent = [r for r in chosen if r not in names]
        if absent:
            raise DataError(f"rater column(s) {absent!r} not found; the columns are {names!r}.")
        if unit is None:  # a column named like unit ids, unless it is one of the raters
            found = find_column([str(n) for n in names], UNIT_NAMES)
            unit = next((n for n in names if str(n) == found and n not in chosen), None)
    if len(set(chosen)) != len(chosen):
        raise DataError(f"rater columns must be distinct; got {chosen!r}.")
    cols = [columns[names.index(n)] for n in chosen]
    n = cols[0].shape[0] if cols else 0
    ids = columns[names.index(unit)] if unit is not None else np.arange(n, dtype=np.int64)
    caveat = (f"{GUESSED_LAYOUT}: columns left out of the raters: "
              f"{', '.join(repr(t) for t in left_out)}; name the rater columns with "
              "raters=[...] to make this explicit") if left_out else ""
    return chosen, cols, ids, caveat


def _repeat_obj(arr: NDArray[Any], r: int) -> NDArray[Any]:
    out = np.empty(arr.shape[0] * r, dtype=object)
    for j in range(r):
        out[j::r] = arr
    return out


def _interleave(columns: list[NDArray[Any]]) -> NDArray[Any]:
    """Row-major values of the units x raters table without coercing types."""
    r = len(columns)
    n = columns[0].shape[0] if columns else 0
    kinds = {c.dtype.kind for c in columns}
    if kinds <= {"i", "u"}:
        dtype: Any = np.int64
    elif kinds <= {"i", "u", "f"}:
        dtype = np.float64
    else:
        dtype = object
    out = np.empty(n * r, dtype=dtype)
    for j, col in enumerate(columns):
        out[j::r] = col
    return out
