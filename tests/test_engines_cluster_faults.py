"""A Dask worker that dies in the middle of a run, on the cluster lane's workers.

The Dask workers of ``make test-cluster`` are processes under a nanny, which starts a
worker again when it dies; the scheduler runs a task that was on a dead worker again
elsewhere, up to ``allowed-failures`` times. So a worker killed once is retried, and the
consensus equals the in-memory one (to 1e-9, as on a cluster that stays up); a task whose
every try ends with its worker's death stops accord with one sentence naming the engine
and the worker. The command line's ``-o`` file is written after the fit, atomically, so
neither way leaves a partial one: a worker is killed (SIGKILL, from outside) while
``accord consensus --engine dask`` runs in a process of its own, with the scheduler's
default retries and with none, and either the file holds the in-memory labels or the
command ends in that sentence and there is no file.
"""

from __future__ import annotations

import csv
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import accord.engines
from accord.errors import EngineError
from tests.test_engines_cluster import _address, dask_client  # noqa: F401 - a fixture
from tests.test_engines_consensus import COLS, assert_same, in_memory, synthetic_crowd
from tests.test_engines_distributed import _module

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning"),
]

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = re.compile(
    r"the Dask worker tcp://127\.0\.0\.1:\d+ died while running the task .+ of this count"
    r"(, as did every worker that retried it \(\d+ tries\))?, so the dask engine stopped: "
    r"the workers' logs say why \(a worker out of memory is stopped by its nanny\)\.")


def worker_pids(client: Any) -> dict[str, int]:
    client.wait_for_workers(2, timeout=120)
    return dict(client.run(os.getpid))


@pytest.fixture
def retries(dask_client: Any) -> Iterator[Callable[[int], None]]:  # noqa: F811
    """Set the scheduler's allowed failures for one test; the default is restored after,
    and both workers are up again."""
    def allowed(n: int | None) -> Callable[[Any], int]:
        def swap(dask_scheduler: Any) -> int:
            old = dask_scheduler.allowed_failures
            if n is not None:
                dask_scheduler.allowed_failures = n
            return int(old)
        return swap

    default = dask_client.run_on_scheduler(allowed(None))
    try:
        yield lambda n: dask_client.run_on_scheduler(allowed(n))
    finally:
        dask_client.run_on_scheduler(allowed(default))
        worker_pids(dask_client)


def dying(frame: Any, marker: Path | None) -> Any:
    """``frame`` whose partitions kill the worker that computes them: once (the first to
    get there leaves ``marker``), or every time without a marker. Nested, so that
    cloudpickle ships the function to the workers by value."""
    path = None if marker is None else str(marker)

    def die(part: pd.DataFrame) -> pd.DataFrame:
        if len(part) and (path is None or not os.path.exists(path)):
            if path is not None:
                open(path, "w").close()  # noqa: SIM115 - the marker, before dying
            os.kill(os.getpid(), signal.SIGKILL)
        return part

    return frame.map_partitions(die, meta=frame._meta)


def test_a_worker_killed_once_is_retried_and_the_consensus_stands(
        dask_client: Any, retries: Callable[[int], None], tmp_path: Path) -> None:  # noqa: F811
    dd = _module("dask.dataframe")
    columns = synthetic_crowd(n_units=400)
    before = worker_pids(dask_client)
    frame = dying(dd.from_pandas(pd.DataFrame(columns), npartitions=2), tmp_path / "killed")
    got, audit = accord.engines.consensus(frame, **COLS, method="one_coin")
    assert (tmp_path / "killed").exists()  # a worker died during the run
    after = worker_pids(dask_client)
    assert len(set(before.values()) & set(after.values())) == 1  # its nanny started anew
    assert_same(got, in_memory(columns, COLS, "one_coin"))
    assert audit.ratings_used == len(columns["unit"])


