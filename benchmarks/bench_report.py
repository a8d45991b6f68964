"""The agreement report on large data: what the report adds to the coefficients.

Two data sets with real agreement (each rater copies a true label 80 % of the
time, 5 categories, 2 % of ratings missing): 10^6 units x 2 raters and
10^5 units x 5 raters. For each, the time of

- the coefficients alone (the default set with their asymptotic intervals,
  ``accord.interpret.selection.compute`` + ``confidence_interval``), the floor any report needs;
- ``accord.report`` (the model: worksheets, kappa context, per category, per rater,
  leave-one-out, rater matrix, units with most disagreement) and its ratio to the floor;
- rendering JSON, Markdown and HTML (the HTML draws the SVG plots);
- ``accord.disagreements(...).to_csv()`` next to the pandas one-liner
  ``df[df.nunique(axis=1) > 1].to_csv()`` on the same wide table (pandas does not
  neutralise formula cells nor compute the per-unit agreement).

Usage: ``python benchmarks/bench_report.py [--scale 1.0]`` (``--scale 0.1`` for a
quick run). Wall-clock, one run each (the report is not a hot loop); peak memory is the
``tracemalloc`` peak of one more, untimed call (pandas' too: its buffers are numpy's
or Python objects, which tracemalloc sees).
"""

from __future__ import annotations

import argparse
import platform
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import measured

PANDAS_MAX_UNITS = 200_000


def timed(func: Callable[[], Any]) -> tuple[float, float, Any]:
    """Time of one call, tracemalloc peak (MiB) of another, and the result."""
    return measured(1, func)


def make_wide(n: int, r: int, k: int = 5, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, size=n)
    labels = np.array([f"c{i}" for i in range(k)], dtype=object)
    cols = {}
    for j in range(r):
        codes = np.where(rng.random(n) < 0.8, truth, rng.integers(0, k, size=n))
        col = labels[codes]
        col[rng.random(n) < 0.02] = None
        cols[f"rater_{j + 1}"] = col
    return cols


def coefficients_only(ann: Any) -> list[Any]:
    from accord.interpret.selection import compute

    out = []
    for res in compute(ann):
        try:
            out.append(res.confidence_interval(0.95))
        except Exception:  # noqa: BLE001 - a coefficient without an analytic SE
            out.append(None)
    return out


def run(n: int, r: int) -> None:
    import pandas as pd

    import accord

    cols = make_wide(n, r)
    t_build, m_build, ann = timed(lambda: accord.Annotations.from_wide(cols))
    print(f"\n{n:,} units x {r} raters ({ann.n_ratings:,} ratings; Annotations.from_wide "
          f"{t_build:.2f} s, peak {m_build:.0f} MiB)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_floor, m_floor, _ = timed(lambda: coefficients_only(ann))
        t_model, m_model, rep = timed(lambda: accord.report(ann))
    t_json, m_json, _ = timed(rep.to_json)
    t_md, m_md, _ = timed(rep.to_markdown)
    t_html, m_html, page = timed(rep.to_html)
    print(f"  {'':35}{'time':>9} {'peak MiB':>9}")
    print(f"  coefficients + intervals (floor)   {t_floor:7.2f} s {m_floor:9.1f}")
    print(f"  accord.report (model)              {t_model:7.2f} s {m_model:9.1f}   ratio to "
          f"floor {t_model / t_floor:5.2f}x time, {m_model / m_floor:5.2f}x memory")
    print(f"  to_json                            {t_json:7.2f} s {m_json:9.1f}")
    print(f"  to_markdown                        {t_md:7.2f} s {m_md:9.1f}")
    print(f"  to_html (with plots)               {t_html:7.2f} s {m_html:9.1f}   "
          f"({len(page) / 1e3:.0f} kB)")
    t_dis, m_dis, text = timed(lambda: accord.disagreements(ann).to_csv())
    rows = text.count("\n") - 1
    print(f"  disagreements().to_csv()           {t_dis:7.2f} s {m_dis:9.1f}   ({rows:,} units)")
    if n > PANDAS_MAX_UNITS:
        print(f"  pandas nunique filter + to_csv     skipped above {PANDAS_MAX_UNITS:,} units "
              "(nunique(axis=1) runs row by row)")
        return
    frame = pd.DataFrame(cols)
    t_pd, m_pd, pd_text = timed(lambda: frame[frame.nunique(axis=1) > 1].to_csv())
    print(f"  pandas nunique filter + to_csv     {t_pd:7.2f} s {m_pd:9.1f}   "
          f"({pd_text.count(chr(10)) - 1:,} rows); pandas / accord {t_pd / t_dis:5.1f}x time, "
          f"{m_pd / m_dis:5.1f}x memory")


def main() -> None:
    import pandas as pd

    import accord

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
          f"accord {accord.__version__}")
    run(int(1_000_000 * args.scale), 2)
    run(int(100_000 * args.scale), 5)


if __name__ == "__main__":
    main()
