"""The crowd data of bench_crowd.py: long Parquet, integer ids, labels 0-4.

Shaped like the public toxicity-rating data: ``units`` comments, each rated by
about ``per_unit`` of ``workers`` crowd workers (a worker rates a comment at
most once), each worker with a personal bias on a 0-4 scale. Generated once
under ``benchmarks/_data/`` (git-ignored), never committed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "_data"


def crowd_arrays(units: int, workers: int = 9000, per_unit: int = 24,
                 seed: int = 0) -> tuple[Any, Any, Any]:
    """The crowd's (unit, worker, label) codes as int64 arrays: each comment rated by
    ``per_unit`` +- 6 distinct workers (a random start and a stride coprime to
    ``workers``), labels 0-4 from a true label, a worker bias and noise."""
    import numpy as np

    rng = np.random.default_rng(seed)
    sizes = rng.integers(max(2, per_unit - 6), per_unit + 7, units)
    unit = np.repeat(np.arange(units, dtype=np.int64), sizes)
    start = rng.integers(0, workers, units)
    offset = np.arange(unit.shape[0]) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    worker = (np.repeat(start, sizes) + offset * 7919) % workers
    truth = rng.choice(5, units, p=[0.55, 0.2, 0.12, 0.08, 0.05])
    bias = rng.normal(0, 0.6, workers)
    noisy = np.repeat(truth, sizes) + bias[worker] + rng.normal(0, 0.8, unit.shape[0])
    label = np.clip(np.rint(noisy), 0, 4).astype(np.int64)
    return unit, worker, label


def crowd_file(units: int, workers: int = 9000, per_unit: int = 24, seed: int = 0) -> Path:
    """The path of the crowd Parquet file with these dimensions (made once)."""
    import polars as pl

    path = DATA / f"crowd_{units}_{workers}_{per_unit}.parquet"
    if path.exists():
        return path
    DATA.mkdir(exist_ok=True)
    unit, worker, label = crowd_arrays(units, workers, per_unit, seed)
    pl.DataFrame({"comment_id": unit, "worker_id": worker, "toxicity": label}).write_parquet(path)
    return path
