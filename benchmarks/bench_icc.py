"""ICC on 10^5 targets x 5 raters: accord vs pingouin ``intraclass_corr``.

pingouin takes a long DataFrame (built before timing) and returns all six forms in one
call; accord takes the wide array. Timed: accord one form (ICC2, with its F test,
irr's figures and the 95 % F interval), accord all six forms (six calls on the array,
and six calls on one RatingMatrix, which computes the ANOVA once), pingouin's one call.
Best of ``--repeat`` wall-clock runs; the estimates are checked to agree.

Usage: ``python benchmarks/bench_icc.py [--targets N] [--raters K] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import warnings
from typing import Any

import numpy as np
from _timing import best_of


def main() -> None:
    import pandas as pd
    import pingouin

    import accord

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, default=100_000)
    parser.add_argument("--raters", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, k = args.targets, args.raters
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"pandas {pd.__version__}, pingouin {pingouin.__version__}, "
          f"accord {accord.__version__}, load average {os.getloadavg()[0]:.1f}")

    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 1)) * 1.5 + rng.normal(size=(n, k)) + np.arange(k) * 0.3
    long = pd.DataFrame({"t": np.repeat(np.arange(n), k), "r": np.tile(np.arange(k), n),
                         "s": x.reshape(-1)})

    def one() -> Any:
        res = accord.icc(x, form="ICC2")
        res.confidence_interval(0.95)
        return res

    forms = ("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k")

    def six() -> list[Any]:
        return [accord.icc(x, form=f) for f in forms]

    def six_shared() -> list[Any]:
        rm = accord.RatingMatrix(x)
        return [accord.icc(rm, form=f) for f in forms]

    def peer() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pingouin.intraclass_corr(long, "t", "r", "s")

    t_one, res = best_of(args.repeat, one)
    t_six, all_six = best_of(args.repeat, six)
    t_shared, _ = best_of(args.repeat, six_shared)
    t_peer, table = best_of(args.repeat, peer)
    diff = max(abs(r.estimate - v) for r, v in zip(all_six, table["ICC"]))
    print(f"data: {n:,} targets x {k} raters, complete")
    print(f"accord icc (ICC2 + CI)     {t_one:8.3f} s   ICC2 = {res.estimate:.12f}")
    print(f"accord icc x 6 forms       {t_six:8.3f} s   (six calls on the array)")
    print(f"accord icc x 6, one matrix {t_shared:8.3f} s   (six calls on one RatingMatrix)")
    print(f"pingouin intraclass_corr   {t_peer:8.3f} s   (all six forms; max |diff| {diff:.1e})")
    print(f"ratio pingouin / accord one form  {t_peer / t_one:6.1f}x")
    print(f"ratio pingouin / accord six forms {t_peer / t_six:6.1f}x (array), "
          f"{t_peer / t_shared:.1f}x (one RatingMatrix)")

    holes = x.copy()
    holes[rng.random(holes.shape) < 0.2] = np.nan
    t_inc, inc = best_of(args.repeat, lambda: accord.icc(holes, form="ICC2"))
    print(f"incomplete (20 % missing): accord ICC2 by Henderson method III {t_inc:.3f} s "
          f"(ICC2 = {inc.estimate:.6f}; pingouin would drop every unit with a gap)")


if __name__ == "__main__":
    main()
