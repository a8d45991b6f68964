"""accord.engines on a real cluster: a Dask scheduler with two worker processes and a Spark
standalone master with two worker JVMs, all on 127.0.0.1 (the cluster lane).

``make test-cluster`` starts them with ``.ci/cluster.py``, which sets
``ACCORD_DASK_SCHEDULER`` and ``ACCORD_SPARK_MASTER`` for this run and stops every process
afterwards. The engine lane's tests run here unchanged against those clusters (the same
1e-12 equality with the in-memory path on Fleiss 1971, Cohen 1960, examples/crowd.csv
and the synthetic crowds), so what local modes cannot catch is caught here: a worker
that lacks accord or a package, state that does not survive pickling, a result that
only works inside one process. A partitioned Parquet file is read on the workers, and a
fresh driver process shows that it is never collected: its peak memory grows by far
less than the data's size. Under CI a cluster that is not there fails the lane.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.test_engines_distributed import (
    IN_CI,
    LOOPBACK,
    Columns,
    _module,
)
from tests.test_engines_distributed import TestCohen1960 as TestCohen1960OnACluster
from tests.test_engines_distributed import TestConsensus as TestConsensusOnACluster
from tests.test_engines_distributed import TestFleiss1971 as TestFleiss1971OnACluster

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning"),
]

# the engine lane's messy-data and pattern-interval tests stay on local modes: they check
# the engines' SQL, which a cluster does not change
__all__ = ["TestCohen1960OnACluster", "TestConsensusOnACluster", "TestFleiss1971OnACluster"]
ROOT = Path(__file__).resolve().parents[1]


def _address(variable: str) -> str:
    value = os.environ.get(variable)
    if not value:
        message = (f"{variable} is not set: run the cluster lane with `make test-cluster`, "
                   "which starts the cluster and sets it")
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return value


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    distributed = _module("distributed")
    _module("dask.dataframe")
    client = distributed.Client(_address("ACCORD_DASK_SCHEDULER"), timeout=60)
    try:
        yield client
    finally:
        client.close()


def spark_builder(master: str, app: str) -> Any:
    sql = _module("pyspark.sql")
    return (sql.SparkSession.builder.master(master).appName(app)
            .config("spark.driver.bindAddress", LOOPBACK)
            .config("spark.driver.host", LOOPBACK)
            .config("spark.ui.enabled", "false")
            .config("spark.executor.memory", "512m")
            .config("spark.executor.cores", "1")
            # one core (one executor on one worker) per application, so that the driver
            # process of the Parquet test gets the other worker while this module's
            # session holds the first (an application left without cores waits forever)
            .config("spark.cores.max", "1")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.session.timeZone", "UTC"))


@pytest.fixture(scope="module")
def spark_session() -> Iterator[Any]:
    os.environ["SPARK_LOCAL_IP"] = LOOPBACK
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = spark_builder(_address("ACCORD_SPARK_MASTER"), "accord-cluster-test").getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture(params=["dask-processes", "spark-standalone"])
def make(request: pytest.FixtureRequest) -> Callable[[Columns], Any]:
    """Columns to a frame whose partitions live on the cluster's workers."""
    return _maker(request, str(request.param))


@pytest.fixture(params=["dask-processes"])
def make_one(request: pytest.FixtureRequest) -> Callable[[Columns], Any]:
    """The Dask workers only, for the consensus methods beyond the first three.

    Spark runs those in the engine lane (``local[2]``): their Spark SQL is the same there,
    while Dask ships each task's Python state to the worker processes, which only
    separate processes test.
    """
    return _maker(request, str(request.param))


def _maker(request: pytest.FixtureRequest, name: str) -> Callable[[Columns], Any]:
    if name == "dask-processes":
        request.getfixturevalue("dask_client")
        dd = _module("dask.dataframe")
        return lambda columns: dd.from_pandas(pd.DataFrame(columns), npartitions=2)
    session = request.getfixturevalue("spark_session")
    return lambda columns: session.createDataFrame(list(zip(*columns.values())), list(columns))


def test_the_dask_workers_are_two_processes_of_their_own(dask_client: Any) -> None:
    pids = dask_client.run(os.getpid)
    assert len(pids) == 2 and os.getpid() not in pids.values()
    assert len(set(pids.values())) == 2
    assert all(address.startswith(f"tcp://{LOOPBACK}:") for address in pids)


