"""Kendall's W, mean correlations, Finn, Robinson, Bangdiwala's B and the marginal tests.

Scores: 10^5 units x 5 raters (continuous, so about every unit is its own pattern):
accord vs scipy (``friedmanchisquare`` for W's chi-square, ``spearmanr``) and numpy
(``corrcoef``). Labels: 10^6 units, two raters, 8 categories: accord from the raw labels
(counting included) vs statsmodels ``SquareTable`` from a table counted by numpy (its
counting is not timed). Best of ``--repeat`` wall-clock runs; peak memory is the
``tracemalloc`` peak of one more call (untimed), measured the same way for accord and
the peers. The figures are checked to agree.

Usage: ``python benchmarks/bench_breadth.py [--units N] [--raters K] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import platform
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import measured

Figure = tuple[float, float]  # best seconds, peak MiB


def row(task: str, ours: Figure, peer: Figure | None = None, peer_name: str = "") -> None:
    """One line: accord's time and peak, the peer's, and peer / accord for both."""
    mine = f"accord {ours[0]:8.3f} s {ours[1]:7.1f} MiB"
    if peer is None:
        print(f"{task:<36} {mine}")
        return
    ratio = f"{peer[0] / ours[0]:6.1f}x time {peer[1] / ours[1]:6.1f}x memory"
    print(f"{task:<36} {mine}   {peer_name} {peer[0]:8.3f} s {peer[1]:7.1f} MiB   {ratio}")


def timed(repeat: int, func: Callable[[], Any]) -> tuple[Figure, Any]:
    seconds, peak, out = measured(repeat, func)
    return (seconds, peak), out


def scores(args: argparse.Namespace) -> None:
    import scipy
    from scipy import stats

    import accord

    rng = np.random.default_rng(0)
    n, k = args.units, args.raters
    x = rng.normal(size=(n, 1)) + rng.normal(size=(n, k))
    print(f"scores: {n:,} units x {k} raters ({x.nbytes / 2**20:.1f} MiB); peer / accord")
    f_w, w = timed(args.repeat, lambda: accord.kendall_w(x))
    f_f, fr = timed(args.repeat, lambda: stats.friedmanchisquare(*x))
    assert abs(w.details["chi2"] - fr.statistic) <= 1e-6 * fr.statistic
    row("kendall_w (W, chi2)", f_w, f_f, "scipy friedmanchisquare")
    i, j = np.triu_indices(k, 1)
    f_s, rho = timed(args.repeat, lambda: accord.mean_spearman(x, average="mean"))
    f_ss, ref = timed(args.repeat, lambda: stats.spearmanr(x).statistic[i, j].mean())
    assert abs(rho.estimate - ref) < 1e-10
    row("mean_spearman", f_s, f_ss, "scipy spearmanr")
    f_p, r = timed(args.repeat, lambda: accord.mean_pearson(x, average="mean"))
    f_pp, ref = timed(args.repeat, lambda: np.corrcoef(x.T)[i, j].mean())
    assert abs(r.estimate - ref) < 1e-10
    row("mean_pearson", f_p, f_pp, "numpy corrcoef")
    row("finn (n_levels=7)", timed(args.repeat, lambda: accord.finn(x, n_levels=7))[0])
    row("robinson_a", timed(args.repeat, lambda: accord.robinson_a(x))[0])
    print(f"scipy {scipy.__version__}")


def labels(args: argparse.Namespace) -> None:
    import statsmodels
    import statsmodels.api as sm

    import accord

    rng = np.random.default_rng(1)
    n = 10 * args.units
    a = rng.integers(0, 8, n)
    b = np.where(rng.random(n) < 0.7, a, np.clip(a + rng.integers(-1, 2, n), 0, 7))
    print(f"labels: {n:,} pairs ({(a.nbytes + b.nbytes) / 2**20:.1f} MiB); peer / accord")
    f_a, res = timed(args.repeat, lambda: accord.stuart_maxwell_test(a, b))
    table = np.bincount(a * 8 + b, minlength=64).reshape(8, 8)
    f_s, ref = timed(args.repeat, lambda: sm.stats.SquareTable(
        table, shift_zeros=False).homogeneity())
    assert abs(res.statistic - ref.statistic) <= 1e-9 * ref.statistic
    row(f"stuart_maxwell ({n:.0e} label pairs)", f_a, f_s, "statsmodels, table given")
    row("bangdiwala_b", timed(args.repeat, lambda: accord.bangdiwala_b(a, b))[0])
    row("marginal_tests (SM, Bhapkar, Bowker)",
        timed(args.repeat, lambda: accord.marginal_tests(a, b))[0])
    print(f"statsmodels {statsmodels.__version__}")


def main() -> None:
    import accord

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=100_000)
    parser.add_argument("--raters", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"accord {accord.__version__}, load average {os.getloadavg()[0]:.1f}")
    scores(args)
    labels(args)


if __name__ == "__main__":
    main()
