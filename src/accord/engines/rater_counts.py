"""Rater counts (units x categories) as GROUP BY aggregations on any dataframe engine.

Long data: ``GROUP BY unit, rater`` (one value per pair; two different values
are a duplicate rating), then ``GROUP BY unit, value`` and count. Wide data
without unit ids: ``GROUP BY`` the rater columns, so only the distinct rating
patterns and their multiplicities are collected. Notation as in
:mod:`accord.tables.rater_counts` (Fleiss 1971; Gwet 2014, ch. 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.data.annotations import Audit
from accord.data.weights import numeric_labels
from accord.engines import _frame as fr
from accord.engines._frame import IntArray, R, U, V
from accord.engines._result import EngineResult
from accord.errors import InsufficientDataError
from accord.tables.rater_counts import RaterCounts

__all__ = ["rater_counts"]

_FUNC = "accord.engines.rater_counts"


def rater_counts(
    frame: Any,
    *,
    unit: str | None = None,
    rater: str | None = None,
    value: str | None = None,
    raters: Sequence[str] | None = None,
    categories: Sequence[Any] | None = None,
    missing: Sequence[Any] = (),
    by_unit: bool = True,
) -> EngineResult[RaterCounts]:
    """Count how many raters put each unit in each category, inside the engine.

    Parameters
    ----------
    frame : dataframe
        Any frame narwhals reads, eager or lazy: polars ``DataFrame`` or
        ``LazyFrame`` (collected on the streaming engine), pandas, pyarrow,
        DuckDB relations, Dask, PySpark.
    unit, rater, value : str, optional
        Long data: the columns of the unit id, rater id and label (all three).
    raters : sequence of str, optional
        Wide data: the rater columns (other columns are ignored). With ``unit=``
        the rows are identified by that column (and checked for duplicates);
        without it, rows are anonymous units and only the distinct rating
        patterns are collected.
    categories : sequence, optional
        The category order (unused categories kept); other labels raise.
        Default: sorted observed labels, as :meth:`accord.Annotations.from_long`.
    missing : sequence, optional
        Extra missing-value markers. Null, NaN, blank text and the markers of
        :func:`accord.read` (``"NA"``, ``"N/A"``, ``"null"``, ``"."``, ...) always are.
    by_unit : bool, default True
        Long data (or wide with ``unit=``): collect one row of counts per unit,
        with its id. ``False`` collects only the distinct per-unit count
        patterns and how many units show each (``GROUP BY unit``, then
        ``GROUP BY`` the counts): a few hundred rows however many units, and
        still everything the estimate, the analytic SE, the jackknife and the
        bootstrap need (they resample patterns); the units' ids are not kept.

    Returns
    -------
    EngineResult
        ``statistic``: a :class:`~accord.RaterCounts` (long data: rows in
        sorted unit order, ``unit_ids`` set; wide data without ``unit=`` or
        ``by_unit=False``: one row per rated unit, in pattern order, ``unit_ids``
        unset). ``audit``: rows
        (cells of a wide table) read, ratings used, and dropped: ``"missing
        value"``, ``"missing unit or rater id"``, ``"identical repeated rating"``.

    Raises
    ------
    DuplicateRatingError
        A rater gave one unit two different values. There is no
        ``duplicates="last"``: an engine's rows have no order.
    InsufficientDataError
        No unit has two ratings.

    Notes
    -----
    Only the aggregate is collected (n_units x categories cells at most, far
    fewer for wide data). Labels keep the frame's dtype (a text column of
    digits stays text). Wide data with ``unit=`` is unpivoted, so its rater
    columns share one dtype, as in :func:`accord.read`: integers, else
    numbers, else text.

    Examples
    --------
    The first three patients of Fleiss (1971, Table 1), read long:

    >>> import polars as pl
    >>> from accord.engines import rater_counts
    >>> rows = [(1, r, 4) for r in range(6)] + [(2, r, 2 if r < 3 else 5) for r in range(6)]
    >>> rows += [(3, r, [2, 3, 3, 3, 3, 5][r]) for r in range(6)]
    >>> lf = pl.LazyFrame(rows, schema=["patient", "psychiatrist", "diagnosis"], orient="row")
    >>> rc, audit = rater_counts(lf, unit="patient", rater="psychiatrist", value="diagnosis",
    ...                          categories=[1, 2, 3, 4, 5])
    >>> rc.counts.tolist()
    [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1]]
    >>> audit.rows_read, audit.ratings_used
    (18, 18)
    """
    lf = fr.lazy_frame(frame, func=_FUNC)
    categories, missing = fr.names(categories, missing, func=_FUNC)
    if _is_long(unit, rater, value, raters):
        base, kinds = fr.long_columns(lf, (str(unit), str(rater), str(value)), func=_FUNC)
        return _long(base, kinds, categories, missing, by_unit, source="rater_counts (long)")
    names = _rater_columns(raters, unit)
    dtypes = fr.schema_of(lf, [*names, *([unit] if unit is not None else [])], func=_FUNC)
    if unit is not None:
        common = fr.common_dtype([dtypes[c] for c in names])
        udt = fr.label_dtype(dtypes[unit])
        base = lf.select(
            fr.as_label(unit, dtypes[unit], udt).alias(U),
            *(fr.as_label(c, dtypes[c], common).alias(c) for c in names),
        ).unpivot(on=names, index=[U], variable_name=R, value_name=V)
        return _long(base, (udt, _text(), common), categories, missing, by_unit,
                     source="rater_counts (wide)")
    return _patterns(lf, names, dtypes, categories, missing)


def _is_long(unit: Any, rater: Any, value: Any, raters: Any) -> bool:
    if rater is None and value is None:
        if raters is None:
            raise v.fail(
                "raters", _FUNC,
                "a list of rater columns (wide data), or give unit=, rater= and value= (long data)",
                None,
            )
        return False
    if raters is not None:
        raise v.fail("raters", _FUNC, "None when rater= and value= name long data", raters)
    for name, given in (("unit", unit), ("rater", rater), ("value", value)):
        if not isinstance(given, str):
            raise v.fail(name, _FUNC, "a column name (long data needs unit=, rater= and value=)",
                         given)
    if len({unit, rater, value}) < 3:
        raise v.fail("value", _FUNC, "a column other than unit= and rater=", value)
    return True


def _rater_columns(raters: Any, unit: Any) -> list[str]:
    names = v.names(raters, param="raters", func=_FUNC)
    if not all(isinstance(c, str) for c in names):
        raise v.fail("raters", _FUNC, "a list of column names", raters)
    if len(set(names)) != len(names) or unit in names:
        raise v.fail("raters", _FUNC, "distinct columns other than unit=", raters)
    if len(names) < 2:
        raise InsufficientDataError(
            f"agreement needs at least two raters; found {len(names)} ({names!r})."
        )
    return names


def _text() -> Any:
    import narwhals as nw

    return nw.String()


# --------------------------------------------------------------------- long data
def _long(
    base: Any,
    kinds: tuple[Any, Any, Any],
    categories: Sequence[Any] | None,
    extra: Sequence[Any],
    by_unit: bool,
    *,
    source: str,
) -> EngineResult[RaterCounts]:
    """GROUP BY value (labels and audit), GROUP BY unit (repeat check), GROUP BY unit, value.

    Each unit's rows are compared with its distinct raters. When no rater rated
    a unit twice (the usual case) the counts are one ``GROUP BY unit, value``;
    otherwise ``GROUP BY unit, rater`` collapses identical repeats and finds
    different values (a duplicate rating).
    """
    import narwhals as nw

    udt, rdt, vdt = kinds
    mv = fr.missing(V, vdt, extra)
    mi = ~mv & (fr.missing_id(U, udt) | fr.missing_id(R, rdt))
    summary = fr.collect(
        base.with_columns(mv.cast(nw.Int64()).alias("mv"), mi.cast(nw.Int64()).alias("mi"))
        .group_by(V, "mv", "mi", drop_null_keys=False)
        .agg(nw.len().alias("rows"))
    )
    rows = int(fr.column(summary, "rows").sum())
    n_mv, n_mi = (int(fr.column(summary, c) @ fr.column(summary, "rows")) for c in ("mv", "mi"))
    used = summary.filter((nw.col("mv") == 0) & (nw.col("mi") == 0))
    labels = fr.distinct_labels(used, V, vdt)
    fr.categories_of([labels], categories)  # unknown labels raise here
    cells = _cells(base.filter(~(mv | mi)))
    if by_unit:
        rc = _matrix(fr.collect(cells), udt, vdt, categories)
    else:
        rc = _unit_patterns(cells, labels, categories)
    n_used = int(rc.counts.sum())
    dropped = {
        "missing value": n_mv,
        "missing unit or rater id": n_mi,
        "identical repeated rating": rows - n_mv - n_mi - n_used,
    }
    audit = Audit(source, rows, n_used, {r: x for r, x in dropped.items() if x})
    return EngineResult(rc, audit)


def _cells(valid: Any) -> Any:
    """Lazy (unit, value, n): GROUP BY unit, value (GROUP BY unit, rater first on repeats).

    Raises :class:`~accord.errors.DuplicateRatingError` when a rater gave a
    unit two different values.
    """
    import narwhals as nw

    repeated = valid.group_by(U).agg(nw.len().alias("rows"), nw.col(R).n_unique().alias("d"))
    n_repeated = fr.collect(repeated.filter(nw.col("rows") > nw.col("d")).select(nw.len()))
    if not int(fr.column(n_repeated, "len")[0]):
        return valid.group_by(U, V).agg(nw.len().alias("n")).rename({V: "lo"})
    pairs = valid.group_by(U, R).agg(
        nw.col(V).min().alias("lo"), nw.col(V).max().alias("hi")
    ).with_columns(fr.clash().cast(nw.Int64()).alias("clash"))
    clashes = fr.collect(pairs.select(nw.col("clash").sum()))
    if int(fr.column(clashes, "clash")[0]):
        raise fr.duplicate_error(pairs.filter(nw.col("clash") == 1), func=_FUNC)
    return pairs.group_by(U, "lo").agg(nw.len().alias("n"))


def _unit_patterns(
    cells: Any, labels: list[Any], categories: Sequence[Any] | None
) -> RaterCounts:
    """GROUP BY unit (one count column per label), then GROUP BY the counts.

    Only the distinct patterns and their multiplicities are collected; the
    rows are expanded here, in sorted pattern order (engines return groups in
    no fixed order).
    """
    import narwhals as nw

    cats, (lut,) = fr.categories_of([labels], categories)
    if not labels:
        return _checked(np.zeros((0, len(cats)), dtype=np.int64), cats, categories is not None)
    names = [f"__accord_c{i}" for i in range(len(labels))]
    lo = nw.col("lo")
    per_unit = cells.with_columns(
        *(nw.when(lo == x).then(nw.col("n")).otherwise(0).alias(c) for x, c in zip(labels, names))
    ).group_by(U).agg(*(nw.col(c).sum() for c in names))
    patterns = fr.collect(per_unit.group_by(*names).agg(nw.len().alias("m")))
    local = np.column_stack([fr.column(patterns, c) for c in names])
    rows = np.zeros((local.shape[0], len(cats)), dtype=np.int64)
    rows[:, lut] = local
    order = np.lexsort(rows.T[::-1])
    mult = fr.column(patterns, "m")[order]
    return _checked(np.repeat(rows[order], mult, axis=0), cats, categories is not None)


def _matrix(cells: Any, udt: Any, vdt: Any, categories: Sequence[Any] | None) -> RaterCounts:
    """The units x categories counts of collected (unit, value, n) rows."""
    cells = cells.sort(U)
    n = fr.column(cells, "n")
    u_codes, units = fr.run_codes(cells, U, udt)
    v_local, labels = fr.few_codes(cells, "lo", vdt)
    cats, (lut,) = fr.categories_of([labels], categories)
    k = len(cats)
    flat = np.bincount(u_codes * k + lut[v_local], weights=n, minlength=len(units) * k)
    rc = _checked(flat.reshape(len(units), k), cats, categories is not None)
    rc.unit_ids = tuple(units)
    return rc


def _checked(counts: Any, cats: Sequence[Any], declared: bool) -> RaterCounts:
    arr = np.asarray(counts, dtype=np.int64)
    if arr.size == 0 or int(arr.sum(axis=1).max()) < 2:
        raise InsufficientDataError(
            "no unit was rated by two or more raters, so there is nothing to compare."
        )
    rc = RaterCounts(arr, categories=cats)
    rc.ordered = declared or numeric_labels(cats)  # as the in-memory counts
    return rc


# --------------------------------------------------------------------- wide data
def _patterns(
    lf: Any,
    names: list[str],
    dtypes: dict[str, Any],
    categories: Sequence[Any] | None,
    extra: Sequence[Any],
) -> EngineResult[RaterCounts]:
    """GROUP BY the rater columns: the distinct rating patterns and how often each occurs."""
    import narwhals as nw

    cleaned, kinds = fr.wide_values(lf, names, dtypes, extra)
    patterns = fr.collect(cleaned.group_by(*names, drop_null_keys=False).agg(nw.len().alias("n")))
    coded = [fr.local_codes(patterns, c, kinds[c]) for c in names]
    cats, luts = fr.categories_of([labels for _, labels in coded], categories)
    codes = np.column_stack([fr.recode(local, lut) for (local, _), lut in zip(coded, luts)])
    mult = fr.column(patterns, "n")
    per_pattern = _count_rows(codes, len(cats))
    rated = per_pattern.sum(axis=1)
    keep = rated > 0
    rc = _checked(np.repeat(per_pattern[keep], mult[keep], axis=0), cats,
                  categories is not None)
    cells = int(mult.sum()) * len(names)
    used = int((rated * mult).sum())
    dropped = {"missing value": cells - used} if cells > used else {}
    return EngineResult(rc, Audit("rater_counts (wide)", cells, used, dropped))


def _count_rows(codes: IntArray, k: int) -> IntArray:
    """Per row of a code matrix (``-1`` = not rated), the count of each category."""
    rows, cols = np.nonzero(codes >= 0)
    if k == 0:
        return np.zeros((codes.shape[0], 0), dtype=np.int64)
    flat = np.bincount(rows * k + codes[rows, cols], minlength=codes.shape[0] * k)
    return flat.reshape(codes.shape[0], k).astype(np.int64)
