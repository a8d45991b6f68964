"""Dawid-Skene at 10^7 ratings and beyond on a local Dask and Spark cluster.

Runs ``accord.engines.consensus(frame, method="dawid_skene")`` on a partitioned Parquet
crowd read by the cluster's workers (``accord.engines.read``), one size and engine per
fresh driver process, and prints per run: the EM iterations, the wall time, the time per
iteration, and the peak memory (``VmHWM``) of the driver and of each worker process
(Dask's worker processes; Spark's worker daemons and executors). With ``--memory`` the
in-memory path (``accord.read`` + ``accord.consensus``) runs on the same folder, for
the per-iteration overhead of an engine; both must give the same labels and iteration
count (the script stops otherwise).

The crowd (``generate``): ``ratings / 4`` items, 4 ratings each from 200 workers of
accuracy 0.55-0.95, 4 labels with a skewed prior (``bench_engines_em.ratings``),
written in parts of 5 x 10^6 ratings, one part at a time, so that generating 10^8
ratings holds one part in memory. The reference point is
spark-crowd (Rodrigo et al. 2019): Dawid-Skene on 10^8 ratings in 703 s on a cluster.

Run it inside the local cluster of the cluster lane, which starts a Dask scheduler with
two worker processes and a Spark standalone master with two workers on 127.0.0.1 and
stops them after::

    python .ci/cluster.py -- python benchmarks/bench_engines_scale.py \\
        --ratings 10000000 30000000 --memory

A worker's ``VmHWM`` is its peak since it started (polled every 0.5 s while a run
lasts), so with the sizes run in increasing order each figure is the peak up to that
size; an executor lives as long as its application, so its figure is the run's own.
The files are generated once under ``benchmarks/_data/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "_data"
COLS = {"unit": "item_id", "rater": "worker", "value": "label"}
PART = 5_000_000
ENGINES = ("dask", "spark")

CHILD = r"""
import json, os, sys, time, warnings
engine, path = sys.argv[1], sys.argv[2]
import accord
from accord.engines import consensus, read
cols = {"unit": "item_id", "rater": "worker", "value": "label"}
if engine == "memory":
    start = time.perf_counter()
    ann = accord.read(path, **cols)
    read_s = time.perf_counter() - start
    start = time.perf_counter()
    c = accord.consensus(ann, method="dawid_skene")
    fit_s = time.perf_counter() - start
    step_s = fit_s / max(c.n_iter, 1)
else:
    if engine == "spark":
        from pyspark.sql import SparkSession
        (SparkSession.builder.appName("accord-scale")
         .master(os.environ["ACCORD_SPARK_MASTER"])
         .config("spark.executor.memory", os.environ.get("ACCORD_BENCH_EXECUTOR_MEMORY", "900m"))
         .getOrCreate())
    start = time.perf_counter()
    frame = read(path, engine=engine, scheduler=os.environ.get("ACCORD_DASK_SCHEDULER")
                 if engine == "dask" else None,
                 master=os.environ.get("ACCORD_SPARK_MASTER") if engine == "spark" else None)
    read_s = time.perf_counter() - start
    import accord.engines._crowd as ec
    step, steps = ec.e_step, []
    def timed(*args):
        t = time.perf_counter()
        out = step(*args)
        steps.append(time.perf_counter() - t)
        return out
    ec.e_step = timed
    start = time.perf_counter()
    c, _ = consensus(frame, **cols, method="dawid_skene")
    fit_s = time.perf_counter() - start
    # the E steps after the first (which waits for the blocks to be made)
    step_s = sum(steps[1:]) / max(len(steps) - 1, 1)
with open("/proc/self/status") as fh:
    hwm = next(int(l.split()[1]) for l in fh if l.startswith("VmHWM:")) / 1024
labels = {str(u): str(x) for u, x in c.labels.items()}
digest = __import__("hashlib").sha256(json.dumps(sorted(labels.items())).encode()).hexdigest()
print(json.dumps({"read_s": read_s, "fit_s": fit_s, "step_s": step_s, "n_iter": c.n_iter,
                  "log_likelihood": c.log_likelihood, "driver_mb": hwm,
                  "labels": digest, "n_units": len(c.units)}))
