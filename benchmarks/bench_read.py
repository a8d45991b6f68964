"""Reading a long (item, annotator, label) file of 10^7 rows into Annotations.

accord: ``accord.read(path)`` -- format detection, Polars scan of the file
with every column as text (ids keep their zeros), missing-value filtering,
integer coding and the audit; the result is an ``Annotations`` (units x raters
codes). The obvious alternative: pandas ``read_csv`` (or ``read_parquet``)
with ``dtype=str`` plus ``DataFrame.pivot`` to the units x raters table.

Each measurement runs in a fresh interpreter so that its peak resident memory
(``ru_maxrss``) is its own; the figure includes the interpreter and the
imported libraries, which are also given alone ("baseline").

Usage: ``python benchmarks/bench_read.py [--rows 1000000 10000000] [--repeat N]``.
The files are generated once under ``benchmarks/_data/`` (git-ignored):
``rows / 4`` items with 8-digit zero-padded ids, 4 annotators, 5 string labels.
Timings are the best of ``--repeat`` runs (wall clock); memory is the peak
over those runs.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "_data"

CHILD = r"""
import json, resource, sys, time
which, path = sys.argv[1], sys.argv[2]
if which.startswith("accord"):
    import accord, polars
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    ann = accord.read(path)
    seconds = time.perf_counter() - start
    shape = [ann.n_units, ann.n_raters, ann.n_ratings]
else:
    import pandas as pd, pyarrow
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    if path.endswith(".csv"):
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
    else:
        df = pd.read_parquet(path)
    wide = df.pivot(index="item_id", columns="annotator", values="label")
    seconds = time.perf_counter() - start
    shape = [wide.shape[0], wide.shape[1], int(wide.notna().to_numpy().sum())]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "base_mb": base / 1024,
                  "shape": shape}))
"""


def generate(rows: int) -> tuple[Path, Path]:
    """The long CSV and Parquet files of ``rows`` ratings (made once)."""
    import numpy as np
    import polars as pl

    csv, parquet = DATA / f"long_{rows}.csv", DATA / f"long_{rows}.parquet"
    if csv.exists() and parquet.exists():
        return csv, parquet
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
    frame = pl.DataFrame(
        {
            "item_id": pl.Series(np.repeat(np.arange(items), raters)).cast(pl.String).str.zfill(8),
            "annotator": pl.Series(np.tile(np.arange(raters), items))
            .cast(pl.String)
            .str.replace(r"^", "coder_"),
            "label": names[label],
        }
    )
    frame.write_csv(csv)
    frame.write_parquet(parquet)
    return csv, parquet


def measure(which: str, path: Path, repeat: int) -> dict[str, float]:
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
    shapes = {tuple(r["shape"]) for r in runs}
    assert len(shapes) == 1
    return {
        "seconds": min(r["seconds"] for r in runs),
        "peak_mb": max(r["peak_mb"] for r in runs),
        "base_mb": min(r["base_mb"] for r in runs),
        "shape": runs[0]["shape"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    import numpy
    import pandas
    import polars

    print(
        f"Python {platform.python_version()}, polars {polars.__version__}, "
        f"pandas {pandas.__version__}, numpy {numpy.__version__}"
    )
    print("| rows | file | reader | time | peak RSS (baseline after imports) | units x raters |")
    print("|---|---|---|---|---|---|")
    for rows in args.rows:
        csv, parquet = generate(rows)
        for path in (csv, parquet):
            results = {}
            for which in ("accord", "pandas"):
                r = measure(which, path, args.repeat)
                results[which] = r
                label = (
                    "accord.read"
                    if which == "accord"
                    else "pandas read_csv + pivot"
                    if path.suffix == ".csv"
                    else "pandas read_parquet + pivot"
                )
                print(
                    f"| {rows:.0e} | {path.suffix[1:]} ({path.stat().st_size / 1e6:.0f} MB) "
                    f"| {label} | {r['seconds']:.2f} s | {r['peak_mb']:.0f} MB "
                    f"({r['base_mb']:.0f} MB) | {r['shape'][0]} x {r['shape'][1]} |",
                    flush=True,
                )
            ratio_t = results["pandas"]["seconds"] / results["accord"]["seconds"]
            ratio_m = results["pandas"]["peak_mb"] / results["accord"]["peak_mb"]
            print(f"| | | pandas / accord | {ratio_t:.2f}x | {ratio_m:.2f}x | |", flush=True)


if __name__ == "__main__":
    main()
