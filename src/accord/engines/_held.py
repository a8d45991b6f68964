"""The coded ratings held on Dask's workers or Spark's executors, one block per partition.

An EM fit reads the ratings on every iteration. As two SQL-like queries
(:mod:`accord.engines._crowd`: join the terms, group by unit, join the posteriors back,
group by key), each iteration moves every rating through two shuffles. Here the
ratings are partitioned by unit once, each partition is coded once into a block of
arrays (:mod:`accord.engines._blocks`) kept where it was made (Dask: persisted in the
workers' memory; Spark: a cached RDD), and an iteration is one map over the blocks and
one reduction: the driver sends the ``n_keys x k`` table of log terms and gets back
the ``n_keys x k`` posterior mass, the prior's numerator and the log-likelihood (the
same :class:`~accord.engines._crowd.Counts` as the queries', summed in another order).
The per-unit posteriors are collected once, at the end, as before. DuckDB and polars
run in this process and plan each query fast, so they keep the queries.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeVar

import numpy as np

from accord.engines import _blocks as bk
from accord.engines import _frame as fr
from accord.engines._crowd import Counts, EngineCrowd, FloatArray, K
from accord.engines._frame import IntArray, U
from accord.errors import EngineError

T = TypeVar("T")
#: Ratings per block at most (a block is about 12 bytes a rating while a pass runs).
PER_BLOCK = 4_000_000


def hold(crowd: EngineCrowd) -> EngineCrowd:
    """``crowd`` with its ratings held as blocks where the engine has workers (Dask,
    Spark); unchanged elsewhere."""
    import narwhals as nw

    impl = crowd.ratings.implementation
    if impl is nw.Implementation.DASK:
        # the blocks hold the ratings now: without a reference to the persisted rows,
        # the workers free them once the blocks are made
        return replace(crowd, held=_Dask.of(crowd), ratings=None)
    if impl is nw.Implementation.PYSPARK:  # not Spark Connect or SQLFrame: no RDDs there
        return replace(crowd, held=_Spark.of(crowd))
    return crowd


def _guarded(run: Callable[[], T], engine: str) -> T:
    """``run()``, a cluster's lost workers and stopped sessions in one sentence (as
    :func:`accord.engines._frame.collect` does for the queries), and a cluster that
    cannot load accord's code for the blocks."""
    try:
        return run()
    except Exception as exc:
        lost = fr.lost_worker(exc) or fr.spark_failure(exc) or _no_accord(exc, engine)
        if lost is None:
            raise
        raise lost from exc


def _no_accord(exc: BaseException, engine: str) -> EngineError | None:
    """A scheduler, worker or executor without accord or a package its code imports."""
    text = str(exc)
    missing = re.search(r"No module named '([\w.]+)'", text)
    if missing is None and "deserialization of the task graph" not in text:
        return None
    where = ("the Dask scheduler or its workers" if engine == "dask"
             else "the Spark executors' Python")
    what = (f"has no module {missing.group(1)!r}" if missing
            else "could not load accord's code for the fit")
    return EngineError(
        f"{where} {what}, so the {engine} engine stopped: a fit runs accord's "
        "per-partition code where the ratings are, so install accord with its engines "
        "extra (pip install 'accord[engines]'), the same version as here, in the Python "
        "that the engine's processes run"
        + (" (PYSPARK_PYTHON)." if engine == "spark" else "."))


def _n_parts(crowd: EngineCrowd, cores: int) -> int:
    """Blocks of at most :data:`PER_BLOCK` ratings, in a multiple of the cluster's
    cores (every core busy in each pass, and few tasks: a pass is one task a block)."""
    cores = max(int(cores), 1)
    return cores * max(math.ceil(math.ceil(crowd.n_ratings / PER_BLOCK) / cores), 1)


def _dask_cores() -> int:
    """The threads of the Dask cluster this process uses, else this machine's cores."""
    import os

    try:
        from distributed import get_client

        client: Any = get_client()
        return sum(client.nthreads().values())
    except (ImportError, ValueError):
        return os.cpu_count() or 1