"""


def generate(n_ratings: int) -> Path:
    """The crowd of ``n_ratings`` ratings as a folder of Parquet parts (made once)."""
    import numpy as np
    import polars as pl
    from bench_engines_em import ratings

    folder = DATA / f"scale_{n_ratings}"
    if (folder / "_done").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    k, n_workers = 4, 200
    skill = np.random.default_rng(2026).uniform(0.55, 0.95, size=n_workers)
    for i, first in enumerate(range(0, n_ratings, PART)):
        rng = np.random.default_rng([2026, i])
        n_items = min(PART, n_ratings - first) // 4
        item0 = first // 4
        truth = rng.choice(k, size=n_items, p=[0.4, 0.3, 0.2, 0.1])
        item, worker, label = ratings(rng, truth, skill, k)
        pl.DataFrame({"item_id": item + item0, "worker": worker.astype(np.int32),
                      "label": label.astype(np.int8)}).write_parquet(
            folder / f"part-{i:04d}.parquet")
    (folder / "_done").touch()
    return folder


def _cluster_processes() -> dict[int, str]:
    """The worker processes of the cluster that started this script (its parent,
    ``.ci/cluster.py``), with their kind: Dask's worker processes (spawned by ``dask
    worker``), Spark's worker daemons and executors (JVMs) and the executors' Python
    workers."""
    cmd: dict[int, str] = {}
    parent: dict[int, int] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        cmd[int(pid)] = raw.replace(b"\0", b" ").decode(errors="replace")
        parent[int(pid)] = int(stat.rsplit(")", 1)[1].split()[1])
    root, inside = os.getppid(), {}
    for pid in cmd:  # the cluster's processes descend from the script that started it
        p, seen = pid, 0
        while p > 1 and p != root and seen < 64:
            p, seen = parent.get(p, 1), seen + 1
        inside[pid] = p == root
    out = {}
    for pid, line in cmd.items():
        if not inside[pid]:
            continue
        java = line.split(" ", 1)[0].endswith("/java")
        if java and "deploy.worker.Worker" in line:
            out[pid] = "spark-worker"
        elif java and "CoarseGrainedExecutorBackend" in line:
            out[pid] = "spark-executor"
        elif "pyspark.daemon" in line:
            out[pid] = "spark-python"
        elif "multiprocessing.spawn" in line and "dask worker" in cmd.get(parent[pid], ""):
            out[pid] = "dask-worker"
    return out


class Peaks:
    """The peak resident memory (``VmHWM``, MB) of each cluster process, polled in a thread
    while a run lasts (an executor's figure is read until it exits)."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[str, float]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self._stop.wait(0.5):
            for pid, kind in _cluster_processes().items():
                try:
                    status = Path(f"/proc/{pid}/status").read_text()
                except OSError:
                    continue
                hwm = next((int(line.split()[1]) / 1024 for line in status.splitlines()
                            if line.startswith("VmHWM:")), 0.0)
                self.seen[pid] = (kind, max(hwm, self.seen.get(pid, (kind, 0.0))[1]))

    def __enter__(self) -> Peaks:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        return ", ".join(f"{kind} {mb:,.0f}" for kind, mb in sorted(self.seen.values()))


def run(engine: str, path: Path) -> dict[str, Any]:
    with Peaks() as peaks:
        done = subprocess.run([sys.executable, "-c", CHILD, engine, str(path)],
                              capture_output=True, text=True,
                              env={"PYSPARK_PYTHON": sys.executable, **os.environ,
                                   "PYTHONWARNINGS": "ignore"})
    if done.returncode != 0:
        raise SystemExit(f"{engine} on {path.name} failed:\n{done.stderr[-3000:]}")
    got = dict(json.loads(done.stdout.strip().splitlines()[-1]))
    got["workers"] = "" if engine == "memory" else peaks.summary()
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ratings", type=int, nargs="+", default=[10_000_000])
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    parser.add_argument("--memory", action="store_true",
                        help="also the in-memory path, for the per-iteration overhead")
    a = parser.parse_args()
    if "dask" in a.engines and not os.environ.get("ACCORD_DASK_SCHEDULER") or (
            "spark" in a.engines and not os.environ.get("ACCORD_SPARK_MASTER")):
        raise SystemExit("run inside the local cluster: python .ci/cluster.py -- python "
                         "benchmarks/bench_engines_scale.py ...")
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}")
    print("| ratings | path | iterations | read | fit | fit / iterations | E step | driver peak "
          "| worker peaks (MB) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in sorted(a.ratings):
        path = generate(n)
        results = {}
        for engine in (["memory"] if a.memory else []) + list(a.engines):
            got = run(engine, path)
            results[engine] = got
            per = got["fit_s"] / max(got["n_iter"], 1)
            print(f"| {n:,} | {engine} | {got['n_iter']} | {got['read_s']:.1f} s | "
                  f"{got['fit_s']:.1f} s | {per:.2f} s | {got['step_s']:.2f} s | "
                  f"{got['driver_mb']:,.0f} MB | "
                  f"{got['workers']} | {os.getloadavg()[0]:.1f} |", flush=True)
        first = next(iter(results.values()))
        for engine, got in results.items():
            if (got["labels"], got["n_iter"]) != (first["labels"], first["n_iter"]):
                raise SystemExit(f"{engine} at {n:,} ratings: labels or iterations differ "
                                 f"from {next(iter(results))}'s")


if __name__ == "__main__":
    main()
