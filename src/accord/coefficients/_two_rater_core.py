"""Shared machinery of the two-rater coefficients: cells, chance, SEs, resampling.

Notation and variance formulas as in :mod:`accord.coefficients.two_raters`
(Gwet 2014, ch. 2-3; Fleiss, Cohen & Everitt 1969).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._chance import Chance, chance_corrected, p_e
from accord.data import _validation as v
from accord.data.weights import agreement_weights, is_identity, require_order
from accord.inference.resampling import Resampling
from accord.inference.results import AgreementResult
from accord.tables.contingency import DENSE_LIMIT, ContingencyTable

Arr = NDArray[np.float64]


@dataclass(frozen=True)
class _Cells:
    """The non-empty cells of a table as proportions, with their weights."""

    i: NDArray[np.int64]
    j: NDArray[np.int64]
    p: Arr
    w: Arr
    r: Arr
    c: Arr
    n: float


def _cells(table: ContingencyTable, w: Arr | None) -> _Cells:
    n = table.n
    if table.is_sparse:
        coo = table._sparse.tocoo()  # noqa: SLF001
        i, j, counts = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data
    else:
        i, j = np.nonzero(table.counts)
        counts = table.counts[i, j]
    keep = counts > 0
    i, j, counts = i[keep], j[keep], counts[keep]
    wij = (i == j).astype(np.float64) if w is None else w[i, j]
    return _Cells(i, j, counts / n, wij, table.row_totals / n, table.col_totals / n, n)


def _weights(weights: Any, table: ContingencyTable, func: str) -> Arr | None:
    """The weight matrix, or None for unweighted agreement (sparse-friendly)."""
    if weights is None or (isinstance(weights, str) and weights == "identity"):
        return None
    require_order(weights, table.categories, table.ordered, func)
    if table.k > DENSE_LIMIT:
        raise v.fail(
            "weights", func, f"None for a table with more than {DENSE_LIMIT} categories", weights
        )
    w = agreement_weights(weights, table.k, func=func)
    return None if is_identity(w) else w


def _empty_reason(table: ContingencyTable) -> str | None:
    return "the table is empty (no unit was rated by both raters)" if table.n <= 0 else None


# --------------------------------------------------------------------------- core
def _coefficient(
    name: str,
    table: ContingencyTable,
    w: Arr | None,
    chance: Chance,
    *,
    bounds: tuple[float, float] = (-1.0, 1.0),
) -> tuple[float, float, float, _Cells | None, str | None]:
    """Estimate, p_o, p_e, the cells and the undefined reason."""
    reason = _empty_reason(table)
    if reason:
        return math.nan, math.nan, math.nan, None, reason
    cells = _cells(table, w)
    po = float(np.sum(cells.w * cells.p))
    pe = float(p_e(chance, cells.r[None, :], cells.c[None, :], w)[0])
    if chance == "none":
        return po, po, math.nan, cells, None
    est = float(chance_corrected(np.array([po]), np.array([pe]))[0])
    if math.isnan(est):
        reason = _pe_one_reason(table, chance)
    return est, po, pe, cells, reason


def _pe_one_reason(table: ContingencyTable, chance: Chance) -> str:
    used = int(np.count_nonzero(table.row_totals + table.col_totals))
    if chance == "gwet" and table.k < 2:
        return (
            "Gwet's chance agreement needs at least two categories and the data have one; "
            "declare the scale with categories=[...] to include unused categories"
        )
    if used <= 1:
        return (
            "both raters used a single category throughout, so chance agreement p_e = 1 "
            "and the coefficient is 0/0"
        )
    return "chance agreement p_e = 1, so the coefficient is 0/0"


def _result(
    name: str,
    table: ContingencyTable,
    w: Arr | None,
    chance: Chance,
    se: float,
    details: dict[str, Any],
    *,
    bounds: tuple[float, float] = (-1.0, 1.0),
    estimate: float | None = None,
    reason: str | None = None,
) -> AgreementResult:
    est0, po, pe, _, why = _coefficient(name, table, w, chance, bounds=bounds)
    est = est0 if estimate is None else estimate
    why = why or reason
    if why:
        v.warn_undefined(name, why)
        est, se = math.nan, math.nan
    if w is not None and not np.allclose(w, w.T):
        details = {**details, "weights_symmetric": False}
    if table.unit_weights is None and not _whole(table):
        # proportions: n is unknown, and an SE computed with their sum as n means nothing
        se = math.nan
        details = {**details, **{key: math.nan for key in ("se0", "z", "pvalue") if key in details},
                   "se_note": "the table holds proportions or fractional counts, so the number "
                   "of units is unknown and there is no SE; give the counts"}
    return AgreementResult(
        coefficient=name,
        estimate=est,
        observed=po,
        expected=pe,
        se=se,
        n_units=int(round(table.n)) if table.unit_weights is None else int(table.n),
        n_raters=2,
        undefined_reason=why,
        details=details,
        bounds=bounds,
        resampling=_resampler(table, w, chance, name),
    )


def _whole(table: ContingencyTable) -> bool:
    """Whether the table holds whole-number counts (not proportions)."""
    if table.is_sparse:
        data = table._sparse.data
        return bool(np.array_equal(data, np.rint(data)))
    return bool(np.array_equal(table.counts, np.rint(table.counts)))


def _resampler(table: ContingencyTable, w: Arr | None, chance: Chance, name: str) -> Any:
    if table.k > DENSE_LIMIT or table.n <= 0:
        return None
    if not _whole(table):
        return None  # proportions, fractional counts or weights: there are no units to resample

    def make() -> Resampling:
        return table_resampling(table, w, chance, name)

    return make


def table_resampling(
    table: ContingencyTable, w: Arr | None, chance: Chance | str, name: str = ""
) -> Resampling:
    """Resampling over units for a two-rater coefficient (patterns = table cells).

    Whole-number sample weights are frequencies, as in the analytic SE: a unit of
    weight w is w units, so the resampling runs on the weighted table and has no
    unit-by-unit patterns (it cannot be paired in :func:`accord.compare`).
    """
    k = table.k
    counts = table.counts
    weighted = table.unit_weights is not None
    cells = None if weighted else table.unit_cells
    flat = np.flatnonzero(counts.reshape(-1) > 0)
    n_per = np.asarray(np.rint(counts.reshape(-1)[flat]), dtype=np.int64)
    patterns = None
    if cells is not None:
        lookup = np.full(k * k, -1, dtype=np.int64)
        lookup[flat] = np.arange(flat.shape[0])
        patterns = lookup[cells]
    i, j = flat // k, flat % k
    wij = (i == j).astype(np.float64) if w is None else w[i, j]
    m = flat.shape[0]
    feats = np.zeros((m, 2 + 2 * k))
    feats[:, 0] = 1.0
    feats[:, 1] = wij
    feats[np.arange(m), 2 + i] = 1.0
    feats[np.arange(m), 2 + k + j] = 1.0

    def statistic(s: Arr) -> Arr:
        n = s[:, 0]
        po = s[:, 1] / n
        r = s[:, 2 : 2 + k] / n[:, None]
        c = s[:, 2 + k :] / n[:, None]
        return _statistic_from(name, chance, po, r, c, w)  # type: ignore[arg-type]

    return Resampling(
        features=feats,
        counts=np.asarray(np.rint(n_per), dtype=np.int64),
        statistic=statistic,
        unit_patterns=None if patterns is None else np.asarray(patterns, dtype=np.int64),
        unit_ids=None if weighted else table.unit_ids,
    )


def _statistic_from(name: str, chance: Chance, po: Arr, r: Arr, c: Arr, w: Arr | None) -> Arr:
    if name == "kappa_max":
        pe = p_e("cohen", r, c, None)
        return chance_corrected(np.minimum(r, c).sum(axis=1), pe)
    if chance == "none":
        return po
    return chance_corrected(po, p_e(chance, r, c, w))


# --------------------------------------------------------------------------- SEs
def _root(var: float) -> float:
    """The SE from a variance; rounding noise below 1e-15 (SE < 3e-8) is zero."""
    return math.sqrt(var) if var > 1e-15 else 0.0


def _se_cohen(cells: _Cells, w: Arr | None, kappa: float, pe: float) -> tuple[float, float]:
    """Fleiss, Cohen & Everitt (1969): large-sample SE and the SE under kappa = 0."""
    r, c, n = cells.r, cells.c, cells.n
    wbar_row = c if w is None else w @ c  # w_bar_i. = sum_j w_ij p_+j
    wbar_col = r if w is None else w.T @ r  # w_bar_.j = sum_i w_ij p_i+
    dev = cells.w - (wbar_row[cells.i] + wbar_col[cells.j]) * (1.0 - kappa)
    var = (np.sum(cells.p * dev**2) - (kappa - pe * (1.0 - kappa)) ** 2) / (n * (1.0 - pe) ** 2)
    if w is None:
        s0 = pe + pe**2 - float(np.sum(r * c * (r + c)))
    else:
        s0 = (
            float(np.sum(np.outer(r, c) * (w - (wbar_row[:, None] + wbar_col[None, :])) ** 2))
            - pe**2
        )
    var0 = s0 / (n * (1.0 - pe) ** 2)
    return _root(var), _root(var0)


def _se_gwet(
    chance: Chance, cells: _Cells, w: Arr | None, est: float, po: float, pe: float
) -> float:
    """Gwet (2014) variance of the two-rater table coefficients (irrCAC ``*.table``)."""
    n, q = cells.n, cells.r.shape[0]
    if chance == "none":
        return _root((np.sum(cells.p * cells.w**2) - po**2) / n)
    if chance == "bp":
        var = (np.sum(cells.p * cells.w**2) - po**2) / (n * (1.0 - pe) ** 2)
        return _root(var)
    pi = (cells.r + cells.c) / 2.0
    if chance == "scott":
        # d p_e / d p_kl = G_k + G_l with G = (W + W^T) pi / 2 (pi_k = (p_k+ + p_+k) / 2);
        # irrCAC's scott2.table uses (W p_+. + W^T p_.+) / 2, the same for symmetric W.
        g = pi if w is None else (w @ pi + w.T @ pi) / 2.0
        dev = cells.w - (1.0 - est) * (g[cells.i] + g[cells.j])
    else:  # gwet
        total_w = float(q) if w is None else float(w.sum())
        dev = cells.w - 2.0 * (1.0 - est) * total_w * (1.0 - (pi[cells.i] + pi[cells.j]) / 2.0) / (
            q * (q - 1.0)
        )
    var = (np.sum(cells.p * dev**2) - (po - 2.0 * (1.0 - est) * pe) ** 2) / (n * (1.0 - pe) ** 2)
    return _root(var)
