"""A file read by an engine, on this machine or on a cluster that is already running.

:func:`read` opens CSV or Parquet (a file, or a folder of Parquet parts) as a DuckDB
relation, a Dask frame or a Spark frame, which :func:`accord.engines.rater_counts`,
:func:`~accord.engines.contingency_table` and :func:`~accord.engines.consensus` take.
Where the cluster is, in order:

- Dask: ``scheduler=`` (``tcp://HOST:PORT``), else the ``DASK_SCHEDULER_ADDRESS``
  environment variable (Dask's own: its configuration reads it as
  ``scheduler-address``), else Dask's threads in this process;
- Spark: ``master=`` (``spark://HOST:PORT``, ``local[2]``, ...), else the
  ``SPARK_MASTER`` environment variable (read by accord: Spark has no variable of its
  own for a client's master), else the ``spark.master`` that Spark reads itself (from
  ``spark-submit --master`` or ``conf/spark-defaults.conf``), else ``local[*]``.

A folder of Parquet parts is checked first: a column written with different types in
different parts (a rater id as an integer in one and as text in another) stops with one
sentence naming the column, its types and the parts. A scheduler or master that does
not answer stops with one sentence naming it: a closed port at once (a TCP connection
is tried first, so it never waits on Spark's registration retries), a port that accepts
connections but sends no Dask handshake within ``timeout`` seconds, a Spark standalone
master that does not register the application within ``timeout`` seconds of the
driver's connection (Spark itself retries for a minute), and one that registers it but
gives it no executor within ``timeout`` seconds (Spark's first job would wait for ever).
Spark without Java, and a package that is not installed, are named with what to install.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from accord.data import _validation as v
from accord.engines._parts import check_parts
from accord.errors import EngineError

Engine = Literal["duckdb", "dask", "spark"]
ENGINES: tuple[str, ...] = ("duckdb", "dask", "spark")
_PACKAGES = {"duckdb": ("duckdb",), "dask": ("dask.dataframe", "distributed"),
             "spark": ("pyspark.sql",)}
_FUNC = "accord.engines.read"


def read(path: str | os.PathLike[str], *, engine: Engine, scheduler: str | None = None,
         master: str | None = None, timeout: float = 10.0) -> Any:
    """The file at ``path`` as a frame of ``engine``, read where the engine runs.

    Parameters
    ----------
    path : str or path
        A ``.csv`` file (with a header row), or a ``.parquet`` file or a folder of
        Parquet parts. On a cluster every worker must see the same path.
    engine : {"duckdb", "dask", "spark"}
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT`` (Dask only).
    master : str, optional
        A Spark master URL, ``spark://HOST:PORT`` (Spark only).
    timeout : float
        Seconds to wait for the scheduler or master to answer; on a Spark standalone
        master also for the application's registration (counted from the driver's
        connection, after its local start-up) and for its first executor.

    Raises
    ------
    InvalidParameterError
        An unknown engine, an address given to the other engine, a malformed address.
    EngineError
        The engine's package is not installed, Spark finds no Java, or the scheduler or
        master does not answer, register the application or give it an executor in time.
    DataError
        A column has different types in different parts of a Parquet folder (the message
        names the column, its types and the parts).

    Examples
    --------
    >>> import accord
    >>> from accord.engines import read
    >>> try:
    ...     read("ratings.csv", engine="polars")
    ... except accord.errors.InvalidParameterError as exc:
    ...     print(exc)
    The 'engine' parameter of accord.engines.read must be one of ['duckdb', 'dask',
    'spark']. Got 'polars' instead.
    """
    if engine not in ENGINES:
        raise v.fail("engine", _FUNC, f"one of {list(ENGINES)}", engine)
    if scheduler is not None and engine != "dask":
        raise v.fail("scheduler", _FUNC, "given with engine='dask' only", scheduler)
    if master is not None and engine != "spark":
        raise v.fail("master", _FUNC, "given with engine='spark' only", master)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise v.fail("timeout", _FUNC, "a positive number of seconds", timeout)
    if engine == "dask" and scheduler_address(scheduler) is not None:
        _host_port(str(scheduler_address(scheduler)), ("tcp", "tls"))  # before any import
    for one in _standalone(master_url(master) if engine == "spark" else None):
        _host_port(one, ("spark",))
    _require(engine)
    source = Path(path).resolve()  # workers resolve a relative path against their own folder
    parquet = source.is_dir() or source.suffix.lower() in (".parquet", ".pq")
    if source.is_dir():
        check_parts(source, engine=engine, func=_FUNC)
    if engine == "duckdb":
        return _duckdb(source, parquet)
    if engine == "dask":
        return _dask(source, parquet, scheduler_address(scheduler), timeout)
    return _spark(source, parquet, master_url(master), timeout)


def scheduler_address(given: str | None) -> str | None:
    """The Dask scheduler to use: ``given``, else ``DASK_SCHEDULER_ADDRESS``, else None."""
    return given or os.environ.get("DASK_SCHEDULER_ADDRESS") or None


def master_url(given: str | None) -> str | None:
    """The Spark master to use: ``given``, else ``SPARK_MASTER``, else None (Spark's own)."""
    return given or os.environ.get("SPARK_MASTER") or None


def _require(engine: str) -> None:
    for name in _PACKAGES[engine]:
        try:
            __import__(name)
        except ImportError as exc:
            raise EngineError(
                f"the {engine} engine needs the Python package {exc.name or name!r}, which "
                "is not installed: pip install 'accord[engines]' (DuckDB, Dask and PySpark)."
            ) from None


def answers(address: str, *, what: str, schemes: tuple[str, ...], timeout: float) -> None:
    """One sentence unless something accepts a TCP connection at ``address`` in time."""
    host, port = _host_port(address, schemes)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise EngineError(f"the {what} at {address} does not answer ({exc.strerror or exc}, "
                          f"waited up to {timeout:g} s): is it running, and is the address "
                          "right?") from None


def _standalone(master: str | None) -> list[str]:
    """A standalone master URL as one address per master (``spark://a:7077,b:7077`` names
    a master and its standbys); none for other masters (``local[2]``, ``yarn``, ...)."""
    if master is None or not master.startswith("spark://"):
        return []
    return [f"spark://{one}" for one in master[len("spark://"):].split(",")]


def _host_port(address: str, schemes: tuple[str, ...]) -> tuple[str, int]:
    parts = urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if parts.scheme not in schemes or not host or port is None:
        param = "scheduler" if schemes != ("spark",) else "master"
        raise v.fail(param, _FUNC, f"an address {schemes[0]}://HOST:PORT", address)
    return host, port


def _duckdb(source: Path, parquet: bool) -> Any:
    import duckdb

    if parquet:
        target = str(source / "**" / "*.parquet") if source.is_dir() else str(source)
        return duckdb.read_parquet(target)
    return duckdb.read_csv(str(source), header=True)


def _dask(source: Path, parquet: bool, address: str | None, timeout: float) -> Any:
    import dask.dataframe as dd

    if address is not None:
        answers(address, what="Dask scheduler", schemes=("tcp", "tls"), timeout=timeout)
        _dask_handshake(address, timeout)
        from distributed import Client

        try:  # the client becomes Dask's default, so the frame's work runs there
            Client(address, timeout=timeout, set_as_default=True)  # type: ignore[no-untyped-call,unused-ignore]
        except OSError as exc:
            raise EngineError(f"the Dask scheduler at {address} did not accept a client "
                              f"within {timeout:g} s ({exc}).") from None
    return dd.read_parquet(str(source)) if parquet else dd.read_csv(str(source))


def _dask_handshake(address: str, timeout: float) -> None:
    """One sentence unless a Dask handshake comes back from ``address`` within ``timeout``.

    ``distributed.Client`` bounds the TCP connection by its ``timeout`` but then waits
    for the scheduler's handshake without a bound, so a port that accepts connections
    and never speaks Dask (a stalled process, another service) would hang it. The probe
    runs on an event loop of its own, in a thread, so it works where a loop is already
    running (a notebook).
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm.core import connect
    from distributed.security import Security

    # the client's TLS settings from Dask's configuration, as Client itself takes them
    options = Security().get_connection_args("client")  # type: ignore[no-untyped-call,unused-ignore]

    async def probe() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=timeout, **options), timeout)  # type: ignore[no-untyped-call,unused-ignore]
        await comm.close()

    with ThreadPoolExecutor(1, thread_name_prefix="accord-dask-probe") as pool:
        try:
            pool.submit(asyncio.run, probe()).result()
        except (asyncio.TimeoutError, TimeoutError):
            reason = "it accepts a connection but sends no Dask handshake"
        except Exception as exc:  # a reply that is not Dask's: closed, or not msgpack
            said = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            reason = f"it accepts a connection but its reply is not a Dask handshake: {said}"
        else:
            return
    raise EngineError(f"the Dask scheduler at {address} does not answer ({reason}, waited up "
                      f"to {timeout:g} s): is it running, and is the address right?")


def _spark(source: Path, parquet: bool, master: str | None, timeout: float) -> Any:
    from pyspark.sql import SparkSession

    from accord.engines._frame import spark_failure

    builder = SparkSession.builder.appName("accord")
    if master is not None:
        for one in _standalone(master):
            answers(one, what="Spark master", schemes=("spark",), timeout=timeout)
        builder = builder.master(master)
    session = _spark_session(builder, master, timeout)
    reader = session.read
    try:  # a CSV's schema is inferred by a job, which meets the cluster's faults
        if parquet:
            return reader.parquet(str(source))
        return reader.csv(str(source), header=True, inferSchema=True)
    except Exception as exc:
        failure = spark_failure(exc)
        if failure is None:
            raise
        raise failure from exc


def _spark_session(builder: Any, master: str | None, timeout: float) -> Any:
    """The session ``builder`` gets or creates; one sentence where Spark would hang or
    stop in its own words.

    - No Java: pyspark's ``JAVA_GATEWAY_EXITED`` names no cause.
    - A standalone master that accepts connections but does not register the application
      (another service on the port, a stalled master): Spark retries for about a minute
      and a half; here the session is given ``timeout`` seconds, then the driver's Java
      process, started for this session, is stopped.
    - A standalone master that registers the application but gives it no executor (no
      worker, or every core taken by other applications): Spark's first job would wait
      for ever; here the first executor is given ``timeout`` seconds (not with
      ``spark.dynamicAllocation.enabled``, where executors come with the first job).

    A session that is already running is returned as it is: it waits on nothing.
    """
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    if SparkSession.getActiveSession() is not None or SparkContext._active_spark_context:
        return builder.getOrCreate()
    launched = SparkContext._gateway is None
    try:
        # the driver's Java process, if none runs, started with the builder's options (its
        # memory, jars) as getOrCreate would start it
        SparkContext._ensure_initialized(conf=_conf(builder))
    except Exception as exc:
        if "JAVA_GATEWAY_EXITED" not in _condition(exc):
            raise
        raise EngineError(
            "the spark engine could not start Java (pyspark's Java process exited before it "
            "answered): Spark needs a Java runtime, 17 or newer, on the PATH or in "
            f"JAVA_HOME ({os.environ.get('JAVA_HOME') or 'not set'}); `java -version` shows "
            "whether one is there.") from None
    if not _standalone(master):
        return builder.getOrCreate()
    import threading

    got: dict[str, Any] = {}

    def create() -> None:
        try:
            got["session"] = builder.getOrCreate()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            got["error"] = exc

    worker = threading.Thread(target=create, name="accord-spark-session", daemon=True)
    worker.start()
    _wait_for_registration(worker, str(master), timeout)
    if worker.is_alive():
        if launched:
            _stop_driver(worker)
        raise EngineError(f"the Spark master at {master} does not answer (it accepts a "
                          "connection but did not register this application, waited up to "
                          f"{timeout:g} s): is it running, and is the address right?")
    if "error" in got:
        # Spark gave up on the master itself (3 x 20 s of registration retries), then
        # stopped the context; its error says only that a stopped context was called
        raise EngineError(f"the Spark master at {master} does not answer (it accepts a "
                          "connection but did not register this application within Spark's "
                          "own retries): is it running, and is the address right?"
                          ) from got["error"]
    session = got["session"]
    _first_executor(session, master, timeout)
    return session


def _wait_for_registration(creating: Any, master: str, timeout: float) -> None:
    """Wait for the session's creation, bounding only the master's part of it.

    The driver's local start-up (which a loaded machine can make take half a minute)
    takes as long as it takes; from the moment the driver's Java process connects to the
    master, the master has ``timeout`` seconds to register the application; the rest of
    the start-up is local again. The master answers on the driver's own connection, so
    the registration is seen by what the driver does next: the context starts its block
    manager, which listens on a port of its own, once the scheduler has its application
    id. Both are seen in the process's sockets (psutil, in the engines extra); where they
    cannot be read, Spark's own registration retries bound the wait.
    """
    import time

    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    targets = _master_endpoints(master)
    deadline, before = None, set()
    while creating.is_alive():
        if proc is None:
            creating.join()
        elif deadline is None:
            sockets = _sockets(proc.pid)
            if any(c.raddr and _peer(c.raddr) in targets for c in sockets):
                deadline, before = time.monotonic() + timeout, _listening(sockets)
        elif _listening(_sockets(proc.pid)) - before:
            creating.join()
        elif time.monotonic() >= deadline:
            return
        creating.join(0.1)


def _listening(sockets: list[Any]) -> set[int]:
    return {c.laddr[1] for c in sockets if c.status == "LISTEN"}


def _peer(address: Any) -> tuple[str, int]:
    # a Java socket on an IPv6 stack names an IPv4 peer as ::ffff:a.b.c.d
    return str(address[0]).removeprefix("::ffff:"), int(address[1])


def _sockets(pid: int | None = None) -> list[Any]:
    try:
        import psutil  # type: ignore[import-untyped,unused-ignore]

        return list(psutil.Process(pid).net_connections(kind="tcp"))
    except Exception:  # no psutil, the process gone, or its sockets not ours to read
        return []


def _master_endpoints(master: str) -> set[tuple[str, int]]:
    """Every (IP, port) a standalone master URL names (hosts resolved)."""
    found = set()
    for one in _standalone(master):
        host, port = _host_port(one, ("spark",))
        try:
            infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
        except OSError:
            continue
        found |= {(str(info[4][0]), port) for info in infos}
    return found


def _conf(builder: Any) -> Any:
    from pyspark import SparkConf

    conf = SparkConf()
    for key, value in getattr(builder, "_options", {}).items():
        conf.set(key, value)
    return conf


def _condition(exc: BaseException) -> str:
    getter = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)
    try:
        return str(getter() if getter is not None else "")
    except Exception:
        return ""


def _first_executor(session: Any, master: str | None, timeout: float) -> None:
    """One sentence (and the session stopped) unless an executor registers in time."""
    import time

    sc = session.sparkContext
    if sc.getConf().get("spark.dynamicAllocation.enabled", "false").lower() == "true":
        return
    deadline = time.monotonic() + timeout
    while sc._jsc.sc().getExecutorMemoryStatus().size() < 2:  # the driver is one of them
        if time.monotonic() > deadline:
            session.stop()
            raise EngineError(
                f"the Spark master at {master} registered this application but gave it no "
                f"executor within {timeout:g} s, so its first job would wait for ever: has it "
                "a worker with a free core and enough memory (spark.executor.memory), or do "
                "other applications hold them all?")
        time.sleep(0.2)


def _stop_driver(creating: Any) -> None:
    """Stop the driver's Java process that a session creation hangs in, and forget it, so
    that the next session starts a new one (pyspark would keep waiting on this one)."""
    import contextlib

    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    gateway = SparkContext._gateway
    proc = getattr(gateway, "proc", None)
    if proc is not None:
        with contextlib.suppress(OSError):
            proc.kill()
            proc.wait(10)
    creating.join(10)  # its py4j call fails once the process is gone
    with contextlib.suppress(Exception):
        gateway.shutdown()  # type: ignore[union-attr,unused-ignore]
    SparkContext._gateway = None
    SparkContext._jvm = None
    SparkContext._active_spark_context = None
    SparkSession._instantiatedSession = None
    SparkSession._activeSession = None
