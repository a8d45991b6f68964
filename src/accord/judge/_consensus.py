"""The humans' consensus on each unit (majority label or mean score), paired with a rater."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from accord.data.annotations import Annotations
from accord.errors import InsufficientDataError
from accord.judge._panel import Panel

CONSENSUS = "consensus"


def rated_by_panel(p: Panel, func: str) -> tuple[Annotations, NDArray[np.int64]]:
    """The panel restricted to units rated by the judge and at least two humans."""
    rated = p.rated
    keep = rated[:, 0] & (rated[:, 1:].sum(axis=1) >= 2)
    if not keep.any():
        raise InsufficientDataError(
            f"No unit was rated by the judge {p.judge!r} and at least two humans, so {func} "
            "has no unit to compare on."
        )
    if keep.all():
        return p.ann, p.codes
    return _from_codes(p.ann, p.codes[keep], p.ann.raters, np.flatnonzero(keep)), p.codes[keep]


def consensus_pair(p: Panel, left: int, reference: Sequence[int], level: str,
                   ties: dict[str, int]) -> Annotations:
    """Rater ``left`` (a panel column) and the consensus of the ``reference`` columns,
    on the units where both exist; units tied among the reference go in ``ties``."""
    names = (p.ann.raters[left], CONSENSUS)
    if level in ("interval", "ratio"):
        return _mean_pair(p, left, reference, names)
    majority = _majority(p.codes[:, list(reference)], len(p.ann.categories))
    tied = int(np.count_nonzero(majority == -2))
    if tied:
        ties[", ".join(str(p.ann.raters[k]) for k in reference)] = tied
    pair = np.stack([p.codes[:, left], np.where(majority >= 0, majority, -1)], axis=1)
    both = (pair >= 0).all(axis=1)
    return _from_codes(p.ann, pair[both], names, np.flatnonzero(both))


def _majority(codes: NDArray[np.int64], k: int) -> NDArray[np.int64]:
    """Per unit the most frequent code; -2 for a tie, -1 when nobody rated the unit."""
    n = codes.shape[0]
    rows, cols = np.nonzero(codes >= 0)
    counts = np.bincount(rows * k + codes[rows, cols], minlength=n * k).reshape(n, k)
    top = counts.max(axis=1) if k else np.zeros(n, dtype=np.int64)
    winners = (counts == top[:, None]).sum(axis=1)
    out = np.where(winners == 1, counts.argmax(axis=1), -2)
    return np.where(top > 0, out, -1).astype(np.int64)


def _mean_pair(p: Panel, left: int, reference: Sequence[int],
               names: tuple[object, object]) -> Annotations:
    values = p.ann.numeric_values()
    x = np.where(p.rated, values[np.maximum(p.codes, 0)], np.nan)
    ref = x[:, list(reference)]
    counts = np.isfinite(ref).sum(axis=1)
    means = np.where(counts > 0, np.nansum(ref, axis=1) / np.maximum(counts, 1), np.nan)
    both = np.isfinite(x[:, left]) & np.isfinite(means)
    units = np.empty(int(both.sum()), dtype=object)
    units[:] = [p.ann.units[i] for i in np.flatnonzero(both)]
    table = {"unit": units, "left": x[both, left], "right": means[both]}
    ann = Annotations.from_wide(table, unit="unit", raters=["left", "right"], level=p.ann.level)
    return Annotations(*ann.codes, units=ann.units, raters=names, categories=ann.categories,
                       level=ann.level)


def _from_codes(base: Annotations, codes: NDArray[np.int64], raters: Sequence[object],
                unit_index: NDArray[np.int64]) -> Annotations:
    """Annotations of a units x raters code matrix over ``base``'s categories."""
    rows, cols = np.nonzero(codes >= 0)
    used, unit_codes = np.unique(rows, return_inverse=True)
    return Annotations(
        unit_codes.astype(np.int64), cols.astype(np.int64), codes[rows, cols],
        units=[base.units[i] for i in unit_index[used]], raters=tuple(raters),
        categories=base.categories, level=base.level,
        kinds={r: base.kinds.get(r, "human") for r in raters}, field=base.field,
        audit=base.audit, declared_order=base.ordered,
    )
