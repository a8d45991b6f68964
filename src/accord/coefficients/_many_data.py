"""Turning many-rater input into the statistic a coefficient needs.

Count-based coefficients (Fleiss, Gwet AC1/AC2, Brennan-Prediger, percent
agreement) need only :class:`~accord.RaterCounts`; Conger's and Light's kappa
need to know which rater gave which rating (a units x raters code matrix).

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

from accord import _encoding as enc
from accord.annotations import Annotations
from accord.coefficients._data import as_annotations
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


def rating_codes(data: Any, *, categories: Sequence[Any] | None, func: str) -> RatingCodes:
    """The code matrix of raw many-rater input; raises for RaterCounts (no rater identity)."""
    if isinstance(data, RaterCounts):
        raise DataError(
            f"{func} needs to know which rater gave each rating, which RaterCounts does not "
            "record; pass the units x raters ratings (a table or Annotations) instead."
        )
    fast = _numeric_array_codes(data, categories)
    if fast is not None:
        return _checked(fast)
    ann = as_annotations(data, categories=categories, func=func).require_pairable()
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


def _numeric_array_codes(data: Any, categories: Sequence[Any] | None) -> RatingCodes | None:
    """Codes of a 2-D numeric numpy array (NaN = not rated) without building a long table."""
    if not isinstance(data, np.ndarray) or data.ndim != 2 or data.dtype.kind not in "iuf":
        return None
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
    """The codes and sorted values of :func:`accord._encoding.factorize` for floats that
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
