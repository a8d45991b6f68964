"""Continuous alpha and Fleiss' kappa on float arrays with NaN, against numpy floors.

interval alpha: 10^6 units x 3 raters of continuous scores (every value distinct),
    10 % missing. Floor: the closed form of Krippendorff's interval alpha from
    per-unit sums, ``D_o = sum_u 2 (m_u S2_u - S1_u^2) / (m_u - 1) / n`` and
    ``D_e = 2 (n S2 - S1^2) / (n (n - 1))`` over the n pairable values, in numpy;
    accord's estimate must equal it to 1e-12 (accord also computes Gwet's SE).
ratio alpha: the same design, absolute values of the scores; accord only (the ratio
    metric has no closed form from sums; the floor shown is the interval one).
Fleiss' kappa: 10^6 units x 10 raters, labels 0-4 as floats, 10 % NaN. Floor:
    per-unit category counts by one ``np.bincount`` and the kappa formula; the
    estimates must agree to 1e-10 (kappa is near 0 on these random labels, so the
    difference p_a - p_e cancels and the order of summation shows at 1e-12).

Time is the best of ``--repeat`` wall-clock runs; memory is the ``tracemalloc``
peak of one further call (numpy allocations are traced), next to the input size.

Usage: ``python benchmarks/bench_numeric.py [--units 1000000] [--repeat 2]
[--cases interval ratio fleiss]``.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np


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


def timed(f: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    best = float("inf")
    out = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    f()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out, best, peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cases", nargs="+", choices=["interval", "ratio", "fleiss"],
                        default=["interval", "ratio", "fleiss"])
    args = parser.parse_args()
    import accord

    rng = np.random.default_rng(0)
    n = args.units
    x = rng.normal(50, 10, (n, 3))
    x[rng.random(x.shape) < 0.1] = np.nan
    labels = rng.integers(0, 5, (n, 10)).astype(np.float64)
    labels[rng.random(labels.shape) < 0.1] = np.nan
    for level in ("interval", "ratio"):  # warm-up: lazy imports are not timed
        accord.krippendorff_alpha(np.abs(x[:100]), level=level)
    accord.fleiss_kappa(labels[:100])
    print(f"numpy {np.__version__}; {n} units")
    print("| case | input | accord time | accord peak | floor time | floor peak | "
          "time ratio | memory ratio |")
    print("|---|---|---|---|---|---|---|---|")
    floor, f_s, f_mb = timed(lambda: interval_floor(x), args.repeat)
    for level in [c for c in ("interval", "ratio") if c in args.cases]:
        data = x if level == "interval" else np.abs(x)  # a ratio scale: non-negative
        res, a_s, a_mb = timed(
            lambda d=data, lv=level: accord.krippendorff_alpha(d, level=lv), args.repeat)
        if level == "interval":
            assert abs(res.estimate - floor) < 1e-12, (res.estimate, floor)
        print(f"| {level} alpha (continuous) | {n} x 3, {x.nbytes / 2**20:.0f} MiB | "
              f"{a_s:.2f} s | {a_mb:.0f} MiB | {f_s:.2f} s | {f_mb:.0f} MiB | "
              f"{a_s / f_s:.1f}x | {a_mb / f_mb:.1f}x |", flush=True)
    if "fleiss" not in args.cases:
        return
    floor, f_s, f_mb = timed(lambda: fleiss_floor(labels), args.repeat)
    res, a_s, a_mb = timed(lambda: accord.fleiss_kappa(labels), args.repeat)
    # kappa near 0 here: p_a - p_e cancels, so summation order shows at ~1e-12
    assert abs(res.estimate - floor) < 1e-10, (res.estimate, floor)
    print(f"| Fleiss' kappa (float, NaN) | {n} x 10, {labels.nbytes / 2**20:.0f} MiB | "
          f"{a_s:.2f} s | {a_mb:.0f} MiB | {f_s:.2f} s | {f_mb:.0f} MiB | "
          f"{a_s / f_s:.1f}x | {a_mb / f_mb:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
