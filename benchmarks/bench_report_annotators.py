"""The raters' report with its Annotators section: what the section adds.

For ``examples/crowd.csv`` (150 units, 8 workers and an expert) and synthetic crowds
(3 categories; each unit rated by 5 annotators drawn from the pool, each annotator
right 60-95 % of the time, one answering at random): the time of ``accord.report``
and of the section alone (:func:`accord.report.annotators_section.annotators_section`:
Dawid-Skene, the seeded bootstrap behind the flags, and the bootstrap interval of each
annotator shown).

Usage: ``python benchmarks/bench_report_annotators.py [--scale 1.0]``. Wall clock, one
run each.
"""

from __future__ import annotations

import argparse
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


def timed(func: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = func()
    return time.perf_counter() - start, out


def run(name: str, ann: Any) -> None:
    import accord
    from accord.report.annotators_section import annotators_section

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_rep, rep = timed(lambda: accord.report(ann, seed=1))
        t_sec, sec = timed(lambda: annotators_section(ann, 0.95, 1))
    print(f"{name}: {ann.n_units:,} units, {ann.n_ratings:,} ratings, "
          f"{ann.n_raters} annotators ({sec.n_flagged} flagged, {len(sec.rows)} shown)")
    print(f"  accord.report        {t_rep:8.2f} s")
    print(f"  annotators section   {t_sec:8.2f} s")
    assert rep.annotators is not None


def main() -> None:
    import accord

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    scale = parser.parse_args().scale
    print(f"python {platform.python_version()}, accord {accord.__version__}")
    run("examples/crowd.csv", accord.read(ROOT / "examples" / "crowd.csv", unit="image",
                                          rater="worker", value="label"))
    for units, annotators in ((2_000, 20), (10_000, 60)):
        n = max(50, int(units * scale))
        rows = make(n, annotators)
        ann = accord.Annotations.from_long(rows, unit="unit", rater="rater", value="label")
        run(f"synthetic {annotators}", ann)


if __name__ == "__main__":
    main()
