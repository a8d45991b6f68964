"""The whole crowd report at growing sizes: how its time and peak memory grow with the ratings.

``accord report FILE --unit comment_id --rater worker_id --value toxicity --level ordinal
-o report.html`` on the generated crowd (``benchmarks/_crowd_data.py``: 9,000 workers,
about 24 ratings per comment, labels 0-4) at fractions of the full 1.9 M comments
(45 M ratings), each size in a fresh interpreter so that its peak resident memory
(``VmHWM``, the process's own high-water mark: ``ru_maxrss`` would keep the RSS of
the parent that started it) is its own. A baseline process (the same imports, no report) gives the
memory every process holds anyway; the growth of peak memory is fitted on what the
report adds to it.

The growth exponent ``b`` of ``y = a x^b`` (``x`` the ratings) is the least-squares slope
of ``log y`` on ``log x`` over the sizes run, and, between each two neighbouring sizes,
``log(y2 / y1) / log(x2 / x1)``; time is the child's CPU time (user + system, every
thread), which a busy shared machine changes far less than the wall time (also shown).
An EM consensus (Dawid-Skene, the report's default) runs as many iterations as the data
need, not as the size says (94 at 1/16, 552 at 1/8, 171 at the full size of this
crowd), so the guard fits the growth with ``--consensus-method majority``, whose work
is fixed; each EM iteration is itself a fixed number of bincounts and sparse products
over the ratings. A step of the report whose work grows faster than the
ratings (a quadratic join, a per-annotator array of every rating) shows as an exponent
well above 1; the guard in ``tests/test_crowd_scale.py`` (slow lane) runs the two
smallest sizes and fails above :data:`MAX_EXPONENT`.

The Dawid-Skene fit, the report's cost under its default, is guarded apart
(``--fit-iterations N``, :func:`fit_scale`): in a fresh process per size,
``accord.consensus(..., method="dawid_skene", max_iter=N)`` less the same with
``max_iter=1`` (the read, the crowd's codes and the count matrix taken out), its CPU
time per iteration fitted the same way. An
iteration whose work grows faster than the ratings (a units x units step, a copy of the
count matrix per product) shows there whatever the number of iterations the data need.

Usage: ``python benchmarks/bench_crowd_scale.py [--units 1900000] [--fractions 16 8 4 2]
[--consensus-method dawid_skene] [--fit-iterations 20] [--json]`` (``--fractions 1`` runs the
full size). The files are generated once under ``benchmarks/_data/`` (git-ignored) by a
child process.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
MAX_EXPONENT = 1.3
ARGS = ["--unit", "comment_id", "--rater", "worker_id", "--value", "toxicity",
        "--level", "ordinal"]

CHILD = r"""
import contextlib, io, json, os, resource, sys, time
limit = int(os.environ["ACCORD_BENCH_AS_LIMIT"])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))  # a runaway size fails, not the machine
import numpy as np, polars as pl
import accord, accord.cli
read = accord.read  # the library's lazy import is not the report's cost
start = time.perf_counter()
cpu0 = sum(getattr(resource.getrusage(resource.RUSAGE_SELF), f) for f in ("ru_utime", "ru_stime"))
if sys.argv[1] != "baseline":
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        try:
            accord.cli.main(["report", *sys.argv[1:]])
        except SystemExit as exc:
            if exc.code not in (0, None):
                raise
