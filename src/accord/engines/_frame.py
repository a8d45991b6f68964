"""What every engine query shares: the frame, missing values, collection and labels.

Queries are written once against narwhals' lazy API, so the same code runs on
polars (eager or lazy), pandas, pyarrow, DuckDB, Dask and PySpark frames. Only
aggregates are collected; labels are decoded from the collected frame with the
engine's own sorts, ranks and look-ups, so no per-row Python loop runs here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _encoding as enc
from accord.data import _validation as v
from accord.errors import DataError, DuplicateRatingError, EngineError
from accord.readers._base import MISSING_FOLDED

IntArray = NDArray[np.int64]

#: Engine-internal column names (user columns are renamed to these first).
U, R, V = "__accord_unit", "__accord_rater", "__accord_value"


def lazy_frame(frame: Any, *, func: str) -> Any:
    """The frame as a narwhals LazyFrame (eager frames are wrapped, not copied)."""
    import narwhals as nw

    try:
        nw_frame = nw.from_native(frame)
    except TypeError:
        raise v.fail(
            "frame",
            func,
            "a dataframe narwhals supports (polars, pandas, pyarrow, DuckDB, Dask, PySpark, ...)",
            type(frame).__name__,
        ) from None
    if isinstance(nw_frame, nw.DataFrame):
        return nw_frame.lazy()
    if isinstance(nw_frame, nw.LazyFrame):
        return nw_frame
    raise v.fail("frame", func, "a dataframe, not a series", type(frame).__name__)


def names(
    categories: Any, missing: Any, *, func: str
) -> tuple[list[Any] | None, list[Any]]:
    """``categories=`` and ``missing=`` as lists; a bare string is refused, not split."""
    cats = None if categories is None else v.names(categories, param="categories", func=func)
    return cats, v.names(missing, param="missing", func=func)


def schema_of(lf: Any, columns: Sequence[Any], *, func: str) -> dict[str, Any]:
    """The dtypes of ``columns``; one sentence if any is absent."""
    schema = dict(lf.collect_schema())
    absent = [c for c in columns if c not in schema]
    if absent:
        raise DataError(
            f"{func}: column(s) {absent!r} not found; the columns are {list(schema)!r}."
        )
    return {c: schema[c] for c in columns}


def long_columns(
    lf: Any, names: tuple[str, str, str], *, func: str
) -> tuple[Any, tuple[Any, Any, Any]]:
    """The unit, rater and value columns renamed to U, R, V, and their label dtypes."""
    dtypes = schema_of(lf, names, func=func)
    kinds = tuple(label_dtype(dtypes[c]) for c in names)
    aliases = (U, R, V)
    base = lf.select(
        *(as_label(c, dtypes[c], k).alias(a) for c, k, a in zip(names, kinds, aliases))
    )
    return base, (kinds[0], kinds[1], kinds[2])


def label_dtype(dtype: Any) -> Any:
    """The dtype labels are compared in: categoricals, enums and all-null columns as text."""
    import narwhals as nw

    return nw.String() if isinstance(dtype, (nw.Categorical, nw.Enum, nw.Unknown)) else dtype


def common_dtype(dtypes: Sequence[Any]) -> Any:
    """One dtype for several rater columns, as :func:`accord.read` unpivots them.

    Columns of unknown dtype (polars and pyarrow give all-null columns one)
    hold no label, so they do not decide.
    """
    import narwhals as nw

    dtypes = [label_dtype(d) for d in dtypes if not isinstance(d, nw.Unknown)] or [nw.String()]
    if all(d.is_integer() for d in dtypes):
        return nw.Int64()
    if all(d.is_numeric() for d in dtypes):
        return nw.Float64()
    if all(d == nw.Boolean for d in dtypes):
        return nw.Boolean()
    return nw.String()


def as_label(name: str, dtype: Any, target: Any) -> Any:
    """``nw.col(name)`` cast to ``target`` when its dtype differs."""
    import narwhals as nw

    col = nw.col(name)
    return col if dtype == target else col.cast(target)


def missing(name: str, dtype: Any, extra: Sequence[Any]) -> Any:
    """True where the value in ``name`` is missing: null, NaN or a marker.

    The markers are :data:`accord.readers._base.MISSING_MARKERS`, trimmed, in any case (as in
    :func:`accord.read`), blank text, and ``extra``; numeric ``extra`` markers
    (``-9``, ``999``) also apply to numeric columns.
    """
    import narwhals as nw

    col = nw.col(name)
    expr = col.is_null()
    if dtype == nw.String:
        extra_text = [str(m) for m in extra]
        trimmed = col.str.strip_chars()
        expr = expr | trimmed.str.to_lowercase().is_in(MISSING_FOLDED)
        return expr | col.is_in(extra_text) | trimmed.is_in(extra_text) if extra_text else expr
    if dtype.is_float():
        expr = expr | col.is_nan()
    numbers = [x for x in (_number(m) for m in extra) if x is not None]
    if dtype.is_numeric() and numbers:
        expr = expr | col.cast(nw.Float64()).is_in(numbers)
    return expr.fill_null(True)


def wide_values(
    lf: Any, names: Sequence[str], dtypes: dict[str, Any], extra: Sequence[Any]
) -> tuple[Any, dict[str, Any]]:
    """The rater columns with every missing value as null, and their label dtypes.

    Each column keeps its own dtype: labels are pooled in Python afterwards,
    so an integer column and a text column stay apart as they do in memory.
    """
    import narwhals as nw

    kinds = {c: label_dtype(dtypes[c]) for c in names}
    labelled = lf.select(*(as_label(c, dtypes[c], kinds[c]).alias(c) for c in names))
    cleaned = labelled.select(
        *(nw.when(~missing(c, kinds[c], extra)).then(nw.col(c)).alias(c) for c in names)
    )
    return cleaned, kinds


def missing_id(name: str, dtype: Any) -> Any:
    """True where a unit or rater id is missing (null, or empty text, as in :func:`accord.read`)."""
    import narwhals as nw

    col = nw.col(name)
    expr = col.is_null()
    if dtype == nw.String:
        expr = expr | (col == "")
    return expr.fill_null(True)


def _number(marker: Any) -> float | None:
    if isinstance(marker, bool):
        return None
    try:
        x = float(marker)
    except (TypeError, ValueError):
        return None
    return x if x == x else None


def collect(lf: Any) -> Any:
    """Run the query; polars lazy frames run on the streaming engine.

    A query that a cluster gave up on, because the workers that ran one of its tasks
    died each time, stops with one sentence naming the engine and the worker
    (:func:`lost_worker`, and :func:`spark_failure` for Spark's executors, its session
    stopped under the query, or its driver gone); a worker that dies once is the
    engine's to retry.
    """
    import narwhals as nw

    if lf.implementation is nw.Implementation.POLARS:
        return lf.collect(engine="streaming")
    try:
        return lf.collect()
    except Exception as exc:
        lost = lost_worker(exc) or spark_failure(exc)
        if lost is None:
            raise
        raise lost from exc


def lost_worker(exc: BaseException) -> EngineError | None:
    """Dask's ``KilledWorker`` (a task whose every try ended with its worker's death) as
    one sentence; None for any other error."""
    if type(exc).__name__ != "KilledWorker" or not type(exc).__module__.startswith(
            "distributed"):
        return None
    task, last, allowed = (tuple(exc.args) + (None, None, None))[:3]
    worker = getattr(last, "address", last)
    retried = ("" if allowed == 0 else ", as did every worker that retried it" +
               (f" ({allowed + 1} tries)" if isinstance(allowed, int) else ""))
    return EngineError(
        f"the Dask worker {worker} died while running the task {task!r} of this count"
        f"{retried}, so the dask engine stopped: the workers' logs say why (a worker out of "
        "memory is stopped by its nanny).")


_EXECUTOR_LOST = re.compile(
    r"Task \S+ in stage \S+ failed (?P<tries>\d+) times?, most recent failure: Lost task \S+ "
    r"in stage \S+ \(TID \d+\) \((?P<host>[^\s()]+) executor (?P<executor>[^\s()]+)\): "
    r"ExecutorLostFailure \((?P<why>[^)\n]*)\)(?: Reason: (?P<reason>[^\n]*))?")
_SHUFFLE_LOST = re.compile(
    r"Stage \S+ \(.*?\) has failed the maximum allowable number of times: (?P<tries>\d+)\. "
    r"Most recent failure reason: \S*(?:FetchFailed\S*)(?:: |\()?(?P<why>[^\n]*)")
_STOPPED = ("SparkContext was shut down", "Cannot call methods on a stopped SparkContext",
            "SparkContext has been shutdown")


def spark_failure(exc: BaseException) -> EngineError | None:
    """Spark's faults that are the cluster's, not the query's, as one sentence; None for
    any other error (a query's own error keeps Spark's words).

    - a task whose every try ended with its executor lost (``ExecutorLostFailure``, after
      ``spark.task.maxFailures`` tries): the executor, its host and Spark's reason;
    - a stage whose every try lost the shuffle output that lost executors held (a
      ``FetchFailed``, after ``spark.stage.maxConsecutiveAttempts`` tries);
    - the session stopped while the query ran (its application removed by the master,
      or stopped from elsewhere);
    - the driver's Java process gone (py4j cannot reach it).
    """
    module = type(exc).__module__
    if not (module.startswith("py4j") or module.startswith("pyspark")):
        return None
    if _driver_gone(exc):
        return EngineError(
            "the Spark driver (the Java process that pyspark started on this machine) "
            "ended or stopped answering while it ran this count, so the spark engine "
            "stopped: its output above says why (a driver out of memory needs a larger "
            "spark.driver.memory).")
    try:
        text = str(exc)
    except Exception:  # a Java error whose text the dead driver can no longer give
        text = ""
    lost = _EXECUTOR_LOST.search(text)
    if lost is not None:
        tries = int(lost["tries"])
        why = lost["why"].strip() + (f"; {lost['reason'].strip()}" if lost["reason"] else "")
        retried = "" if tries < 2 else f", as was every executor that retried it ({tries} tries)"
        return EngineError(
            f"the Spark executor {lost['executor']} on {lost['host']} was lost while running "
            f"a task of this count ({why}){retried}, so the spark engine stopped: the "
            "workers' logs say why (an executor that runs out of memory is killed).")
    shuffle = _SHUFFLE_LOST.search(text)
    if shuffle is not None:
        why = shuffle["why"].strip().rstrip(")") or "a shuffle's output could not be fetched"
        return EngineError(
            "the Spark executors that held a shuffle's output for this count were lost, on "
            f"each of the stage's {shuffle['tries']} tries ({why}), so the spark engine "
            "stopped: the workers' logs say why (an executor that runs out of memory is "
            "killed).")
    if any(marker in text for marker in _STOPPED):
        return EngineError(
            "the Spark session stopped while it ran this count (its master removed the "
            "application, or the session was stopped), so the spark engine stopped: the "
            "driver's output above and the master's log say why; start the count again.")
    return None


def _driver_gone(exc: BaseException | None) -> bool:
    """True if py4j lost its connection to the driver's Java process (here or as a cause)."""
    seen = 0
    while exc is not None and seen < 5:
        if type(exc).__name__ == "Py4JNetworkError" and type(exc).__module__.startswith("py4j"):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def column(df: Any, name: str) -> IntArray:
    """An integer column of a collected frame as int64 (nulls as 0)."""
    import narwhals as nw

    out = df.select(nw.col(name).fill_null(0).cast(nw.Int64())).get_column(name)
    return np.asarray(out.to_numpy(), dtype=np.int64)


