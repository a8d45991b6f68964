"""Gamma speed: ``accord.gamma`` against pygamma-agreement on the same data and parameters.

Run by hand (pygamma-agreement is heavy: numba, cvxpy, GLPK; it sits in its own extra)::

    pip install -e '.[gamma-oracle]'      # pygamma-agreement==0.5.9
    .venv/bin/python benchmarks/bench_gamma.py [--repeat 1]

Data: pygamma-agreement's own test continua ``3by100`` (3 raters, 372 units) and
``2by1000`` (2 raters, 2,000 units), copied in ``tests/spans/data``. Parameters as its
tests use them: the combined categorical dissimilarity with alpha 3, beta 1,
delta_empty 1, and 30 continua of the statistical sampler for the expected disorder
(pygamma seeded by ``np.random.seed(4772)`` as its tests are, accord by ``rng=0``).

Timed, best of ``--repeat``, CPU time of this process (every thread; pygamma aligns the
samples in a thread pool) and wall time: one whole gamma (best alignment, 30 sampled
continua and their best alignments, gamma-cat and gamma-k of every label). Both are
warmed first on a small continuum (pygamma's numba functions compile on first use;
scipy's modules load). Printed: both times, their ratio, and both sides' gamma,
gamma-cat and number of unitary alignments, with accord's Monte-Carlo error of the
expected disorder.
"""

from __future__ import annotations

import argparse
import csv
import logging
import platform
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
from _timing import best_of

import accord

DATA = Path(__file__).resolve().parents[1] / "tests" / "spans" / "data"
SETS = ("gamma_3by100.csv", "gamma_2by1000.csv")
INSTALL = ("pygamma-agreement is not installed; this benchmark compares accord with it. "
           "Install it with: pip install -e '.[gamma-oracle]' (pygamma-agreement==0.5.9).")


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _accord(rows: list[dict[str, str]]) -> Any:
    cols = {k: [r[k] if k in ("annotator", "label") else float(r[k]) for r in rows]
            for k in ("annotator", "label", "start", "end")}
    res = accord.gamma(cols, alpha=3.0, beta=1.0, n_samples=30, rng=0)
    return (res.estimate, res.details["gamma_cat"], res.details["n_unitary_alignments"],
            res.details["expected_disorder_se"])


def _pygamma(pa: Any, segment: Any, rows: list[dict[str, str]]) -> Any:
    c = pa.Continuum()
    for r in rows:
        c.add(r["annotator"], segment(float(r["start"]), float(r["end"])), r["label"])
    np.random.seed(4772)
    d = pa.CombinedCategoricalDissimilarity(alpha=3, beta=1, delta_empty=1)
    res = c.compute_gamma(d, n_samples=30)
    _ = [res.gamma_k(k) for k in c.categories]
    return (float(res.gamma), float(res.gamma_cat), len(res.best_alignment.unitary_alignments),
            float("nan"))


def _load_pygamma() -> tuple[Any, Any]:
    # benchmarks/coverage.py (the interval coverage study) would shadow the coverage
    # package that numba imports, so this folder leaves the path while pygamma loads
    here = str(Path(__file__).resolve().parent)
    kept = list(sys.path)
    sys.path[:] = [p for p in sys.path if p and Path(p).resolve() != Path(here)]
    try:
        import pygamma_agreement as pa
        from pyannote.core import Segment
    except ImportError:
        sys.exit(INSTALL)
    finally:
        sys.path[:] = kept
    return pa, Segment


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    pa, Segment = _load_pygamma()
    logging.disable(logging.WARNING)
    small = _rows(DATA / "gamma_AlexPaulSuzan.csv")
    _accord(small)
    _pygamma(pa, Segment, small)
    print(f"{'data':<10} {'':>8} {'CPU s':>8} {'wall s':>8} {'gamma':>7} {'gamma_cat':>9} "
          f"{'aligned':>7}")
    for name in SETS:
        rows = _rows(DATA / name)
        times = {}
        runs = {"accord": lambda rows=rows: _accord(rows),
                "pygamma": lambda rows=rows: _pygamma(pa, Segment, rows)}
        for who, run in runs.items():
            wall = time.perf_counter()
            cpu, out = best_of(args.repeat, run, time.process_time)
            wall = (time.perf_counter() - wall) / args.repeat
            times[who] = (cpu, wall)
            se = "" if not np.isfinite(out[3]) else f" (D_e Monte-Carlo SE {out[3]:.4f})"
            print(f"{name[6:-4]:<10} {who:>8} {cpu:8.2f} {wall:8.2f} {out[0]:7.4f} {out[1]:9.4f} "
                  f"{out[2]:7d}{se}")
        (ac, aw), (pc, pw) = times["accord"], times["pygamma"]
        print(f"{name[6:-4]:<10} {'ratio':>8} {pc / ac:7.1f}x {pw / aw:7.1f}x")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"accord {accord.__version__}, pygamma-agreement {version('pygamma-agreement')}")


if __name__ == "__main__":
    main()
