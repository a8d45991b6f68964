"""Set-valued ratings: canonical cells, label membership bits, set distances in bulk.

A set of labels is stored as a sorted tuple (the readers' form), so it is hashable
and sorts; a scalar label in set-valued data is the set of that one label. For
the arithmetic, the distinct sets become a sets x labels membership matrix of
bits: intersections are matrix products or popcounts, never Python sets.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

_SET_TYPES = (tuple, list, set, frozenset)


def is_set_label(x: Any) -> bool:
    """Whether a stored label is a set of labels (a tuple, list, set or frozenset)."""
    return isinstance(x, _SET_TYPES)


def label_text(x: Any) -> str:
    """A label as a file or a console shows it: a label set as ``a;b``, not a Python tuple,
    and the empty set as ``{}`` (an empty cell is a missing rating).

    >>> label_text(("@SUM(1)", "toxic")), label_text(frozenset({"b", "a"})), label_text(3)
    ('@SUM(1);toxic', 'a;b', '3')
    >>> label_text(())
    '{}'
    """
    if isinstance(x, (tuple, frozenset, set, list)):  # a list: a set as JSON gives it back
        return ";".join(sorted(str(v) for v in x)) if x else "{}"
    return str(x)


def is_missing(x: Any) -> bool:
    """None, NaN and the empty string are missing; an empty set is not."""
    return x is None or (isinstance(x, float) and math.isnan(x)) or (isinstance(x, str) and x == "")


def canonical(x: Any, separator: str | None = None) -> tuple[Any, ...] | None:
    """The sorted-tuple form of one cell; ``None`` when the cell is missing.

    With ``separator``, a string cell is split on it (pieces stripped of spaces,
    empty pieces left out: ``"a;"`` is ``("a",)`` and ``";"`` the empty set).
    """
    if is_missing(x):
        return None
    if isinstance(x, np.generic):  # numpy scalars print and serialise as plain labels
        x = x.item()
    if isinstance(x, _SET_TYPES):
        items = list(x)
    elif separator is not None and isinstance(x, str):
        items = [p.strip() for p in x.split(separator)]
        items = [p for p in items if p]
    else:
        items = [x]
    items = [i.item() if isinstance(i, np.generic) else i for i in items]
    for item in items:
        if is_set_label(item) or isinstance(item, dict):
            raise DataError(f"a set of labels must hold single labels; got {x!r:.60}.")
    return sorted_tuple(dict.fromkeys(items))


def sorted_tuple(items: Any) -> tuple[Any, ...]:
    """Labels as a sorted tuple (by type name and text when they do not compare)."""
    items = list(items)
    try:
        return tuple(sorted(items))
    except TypeError:
        return tuple(sorted(items, key=lambda v: (type(v).__name__, str(v))))


def canonical_array(values: NDArray[Any], separator: str | None = None) -> NDArray[Any]:
    """An object array of sorted tuples (``None`` where missing)."""
    memo: dict[Any, tuple[Any, ...] | None] = {}
    cells: list[tuple[Any, ...] | None] = []
    for x in values:  # one canonical form per distinct cell; equal cells share it
        try:
            cell = memo[x] if x in memo else memo.setdefault(x, canonical(x, separator))
        except TypeError:  # an unhashable cell (a list or a set)
            cell = canonical(x, separator)
        cells.append(cell)
    out = np.empty(values.shape[0], dtype=object)
    out[:] = cells
    return out


def membership(sets: Sequence[tuple[Any, ...]],
               labels: Sequence[Any] | None = None) -> tuple[tuple[Any, ...], BoolArray]:
    """The labels and the sets x labels membership matrix of distinct sets.

    One pass over the distinct sets (not over units). ``labels`` fixes the label
    order and may name labels no set holds; a set holding another label raises.
    """
    if labels is None:
        labels = sorted_tuple({x for s in sets for x in s})
    labels = tuple(labels)
    index = {x: j for j, x in enumerate(labels)}
    rows: list[int] = []
    cols: list[int] = []
    for i, s in enumerate(sets):
        for x in s:
            j = index.get(x)
            if j is None:
                raise DataError(f"label {x!r} is not one of the declared labels {list(labels)!r}.")
            rows.append(i)
            cols.append(j)
    m = np.zeros((len(sets), len(labels)), dtype=bool)
    m[rows, cols] = True
    return labels, m


def _blocks(k: int, width: int, budget: int = 4_000_000) -> Iterator[slice]:
    step = max(1, budget // max(width, 1))
    for start in range(0, k, step):
        yield slice(start, min(k, start + step))


def distance_from_counts(inter: FloatArray, size_a: FloatArray, size_b: FloatArray,
                         kind: str) -> FloatArray:
    """MASI or Jaccard distance from intersection and set sizes (broadcasting).

    Two empty sets are identical: distance 0.
    """
    union = size_a + size_b - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        jac = np.where(union > 0, inter / union, 1.0)
    if kind == "jaccard":
        return np.asarray(1.0 - jac, dtype=np.float64)
    same = (inter == size_a) & (inter == size_b)
    subset = (inter == np.minimum(size_a, size_b)) & ~same
    m = np.where(same, 1.0, np.where(subset, 2.0 / 3.0, np.where(inter > 0, 1.0 / 3.0, 0.0)))
    return np.asarray(1.0 - jac * m, dtype=np.float64)


class SetDistances:
    """MASI or Jaccard distances between distinct sets, computed in blocks from bits.

    Nothing of size sets x sets is kept: row blocks of the intersection counts are
    formed by a matrix product of the membership matrix and reduced at once.
    """

    def __init__(self, member: BoolArray, kind: str) -> None:
        self.member = np.asarray(member, dtype=np.float64)
        self.sizes = self.member.sum(axis=1)
        self.kind = kind

    def pairs(self, a: NDArray[np.int64], b: NDArray[np.int64]) -> FloatArray:
        """Distances between set ``a[i]`` and set ``b[i]``."""
        inter = np.einsum("ij,ij->i", self.member[a], self.member[b])
        return distance_from_counts(inter, self.sizes[a], self.sizes[b], self.kind)

    def weighted_sums(self, w: FloatArray) -> FloatArray:
        """``(D w)_c = sum_k delta_ck w_k`` for every set ``c``."""
        k = self.member.shape[0]
        out = np.empty(k)
        for rows in _blocks(k, k):
            inter = self.member[rows] @ self.member.T
            d = distance_from_counts(inter, self.sizes[rows, None], self.sizes[None, :], self.kind)
            out[rows] = d @ w
        return out

    def matrix(self) -> FloatArray:
        """The dense sets x sets distance matrix (small numbers of sets only)."""
        inter = self.member @ self.member.T
        return distance_from_counts(inter, self.sizes[:, None], self.sizes[None, :], self.kind)


def object_array(items: Sequence[Any]) -> NDArray[Any]:
    """A 1-D object array of ``items`` (tuples stay elements, not rows)."""
    out = np.empty(len(items), dtype=object)
    out[:] = list(items)
    return out


def check_labels(columns: list[NDArray[Any]], labels: Sequence[Any]) -> None:
    """Raise one sentence when a set holds a label outside the declared ``labels``."""
    from accord.data import _encoding as enc

    used = {x for c in columns for cell in c if cell is not None for x in cell}
    enc.encode_declared(object_array(sorted_tuple(used)),
                        enc.label_list(labels, param="declared categories"), name="the labels")


def set_columns(columns: list[NDArray[Any]], separator: str | None,
                set_valued: bool) -> tuple[list[NDArray[Any]], bool]:
    """Wide columns with every cell a sorted tuple when the data are set-valued
    (declared, a separator given, or a cell that is a tuple, list, set or frozenset)."""
    if not set_valued and separator is None:
        set_valued = any(c.dtype == object and any(map(is_set_label, c)) for c in columns)
    if not set_valued and separator is None:
        return columns, False
    return [canonical_array(c, separator) for c in columns], True
