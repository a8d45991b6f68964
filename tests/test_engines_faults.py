"""Faults an engine meets before it counts, each ending in one sentence (the engines lane).

A folder of Parquet parts whose parts give one column different types (a rater id as an
integer in one part and as text in another, a label as a float and as text, integers of
two widths) is named by :func:`accord.engines.read` for DuckDB, Dask and Spark alike:
the column, each type and the parts that hold it, before any engine reads a row. Left to
themselves, DuckDB and Spark stop in their own many-line words and Dask counts the rater
``1`` and the rater ``"a"`` under one integer schema. A Dask scheduler address whose
port accepts connections but never answers ends in one sentence within the timeout
(``distributed.Client`` would wait for its handshake for ever).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import accord.engines
from accord.errors import DataError, EngineError, FormatError
from tests.conftest import run_cli
from tests.test_engines_distributed import _module

pytestmark = [
    pytest.mark.engines,
    pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning"),
]

ENGINES = ["duckdb", "dask", "spark"]
LONG = ("--unit", "unit", "--rater", "rater", "--value", "label")
FIRST = {"unit": [1, 1, 2, 2], "rater": [1, 2, 1, 2], "label": ["x", "y", "x", "x"]}


@pytest.fixture(autouse=True)
def _no_cluster_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("DASK_SCHEDULER_ADDRESS", "SPARK_MASTER"):
        monkeypatch.delenv(variable, raising=False)


def write_parts(folder: Path, *parts: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, columns in enumerate(parts):
        pd.DataFrame(columns).to_parquet(folder / f"part-{i}.parquet", index=False)
    return folder


def sentence(folder: Path, column: str, held: str) -> str:
    return (f"accord.engines.read: the column {column!r} has different types in the Parquet "
            f"parts of {folder}: {held}; an engine reads every part with one type, so write "
            "the column with the same type in every part (cast it before writing).")


MIXED = {
    "rater int and text": (
        {"unit": [3, 3], "rater": ["a", "b"], "label": ["x", "y"]},
        "rater", "Int64 in part-0.parquet and String in part-1.parquet"),
    "label text and float": (
        {"unit": [3, 3], "rater": [1, 2], "label": [1.0, 2.5]},
        "label", "String in part-0.parquet and Float64 in part-1.parquet"),
    "rater int64 and int32": (
        {"unit": [3, 3], "rater": np.array([1, 2], dtype=np.int32), "label": ["x", "y"]},
        "rater", "Int64 in part-0.parquet and Int32 in part-1.parquet"),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", list(MIXED))
def test_a_column_typed_differently_in_two_parts_is_named(
        tmp_path: Path, engine: str, case: str) -> None:
    second, column, held = MIXED[case]
    _module({"duckdb": "duckdb", "dask": "dask.dataframe", "spark": "pyspark.sql"}[engine])
    folder = write_parts(tmp_path / "ratings", FIRST, second)
    started = time.monotonic()
    with pytest.raises(DataError) as info:
        accord.engines.read(folder, engine=engine)  # type: ignore[arg-type]
    assert str(info.value) == sentence(folder.resolve(), column, held)
    assert time.monotonic() - started < 10  # named from the footers: no engine started


def test_many_parts_are_counted_and_the_first_three_named(tmp_path: Path) -> None:
    text = {"unit": [9], "rater": ["a"], "label": ["x"]}
    folder = write_parts(tmp_path / "ratings", FIRST, FIRST, text, FIRST, FIRST, text)
    with pytest.raises(DataError) as info:
        accord.engines.read(folder, engine="duckdb")
    held = ("Int64 in 4 parts (part-0.parquet, part-1.parquet, part-3.parquet, ...) and "
            "String in 2 parts (part-2.parquet, part-5.parquet)")
    assert str(info.value) == sentence(folder.resolve(), "rater", held)


def test_nested_parts_are_named_by_their_path_and_hidden_ones_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "ratings"
    write_parts(folder / "batch=1", FIRST)
    write_parts(folder / "batch=2", {"unit": [3], "rater": [1], "label": [True]})
    write_parts(folder / "_temporary", {"unit": [3], "rater": [1.5], "label": ["y"]})
    with pytest.raises(DataError) as info:
        accord.engines.read(folder, engine="duckdb")
    held = "String in batch=1/part-0.parquet and Boolean in batch=2/part-0.parquet"
    assert str(info.value) == sentence(folder.resolve(), "label", held)


@pytest.mark.parametrize("engine", ["duckdb", "dask"])
# Dask's Parquet reader calls pandas' reset_index(inplace=True), which pandas 3.1 deprecates
@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index")
def test_a_part_of_nulls_only_takes_the_others_type(tmp_path: Path, engine: str) -> None:
    _module({"duckdb": "duckdb", "dask": "dask.dataframe"}[engine])
    blank = {"unit": [3, 3], "rater": [1, 2], "label": [None, None]}
    folder = write_parts(tmp_path / "ratings", FIRST, blank)
    frame = accord.engines.read(folder, engine=engine)  # type: ignore[arg-type]
    rc, audit = accord.engines.rater_counts(frame, unit="unit", rater="rater", value="label")
    assert rc.counts.tolist() == [[1, 1], [2, 0]]
    assert audit.dropped == {"missing value": 2}


def test_spark_reads_no_part_of_nulls_as_text_so_it_is_named(tmp_path: Path) -> None:
    _module("pyspark.sql")
    blank = {"unit": [3, 3], "rater": [1, 2], "label": [None, None]}
    folder = write_parts(tmp_path / "ratings", FIRST, blank)
    with pytest.raises(DataError) as info:
        accord.engines.read(folder, engine="spark")
    held = "String in part-0.parquet and Null (every value missing) in part-1.parquet"
    assert str(info.value) == sentence(folder.resolve(), "label", held)


def test_a_part_that_is_not_parquet_is_named(tmp_path: Path) -> None:
    folder = write_parts(tmp_path / "ratings", FIRST)
    (folder / "part-1.parquet").write_text("unit,rater,label\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"^accord\.engines\.read: the part part-1\.parquet "
                                          r"of the Parquet folder .* cannot be read as "
                                          r"Parquet \("):
        accord.engines.read(folder, engine="duckdb")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_command_line_says_it_in_one_line_and_writes_nothing(
        tmp_path: Path, engine: str) -> None:
    second, column, held = MIXED["rater int and text"]
    folder = write_parts(tmp_path / "ratings", FIRST, second)
    out = tmp_path / "labels.csv"
    code, stdout, err = run_cli("consensus", str(folder), *LONG, "--engine", engine,
                                "-o", str(out))
    assert code == 1 and stdout == ""
    assert err.strip() == f"accord: error: {sentence(folder.resolve(), column, held)}"
    assert not out.exists()


# ------------------------------------------------ a scheduler that accepts but never answers
@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never writes a byte."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield int(s.getsockname()[1])


def test_a_dask_scheduler_that_accepts_but_never_answers_is_named_in_time(
        tmp_path: Path, silent_port: int) -> None:
    _module("distributed")
    folder = write_parts(tmp_path / "ratings", FIRST)
    address = f"tcp://127.0.0.1:{silent_port}"
    started = time.monotonic()
    with pytest.raises(EngineError) as info:
        accord.engines.read(folder, engine="dask", scheduler=address, timeout=2)
    assert time.monotonic() - started < 12
    assert str(info.value) == (
        f"the Dask scheduler at {address} does not answer (it accepts a connection but sends "
        "no Dask handshake, waited up to 2 s): is it running, and is the address right?")


# --------------------------------------------- a task whose every worker died (cluster lane)
def test_dasks_killed_worker_becomes_one_sentence_naming_the_worker() -> None:
    """The sentence :func:`accord.engines._frame.collect` raises for Dask's KilledWorker;
    the cluster lane kills real workers (tests/test_engines_cluster_faults.py)."""
    from types import SimpleNamespace

    from accord.engines._frame import lost_worker

    scheduler = _module("distributed.scheduler")
    worker = SimpleNamespace(address="tcp://127.0.0.1:40123")
    exc = scheduler.KilledWorker(("read_parquet-abc", 0), worker, 3)
    assert str(lost_worker(exc)) == (
        "the Dask worker tcp://127.0.0.1:40123 died while running the task "
        "('read_parquet-abc', 0) of this count, as did every worker that retried it (4 tries), "
        "so the dask engine stopped: the workers' logs say why (a worker out of memory is "
        "stopped by its nanny).")
    once = scheduler.KilledWorker("x", worker, 0)
    assert ("task 'x' of this count, so the dask engine stopped" in str(lost_worker(once)))
    assert lost_worker(RuntimeError("KilledWorker")) is None


# ------------------------------------------------------------------------ Spark's faults
# Spark's words for the faults :func:`accord.engines._frame.spark_failure` names, as a run
# of the cluster lane gave them (an executor JVM killed with SIGKILL on each of 4 tries);
# the cluster lane kills real executors (tests/test_engines_cluster_spark_faults.py)
EXECUTOR_LOST = (
    "An error occurred while calling o191.getResult.\n"
    ": org.apache.spark.SparkException: Exception thrown in awaitResult: \n"
    "\tat org.apache.spark.util.SparkThreadUtils$.awaitResult(SparkThreadUtils.scala:70)\n"
    "Caused by: org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 in "
    "stage 2.0 failed {tries} times, most recent failure: Lost task 0.3 in stage 2.0 (TID 5) "
    "(127.0.0.1 executor 3): ExecutorLostFailure (executor 3 exited caused by one of the "
    "running tasks) Reason: Command exited with code 137\nDriver stacktrace:\n")


def test_sparks_lost_executor_becomes_one_sentence_naming_the_executor() -> None:
    protocol = _module("py4j.protocol")
    from accord.engines._frame import spark_failure

    exc = protocol.Py4JError(EXECUTOR_LOST.format(tries=4))
    assert str(spark_failure(exc)) == (
        "the Spark executor 3 on 127.0.0.1 was lost while running a task of this count "
        "(executor 3 exited caused by one of the running tasks; Command exited with code "
        "137), as was every executor that retried it (4 tries), so the spark engine stopped: "
        "the workers' logs say why (an executor that runs out of memory is killed).")
    once = spark_failure(protocol.Py4JError(EXECUTOR_LOST.format(tries=1)))
    assert "with code 137), so the spark engine stopped" in str(once)
    # the same words from something that is not Spark, and a query's own error, stay as
    # they are
    assert spark_failure(RuntimeError(EXECUTOR_LOST.format(tries=4))) is None
    assert spark_failure(protocol.Py4JError("AnalysisException: column x not found")) is None


def test_a_stage_whose_shuffle_output_was_lost_on_every_try_is_one_sentence() -> None:
    """Spark's words when the executors that held a stage's shuffle output are killed on
    each of its tries (the cluster lane, an executor killed after a repartition)."""
    protocol = _module("py4j.protocol")
    from accord.engines._frame import spark_failure

    exc = protocol.Py4JError(
        "An error occurred while calling o8594.getResult.\n: org.apache.spark.SparkException: "
        "Exception thrown in awaitResult: \nCaused by: org.apache.spark.SparkException: Job "
        "aborted due to stage failure: ShuffleMapStage 146 (toArrow at /venv/lib/python3.11/"
        "site-packages/narwhals/_spark_like/dataframe.py:189) has failed the maximum "
        "allowable number of times: 4. Most recent failure reason: org.apache.spark.shuffle."
        "MetadataFetchFailedException: Missing an output location for shuffle 38 partition 0\n"
        "\tat org.apache.spark.MapOutputTracker$.validateStatus(MapOutputTracker.scala:1983)\n")
    assert str(spark_failure(exc)) == (
        "the Spark executors that held a shuffle's output for this count were lost, on each "
        "of the stage's 4 tries (Missing an output location for shuffle 38 partition 0), so "
        "the spark engine stopped: the workers' logs say why (an executor that runs out of "
        "memory is killed).")


def test_a_stopped_session_and_a_gone_driver_are_one_sentence_each() -> None:
    protocol = _module("py4j.protocol")
    from accord.engines._frame import spark_failure

    stopped = spark_failure(protocol.Py4JError(
        "An error occurred while calling o80.collectToPython.\n: java.lang.IllegalStateException"
        ": Cannot call methods on a stopped SparkContext.\nThis stopped SparkContext was "
        "created at: ..."))
    assert str(stopped).startswith("the Spark session stopped while it ran this count (its "
                                   "master removed the application, or the session was "
                                   "stopped), so the spark engine stopped: ")
    try:
        raise protocol.Py4JError("An error occurred while calling o80.collectToPython") \
            from protocol.Py4JNetworkError("Answer from Java side is empty")
    except protocol.Py4JError as exc:
        gone = spark_failure(exc)
    assert str(gone).startswith("the Spark driver (the Java process that pyspark started on "
                                "this machine) ended or stopped answering while it ran this "
                                "count, so the spark engine stopped: ")


def _accord(*args: str, env: dict[str, str], timeout: float = 300) -> tuple[int, str, float]:
    """``accord ARGS`` in a process of its own (a Spark driver of its own, since a session
    running in this process would be reused), its exit status, stderr and seconds."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
           **env, "PYTHONPATH": os.pathsep.join([str(root / "src"),
                                                 os.environ.get("PYTHONPATH", "")])}
    for name in ("DASK_SCHEDULER_ADDRESS", "SPARK_MASTER"):
        env.pop(name, None)
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "accord", *args], capture_output=True,
                         text=True, env=env, timeout=timeout)
    return run.returncode, run.stderr, time.monotonic() - started


