"""accord.engines on DuckDB, Dask (threads and a LocalCluster) and PySpark in local mode.

The ``engines`` lane (``make test-engines``; deselected from the default run). Every
engine result is compared with accord's in-memory path on the same rows
(``Annotations`` -> ``RaterCounts`` / ``ContingencyTable``), to 1e-12 for the
coefficients, and with the published figures of Fleiss (1971, Table 1; kappa 0.430)
and Cohen (1960, p. 45) through :mod:`accord.datasets`.

No test traffic leaves the machine: Dask's cluster runs in this process on
127.0.0.1, and Spark runs ``local[2]`` with ``SPARK_LOCAL_IP``, the driver's host
and bind address all 127.0.0.1 and its web UI off. Under CI (``CI=1`` or
``CI=true``) an engine that cannot be imported or started fails its tests;
elsewhere they skip, saying why.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings

import accord
from accord import Annotations, ContingencyTable, RaterCounts
from accord.engines import contingency_table, rater_counts
from accord.errors import DuplicateRatingError
from tests.test_engines import _in_memory, _same_outcome, long_tables
from tests.test_engines_consensus import (
    COLS as CROWD_LONG,
)
from tests.test_engines_consensus import (
    CROWD_COLS,
    FITS,
    assert_same,
    crowd_columns,
    in_memory,
    synthetic_crowd,
)
from tests.test_engines_consensus import (
    MESSY as MESSY_CROWD,
)
from tests.test_engines_consensus import (
    TIED as TIED_CROWD,
)

pytestmark = [
    pytest.mark.engines,
    # narwhals 2.x announces that Dask support moves to a separate package (not yet released)
    pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning"),
]

Columns = dict[str, list[Any]]
TOL = 1e-12
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
LOOPBACK = "127.0.0.1"


def _unavailable(what: str, why: object) -> None:
    """Fail under CI, skip elsewhere, naming the engine and the reason."""
    message = f"{what} is not available ({why}); install the 'engines' extra"
    if IN_CI:
        pytest.fail(message + " (CI is set: the engines lane must run every engine)")
    pytest.skip(message)


def _module(name: str) -> Any:
    try:
        return __import__(name, fromlist=["_"])
    except ImportError as exc:
        _unavailable(name, exc)


# --------------------------------------------------------------------- engines
@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[Any]:
    """A one-worker Dask cluster in this process, on the loopback interface."""
    distributed = _module("distributed")
    _module("dask.dataframe")
    cluster = distributed.LocalCluster(
        host=LOOPBACK, protocol="tcp://", n_workers=1, threads_per_worker=2, processes=False,
        dashboard_address="127.0.0.1:0",
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """A ``local[2]`` Spark session bound to 127.0.0.1, without its web UI."""
    os.environ["SPARK_LOCAL_IP"] = LOOPBACK
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    sql = _module("pyspark.sql")
    try:
        session = (
            sql.SparkSession.builder.master("local[2]").appName("accord-engines-test")
            .config("spark.driver.bindAddress", LOOPBACK)
            .config("spark.driver.host", LOOPBACK)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate()
        )
    except Exception as exc:  # no Java, or the JVM would not start
        _unavailable("a Spark session", exc)
    session.sparkContext.setLogLevel("ERROR")
    try:
        yield session
    finally:
        session.stop()


def _duckdb(columns: Columns) -> Any:
    return _module("duckdb").from_arrow(pa.table(columns))


def _dask(columns: Columns) -> Any:
    return _module("dask.dataframe").from_pandas(pd.DataFrame(columns), npartitions=2)


@pytest.fixture(params=["duckdb", "dask", "dask-cluster", "spark"])
def make(request: pytest.FixtureRequest) -> Callable[[Columns], Any]:
    """A function from columns to a frame of the engine under test, on every configuration."""
    return _maker(request, str(request.param))


@pytest.fixture(params=["duckdb", "dask", "spark"])
def make_one(request: pytest.FixtureRequest) -> Callable[[Columns], Any]:
    """The same, on one configuration per engine (Dask on threads, Spark ``local[2]``).

    For the tests whose queries a configuration does not change (the consensus methods
    beyond the first three, messy data): each engine runs them once, and the lane stays
    within CI's budget (Spark's MACE and accelerated fits take a job per E step).
    """
    return _maker(request, str(request.param))


def _maker(request: pytest.FixtureRequest, name: str) -> Callable[[Columns], Any]:
    if name == "duckdb":
        return _duckdb
    if name == "dask":
        return _dask
    if name == "dask-cluster":
        request.getfixturevalue("dask_cluster")
        return _dask
    session = request.getfixturevalue("spark")
    # rows and column names, not a pandas frame: PySpark 4 warns about pandas 3
    return lambda columns: session.createDataFrame(list(zip(*columns.values())), list(columns))


# --------------------------------------------------------------------- data
def _fleiss_long() -> Columns:
    ds = accord.datasets.load("fleiss_1971_wide")
    rows = [(i, r, x) for i, row in enumerate(ds.data) for r, x in zip(ds.raters, row)]
    return {"patient": [u for u, _, _ in rows], "psychiatrist": [r for _, r, _ in rows],
            "diagnosis": [x for _, _, x in rows]}


FLEISS = {"unit": "patient", "rater": "psychiatrist", "value": "diagnosis"}
MESSY: Columns = {
    "unit": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5],
    "rater": ["a", "b", "c", "a", "b", "c", "a", "b", "c", "a", "a", "a", "b", "c"],
    "value": ["x", "x", "y", "y", "NA", "y", "z", "x", "", "x", "x", "y", "y", "z"],
}
COLS = {"unit": "unit", "rater": "rater", "value": "value"}


def _by_unit(rc: RaterCounts) -> dict[Any, list[int]]:
    assert rc.unit_ids is not None
    return {u: row.tolist() for u, row in zip(rc.unit_ids, rc.counts)}


# --------------------------------------------------------------------- tests
class TestFleiss1971:
    def test_long_rater_counts_and_kappa(self, make: Callable[[Columns], Any]) -> None:
        cols = _fleiss_long()
        rc, audit = rater_counts(make(cols), **FLEISS)
        memory = RaterCounts.from_annotations(Annotations.from_long(cols, **FLEISS))
        assert rc.counts.tolist() == list(map(list, accord.datasets.load("fleiss_1971").data))
        assert _by_unit(rc) == _by_unit(memory)
        assert (audit.rows_read, audit.ratings_used, dict(audit.dropped)) == (180, 180, {})
        kappa = accord.fleiss_kappa(rc).estimate
        assert round(kappa, 4) == 0.4302  # Fleiss (1971): 0.430
        assert kappa == pytest.approx(accord.fleiss_kappa(memory).estimate, abs=TOL)

    def test_wide_patterns(self, make: Callable[[Columns], Any]) -> None:
        ds = accord.datasets.load("fleiss_1971_wide")
        wide = {r: [row[j] for row in ds.data] for j, r in enumerate(ds.raters)}
        rc, audit = rater_counts(make(wide), raters=list(ds.raters), categories=ds.categories)
        published = accord.datasets.load("fleiss_1971").data
        assert sorted(rc.counts.tolist()) == sorted(map(list, published))
        assert (audit.rows_read, audit.ratings_used) == (180, 180)
        assert accord.fleiss_kappa(rc).estimate == pytest.approx(
            accord.fleiss_kappa(Annotations.from_wide(pd.DataFrame(wide))).estimate, abs=TOL)

    def test_contingency_table_long(self, make: Callable[[Columns], Any]) -> None:
        cols = _fleiss_long()
        table, audit = contingency_table(make(cols), raters=("rater1", "rater2"), **FLEISS)
        ann = Annotations.from_long(cols, **FLEISS)
        assert table == ContingencyTable.from_annotations(ann, raters=["rater1", "rater2"])
        assert round(accord.cohen_kappa(table).estimate, 4) == 0.6512
        assert audit.ratings_used == 60


class TestCohen1960:
    def test_wide_table(self, make: Callable[[Columns], Any]) -> None:
        ds = accord.datasets.load("cohen_1960")
        pairs = [(ds.categories[i], ds.categories[j]) for i, row in enumerate(ds.data)
                 for j, n in enumerate(row) for _ in range(n)]
        cols = {"A": [a for a, _ in pairs], "B": [b for _, b in pairs]}
        table, audit = contingency_table(make(cols), raters=("A", "B"))
        assert table.counts.tolist() == [list(map(float, row)) for row in ds.data]
        assert table.p_o == pytest.approx(ds.published["p_o"], abs=TOL)
        assert table.p_e == pytest.approx(ds.published["p_e"], abs=TOL)
        assert (audit.rows_read, audit.ratings_used) == (200, 200)


class TestMessyData:
    def test_missing_values_and_repeats_audited_as_in_memory(
        self, make: Callable[[Columns], Any]
    ) -> None:
        rc, audit = rater_counts(make(MESSY), **COLS)
        ann = Annotations.from_long(MESSY, **COLS, missing=["NA"])
        assert _by_unit(rc) == _by_unit(RaterCounts.from_annotations(ann))
        assert rc.categories == ("x", "y", "z")
        assert dict(audit.dropped) == {"missing value": 2, "identical repeated rating": 1}
        assert audit.rows_read == 14 and audit.ratings_used == 11

    def test_duplicate_rating_raises_the_in_memory_sentence(
        self, make: Callable[[Columns], Any]
    ) -> None:
        cols = {k: [*v, x] for (k, v), x in zip(MESSY.items(), (4, "a", "y"))}
        with pytest.raises(DuplicateRatingError, match=r"^1 unit\(s\) were rated twice by "
                                                       r"the same rater with different values "
                                                       r"\(unit 4 by rater 'a'\);"):
            rater_counts(make(cols), **COLS)
        with pytest.raises(DuplicateRatingError, match=r"\(unit 4 by rater 'a'\);"):
            contingency_table(make(cols), raters=("a", "b"), **COLS)


#: The fits every configuration of every engine runs: the engines' first three methods.
EVERY_CONFIGURATION = [f for f in FITS if f.id in ("majority", "one_coin", "dawid_skene")]
#: The others (Wawa, MACE, the accelerated fits) run on one configuration per engine:
#: their queries are the same on each configuration of an engine.
ONE_CONFIGURATION = [f for f in FITS if f not in EVERY_CONFIGURATION]
#: The EM stopping rule in the lanes: 5 to 10 iterations of each fit (MACE 10, not 65),
#: enough to show that an engine's iterations are the in-memory ones; the fits to the
#: default 1e-7 are checked on polars, pandas and pyarrow in test_engines_consensus.py.
LANE_TOL = 1e-4


class TestConsensus:
    """accord.engines.consensus equals accord.consensus in memory (to 1e-9, same iterations).

    Each method runs on every engine; the first three on every configuration of each.
    """

    @pytest.mark.parametrize(("method", "options"), EVERY_CONFIGURATION)
    def test_crowd_csv(self, make: Callable[[Columns], Any], method: str,
                       options: dict[str, Any]) -> None:
        self._crowd_csv(make, method, options)

    @pytest.mark.parametrize(("method", "options"), ONE_CONFIGURATION)
    def test_crowd_csv_on_one_configuration(self, make_one: Callable[[Columns], Any],
                                            method: str, options: dict[str, Any]) -> None:
        self._crowd_csv(make_one, method, options)

    @staticmethod
    def _crowd_csv(make: Callable[[Columns], Any], method: str,
                   options: dict[str, Any]) -> None:
        columns, options = crowd_columns(), {"tol": LANE_TOL, **options}
        got, audit = accord.engines.consensus(make(columns), **CROWD_COLS, method=method,
                                              **options)
        want = in_memory(columns, CROWD_COLS, method, **options)
        assert_same(got, want)
        assert method in ("majority", "wawa") or want.n_iter >= 5  # a real run
        assert (audit.rows_read, audit.ratings_used) == (800, 800)

    def test_synthetic_crowd(self, make_one: Callable[[Columns], Any]) -> None:
        """Integer unit ids (crowd.csv's are text) through an accelerated fit; 100 units
        are enough for the equality (crowd.csv already runs every fit to convergence)."""
        columns = synthetic_crowd(n_units=100)
        fit = {"method": "dawid_skene", "accelerate": True, "tol": LANE_TOL}
        want = in_memory(columns, CROWD_LONG, **fit)
        assert want.n_iter > 5
        got, _ = accord.engines.consensus(make_one(columns), **CROWD_LONG, **fit)
        assert_same(got, want)

    def test_wawa_with_tied_majorities(self, make_one: Callable[[Columns], Any]) -> None:
        got, _ = accord.engines.consensus(make_one(TIED_CROWD), **CROWD_LONG, method="wawa")
        assert_same(got, in_memory(TIED_CROWD, CROWD_LONG, "wawa"))
        assert got.tied == (4,)

    def test_missing_values_repeats_and_duplicates(self, make_one: Callable[[Columns], Any]
                                                   ) -> None:
        make = make_one
        # Spark cannot infer a column type from a null: give unit 6's rating a value
        columns = {**MESSY_CROWD, "value": [*MESSY_CROWD["value"][:-2], "x", "y"]}
        fit = {"method": "one_coin", "tol": 1e-3}  # 11 iterations, not 32
        got, audit = accord.engines.consensus(make(columns), **CROWD_LONG, **fit)
        assert dict(audit.dropped) == {"missing value": 2, "missing unit or rater id": 1,
                                       "identical repeated rating": 1}
        kept = pd.DataFrame(columns).dropna(subset=["unit"])
        kept = kept[~kept["value"].isin(["NA", ""])]
        assert_same(got, in_memory({c: kept[c].tolist() for c in kept}, CROWD_LONG, **fit))
        clash = {k: [*v, x] for (k, v), x in zip(columns.items(), (4, "a", "y"))}
        with pytest.raises(DuplicateRatingError, match=r"\(unit 4(\.0)? by rater 'a'\);"):
            accord.engines.consensus(make(clash), **CROWD_LONG)


def _assert_same_intervals(engine: Any, memory: Any, fn: Callable[..., Any]) -> None:
    """Estimate, SE and the asymptotic, jackknife and bootstrap (same seed) intervals agree."""
    a, b = fn(engine), fn(memory)
    assert (a.estimate, a.se, a.n_units) == pytest.approx((b.estimate, b.se, b.n_units), abs=TOL)
    for method in ("asymptotic", "jackknife", accord.Bootstrap(n_resamples=300, rng=5)):
        ci, want = a.confidence_interval(method=method), b.confidence_interval(method=method)
        assert (ci.low, ci.high) == pytest.approx((want.low, want.high), abs=TOL), method


class TestIntervalsFromPatterns:
    def test_rater_count_patterns(self, make: Callable[[Columns], Any]) -> None:
        cols = _fleiss_long()
        rc, audit = rater_counts(make(cols), **FLEISS, by_unit=False)
        ann = Annotations.from_long(cols, **FLEISS)
        memory = RaterCounts.from_annotations(ann)
        assert rc.unit_ids is None and audit.ratings_used == 180
        for got, want in zip(rc.patterns()[:2], memory.patterns()[:2]):
            assert got.tolist() == want.tolist()
        for fn in (accord.fleiss_kappa, accord.gwet_ac1):
            _assert_same_intervals(rc, ann, fn)

    def test_patterns_of_messy_data(self, make: Callable[[Columns], Any]) -> None:
        rc, audit = rater_counts(make(MESSY), **COLS, by_unit=False)
        memory = RaterCounts.from_annotations(Annotations.from_long(MESSY, **COLS,
                                                                    missing=["NA"]))
        assert rc.counts.tolist() == sorted(memory.counts.tolist())
        assert dict(audit.dropped) == {"missing value": 2, "identical repeated rating": 1}

    def test_contingency_table_cells(self, make: Callable[[Columns], Any]) -> None:
        cols, pair = _fleiss_long(), ["rater1", "rater2"]
        table, _ = contingency_table(make(cols), raters=tuple(pair), **FLEISS)
        ann = Annotations.from_long(cols, **FLEISS)
        _assert_same_intervals(
            table, ann,
            lambda d: accord.cohen_kappa(d, raters=pair) if isinstance(d, Annotations)
            else accord.cohen_kappa(d),
        )


@settings(max_examples=25, deadline=None)
@given(columns=long_tables())
def test_duckdb_property_counts_and_patterns_equal_memory(columns: Columns) -> None:
    """Random long rows with missing values and repeats: DuckDB's counts (by unit and as
    patterns), audit and Fleiss' kappa equal the in-memory ones, or both raise a DataError."""
    both = _same_outcome(lambda: rater_counts(_duckdb(columns), **COLS),
                         lambda: _in_memory(pd.DataFrame(columns), **COLS))
    if both is None:  # both raised a DataError
        return
    (rc, audit), ann = both
    assert _by_unit(rc) == _by_unit(RaterCounts.from_annotations(ann))
    assert audit.ratings_used == ann.audit.ratings_used
    patterns, audit_p = rater_counts(_duckdb(columns), **COLS, by_unit=False)
    assert patterns.counts.tolist() == sorted(rc.counts.tolist()) and audit_p == audit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        want = accord.fleiss_kappa(ann).estimate
        for got in (rc, patterns):
            assert accord.fleiss_kappa(got).estimate == pytest.approx(want, abs=TOL,
                                                                      nan_ok=True)


