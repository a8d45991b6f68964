"""From the accepted inputs to confusion matrices (rows = reference, columns = system).

Two label sequences are counted in one ``np.bincount``; units lacking a
reference label or a prediction are not evaluated and are counted, never
dropped silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import _sample_weight, _small_int_table
from accord.data import _encoding as enc
from accord.data.weights import numeric_labels
from accord.errors import DataError, InsufficientDataError
from accord.tables.contingency import DENSE_LIMIT, ContingencyTable

__all__ = ["Counted", "count_pairs"]


@dataclass(frozen=True)
class Counted:
    """A confusion matrix with what was left out of it."""

    table: ContingencyTable
    supports: NDArray[np.float64] | None
    n_unreferenced: int
    n_unpredicted: int

    def notes(self, reference: str, system: str) -> tuple[str, ...]:
        out = []
        if self.n_unreferenced:
            out.append(f"{self.n_unreferenced} unit(s) without a reference label (from "
                       f"{reference}) were not evaluated")
        if self.n_unpredicted:
            out.append(f"{self.n_unpredicted} unit(s) without a label from {system} were not "
                       "evaluated")
        return tuple(out)


def count_pairs(
    gold: Any,
    predicted: Any,
    *,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    names: tuple[str, str] = ("gold", "predicted"),
) -> Counted:
    """The confusion matrix of two aligned label sequences (unit i = position i)."""
    a = enc.to_array(gold, name=names[0])
    b = enc.to_array(predicted, name=names[1])
    if a.shape[0] != b.shape[0]:
        raise DataError(
            f"{names[0]} and {names[1]} must have the same length (one label per unit); "
            f"got {a.shape[0]} and {b.shape[0]}."
        )
    w = _sample_weight(sample_weight, a.shape[0])
    if categories is None and w is None:
        fast = _int64_table(a, b)
        if fast is not None:
            return Counted(fast, None, 0, 0)
    ma, mb = enc.missing_mask(a), enc.missing_mask(b)
    keep = ~(ma | mb)
    n_unref, n_unpred = int(ma.sum()), int((~ma & mb).sum())
    if not keep.any():
        raise InsufficientDataError(
            f"no unit has both a {names[0]} label and a {names[1]} label, so there is "
            "nothing to evaluate."
        )
    unit_ids = None
    if not keep.all():
        a, b = a[keep], b[keep]
        w = None if w is None else w[keep]
        unit_ids = tuple(int(i) for i in np.flatnonzero(keep))
    ca, cb, cats = _codes(a, b, categories, names)
    table = ContingencyTable.from_codes(ca, cb, cats, sample_weight=w, unit_ids=unit_ids)
    table.ordered = categories is not None or numeric_labels(cats)
    supports = None
    if w is not None:
        supports = np.bincount(ca, minlength=len(cats)).astype(np.float64)
    return Counted(table, supports, n_unref, n_unpred)


def _int64_table(a: NDArray[Any], b: NDArray[Any]) -> ContingencyTable | None:
    """Small non-negative int64 labels counted in one ``np.bincount``.

    One pass per array finds the largest label and any negative one at once: read as
    unsigned, a negative int64 is above 2**63 (and so above the dense limit).
    """
    if a.dtype != np.int64 or b.dtype != np.int64 or a.shape[0] == 0:
        return _small_int_table(a, b)
    hi = max(int(a.view(np.uint64).max()), int(b.view(np.uint64).max()))
    if hi >= DENSE_LIMIT:
        return _small_int_table(a, b)  # negative or large labels: the general route
    size = hi + 1
    full = np.bincount(a * size + b, minlength=size * size).reshape(size, size)
    used = np.flatnonzero(full.any(axis=0) | full.any(axis=1))
    table = ContingencyTable(full[np.ix_(used, used)].astype(np.float64), [int(x) for x in used])
    lut = np.full(size, -1, dtype=np.int64)
    lut[used] = np.arange(used.shape[0])
    k = used.shape[0]
    table.set_unit_cells(lambda: lut[a] * k + lut[b])
    table.ordered = True
    return table


def _codes(
    a: NDArray[Any], b: NDArray[Any], categories: Sequence[Any] | None, names: tuple[str, str]
) -> tuple[NDArray[np.int64], NDArray[np.int64], list[Any]]:
    enc.check_hashable(a, name=names[0])
    enc.check_hashable(b, name=names[1])
    if categories is not None:
        cats = enc.label_list(categories, param="declared categories")
        return (enc.encode_declared(a, cats, name=f"the {names[0]} labels"),
                enc.encode_declared(b, cats, name=f"the {names[1]} labels"), cats)
    both = np.concatenate([a, b]) if a.dtype == b.dtype else _objects(a, b)
    codes, cats = enc.factorize(both)
    return codes[: a.shape[0]], codes[a.shape[0] :], cats


def _objects(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    if a.dtype.kind in "iuf" and b.dtype.kind in "iuf":
        return np.concatenate([a, b])
    out = np.empty(a.shape[0] + b.shape[0], dtype=object)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = b
    return out
