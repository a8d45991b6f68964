"""accord.engines._held: Dask and Spark fit EM over blocks of ratings kept on their workers.

The oracle is accord's in-memory :func:`accord.consensus` on the same rows (itself
checked against crowd-kit 1.4): labels, posteriors, parameters, log-likelihood to 1e-9
and the same iterations. The rows are given so that every unit's ratings are spread
over several input partitions (sorted by rater), and the blocks are made small, so the
fit only comes out right if the partitioning by unit keeps each unit's ratings in one
block and the blocks' sums are added correctly. DuckDB and polars keep the queries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

import accord
from accord.engines import _crowd as ec
from accord.engines import _held
from accord.errors import EngineError
from tests.test_engines_consensus import (
    CROWD_COLS,
    assert_same,
    crowd_columns,
    in_memory,
)
from tests.test_engines_distributed import Columns, _module, dask_cluster, spark

pytestmark = [
    pytest.mark.engines,
    pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning"),
]
__all__ = ["dask_cluster", "spark"]


def by_rater(columns: Columns) -> Columns:
    """The rows sorted by rater: each unit's ratings in as many places as it has raters."""
    df = pd.DataFrame(columns).sort_values(CROWD_COLS["rater"], kind="stable")
    return {c: df[c].tolist() for c in df.columns}


@pytest.fixture(params=["dask", "dask-cluster", "spark"])
def scattered(request: pytest.FixtureRequest) -> tuple[str, Callable[[Columns], Any]]:
    """A frame of the engine under test, its rows in 5 partitions, sorted by rater."""
    name = str(request.param)
    if name.startswith("dask"):
        if name == "dask-cluster":
            request.getfixturevalue("dask_cluster")
        dd = _module("dask.dataframe")
        return "dask", lambda c: dd.from_pandas(pd.DataFrame(by_rater(c)), npartitions=5)
    session = request.getfixturevalue("spark")
    return "spark", lambda c: session.createDataFrame(
        list(zip(*by_rater(c).values())), list(c)).repartition(5)


def test_small_blocks_of_scattered_units_fit_as_in_memory(
        scattered: tuple[str, Callable[[Columns], Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, make = scattered
    monkeypatch.setattr(_held, "PER_BLOCK", 97)  # 800 ratings: 9 to 10 blocks
    _same_fit(make, "dawid_skene")


@pytest.mark.parametrize("method", ["one_coin", "mace"])
def test_every_em_model_fits_over_blocks(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other models' passes are the same map over the blocks (Dask on threads)."""
    dd = _module("dask.dataframe")
    monkeypatch.setattr(_held, "PER_BLOCK", 97)
    _same_fit(lambda c: dd.from_pandas(pd.DataFrame(by_rater(c)), npartitions=5), method)


def _same_fit(make: Callable[[Columns], Any], method: str) -> None:
    columns = crowd_columns()
    options = {"method": method, "tol": 1e-4}
    got, audit = accord.engines.consensus(make(columns), **CROWD_COLS, **options)
    want = in_memory(columns, CROWD_COLS, **options)
    assert_same(got, want)
    assert want.n_iter >= 5 and audit.ratings_used == 800


def test_the_blocks_are_held_on_dask_and_spark_only(
        scattered: tuple[str, Callable[[Columns], Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    engine, make = scattered
    monkeypatch.setattr(_held, "PER_BLOCK", 97)
    crowd = ec.crowd(make(crowd_columns()), ("image", "worker", "label"), None, [], func="t")
    held = _held.hold(crowd)
    try:
        assert type(held.held).__name__ == {"dask": "_Dask", "spark": "_Spark"}[engine]
        # 800 ratings in blocks of at most 97: 9 blocks, rounded up to the cores
        n_blocks = (len(held.held.blocks) if engine == "dask"
                    else held.held.rdd.getNumPartitions())
        assert n_blocks >= 9
        ids, n, post = ec.final_units(held, *_uniform(held))
        assert len(ids) == 150 and int(n.sum()) == 800 and ids == sorted(ids)
    finally:
        ec.release_crowd(held)


def _uniform(crowd: ec.EngineCrowd) -> tuple[Any, Any]:
    import numpy as np

    return np.zeros((crowd.keys.shape[0], crowd.k)), np.zeros(crowd.k)


def test_duckdb_and_polars_keep_their_queries() -> None:
    import polars as pl

    duckdb = _module("duckdb")
    frame = pd.DataFrame(crowd_columns())
    for native in (pl.from_pandas(frame).lazy(), duckdb.from_df(frame)):
        crowd = ec.crowd(native, ("image", "worker", "label"), None, [], func="t")
        assert _held.hold(crowd).held is None


def test_a_cluster_without_a_module_is_named_in_one_sentence() -> None:
    # what Spark's Python workers and Dask's scheduler say when a package is missing
    spark_text = ("An exception was thrown from the Python worker: Traceback ...\n"
                  "ModuleNotFoundError: No module named 'scipy'")
    err = _held._no_accord(Exception(spark_text), "spark")
    assert isinstance(err, EngineError)
    assert str(err).startswith("the Spark executors' Python has no module 'scipy', so the "
                               "spark engine stopped")
    assert "PYSPARK_PYTHON" in str(err) and "\n" not in str(err)
    dask_text = ("Error during deserialization of the task graph. This frequently\n"
                 "occurs if the Scheduler and Client have different environments.")
    err = _held._no_accord(RuntimeError(dask_text), "dask")
    assert err is not None and "the Dask scheduler or its workers could not load accord" in str(err)
    assert _held._no_accord(ValueError("something else"), "dask") is None
