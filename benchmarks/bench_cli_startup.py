"""How long the command line takes to start: ``accord --version`` and ``accord --help``.

Each command runs in a fresh interpreter (wall clock, best and median of
``--repeat`` runs) with this checkout's ``src`` first on ``PYTHONPATH``. For
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
import subprocess
import sys
import time
from pathlib import Path

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


def _time(args: list[str], repeat: int) -> list[float]:
    env = {**os.environ, "PYTHONPATH": SRC}
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load {load:.2f}; "
          f"best and median of {args.repeat} fresh interpreters")
    print(f"{'command':<36} {'best':>8} {'median':>8}")
    best = {}
    for name, argv in CASES.items():
        times = _time(argv, args.repeat)
        best[name] = min(times)
        print(f"{name:<36} {min(times):>7.3f}s {statistics.median(times):>7.3f}s")
    for name in ("accord --version", "accord --help"):
        verdict = "under" if best[name] < GOAL else "OVER"
        print(f"{name}: best {best[name]:.3f} s, {verdict} the {GOAL} s goal; "
              f"{best['import scipy.stats'] / best[name]:.1f}x faster than importing "
              "scipy.stats alone")


if __name__ == "__main__":
    main()
