"""What the layout checks cost: reading a table with its columns guessed vs named.

When a table's columns are not named, ``accord.read`` looks at the first
100,000 rows before reading: a wide table's text columns are measured (free
text is never a rater) and its unit ids counted (a long table is never read as
wide); a long table's label column, found by its name, is measured (free text
is never the labels). Named columns skip those looks. This script times both
on the same files, so the ratio is the price of the checks.

Usage: ``python benchmarks/bench_layout.py [--rows 1000000] [--repeat 3]``.
The files are generated once under ``benchmarks/_data/`` (git-ignored): a long
CSV (item_id, annotator, label; 4 annotators, 5 labels) and a wide CSV
(item_id, 4 rater columns, and a free-text ``comment`` column).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "_data"


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


def best(func: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import accord

    long_path, wide_path = generate(args.rows)
    cases = [
        ("long", long_path, {}, {"unit": "item_id", "rater": "annotator", "value": "label"}),
        ("wide", wide_path, {}, {"raters": ["r1", "r2", "r3", "r4"]}),
    ]
    print(f"{args.rows:,} rows, best of {args.repeat}")
    print(f"{'table':6} {'guessed s':>10} {'named s':>10} {'ratio':>7}")
    for name, path, guessed, named in cases:
        a = accord.read(path, **guessed)
        b = accord.read(path, **named)
        assert a.n_ratings == b.n_ratings and a.raters == b.raters
        t_guess = best(lambda p=path, o=guessed: accord.read(p, **o), args.repeat)
        t_named = best(lambda p=path, o=named: accord.read(p, **o), args.repeat)
        print(f"{name:6} {t_guess:10.3f} {t_named:10.3f} {t_guess / t_named:7.2f}")


if __name__ == "__main__":
    main()
