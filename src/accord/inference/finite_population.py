"""Finite-population correction of an interval (Gwet 2014, ch. 5).

When the rated units are a sample of ``n`` from a finite population of ``N``
units (e.g. 400 of the 2,000 documents of a corpus) and the agreement of the
*population* is the target, the sampling variance shrinks by the factor
``f = 1 - n / N`` (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed.,
eq. 5.4 and the ``N`` argument of irrCAC). A census (``n = N``) has no sampling
variance at all.

An interval ``estimate +/- z se`` becomes ``estimate +/- z se sqrt(f)``. For a
jackknife or bootstrap interval accord applies the same factor to the
distances of both limits from the estimate, which multiplies the variance of
the (bootstrap) distribution by ``f`` exactly and keeps its shape.
"""

from __future__ import annotations

import math
import numbers

from accord.data import _validation as v


def fpc_factor(n_units: int, population_size: object, *, func: str) -> float:
    """``sqrt(1 - n / N)``, validating ``N`` (a whole number of units, at least ``n``).

    Examples
    --------
    >>> fpc_factor(400, 2000, func="confidence_interval")
    0.894427190999916
    """
    ok = isinstance(population_size, numbers.Integral) and not isinstance(population_size, bool)
    if not ok or int(population_size) < max(n_units, 1):  # type: ignore[call-overload]
        raise v.fail("population_size", func,
                     f"a whole number of units at least the {n_units} units rated",
                     population_size)
    return math.sqrt(1.0 - n_units / int(population_size))  # type: ignore[call-overload]


def shrink(estimate: float, low: float, high: float, factor: float) -> tuple[float, float]:
    """Move both limits toward ``estimate`` by ``factor`` (``sqrt(1 - n/N)``)."""
    return estimate + factor * (low - estimate), estimate + factor * (high - estimate)
