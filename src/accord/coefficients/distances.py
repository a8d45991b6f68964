"""Distance functions between two ratings: set distances and Krippendorff's differences.

Every function here can be handed to :func:`accord.krippendorff_alpha` as
``level=``; :func:`masi` and :func:`jaccard` are the same as ``level="masi"`` and
``level="jaccard"`` (computed in bulk over the distinct sets).

Set distances (a set is any tuple, list, set or frozenset of labels; a single
label is the set of that label; two empty sets are identical, distance 0):

- Jaccard: ``1 - |A & B| / |A | B|``;
- MASI (Passonneau 2006): ``1 - J * M`` with ``J`` the Jaccard similarity and the
  monotonicity ``M`` = 1 when ``A = B``, 2/3 when one is a subset of the other,
  1/3 when they overlap otherwise, 0 when they are disjoint.

Conventions of other implementations. NLTK's ``masi_distance`` (3.10) is the same
function (exact thirds) but fails on two empty sets (division by zero); older NLTK
releases and some papers use ``M = 0.67`` and ``0.33`` (pass
``monotonicity=(1, 0.67, 0.33, 0)`` to reproduce their figures). DKPro Agreement's
``MASISetAnnotationDistanceFunction`` is a different formula, ``(1 - J) * m``
with ``m`` = 0, 1/3, 2/3, 1, so ``{A}`` against ``{A, B}`` is 1/6 there and 2/3 here
(and in NLTK and Passonneau).

Krippendorff's (2011) differences ``delta^2_ck``: nominal ``[c != k]``; ordinal
``(sum_{g=c..k} n_g - (n_c + n_k) / 2)^2`` on the category positions and their
frequencies ``n_g``; interval ``(c - k)^2``; ratio ``((c - k) / (c + k))^2``.

References
----------
Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic
and pragmatic annotation. *LREC 2006*, 831-836.
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Departmental
Papers (ASC), University of Pennsylvania.

Examples
--------
>>> from accord import distances
>>> distances.jaccard({"a"}, {"a", "b"})
0.5
>>> round(distances.masi({"a"}, {"a", "b"}), 4)   # J = 1/2, M = 2/3
0.6667
>>> distances.masi(("a", "b"), ["b", "a"]), distances.masi({"a"}, {"b"})
(0.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from accord.coefficients import _differences as dif
from accord.data import _sets
from accord.errors import DataError

__all__ = [
    "PASSONNEAU_MONOTONICITY",
    "interval",
    "jaccard",
    "masi",
    "nominal",
    "ordinal",
    "ratio",
]

#: Passonneau's (2006) monotonicity weights: equal, subset, overlap, disjoint.
PASSONNEAU_MONOTONICITY: tuple[float, float, float, float] = (1.0, 2.0 / 3.0, 1.0 / 3.0, 0.0)


def _as_set(x: Any, name: str) -> frozenset[Any]:
    if _sets.is_missing(x):
        raise DataError(f"{name} is missing ({x!r}); a set distance needs two sets of labels.")
    cell = _sets.canonical(x)
    return frozenset(cell or ())


def jaccard(a: Any, b: Any) -> float:
    """Jaccard distance ``1 - |A & B| / |A | B|`` between two sets of labels.

    Two empty sets are identical (distance 0). A single label counts as the set
    of that label.

    Examples
    --------
    >>> jaccard(("a", "b"), ("b", "c"))   # 1 - 1/3
    0.6666666666666667
    >>> jaccard((), ())
    0.0
    """
    sa, sb = _as_set(a, "a"), _as_set(b, "b")
    union = len(sa | sb)
    return 0.0 if union == 0 else 1.0 - len(sa & sb) / union


def masi(a: Any, b: Any, *,
         monotonicity: Sequence[float] = PASSONNEAU_MONOTONICITY) -> float:
    """MASI distance (Passonneau 2006): ``1 - J * M``.

    ``J`` is the Jaccard similarity ``|A & B| / |A | B|`` and ``M`` the monotonicity:
    ``monotonicity[0]`` (1) when the sets are equal, ``[1]`` (2/3) when one is a
    subset of the other, ``[2]`` (1/3) when they overlap otherwise, ``[3]`` (0) when
    they are disjoint. Two empty sets are identical (distance 0).

    Examples
    --------
    Passonneau's four cases: equal, subset (J = 1/2), overlap (J = 1/3), disjoint.
    A string is one label, not a set of characters.

    >>> pairs = [(("a", "b"), ("a", "b")), (("a",), ("a", "b")), (("a", "b"), ("b", "c")),
    ...          (("a",), ("b",))]
    >>> [round(masi(x, y), 4) for x, y in pairs]
    [0.0, 0.6667, 0.8889, 1.0]
    """
    sa, sb = _as_set(a, "a"), _as_set(b, "b")
    inter, union = len(sa & sb), len(sa | sb)
    if union == 0:
        return 0.0
    w = [float(x) for x in monotonicity]
    if len(w) != 4:
        raise DataError(f"monotonicity must hold 4 weights (equal, subset, overlap, disjoint); "
                        f"got {list(monotonicity)!r}.")
    if sa == sb:
        m = w[0]
    elif inter == min(len(sa), len(sb)):
        m = w[1]
    elif inter > 0:
        m = w[2]
    else:
        m = w[3]
    return 1.0 - inter / union * m


def nominal(c: Any, k: Any) -> float:
    """Krippendorff's nominal difference ``[c != k]``.

    >>> nominal("a", "a"), nominal("a", "b")
    (0.0, 1.0)
    """
    return 0.0 if c == k else 1.0


def interval(c: float, k: float) -> float:
    """Krippendorff's interval difference ``(c - k)^2``.

    >>> interval(1, 4)
    9.0
    """
    return (float(c) - float(k)) ** 2


def ratio(c: float, k: float) -> float:
    """Krippendorff's ratio difference ``((c - k) / (c + k))^2`` (0 when both are 0).

    >>> ratio(1, 3)
    0.25
    """
    return float(dif.ratio_delta(np.asarray([float(c)]), np.asarray([float(k)]))[0])


def ordinal(c: int, k: int, frequencies: Sequence[float]) -> float:
    """Krippendorff's ordinal difference between the categories at positions ``c`` and ``k``.

    ``(sum_{g=c..k} n_g - (n_c + n_k) / 2)^2`` with ``frequencies`` the pairable
    values per category ``n_g`` in scale order (the coincidence marginals).

    Examples
    --------
    Krippendorff (2011), example C: marginals 9, 13, 10, 5, 3; values 1 and 3.

    >>> ordinal(0, 2, [9, 13, 10, 5, 3])
    506.25
    """
    n = np.asarray(frequencies, dtype=np.float64)
    if n.ndim != 1 or not (0 <= c < n.size and 0 <= k < n.size):
        raise DataError(f"c and k must be positions in frequencies (0 to {n.size - 1}); "
                        f"got {c!r} and {k!r}.")
    t = dif.midranks(n)
    return float((t[c] - t[k]) ** 2)
