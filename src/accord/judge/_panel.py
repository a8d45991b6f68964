"""The judge and its human panel as arrays: who rated what, and with which value.

Shared by the alternative annotator test and judge-vs-human agreement. The
panel is a dense units x (1 + humans) matrix: a panel has a handful of humans,
so its width is small whatever the number of units.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_annotations
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError, InsufficientDataError


@dataclass(frozen=True)
class Panel:
    """A judge and the humans it is measured against, on the units the judge rated."""

    ann: Annotations  # judge first, then the humans in the order given
    judge: Any
    humans: tuple[Any, ...]
    codes: NDArray[np.int64]  # units x (1 + humans), -1 where not rated

    @property
    def rated(self) -> NDArray[np.bool_]:
        """Units x (1 + humans): whether each rater rated each unit."""
        return self.codes >= 0


def panel(data: Any, judge: Any, humans: Sequence[Any] | None, *, func: str,
          min_humans: int = 2) -> Panel:
    """Validate ``judge`` and ``humans`` against the data and build the panel.

    Raises one sentence when the judge is unknown or also a human, when fewer than
    ``min_humans`` humans are left, or when the judge rated none of the humans' units.
    """
    ann = as_annotations(data, func=func)
    if judge not in ann.raters:
        raise DataError(
            f"The judge {judge!r} of {func} is not among the raters {list(ann.raters)!r}."
        )
    chosen = _humans(ann, judge, humans, func)
    if len(chosen) < min_humans:
        raise InsufficientDataError(
            f"{func} needs at least {min_humans} humans besides the judge {judge!r} (the "
            f"humans are the reference group); found {len(chosen)} ({list(chosen)!r})."
        )
    sub = ann.select([judge, *chosen])
    codes = sub.wide()
    _require_overlap(codes, sub, judge, func)
    return Panel(sub, judge, tuple(chosen), codes)


def _humans(ann: Annotations, judge: Any, humans: Sequence[Any] | None, func: str) -> list[Any]:
    if humans is None:
        return [r for r in ann.raters if r != judge and ann.kinds.get(r, "human") == "human"]
    chosen = v.names(humans, param="humans", func=func)
    unknown = [h for h in chosen if h not in ann.raters]
    if unknown:
        raise DataError(
            f"The humans {unknown!r} of {func} are not among the raters {list(ann.raters)!r}."
        )
    if judge in chosen:
        raise DataError(f"The judge {judge!r} of {func} cannot also be one of the humans.")
    if len(set(chosen)) != len(chosen):
        raise v.fail("humans", func, "distinct rater names", humans)
    return chosen


def _require_overlap(codes: NDArray[np.int64], ann: Annotations, judge: Any, func: str) -> None:
    by_judge = codes[:, 0] >= 0
    by_humans = (codes[:, 1:] >= 0).any(axis=1)
    if not np.any(by_judge & by_humans):
        judged = [ann.units[i] for i in np.flatnonzero(by_judge)[:5]]
        human = [ann.units[i] for i in np.flatnonzero(by_humans)[:5]]
        raise InsufficientDataError(
            f"The judge {judge!r} rated none of the units the humans rated, so {func} has "
            f"nothing to compare: the judge rated {int(by_judge.sum())} unit(s) (e.g. "
            f"{judged!r}), the humans {int(by_humans.sum())} (e.g. {human!r})."
        )


def numeric(p: Panel, func: str) -> NDArray[np.float64]:
    """The panel's values as numbers, ``nan`` where not rated."""
    try:
        values = np.asarray(p.ann.categories, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(
            f"{func} needs numeric ratings for this scoring, but the labels are not all "
            f"numbers: {list(p.ann.categories)[:5]!r}."
        ) from None
    out = np.full(p.codes.shape, np.nan)
    rated = p.rated
    out[rated] = values[p.codes[rated]]
    return out


def labels(p: Panel) -> NDArray[Any]:
    """The panel's labels: floats when every category is a number, else objects."""
    try:
        values: NDArray[Any] = np.asarray(p.ann.categories, dtype=np.float64)
        fill: Any = np.nan
    except (TypeError, ValueError):
        values = np.empty(len(p.ann.categories), dtype=object)
        values[:] = list(p.ann.categories)
        fill = None
    out = np.full(p.codes.shape, fill, dtype=values.dtype)
    rated = p.rated
    out[rated] = values[p.codes[rated]]
    return out
