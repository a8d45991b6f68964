"""Timing and memory shared by the benchmarks: the best time of several calls, the peak
memory of one call (``tracemalloc``), and the time and peak resident memory of a child
process (for work that bypasses Python's allocator, or that is a process itself)."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def best_of(repeat: int, func: Callable[[], Any],
            clock: Callable[[], float] = time.perf_counter) -> tuple[float, Any]:
    """Best time of ``repeat`` calls (wall clock unless ``clock`` says otherwise, e.g.
    ``time.process_time`` for CPU time), and the last return value."""
    times, out = [], None
    for _ in range(repeat):
        start = clock()
        out = func()
        times.append(clock() - start)
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


def measured(repeat: int, func: Callable[[], Any],
             clock: Callable[[], float] = time.perf_counter) -> tuple[float, float, Any]:
    """Best time of ``repeat`` calls, the peak MiB of one more (traced) call, and the
    last untraced return value."""
    seconds, out = best_of(repeat, func, clock)
    return seconds, peak_mib(func), out


def rss_mib(maxrss: int) -> float:
    """``ru_maxrss`` in MiB (the field is KiB on Linux, bytes on macOS)."""
    return maxrss / 2**20 if sys.platform == "darwin" else maxrss / 2**10


# Spawns the measured command and reports its time, peak RSS and exit code on stderr. A
# child's ru_maxrss starts from the high-water mark of the process it was spawned from
# (Linux folds the parent's memory map into it at exec), so the benchmark, which may hold
# hundreds of MiB, never spawns the measured command itself: this small interpreter does.
_LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ,
                      file_actions=[(os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
print(seconds, usage.ru_maxrss, os.waitstatus_to_exitcode(status), file=sys.stderr)
"""


def child_run(argv: Sequence[str],
              env: Mapping[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``argv`` as a fresh process: its wall-clock seconds, its peak resident set
    size in MiB (``ru_maxrss`` of that one process, from ``os.wait4``: the interpreter,
    its imports and whatever native libraries allocate) and its standard output.

    The process is spawned by a small launcher interpreter (about 9 MiB resident), not
    by the caller, so that the caller's own memory does not leak into the figure; a
    figure below the launcher's size reads as the launcher's size."""
    proc = subprocess.run([sys.executable, "-c", _LAUNCHER, *argv], env=env,
                          capture_output=True, text=True, check=True)
    seconds, maxrss, code = proc.stderr.split()
    if int(code) != 0:
        raise subprocess.CalledProcessError(int(code), list(argv), proc.stdout)
    return float(seconds), rss_mib(int(maxrss)), proc.stdout
