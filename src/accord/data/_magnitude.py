"""Scores of any magnitude, computed without overflow or underflow.

Sums of squares of scores near ``1e150`` overflow a 64-bit float, and those of
scores near ``1e-200`` underflow to 0; either turns a well-defined coefficient
into a false "undefined" or an ``OverflowError``. The intraclass correlations
and interval/ratio alpha are unchanged when every score is multiplied by the
same positive number (they are ratios of mean squares, or of squared
differences), so extreme scores are first multiplied by a power of two, which
is exact in binary floating point: scores between ``2**-64`` and ``2**64`` in
absolute value are used as they are, bit for bit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["power_of_two_scale"]

_LOW, _HIGH = 2.0**-64, 2.0**64


def power_of_two_scale(values: NDArray[Any]) -> float:
    """The power of two bringing the largest finite ``|value|`` into [0.5, 1), or 1.0.

    Examples
    --------
    >>> power_of_two_scale(np.array([3.0, 1e150])) == 2.0**-499
    True
    >>> power_of_two_scale(np.array([1.0, 7.5, np.nan]))
    1.0
    """
    finite = np.abs(values[np.isfinite(values)])
    if finite.size == 0:
        return 1.0
    top = float(finite.max())
    if top == 0.0 or _LOW <= top <= _HIGH:
        return 1.0
    return math.ldexp(1.0, -math.frexp(top)[1])