def _error_line(stderr: str) -> str:
    lines = [x for x in stderr.splitlines() if x.startswith("accord: ")
             and not x.startswith("accord: warning: ")]
    assert len(lines) == 1, stderr[-3000:]
    return lines[0]


def test_spark_without_java_says_so_in_one_line(tmp_path: Path) -> None:
    _module("pyspark.sql")
    folder = write_parts(tmp_path / "ratings", FIRST)
    out = tmp_path / "labels.csv"
    code, err, _ = _accord("consensus", str(folder), *LONG, "--engine", "spark", "-o", str(out),
                           env={"JAVA_HOME": str(tmp_path / "no-java")})
    assert code == 1
    assert _error_line(err) == (
        "accord: error: the spark engine could not start Java (pyspark's Java process exited "
        "before it answered): Spark needs a Java runtime, 17 or newer, on the PATH or in "
        f"JAVA_HOME ({tmp_path / 'no-java'}); `java -version` shows whether one is there.")
    assert "Traceback" not in err
    assert not out.exists()


def test_a_spark_master_that_accepts_but_never_registers_is_named_in_time(
        tmp_path: Path, silent_port: int) -> None:
    """Spark itself retries the registration 3 x 20 s after its connection, then stops in
    its own words; accord stops 10 s (``timeout``) after the driver connects. The driver's
    start-up before it connects is not bounded (on a loaded machine it takes tens of
    seconds), so the time checked is below Spark's own 60 s of retries, not 10 s."""
    _module("pyspark.sql")
    folder = write_parts(tmp_path / "ratings", FIRST)
    out = tmp_path / "labels.csv"
    master = f"spark://127.0.0.1:{silent_port}"
    code, err, took = _accord("consensus", str(folder), *LONG, "--engine", "spark",
                              "--master", master, "-o", str(out), env={})
    assert code == 1
    assert _error_line(err) == (
        f"accord: error: the Spark master at {master} does not answer (it accepts a "
        "connection but did not register this application, waited up to 10 s): is it "
        "running, and is the address right?")
    assert not out.exists() and not list(tmp_path.glob("*.tmp*"))
    assert took < 60 + 10, took
