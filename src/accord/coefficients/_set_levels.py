"""Krippendorff's alpha on set-valued ratings: MASI and Jaccard differences.

Each distinct set is one value of the coincidence matrix (so the count is done
once, over units, and everything after it grows with the number of distinct
sets, not with units squared). The difference between two sets is computed from
the sets x labels membership bits (:mod:`accord.data._sets`): within units only for
the pairs that occur, and across the marginals in row blocks for ``D_e`` and
Gwet's variance, without a sets x sets matrix unless resampling needs one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients import _differences as dif
from accord.data import _sets
from accord.data.annotations import Annotations
from accord.errors import DataError
from accord.tables.coincidence import CoincidenceMatrix

FloatArray = NDArray[np.float64]

SET_LEVELS: tuple[str, ...] = ("masi", "jaccard")

#: Up to this many distinct sets the dense difference matrix is built for resampling.
DENSE_SETS = 3000


def set_level(level: Any) -> str | None:
    """``"masi"`` or ``"jaccard"`` for those names and for the functions in accord.distances."""
    from accord.coefficients import distances

    if isinstance(level, str) and level in SET_LEVELS:
        return level
    if level is distances.masi:
        return "masi"
    if level is distances.jaccard:
        return "jaccard"
    return None


class SetDifference:
    """MASI or Jaccard difference over the distinct sets of a coincidence matrix."""

    def __init__(self, categories: Sequence[Any], kind: str) -> None:
        sets = [_sets.canonical(c) or () for c in categories]
        _, member = _sets.membership(sets)
        self.distances = _sets.SetDistances(member, kind)
        self.name = kind

    def observed(self, cm: CoincidenceMatrix) -> FloatArray:
        pattern, code, _ = cm.entries
        e1, e2 = cm.entry_pairs()
        w = cm.pair_weights(e1, e2) / cm.pattern_counts[pattern[e1]]
        d = 2.0 * w * self.distances.pairs(code[e1], code[e2])
        return np.bincount(pattern[e1], weights=d, minlength=cm.n_patterns).astype(np.float64)

    def expected(self, n_c: FloatArray) -> float:
        return float(n_c @ self.distances.weighted_sums(n_c))

    def spread(self, pi: FloatArray) -> FloatArray:
        return self.distances.weighted_sums(pi)

    def resampling(self, cm: CoincidenceMatrix) -> tuple[FloatArray, dif.Statistic] | None:
        if cm.k > DENSE_SETS:
            return None
        return dif.Matrix(self.distances.matrix(), self.name).resampling(cm)


def set_annotations(data: Any, func: str) -> Annotations:
    """Set-valued :class:`Annotations` of ``data`` (cells that are sets, tuples or labels)."""
    if isinstance(data, Annotations):
        return data.as_sets()
    if type(data).__name__ in {"ContingencyTable", "RaterCounts", "RatingMatrix"}:
        raise DataError(f"{func} with a set distance needs the ratings themselves (sets of "
                        f"labels per unit and rater), not a {type(data).__name__}.")
    return Annotations.from_wide(data, separator=None, set_valued=True)
