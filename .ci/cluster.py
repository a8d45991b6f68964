"""A real cluster on this machine for the cluster lane (``make test-cluster``).

Starts, on 127.0.0.1 only:

- a Dask scheduler and two worker processes (``dask scheduler``, ``dask worker --nworkers
  2 --nthreads 1``): the workers are processes of their own, so a test sees what pickling,
  imports and the network between processes do;
- a Spark standalone master and two workers, each a JVM of its own started by the
  ``spark-class`` launcher that the pyspark wheel ships (``org.apache.spark.deploy.master
  .Master`` and ``...worker.Worker spark://127.0.0.1:PORT --cores 1 --memory 1g``);

waits until every worker has registered, prints the addresses, runs the command given
after ``--`` with ``ACCORD_DASK_SCHEDULER`` and ``ACCORD_SPARK_MASTER`` set, and stops
every process it started (their whole process groups, executors included), also when
the command fails or this script is interrupted or terminated (SIGINT, SIGTERM, SIGHUP). Its exit status is the command's.

    python .ci/cluster.py -- python -m pytest -m cluster tests

Each process's log is kept in a temporary folder and its tail printed when a process
does not come up within ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self, logs: Path, timeout: float) -> None:
        self.logs, self.timeout = logs, timeout
        self.procs: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> None:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - kept open for the process
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})},
                                start_new_session=True)
        self.procs.append((name, proc))

    def tail(self, name: str, lines: int = 25) -> str:
        text = (self.logs / f"{name}.log").read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def wait_for_log(self, name: str, needle: str) -> None:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            proc = dict(self.procs)[name]
            if needle in (self.logs / f"{name}.log").read_text(errors="replace"):
                return
            if proc.poll() is not None:
                break
            time.sleep(0.5)
        raise SystemExit(f"cluster: {name} did not come up within {self.timeout:.0f} s "
                         f"(waiting for {needle!r}); its log ends:\n{self.tail(name)}")

    def stop(self) -> None:
        for _, proc in reversed(self.procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for name, proc in reversed(self.procs):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            print(f"cluster: stopped {name} (pid {proc.pid})", file=sys.stderr)


def start_dask(c: Cluster, bin_dir: Path, memory_gib: float) -> str:
    port = free_port()
    address = f"tcp://{HOST}:{port}"
    dask = str(bin_dir / "dask")
    c.start("dask-scheduler", [dask, "scheduler", "--host", HOST, "--port", str(port),
                               "--no-dashboard"])
    c.wait_for_log("dask-scheduler", "Scheduler at:")
    c.start("dask-workers", [dask, "worker", address, "--nworkers", "2", "--nthreads", "1",
                             "--host", HOST, "--no-dashboard", "--memory-limit",
                             f"{memory_gib:g}GiB"])
    code = ("import sys; from distributed import Client\n"
            f"c = Client({address!r}, timeout=60)\n"
            f"c.wait_for_workers(2, timeout={c.timeout})\n"
            "print(len(c.scheduler_info()['workers']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"cluster: the Dask workers did not register: {done.stderr[-2000:]}\n"
                         f"{c.tail('dask-workers')}")
    return address


def spark_worker_memory(memory_gib: float) -> str:
    """What each Spark worker offers, given the Dask workers' ``--worker-memory``."""
    return f"{max(int(memory_gib), 1)}g"


def start_spark(c: Cluster, memory_gib: float) -> str:
    from pyspark.find_spark_home import _find_spark_home

    home = _find_spark_home()
    spark_class = str(Path(home) / "bin" / "spark-class")
    port = free_port()
    master = f"spark://{HOST}:{port}"
    env = {"SPARK_HOME": home, "SPARK_LOCAL_IP": HOST, "SPARK_LOG_DIR": str(c.logs),
           "PYSPARK_PYTHON": sys.executable}
    c.start("spark-master", [spark_class, "org.apache.spark.deploy.master.Master",
                             "--host", HOST, "--port", str(port),
                             "--webui-port", str(free_port())], env)
    c.wait_for_log("spark-master", "I have been elected leader")
    for i in (1, 2):
        work = c.logs / f"spark-worker-{i}"
        work.mkdir()
        c.start(f"spark-worker-{i}", [spark_class, "org.apache.spark.deploy.worker.Worker",
                                       master, "--host", HOST, "--cores", "1",
                                       "--memory", spark_worker_memory(memory_gib),
                                       "--webui-port", str(free_port()),
                                       "--work-dir", str(work)], env)
    for i in (1, 2):
        c.wait_for_log(f"spark-worker-{i}", "Successfully registered with master")
    return master


@contextlib.contextmanager
def cluster(timeout: float, memory_gib: float = 2.0) -> Iterator[dict[str, str]]:
    with tempfile.TemporaryDirectory(prefix="accord-cluster-") as tmp:
        c = Cluster(Path(tmp), timeout)
        try:
            started = time.monotonic()
            dask = start_dask(c, Path(sys.executable).parent, memory_gib)
            spark = start_spark(c, memory_gib / 2)  # 1g by default, as the guide starts
            print(f"cluster: Dask scheduler {dask} with 2 worker processes; Spark master "
                  f"{spark} with 2 workers; up in {time.monotonic() - started:.1f} s",
                  file=sys.stderr)
            yield {"ACCORD_DASK_SCHEDULER": dask, "ACCORD_SPARK_MASTER": spark}
        finally:
            c.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument("--worker-memory", type=float, default=2.0, metavar="GIB",
                        help="each Dask worker's memory limit; each Spark worker offers "
                             "half of it, at least 1 GiB (default 2: 2 GiB and 1 GiB)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)  # unwinds through cluster(), which stops everything

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, stop)
    with cluster(args.timeout, args.worker_memory) as env:
        return subprocess.run(command, env={**os.environ, **env}).returncode


if __name__ == "__main__":
    sys.exit(main())
