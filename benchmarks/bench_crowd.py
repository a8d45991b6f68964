"""The crowd workload: a long Parquet file of tens of millions of ratings by 9,000 workers.

Shaped like the public toxicity-rating data (``benchmarks/_crowd_data.py``):
``--units`` comments, 9,000 workers, about 24 ratings per comment, labels 0-4,
integer ids. Three measurements, each in a fresh interpreter so that its peak
resident memory (``ru_maxrss``) is its own (it includes the interpreter and
the imported libraries, also given alone as "baseline"):

floor: ``polars.read_parquet`` of the three columns, then numpy: units and
    labels to per-unit category counts (``np.bincount`` on ``unit * 5 + label``)
    and a duplicate check (sorting ``unit * workers + worker``, then comparing
    neighbours; numpy 2's hash-based ``np.unique`` takes minutes here), the
    least work any reader that validates must do.
read: ``accord.read(path, unit=, rater=, value=)`` to ``Annotations``.
report: ``accord report FILE --unit comment_id --rater worker_id --value toxicity
    --level ordinal`` end to end through the command-line entry point
    (``accord.cli.main``), console output to ``/dev/null``: Krippendorff's alpha
    (ordinal), Fleiss' kappa, Gwet's AC2 (ordinal weights) and percent agreement,
    each with its asymptotic interval.
bootstrap: the same report with percentile bootstrap intervals (999 resamples of
    the units, drawn over the distinct per-unit count patterns).

bad input (``--bad-input``): the crowd file with one rating more, a worker rating a
    comment again with another label (``accord.read`` refuses it, naming the pair);
    the first ``--csv-rows`` rows as CSV with text ids, one comment id written as a
    decimal (``833.0``: refused, one unit would count as two) or as a word (``abc``:
    kept, stated as a caveat). Each is read by ``accord.read`` in a fresh
    interpreter and run through ``python -m accord report`` (exit code, lines on
    stderr, wall time including the start-up).

Usage: ``python benchmarks/bench_crowd.py [--units 1900000] [--repeat 1] [--bad-input]``.
The file is generated once under ``benchmarks/_data/`` (git-ignored) by a child
process, so that the parent stays small (Linux keeps a process's peak across
``exec``).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
COLUMNS = ["--unit", "comment_id", "--rater", "worker_id", "--value", "toxicity"]

CHILD = r"""
import json, resource, sys, time
which, path = sys.argv[1], sys.argv[2]
import numpy as np, polars as pl
if which != "floor":
    import accord, accord.cli
    read = accord.read  # the library's lazy import (about 1.3 s) is not the file's cost
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if which == "floor":
    df = pl.read_parquet(path, columns=["comment_id", "worker_id", "toxicity"])
    unit, worker, label = (df[c].to_numpy() for c in df.columns)
    del df
    n_units, n_workers = int(unit.max()) + 1, int(worker.max()) + 1
    counts = np.bincount(unit * 5 + label, minlength=n_units * 5).reshape(n_units, 5)
    keys = unit * n_workers + worker
    keys.sort()
    dup = bool((keys[1:] == keys[:-1]).any())
    out = [int(counts.shape[0]), n_workers, int(counts.sum()), bool(dup)]
elif which == "read":
    ann = read(path, unit="comment_id", rater="worker_id", value="toxicity")
    out = [ann.n_units, ann.n_raters, ann.n_ratings]
else:
    import contextlib, io, os
    args = ["report", path] + sys.argv[3:]
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        try:
            accord.cli.main(args)
        except SystemExit as exc:
            if exc.code not in (0, None):
                raise
    out = []
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "base_mb": base / 1024,
                  "shape": out}))
