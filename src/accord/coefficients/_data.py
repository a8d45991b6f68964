"""Turning the accepted forms of ``data`` into a sufficient statistic.

Two-rater functions accept two label sequences (scikit-learn style), a
two-column wide table, :class:`~accord.Annotations` (with ``raters=`` naming two
of them when there are more) or a :class:`~accord.ContingencyTable`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _encoding as enc
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.data.weights import numeric_labels
from accord.errors import DataError, InsufficientDataError
from accord.tables.contingency import DENSE_LIMIT, ContingencyTable


def reusable(data: Any) -> Any:
    """A one-shot iterator (a generator of rows) as a list, so that looking at its first
    row to count the raters does not consume it."""
    return list(data) if isinstance(data, Iterator) else data


def is_two_rater(data: Any, y2: Any, raters: Sequence[Any] | None) -> bool:
    """Whether ``data`` is two-rater input (pairs, a table, or two named raters).

    Pass a one-shot iterator through :func:`reusable` first.
    """
    if y2 is not None or isinstance(data, ContingencyTable):
        return True
    if raters is not None:
        return len(raters) == 2
    if isinstance(data, Annotations):
        return data.n_raters == 2
    if type(data).__name__ in {"RaterCounts", "CoincidenceMatrix", "RatingMatrix"}:
        return False
    return _width(data) == 2


def _width(data: Any) -> int:
    if isinstance(data, np.ndarray):
        return data.shape[1] if data.ndim == 2 else 0
    if hasattr(data, "columns"):
        return len(data.columns)
    if hasattr(data, "column_names"):
        return len(data.column_names)
    if isinstance(data, dict):
        return len(data)
    try:
        first = next(iter(data))
    except (TypeError, StopIteration):
        return 0
    return len(first) if hasattr(first, "__len__") and not isinstance(first, str) else 0


def set_valued_error(func: str, source: str | None = None) -> DataError:
    """The one sentence a single-label coefficient gives for set-valued ratings,
    naming the file they were read from when there is one."""
    where = f"{source}: " if source and source != "Annotations" else ""
    return DataError(
        f"{where}{func} needs one label per rating, but these ratings are sets of labels "
        "(multi-label); use accord.multilabel_agreement (accord CLI: --multilabel) for "
        "per-label agreement, or krippendorff_alpha with level='masi' for agreement on "
        "the sets."
    )


def as_annotations(
    data: Any,
    *,
    categories: Sequence[Any] | None = None,
    level: Any = None,
    raters: Sequence[Any] | None = None,
    func: str,
    sets: bool = False,
    pairs: bool = True,
) -> Annotations:
    """Annotations from an Annotations object or a units x raters table.

    Set-valued ratings are refused unless ``sets`` (a coefficient that takes sets); a
    table in which no unit is rated twice is refused unless not ``pairs`` (a consensus).
    """
    ann = _as_annotations(data, categories=categories, level=level, raters=raters, func=func,
                          pairs=pairs)
    if ann.set_valued and not sets:
        raise set_valued_error(func, ann.audit.source)
    return ann


def _as_annotations(
    data: Any,
    *,
    categories: Sequence[Any] | None,
    level: Any,
    raters: Sequence[Any] | None,
    func: str,
    pairs: bool = True,
) -> Annotations:
    if raters is not None:
        raters = v.names(raters, param="raters", func=func)
    if isinstance(data, Annotations):
        ann = data
        if categories is not None:
            ann = ann.with_categories(categories, level=level)
        elif level is not None and ann.level != level:
            ann = ann.with_categories(ann.categories, level=level)
        return ann.select(list(raters)) if raters is not None else ann
    if isinstance(data, ContingencyTable):
        raise DataError(f"{func} needs unit-level ratings here, not a contingency table.")
    summary = type(data).__name__
    if summary in {"RaterCounts", "CoincidenceMatrix", "RatingMatrix"}:
        raise DataError(
            f"{func} cannot be computed from a {summary}; pass the units x raters ratings "
            "(a table or Annotations)."
        )
    return Annotations.from_wide(data, raters=raters, categories=categories, level=level,
                                 require_pairs=pairs)


def as_table(
    data: Any,
    y2: Any = None,
    *,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
    func: str,
) -> ContingencyTable:
    """The contingency table of two-rater input in any accepted form."""
    if isinstance(data, ContingencyTable):
        if y2 is not None or sample_weight is not None:
            raise DataError(f"{func}: a ContingencyTable takes neither y2 nor sample_weight.")
        if categories is not None and tuple(categories) != data.categories:
            raise DataError(
                f"{func}: categories {list(categories)!r} differ from the table's "
                f"{list(data.categories)!r}."
            )
        if categories is not None and not data.ordered:
            declared = copy.copy(data)  # the caller declared this order
            declared.ordered = True
            return declared
        return data
    if y2 is not None:
        return table_from_pairs(data, y2, categories=categories, sample_weight=sample_weight,
                                func=func)
    ann = as_annotations(data, categories=categories, raters=raters, func=func)
    return ContingencyTable.from_annotations(ann, raters, sample_weight=sample_weight)


def table_from_pairs(
    y1: Any, y2: Any, *, categories: Sequence[Any] | None = None, sample_weight: Any = None,
    func: str = "this coefficient",
) -> ContingencyTable:
    """Count two aligned label sequences; pairs with a missing label are left out."""
    a = enc.to_array(y1, name="y1")
    b = enc.to_array(y2, name="y2")
    if a.shape[0] != b.shape[0]:
        raise DataError(
            f"y1 and y2 must have the same length (one label per unit); "
            f"got {a.shape[0]} and {b.shape[0]}."
        )
    w = _sample_weight(sample_weight, a.shape[0])
    if categories is None and w is None:
        fast = _small_int_table(a, b)
        if fast is not None:
            return fast
    keep = ~(enc.missing_mask(a) | enc.missing_mask(b))
    unit_ids = None  # units are positions 0..n-1; name the kept ones when some are dropped
    if not keep.all():
        a, b = a[keep], b[keep]
        w = None if w is None else w[keep]
        unit_ids = tuple(int(i) for i in np.flatnonzero(keep))
    if a.shape[0] == 0:
        raise InsufficientDataError(
            "no unit has a label from both raters (every pair has a missing value)."
        )
    from accord.data._sets import is_set_label

    if any(x.dtype == object and any(map(is_set_label, x)) for x in (a, b)):
        raise set_valued_error(func)
    enc.check_hashable(a, name="y1")
    enc.check_hashable(b, name="y2")
    both = _concat(a, b)
    if categories is None:
        codes, cats = enc.factorize(both)
    else:
        cats = enc.label_list(categories, param="declared categories")
        codes = enc.encode_declared(both, cats, name="the labels")
    n = a.shape[0]
    table = ContingencyTable.from_codes(codes[:n], codes[n:], cats, sample_weight=w,
                                        unit_ids=unit_ids)
    table.ordered = categories is not None or numeric_labels(cats)
    return table


def _small_int_table(a: NDArray[Any], b: NDArray[Any]) -> ContingencyTable | None:
    """Fast path: small non-negative integer labels are counted in one bincount."""
    if a.dtype.kind not in "iu" or b.dtype.kind not in "iu" or a.shape[0] == 0:
        return None
    lo = min(int(a.min()), int(b.min()))
    hi = max(int(a.max()), int(b.max()))
    if lo < 0 or hi >= DENSE_LIMIT:
        return None
    size = hi + 1
    cells = a.astype(np.int64, copy=False) * size + b
    full = np.bincount(cells, minlength=size * size).reshape(size, size)
    used = np.flatnonzero(full.any(axis=0) | full.any(axis=1))
    counts = full[np.ix_(used, used)].astype(np.float64)
    table = ContingencyTable(counts, [int(x) for x in used])
    lut = np.full(size, -1, dtype=np.int64)
    lut[used] = np.arange(used.shape[0])
    k = used.shape[0]
    table.set_unit_cells(lambda: lut[a] * k + lut[b])
    return table


def _concat(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    if a.dtype == b.dtype or (a.dtype.kind in "iuf" and b.dtype.kind in "iuf"):
        return np.concatenate([a, b])
    out = np.empty(a.shape[0] + b.shape[0], dtype=object)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = b
    return out


def _sample_weight(sample_weight: Any, n: int) -> NDArray[np.float64] | None:
    if sample_weight is None:
        return None
    try:
        w = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(
            f"sample_weight must be one number per unit ({n}); got {sample_weight!r:.60}."
        ) from None
    if w.shape != (n,):
        raise DataError(f"sample_weight must have one weight per unit ({n}); got shape {w.shape}.")
    if not np.all(np.isfinite(w)) or w.min() < 0:
        raise DataError("sample_weight must be finite and non-negative.")
    return w


def restrict_labels(table: ContingencyTable, labels: Sequence[Any],
                    func: str) -> tuple[ContingencyTable, float]:
    """The table on ``labels`` only (scikit-learn's ``labels=``), in that order, and how
    many units fall outside it (a rater used a label not in ``labels``).

    Labels that do not occur keep a row and column of zeros, as declared categories do.
    """
    wanted = enc.label_list(labels, param="labels")
    if not wanted:
        raise v.fail("labels", func, "a non-empty list of labels", labels)
    index = {c: i for i, c in enumerate(table.categories)}
    present = [(j, index[c]) for j, c in enumerate(wanted) if c in index]
    if not present:
        raise DataError(f"{func}: none of labels {list(wanted)[:6]!r} occurs in the data "
                        f"(the labels are {list(table.categories)[:6]!r}).")
    counts = np.zeros((len(wanted), len(wanted)))
    new, old = (np.array(ix, dtype=np.int64) for ix in zip(*present))
    counts[np.ix_(new, new)] = table.counts[np.ix_(old, old)]
    out = ContingencyTable(counts, wanted)
    out.ordered = True
    out.unit_weights = table.unit_weights
    return out, float(table.n - counts.sum())
