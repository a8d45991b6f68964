"""The per-annotator tally of :func:`accord.engines.annotators`, counted in the engine.

The counts are those of :class:`accord.annotators._figures.Tally` (its notation): per
(rater, label) key ``rater * k + v``, ``C[r, t, v]`` the ratings giving ``v`` on a
unit whose truth is ``t``, ``L`` the same against the consensus label, ``V[r, v, c]``
the votes for ``c`` on those units (the rater's own included) and ``O[r, v]`` the sum
of ``n_u - 1`` over them; for one-coin and MACE against the consensus also ``S[r, v,
c]``, the posterior mass of class ``c`` on those units (units whose top posterior is
tied left out). One query: each unit's votes ``x[u, c]`` and ``n_u`` (a ``GROUP BY
unit`` over the ratings), its consensus label and truth (from the fit's per-unit
posteriors, or the gold column) are joined back to the ratings, turned into one-hot
columns and summed per key (``GROUP BY key``). Only that ``n_keys x (3k + 1)`` table
(``4k + 1`` with ``S``) is collected. Every entry but ``S`` is a whole number summed
in float64, so it equals the in-memory tally to the bit.

A unit's consensus label is its posterior's first top column; where two or more
columns share the top the unit is tied and has no truth (``-1``), as in memory
(``_consensus_truth``). Dask and Spark compute the label from the same held copy of
the posteriors the consensus is collected from (:func:`accord.engines._crowd.keep`);
DuckDB and polars run the posteriors' query again, the same sums per unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from accord.engines import _frame as fr
from accord.engines._crowd import EngineCrowd, FloatArray, K, col, floats, push
from accord.errors import DataError

#: Engine-internal columns: a unit's truth, consensus label, ratings, top posterior;
#: a gold label's code.
T, L, NU, TOP, CODE = ("__accord_truth", "__accord_label", "__accord_nu", "__accord_top",
                       "__accord_code")


def labels(units: Any, k: int, *, soft: bool) -> Any:
    """Lazy ``(U, L, T[, p0..])``: each unit's first top class and its truth (``-1`` when
    the top is tied), from the lazy posteriors ``(U, N, p0..)``."""
    import narwhals as nw

    p, t = [col("p", c) for c in range(k)], [col("t", c) for c in range(k)]
    top = units.with_columns(nw.max_horizontal(*p).alias(TOP))
    flags = top.with_columns(*((nw.col(p[c]) == nw.col(TOP)).cast(nw.Int64()).alias(t[c])
                               for c in range(k)))
    # arithmetic, not when/then: Dask's when cannot take a condition built from the columns
    first = nw.min_horizontal(*(nw.col(t[c]) * c + (1 - nw.col(t[c])) * k for c in range(k)))
    single = (nw.sum_horizontal(*t) == 1).cast(nw.Int64())
    return flags.select(fr.U, first.alias(L), (single * (first + 1) - 1).alias(T),
                        *(p if soft else []))


def votes(crowd: EngineCrowd) -> Any:
    """Lazy ``(U, NU, x0..)``: each unit's number of ratings and its votes per class."""
    import narwhals as nw

    k = crowd.k
    x = [col("x", c) for c in range(k)]
    return crowd.ratings.with_columns(
        *(((nw.col(K) % k) == c).cast(nw.Float64()).alias(x[c]) for c in range(k))
    ).group_by(fr.U).agg(nw.len().alias(NU), *(nw.col(x[c]).sum() for c in range(k)))


def tally(crowd: EngineCrowd, unit_labels: Any, gold: Any | None, *, soft: bool
          ) -> tuple[FloatArray, FloatArray | None]:
    """The tally's ``(n_raters * k, 3k + 1)`` table (rows = keys; columns ``C``, ``L``,
    ``V``, ``O`` as :class:`~accord.annotators._figures.Tally` reads them) and, with
    ``soft``, ``S`` (rows = keys, columns = classes)."""
    import narwhals as nw

    k = crowd.k
    a, b, x, s = ([col(n, c) for c in range(k)] for n in ("a", "b", "x", "s"))
    joined = crowd.ratings.join(votes(crowd), on=fr.U, how="inner")
    if gold is None:
        joined = joined.join(unit_labels, on=fr.U, how="inner")
        truth = nw.col(T)
    else:
        joined = joined.join(unit_labels.drop(T), on=fr.U, how="inner").join(
            gold, on=fr.U, how="left")
        truth = nw.col(T).fill_null(-1)
    known = (truth >= 0).cast(nw.Float64())
    feats = joined.with_columns(
        *((truth == c).cast(nw.Float64()).alias(a[c]) for c in range(k)),
        *((nw.col(L) == c).cast(nw.Float64()).alias(b[c]) for c in range(k)),
        (nw.col(NU) - 1).cast(nw.Float64()).alias(NU),
        *((nw.col(col("p", c)) * known).alias(s[c]) for c in range(k) if soft),
    )
    sums = [*a, *b, *x, NU, *(s if soft else [])]
    df = fr.collect(feats.group_by(K).agg(*(nw.col(c).sum() for c in sums)))
    keys = fr.column(df, K)
    out = np.zeros((crowd.n_raters * k, 3 * k + 1))
    out[keys] = np.column_stack([floats(df, c) for c in (*a, *b, *x, NU)])
    if not soft:
        return out, None
    mass = np.zeros((crowd.n_raters * k, k))
    mass[keys] = np.column_stack([floats(df, c) for c in s])
    return out, mass


def gold_table(frame: Any, names: tuple[str, str, str], extra: Sequence[Any],
               categories: Sequence[Any], like: Any, *, func: str) -> Any:
    """Lazy ``(U, T)``: each unit's gold label as a category code, from the column
    ``names[2]`` (missing values: no gold for the row). One sentence when a unit has two
    gold labels or a gold label is not a category; collects the distinct gold labels."""
    import narwhals as nw

    base, kinds = fr.long_columns(fr.lazy_frame(frame, func=func), names, func=func)
    given = ~(fr.missing(fr.V, kinds[2], extra) | fr.missing_id(fr.U, kinds[0]))
    per_unit = base.filter(given).group_by(fr.U).agg(nw.col(fr.V).min().alias("lo"),
                                                     nw.col(fr.V).max().alias("hi"))
    clashes = per_unit.filter(fr.clash())
    n = int(fr.column(fr.collect(clashes.select(nw.len().alias("n"))), "n")[0])
    if n:
        head = fr.collect(clashes.sort(fr.U).head(3)).get_column(fr.U).to_list()
        raise DataError(f"{func}: the gold column {names[2]!r} gives {n} unit(s) two "
                        f"different labels (unit(s) {', '.join(repr(u) for u in head)}); "
                        "a unit has one reference label.")
    found = fr.distinct_labels(fr.collect(per_unit.select("lo").unique()), "lo", kinds[2])
    if not found:
        raise DataError(f"{func}: the gold column {names[2]!r} labels none of the "
                        "annotators' units.")
    index = {c: i for i, c in enumerate(categories)}
    unknown = sorted({str(x) for x in found if x not in index})
    if unknown:
        raise DataError(f"{func}: the gold column {names[2]!r} uses label(s) "
                        f"{unknown[:5]!r} that no annotator used; the annotators' labels "
                        f"are {list(categories)[:10]!r}.")
    table = push(like, {"lo": found, CODE: [index[x] for x in found]}, {"lo": kinds[2]})
    return per_unit.join(table, on="lo", how="inner").select(fr.U, nw.col(CODE).alias(T))
