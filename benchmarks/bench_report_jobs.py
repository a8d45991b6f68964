"""The model-against-reference report on large data: what the job's first screen costs.

A reference (kind gold), two systems (kind model) and two humans, 5 classes, each
rater copying the reference 85 % (systems) or 88 % (humans) of the time. For
10^5 and 10^6 units: the time of ``accord.report`` (agreement among the humans, every
system against the reference with its intervals, the ceiling, the verdict), of the
error analysis alone (:func:`accord.report.reference.confused_pairs`, one ``bincount``
over the units both labelled) and of rendering the HTML page (SVG plots included).

Usage: ``python benchmarks/bench_report_jobs.py [--scale 1.0]`` (``--scale 0.1`` for a
quick run). Wall-clock, one run each; peak memory is the ``tracemalloc`` peak of one
more, untimed call.
"""

from __future__ import annotations

import argparse
import platform
import warnings
from typing import Any

import numpy as np
from _timing import measured


def make(n: int, k: int = 5, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, size=n)
    labels = np.array([f"class_{i}" for i in range(k)], dtype=object)
    cols: dict[str, Any] = {"gold": labels[truth]}
    for name, p in (("model_a", 0.85), ("model_b", 0.80), ("ann_a", 0.88), ("ann_b", 0.88)):
        cols[name] = labels[np.where(rng.random(n) < p, truth, rng.integers(0, k, size=n))]
    return cols


def run(n: int) -> None:
    import accord
    from accord.report.reference import confused_pairs

    cols = make(n)
    ann = accord.Annotations.from_wide(cols)
    for r in ann.raters:
        ann.kinds[r] = "gold" if r == "gold" else "model" if r.startswith("model") else "human"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_rep, m_rep, rep = measured(1, lambda: accord.report(ann))
    wide = ann.wide()
    t_conf, m_conf, _ = measured(1, lambda: confused_pairs(ann, wide, "gold", "model_a"))
    t_html, m_html, page = measured(1, rep.to_html)
    print(f"\n{n:,} units, {ann.n_ratings:,} ratings: job {rep.job.kind!r}")
    print(f"  accord.report        {t_rep:8.2f} s   peak {m_rep:7.0f} MiB")
    print(f"  confused_pairs       {t_conf:8.4f} s   peak {m_conf:7.1f} MiB")
    print(f"  to_html              {t_html:8.2f} s   peak {m_html:7.0f} MiB "
          f"({len(page) / 1e3:.0f} kB)")
    print(f"  verdict: {rep.job.verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    for n in (100_000, 1_000_000):
        run(max(1000, int(n * args.scale)))


if __name__ == "__main__":
    main()