use = resource.getrusage(resource.RUSAGE_SELF)
def peak_kib():
    # VmHWM is this process's own high-water mark; ru_maxrss also keeps the RSS of the
    # parent that forked it (Linux carries it across exec), so a large parent (a test
    # runner) would hide the report's memory
    try:
        with open("/proc/self/status") as fh:
            return next(int(l.split()[1]) for l in fh if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return use.ru_maxrss
print(json.dumps({"seconds": time.perf_counter() - start,
                  "cpu_seconds": use.ru_utime + use.ru_stime - cpu0,
                  "peak_mb": peak_kib() / 1024}))
"""

FIT_CHILD = r"""
import json, os, resource, sys, time, warnings
limit = int(os.environ["ACCORD_BENCH_AS_LIMIT"])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import accord
from accord.errors import ConvergenceWarning
ann = accord.read(sys.argv[1], unit="comment_id", rater="worker_id", value="toxicity",
                  level="ordinal")
def cpu():
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime
def timed(n):
    start, cpu0 = time.perf_counter(), cpu()
    c = accord.consensus(ann, method="dawid_skene", max_iter=n)
    return time.perf_counter() - start, cpu() - cpu0, c.n_iter
def best(n):
    # the least of three runs: a fit of 20 iterations at 1/16 size is half a second of
    # CPU, which another process on the machine can stretch (caches, memory bandwidth)
    runs = [timed(n) for _ in range(3)]
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2]
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    one = best(1)  # the crowd, the count matrix and one iteration
    many = best(int(sys.argv[2]))
print(json.dumps({"seconds": many[0] - one[0], "cpu_seconds": many[1] - one[1],
                  "n_iter": many[2] - one[2], "ratings": ann.n_ratings}))
"""

GENERATE = r"""
import sys
sys.path.insert(0, sys.argv[1])
from _crowd_data import crowd_file
print(crowd_file(int(sys.argv[2])))
"""


def data_file(units: int) -> str:
    """The generated crowd of ``units`` comments (made once, in a child process)."""
    out = subprocess.run([sys.executable, "-c", GENERATE, str(HERE), str(units)],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


#: The address space each child may take (a report that would pass it fails with a
#: MemoryError instead of pushing a shared machine out of memory).
AS_LIMIT_GIB = 12


def _child(args: list[str], code: str = CHILD) -> dict[str, float]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore",
           "ACCORD_BENCH_AS_LIMIT": str(AS_LIMIT_GIB * 2**30)}
    out = subprocess.run([sys.executable, "-c", code, *args], check=True,
                         capture_output=True, text=True, env=env)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def run_report(path: str, method: str = "dawid_skene") -> dict[str, float]:
    """One report of ``path`` in a fresh process (the Annotators section's consensus by
    ``method``): its wall and CPU seconds and peak RSS (MB)."""
    with tempfile.TemporaryDirectory() as tmp:
        return _child([path, *ARGS, "--consensus-method", method,
                       "-o", str(Path(tmp) / "report.html")])


def baseline() -> float:
    """The peak RSS (MB) of a process that imports what the report's process imports."""
    return _child(["baseline"])["peak_mb"]


def slope(x: list[float], y: list[float]) -> float:
    """The least-squares slope of ``log y`` on ``log x``: the growth exponent."""
    lx, ly = [math.log(a) for a in x], [math.log(max(b, 1e-9)) for b in y]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return (sum((a - mx) * (b - my) for a, b in zip(lx, ly))
            / sum((a - mx) ** 2 for a in lx))


