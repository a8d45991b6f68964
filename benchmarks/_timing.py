"""Timing shared by the benchmarks: the best wall-clock time of several calls."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, func: Callable[[], Any]) -> tuple[float, Any]:
    """Best wall-clock time of ``repeat`` calls, and the last return value."""
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - start)
    return min(times), out