def local_codes(df: Any, name: str, dtype: Any) -> tuple[IntArray, list[Any]]:
    """Codes of a collected column into its sorted distinct labels (``-1`` = null).

    The codes are the engine's dense ranks, the labels its sorted distinct
    values, so both come from one ordering; labels are cast back to the source
    dtype (pandas turns integer labels into floats when nulls appear).
    """
    import narwhals as nw

    ranks = df.select(nw.col(name).rank("dense").fill_null(0)).get_column(name)
    codes = np.asarray(ranks.to_numpy(), dtype=np.float64).astype(np.int64) - 1
    labels = df.get_column(name).drop_nulls().unique().sort()
    return codes, as_source(labels, dtype).to_list()


def run_codes(df: Any, name: str, dtype: Any) -> tuple[IntArray, list[Any]]:
    """Codes of a collected column already sorted by it, and its distinct labels (no nulls).

    One sort (by the caller) replaces a rank and a sort of the distinct values:
    a code starts wherever the value changes.
    """
    import narwhals as nw

    col = nw.col(name)
    starts = df.select((col != col.shift(1)).fill_null(True).alias(name)).get_column(name)
    codes = np.cumsum(np.asarray(starts.to_numpy(), dtype=bool), dtype=np.int64) - 1
    return codes, as_source(df.get_column(name).filter(starts), dtype).to_list()


