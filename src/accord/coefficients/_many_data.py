"""Turning many-rater input into the statistic a coefficient needs.

Count-based coefficients (Fleiss, Gwet AC1/AC2, Brennan-Prediger, percent
agreement) need only :class:`~accord.RaterCounts`; Conger's and Light's kappa
need to know which rater gave which rating, which :class:`LongCodes` keeps as
three arrays of O(ratings) (a units x raters matrix would be O(units x raters):
127 GiB for 1.9 M units x 9,000 crowd workers).

A 2-D numpy array of numbers takes a fast path straight to integer codes
(no long table is built), so counting 10^6 units x 10 raters stays O(n).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_annotations
from accord.data import _encoding as enc
from accord.data._frames import check_numeric_array
from accord.data.annotations import Annotations
from accord.errors import DataError, InsufficientDataError
from accord.tables.rater_counts import RaterCounts

IntArray = NDArray[np.int64]

_NOTHING_TO_COMPARE = "no unit was rated by two or more raters, so there is nothing to compare."


@dataclass(frozen=True)
class RatingCodes:
    """A units x raters matrix of category codes, ``-1`` where a rater did not rate a unit.

    Only units with at least one rating and raters with at least one rating are kept.
    """

    codes: IntArray
    categories: tuple[Any, ...]
    raters: tuple[Any, ...]
    unit_ids: tuple[Any, ...]
    complete: bool = False
    ordered: bool = True  # the category order is a scale (declared, or numeric labels)

    @property
    def n_units(self) -> int:
        """Number of units (rows)."""
        return int(self.codes.shape[0])

    @property
    def n_raters(self) -> int:
        """Number of raters (columns)."""
        return int(self.codes.shape[1])

    def counts(self) -> RaterCounts:
        """The units x categories counts of these ratings."""
        return RaterCounts.from_codes(self.codes, self.categories, self.unit_ids,
                                      complete=self.complete, ordered=self.ordered)


@dataclass(frozen=True)
class LongCodes:
    """The ratings as long arrays sorted by unit: ``units``, ``raters``, ``values`` codes.

    Only units with at least one rating and raters with at least one rating are kept
    (rater codes ``0 .. n_raters - 1`` in the order of ``raters``).
    """

    units: IntArray
    raters: IntArray
    values: IntArray
    categories: tuple[Any, ...]
    rater_labels: tuple[Any, ...]
    unit_ids: tuple[Any, ...]
    ordered: bool = True

    @property
    def n_units(self) -> int:
        """Number of units."""
        return len(self.unit_ids)

    @property
    def n_raters(self) -> int:
        """Number of raters."""
        return len(self.rater_labels)

    @property
    def q(self) -> int:
        """Number of categories."""
        return len(self.categories)

    def counts(self) -> RaterCounts:
        """The units x categories counts of these ratings (one ``bincount``)."""
        flat = _pair_counts(self.units, self.values, self.q, self.n_units * self.q)
        return RaterCounts._trusted(flat.reshape(self.n_units, self.q), self.categories,
                                    self.unit_ids, ordered=self.ordered)

    def rater_category_counts(self) -> NDArray[np.float64]:
        """How often each rater used each category, shape ``(n_raters, q)``."""
        flat = _pair_counts(self.raters, self.values, self.q, self.n_raters * self.q)
        return flat.reshape(self.n_raters, self.q).astype(np.float64)

    def wide(self, func: str, why: str) -> IntArray:
        """The units x raters code matrix, refused (one sentence) when it would be a
        crowd's: larger than 1 GiB and more than 16 times the ratings."""
        check_dense(self.n_units, self.n_raters, self.units.shape[0], func, why)
        m = np.full((self.n_units, self.n_raters), -1, dtype=np.int64)
        m[self.units, self.raters] = self.values
        return m


RATINGS_STEP = 1 << 22  # ratings per step where a pass over them makes temporaries


def _pair_counts(first: IntArray, second: IntArray, q: int, size: int) -> IntArray:
    """``bincount(first * q + second)``, a few million ratings at a time (no temporary
    the size of the ratings)."""
    step = RATINGS_STEP
    if first.shape[0] <= step:
        return np.bincount(first * q + second, minlength=size)
    out = np.zeros(size, dtype=np.int64)
    for s in range(0, first.shape[0], step):
        out += np.bincount(first[s:s + step] * q + second[s:s + step], minlength=size)
    return out


DENSE_CELLS = 1 << 27  # a units x raters matrix of 1 GiB (int64) ...
DENSE_SPARSITY = 16  # ... and 16 times the ratings: refused as a crowd's


