"""Rater pairs on sparse data: Conger, Light and pairwise on crowd-shaped ratings.

The data follow the recipe of ``_crowd_data.py`` (the crowd benchmark's file), built
in memory as :class:`accord.Annotations` (integer codes, no file read): ``--units``
units, each rated by ``per_unit - 6 .. per_unit + 6`` of ``--raters`` raters (a
random start and a stride coprime to the raters), labels 0-4 with a per-rater bias.

Each step runs in a fresh interpreter that builds the data and calls it once, then
times the call (best of ``--repeat``) and reports the peak resident memory it added
on top of the data (Linux: the peak ``VmHWM`` is reset through
``/proc/self/clear_refs`` after the data are built), next to what a units x raters
int64 matrix of codes, the former path of these coefficients, would allocate:

- ``conger_kappa``: estimate and Gwet's SE from per-unit and per-rater counts;
- ``light_kappa(min_shared=30)``: per-pair tables from the sparse join on units;
- ``pairwise(min_shared=30)``: the same join, Cohen's kappa of every pair kept
  (each pair's AgreementResult is made when looked up, not here);
- ``shared_units``: the join's first pass alone (shared units of every pair);
- the report's crowd pairs (``report.sections.crowd_pairs``): the first pass, then
  the tables of the pairs among the 30 raters of the most-shared pairs.

Usage: ``python benchmarks/bench_pairs.py [--units 200000] [--raters 2000]
[--per-unit 20] [--repeat 2] [--only STEP ...]``; the full crowd is ``--units
1900000 --raters 9000 --per-unit 24``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _crowd_data import crowd_arrays  # noqa: E402
from _timing import best_of  # noqa: E402

import accord  # noqa: E402
from accord.coefficients._pair_join import shared_units, within_unit_pairs  # noqa: E402
from accord.errors import DegenerateDataWarning  # noqa: E402


def crowd(units: int, raters: int, per_unit: int, seed: int = 0) -> accord.Annotations:
    """Crowd-shaped annotations, the recipe of ``_crowd_data.crowd_file`` in memory."""
    unit, worker, label = crowd_arrays(units, raters, per_unit, seed)
    return accord.Annotations(unit, worker, label, units=range(units), raters=range(raters),
                              categories=range(5), level="ordinal")


STEPS: dict[str, tuple[Callable[[accord.Annotations], Any], Callable[[Any], str]]] = {
    "conger_kappa": (lambda ann: accord.conger_kappa(ann),
                     lambda r: f"{r.estimate:.4f} (SE {r.se:.4f})"),
    "light_kappa(min_shared=30)": (
        lambda ann: accord.light_kappa(ann, min_shared=30),
        lambda r: f"{r.estimate:.4f} over {r.details['n_pairs']:,} pairs"),
    "pairwise(min_shared=30)": (
        lambda ann: accord.pairwise(ann, min_shared=30),
        lambda r: f"{r.n_pairs:,} pairs, mean {np.nanmean(r.pair_estimates):.4f}"),
    "shared_units (first pass)": (
        lambda ann: shared_units(*ann.codes[:2], ann.n_units, ann.n_raters),
        lambda r: f"{r[0].shape[0]:,} pairs share a unit"),
    "report: crowd pairs": (lambda ann: _crowd_pairs(ann), lambda r: r.note[:60] + "..."),
}


def _crowd_pairs(ann: accord.Annotations) -> Any:
    from accord.report import sections

    return sections.crowd_pairs(ann)


def child(step: str, units: int, raters: int, per_unit: int, repeat: int) -> None:
    """One step in this fresh interpreter: its time and the peak RSS it adds."""
    warnings.simplefilter("ignore", DegenerateDataWarning)
    ann = crowd(units, raters, per_unit)
    func, show = STEPS[step]
    func(ann)  # imports and first-call costs out of the figures
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) restarts from here
    base = _status_kb("VmRSS")
    seconds, out = best_of(repeat, lambda: func(ann))
    peak = _status_kb("VmHWM")
    print(json.dumps({"seconds": seconds, "base_mb": base / 1024,
                      "added_mb": (peak - base) / 1024, "result": show(out)}))


def _status_kb(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=200_000)
    parser.add_argument("--raters", type=int, default=2000)
    parser.add_argument("--per-unit", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--only", nargs="+", choices=list(STEPS), default=list(STEPS))
    parser.add_argument("--child", choices=list(STEPS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.units, args.raters, args.per_unit, args.repeat)
        return
    ann = crowd(args.units, args.raters, args.per_unit)
    units, _, _ = ann.codes
    pairs = within_unit_pairs(units, ann.n_units)
    dense = ann.n_units * ann.n_raters * 8 / 2**30
    print(f"accord {accord.__version__}, numpy {np.__version__}, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}")
    print(f"{ann.n_units:,} units x {ann.n_raters:,} raters, {ann.n_ratings:,} ratings "
          f"({ann.n_ratings * 24 / 2**20:,.0f} MiB as three int64 arrays), "
          f"{pairs:,} within-unit pairs of ratings; a units x raters int64 matrix: "
          f"{dense:,.1f} GiB")
    del ann, units
    print("| step | time | peak RSS added | result |")
    print("|---|---|---|---|")
    for step in args.only:
        cmd = [sys.executable, __file__, "--child", step, "--units", str(args.units),
               "--raters", str(args.raters), "--per-unit", str(args.per_unit),
               "--repeat", str(args.repeat)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"| {step} | {r['seconds']:.2f} s | {r['added_mb']:,.0f} MB "
              f"(data {r['base_mb']:,.0f} MB) | {r['result']} |", flush=True)


if __name__ == "__main__":
    main()
