"""``accord compute --by`` and ``accord check --by`` on thousands of groups (issue 40).

Run by hand::

    .venv/bin/python benchmarks/bench_by_groups.py [--quick]

A wide CSV (batch, item, a, b, c): ``groups`` batches of 10 units rated by three
raters on three labels. Each command runs in a fresh process; the figures are its
wall-clock seconds and CPU seconds (user + system, from ``os.wait4``: on a machine
shared with other work the wall clock also counts the time spent waiting for a
core) and its peak resident memory.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def table(folder: Path, groups: int, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, groups * 10)
    noise = rng.random((groups * 10, 3)) < 0.2
    votes = np.where(noise, rng.integers(0, 3, (groups * 10, 3)), truth[:, None])
    path = folder / f"by_{groups}.csv"
    with path.open("w") as f:
        f.write("batch,item,a,b,c\n")
        f.writelines(f"b{i // 10},i{i},{v[0]},{v[1]},{v[2]}\n" for i, v in enumerate(votes))
    return path


def timed(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one run of ``argv``."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        pid = os.posix_spawnp(argv[0], argv, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, null.fileno(), 1),
                                            (os.POSIX_SPAWN_DUP2, null.fileno(), 2)])
        _, _, usage = os.wait4(pid, 0)
    return (time.perf_counter() - start, usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 2**10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10^3 groups only")
    args = parser.parse_args()
    sizes = [1000] if args.quick else [1000, 10_000]
    print("| groups | rows | command | wall | CPU | peak RSS |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = table(Path(tmp), n)
            for command, extra in (("compute", []),
                                   ("check", ["--coefficient", "fleiss_kappa", "--min", "0.2"])):
                argv = [sys.executable, "-m", "accord", command, str(path), "--raters", "a",
                        "b", "c", "--by", "batch", *extra]
                wall, cpu, rss = timed(argv)
                print(f"| {n:,} | {10 * n:,} | {command} --by | {wall:.1f} s | {cpu:.1f} s | "
                      f"{rss:.0f} MiB |", flush=True)


if __name__ == "__main__":
    main()
