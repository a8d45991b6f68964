"""The two-rater contingency table as GROUP BY aggregations on any dataframe engine.

Wide data: ``GROUP BY a, b`` over the two rater columns (rows with a missing
value in either are counted, then left out). Long data: a conditional
aggregation pivots each unit's two ratings into one row (``GROUP BY unit``
keeping each rater's smallest and largest label: if they differ, the rater
gave the unit two values), and ``GROUP BY`` the pair counts the table; one
more pass counts the rows dropped. Either way only the k x k table (plus one
row and column of units one rater left unrated) is collected. Notation as in
:mod:`accord.tables.contingency` (Fleiss, Levin & Paik 2003, ch. 18).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import sparse

from accord.data import _validation as v
from accord.data.annotations import Audit
from accord.data.weights import numeric_labels
from accord.engines import _frame as fr
from accord.engines._frame import IntArray, R, U, V
from accord.engines._result import EngineResult
from accord.errors import DataError
from accord.tables.contingency import DENSE_LIMIT, ContingencyTable

__all__ = ["contingency_table"]

_FUNC = "accord.engines.contingency_table"
_X, _Y = "__accord_x", "__accord_y"


def contingency_table(
    frame: Any,
    *,
    raters: Sequence[Any],
    unit: str | None = None,
    rater: str | None = None,
    value: str | None = None,
    categories: Sequence[Any] | None = None,
    missing: Sequence[Any] = (),
) -> EngineResult[ContingencyTable]:
    """Count two raters' pairs of labels inside the engine.

    Parameters
    ----------
    frame : dataframe
        Any frame narwhals reads, eager or lazy (see :func:`rater_counts`).
    raters : pair
        Wide data: the two rater columns. Long data: the two rater ids in the
        ``rater`` column. The first is the table's rows.
    unit, rater, value : str, optional
        Long data: the columns of the unit id, rater id and label (all three).
    categories : sequence, optional
        The category order (unused categories kept; weights use these
        positions); other labels raise. Default: the sorted labels the two
        raters used, on any unit (other raters' labels are not looked at, so
        declare the scale for weighted coefficients when a point may be unused).
    missing : sequence, optional
        Extra missing-value markers, added to those of :func:`accord.read`.

    Returns
    -------
    EngineResult
        ``statistic``: a :class:`~accord.ContingencyTable` (sparse beyond
        2,000 categories). ``audit``: wide data counts rows, one per unit
        (``ratings_used`` = units in the table; dropped: ``"missing value in
        either column"``); long data counts rows, one per rating (dropped:
        ``"missing value"``, ``"missing unit or rater id"``, ``"another
        rater"``, ``"identical repeated rating"``, ``"unit not rated by both
        raters"``; each row under the first reason that applies).

    Raises
    ------
    DuplicateRatingError
        Long data: a rater gave one unit two different values.
    DataError
        No unit was rated by both raters, or a rater id is absent.

    Examples
    --------
    The 200 subjects of Cohen (1960, p. 45), one row per subject:

    >>> import polars as pl
    >>> from accord.engines import contingency_table
    >>> cells = [(1, 1, 88), (1, 2, 14), (1, 3, 18), (2, 1, 10), (2, 2, 40), (2, 3, 10),
    ...          (3, 1, 2), (3, 2, 6), (3, 3, 12)]
    >>> a = [i for i, _, n in cells for _ in range(n)]
    >>> b = [j for _, j, n in cells for _ in range(n)]
    >>> table, audit = contingency_table(pl.LazyFrame({"A": a, "B": b}), raters=("A", "B"))
    >>> round(table.p_o, 4), round(table.p_e, 4)
    (0.7, 0.41)
    >>> audit.rows_read, audit.ratings_used
    (200, 200)
    """
    pair = _pair(raters)
    lf = fr.lazy_frame(frame, func=_FUNC)
    categories, missing = fr.names(categories, missing, func=_FUNC)
    if rater is None and value is None and unit is None:
        return _wide(lf, pair, categories, missing)
    names = []
    for name, given in (("unit", unit), ("rater", rater), ("value", value)):
        if not isinstance(given, str):
            raise v.fail(name, _FUNC, "a column name (long data needs unit=, rater= and value=)",
                         given)
        names.append(given)
    if len(set(names)) < 3:
        raise v.fail("value", _FUNC, "a column other than unit= and rater=", value)
    base, kinds = fr.long_columns(lf, (names[0], names[1], names[2]), func=_FUNC)
    _check_ids(pair, kinds[1], names[1])
    return _long(base, kinds, pair, categories, missing, names[1])


def _pair(raters: Any) -> tuple[Any, Any]:
    if isinstance(raters, (str, bytes)) or not isinstance(raters, Sequence) or len(raters) != 2:
        raise v.fail("raters", _FUNC, "a pair of raters (two column names, or two rater ids)",
                     raters)
    a, b = raters
    if a == b:
        raise v.fail("raters", _FUNC, "two different raters", raters)
    return a, b


def _check_ids(pair: tuple[Any, Any], dtype: Any, column: str) -> None:
    """Rater ids of another type than the rater column would fail inside the engine."""
    import narwhals as nw

    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in pair)
    text = all(isinstance(x, str) for x in pair)
    if (dtype.is_numeric() and not numeric) or (dtype == nw.String and not text):
        raise v.fail("raters", _FUNC, f"two ids of the {column!r} column's type ({dtype})",
                     list(pair))


def _table(a: IntArray, b: IntArray, n: IntArray, cats: list[Any],
           declared: bool) -> ContingencyTable:
    k = len(cats)
    if k <= DENSE_LIMIT:
        flat = np.bincount(a * k + b, weights=n, minlength=k * k)
        table = ContingencyTable(flat.reshape(k, k), cats)
    else:
        counts = sparse.coo_array((n.astype(np.float64), (a, b)), shape=(k, k)).tocsr()
        table = ContingencyTable(counts, cats)
    table.ordered = declared or numeric_labels(cats)  # as the in-memory table
    return table


def _no_pair(pair: tuple[Any, Any]) -> DataError:
    return DataError(f"no unit was rated by both {pair[0]!r} and {pair[1]!r}.")


# --------------------------------------------------------------------- wide data
def _wide(
    lf: Any, pair: tuple[Any, Any], categories: Sequence[Any] | None, extra: Sequence[Any]
) -> EngineResult[ContingencyTable]:
    import narwhals as nw

    if not all(isinstance(c, str) for c in pair):
        raise v.fail("raters", _FUNC, "two column names (wide data)", list(pair))
    names = [str(pair[0]), str(pair[1])]
    dtypes = fr.schema_of(lf, names, func=_FUNC)
    cleaned, kinds = fr.wide_values(lf, names, dtypes, extra)
    cells = fr.collect(cleaned.group_by(*names, drop_null_keys=False).agg(nw.len().alias("n")))
    (la, labels_a), (lb, labels_b) = (fr.local_codes(cells, c, kinds[c]) for c in names)
    cats, (lut_a, lut_b) = fr.categories_of([labels_a, labels_b], categories)
    a, b, n = fr.recode(la, lut_a), fr.recode(lb, lut_b), fr.column(cells, "n")
    both = (a >= 0) & (b >= 0)
    pairs, rows = int(n[both].sum()), int(n.sum())
    if pairs == 0:
        raise _no_pair(pair)
    dropped = {"missing value in either column": rows - pairs} if rows > pairs else {}
    audit = Audit("contingency_table (wide)", rows, pairs, dropped)
    return EngineResult(_table(a[both], b[both], n[both], cats, categories is not None), audit)


# --------------------------------------------------------------------- long data
def _long(
    base: Any,
    kinds: tuple[Any, Any, Any],
    pair: tuple[Any, Any],
    categories: Sequence[Any] | None,
    extra: Sequence[Any],
    column: str,
) -> EngineResult[ContingencyTable]:
    import narwhals as nw

    mv, mi, ours = _flags(kinds, pair, extra)
    totals = fr.collect(
        base.select(
            nw.len().alias("rows"),
            mv.cast(nw.Int64()).sum().alias("mv"),
            mi.cast(nw.Int64()).sum().alias("mi"),
            (~mv & ~mi & ~ours).cast(nw.Int64()).sum().alias("other"),
        )
    )
    valid = base.filter(~mv & ~mi & ours)
    cells = fr.collect(_pivot(valid, pair))
    if int(fr.column(cells, "clash").sum()):
        raise fr.duplicate_error(_clashes(valid), func=_FUNC)
    (lx, labels_x), (ly, labels_y) = (fr.local_codes(cells, c, kinds[2]) for c in (_X, _Y))
    cats, (lut_x, lut_y) = fr.categories_of([labels_x, labels_y], categories)
    a, b, n = fr.recode(lx, lut_x), fr.recode(ly, lut_y), fr.column(cells, "n")
    both = (a >= 0) & (b >= 0)
    pairs = int(n[both].sum())
    if pairs == 0:
        raise _absent(base, pair, column) or _no_pair(pair)
    sums = {c: int(fr.column(totals, c)[0]) for c in ("rows", "mv", "mi", "other")}
    rated = int((n * ((a >= 0).astype(np.int64) + (b >= 0))).sum())
    dropped = {
        "missing value": sums["mv"],
        "missing unit or rater id": sums["mi"],
        "another rater": sums["other"],
        "identical repeated rating": int(fr.column(cells, "rows").sum()) - rated,
        "unit not rated by both raters": rated - 2 * pairs,
    }
    audit = Audit("contingency_table (long)", sums["rows"], 2 * pairs,
                  {r: x for r, x in dropped.items() if x})
    return EngineResult(_table(a[both], b[both], n[both], cats, categories is not None), audit)


def _flags(kinds: tuple[Any, Any, Any], pair: tuple[Any, Any], extra: Sequence[Any]) -> Any:
    """Missing value; missing id (value present); rater is one of the pair."""
    import narwhals as nw

    mv = fr.missing(V, kinds[2], extra)
    mi = ~mv & (fr.missing_id(U, kinds[0]) | fr.missing_id(R, kinds[1]))
    return mv, mi, nw.col(R).is_in(list(pair)).fill_null(False)


def _pivot(valid: Any, pair: tuple[Any, Any]) -> Any:
    """GROUP BY unit with each rater's smallest and largest value; GROUP BY the pair.

    A rater whose smallest and largest values on a unit differ gave it two
    values (a clash); otherwise the smallest is the rating.
    """
    import narwhals as nw

    x = nw.when(nw.col(R) == pair[0]).then(nw.col(V))
    y = nw.when(nw.col(R) == pair[1]).then(nw.col(V))
    per_unit = valid.with_columns(x.alias(_X), y.alias(_Y)).group_by(U).agg(
        nw.col(_X).min(),
        nw.col(_X).max().alias("x_hi"),
        nw.col(_Y).min(),
        nw.col(_Y).max().alias("y_hi"),
        nw.len().alias("rows"),
    ).with_columns(
        (fr.clash(_X, "x_hi") | fr.clash(_Y, "y_hi")).cast(nw.Int64()).alias("clash")
    )
    return per_unit.group_by(_X, _Y, drop_null_keys=False).agg(
        nw.len().alias("n"), nw.col("clash").sum(), nw.col("rows").sum()
    )


def _clashes(valid: Any) -> Any:
    import narwhals as nw

    return valid.group_by(U, R).agg(
        nw.col(V).min().alias("lo"), nw.col(V).max().alias("hi")
    ).filter(fr.clash())


def _absent(base: Any, pair: tuple[Any, Any], column: str) -> DataError | None:
    import narwhals as nw

    seen = fr.collect(base.filter(nw.col(R).is_in(list(pair))).select(R).unique())
    found = set(seen.get_column(R).to_list())
    absent = [r for r in pair if r not in found]
    if not absent:
        return None
    return DataError(f"rater(s) {absent!r} not found in the {column!r} column.")