"""

GENERATE = r"""
import sys
sys.path.insert(0, sys.argv[1])
from _crowd_data import crowd_file
print(crowd_file(int(sys.argv[2])))
"""

BAD = r"""
import sys
import polars as pl
src, rows = sys.argv[1], int(sys.argv[2])
df = pl.read_parquet(src)
a = df.row(df.height // 2)
again = pl.DataFrame({"comment_id": [a[0]], "worker_id": [a[1]], "toxicity": [(a[2] + 1) % 5]})
out = [src.replace(".parquet", "_dup.parquet")]
pl.concat([df, again]).write_parquet(out[0])
head = df.head(rows).with_columns(pl.col("comment_id", "worker_id").cast(pl.String))
last = head["comment_id"][rows - 5]
for tag, odd in (("decimal", last + ".0"), ("word", "abc")):
    ids = pl.when(pl.int_range(pl.len()) == rows - 5).then(pl.lit(odd))
    out.append(src.replace(".parquet", f"_{rows}_{tag}.csv"))
    head.with_columns(ids.otherwise(pl.col("comment_id")).alias("comment_id")).write_csv(out[-1])
print("\n".join(out))
"""

BAD_CHILD = r"""
import json, resource, sys, time
import accord
from accord.errors import AccordError
read = accord.read
start = time.perf_counter()
try:
    ann = read(sys.argv[1], unit="comment_id", rater="worker_id", value="toxicity")
    said = (list(ann.audit.caveats) or ["read, no caveat"])[0]
except AccordError as exc:
    said = f"{type(exc).__name__}: {exc}"
print(json.dumps({"seconds": time.perf_counter() - start, "said": said,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

LABELS = {
    "floor": "floor: polars.read_parquet + numpy counts + duplicate check",
    "read": "accord.read",
    "report": "accord report --level ordinal (CLI, console)",
    "bootstrap": "the same report, --ci bootstrap --n-resamples 999 --seed 1",
}


def measure(which: str, path: Path, repeat: int) -> dict[str, Any]:
    """Best time and peak memory of ``repeat`` fresh-interpreter runs."""
    runs = []
    extra = [*COLUMNS, "--level", "ordinal"] if which in ("report", "bootstrap") else []
    if which == "bootstrap":
        extra += ["--ci", "bootstrap", "--n-resamples", "999", "--seed", "1"]
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", CHILD, which, str(path), *extra],
                             check=True, capture_output=True, text=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {"seconds": min(r["seconds"] for r in runs),
            "peak_mb": max(r["peak_mb"] for r in runs),
            "base_mb": min(r["base_mb"] for r in runs), "shape": runs[0]["shape"]}


def bad_input(path: Path, rows: int) -> None:
    """Time what ``accord.read`` and ``accord report`` say about three bad files."""
    import time

    made = subprocess.run([sys.executable, "-c", BAD, str(path), str(rows)], check=True,
                          capture_output=True, text=True).stdout.split()
    print("| file | accord.read | peak RSS | accord report: exit, stderr lines, time | said |")
    print("|---|---|---|---|---|")
    for bad in made:
        out = subprocess.run([sys.executable, "-c", BAD_CHILD, bad], check=True,
                             capture_output=True, text=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        start = time.perf_counter()
        cli = subprocess.run([sys.executable, "-m", "accord", "report", bad, *COLUMNS,
                              "--level", "ordinal"], capture_output=True, text=True)
        wall = time.perf_counter() - start
        lines = cli.stderr.strip().splitlines()
        print(f"| {Path(bad).name} | {r['seconds']:.1f} s | {r['peak_mb']:.0f} MB | "
              f"{cli.returncode}, {len(lines)}, {wall:.1f} s | {r['said']} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=1_900_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", nargs="+", choices=list(LABELS), default=list(LABELS))
    parser.add_argument("--bad-input", action="store_true",
                        help="time the refusals of bad files instead (see the module doc)")
    parser.add_argument("--csv-rows", type=int, default=10_000_000)
    args = parser.parse_args()
    made = subprocess.run([sys.executable, "-c", GENERATE, str(HERE), str(args.units)],
                          check=True, capture_output=True, text=True)
    path = Path(made.stdout.strip())
    import numpy
    import polars

    print(f"Python {platform.python_version()}, polars {polars.__version__}, "
          f"numpy {numpy.__version__}; {path.name} ({path.stat().st_size / 1e6:.0f} MB)")
    if args.bad_input:
        bad_input(path, args.csv_rows)
        return
    print("| step | time | peak RSS (baseline after imports) | x floor (time, memory) |")
    print("|---|---|---|---|")
    results: dict[str, dict[str, Any]] = {}
    for which in args.only:
        r = results[which] = measure(which, path, args.repeat)
        ratio = ""
        if "floor" in results and which != "floor":
            f = results["floor"]
            ratio = (f"{r['seconds'] / f['seconds']:.1f}x, "
                     f"{r['peak_mb'] / f['peak_mb']:.1f}x")
        print(f"| {LABELS[which]} | {r['seconds']:.1f} s | {r['peak_mb']:.0f} MB "
              f"({r['base_mb']:.0f} MB) | {ratio} |", flush=True)
    shapes = {w: r["shape"] for w, r in results.items() if r["shape"]}
    print("units, raters, ratings:", shapes)
    if {"floor", "read"} <= set(shapes):
        assert shapes["floor"][:3] == shapes["read"], shapes


if __name__ == "__main__":
    main()
