"""Fleiss' kappa on 10^6 units x 10 raters: accord vs statsmodels.

Both start from the same units x raters integer array. statsmodels needs its
``aggregate_raters`` step (units x categories counts) before ``fleiss_kappa``;
accord counts with one ``np.bincount`` and also computes Gwet's SE, the
Fleiss-Nee-Landis null SE and the per-category kappas. The two estimates are
checked to agree to 1e-10 (summation order differs over 10^6 units).

Usage: ``python benchmarks/bench_fleiss.py [--units N] [--raters R] [--categories K]
[--repeat N]``. Timings are the best of ``--repeat`` runs (wall clock).
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
from _timing import measured


def make_data(n: int, r: int, k: int, seed: int = 0) -> np.ndarray:
    """Ratings with real agreement: each rater copies a true label 60 % of the time."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, size=n)
    noise = rng.integers(0, k, size=(n, r))
    return np.where(rng.random((n, r)) < 0.6, truth[:, None], noise).astype(np.int64)


def main() -> None:
    import statsmodels
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    import accord

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=1_000_000)
    parser.add_argument("--raters", type=int, default=10)
    parser.add_argument("--categories", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    data = make_data(args.units, args.raters, args.categories)
    print(f"data: {args.units:,} units x {args.raters} raters, {args.categories} categories")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"statsmodels {statsmodels.__version__}, accord {accord.__version__}")

    t_acc, m_acc, res = measured(args.repeat, lambda: accord.fleiss_kappa(data))
    t_agg, m_agg, table = measured(args.repeat, lambda: aggregate_raters(data)[0])
    t_fk, m_fk, peer = measured(args.repeat, lambda: fleiss_kappa(table))
    t_sm, m_sm = t_agg + t_fk, max(m_agg, m_fk)
    if abs(res.estimate - peer) > 1e-10:
        raise SystemExit(f"estimates differ: accord {res.estimate!r}, statsmodels {peer!r}")
    print(f"estimate: accord {res.estimate:.15f} (SE {res.se:.6f}), statsmodels {peer:.15f}")
    print(f"input array: {data.nbytes / 2**20:.0f} MiB; peak = tracemalloc peak of one call")
    print(f"accord fleiss_kappa (count + estimate + SEs + per category): {t_acc:8.3f} s, "
          f"peak {m_acc:7.1f} MiB")
    print(f"statsmodels aggregate_raters: {t_agg:8.3f} s (peak {m_agg:.1f} MiB), "
          f"fleiss_kappa: {t_fk:8.3f} s (peak {m_fk:.1f} MiB), total {t_sm:8.3f} s")
    print(f"ratio statsmodels / accord: {t_sm / t_acc:6.1f}x time, "
          f"{m_sm / m_acc:6.1f}x peak memory")


if __name__ == "__main__":
    main()
