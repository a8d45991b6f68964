"""ICC: accord vs pingouin ``intraclass_corr``, the six forms on incomplete data, and crowds.

1. 10^5 targets x 5 raters, complete. pingouin takes a long DataFrame (built before
   timing) and returns all six forms in one call; accord takes the wide array. Timed:
   accord one form (ICC2, with its F test, irr's figures and the 95 % F interval),
   accord all six forms (six calls on the array, and six calls on one RatingMatrix,
   which computes the ANOVA once), pingouin's one call. The estimates are checked
   to agree.
2. The same data with 20 % of the scores missing (Henderson's Method III): one form,
   six calls on the array, six calls on one RatingMatrix (one pass over the ratings).
   pingouin would drop every unit with a gap, so it is not run.
3. ``--crowd``: ICC(2,1) and its F interval from ``Annotations`` of a crowd-shaped
   incomplete design (``benchmarks/_crowd_data.py``: ``--crowd-units`` units,
   ``--crowd-raters`` workers, about ``--per-unit`` ratings per unit, integer scores
   0-4 read as interval), next to the units x raters x 8 bytes a dense matrix would
   need; then all six forms on one RatingMatrix. ``--mixed``: the same shape made in
   memory with each unit's workers drawn with a random step (workers mixed at random,
   as when they pick items freely), where the file's generator lines them up in a ring.
   Memory: tracemalloc's peak during the ICC calls (the file is read before) and the
   process's peak RSS at the end.
4. ``--report``: ``accord report FILE --unit comment_id --rater worker_id --value toxicity
   --level interval`` on that crowd file (Krippendorff's alpha and ICC(2,1)), then with
   ``--ci bootstrap --n-resamples 999 --seed 1``, each in a fresh interpreter: time
   and peak RSS (the read included).

Best of ``--repeat`` wall-clock runs. Parts 1 and 2 also run on earlier versions of
accord, for "before" figures (without ``--crowd``).

Usage: ``python benchmarks/bench_icc.py [--targets N] [--raters K] [--repeat N]
[--crowd] [--crowd-units N] [--crowd-raters K] [--per-unit M] [--mixed] [--report]
[--skip-peer]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time
import tracemalloc
import warnings
from typing import Any

import numpy as np
from _timing import best_of

FORMS = ("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k")


def complete_part(x: np.ndarray, repeat: int, peer: bool) -> None:
    import accord

    def one() -> Any:
        res = accord.icc(x, form="ICC2")
        res.confidence_interval(0.95)
        return res

    t_one, res = best_of(repeat, one)
    t_six, all_six = best_of(repeat, lambda: [accord.icc(x, form=f) for f in FORMS])
    t_shared, _ = best_of(repeat, lambda: _shared(x))
    n, k = x.shape
    print(f"data: {n:,} targets x {k} raters, complete")
    print(f"accord icc (ICC2 + CI)     {t_one:8.3f} s   ICC2 = {res.estimate:.12f}")
    print(f"accord icc x 6 forms       {t_six:8.3f} s   (six calls on the array)")
    print(f"accord icc x 6, one matrix {t_shared:8.3f} s   (six calls on one RatingMatrix)")
    if not peer:
        return
    import pandas as pd
    import pingouin

    long = pd.DataFrame({"t": np.repeat(np.arange(n), k), "r": np.tile(np.arange(k), n),
                         "s": x.reshape(-1)})

    def run_peer() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pingouin.intraclass_corr(long, "t", "r", "s")

    t_peer, table = best_of(repeat, run_peer)
    diff = max(abs(r.estimate - v) for r, v in zip(all_six, table["ICC"]))
    print(f"pingouin {pingouin.__version__} intraclass_corr {t_peer:8.3f} s   "
          f"(all six forms; max |diff| {diff:.1e})")
    print(f"ratio pingouin / accord one form  {t_peer / t_one:6.1f}x")
    print(f"ratio pingouin / accord six forms {t_peer / t_six:6.1f}x (array), "
          f"{t_peer / t_shared:.1f}x (one RatingMatrix)")


def _shared(x: np.ndarray) -> list[Any]:
    import accord

    rm = accord.RatingMatrix(x)
    return [accord.icc(rm, form=f) for f in FORMS]


def incomplete_part(x: np.ndarray, repeat: int) -> None:
    import accord

    t_one, one = best_of(repeat, lambda: accord.icc(x, form="ICC2"))
    t_six, _ = best_of(repeat, lambda: [accord.icc(x, form=f) for f in FORMS])
    t_shared, six = best_of(repeat, lambda: _shared(x))
    print(f"incomplete (20 % missing), Henderson method III: ICC2 = {one.estimate:.12f}")
    print(f"accord icc (ICC2)          {t_one:8.3f} s")
    print(f"accord icc x 6 forms       {t_six:8.3f} s   (six calls on the array)")
    print(f"accord icc x 6, one matrix {t_shared:8.3f} s   (six calls on one RatingMatrix); "
          f"estimates {[round(r.estimate, 6) for r in six]}")


def random_crowd(units: int, raters: int, per_unit: int) -> Any:
    """Annotations of a crowd whose workers are mixed at random: each unit's workers are
    an arithmetic progression from a random start with a random step coprime to the
    number of workers (the file's generator uses one step for every unit, which lines
    the workers up in a ring)."""
    import math

    import accord

    rng = np.random.default_rng(1)
    sizes = rng.integers(max(2, per_unit - 6), per_unit + 7, units)
    unit = np.repeat(np.arange(units, dtype=np.int64), sizes)
    steps = np.array([s for s in range(1, raters) if math.gcd(s, raters) == 1])
    offset = np.arange(unit.shape[0]) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    step = np.repeat(rng.choice(steps, units), sizes)
    worker = (np.repeat(rng.integers(0, raters, units), sizes) + offset * step) % raters
    truth = rng.choice(5, units, p=[0.55, 0.2, 0.12, 0.08, 0.05])
    noisy = truth[unit] + rng.normal(0, 0.6, raters)[worker] + rng.normal(0, 0.8, unit.size)
    label = np.clip(np.rint(noisy), 0, 4).astype(np.int64)
    return accord.Annotations(unit, worker, label, units=range(units), raters=range(raters),
                              categories=range(5), level="interval")


def crowd_part(units: int, raters: int, per_unit: int, repeat: int, mixed: bool) -> None:
    import _crowd_data

    import accord

    start = time.perf_counter()
    if mixed:
        ann, name = random_crowd(units, raters, per_unit), "workers mixed at random"
    else:
        path = _crowd_data.crowd_file(units, workers=raters, per_unit=per_unit)
        ann = accord.read(path, unit="comment_id", rater="worker_id", value="toxicity",
                          level="interval")
        name = path.name
    read = time.perf_counter() - start
    dense = ann.n_units * ann.n_raters * 8
    print(f"crowd: {name}: {ann.n_units:,} units x {ann.n_raters:,} raters, "
          f"{ann.n_ratings:,} ratings (made or read in {read:.1f} s); a dense units x raters "
          f"float matrix: {dense / 2**30:.1f} GiB")

    def one() -> Any:
        res = accord.icc(ann, form="ICC2")
        return res, res.confidence_interval(0.95)

    def six() -> list[Any]:
        rm = accord.RatingMatrix.from_annotations(ann)
        return [accord.icc(rm, form=f) for f in FORMS]

    for label, func in (("ICC(2,1) + F interval", one), ("six forms, one RatingMatrix", six)):
        tracemalloc.start()
        seconds, out = best_of(repeat, func)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"accord {label:28s} {seconds:8.2f} s   tracemalloc peak "
              f"{peak / 2**20:8.1f} MiB = {peak / dense:.4f} of the dense matrix")
        if label.startswith("ICC(2,1)"):
            res, ci = out
            print(f"    ICC(2,1) = {res.estimate:.6f}, 95 % F interval {ci.low:.6f} to "
                  f"{ci.high:.6f}; solver: {res.details['solver']}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak RSS {rss:,.0f} MB (includes the read)")


REPORT_CHILD = r"""
import contextlib, io, json, os, resource, sys, time
import accord.cli
start = time.perf_counter()
with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
    try:
        accord.cli.main(sys.argv[1:])
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise
print(json.dumps({"seconds": time.perf_counter() - start,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


GENERATE = r"""
import sys
sys.path.insert(0, sys.argv[1])
from _crowd_data import crowd_file
print(crowd_file(int(sys.argv[2]), workers=int(sys.argv[3]), per_unit=int(sys.argv[4])))
"""


def report_part(units: int, raters: int, per_unit: int) -> None:
    """``accord report FILE --level interval`` on the crowd file, in a fresh interpreter."""
    import json
    import subprocess
    import sys

    # made by a child and run first, so that the children start from a small parent
    # (Linux keeps a process's peak RSS across exec)
    here = os.path.dirname(os.path.abspath(__file__))
    made = subprocess.run([sys.executable, "-c", GENERATE, here, str(units), str(raters),
                           str(per_unit)], check=True, capture_output=True, text=True)
    path = made.stdout.strip()
    base = ["report", str(path), "--unit", "comment_id", "--rater", "worker_id", "--value",
            "toxicity", "--level", "interval"]
    for extra in ([], ["--ci", "bootstrap", "--n-resamples", "999", "--seed", "1"]):
        out = subprocess.run([sys.executable, "-c", REPORT_CHILD, *base, *extra], check=True,
                             capture_output=True, text=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"accord {' '.join(base[:1] + base[2:] + extra)}: {r['seconds']:.1f} s, "
              f"peak RSS {r['peak_mb']:,.0f} MB")


def main() -> None:
    import accord

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, default=100_000)
    parser.add_argument("--raters", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-peer", action="store_true")
    parser.add_argument("--crowd", action="store_true")
    parser.add_argument("--crowd-units", type=int, default=200_000)
    parser.add_argument("--crowd-raters", type=int, default=2_000)
    parser.add_argument("--per-unit", type=int, default=20)
    parser.add_argument("--mixed", action="store_true",
                        help="crowd made in memory with workers mixed at random")
    parser.add_argument("--report", action="store_true",
                        help="also time accord report --level interval on the crowd file")
    args = parser.parse_args()
    if args.report:
        report_part(args.crowd_units, args.crowd_raters, args.per_unit)
    n, k = args.targets, args.raters
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"accord {accord.__version__}, load average {os.getloadavg()[0]:.1f}")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 1)) * 1.5 + rng.normal(size=(n, k)) + np.arange(k) * 0.3
    complete_part(x, args.repeat, not args.skip_peer)
    holes = x.copy()
    holes[rng.random(holes.shape) < 0.2] = np.nan
    incomplete_part(holes, args.repeat)
    if args.crowd:
        crowd_part(args.crowd_units, args.crowd_raters, args.per_unit, max(1, args.repeat // 3),
                   args.mixed)


if __name__ == "__main__":
    main()
