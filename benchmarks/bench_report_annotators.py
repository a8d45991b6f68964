"""The raters' report with its Annotators section: what the section adds, by method.

For ``examples/crowd.csv`` (150 units, 8 workers and an expert) and synthetic crowds
(3 categories; each unit rated by 5 annotators drawn from the pool, each annotator
right 60-95 % of the time, one answering at random): the time of ``accord.report``
with ``annotators_method=M`` and of the section alone
(:func:`accord.report.annotators_section.annotators_section`: the consensus by M, the
seeded bootstrap behind the flags, and the bootstrap interval of each annotator shown).
A build of accord whose ``report`` has no ``annotators_method`` (before the option) is
timed with its only section, Dawid-Skene, for the report line.

Usage: ``python benchmarks/bench_report_annotators.py [--scale 1.0]
[--methods dawid_skene mace] [--repeat 5]``. Wall clock: the median of ``--repeat`` runs
(after one untimed warm-up run of the whole set).
"""

from __future__ import annotations

import argparse
import inspect
import os
import platform
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def make(n_units: int, n_annotators: int, seed: int = 0) -> dict[str, list[Any]]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, size=n_units)
    skill = np.linspace(0.6, 0.95, n_annotators)
    skill[-1] = 0.0  # the last one answers at random
    rows: dict[str, list[Any]] = {"unit": [], "rater": [], "label": []}
    for u in range(n_units):
        for a in rng.choice(n_annotators, size=5, replace=False):
            right = rng.random() < skill[a]
            rows["unit"].append(u)
            rows["rater"].append(f"a{a:03d}")
            rows["label"].append(int(truth[u]) if right else int(rng.integers(0, 3)))
    return rows


def timed(func: Any, repeat: int) -> tuple[float, Any]:
    """The median wall-clock time of ``repeat`` calls, and the last call's result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), out


def run(name: str, ann: Any, method: str, repeat: int) -> None:
    import accord
    from accord.report.annotators_section import annotators_section

    has_option = "annotators_method" in inspect.signature(accord.report).parameters
    options = {"annotators_method": method} if has_option else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_rep, rep = timed(lambda: accord.report(ann, seed=1, **options), repeat)
        t_sec, sec = timed(lambda: annotators_section(ann, 0.95, 1, method=method), repeat)
    print(f"{name}, {method}: {ann.n_units:,} units, {ann.n_ratings:,} ratings, "
          f"{ann.n_raters} annotators ({sec.n_flagged} flagged, {len(sec.rows)} shown)")
    print(f"  accord.report{'' if has_option else ' (its Dawid-Skene section)':27s}"
          f"{t_rep:8.3f} s")
    print(f"  annotators section{'':22s}{t_sec:8.3f} s")
    if rep.annotators is None:
        raise SystemExit(f"{name}: the report has no Annotators section")


def main() -> None:
    import accord

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--methods", nargs="+", default=["dawid_skene", "mace"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"accord {accord.__version__}, load average {os.getloadavg()[0]:.2f}")
    crowd = accord.read(ROOT / "examples" / "crowd.csv", unit="image", rater="worker",
                        value="label")
    synthetic = []
    for units, annotators in ((2_000, 20), (10_000, 60)):
        n = max(50, int(units * args.scale))
        synthetic.append((f"synthetic {annotators}", accord.Annotations.from_long(
            make(n, annotators), unit="unit", rater="rater", value="label")))
    run("warm-up", crowd, args.methods[0], 1)
    print()
    for method in args.methods:
        run("examples/crowd.csv", crowd, method, args.repeat)
        for name, ann in synthetic:
            run(name, ann, method, args.repeat)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
