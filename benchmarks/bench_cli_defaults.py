"""What the one ``--n-resamples`` default (9999) costs the commands whose own default
was smaller: ``judge alt`` (2000), ``spans`` (1999) and ``annotators`` (1999).

Each command runs on its example file in a fresh interpreter (wall clock, best of
``--repeat`` runs, this checkout's ``src`` first on ``PYTHONPATH``), once with the
old default given explicitly and once with the shared default, seed 1.

Usage: ``python benchmarks/bench_cli_defaults.py [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

from _timing import child_run

ROOT = Path(__file__).resolve().parents[1]
EX = str(ROOT / "examples")

CASES = {
    "judge alt": (2000, ["judge", f"{EX}/judge.csv", "--judge", "gpt4", "--humans", "ann_a",
                         "ann_b", "ann_c", "--missing", "ERROR"]),
    "spans": (1999, ["spans", f"{EX}/ner_spans.csv", "--unit", "doc", "--rater", "annotator",
                     "--label", "label", "--start", "start", "--end", "end"]),
    "annotators": (1999, ["annotators", f"{EX}/crowd.csv", "--unit", "image", "--rater",
                          "worker", "--value", "label"]),
}


def _best(args: list[str], repeat: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return min(child_run([sys.executable, "-m", "accord", *args], env)[0]
               for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load {load:.2f}; "
          f"best of {args.repeat} fresh interpreters")
    print(f"{'command':<12} {'old default':>16} {'9999 (shared)':>16}")
    for name, (old, argv) in CASES.items():
        before = _best([*argv, "--n-resamples", str(old), "--seed", "1"], args.repeat)
        after = _best([*argv, "--seed", "1"], args.repeat)
        print(f"{name:<12} {before:>9.2f} s ({old}) {after:>14.2f} s")


if __name__ == "__main__":
    main()
