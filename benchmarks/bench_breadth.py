"""Kendall's W, mean correlations, Finn, Robinson, Bangdiwala's B and the marginal tests.

Scores: 10^5 units x 5 raters (continuous, so about every unit is its own pattern):
accord vs scipy (``friedmanchisquare`` for W's chi-square, ``spearmanr``) and numpy
(``corrcoef``). Labels: 10^6 units, two raters, 8 categories: accord from the raw labels
(counting included) vs statsmodels ``SquareTable`` from a table counted by numpy (its
counting is not timed). Best of ``--repeat`` wall-clock runs; the figures are checked
to agree.

Usage: ``python benchmarks/bench_breadth.py [--units N] [--raters K] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import platform

import numpy as np
from _timing import best_of


def row(task: str, ours: float, peer: float | None, peer_name: str = "") -> None:
    ratio = f"{peer / ours:6.1f}x" if peer else "      -"
    peer_s = f"{peer:8.3f} s ({peer_name})" if peer else ""
    print(f"{task:<34} accord {ours:8.3f} s   {peer_s:<32} {ratio}")


def scores(args: argparse.Namespace) -> None:
    import scipy
    from scipy import stats

    import accord

    rng = np.random.default_rng(0)
    n, k = args.units, args.raters
    x = rng.normal(size=(n, 1)) + rng.normal(size=(n, k))
    t_w, w = best_of(args.repeat, lambda: accord.kendall_w(x))
    t_f, fr = best_of(args.repeat, lambda: stats.friedmanchisquare(*x))
    assert abs(w.details["chi2"] - fr.statistic) <= 1e-6 * fr.statistic
    row("kendall_w (W, chi2)", t_w, t_f, "scipy friedmanchisquare")
    i, j = np.triu_indices(k, 1)
    t_s, rho = best_of(args.repeat, lambda: accord.mean_spearman(x, average="mean"))
    t_ss, ref = best_of(args.repeat, lambda: stats.spearmanr(x).statistic[i, j].mean())
    assert abs(rho.estimate - ref) < 1e-10
    row("mean_spearman", t_s, t_ss, "scipy spearmanr")
    t_p, r = best_of(args.repeat, lambda: accord.mean_pearson(x, average="mean"))
    t_pp, ref = best_of(args.repeat, lambda: np.corrcoef(x.T)[i, j].mean())
    assert abs(r.estimate - ref) < 1e-10
    row("mean_pearson", t_p, t_pp, "numpy corrcoef")
    row("finn (n_levels=7)", best_of(args.repeat, lambda: accord.finn(x, n_levels=7))[0], None)
    row("robinson_a", best_of(args.repeat, lambda: accord.robinson_a(x))[0], None)
    print(f"scipy {scipy.__version__}")


def labels(args: argparse.Namespace) -> None:
    import statsmodels
    import statsmodels.api as sm

    import accord

    rng = np.random.default_rng(1)
    n = 10 * args.units
    a = rng.integers(0, 8, n)
    b = np.where(rng.random(n) < 0.7, a, np.clip(a + rng.integers(-1, 2, n), 0, 7))
    t_a, res = best_of(args.repeat, lambda: accord.stuart_maxwell_test(a, b))
    table = np.bincount(a * 8 + b, minlength=64).reshape(8, 8)
    t_s, ref = best_of(args.repeat, lambda: sm.stats.SquareTable(
        table, shift_zeros=False).homogeneity())
    assert abs(res.statistic - ref.statistic) <= 1e-9 * ref.statistic
    row(f"stuart_maxwell ({n:.0e} label pairs)", t_a, t_s, "statsmodels, table given")
    row("bangdiwala_b", best_of(args.repeat, lambda: accord.bangdiwala_b(a, b))[0], None)
    t_all, _ = best_of(args.repeat, lambda: accord.marginal_tests(a, b))
    row("marginal_tests (SM, Bhapkar, Bowker)", t_all, None)
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