def test_dask_cluster_runs_on_loopback(dask_cluster: Any) -> None:
    """The scheduler the tests used is this process's cluster on 127.0.0.1."""
    scheduler = dask_cluster.cluster.scheduler
    assert scheduler.address.startswith(f"tcp://{LOOPBACK}:"), scheduler.address
    assert scheduler.http_server.address == LOOPBACK
    workers = dask_cluster.cluster.workers.values()
    assert [w.address.startswith(f"tcp://{LOOPBACK}:") for w in workers] == [True]
    assert _module("distributed").default_client() is dask_cluster
    with _module("distributed").get_task_stream(dask_cluster) as stream:
        rc, _ = rater_counts(_dask(_fleiss_long()), **FLEISS)
    assert stream.data, "the counts did not run on the cluster"
    assert int(np.asarray(rc.counts).sum()) == 180


def test_spark_session_is_local_and_on_loopback(spark: Any) -> None:
    """The session the tests used: local[2], driver on 127.0.0.1, no web UI."""
    conf = spark.sparkContext.getConf()
    assert spark.sparkContext.master == "local[2]"
    assert [conf.get(k) for k in ("spark.driver.bindAddress", "spark.driver.host")] == [
        LOOPBACK, LOOPBACK]
    assert conf.get("spark.ui.enabled") == "false" and spark.sparkContext.uiWebUrl is None
    assert os.environ["SPARK_LOCAL_IP"] == LOOPBACK


