"""Shared test settings: every warning is an error (pyproject), so tests assert warnings."""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from hypothesis import settings

# CI: the same examples on every run (a red CI is then reproducible); local runs
# explore new examples each time, and "deep" searches long
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=30, deadline=None)
# a long search for counter-examples, by hand: pytest --hypothesis-profile=deep
settings.register_profile("deep", max_examples=1000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# scripts that made a test's reference figures with a peer installed by hand (their
# docstrings say how): data, not tests, and not importable where the peer is absent
collect_ignore_glob = ["*/data/*.py"]


# Cohen (1960, p. 45) table, rows = first rater: as 200 units it reproduces kappa = 0.4915.
COHEN_1960 = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]


def write_table_csv(path: Path, table: list[list[int]], header: str, extra: str = "") -> Path:
    """Write a k x k table as a wide CSV: one row per unit, labels c0..c(k-1)."""
    rows = [header]
    unit = 0
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            for _ in range(count):
                unit += 1
                rows.append(f"u{unit:03d},c{i},c{j}{extra}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


CLI_ENV = {"COLUMNS": "120", "LINES": "50"}


def run_cli(*args: str) -> tuple[int, str, str]:
    """Invoke ``accord`` in-process: exit code, stdout, stderr.

    The terminal is fixed at 120 columns, so rich lays tables out the same way
    whatever ``COLUMNS`` the machine running the tests has.
    """
    from click.testing import CliRunner

    from accord.cli import main

    result = CliRunner(env=CLI_ENV).invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def traced_peak(func: Callable[[], object]) -> int:
    """The peak bytes ``tracemalloc`` sees during one call of ``func`` (numpy reports its
    buffers to tracemalloc), for tests that a computation never builds a large array."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
