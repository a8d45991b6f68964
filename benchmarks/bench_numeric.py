"""Continuous alpha and Fleiss' kappa on float arrays with NaN, against numpy floors.

interval alpha: 10^6 units x 3 raters of continuous scores (every value distinct),
    10 % missing. Floor: the closed form of Krippendorff's interval alpha from
    per-unit sums, ``D_o = sum_u 2 (m_u S2_u - S1_u^2) / (m_u - 1) / n`` and
    ``D_e = 2 (n S2 - S1^2) / (n (n - 1))`` over the n pairable values, in numpy;
    accord's estimate must equal it to 1e-12 (accord also computes Gwet's SE).
ratio alpha: the same design, absolute values of the scores. The ratio metric has no
    closed form from sums (its D_e is a sum over all pairs of values, done by accord
    by Chebyshev interpolation on bins of 16 per octave, 9 points each), so no numpy
    floor gives the same answer in O(n); the floor shown is the interval one, the least
    work any alpha of these scores needs (a lower bound, not an equal).
Fleiss' kappa: 10^6 units x 10 raters, labels 0-4 as floats, 10 % NaN. Floor:
    per-unit category counts by one ``np.bincount`` and the kappa formula; the
    estimates must agree to 1e-10 (kappa is near 0 on these random labels, so the
    difference p_a - p_e cancels and the order of summation shows at 1e-12).

Each case runs at every size in ``--units`` (default 10^4, 10^5 and 10^6 units), to
show time and memory growing in proportion to n. Time is the best of ``--repeat``
wall-clock runs, and the best of as many CPU (process) times, which other jobs on a
shared machine disturb less; memory is the ``tracemalloc`` peak of one further call
(numpy allocations are traced), next to the input size.

Usage: ``python benchmarks/bench_numeric.py [--units 10000 100000 1000000] [--repeat 3]
[--cases interval ratio fleiss]``.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import best_of


def interval_floor(x: np.ndarray[Any, Any]) -> float:
    """Krippendorff's interval alpha from per-unit sums (pairable units only)."""
    ok = ~np.isnan(x)
    m = ok.sum(axis=1)
    v = np.where(ok, x, 0.0)
    s1, s2 = v.sum(axis=1), (v * v).sum(axis=1)
    keep = m >= 2
    m, s1, s2 = m[keep], s1[keep], s2[keep]
    n = m.sum()
    d_o = (2 * (m * s2 - s1 * s1) / (m - 1)).sum() / n
    d_e = 2 * (n * s2.sum() - s1.sum() ** 2) / (n * (n - 1))
    return float(1 - d_o / d_e)


def fleiss_floor(x: np.ndarray[Any, Any], k: int = 5) -> float:
    """Fleiss' kappa from per-unit counts (units rated at least twice)."""
    ok = ~np.isnan(x)
    rows = np.nonzero(ok)[0]
    counts = np.bincount(rows * k + x[ok].astype(np.int64),
                         minlength=x.shape[0] * k).reshape(-1, k)
    m = counts.sum(axis=1)
    counts, m = counts[m >= 2], m[m >= 2]
    p_a = ((counts * (counts - 1)).sum(axis=1) / (m * (m - 1))).mean()
    pi = (counts / m[:, None]).mean(axis=0)
    p_e = (pi * pi).sum()
    return float((p_a - p_e) / (1 - p_e))


def timed(f: Callable[[], Any], repeat: int) -> tuple[Any, tuple[float, float, float]]:
    """The result; best wall-clock and best CPU (process) seconds; tracemalloc peak MiB."""
    seconds, out = best_of(repeat, f)
    cpu = float("inf")
    for _ in range(repeat):  # CPU time: less disturbed by other jobs on the machine
        start = time.process_time()
        f()
        cpu = min(cpu, time.process_time() - start)
    tracemalloc.start()
    f()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out, (seconds, cpu, peak / 2**20)


def row(case: str, shape: str, nbytes: int, mine: tuple[float, float, float],
        floor: tuple[float, float, float]) -> str:
    (a_s, a_cpu, a_mb), (f_s, f_cpu, f_mb) = mine, floor
    return (f"| {case} | {shape}, {nbytes / 2**20:.1f} MiB | {a_s:.3f} s | {a_cpu:.3f} s | "
            f"{a_mb:.1f} MiB | {f_s:.3f} s | {f_cpu:.3f} s | {f_mb:.1f} MiB | "
            f"{a_s / f_s:.1f}x | {a_cpu / f_cpu:.1f}x | {a_mb / f_mb:.1f}x |")


def run_alpha(n: int, cases: list[str], repeat: int) -> None:
    import accord

    rng = np.random.default_rng(0)
    x = rng.normal(50, 10, (n, 3))
    x[rng.random(x.shape) < 0.1] = np.nan
    floor, f_fig = timed(lambda: interval_floor(x), repeat)
    for level in [c for c in ("interval", "ratio") if c in cases]:
        data = x if level == "interval" else np.abs(x)  # a ratio scale: non-negative
        res, a_fig = timed(
            lambda d=data, lv=level: accord.krippendorff_alpha(d, level=lv), repeat)
        if level == "interval":
            assert abs(res.estimate - floor) < 1e-12, (res.estimate, floor)
        print(row(f"{level} alpha", f"{n} x 3", x.nbytes, a_fig, f_fig), flush=True)


def run_fleiss(n: int, repeat: int) -> None:
    import accord

    rng = np.random.default_rng(1)
    labels = rng.integers(0, 5, (n, 10)).astype(np.float64)
    labels[rng.random(labels.shape) < 0.1] = np.nan
    floor, f_fig = timed(lambda: fleiss_floor(labels), repeat)
    res, a_fig = timed(lambda: accord.fleiss_kappa(labels), repeat)
    # kappa near 0 here: p_a - p_e cancels, so summation order shows at ~1e-12
    assert abs(res.estimate - floor) < 1e-10, (res.estimate, floor)
    print(row("Fleiss' kappa (floats, NaN)", f"{n} x 10", labels.nbytes, a_fig, f_fig),
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", nargs="+", choices=["interval", "ratio", "fleiss"],
                        default=["interval", "ratio", "fleiss"])
    args = parser.parse_args()
    import accord

    warm = np.abs(np.random.default_rng(2).normal(50, 10, (200, 3)))
    for level in ("interval", "ratio"):  # warm-up: lazy imports are not timed
        accord.krippendorff_alpha(warm, level=level)
    accord.fleiss_kappa(np.round(warm / 25))
    print(f"numpy {np.__version__}; best of {args.repeat}")
    print("| case | input | accord | accord CPU | accord peak | floor | floor CPU | floor peak "
          "| ratio | CPU ratio | memory ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.units:
        run_alpha(n, args.cases, args.repeat)
        if "fleiss" in args.cases:
            run_fleiss(n, args.repeat)


if __name__ == "__main__":
    main()
