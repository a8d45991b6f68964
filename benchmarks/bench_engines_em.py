"""Consensus EM inside an engine vs in memory, on a long Parquet file of 10^6 ratings.

engine: ``accord.engines.consensus(frame, unit=, rater=, value=, method=...)`` on a
polars ``LazyFrame`` (``pl.scan_parquet``, streaming engine) and on DuckDB
(``duckdb.connect().read_parquet``): per EM iteration one query (log terms per
(worker, label) joined with the ratings, summed and normalised per item, the
posteriors summed back per (worker, label)); only that small table is collected,
and the per-item posteriors once at the end.
memory: ``accord.read(path, ...)`` then ``accord.consensus(ann, method=...)``
(timed apart: the read, and the fit).

Both must give the same labels, the same number of iterations and the same
log-likelihood (relative 1e-9); the script stops if not. Methods: majority,
one-coin and Dawid-Skene (plain EM, tol 1e-7 per rating, as the defaults).

Usage: ``python benchmarks/bench_engines_em.py [--ratings N] [--repeat N]``. The file is
generated once under ``benchmarks/_data/`` (git-ignored): ``ratings / 4`` items, 4
ratings each from 200 workers of accuracy 0.55-0.95, 4 string labels with a skewed
prior. Timings are the best of ``--repeat`` runs (wall clock).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).parent / "_data"
COLS = {"unit": "item_id", "rater": "worker", "value": "label"}
METHODS = ("majority", "one_coin", "dawid_skene")


def ratings(rng: np.random.Generator, truth: np.ndarray, skill: np.ndarray, k: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Four ratings of each item of ``truth`` (item codes, worker codes, labels): four
    distinct workers per item (a random start and three random strides), each right with
    its ``skill``, else another of the ``k`` labels at random."""
    n_items, n_workers = truth.shape[0], skill.shape[0]
    item = np.repeat(np.arange(n_items), 4)
    start = rng.integers(0, n_workers, size=n_items)
    offsets = np.cumsum(rng.integers(1, 50, size=(n_items, 4)), axis=1) - 1
    worker = ((start[:, None] + offsets) % n_workers).ravel()
    right = rng.random(item.shape[0]) < skill[worker]
    wrong = (truth[item] + rng.integers(1, k, size=item.shape[0])) % k
    return item, worker, np.where(right, truth[item], wrong)


def generate(n_ratings: int) -> Path:
    import polars as pl

    path = DATA / f"crowd_em_{n_ratings}.parquet"
    if path.exists():
        return path
    DATA.mkdir(exist_ok=True)
    rng = np.random.default_rng(2026)
    n_items, k, n_workers = n_ratings // 4, 4, 200
    truth = rng.choice(k, size=n_items, p=[0.4, 0.3, 0.2, 0.1])
    skill = rng.uniform(0.55, 0.95, size=n_workers)
    item, worker, label = ratings(rng, truth, skill, k)
    names = np.array(["cat", "dog", "fox", "owl"])
    pl.DataFrame({"item_id": item, "worker": [f"w{w:03d}" for w in worker],
                  "label": names[label]}).write_parquet(path)
    return path


def best(fn: Any, repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ratings", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    import duckdb
    import narwhals
    import polars as pl

    import accord
    from accord.engines import consensus

    path = generate(args.ratings)
    print(f"# {path.name}: {args.ratings:,} ratings; python {platform.python_version()}, "
          f"accord {accord.__version__}, polars {pl.__version__}, duckdb {duckdb.__version__}, "
          f"narwhals {narwhals.__version__}; load average {os.getloadavg()[0]:.2f}")
    t_read, ann = best(lambda: accord.read(str(path), **COLS), args.repeat)
    print(f"accord.read: {t_read:.2f} s")
    frames = {"polars-lazy": lambda: pl.scan_parquet(path),
              "duckdb": lambda: duckdb.connect().read_parquet(str(path))}
    print("| method | iterations | memory fit | memory read + fit | engine | engine time "
          "| per iteration | x memory read + fit |")
    print("|---|---|---|---|---|---|---|---|")
    for method in METHODS:
        t_mem, mem = best(lambda m=method: accord.consensus(ann, method=m), args.repeat)
        for name, make in frames.items():
            t_eng, (got, _) = best(lambda m=method, f=make: consensus(f(), **COLS, method=m),
                                   args.repeat)
            _check(got, mem)
            per = f"{t_eng / got.n_iter:.3f} s" if got.n_iter else "-"
            print(f"| {method} | {got.n_iter} | {t_mem:.2f} s | {t_read + t_mem:.2f} s "
                  f"| {name} | {t_eng:.2f} s | {per} | {t_eng / (t_read + t_mem):.1f}x |")


def _check(got: Any, mem: Any) -> None:
    # accord.read keeps ids as text; the engine keeps the file's integers
    same = {str(u): x for u, x in got.labels.items()} == dict(mem.labels)
    if got.n_iter != mem.n_iter or not same:
        raise SystemExit(f"{got.method}: the engine's fit differs from the in-memory one")
    if mem.n_iter and abs(got.log_likelihood - mem.log_likelihood) > 1e-9 * abs(
            mem.log_likelihood):
        raise SystemExit(f"{got.method}: log-likelihoods differ: {got.log_likelihood!r} "
                         f"vs {mem.log_likelihood!r}")


if __name__ == "__main__":
    main()
