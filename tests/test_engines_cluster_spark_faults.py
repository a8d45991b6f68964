"""A Spark executor that dies in the middle of a run, and a master without workers, on the
cluster lane's Spark standalone cluster.

A standalone worker starts a new executor when one dies, and Spark runs a task whose
executor was lost again, up to ``spark.task.maxFailures`` tries (4). So an executor
killed once is retried and the figures equal the in-memory ones; a task whose every try
loses its executor stops accord with one sentence naming the engine, the executor and
its host (Spark's own words are a Py4JJavaError of a hundred lines). The command line's
``-o`` file is written after the fit, atomically, so neither way leaves a partial one:
an executor is killed (SIGKILL, from outside) while ``accord consensus --engine spark``
runs in a process of its own, with Spark's default tries and with one, and either the
file holds the in-memory labels or the command ends in that sentence and there is no
file (an executor killed between two tasks fails none, so either may come). A master
that registers the application but has no worker to give it an executor
ends in one sentence within ``timeout`` seconds (Spark's first job would wait for ever).
"""

from __future__ import annotations

import csv
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import accord.engines
from accord.errors import EngineError
from tests.test_engines_cluster import _address, spark_session  # noqa: F401 - a fixture
from tests.test_engines_consensus import COLS, assert_same, in_memory, synthetic_crowd
from tests.test_engines_distributed import _module

pytestmark = [
    pytest.mark.cluster,
    # pyspark's pandas functions (mapInPandas, which kills the executors here) warn of
    # pandas 3
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
]

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = re.compile(
    r"the Spark executor \d+ on 127\.0\.0\.1 was lost while running a task of this count "
    r"\(executor \d+ exited caused by one of the running tasks; Command exited with code "
    r"137\)(, as was every executor that retried it \((?P<tries>\d+) tries\))?, so the spark "
    r"engine stopped: the workers' logs say why \(an executor that runs out of memory is "
    r"killed\)\.")
EXECUTOR = b"org.apache.spark.executor.CoarseGrainedExecutorBackend"