def check_dense(n_units: int, n_raters: int, n_ratings: int, func: str, why: str) -> None:
    """Refuse a units x raters array that would be large and mostly empty (a crowd)."""
    cells = n_units * n_raters
    if cells > DENSE_CELLS and cells > DENSE_SPARSITY * n_ratings:
        raise DataError(
            f"{func} {why}, which for {n_units:,} units x {n_raters:,} raters would allocate "
            f"{cells * 8 / 2**30:,.1f} GiB for {n_ratings:,} ratings; compute it on fewer "
            "raters (Annotations.select) or use a coefficient that needs no rater identity."
        )


def long_codes(data: Any, *, categories: Sequence[Any] | None, func: str) -> LongCodes:
    """The long codes of raw many-rater input, without a units x raters matrix for
    anything but a numeric 2-D array (which already is one); raises for RaterCounts."""
    _refuse_counts(data, func)
    fast = _numeric_array_codes(data, categories, func)
    if fast is not None:
        rc = _checked(fast)
        unit, rater = np.nonzero(rc.codes >= 0)
        return LongCodes(unit.astype(np.int64), rater.astype(np.int64),
                         rc.codes[unit, rater], rc.categories, rc.raters, rc.unit_ids,
                         ordered=rc.ordered)
    ann = as_annotations(data, categories=categories, func=func).require_pairable()
    units, raters, values = ann.codes
    if units.size > 1 and not bool(np.all(units[1:] >= units[:-1])):
        order = np.argsort(units, kind="stable")
        units, raters, values = units[order], raters[order], values[order]
    used = np.bincount(raters, minlength=ann.n_raters) > 0
    labels = ann.raters
    if not used.all():
        remap = np.cumsum(used) - 1
        raters = remap[raters]
        labels = tuple(r for r, u in zip(ann.raters, used.tolist()) if u)
    if len(labels) < 2:
        raise InsufficientDataError(
            f"agreement needs at least two raters; found {len(labels)} ({list(labels)!r})."
        )
    return LongCodes(np.asarray(units, dtype=np.int64), np.asarray(raters, dtype=np.int64),
                     np.asarray(values, dtype=np.int64), ann.categories, labels, ann.units,
                     ordered=ann.ordered)


def _refuse_counts(data: Any, func: str) -> None:
    if isinstance(data, RaterCounts):
        raise DataError(
            f"{func} needs to know which rater gave each rating, which RaterCounts does not "
            "record; pass the units x raters ratings (a table or Annotations) instead."
        )


def rating_codes(data: Any, *, categories: Sequence[Any] | None, func: str) -> RatingCodes:
    """The code matrix of raw many-rater input; raises for RaterCounts (no rater identity).

    For a listing of every unit's labels by rater (``unit_agreement``), which is the
    matrix itself; refused with one sentence when the matrix would be a crowd's
    (:func:`check_dense`). Coefficients use :func:`long_codes` instead.
    """
    _refuse_counts(data, func)
    fast = _numeric_array_codes(data, categories, func)
    if fast is not None:
        return _checked(fast)
    ann = as_annotations(data, categories=categories, func=func).require_pairable()
    check_dense(ann.n_units, ann.n_raters, ann.n_ratings, func,
                "lists every unit's label by rater, a units x raters matrix")
    return _checked(RatingCodes(ann.wide(), ann.categories, ann.raters, ann.units,
                                ordered=ann.ordered))


def rater_counts(data: Any, *, categories: Sequence[Any] | None, func: str) -> RaterCounts:
    """The RaterCounts of any accepted input, without units that nobody rated."""
    if isinstance(data, RaterCounts):
        if categories is not None and tuple(categories) != data.categories:
            raise DataError(
                f"{func}: categories {list(categories)!r} differ from the RaterCounts' "
                f"{list(data.categories)!r}; declare them with RaterCounts(counts, categories=...)."
            )
        rc = data.rated()
        if categories is not None and not rc.ordered:
            rc = copy.copy(rc)  # the caller declared this order
            rc.ordered = True
        if rc.n_units == 0 or rc.n_ratings.max() < 2:
            raise InsufficientDataError(_NOTHING_TO_COMPARE)
        return rc
    if isinstance(data, Annotations):
        ann = as_annotations(data, categories=categories, func=func).require_pairable()
        return RaterCounts.from_annotations(ann)
    return rating_codes(data, categories=categories, func=func).counts()


