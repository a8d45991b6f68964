"""Counting a 10^7-row long Parquet file inside the engine vs reading it into memory.

engine: ``accord.engines.rater_counts(pl.scan_parquet(path), unit=, rater=, value=)``
-- a polars LazyFrame run on the streaming engine: GROUP BY unit (a check that
no rater rated a unit twice), GROUP BY unit, label (the counts) and one pass for
the audit; only the units x categories aggregate is collected.
memory: ``accord.read(path, ...)`` (the whole file into ``Annotations``) and
``RaterCounts.from_annotations``. Both end with ``accord.fleiss_kappa``, and
the two estimates must agree to 1e-12. The same pair is timed for a two-rater
``contingency_table`` (long data, two of the four coders) against
``accord.read`` + ``accord.cohen_kappa(ann, raters=[...])``.

Each measurement runs in a fresh interpreter so that its peak resident memory
(``ru_maxrss``) is its own; the figure includes the interpreter and imported
libraries, also given alone ("baseline").

Usage: ``python benchmarks/bench_engines.py [--rows N] [--repeat N]``. The file
is generated once under ``benchmarks/_data/`` (git-ignored): ``rows / 4`` items
with 8-digit zero-padded ids, 4 coders, 5 string labels, 2 % of labels "NA".
Timings are the best of ``--repeat`` runs (wall clock); memory is the peak over
those runs.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "_data"
PAIR = ("coder_0", "coder_1")

CHILD = r"""
import json, resource, sys, time
which, path = sys.argv[1], sys.argv[2]
import polars as pl
import accord
from accord.engines import contingency_table, rater_counts
cols = dict(unit="item_id", rater="annotator", value="label")
pair = ("coder_0", "coder_1")
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if which == "engine-counts":
    rc, audit = rater_counts(pl.scan_parquet(path), **cols)
    estimate = accord.fleiss_kappa(rc).estimate
    shape, dropped = list(rc.counts.shape), dict(audit.dropped)
elif which == "memory-counts":
    ann = accord.read(path, **cols)
    rc = accord.RaterCounts.from_annotations(ann)
    estimate = accord.fleiss_kappa(rc).estimate
    shape, dropped = list(rc.counts.shape), dict(ann.audit.dropped)
elif which == "engine-table":
    table, audit = contingency_table(pl.scan_parquet(path), raters=pair, **cols)
    estimate = accord.cohen_kappa(table).estimate
    shape, dropped = [int(table.n), table.k], {}
else:
    ann = accord.read(path, **cols)
    res = accord.cohen_kappa(ann, raters=list(pair))
    estimate = res.estimate
    shape, dropped = [res.n_units, len(ann.categories)], {}
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "base_mb": base / 1024,
                  "estimate": estimate, "shape": shape, "dropped": dropped}))
"""

LABELS = {
    "engine-counts": "engines.rater_counts (LazyFrame, streaming) + fleiss_kappa",
    "memory-counts": "accord.read + RaterCounts.from_annotations + fleiss_kappa",
    "engine-table": "engines.contingency_table (LazyFrame, streaming) + cohen_kappa",
    "memory-table": "accord.read + cohen_kappa(ann, raters=[2 coders])",
}


def generate(rows: int) -> Path:
    """The long Parquet file of ``rows`` ratings (made once)."""
    import numpy as np
    import polars as pl

    path = DATA / f"engines_long_{rows}.parquet"
    if path.exists():
        return path
    DATA.mkdir(exist_ok=True)
    rng = np.random.default_rng(0)
    raters = 4
    items = rows // raters
    truth = rng.integers(0, 5, items)
    label = np.where(
        rng.random(items * raters) < 0.7,
        np.repeat(truth, raters),
        rng.integers(0, 5, items * raters),
    )
    names = np.array(["negative", "neutral", "positive", "mixed", "off_topic"])
    text = np.where(rng.random(items * raters) < 0.02, "NA", names[label])
    frame = pl.DataFrame(
        {
            "item_id": pl.Series(np.repeat(np.arange(items), raters)).cast(pl.String).str.zfill(8),
            "annotator": pl.Series(np.tile(np.arange(raters), items))
            .cast(pl.String)
            .str.replace(r"^", "coder_"),
            "label": text,
        }
    )
    frame.write_parquet(path)
    return path


def measure(which: str, path: Path, repeat: int) -> dict[str, Any]:
    """Best time and peak memory of ``repeat`` fresh-interpreter runs."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, which, str(path)],
            check=True,
            capture_output=True,
            text=True,
        )
        runs.append(json.loads(out.stdout))
    return {
        "seconds": min(r["seconds"] for r in runs),
        "peak_mb": max(r["peak_mb"] for r in runs),
        "base_mb": min(r["base_mb"] for r in runs),
        "estimate": runs[0]["estimate"],
        "shape": runs[0]["shape"],
        "dropped": runs[0]["dropped"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    import narwhals
    import numpy
    import polars

    print(
        f"Python {platform.python_version()}, polars {polars.__version__}, "
        f"narwhals {narwhals.__version__}, numpy {numpy.__version__}"
    )
    path = generate(args.rows)
    print(f"data: {path.name}, {path.stat().st_size / 1e6:.0f} MB, {args.rows:,} rows")
    print("| task | time | peak RSS (baseline after imports) | statistic |")
    print("|---|---|---|---|")
    results = {}
    for which in LABELS:
        r = measure(which, path, args.repeat)
        results[which] = r
        print(
            f"| {LABELS[which]} | {r['seconds']:.2f} s | {r['peak_mb']:.0f} MB "
            f"({r['base_mb']:.0f} MB) | {r['shape']} |",
            flush=True,
        )
    for kind in ("counts", "table"):
        engine, memory = results[f"engine-{kind}"], results[f"memory-{kind}"]
        gap = abs(engine["estimate"] - memory["estimate"])
        if gap > 1e-12 or engine["shape"] != memory["shape"]:
            raise SystemExit(f"{kind}: engine and memory disagree: {engine} vs {memory}")
        print(
            f"{kind}: estimate {engine['estimate']:.15f} (both); memory / engine: "
            f"time {memory['seconds'] / engine['seconds']:.2f}x, "
            f"peak {memory['peak_mb'] / engine['peak_mb']:.2f}x"
        )
    counts = results["engine-counts"]["dropped"], results["memory-counts"]["dropped"]
    if counts[0] != counts[1]:
        raise SystemExit(f"audits differ: engine {counts[0]}, memory {counts[1]}")
    print(f"dropped (both): {counts[0]}")


if __name__ == "__main__":
    main()