def distinct_labels(df: Any, name: str, dtype: Any) -> list[Any]:
    """The sorted distinct non-null values of a collected column, in the source dtype."""
    return as_source(df.get_column(name).drop_nulls().unique().sort(), dtype).to_list()


def few_codes(df: Any, name: str, dtype: Any) -> tuple[IntArray, list[Any]]:
    """Codes of a collected column with few distinct values (no nulls), by look-up."""
    import narwhals as nw

    labels = df.get_column(name).unique().sort()
    if len(labels) == 0:
        return np.zeros(0, dtype=np.int64), []
    codes = df.select(
        nw.col(name).replace_strict(
            labels.to_list(), list(range(len(labels))), return_dtype=nw.Int64()
        )
    ).get_column(name)
    return np.asarray(codes.to_numpy(), dtype=np.int64), as_source(labels, dtype).to_list()


def as_source(labels: Any, dtype: Any) -> Any:
    """Labels cast back to the source dtype (pandas makes integers floats next to nulls)."""
    import narwhals as nw

    if (dtype.is_integer() or dtype == nw.Boolean) and labels.dtype != dtype:
        return labels.cast(dtype)
    return labels


def categories_of(
    labels: Sequence[Sequence[Any]], declared: Sequence[Any] | None
) -> tuple[list[Any], list[IntArray]]:
    """The category order and, per label list, a look-up from local to category code.

    Without ``declared``, the categories are the sorted distinct labels (as
    :meth:`accord.Annotations.from_long` orders them); with it, every label must
    be declared (one sentence naming the others).
    """
    pooled = np.empty(sum(len(x) for x in labels), dtype=object)
    pooled[:] = [x for part in labels for x in part]
    if declared is None:
        codes, cats = enc.factorize(pooled)
    else:
        cats = list(declared)
        if len({_key(c) for c in cats}) != len(cats):
            raise DataError(f"declared categories must be distinct; got {cats!r}.")
        codes = enc.encode_declared(pooled, cats, name="the data")
    bounds = np.cumsum([0, *(len(x) for x in labels)])
    return cats, [codes[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _key(x: Any) -> Any:
    try:
        hash(x)
    except TypeError:
        raise DataError(f"declared category {x!r} is not hashable.") from None
    return x


def recode(local: IntArray, lut: IntArray) -> IntArray:
    """Local codes (``-1`` = null) through a look-up table, keeping ``-1``."""
    if lut.shape[0] == 0:
        return np.full(local.shape[0], -1, dtype=np.int64)
    return np.where(local >= 0, lut[np.maximum(local, 0)], -1)


def clash(low: str = "lo", high: str = "hi") -> Any:
    """True where a (unit, rater) group's smallest and largest values differ.

    Pandas compares missing values as unequal (NaN != NaN), so null groups are
    excluded explicitly.
    """
    import narwhals as nw

    lo, hi = nw.col(low), nw.col(high)
    return (~lo.is_null() & ~hi.is_null() & (lo != hi)).fill_null(False)


def duplicate_error(clashes: Any, *, func: str) -> DuplicateRatingError:
    """The in-memory duplicate sentence, naming up to three (unit, rater) pairs.

    ``clashes`` is a lazy frame of the (unit, rater) pairs with two different
    values. The remedy differs from the in-memory one: an engine's rows have no
    order, so there is no "last" value to keep.
    """
    import narwhals as nw

    n = int(column(collect(clashes.select(nw.len().alias("n"))), "n")[0])
    head = collect(clashes.sort(U, R).head(3))
    pairs = zip(head.get_column(U).to_list(), head.get_column(R).to_list())
    shown = ", ".join(f"unit {u!r} by rater {r!r}" for u, r in pairs)
    more = f" and {n - 3} more" if n > 3 else ""
    return DuplicateRatingError(
        f"{n} unit(s) were rated twice by the same rater with different values "
        f"({shown}{more}); {func} cannot pick one, since an engine's rows have no order: "
        "keep one value per (unit, rater) before counting."
    )