def test_a_task_whose_every_worker_dies_stops_in_one_sentence(
        dask_client: Any, retries: Callable[[int], None]) -> None:  # noqa: F811
    dd = _module("dask.dataframe")
    retries(1)  # two tries, so the test does not wait on four restarts
    frame = dying(dd.from_pandas(pd.DataFrame(synthetic_crowd(n_units=50)), npartitions=1),
                  None)
    started = time.monotonic()
    with pytest.raises(EngineError) as info:
        accord.engines.rater_counts(frame, **COLS)
    assert SENTENCE.fullmatch(str(info.value)), str(info.value)
    assert "(2 tries)" in str(info.value)
    assert time.monotonic() - started < 120


# ------------------------------------------- the command line, a worker killed from outside
@pytest.fixture(scope="module")
def crowd_folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """A synthetic crowd of 400 units as 4 Parquet parts, and its in-memory one-coin
    consensus (9 EM iterations: each is a few queries across the worker processes)."""
    columns = synthetic_crowd(n_units=400)
    folder = tmp_path_factory.mktemp("crowd") / "ratings"
    folder.mkdir()
    df = pd.DataFrame(columns)
    for i, part in enumerate(np.array_split(np.arange(len(df)), 4)):
        df.iloc[part].to_parquet(folder / f"part-{i}.parquet", index=False)
    return folder, in_memory(columns, COLS, "one_coin")


@pytest.mark.parametrize("allowed", [None, 0], ids=["default-retries", "no-retry"])
def test_a_worker_killed_during_the_command_leaves_no_partial_output(
        dask_client: Any, retries: Callable[[int], None],  # noqa: F811
        crowd_folder: tuple[Path, Any], tmp_path: Path, allowed: int | None) -> None:
    folder, want = crowd_folder
    if allowed is not None:
        retries(allowed)
    pids = worker_pids(dask_client)
    out = tmp_path / "labels.csv"
    command = [sys.executable, "-m", "accord", "consensus", str(folder), "--unit", "unit",
               "--rater", "rater", "--value", "value", "--method", "one_coin", "--engine", "dask",
               "--scheduler",
               _address("ACCORD_DASK_SCHEDULER"), "-o", str(out)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        victim = _kill_a_busy_worker(dask_client, pids, proc)
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert victim is not None, "the command ended before a worker was busy"
    if proc.returncode == 0:
        text = out.read_text(encoding="utf-8").splitlines()
        got = {r["unit"]: r for r in csv.DictReader(text)}
        expected = {str(r["unit"]): r for r in want.rows()}
        assert got.keys() == expected.keys()
        for unit, row in got.items():
            assert row["label"] == expected[unit]["label"]
            assert float(row["posterior"]) == pytest.approx(expected[unit]["posterior"],
                                                            abs=1e-9)
    else:
        assert proc.returncode == 1, stderr
        # the narwhals FutureWarning that the lane ignores is printed as a warning line
        (line,) = [x for x in stderr.splitlines() if not x.startswith("accord: warning: ")]
        assert line.startswith("accord: error: ") and SENTENCE.fullmatch(line[15:]), line
        assert not out.exists()
        assert not list(tmp_path.iterdir())  # nor a temporary file beside it


def _kill_a_busy_worker(client: Any, pids: dict[str, int], proc: subprocess.Popen[str],
                        into: float = 1.0) -> str | None:
    """SIGKILL a worker of ``proc``'s command ``into`` seconds after its first task; the
    worker's address. A worker running a task is chosen if one is seen within a second
    (the read, the coding, the partitioning by unit, a pass over the blocks), else the one
    holding the most of the command's data (the blocks kept between EM iterations, whose
    passes take milliseconds): either way the command loses work it needs."""
    deadline, first = time.monotonic() + 240, None
    while time.monotonic() < deadline and proc.poll() is None:
        busy = [w for w, tasks in client.processing().items() if tasks and w in pids]
        now = time.monotonic()
        if busy and first is None:
            first = now
        if first is not None and now - first >= into:
            if not busy and now - first >= into + 1.0:
                held = {w: len(keys) for w, keys in client.has_what().items() if w in pids}
                busy = [max(held, key=held.__getitem__)] if any(held.values()) else []
            if busy:
                os.kill(pids[busy[0]], signal.SIGKILL)
                return str(busy[0])
        time.sleep(0.02)
    return None