@dataclass
class _Held:
    """What both engines share: the crowd's sorted keys and how to make the Counts."""

    crowd: EngineCrowd

    def counts(self, sums: bk.Sums) -> Counts:
        c = self.crowd
        mass = np.zeros((c.n_raters * c.k, c.k))
        mass[c.keys] = sums[0]
        return Counts(mass, np.asarray(sums[1], dtype=np.float64), float(sums[2]))

    def _sum(self, f: Callable[..., bk.Sums], *args: Any) -> Counts:
        """``f(block, *args)`` over every block, the sums added (each engine's map)."""
        raise NotImplementedError

    def e_step(self, terms: FloatArray, log_prior: FloatArray) -> Counts:
        """One E step over the blocks and the sums its M step reads."""
        return self._sum(bk.e_and_m, terms, log_prior)

    def votes(self) -> Counts:
        """The sums of the vote shares, for EM's start."""
        return self._sum(bk.votes, self.labels(), self.crowd.k)

    def labels(self) -> IntArray:
        return np.asarray(self.crowd.keys % self.crowd.k, dtype=np.int64)

    def table(self, parts: list[tuple[Any, IntArray, FloatArray]]
              ) -> tuple[list[Any], IntArray, FloatArray]:
        """The blocks' units, sorted by id (as the queries' ``unit_table`` sorts them)."""
        import polars as pl

        got = [p for p in parts if len(p[0])]
        ids = pl.Series(U, np.concatenate([p[0] for p in got]) if got else [])
        n = np.concatenate([p[1] for p in got]) if got else np.zeros(0, dtype=np.int64)
        post = (np.concatenate([p[2] for p in got]) if got
                else np.zeros((0, self.crowd.k)))
        order = ids.arg_sort().to_numpy()
        source = fr.as_source(_narwhals(ids[order]), self.crowd.unit_dtype)
        return source.to_list(), n[order].astype(np.int64), post[order]


def _dask() -> Any:
    """The ``dask`` module (untyped: the engines are an optional extra)."""
    import importlib

    return importlib.import_module("dask")


def _narwhals(series: Any) -> Any:
    import narwhals as nw

    return nw.from_native(series, series_only=True)


@dataclass
class _Dask(_Held):
    blocks: list[Any]

    @classmethod
    def of(cls, crowd: EngineCrowd) -> _Dask:
        dask = _dask()
        native = crowd.ratings.to_native()
        parts = native.shuffle(on=U, npartitions=_n_parts(crowd, _dask_cores()))
        make = partial(bk.from_frame, unit=U, key=K, known=crowd.keys)
        blocks = [dask.delayed(make, pure=True)(p) for p in parts.to_delayed()]
        return cls(crowd, list(_guarded(lambda: dask.persist(*blocks), "dask")))

    def _sum(self, f: Callable[..., bk.Sums], *args: Any) -> Counts:
        dask = _dask()
        shared = [dask.delayed(a, pure=True) for a in args]
        parts = [dask.delayed(f, pure=True)(b, *shared) for b in self.blocks]
        total = dask.delayed(bk.add_all, pure=True)(parts)
        return self.counts(_guarded(lambda: dask.compute(total)[0], "dask"))

    def units(self, terms: FloatArray, log_prior: FloatArray
              ) -> tuple[list[Any], IntArray, FloatArray]:
        dask = _dask()
        shared = [dask.delayed(a, pure=True) for a in (terms, log_prior)]
        parts = [dask.delayed(bk.units, pure=True)(b, *shared) for b in self.blocks]
        return self.table(list(_guarded(lambda: dask.compute(*parts), "dask")))

    def release(self) -> None:
        self.blocks = []


@dataclass
class _Spark(_Held):
    rdd: Any

    @classmethod
    def of(cls, crowd: EngineCrowd) -> _Spark:
        import pickle

        from pyspark import StorageLevel

        native = crowd.ratings.to_native()
        n = _n_parts(crowd, native.sparkSession.sparkContext.defaultParallelism)
        make = partial(bk.from_arrow, unit=U, key=K, known=crowd.keys)
        with warnings.catch_warnings():  # Arrow here, not pandas: its version does not matter
            warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas",
                                    FutureWarning)
            built = native.repartition(n, U).mapInArrow(make, "block binary")
        rdd = built.rdd.map(lambda row: pickle.loads(row[0]))
        rdd = rdd.persist(StorageLevel.MEMORY_AND_DISK)
        _guarded(rdd.count, "spark")  # build and cache the blocks now, so a failure is named here
        native.unpersist()  # the coded rows: the blocks hold them now
        return cls(crowd, rdd)

    def _sum(self, f: Callable[..., bk.Sums], *args: Any) -> Counts:
        sc = self.rdd.context
        shared = sc.broadcast(args)
        try:
            got = _guarded(lambda: self.rdd.map(partial(_apply, f, shared)).treeReduce(bk.add),
                           "spark")
        finally:
            shared.destroy()
        return self.counts(got)

    def units(self, terms: FloatArray, log_prior: FloatArray
              ) -> tuple[list[Any], IntArray, FloatArray]:
        sc = self.rdd.context
        shared = sc.broadcast((terms, log_prior))
        try:
            got = _guarded(self.rdd.map(partial(_apply, bk.units, shared)).collect, "spark")
        finally:
            shared.destroy()
        return self.table(got)

    def release(self) -> None:
        self.rdd.unpersist()


def _apply(f: Callable[..., T], shared: Any, block: bk.Block) -> T:
    """``f(block, *arguments)``, the arguments read from a Spark broadcast."""
    return f(block, *shared.value)