def scale(units: int, fractions: list[int], method: str = "dawid_skene") -> dict[str, Any]:
    """Run the report at ``units / f`` comments for each ``f`` (largest ``f`` first) and fit
    the growth of its CPU time and of the memory it adds to the baseline."""
    import polars as pl

    base = baseline()
    rows = []
    for f in sorted(fractions, reverse=True):
        path = data_file(units // f)
        ratings = pl.scan_parquet(path).select(pl.len()).collect().item()
        got = run_report(path, method)
        rows.append({"fraction": f"1/{f}", "units": units // f, "ratings": int(ratings),
                     "seconds": got["seconds"], "cpu_seconds": got["cpu_seconds"],
                     "peak_mb": got["peak_mb"],
                     "added_mb": max(got["peak_mb"] - base, 1.0)})
    x = [float(r["ratings"]) for r in rows]
    fits: dict[str, Any] = {"baseline_mb": base, "rows": rows}
    for key in ("cpu_seconds", "added_mb"):
        y = [float(r[key]) for r in rows]
        fits[f"{key}_exponent"] = slope(x, y) if len(rows) > 1 else math.nan
        fits[f"{key}_steps"] = [math.log(y[i + 1] / y[i]) / math.log(x[i + 1] / x[i])
                                for i in range(len(rows) - 1)]
    return fits


def fit_scale(units: int, fractions: list[int], iterations: int = 20) -> dict[str, Any]:
    """Dawid-Skene at ``units / f`` comments for each ``f``: the CPU time of ``iterations``
    EM iterations less that of one (a fit that converges sooner counts its own; each the
    least of three runs), each size in a fresh process, and the growth exponent of the
    CPU time per iteration."""
    rows = []
    for f in sorted(fractions, reverse=True):
        got = _child([data_file(units // f), str(iterations)], FIT_CHILD)
        n_iter = int(got["n_iter"])
        rows.append({"fraction": f"1/{f}", "units": units // f, "ratings": int(got["ratings"]),
                     "n_iter": n_iter, "seconds": got["seconds"],
                     "cpu_seconds": got["cpu_seconds"],
                     "cpu_per_iteration": got["cpu_seconds"] / max(n_iter, 1)})
    x = [float(r["ratings"]) for r in rows]
    y = [float(r["cpu_per_iteration"]) for r in rows]
    return {"rows": rows,
            "cpu_per_iteration_exponent": slope(x, y) if len(rows) > 1 else math.nan,
            "cpu_per_iteration_steps": [math.log(y[i + 1] / y[i]) / math.log(x[i + 1] / x[i])
                                        for i in range(len(rows) - 1)]}


def _print_fit(fits: dict[str, Any]) -> None:
    print("Dawid-Skene iterations alone (a fit of N iterations less a fit of one)")
    print("| size | units | ratings | iterations | wall | CPU | CPU per iteration |")
    print("|---|---|---|---|---|---|---|")
    for r in fits["rows"]:
        print(f"| {r['fraction']} | {r['units']:,} | {r['ratings']:,} | {r['n_iter']} | "
              f"{r['seconds']:.2f} s | {r['cpu_seconds']:.2f} s | "
              f"{r['cpu_per_iteration'] * 1000:.1f} ms |")
    steps = ", ".join(f"{s:.2f}" for s in fits["cpu_per_iteration_steps"])
    print(f"growth exponent of CPU per iteration: {fits['cpu_per_iteration_exponent']:.2f} "
          f"(steps: {steps})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=1_900_000)
    parser.add_argument("--fractions", type=int, nargs="+", default=[16, 8, 4, 2])
    parser.add_argument("--consensus-method", default="dawid_skene")
    parser.add_argument("--fit-iterations", type=int, default=None, metavar="N",
                        help="time N iterations of the Dawid-Skene fit alone instead of "
                        "the report")
    parser.add_argument("--json", action="store_true")
    a = parser.parse_args()
    load = os.getloadavg()
    if a.fit_iterations is not None:
        fit = fit_scale(a.units, a.fractions, a.fit_iterations)
        if a.json:
            print(json.dumps({**fit, "load": load}, indent=1))
        else:
            print(f"python {platform.python_version()}, load average {load[0]:.2f} "
                  f"{load[1]:.2f} {load[2]:.2f}")
            _print_fit(fit)
        return
    fits = scale(a.units, a.fractions, a.consensus_method)
    if a.json:
        print(json.dumps({**fits, "load": load}, indent=1))
        return
    print(f"python {platform.python_version()}, load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}; baseline process {fits['baseline_mb']:.0f} MB")
    print(f"consensus: {a.consensus_method}")
    print("| size | units | ratings | report (wall) | CPU | peak RSS | added to baseline |")
    print("|---|---|---|---|---|---|---|")
    for r in fits["rows"]:
        print(f"| {r['fraction']} | {r['units']:,} | {r['ratings']:,} | {r['seconds']:.1f} s | "
              f"{r['cpu_seconds']:.1f} s | {r['peak_mb'] / 1024:.2f} GiB | "
              f"{r['added_mb']:.0f} MB |")
    for key, name in (("cpu_seconds", "CPU time"), ("added_mb", "peak memory")):
        steps = ", ".join(f"{s:.2f}" for s in fits[f"{key}_steps"])
        print(f"growth exponent of {name}: {fits[f'{key}_exponent']:.2f} (steps: {steps})")


if __name__ == "__main__":
    main()
