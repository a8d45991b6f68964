"""Krippendorff's alpha at scale: accord vs the ``krippendorff`` package (fast-krippendorff).

Part 1: 10^6 units x 10 raters, 10 % missing, k = 5 values, nominal and interval alpha,
the same float array (NaN = missing) for both; the package gets it transposed (raters x
units), as it expects. Wall-clock time (best of ``--repeat``) and peak memory traced by
``tracemalloc`` during one call (numpy allocations are traced). accord's time includes
Gwet's SE; the package computes the estimate only.

Part 2, accord only: k = 100 values on the same 10^6 x 10 design, and fully continuous
interval (and ratio) data on 10^5 units x 3 raters with every value distinct. The package
is not run there: its ``_coincidences`` builds a units x V x V float array (10^6 x 100 x 100
x 8 B = 80 GB for k = 100) and its value counts a units x raters x V boolean array
(10^5 x 3 x 3 x 10^5 B = 90 GB for the continuous data).

Usage: ``python benchmarks/bench_krippendorff.py [--units N] [--repeat N] [--skip-peer]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import best_of


def peak_mib(func: Callable[[], Any]) -> float:
    """Peak memory traced during one call, in MiB."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def categorical(n: int, r: int, k: int, missing: float, seed: int = 0) -> np.ndarray:
    """Each rater copies a true value 70 % of the time; ``missing`` of the cells are NaN."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    x = np.where(rng.random((n, r)) < 0.7, truth[:, None], rng.integers(0, k, (n, r)))
    out = x.astype(np.float64) + 1.0
    out[rng.random((n, r)) < missing] = np.nan
    return out


def continuous(n: int, r: int, seed: int = 1) -> np.ndarray:
    """Positive scores, true value plus noise: every value distinct."""
    rng = np.random.default_rng(seed)
    x = np.abs(rng.normal(size=(n, 1)) + rng.normal(scale=0.5, size=(n, r))) + 0.01
    assert np.unique(x).size == x.size
    return x


def main() -> None:
    import krippendorff

    import accord

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-peer", action="store_true")
    args = parser.parse_args()
    from importlib.metadata import version

    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"krippendorff {version('krippendorff')}, accord {accord.__version__}, "
          f"load average {os.getloadavg()[0]:.1f}")

    data = categorical(args.units, 10, 5, 0.10)
    print(f"\n## Part 1: {args.units:,} units x 10 raters, 10 % missing, k = 5")
    for level in ("nominal", "interval"):
        run = lambda lv=level: accord.krippendorff_alpha(data, level=lv)  # noqa: E731
        t_acc, res = best_of(args.repeat, run)
        m_acc = peak_mib(run)
        line = f"{level:9s} accord {t_acc:7.3f} s  peak {m_acc:8.1f} MiB  alpha {res.estimate:.12f}"
        if not args.skip_peer:
            t_peer, peer = best_of(args.repeat, lambda lv=level: krippendorff.alpha(
                data.T, level_of_measurement=lv))
            m_peer = peak_mib(lambda lv=level: krippendorff.alpha(data.T, level_of_measurement=lv))
            line += (f"\n{'':9s} peer   {t_peer:7.3f} s  peak {m_peer:8.1f} MiB  alpha {peer:.12f}"
                     f"\n{'':9s} ratio  {t_peer / t_acc:6.1f}x faster, {m_peer / m_acc:5.1f}x less "
                     f"memory, |diff| = {abs(res.estimate - peer):.1e}")
        print(line)

    print(f"\n## Part 2 (accord only): k = 100 on {args.units:,} x 10, 10 % missing")
    wide = categorical(args.units, 10, 100, 0.10, seed=2)
    for level in ("nominal", "interval"):
        t, res = best_of(1, lambda lv=level: accord.krippendorff_alpha(wide, level=lv))
        print(f"{level:9s} accord {t:7.3f} s  alpha {res.estimate:.12f}  se {res.se:.3e}")
    gigabytes = args.units * 100 * 100 * 8 / 1e9
    print(f"{'':9s} peer not run: units x V x V float64 = {gigabytes:.0f} GB")

    n_cont = max(args.units // 10, 1000)
    cont = continuous(n_cont, 3)
    print(f"\n## Part 2 (accord only): continuous, {n_cont:,} units x 3 raters, "
          f"{cont.size:,} distinct values")
    for level in ("interval", "ordinal", "ratio"):
        t, res = best_of(1, lambda lv=level: accord.krippendorff_alpha(cont, level=lv))
        m = peak_mib(lambda lv=level: accord.krippendorff_alpha(cont, level=lv))
        print(f"{level:9s} accord {t:7.3f} s  peak {m:8.1f} MiB  alpha {res.estimate:.12f}")
    print(f"{'':9s} peer not run: units x raters x V booleans = "
          f"{n_cont * 3 * cont.size / 1e9:.0f} GB")


if __name__ == "__main__":
    main()