def test_the_spark_session_runs_on_the_standalone_cluster(spark_session: Any) -> None:
    """The session's master is the standalone cluster's, and its executor is a JVM on a
    worker (the driver is not an executor): a job's tasks run there."""
    import time

    sc = spark_session.sparkContext
    assert sc.master.startswith(f"spark://{LOOPBACK}:")
    executors = 0
    for _ in range(60):  # the executor registers shortly after the session starts
        executors = sc._jsc.sc().getExecutorMemoryStatus().size() - 1  # less the driver
        if executors:
            break
        time.sleep(1)
    assert executors == 1
    assert sc.parallelize(range(100), 2).map(lambda x: x * x).sum() == 328350


# ---------------------------------------------------------- data stays on the workers
N_RATINGS = 6_000_000
N_UNITS = 60_000  # 100 raters a unit: the counts per unit are small beside the ratings


@pytest.fixture(scope="module")
def crowd_parquet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A crowd of 6 million ratings (60,000 units, 100 distinct raters each, of 1,000)
    written as 6 Parquet parts: about 140 MB as int64 columns in memory."""
    rng = np.random.default_rng(11)
    folder = tmp_path_factory.mktemp("crowd") / "ratings"
    folder.mkdir()
    per = N_UNITS // 6
    for part in range(6):
        unit = np.repeat(np.arange(part * per, (part + 1) * per), 100)
        seat = np.tile(np.arange(100), per)
        pd.DataFrame({
            "unit": unit.astype(np.int64),
            "rater": ((unit * 7 + seat * 10) % 1000).astype(np.int64),  # 100 distinct raters
            "label": rng.integers(0, 3, unit.size).astype(np.int64),
        }).to_parquet(folder / f"part-{part}.parquet", index=False)
    return folder


DRIVER = """
import json, os, sys
import pandas as pd
engine, path = sys.argv[1], sys.argv[2]
import accord.engines
small = pd.DataFrame({"unit": [1, 1, 2, 2], "rater": [1, 2, 1, 2], "label": [0, 1, 1, 1]})
if engine == "dask":
    import dask.dataframe as dd
    from distributed import Client
    client = Client(os.environ["ACCORD_DASK_SCHEDULER"], timeout=60)
    frame = dd.read_parquet(path)
    warm = dd.from_pandas(small, npartitions=1)
    collect = frame.compute
else:
    sys.path.insert(0, sys.argv[3])
    from tests.test_engines_cluster import spark_builder
    session = (spark_builder(os.environ["ACCORD_SPARK_MASTER"], "accord-driver")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true").getOrCreate())
    frame = session.read.parquet(path)
    warm = session.createDataFrame(small)
    collect = frame.toPandas
def peak_kib():
    # this process's own high-water mark (ru_maxrss would keep the RSS of the test runner
    # that forked it, and hide the growth)
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:"))
count = dict(unit="unit", rater="rater", value="label", by_unit=False)
accord.engines.rater_counts(warm, **count)  # the code paths' imports, before measuring
before = peak_kib()
rc, audit = accord.engines.rater_counts(frame, **count)
after = peak_kib()
rows = len(collect())  # what collecting the ratings to this process costs, for scale
collected = peak_kib()
print(json.dumps({"grew_kib": after - before, "collect_kib": collected - after, "rows": rows,
                  "used": audit.ratings_used, "counted": int(rc.n_ratings.sum()),
                  "units": int(rc.n_units)}))
"""


@pytest.mark.parametrize("engine", ["dask", "spark"])
def test_a_partitioned_parquet_is_read_on_the_workers_not_collected(
        engine: str, crowd_parquet: Path) -> None:
    """A driver process counts 6 million ratings read by the workers; its peak memory
    grows by far less than the data's 140 MB, while collecting the same rows to it (done
    afterwards, to show the measure sees it) grows it by more than half of that; the
    counts are every rating."""
    _address("ACCORD_DASK_SCHEDULER" if engine == "dask" else "ACCORD_SPARK_MASTER")
    run = subprocess.run([sys.executable, "-c", DRIVER, engine, str(crowd_parquet), str(ROOT)],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(
                             [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])})
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["used"] == out["counted"] == out["rows"] == N_RATINGS
    assert out["units"] == N_UNITS
    data_kib = N_RATINGS * 3 * 8 // 1024
    assert out["collect_kib"] > data_kib / 2, out  # the measure sees a collect
    assert out["grew_kib"] < data_kib / 8, out
