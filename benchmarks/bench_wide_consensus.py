"""Consensus on a crowd with many distinct labels (issue 40).

Run by hand::

    .venv/bin/python benchmarks/bench_wide_consensus.py [--quick] [--report | --quality]

A long CSV (unit, worker, label) whose labels are free-text-like ids: ``units``
units, each rated by 3 of 200 workers, each worker right with probability 0.7 and
otherwise naming a label drawn from twice as many labels as units, so about as
many distinct labels as units. Shapes: 10^4 units (30,000 ratings, about 10^4
labels, the issue's 3.2 GB Dawid-Skene case) and 10^5 units (3 x 10^5 ratings,
about 10^5 labels, a 5 MB file). Each run is ``accord consensus FILE --method M -o
OUT`` in a fresh process: wall-clock seconds and peak resident memory.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from _timing import child_run


def crowd_csv(folder: Path, units: int, seed: int = 0) -> tuple[Path, int]:
    """The crowd file and its number of distinct labels."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, units, units)
    unit = np.repeat(np.arange(units), 3)
    worker = (np.repeat(rng.integers(0, 200, units), 3) + np.tile([0, 67, 131], units)) % 200
    right = rng.random(unit.shape[0]) < 0.7
    label = np.where(right, truth[unit], rng.integers(0, 2 * units, unit.shape[0]))
    path = folder / f"wide_{units}.csv"
    with path.open("w") as f:
        f.write("unit,worker,label\n")
        f.writelines(f"u{u},w{w},L{v}\n" for u, w, v in zip(unit, worker, label))
    return path, int(np.unique(label).shape[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10^4 units only")
    parser.add_argument("--report", action="store_true",
                        help="time `accord report` on 10^3, 10^4 and 10^5 units instead")
    parser.add_argument("--quality", action="store_true",
                        help="time the vote's quality and relabelling on 10^3, 10^4 and "
                        "10^5 units instead")
    args = parser.parse_args()
    if args.quality:
        quality_rows([10**3, 10**4] if args.quick else [10**3, 10**4, 10**5])
        return
    if args.report:
        report_rows([10**3, 10**4] if args.quick else [10**3, 10**4, 10**5])
        return
    sizes = [10**4] if args.quick else [10**4, 10**5]
    print("| units | ratings | labels | file | method | seconds | peak RSS | outcome |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in sizes:
            path, labels = crowd_csv(folder, n)
            size = path.stat().st_size / 2**20
            for method in ("majority", "wawa", "dawid_skene", "one_coin"):
                argv = [sys.executable, "-m", "accord", "consensus", str(path), "--unit", "unit",
                        "--rater", "worker", "--value", "label", "--method", method,
                        "-o", str(folder / "out.csv")]
                try:
                    seconds, rss, _ = child_run(argv)
                    outcome = "labelled"
                except Exception:  # a refusal exits 1: time it the same way
                    seconds, rss, outcome = _refused(argv)
                print(f"| {n:,} | {3 * n:,} | {labels:,} | {size:.1f} MiB | {method} | "
                      f"{seconds:.2f} s | {rss:.0f} MiB | {outcome} |", flush=True)


def report_rows(sizes: list[int]) -> None:
    """`accord report FILE -o OUT.md` on each crowd: wall seconds and peak RSS of the
    process, and the parts it left out (the "left out:" lines under the title)."""
    print("| units | ratings | labels | seconds | peak RSS | left out |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in sizes:
            path, labels = crowd_csv(folder, n)
            out = folder / "report.md"
            argv = [sys.executable, "-m", "accord", "report", str(path), "--unit", "unit",
                    "--rater", "worker", "--value", "label", "-o", str(out)]
            seconds, rss, _ = child_run(argv)
            left = [line.split(":", 2)[1].strip() for line in out.read_text().splitlines()
                    if line.startswith("> left out:")]
            print(f"| {n:,} | {3 * n:,} | {labels:,} | {seconds:.2f} s | {rss:.0f} MiB | "
                  f"{'; '.join(left) or 'none'} |", flush=True)


def quality_rows(sizes: list[int]) -> None:
    """`accord consensus FILE --method M` for the labels alone, then with `--relabel 10
    --json` (the one-coin quality of every unit, and the ten units to relabel): wall
    seconds and peak RSS of each process."""
    print("| units | ratings | labels | method | labels only | + quality and --relabel 10 |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in sizes:
            path, labels = crowd_csv(folder, n)
            for method in ("majority", "wawa"):
                argv = [sys.executable, "-m", "accord", "consensus", str(path), "--unit",
                        "unit", "--rater", "worker", "--value", "label", "--method", method]
                plain = child_run([*argv, "-o", str(folder / "out.csv")])
                full = child_run([*argv, "--relabel", "10", "--json"])
                print(f"| {n:,} | {3 * n:,} | {labels:,} | {method} | {plain[0]:.2f} s, "
                      f"{plain[1]:.0f} MiB | {full[0]:.2f} s, {full[1]:.0f} MiB |", flush=True)


def _refused(argv: list[str]) -> tuple[float, float, str]:
    import subprocess

    from _timing import _LAUNCHER

    proc = subprocess.run([sys.executable, "-c", _LAUNCHER, *argv], capture_output=True,
                          text=True, check=False)
    seconds, maxrss, code = proc.stderr.split()[-3:]
    return float(seconds), int(maxrss) / 2**10, f"refused (exit {code})"


if __name__ == "__main__":
    main()
