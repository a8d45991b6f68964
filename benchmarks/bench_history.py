"""``accord history`` on a store of many runs: the console table and the history page.

Run by hand::

    .venv/bin/python benchmarks/bench_history.py [--quick]

A store of n runs (n = 10^3 to 10^5) of one study, each a Cohen's kappa with its
interval and a decision, is written with one ``executemany`` (the rows ``check
--record`` writes, copied). Timed, best of 3 CPU seconds (``time.process_time``, so
other work on the machine does not count): reading the runs with and without their
evidence registers (``Store.runs(registers=...)``), the control chart, the history page;
then the whole command ``accord history STORE -o page.html`` in a child process (its
CPU seconds, and wall time), and the page's size.
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from _timing import best_of

import accord
from accord.history.drift import charts
from accord.history.store import Store
from accord.report.history_html import render_history_html


def store_of(path: Path, n: int) -> None:
    s = Store(path)
    k = accord.cohen_kappa(["a", "b", "a", "b", "a", "b"], ["a", "b", "a", "a", "a", "b"])
    s.record_result(k, study="s", threshold=0.5, time="2026-01-01T00:00:00+00:00")
    con = sqlite3.connect(path)
    row = con.execute("SELECT time, study, revision, source, checksum, n_units, n_raters, "
                      "raters, decision, rule, threshold, accord_version, register "
                      "FROM runs").fetchone()
    fig = con.execute("SELECT * FROM figures").fetchone()
    con.executemany(
        "INSERT INTO runs (time, study, revision, source, checksum, n_units, n_raters, raters,"
        " decision, rule, threshold, accord_version, register) VALUES "
        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(f"2026-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}+00:00",
          *row[1:]) for i in range(1, n)])
    con.executemany("INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(i + 1, *fig[1:]) for i in range(1, n)])
    con.commit()
    con.close()


def main(sizes: list[int]) -> None:
    print("| runs | read with registers | read without | chart | page | command: CPU (wall) "
          "| page size |")
    print("|---|---|---|---|---|---|---|")
    cpu = time.process_time
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "h.db"
            store_of(path, n)
            st = Store(path, create=False)
            full, _ = best_of(3, st.runs, cpu)
            light, runs = best_of(3, partial(st.runs, registers=False), cpu)
            chart, drawn = best_of(3, partial(charts, runs, annotators=True), cpu)
            page, html = best_of(3, partial(render_history_html, runs, drawn, title="h",
                                            accord_version="0"), cpu)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "accord", "history", str(path), "-o",
                            str(Path(tmp) / "page.html")], check=True,
                           stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            print(f"| {n:,} | {full:.2f} s | {light:.2f} s | {chart:.2f} s | {page:.2f} s "
                  f"| {used:.2f} s ({wall:.2f} s) | {len(html) / 1024:.0f} KiB |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    main([1_000, 10_000] if args.quick else [1_000, 10_000, 100_000])
