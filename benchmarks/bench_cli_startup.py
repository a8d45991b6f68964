"""How long the command line takes to start: ``accord --version`` and ``accord --help``.

Each command runs in a fresh interpreter (wall clock, best and median of
``--repeat`` runs) with this checkout's ``src`` first on ``PYTHONPATH``. Memory is
the child process's peak resident set size (``ru_maxrss`` from ``os.wait4``, the
largest of the runs): the interpreter, its imports and whatever they allocate, so
``python -c pass`` is the baseline to subtract. For
scale: an interpreter that does nothing (``python -c pass``), ``import click``
(the CLI's only eager dependency), and ``import scipy.stats`` (what ``import
accord`` once imported eagerly). Goal: ``--version`` and ``--help`` under 0.3 s.

Usage: ``python benchmarks/bench_cli_startup.py [--repeat 15]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path

from _timing import child_run

SRC = str(Path(__file__).resolve().parents[1] / "src")
GOAL = 0.3

CASES = {
    "python -c pass": ["-c", "pass"],
    "import click": ["-c", "import click"],
    "import scipy.stats": ["-c", "import scipy.stats"],
    "import accord.cli": ["-c", "import accord.cli"],
    "accord --version": ["-m", "accord", "--version"],
    "accord --help": ["-m", "accord", "--help"],
    "import accord; accord.cohen_kappa": ["-c", "import accord; accord.cohen_kappa"],
}


def _runs(args: list[str], repeat: int) -> tuple[list[float], float]:
    """Wall-clock times of ``repeat`` fresh interpreters, and their largest peak RSS (MiB)."""
    env = {**os.environ, "PYTHONPATH": SRC}
    runs = [child_run([sys.executable, *args], env) for _ in range(repeat)]
    return [seconds for seconds, _, _ in runs], max(rss for _, rss, _ in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load {load:.2f}; "
          f"best and median of {args.repeat} fresh interpreters, peak RSS of the child")
    print(f"{'command':<36} {'best':>8} {'median':>8} {'peak RSS':>10} {'over pass':>10}")
    best, rss = {}, {}
    for name, argv in CASES.items():
        times, rss[name] = _runs(argv, args.repeat)
        best[name] = min(times)
        over = rss[name] - rss["python -c pass"]
        print(f"{name:<36} {min(times):>7.3f}s {statistics.median(times):>7.3f}s "
              f"{rss[name]:>6.1f} MiB {over:>6.1f} MiB")
    for name in ("accord --version", "accord --help"):
        verdict = "under" if best[name] < GOAL else "OVER"
        print(f"{name}: best {best[name]:.3f} s, {verdict} the {GOAL} s goal; "
              f"{best['import scipy.stats'] / best[name]:.1f}x faster and "
              f"{rss['import scipy.stats'] / rss[name]:.1f}x less resident memory than "
              "importing scipy.stats alone")


if __name__ == "__main__":
    main()
