"""What the layout checks cost: reading a table with its columns guessed vs named.

When a table's columns are not named, ``accord.read`` looks at the first
100,000 rows before reading: a wide table's text columns are measured (free
text is never a rater) and its unit ids counted (a long table is never read as
wide); a long table's label column, found by its name, is measured (free text
is never the labels). Named columns skip those looks. This script times both
on the same files, so the ratio is the price of the checks.

Every read runs in a fresh interpreter: the time is that of ``accord.read`` alone
(best of ``--repeat``), the memory the process's peak resident set size
(``ru_maxrss``, the largest of the runs), given with the size after importing accord
and polars. Resident memory, not ``tracemalloc``: polars reads the file with its own
allocator, which ``tracemalloc`` does not see.

Usage: ``python benchmarks/bench_layout.py [--rows 1000000] [--repeat 3]``.
The files are generated once under ``benchmarks/_data/`` (git-ignored): a long
CSV (item_id, annotator, label; 4 annotators, 5 labels) and a wide CSV
(item_id, 4 rater columns, and a free-text ``comment`` column).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from _timing import child_run, rss_mib

DATA = Path(__file__).parent / "_data"
SRC = str(Path(__file__).resolve().parents[1] / "src")

CHILD = """
import json, resource, sys, time
import accord, polars
options = json.loads(sys.argv[2])
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
ann = accord.read(sys.argv[1], **options)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "base": base, "ratings": ann.n_ratings,
                  "raters": [str(r) for r in ann.raters]}))
"""


def generate(rows: int) -> tuple[Path, Path]:
    """The long and wide CSV files (made once)."""
    import numpy as np

    DATA.mkdir(exist_ok=True)
    long_path, wide_path = DATA / f"layout_long_{rows}.csv", DATA / f"layout_wide_{rows}.csv"
    rng = np.random.default_rng(0)
    labels = np.array(["neg", "neu", "pos", "mixed", "off"])
    if not long_path.exists():
        units = rows // 4
        codes = rng.integers(0, 5, size=units * 4)
        with open(long_path, "w", encoding="utf-8") as fh:
            fh.write("item_id,annotator,label\n")
            for i in range(units):
                for j in range(4):
                    fh.write(f"{i:08d},ann_{j},{labels[codes[i * 4 + j]]}\n")
    if not wide_path.exists():
        codes = rng.integers(0, 5, size=(rows, 4))
        with open(wide_path, "w", encoding="utf-8") as fh:
            fh.write("item_id,r1,r2,r3,r4,comment\n")
            for i in range(rows):
                cells = ",".join(labels[codes[i]])
                fh.write(f"{i:08d},{cells},free text comment number {i} on this item\n")
    return long_path, wide_path


def measure(path: Path, options: dict[str, Any], repeat: int) -> dict[str, Any]:
    """Best time of ``accord.read``, peak RSS and RSS after imports (MiB) of ``repeat``
    fresh interpreters, and what they read."""
    env = {**os.environ, "PYTHONPATH": SRC}
    runs = []
    for _ in range(repeat):
        _, peak, out = child_run([sys.executable, "-c", CHILD, str(path), json.dumps(options)],
                                 env)
        runs.append({**json.loads(out), "peak": peak})
    assert len({(r["ratings"], tuple(r["raters"])) for r in runs}) == 1
    return {"seconds": min(r["seconds"] for r in runs), "peak": max(r["peak"] for r in runs),
            "base": min(rss_mib(r["base"]) for r in runs), "read": runs[0]["ratings"],
            "raters": runs[0]["raters"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    long_path, wide_path = generate(args.rows)
    cases = [
        ("long", long_path, {}, {"unit": "item_id", "rater": "annotator", "value": "label"}),
        ("wide", wide_path, {}, {"raters": ["r1", "r2", "r3", "r4"]}),
    ]
    print(f"{args.rows:,} rows, best of {args.repeat} fresh interpreters; peak = peak RSS "
          "of the process (MiB), after imports in brackets")
    print(f"{'table':6} {'guessed s':>10} {'named s':>10} {'ratio':>7} "
          f"{'guessed peak':>18} {'named peak':>18} {'ratio':>7}")
    for name, path, guessed, named in cases:
        g = measure(path, guessed, args.repeat)
        n = measure(path, named, args.repeat)
        assert (g["read"], g["raters"]) == (n["read"], n["raters"])
        print(f"{name:6} {g['seconds']:10.3f} {n['seconds']:10.3f} "
              f"{g['seconds'] / n['seconds']:7.2f} "
              f"{g['peak']:8.0f} ({g['base']:5.0f}) {n['peak']:8.0f} ({n['base']:5.0f}) "
              f"{g['peak'] / n['peak']:7.2f}")


if __name__ == "__main__":
    main()
