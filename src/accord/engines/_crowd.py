"""A crowd's ratings inside the engine, and the two queries every EM iteration runs.

The ratings stay in the engine as one lazy table of ``(unit, key)`` rows, one per
(unit, rater), where ``key = rater * k + label`` codes the (rater, label) cell
(notation of :mod:`accord.annotators._em`, after Dawid & Skene 1979). Per
iteration, a model pushes a small table into the engine: per key, the ``k``
terms ``log P(rater says label | true class c)``. One query joins it with the
ratings, sums per unit (``GROUP BY unit``: ``log P(T_u = c, ratings of u)``
minus the log prior), normalises the ``k`` columns in the engine (max, exp,
sum), joins the posteriors back to the ratings and sums them per key
(``GROUP BY key``). Only that small table is collected: per key the posterior
mass of each true class (the M step's counts), the same divided by the unit's
number of ratings (their sum over keys is the class prior's numerator) and the
log-likelihood share. The per-unit posteriors are collected once, at the end.
Dask and Spark run the same pass over blocks kept on their workers instead
(:mod:`accord.engines._held`); :func:`e_step`, :func:`vote_counts` and
:func:`final_units` take whichever the crowd has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data.audit import Audit
from accord.engines import _frame as fr
from accord.engines._frame import IntArray, R, U, V
from accord.errors import DataError, InsufficientDataError

FloatArray = NDArray[np.float64]

#: Engine-internal columns: the (rater, label) key, a unit's rating count, its log-likelihood.
K, N, LL = "__accord_key", "__accord_n", "__accord_ll"


def col(prefix: str, c: int) -> str:
    """The name of the ``c``-th of ``k`` per-class columns."""
    return f"__accord_{prefix}{c}"


@dataclass(frozen=True)
class EngineCrowd:
    """The coded ratings (lazy, in the engine) and the few figures known after coding."""

    #: the coded rows; None once :attr:`held` holds them (Dask frees the rows then)
    ratings: Any
    raters: tuple[Any, ...]
    categories: tuple[Any, ...]
    #: ratings per key (``rater * k + label``), length ``n_raters * k``
    per_key: IntArray
    n_units: int
    unit_dtype: Any
    audit: Audit
    #: the ratings held as blocks on the workers (:mod:`accord.engines._held`), or None
    held: Any = None

    @property
    def k(self) -> int:
        return len(self.categories)

    @property
    def n_raters(self) -> int:
        return len(self.raters)

    @property
    def n_ratings(self) -> int:
        return int(self.per_key.sum())

    @property
    def keys(self) -> IntArray:
        """The keys that occur, in increasing order (the rows of every pushed table)."""
        return np.flatnonzero(self.per_key).astype(np.int64)


def crowd(frame: Any, names: tuple[str, str, str], categories: Sequence[Any] | None,
          extra: Sequence[Any], *, func: str) -> EngineCrowd:
    """Audit, de-duplicate and code the ratings; collects only per-(rater, label) counts."""
    import narwhals as nw

    base, kinds = fr.long_columns(fr.lazy_frame(frame, func=func), names, func=func)
    mv = fr.missing(V, kinds[2], extra)
    mi = ~mv & (fr.missing_id(U, kinds[0]) | fr.missing_id(R, kinds[1]))
    totals = fr.collect(base.select(nw.len().alias("rows"),
                                    mv.cast(nw.Int64()).sum().alias("mv"),
                                    mi.cast(nw.Int64()).sum().alias("mi")))
    rows, n_mv, n_mi = (int(fr.column(totals, c)[0]) for c in ("rows", "mv", "mi"))
    ratings = _distinct(base.filter(~(mv | mi)), func=func)
    pairs = fr.collect(ratings.group_by(R, V).agg(nw.len().alias(N))).sort(R, V)
    r_codes, raters = fr.run_codes(pairs, R, kinds[1])
    v_local, labels = fr.few_codes(pairs, V, kinds[2])
    cats, (lut,) = fr.categories_of([labels], categories)
    key = r_codes * len(cats) + lut[v_local] if len(cats) else r_codes
    n = fr.column(pairs, N)
    _check_used(n, lut[v_local] if len(cats) else v_local, cats, func)
    coded = ratings.join(
        push(ratings, {R: pairs.get_column(R).to_list(), V: pairs.get_column(V).to_list(),
                       K: key}, {R: kinds[1], V: kinds[2]}),
        on=[R, V], how="inner",
    ).select(U, K)
    coded = keep(coded)
    n_units = int(fr.column(fr.collect(coded.select(nw.col(U).n_unique().alias(N))), N)[0])
    per_key = np.bincount(key, weights=n, minlength=len(raters) * len(cats)).astype(np.int64)
    used = int(n.sum())
    dropped = {"missing value": n_mv, "missing unit or rater id": n_mi,
               "identical repeated rating": rows - n_mv - n_mi - used}
    audit = Audit("consensus (long)", rows, used, {r: x for r, x in dropped.items() if x})
    return EngineCrowd(coded, tuple(raters), tuple(cats), per_key, n_units, kinds[0], audit)


def _distinct(valid: Any, *, func: str) -> Any:
    """One row per (unit, rater): identical repeats collapse, different values raise."""
    import narwhals as nw

    pairs = valid.group_by(U, R).agg(nw.len().alias(N), nw.col(V).min().alias("lo"),
                                     nw.col(V).max().alias("hi"))
    flags = fr.collect(pairs.select((nw.col(N) > 1).cast(nw.Int64()).sum().alias("repeats"),
                                    fr.clash().cast(nw.Int64()).sum().alias("clash")))
    if int(fr.column(flags, "clash")[0]):
        raise fr.duplicate_error(pairs.filter(fr.clash()), func=func)
    if int(fr.column(flags, "repeats")[0]):
        return pairs.select(U, R, nw.col("lo").alias(V))
    return valid.select(U, R, V)


def _check_used(n: IntArray, codes: IntArray, cats: Sequence[Any], func: str) -> None:
    """The in-memory sentences for no ratings and for a single category in use."""
    if int(n.sum()) == 0:
        raise InsufficientDataError(f"{func}: the data hold no ratings, so there is no label "
                                    "to infer.")
    used = np.unique(codes)
    if used.shape[0] < 2:
        only = cats[int(used[0])]
        raise InsufficientDataError(
            f"{func}: every rating is {only!r}, so every unit's label is {only!r} and there "
            "is nothing to infer; a consensus needs at least two categories in use."
        )


# --------------------------------------------------------------------- small tables
def push(like: Any, columns: dict[str, Any], dtypes: dict[str, Any] | None = None) -> Any:
    """A small table as a narwhals LazyFrame of ``like``'s engine (and connection or session).

    Narwhals builds eager frames only, so each lazy engine gets its native call:
    DuckDB reads an Arrow table through the relation's own connection, Dask makes
    one partition, Spark uses the frame's session. ``dtypes`` casts columns to the
    ratings' dtypes, so join keys match exactly.
    """
    import narwhals as nw

    data = {c: (x.tolist() if isinstance(x, np.ndarray) else list(x))
            for c, x in columns.items()}
    impl = like.implementation
    native = like.to_native()
    if impl is nw.Implementation.DUCKDB:
        import pyarrow as pa

        accord_small_table = pa.table(data)  # noqa: F841 - read by DuckDB's replacement scan
        small = native.query("__accord_like", "SELECT * FROM accord_small_table")
        out = nw.from_native(small.set_alias("__accord_small"))
    elif impl is nw.Implementation.DASK:
        import dask.dataframe as dd
        import pandas as pd

        from_pandas: Any = dd.from_pandas  # untyped in dask; dask is an optional extra
        out = nw.from_native(from_pandas(pd.DataFrame(data), npartitions=1))
    elif impl.is_spark_like():
        out = nw.from_native(native.sparkSession.createDataFrame(list(zip(*data.values())),
                                                                 list(data)))
    elif impl.is_pandas_like() or impl in (nw.Implementation.POLARS, nw.Implementation.PYARROW):
        out = nw.from_dict(data, backend=impl).lazy()
    else:
        raise DataError(f"accord.engines cannot add a small table to a {impl} frame; give "
                        "it as polars, pandas, pyarrow, DuckDB, Dask or Spark.")
    casts = [nw.col(c).cast(t) for c, t in (dtypes or {}).items() if out.collect_schema()[c] != t]
    return out.with_columns(*casts) if casts else out


def keep(lf: Any) -> Any:
    """The coded ratings held by the engine between iterations, where it has a cache.

    Every iteration reads them twice; Spark would otherwise re-run the reading,
    filtering and coding per query (``cache``), Dask rebuild them per graph
    (``persist``, in the workers' memory). DuckDB and polars re-plan fast and
    read on the fly, so their queries stay lazy (a file is read per iteration).
    """
    import narwhals as nw

    native = lf.to_native()
    if lf.implementation is nw.Implementation.DASK:
        return nw.from_native(native.persist())
    if lf.implementation.is_spark_like() and hasattr(native, "cache"):
        return nw.from_native(native.cache())
    return lf


def release_crowd(crowd: EngineCrowd) -> None:
    """Free what :func:`keep` and :func:`accord.engines._held.hold` cached."""
    if crowd.held is not None:
        crowd.held.release()
    if crowd.ratings is not None:
        release(crowd.ratings)


def release(lf: Any) -> None:
    """Free what :func:`keep` cached (Spark keeps a cache until told)."""
    native = lf.to_native()
    if lf.implementation.is_spark_like() and hasattr(native, "unpersist"):
        native.unpersist()


# --------------------------------------------------------------------- one EM pass
def e_step(crowd: EngineCrowd, terms: FloatArray, log_prior: FloatArray) -> Counts:
    """One E step and the sums its M step reads: over the held blocks where the ratings
    are held, else by the two queries (:func:`posterior`, then :func:`counts`)."""
    if crowd.held is not None:
        return crowd.held.e_step(terms, log_prior)
    return counts(crowd, posterior(crowd, terms, log_prior))


def vote_counts(crowd: EngineCrowd) -> Counts:
    """The sums of the vote shares (the majority-vote posterior), for EM's start."""
    if crowd.held is not None:
        return crowd.held.votes()
    return counts(crowd, votes(crowd), with_ll=False)


def final_units(crowd: EngineCrowd, terms: FloatArray,
                log_prior: FloatArray) -> tuple[list[Any], IntArray, FloatArray]:
    """The per-unit ids, rating counts and posteriors under the last E step's terms."""
    if crowd.held is not None:
        return crowd.held.units(terms, log_prior)
    return unit_table(crowd, posterior(crowd, terms, log_prior))


# --------------------------------------------------------------------- the two queries
def votes(crowd: EngineCrowd) -> Any:
    """Lazy per-unit vote shares (``U``, ``N``, ``p0..``): the majority-vote posterior."""
    import narwhals as nw

    k = crowd.k
    value = nw.col(K) % k
    shares = crowd.ratings.with_columns(
        *((value == c).cast(nw.Float64()).alias(col("v", c)) for c in range(k))
    ).group_by(U).agg(nw.len().alias(N), *(nw.col(col("v", c)).sum() for c in range(k)))
    return shares.select(U, N, *((nw.col(col("v", c)) / nw.col(N)).alias(col("p", c))
                                 for c in range(k)))


def posterior(crowd: EngineCrowd, terms: FloatArray, log_prior: FloatArray) -> Any:
    """Lazy per-unit posteriors and log-likelihoods (``U``, ``N``, ``p0..``, ``LL``).

    ``terms[j, c]`` is ``log P(label | true class c)`` for the ``j``-th key of
    :attr:`EngineCrowd.keys`; each unit sums its ratings' terms, adds the log
    prior and normalises over the ``k`` classes (as ``normalise_log`` in memory).
    """
    import narwhals as nw

    k = crowd.k
    s, e = [col("s", c) for c in range(k)], [col("e", c) for c in range(k)]
    table = push(crowd.ratings, {K: crowd.keys, **{s[c]: terms[:, c] for c in range(k)}})
    per_unit = crowd.ratings.join(table, on=K, how="inner").group_by(U).agg(
        nw.len().alias(N), *(nw.col(x).sum() for x in s))
    logp = per_unit.with_columns(*((nw.col(s[c]) + float(log_prior[c])).alias(s[c])
                                   for c in range(k)))
    top = logp.with_columns(nw.max_horizontal(*s).alias("__accord_top"))
    ex = top.with_columns(*((nw.col(s[c]) - nw.col("__accord_top")).exp().alias(e[c])
                            for c in range(k)))
    total = ex.with_columns(nw.sum_horizontal(*e).alias("__accord_total"))
    return total.select(
        U, N, *((nw.col(e[c]) / nw.col("__accord_total")).alias(col("p", c)) for c in range(k)),
        (nw.col("__accord_total").log() + nw.col("__accord_top")).alias(LL),
    )


@dataclass(frozen=True)
class Counts:
    """What the M step reads, collected from the engine (one row per key)."""

    #: ``mass[key, c]``: the posterior mass of true class ``c`` over that key's ratings
    mass: FloatArray
    #: ``sum_u P(T_u = c)``: the class prior's numerator
    prior_sum: FloatArray
    #: the log-likelihood of the ratings (``nan`` for vote shares)
    log_likelihood: float


def counts(crowd: EngineCrowd, units: Any, *, with_ll: bool = True) -> Counts:
    """Join per-unit posteriors back to the ratings, ``GROUP BY key``, collect.

    Each rating carries ``1 / n_u`` of its unit's posterior and log-likelihood,
    so the sums over keys give the per-unit totals without a second query.
    """
    import narwhals as nw

    k = crowd.k
    p, q = [col("p", c) for c in range(k)], [col("q", c) for c in range(k)]
    shares = [*((nw.col(x) / nw.col(N)).alias(y) for x, y in zip(p, q)),
              *([(nw.col(LL) / nw.col(N)).alias(LL)] if with_ll else [])]
    joined = crowd.ratings.join(units, on=U, how="inner").with_columns(*shares)
    sums = [*p, *q, *([LL] if with_ll else [])]
    df = fr.collect(joined.group_by(K).agg(*(nw.col(x).sum() for x in sums)))
    keys = fr.column(df, K)
    mass = np.zeros((crowd.n_raters * k, k))
    mass[keys] = np.column_stack([floats(df, x) for x in p])
    prior_sum = np.array([floats(df, x).sum() for x in q])
    ll = float(floats(df, LL).sum()) if with_ll else float("nan")
    return Counts(mass, prior_sum, ll)


def unit_table(crowd: EngineCrowd, units: Any) -> tuple[list[Any], IntArray, FloatArray]:
    """Collect the per-unit posteriors, sorted by unit: ids, rating counts, posterior."""
    df = fr.collect(units.sort(U))
    ids = fr.as_source(df.get_column(U), crowd.unit_dtype).to_list()
    post = np.column_stack([floats(df, col("p", c)) for c in range(crowd.k)])
    return ids, fr.column(df, N), post


def floats(df: Any, name: str) -> FloatArray:
    """A float column of a collected frame as a float64 array."""
    return np.asarray(df.get_column(name).to_numpy(), dtype=np.float64)
