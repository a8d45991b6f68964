"""Timing and memory shared by the benchmarks: the best wall-clock time of several calls
and the peak memory of one call."""

from __future__ import annotations

import gc
import time
import tracemalloc
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


def peak_mib(func: Callable[[], Any]) -> float:
    """Peak memory allocated during one call of ``func``, in MiB, as ``tracemalloc`` sees
    it: Python objects and numpy arrays (numpy reports its buffers to tracemalloc), not
    native libraries that bypass Python's allocator (polars, Arrow). The call is not
    timed: tracing slows Python-level code down."""
    gc.collect()
    tracemalloc.start()
    try:
        func()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20


def measured(repeat: int, func: Callable[[], Any]) -> tuple[float, float, Any]:
    """Best time of ``repeat`` calls, the peak MiB of one more (traced) call, and the
    last untraced return value."""
    seconds, out = best_of(repeat, func)
    return seconds, peak_mib(func), out
