"""Rater pairs on sparse data: Conger, Light and pairwise on crowd-shaped ratings.

The data follow the recipe of ``_crowd_data.py`` (the crowd benchmark's file), built
in memory as :class:`accord.Annotations` (integer codes, no file read): ``--units``
units, each rated by ``per_unit - 6 .. per_unit + 6`` of ``--raters`` raters (a
random start and a stride coprime to the raters), labels 0-4 with a per-rater bias.

Measured, each call on its own: time (best of ``--repeat``) and the tracemalloc peak
of one call (numpy's allocations included), next to what a units x raters int64
matrix of codes, the former path of these coefficients, would allocate:

- ``conger_kappa``: estimate and Gwet's SE from per-unit and per-rater counts;
- ``light_kappa(min_shared=30)``: per-pair tables from the sparse join on units;
- ``pairwise(min_shared=30)``: the same join, Cohen's kappa of every pair kept
  (each pair's AgreementResult is made when looked up, not here);
- ``shared_units``: the join's first pass alone (shared units of every pair);
- the report's crowd pairs (``report.sections.crowd_pairs``): the first pass, then
  the tables of the pairs among the 30 raters of the most-shared pairs.

Usage: ``python benchmarks/bench_pairs.py [--units 200000] [--raters 2000]
[--per-unit 20] [--repeat 2] [--no-memory]``; the full crowd is ``--units 1900000
--raters 9000 --per-unit 24``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _timing import best_of  # noqa: E402

import accord  # noqa: E402
from accord.coefficients._pair_join import shared_units, within_unit_pairs  # noqa: E402
from accord.errors import DegenerateDataWarning  # noqa: E402


def crowd(units: int, raters: int, per_unit: int, seed: int = 0) -> accord.Annotations:
    """Crowd-shaped annotations, the recipe of ``_crowd_data.crowd_file`` in memory."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(max(2, per_unit - 6), per_unit + 7, units)
    unit = np.repeat(np.arange(units, dtype=np.int64), sizes)
    start = rng.integers(0, raters, units)
    offset = np.arange(unit.shape[0]) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    worker = (np.repeat(start, sizes) + offset * 7919) % raters
    truth = rng.choice(5, units, p=[0.55, 0.2, 0.12, 0.08, 0.05])
    bias = rng.normal(0, 0.6, raters)
    noisy = np.repeat(truth, sizes) + bias[worker] + rng.normal(0, 0.8, unit.shape[0])
    label = np.clip(np.rint(noisy), 0, 4).astype(np.int64)
    return accord.Annotations(unit, worker, label, units=range(units), raters=range(raters),
                              categories=range(5), level="ordinal")


def peak_mib(func: Callable[[], Any]) -> float:
    """The tracemalloc peak of one call, in MiB."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=200_000)
    parser.add_argument("--raters", type=int, default=2000)
    parser.add_argument("--per-unit", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-memory", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore", DegenerateDataWarning)
    from accord.report import sections

    ann = crowd(args.units, args.raters, args.per_unit)
    units, raters, _ = ann.codes
    pairs = within_unit_pairs(units, ann.n_units)
    dense = ann.n_units * ann.n_raters * 8 / 2**30
    print(f"accord {accord.__version__}, numpy {np.__version__}, "
          f"Python {platform.python_version()}")
    print(f"{ann.n_units:,} units x {ann.n_raters:,} raters, {ann.n_ratings:,} ratings "
          f"({ann.n_ratings * 24 / 2**20:,.0f} MiB as three int64 arrays), "
          f"{pairs:,} within-unit pairs of ratings; a units x raters int64 matrix: "
          f"{dense:,.1f} GiB")
    steps: list[tuple[str, Callable[[], Any], Callable[[Any], str]]] = [
        ("conger_kappa", lambda: accord.conger_kappa(ann),
         lambda r: f"{r.estimate:.4f} (SE {r.se:.4f})"),
        ("light_kappa(min_shared=30)", lambda: accord.light_kappa(ann, min_shared=30),
         lambda r: f"{r.estimate:.4f} over {r.details['n_pairs']:,} pairs"),
        ("pairwise(min_shared=30)", lambda: accord.pairwise(ann, min_shared=30),
         lambda r: f"{r.n_pairs:,} pairs, mean {np.nanmean(r.pair_estimates):.4f}"),
        ("shared_units (first pass)",
         lambda: shared_units(units, raters, ann.n_units, ann.n_raters),
         lambda r: f"{r[0].shape[0]:,} pairs share a unit"),
        ("report: crowd pairs", lambda: sections.crowd_pairs(ann),
         lambda r: r.note[:90] + "..."),
    ]
    print("| step | time | tracemalloc peak | result |")
    print("|---|---|---|---|")
    for label, func, show in steps:
        seconds, out = best_of(args.repeat, func)
        mem = "" if args.no_memory else f"{peak_mib(func):,.0f} MiB"
        print(f"| {label} | {seconds:.2f} s | {mem} | {show(out)} |", flush=True)


if __name__ == "__main__":
    main()