def _checked(rc: RatingCodes) -> RatingCodes:
    """Drop raters without ratings; require two raters and a unit rated twice."""
    if rc.complete:
        if rc.n_raters < 2:
            raise InsufficientDataError(
                f"agreement needs at least two raters; found {rc.n_raters} ({list(rc.raters)!r})."
            )
        return rc
    rated = rc.codes >= 0
    if not rated.any():
        raise InsufficientDataError(
            "the data hold no ratings (every cell is missing), so there is nothing to compare."
        )
    used: NDArray[np.bool_] = np.asarray(rated.any(axis=0), dtype=bool)
    if not used.all():
        keep = used.tolist()
        rc = RatingCodes(rc.codes[:, used], rc.categories,
                         tuple(r for r, u in zip(rc.raters, keep) if u), rc.unit_ids,
                         ordered=rc.ordered)
        rated = rated[:, used]
    if rc.n_raters < 2:
        raise InsufficientDataError(
            f"agreement needs at least two raters; found {rc.n_raters} ({list(rc.raters)!r})."
        )
    if not np.any(rated.sum(axis=1) >= 2):
        raise InsufficientDataError(_NOTHING_TO_COMPARE)
    return rc


def _numeric_array_codes(
    data: Any, categories: Sequence[Any] | None, func: str = "this coefficient"
) -> RatingCodes | None:
    """Codes of a 2-D numeric numpy array (NaN = not rated) without building a long table."""
    if not isinstance(data, np.ndarray) or data.ndim != 2 or data.dtype.kind not in "iuf":
        return None
    check_numeric_array(data, func)
    raters = tuple(f"rater_{j + 1}" for j in range(data.shape[1]))
    missing = None if data.dtype.kind in "iu" else np.isnan(data)
    if missing is None or not missing.any():
        codes, cats = _value_codes(data.ravel(), categories)
        return RatingCodes(codes.reshape(data.shape), cats, raters,
                           tuple(range(data.shape[0])), complete=data.size > 0)
    grid = None
    if categories is None and not missing.all():
        grid = _whole_number_codes(data)  # NaN cells coded -1 in place
    if grid is not None:
        codes, cats = grid
    else:
        rated = ~missing
        value_codes, cats = _value_codes(data[rated], categories)
        codes = np.full(data.shape, -1, dtype=np.int64)
        codes[rated] = value_codes
    empty = _empty_rows(missing)
    if empty.size == 0:
        return RatingCodes(codes, cats, raters, tuple(range(data.shape[0])))
    keep = np.ones(data.shape[0], dtype=bool)
    keep[empty] = False
    unit_ids = tuple(np.flatnonzero(keep).tolist())  # Python ints, built in C
    return RatingCodes(codes[keep], cats, raters, unit_ids)


def _empty_rows(missing: NDArray[np.bool_]) -> IntArray:
    """Rows missing in every column, narrowing the candidates column by column (cheaper
    than ``missing.all(axis=1)`` when few cells are missing)."""
    rows = np.flatnonzero(missing[:, 0])
    for j in range(1, missing.shape[1]):
        if rows.size == 0:
            break
        rows = rows[missing[rows, j]]
    return rows.astype(np.int64, copy=False)


def _value_codes(values: NDArray[Any],
                 categories: Sequence[Any] | None) -> tuple[IntArray, tuple[Any, ...]]:
    """Category codes of numbers; the values themselves when they already are 0 .. k-1."""
    if categories is not None:
        cats = enc.label_list(categories, param="declared categories")
        return enc.encode_declared(values, cats, name="the data"), tuple(cats)
    if values.dtype.kind in "iu" and values.size and values.min() == 0:
        k = int(values.max()) + 1
        if k <= 1 << 16 and np.all(np.bincount(values, minlength=k) > 0):
            return np.asarray(values, dtype=np.int64), tuple(range(k))
    whole = _whole_number_codes(values)
    if whole is not None:
        return whole
    codes, cats = enc.factorize(values)
    return codes, tuple(cats)


def _whole_number_codes(values: NDArray[Any]) -> tuple[IntArray, tuple[Any, ...]] | None:
    """The codes and sorted values of :func:`accord.data._encoding.factorize` for floats that
    are whole numbers in a range below 2**16 (labels stored as floats), in O(n): a table
    of the values present instead of a sort. NaN cells (any shape) are coded ``-1``; the
    caller makes sure some cell is not NaN."""
    if values.dtype.kind != "f" or values.size == 0:
        return None
    lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
    if not (hi - lo < 1 << 16 and abs(lo) < 2.0**52):  # no infinity; lo - 1 is exact
        return None
    span = int(hi - lo) + 1
    # value v -> v - lo + 1 in 1 .. span, NaN -> 0 (fmax ignores NaN): one slot for missing
    shifted = np.subtract(values, lo - 1.0)
    np.fmax(shifted, 0.0, out=shifted)
    ints = shifted.astype(np.int64)
    if not np.array_equal(ints, shifted):
        return None
    present = np.bincount(ints.reshape(-1), minlength=span + 1)[1:] > 0
    if present.all():
        codes = np.subtract(ints, 1, out=ints)
    else:
        codes = np.append(-1, np.cumsum(present) - 1)[ints]
    distinct = np.flatnonzero(present).astype(np.float64) + (lo + 0.0)  # no -0.0 label
    return codes, tuple(distinct.tolist())
