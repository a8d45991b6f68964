"""Run every benchmark script in this folder, one after another, and print their figures.

Usage: ``python benchmarks/run_all.py [NAME ...]`` (names without ``bench_`` and
``.py``, e.g. ``cohen fleiss``; default: all). ``coverage.py`` is a simulation
study rather than a timing and runs only when named (``coverage``).
Figures are recorded by hand in ``benchmarks/RESULTS.md`` with the machine's load.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def scripts(names: list[str]) -> list[Path]:
    """The benchmark scripts to run, by short name (all ``bench_*.py`` by default)."""
    if not names:
        return sorted(HERE.glob("bench_*.py"))
    out = []
    for name in names:
        path = HERE / (f"{name}.py" if name == "coverage" else f"bench_{name}.py")
        if not path.exists():
            sys.exit(f"run_all: no benchmark named {name!r} ({path.name} not found)")
        out.append(path)
    return out


def main() -> int:
    print(f"load average: {os.getloadavg()}  cores: {os.cpu_count()}")
    failed = 0
    for path in scripts(sys.argv[1:]):
        print(f"\n=== {path.name} ===", flush=True)
        start = time.perf_counter()
        rc = subprocess.call([sys.executable, str(path)])
        print(f"--- {path.name}: exit {rc}, {time.perf_counter() - start:.1f} s", flush=True)
        failed += rc != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