def dying(frame: Any, marker: Path | None) -> Any:
    """``frame`` whose partitions kill the executor JVM that computes them (the Python
    worker's ancestor): once (the first to get there leaves ``marker``), or every time."""
    path = None if marker is None else str(marker)

    def die(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        import os
        import signal

        if path is None or not os.path.exists(path):
            if path is not None:
                open(path, "w").close()  # noqa: SIM115 - the marker, before dying
            pid = os.getpid()
            while pid > 1:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    if EXECUTOR in fh.read():
                        os.kill(pid, signal.SIGKILL)
                        break
                with open(f"/proc/{pid}/stat") as fh:
                    pid = int(fh.read().rsplit(")", 1)[1].split()[1])
        yield from batches

    return frame.mapInPandas(die, schema=frame.schema)


def crowd_frame(session: Any, columns: dict[str, Any]) -> Any:
    """The columns as a Spark frame with no shuffle before the executors die: a shuffle's
    output lost with its executor fails the stage instead (a sentence of its own)."""
    return session.createDataFrame(pd.DataFrame(columns))


def test_an_executor_killed_once_is_retried_and_the_consensus_stands(
        spark_session: Any, tmp_path: Path) -> None:  # noqa: F811
    columns = synthetic_crowd(n_units=200)
    frame = dying(crowd_frame(spark_session, columns), tmp_path / "killed")
    got, audit = accord.engines.consensus(frame, **COLS, method="one_coin")
    assert (tmp_path / "killed").exists()  # an executor died during the run
    assert_same(got, in_memory(columns, COLS, "one_coin"))
    assert audit.ratings_used == len(columns["unit"])


def test_a_task_whose_every_executor_is_lost_stops_in_one_sentence(
        spark_session: Any) -> None:  # noqa: F811
    frame = dying(crowd_frame(spark_session, synthetic_crowd(n_units=50)), None)
    started = time.monotonic()
    with pytest.raises(EngineError) as info:
        accord.engines.rater_counts(frame, **COLS)
    assert type(info.value.__cause__).__module__.startswith(("py4j", "pyspark"))
    match = SENTENCE.fullmatch(str(info.value))
    assert match and match["tries"] == "4", str(info.value)  # spark.task.maxFailures
    assert time.monotonic() - started < 240


# ---------------------------------------- the command line, an executor killed from outside
@pytest.fixture(scope="module")
def crowd_folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """A synthetic crowd of 400 units as 4 Parquet parts, and its in-memory one-coin
    consensus."""
    columns = synthetic_crowd(n_units=400)
    folder = tmp_path_factory.mktemp("crowd") / "ratings"
    folder.mkdir()
    df = pd.DataFrame(columns)
    for i, part in enumerate(np.array_split(np.arange(len(df)), 4)):
        df.iloc[part].to_parquet(folder / f"part-{i}.parquet", index=False)
    return folder, in_memory(columns, COLS, "one_coin")


def executors() -> dict[int, str]:
    """Every executor JVM on this machine: its pid and its application's id."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(EXECUTOR in a for a in argv) and b"--app-id" in argv:
            found[int(entry.name)] = argv[argv.index(b"--app-id") + 1].decode()
    return found


@pytest.mark.parametrize("tries", [None, 1], ids=["default-tries", "one-try"])
def test_an_executor_killed_during_the_command_leaves_no_partial_output(
        spark_session: Any, crowd_folder: tuple[Path, Any],  # noqa: F811
        tmp_path: Path, tries: int | None) -> None:
    folder, want = crowd_folder
    out = tmp_path / "labels.csv"
    ours = spark_session.sparkContext.applicationId  # this module's own application
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    if tries is not None:
        env["PYSPARK_SUBMIT_ARGS"] = f"--conf spark.task.maxFailures={tries} pyspark-shell"
    command = [sys.executable, "-m", "accord", "consensus", str(folder), "--unit", "unit",
               "--rater", "rater", "--value", "value", "--method", "one_coin", "--engine",
               "spark", "--master", _address("ACCORD_SPARK_MASTER"), "-o", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=tmp_path)
    try:
        victim = _kill_an_executor(proc, ours)
        stdout, stderr = proc.communicate(timeout=400)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert victim is not None, f"the command ended before its executor was up: {stderr[-3000:]}"
    if proc.returncode == 0:  # the executor was lost between tasks, or its task retried
        text = out.read_text(encoding="utf-8").splitlines()
        got = {r["unit"]: r for r in csv.DictReader(text)}
        expected = {str(r["unit"]): r for r in want.rows()}
        assert got.keys() == expected.keys()
        for unit, row in got.items():
            assert row["label"] == expected[unit]["label"]
            assert float(row["posterior"]) == pytest.approx(expected[unit]["posterior"],
                                                            abs=1e-9)
    else:
        assert proc.returncode == 1, stderr[-3000:]
        lines = [x for x in stderr.splitlines() if x.startswith("accord: ")
                 and not x.startswith("accord: warning: ")]
        assert len(lines) == 1 and lines[0].startswith("accord: error: "), stderr[-3000:]
        match = SENTENCE.fullmatch(lines[0][15:])
        assert match, lines[0]
        assert match["tries"] is None if tries == 1 else match["tries"] == "4"
        assert "Traceback" not in stderr
        assert not out.exists()
        assert not list(tmp_path.iterdir())  # nor a temporary file beside it


def _kill_an_executor(proc: subprocess.Popen[str], ours: str, into: float = 3.0) -> int | None:
    """SIGKILL the first executor of ``proc``'s application ``into`` seconds after it is
    seen (past the session's start, in the read or the EM iterations); its pid."""
    deadline, first = time.monotonic() + 300, None
    while time.monotonic() < deadline and proc.poll() is None:
        theirs = [pid for pid, app in executors().items() if app != ours]
        if theirs and first is None:
            first = time.monotonic()
        if theirs and first is not None and time.monotonic() - first >= into:
            os.kill(theirs[0], signal.SIGKILL)
            return theirs[0]
        time.sleep(0.05)
    return None


# ----------------------------------------------------------- a master without workers
@pytest.fixture
def lone_master(tmp_path: Path) -> Iterator[str]:
    """A Spark standalone master on 127.0.0.1 with no worker."""
    _module("pyspark.sql")
    from pyspark.find_spark_home import _find_spark_home

    home = _find_spark_home()
    ports = []
    for _ in range(2):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            ports.append(int(s.getsockname()[1]))
    log = tmp_path / "master.log"
    env = {**os.environ, "SPARK_HOME": home, "SPARK_LOCAL_IP": "127.0.0.1",
           "SPARK_LOG_DIR": str(tmp_path)}
    with open(log, "wb") as fh:
        proc = subprocess.Popen([str(Path(home) / "bin" / "spark-class"),
                                 "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                 "--port", str(ports[0]), "--webui-port", str(ports[1])],
                                stdout=fh, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while b"I have been elected leader" not in log.read_bytes():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
            time.sleep(0.5)
        yield f"spark://127.0.0.1:{ports[0]}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


DRIVER = """
import sys, time
import accord.engines
from accord.errors import EngineError
started = time.monotonic()
try:
    accord.engines.read(sys.argv[1], engine="spark", master=sys.argv[2], timeout=5)
except EngineError as exc:
    print(exc)
    from pyspark.sql import SparkSession
    print("session left:", SparkSession.getActiveSession())
"""


def test_a_master_without_workers_is_named_within_the_timeout(
        lone_master: str, tmp_path: Path) -> None:
    """In a process of its own: this one's session would be reused, not created."""
    data = tmp_path / "ratings.csv"
    data.write_text("unit,rater,label\n1,1,x\n1,2,y\n", encoding="utf-8")
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", DRIVER, str(data), lone_master],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.splitlines() == [
        f"the Spark master at {lone_master} registered this application but gave it no "
        "executor within 5 s, so its first job would wait for ever: has it a worker with a "
        "free core and enough memory (spark.executor.memory), or do other applications "
        "hold them all?",
        "session left: None"]  # stopped, so the master drops the application
