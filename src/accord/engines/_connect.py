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
connections but sends no Dask handshake within ``timeout`` seconds, and a Spark master
that does not register the application once Spark's own retries (about a minute) are
spent. A package that is not installed is named with the extra that brings it.
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
        Seconds to wait for the scheduler or master to answer.

    Raises
    ------
    InvalidParameterError
        An unknown engine, an address given to the other engine, a malformed address.
    EngineError
        The engine's package is not installed, or its scheduler or master does not answer.
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

    builder = SparkSession.builder.appName("accord")
    if master is not None:
        for one in _standalone(master):
            answers(one, what="Spark master", schemes=("spark",), timeout=timeout)
        builder = builder.master(master)
    try:
        session = builder.getOrCreate()
    except Exception as exc:
        if not _standalone(master):
            raise
        # Spark gives up on a standalone master that accepts connections but never
        # registers the application after its own retries (3 x 20 s), then stops the
        # context; its error says only that a stopped context was called
        raise EngineError(f"the Spark master at {master} does not answer (it accepts a "
                          "connection but did not register this application within Spark's "
                          "own retries, about a minute): is it running, and is the address "
                          "right?") from exc
    reader = session.read
    if parquet:
        return reader.parquet(str(source))
    return reader.csv(str(source), header=True, inferSchema=True)
