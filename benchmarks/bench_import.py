"""How long the commands that do the work take on a small file, against ``import numpy``.

Each case runs in a fresh interpreter with this checkout's ``src`` first on
``PYTHONPATH`` (wall clock; median and best of ``--repeat`` runs, the cases taken in
turn so that a change of load hits them all alike): ``import numpy`` (the yardstick),
the first coefficient call (``import accord; accord.cohen_kappa(...)``), and ``accord
compute`` and ``accord check`` on ``examples/pilot.csv`` (120 units, 240 ratings).
Goal (issue 20): each within 4x ``import numpy``. For scale: numpy, polars, rich and
click imported together, the floor of any command that reads a table.

Usage: ``python benchmarks/bench_import.py [--repeat 9] [--src OTHER/src]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path

from _timing import child_run

ROOT = Path(__file__).resolve().parents[1]
SRC = str(ROOT / "src")
PILOT = str(ROOT / "examples" / "pilot.csv")
GOAL = 4.0
RATERS = ["--raters", "annotator_a", "annotator_b"]

CASES = {
    "import numpy": ["-c", "import numpy"],
    "import numpy, polars, rich, click": ["-c", "import numpy, polars, rich, click"],
    "accord.cohen_kappa (first call)": [
        "-c", "import accord; accord.cohen_kappa(['a', 'b', 'a'], ['a', 'b', 'b'])"],
    "accord compute pilot.csv": ["-m", "accord", "compute", PILOT, *RATERS],
    "accord check pilot.csv": ["-m", "accord", "check", PILOT, *RATERS,
                               "--coefficient", "cohen_kappa", "--min", "0.6"],
}
GOAL_CASES = ("accord.cohen_kappa (first call)", "accord compute pilot.csv",
              "accord check pilot.csv")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--src", default=SRC, help="the accord sources to time (default: "
                        "this checkout's; another checkout's src gives a before figure)")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": args.src}
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.repeat):
        for name, argv in CASES.items():
            seconds, _, _ = child_run([sys.executable, *argv], env)
            times[name].append(seconds)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load {load:.2f}; "
          f"median and best of {args.repeat} fresh interpreters")
    base = statistics.median(times["import numpy"])
    print(f"{'command':<36} {'median':>8} {'best':>8} {'x numpy':>8}")
    for name, runs in times.items():
        med = statistics.median(runs)
        print(f"{name:<36} {med:>7.3f}s {min(runs):>7.3f}s {med / base:>7.1f}x")
    for name in GOAL_CASES:
        ratio = statistics.median(times[name]) / base
        verdict = "within" if ratio <= GOAL else "OVER"
        print(f"{name}: {ratio:.1f}x import numpy, {verdict} the {GOAL:g}x goal")


if __name__ == "__main__":
    main()
