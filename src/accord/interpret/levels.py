"""Whether labels read as nominal categories look like an ordered scale.

Integer labels such as 1..5 are read as nominal categories unless a level is
declared, so a near miss (4 against 5) counts as much as a far one (1 against 5):
Krippendorff's alpha on five raters' 1-5 scores can be half its ordinal value.
Nominal stays the default (a code book may number unordered categories), but the
reading is said as a caveat on the first line of every output that uses it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["LEVEL_CAVEAT", "ordered_look"]

#: The caveat's first words, to find it among the others.
LEVEL_CAVEAT = "level nominal"

#: The widest span of integers read as a rating scale (0..10 and 1..11 are scales; ids
#: or counts spread wider, and accord's own "guessed level" caveat speaks of those).
MAX_SPAN = 11


def ordered_look(categories: Iterable[Any], level: str | None) -> str | None:
    """The caveat when undeclared ``level`` leaves integer scale values nominal, else None.

    The values look like a scale when there are at least three of them, all
    integers (``bool`` excepted) spanning at most 11 consecutive numbers. Two
    values are left alone: every level gives the same coefficients on them.

    Examples
    --------
    >>> ordered_look([1, 2, 3, 4, 5], None)
    "level nominal: the values 1..5 look ordered; pass level='ordinal' or level='interval'"
    >>> ordered_look([1, 2, 3, 4, 5], "ordinal") is None
    True
    >>> ordered_look(["low", "mid", "high"], None) is None
    True
    """
    if level is not None:
        return None
    values = [_integer(x) for x in categories]
    if len(values) < 3 or any(v is None for v in values):
        return None
    low, high = min(values), max(values)  # type: ignore[type-var]
    if high - low + 1 > MAX_SPAN:  # type: ignore[operator]
        return None
    return (f"{LEVEL_CAVEAT}: the values {low}..{high} look ordered; pass "
            "level='ordinal' or level='interval'")


def _integer(x: Any) -> int | None:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.number)):
        return None
    f = float(x)
    return int(f) if math.isfinite(f) and f.is_integer() else None
