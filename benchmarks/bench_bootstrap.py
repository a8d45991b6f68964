"""Bootstrap speed: accord's pattern bootstrap against naive resample-and-recompute loops.

Run by hand::

    .venv/bin/python benchmarks/bench_bootstrap.py [--quick]

Two cases from issue 4:

1. a 9999-resample percentile interval for Cohen's kappa on 10^6 units
   (3 categories); target < 1 s. Peers: a loop that draws 10^6 unit indices
   and calls scikit-learn ``cohen_kappa_score`` per resample, and the same loop
   recounting the table with ``np.bincount`` (the fastest naive loop in numpy).
2. a 9999-resample percentile interval for Krippendorff's alpha (nominal) on
   10^5 units x 5 raters; target < 10 s. Peer: a loop calling the
   ``krippendorff`` package's ``alpha`` on each resample.
3. a 9999-resample percentile interval for Light's kappa (the mean of 190
   pairwise Cohen's kappas) on 10^4 units x 20 raters x 10 categories. Peer: a
   loop calling scikit-learn ``cohen_kappa_score`` on every pair of each resample.

The naive loops are far too slow to run 9999 times, so each runs a few
resamples and the time per resample is multiplied by 9999 (printed as
"extrapolated"). All timings are wall-clock on the machine at hand, best of
``--repeat`` runs for accord. Peak memory is the ``tracemalloc`` peak of one more,
untimed call: accord's is the larger of the coefficient's and the interval's, a naive
loop's is that of one resample (the loop frees each before the next, so its peak does
not grow with the number of resamples).
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

import numpy as np
from _timing import measured, peak_mib

import accord

B = 9999


def _per_resample(step: Callable[[np.random.Generator], object], n: int) -> tuple[float, float]:
    """Mean seconds per resample of ``n`` (after a warm-up) and one resample's peak MiB."""
    rng = np.random.default_rng(1)
    step(rng)  # warm-up
    t0 = time.perf_counter()
    for _ in range(n):
        step(rng)
    return (time.perf_counter() - t0) / n, peak_mib(lambda: step(rng))


def _header() -> None:
    print(f"  {'':<46} {'time':>12} {'vs accord':>11} {'peak MiB':>9} {'vs accord':>10}")


def _row(name: str, fig: tuple[float, float], ref: tuple[float, float], note: str = "") -> None:
    """One line: seconds and peak MiB, each with its ratio to accord's."""
    (seconds, peak), (ref_s, ref_m) = fig, ref
    print(f"  {name:<46} {seconds:>10.3f} s {seconds / ref_s:>10.0f}x {peak:>9.1f} "
          f"{peak / ref_m:>9.2f}x {note}")


def cohen_case(n_units: int, repeat: int, naive_n: int) -> dict[str, float]:
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(0)
    a = rng.integers(0, 3, n_units)
    b = np.where(rng.random(n_units) < 0.7, a, rng.integers(0, 3, n_units))
    fit, m_fit, res = measured(repeat, lambda: accord.cohen_kappa(a, b))
    method = accord.Bootstrap(B, rng=1)
    ci_time, m_ci, ci = measured(repeat, lambda: res.confidence_interval(0.95, method=method))

    def sk(g: np.random.Generator) -> float:
        idx = g.integers(0, n_units, n_units)
        return float(cohen_kappa_score(a[idx], b[idx]))

    def npy(g: np.random.Generator) -> float:
        idx = g.integers(0, n_units, n_units)
        t = np.bincount(a[idx] * 3 + b[idx], minlength=9).reshape(3, 3) / n_units
        pe = t.sum(1) @ t.sum(0)
        return float((np.trace(t) - pe) / (1 - pe))

    sk_one, m_sk = _per_resample(sk, naive_n)
    np_one, m_np = _per_resample(npy, naive_n)
    ours = (fit + ci_time, max(m_fit, m_ci))
    print(f"\nCohen's kappa, {n_units:,} units, {B} percentile resamples")
    print(f"  estimate {res.estimate:.6f}, 95% CI {ci.low:.6f} to {ci.high:.6f}")
    _header()
    _row("accord: cohen_kappa + confidence_interval", ours, ours,
         f"(count {fit:.3f} s, {m_fit:.1f} MiB + interval {ci_time:.3f} s, {m_ci:.1f} MiB)")
    _row("naive loop, sklearn cohen_kappa_score", (sk_one * B, m_sk), ours,
         f"(extrapolated from {naive_n} resamples)")
    _row("naive loop, numpy bincount", (np_one * B, m_np), ours,
         f"(extrapolated from {naive_n})")
    return {"accord": ours[0], "sklearn": sk_one * B, "numpy": np_one * B}


