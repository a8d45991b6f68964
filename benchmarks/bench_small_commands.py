"""Small commands in a blink: a small ``accord compute`` against the import of the libraries
it needs, and a small ``accord report`` against that ``compute``.

Each case runs in a fresh interpreter with this checkout's ``src`` first on ``PYTHONPATH``,
the cases taken in turn so that a change of load hits them all alike. Two clocks: the
wall clock, and the CPU time of the child (user + system, from ``getrusage``), which a
busy machine disturbs far less. Medians of ``--repeat`` runs.

- the floor: ``python -c "import numpy, polars, rich.table, click"``, what any command
  that reads a table imports;
- ``accord compute examples/pilot.csv --raters annotator_a annotator_b`` (120 units);
- ``accord report`` on the same file with its study protocol, written as HTML (the
  ``make demo`` job).

Goals: compute within 1.3x the floor, report within 2x compute.

``--before OTHER/src`` times the two commands of another checkout in the same turns (the
load then hits both alike), for a before figure.

Usage: ``python benchmarks/bench_small_commands.py [--repeat 9] [--src SRC] [--before SRC]``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PILOT = str(ROOT / "examples" / "pilot.csv")
STUDY = str(ROOT / "examples" / "study.toml")
RATERS = ["--raters", "annotator_a", "annotator_b"]
GOALS = {("compute", "floor"): 1.3, ("report", "compute"): 2.0}


def cases(out: str) -> dict[str, list[str]]:
    return {
        "floor": ["-c", "import numpy, polars, rich.table, click"],
        "compute": ["-m", "accord", "compute", PILOT, *RATERS],
        "report": ["-m", "accord", "report", PILOT, *RATERS, "--study", STUDY, "-o", out],
    }


def with_before(todo: dict[str, list[str]], src: str, before: str | None
                ) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Each case with the environment it runs in (the ``before`` checkout's commands too)."""
    env = {**os.environ, "PYTHONPATH": src}
    out = {name: (argv, env) for name, argv in todo.items()}
    if before is not None:
        old = {**os.environ, "PYTHONPATH": before}
        out |= {f"{name} (before)": (todo[name], old) for name in ("compute", "report")}
    return out


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--src", default=str(ROOT / "src"),
                        help="the accord sources to time (another checkout's src gives a "
                        "before figure)")
    parser.add_argument("--before", default=None,
                        help="another checkout's src, timed in the same turns")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        todo = with_before(cases(str(Path(tmp) / "report.html")), args.src, args.before)
        wall: dict[str, list[float]] = {name: [] for name in todo}
        cpu: dict[str, list[float]] = {name: [] for name in todo}
        for src in filter(None, (args.src, args.before)):
            # Bytecode written first: under PYTHONDONTWRITEBYTECODE a module changed since
            # its last compilation would be compiled again in every run.
            compileall.compile_dir(src, quiet=1)
        for name in ("compute", "compute (before)"):
            if name in todo:
                run(*todo[name])  # warm the file cache
        for _ in range(args.repeat):
            for name, (argv, env) in todo.items():
                w, c = run(argv, env)
                wall[name].append(w)
                cpu[name].append(c)
    load = os.getloadavg()[0]
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load {load:.2f} at "
          f"the end; medians of {args.repeat} fresh interpreters (spread: min-max)")
    print(f"{'case':<17} {'wall s':>8} {'(min-max)':>14} {'cpu s':>8} {'(min-max)':>14}")
    for name in todo:
        print(f"{name:<17} {statistics.median(wall[name]):8.3f} "
              f"{min(wall[name]):6.3f}-{max(wall[name]):<7.3f} "
              f"{statistics.median(cpu[name]):8.3f} {min(cpu[name]):6.3f}-{max(cpu[name]):.3f}")
    goals = dict(GOALS)
    if args.before is not None:
        goals |= {("compute (before)", "floor"): GOALS["compute", "floor"],
                  ("report (before)", "compute (before)"): GOALS["report", "compute"]}
    for (a, b), goal in goals.items():
        rw = statistics.median(wall[a]) / statistics.median(wall[b])
        rc = statistics.median(cpu[a]) / statistics.median(cpu[b])
        verdict = "met" if rc <= goal else "NOT met"
        print(f"{a} / {b}: {rw:.2f}x wall, {rc:.2f}x cpu (goal {goal}x: {verdict} on cpu)")


if __name__ == "__main__":
    main()