# --------------------------------------------------------------------- README
#: The page of the documentation that shows the engines (it was the README's section).
README = Path(__file__).resolve().parents[1] / "docs" / "guide" / "scale.md"
#: Its engine examples, fenced as ```python engines (the default run skips them).
ENGINE_BLOCKS = re.findall(r"```python engines\n(.*?)```", README.read_text(encoding="utf-8"),
                           re.S)


def test_readme_has_an_example_per_engine() -> None:
    imports = ["import duckdb", "import dask.dataframe", "from pyspark.sql import"]
    assert [any(i in b for b in ENGINE_BLOCKS) for i in imports] == [True, True, True]


@pytest.mark.parametrize("block", ENGINE_BLOCKS,
                         ids=[f"engine-block{i}" for i in range(len(ENGINE_BLOCKS))])
def test_readme_engine_block_runs_and_prints_what_it_says(block: str, request: Any) -> None:
    if "pyspark" in block:
        request.getfixturevalue("spark")  # the lane's session (getOrCreate returns it)
    for name in ("duckdb", "dask.dataframe", "distributed"):
        if f"import {name}" in block or f"from {name.split('.')[0]}" in block:
            _module(name)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block, str(README), "exec"), {})  # noqa: S102 - our own README
    printed = [line.strip() for line in buf.getvalue().splitlines()]
    expected = [line[2:].strip() for prev, line in zip(block.splitlines(),
                                                      block.splitlines()[1:])
                if line.startswith("# ") and prev.lstrip().startswith("print(")]
    assert expected and printed == expected