def alpha_case(n_units: int, n_raters: int, repeat: int, naive_n: int) -> dict[str, float]:
    import krippendorff

    try:
        from accord.coefficients.krippendorff import krippendorff_alpha
    except ImportError:
        print("\nKrippendorff's alpha: not in this tree yet; skipped")
        return {}
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 4, n_units)
    data = np.where(rng.random((n_units, n_raters)) < 0.7, truth[:, None],
                    rng.integers(0, 4, (n_units, n_raters))).astype(np.float64)
    data[rng.random(data.shape) < 0.1] = np.nan  # 10 % not rated
    fit, m_fit, res = measured(repeat, lambda: krippendorff_alpha(data))
    method = accord.Bootstrap(B, rng=1)
    ci_time, m_ci, ci = measured(repeat, lambda: res.confidence_interval(0.95, method=method))
    reference = krippendorff.alpha(reliability_data=data.T, level_of_measurement="nominal")

    def kp(g: np.random.Generator) -> float:
        idx = g.integers(0, n_units, n_units)
        return float(krippendorff.alpha(reliability_data=data[idx].T,
                                        level_of_measurement="nominal"))

    kp_one, m_kp = _per_resample(kp, naive_n)
    ours = (fit + ci_time, max(m_fit, m_ci))
    print(f"\nKrippendorff's alpha (nominal), {n_units:,} units x {n_raters} raters, "
          f"{B} percentile resamples")
    print(f"  estimate {res.estimate:.10f} (krippendorff package {reference:.10f}), "
          f"95% CI {ci.low:.6f} to {ci.high:.6f}, {ci.n_excluded} excluded")
    _header()
    _row("accord: krippendorff_alpha + confidence_interval", ours, ours,
         f"(count {fit:.3f} s, {m_fit:.1f} MiB + interval {ci_time:.3f} s, {m_ci:.1f} MiB)")
    _row("naive loop, krippendorff.alpha", (kp_one * B, m_kp), ours,
         f"(extrapolated from {naive_n} resamples)")
    return {"accord": ours[0], "krippendorff": kp_one * B}


def light_case(n_units: int, n_raters: int, repeat: int, naive_n: int) -> dict[str, float]:
    from itertools import combinations

    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(0)
    truth = rng.integers(0, 10, n_units)
    data = np.where(rng.random((n_units, n_raters)) < 0.7, truth[:, None],
                    rng.integers(0, 10, (n_units, n_raters)))
    fit, m_fit, res = measured(repeat, lambda: accord.light_kappa(data))
    method = accord.Bootstrap(B, rng=1)
    ci_time, m_ci, ci = measured(repeat, lambda: res.confidence_interval(0.95, method=method))
    pairs = list(combinations(range(n_raters), 2))

    def sk(g: np.random.Generator) -> float:
        sample = data[g.integers(0, n_units, n_units)]
        return float(np.mean([cohen_kappa_score(sample[:, i], sample[:, j]) for i, j in pairs]))

    sk_one, m_sk = _per_resample(sk, naive_n)
    ours = (fit + ci_time, max(m_fit, m_ci))
    print(f"\nLight's kappa, {n_units:,} units x {n_raters} raters x 10 categories "
          f"({len(pairs)} pairs), {B} percentile resamples")
    print(f"  estimate {res.estimate:.6f}, 95% CI {ci.low:.6f} to {ci.high:.6f}")
    _header()
    _row("accord: light_kappa + confidence_interval", ours, ours,
         f"(estimate {fit:.3f} s, {m_fit:.1f} MiB + interval {ci_time:.3f} s, {m_ci:.1f} MiB)")
    _row("naive loop, sklearn cohen_kappa_score x pairs", (sk_one * B, m_sk), ours,
         f"(extrapolated from {naive_n} resamples)")
    return {"accord": ours[0], "sklearn": sk_one * B, "peak_mib": m_ci}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller data")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(f"accord {accord.__version__}, numpy {np.__version__}, Python "
          f"{platform.python_version()}, {platform.machine()}")
    cohen = cohen_case(1_000_000 // scale, args.repeat, naive_n=5)
    alpha = alpha_case(100_000 // scale, 5, args.repeat, naive_n=3)
    light_case(10_000 // scale, 20, args.repeat, naive_n=2)
    print("\nTargets: Cohen's kappa < 1 s: "
          f"{'met' if cohen['accord'] < 1 else 'NOT met'}", end="")
    if alpha:
        print(f"; Krippendorff's alpha < 10 s: {'met' if alpha['accord'] < 10 else 'NOT met'}")
    else:
        print()


if __name__ == "__main__":
    main()
