r"""Classifier figures against a reference, computed from the confusion matrix (the core).

The confusion matrix is a :class:`~accord.ContingencyTable` whose rows are the
reference classes and whose columns are the predicted classes, as the
literature orients it. With ``n`` units, ``n_ij`` units of reference class
``i`` predicted as ``j``, row totals ``n_i+`` and column totals ``n_+j``, each
class ``c`` has (Sokolova & Lapalme 2009, table 3)

.. math:: TP_c = n_{cc}, \quad FN_c = n_{c+} - n_{cc}, \quad FP_c = n_{+c} - n_{cc},
          \quad TN_c = n - n_{c+} - n_{+c} + n_{cc}

and precision ``TP / (TP + FP)``, recall ``TP / (TP + FN)``, F1 ``2 TP / (2 TP
+ FP + FN)`` and specificity ``TN / (TN + FP)``. Macro averages are plain means
over the classes whose figure is defined, weighted averages weight by the
reference support, micro averages pool the counts. Balanced accuracy is the
macro-averaged recall (Brodersen et al. 2010); the multiclass Matthews
correlation is Gorodkin's (2004) ``R_K``:

.. math:: R_K = \frac{n \sum_c n_{cc} - \sum_c n_{c+} n_{+c}}
                     {\sqrt{(n^2 - \sum_c n_{+c}^2)(n^2 - \sum_c n_{c+}^2)}}

Every figure is a function of the summed per-cell features ``[n, n_cc (k), n_c+
(k), n_+c (k)]``, so the bootstrap is a multinomial draw over the k x k cells
(:mod:`accord.inference.resampling`). Proportions (accuracy, per-class
precision, recall and specificity, micro precision/recall/F1) carry the Wald SE
``sqrt(p (1 - p) / m)`` and Wilson's (1927) score interval; the other figures
carry the leave-one-unit-out jackknife SE (Efron & Tibshirani 1993, ch. 11),
computed from the cells in O(k^2).

Undefined stays undefined: the precision of a class never predicted is 0/0,
so ``nan`` with a reason. scikit-learn instead returns 0 with a warning by
default (``zero_division="warn"``); with ``zero_division=np.nan`` it returns
``nan`` and leaves the class out of the averages, as accord does.

References: Sokolova, M. & Lapalme, G. (2009). A systematic analysis of
performance measures for classification tasks. Information Processing &
Management 45(4), 427-437. Gorodkin, J. (2004). Comparing two K-category
assignments by a K-category correlation coefficient. Computational Biology and
Chemistry 28(5-6), 367-374. Brodersen, K. H. et al. (2010). The balanced
accuracy and its posterior distribution. ICPR 2010, 3121-3124. Wilson, E. B.
(1927). Probable inference, the law of succession, and statistical inference.
JASA 22(158), 209-212.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.coefficients import _classification_loo as _loo
from accord.inference._normal import norm_ppf
from accord.inference.jackknife import jackknife_se, jackknife_se_of
from accord.inference.resampling import Resampling
from accord.inference.results import AgreementResult
from accord.tables.contingency import DENSE_LIMIT, ContingencyTable

Arr = NDArray[np.float64]
Figure = Literal["precision", "recall", "f1", "specificity"]
Average = Literal["macro", "micro", "weighted", "binary"]
FIGURES: tuple[Figure, ...] = ("precision", "recall", "f1", "specificity")
AVERAGES: tuple[str, ...] = ("macro", "micro", "weighted", "binary")

__all__ = [
    "AVERAGES", "FIGURES", "Cells", "accuracy_result", "average_figure", "averaged",
    "balanced_accuracy_result", "class_figure", "figure_result", "mcc_result", "per_class",
    "kappa_stat", "resolve_label",
]


# --------------------------------------------------------------------------- statistics
def _split(s: Arr, k: int) -> tuple[Arr, Arr, Arr, Arr]:
    """``n``, ``n_cc``, ``n_c+`` and ``n_+c`` from summed features of shape ``(B, 1 + 3k)``."""
    return s[:, 0], s[:, 1 : 1 + k], s[:, 1 + k : 1 + 2 * k], s[:, 1 + 2 * k :]


def per_class(figure: str, s: Arr, k: int) -> Arr:
    """One figure for every class, shape ``(B, k)``; ``nan`` where it is 0/0."""
    n, d, r, c = _split(s, k)
    return _figure(figure, n, d, r, c)


def one_class(figure: str, s: Arr, k: int, i: int) -> Arr:
    """One figure of the class at ``i``, shape ``(B,)``: O(1) per row, whatever k is."""
    return _figure(figure, s[:, :1], s[:, 1 + i : 2 + i], s[:, 1 + k + i : 2 + k + i],
                   s[:, 1 + 2 * k + i : 2 + 2 * k + i])[:, 0]


def _figure(figure: str, n: Arr, d: Arr, r: Arr, c: Arr) -> Arr:
    n = n.reshape(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if figure == "precision":
            return d / c
        if figure == "recall":
            return d / r
        if figure == "f1":
            return 2.0 * d / (r + c)
        return (n[:, None] - r - c + d) / (n[:, None] - r)


def accuracy_stat(s: Arr, k: int) -> Arr:
    """``sum_c n_cc / n``."""
    n, d, _, _ = _split(s, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(d.sum(axis=1) / n)


def mcc_stat(s: Arr, k: int) -> Arr:
    """Gorodkin's (2004) ``R_K``; ``nan`` when either side used a single class."""
    n, d, r, c = _split(s, k)
    cov = n * d.sum(axis=1) - np.sum(r * c, axis=1)
    den = (n**2 - np.sum(c**2, axis=1)) * (n**2 - np.sum(r**2, axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(den > 0, cov / np.sqrt(np.maximum(den, 0.0)), np.nan))


def kappa_stat(s: Arr, k: int) -> Arr:
    """Unweighted Cohen's kappa ``(p_o - p_e) / (1 - p_e)`` from the same summed features."""
    n, d, r, c = _split(s, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        po = d.sum(axis=1) / n
        pe = np.sum(r * c, axis=1) / n**2
        return np.asarray(np.where(pe < 1.0, (po - pe) / (1.0 - pe), np.nan))


def averaged(figure: str, average: str, s: Arr, k: int) -> Arr:
    """A macro, micro or support-weighted average, shape ``(B,)``.

    Macro and weighted averages leave out the classes whose figure is undefined
    (scikit-learn's ``zero_division=np.nan``); when every class left in has reference
    support 0, the weighted average is their plain mean, as scikit-learn's
    ``_nanaverage`` (and ``evaluate_multilabel``) take it. The micro average pools the
    counts.
    """
    if average == "micro":
        return _micro(figure, s, k)
    vals = per_class(figure, s, k)
    ok = np.isfinite(vals)
    plain = ok.astype(np.float64)
    weights = plain if average == "macro" else np.where(ok, _split(s, k)[2], 0.0)
    weights = np.where((weights.sum(axis=1) > 0)[:, None], weights, plain)
    den = weights.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sum(np.where(ok, vals, 0.0) * weights, axis=1) / den
    return np.asarray(np.where(den > 0, out, np.nan))


def _micro(figure: str, s: Arr, k: int) -> Arr:
    n, d, _, _ = _split(s, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        if figure == "specificity":  # sum_c TN_c / sum_c (TN_c + FP_c)
            return np.asarray((k * n - 2.0 * n + d.sum(axis=1)) / ((k - 1.0) * n))
        return np.asarray(d.sum(axis=1) / n)  # every unit is one TP or one FP and one FN


# --------------------------------------------------------------------------- the cells
@dataclass(frozen=True)
class Cells:
    """The confusion matrix as summed features, with what the resampling needs.

    ``sums`` is ``[n, n_cc, n_c+, n_+c]`` for the whole table; ``features`` and
    ``counts`` describe the non-empty cells (``None`` when the table cannot be
    resampled: proportions, fractional weights, or more than 2,000 classes). The
    features (cells x (1 + 3k)) are built when first asked for: the jackknife SEs
    read each class's four columns, or the averages' closed form, without them.
    """

    table: ContingencyTable
    sums: Arr
    counts: NDArray[np.int64] | None
    flat: NDArray[np.int64] | None
    n_units: int
    _patterns: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def k(self) -> int:
        return self.table.k

    @property
    def features(self) -> Arr | None:
        """Per non-empty cell: ``[1, [i = j] e_i, e_i, e_j]`` (built once, on demand)."""
        if self.flat is None:
            return None
        if "f" not in self._patterns:
            k, m = self.k, self.flat.shape[0]
            i, j = self.flat // k, self.flat % k
            feats = np.zeros((m, 1 + 3 * k))
            feats[:, 0] = 1.0
            rows = np.arange(m)
            diag = i == j
            feats[rows[diag], 1 + i[diag]] = 1.0
            feats[rows, 1 + k + i] = 1.0
            feats[rows, 1 + 2 * k + j] = 1.0
            self._patterns["f"] = feats
        out: Arr = self._patterns["f"]
        return out

    def class_features(self, index: int) -> Arr:
        """The four columns of :attr:`features` of the class at ``index``, in O(cells)."""
        assert self.flat is not None  # noqa: S101 (callers check)
        i, j = self.flat // self.k, self.flat % self.k
        return np.column_stack([np.ones(i.shape[0]), (i == index) & (j == index),
                                i == index, j == index]).astype(np.float64)

    @classmethod
    def of(cls, table: ContingencyTable) -> Cells:
        """Count the table's cells once (O(k^2))."""
        k = table.k
        sums = np.concatenate([[table.n], table.diagonal, table.row_totals, table.col_totals])
        n_units = int(round(table.n))
        if k > DENSE_LIMIT or table.n <= 0 or not _whole(table):
            return cls(table, sums, None, None, n_units)
        flat_counts = table.counts.reshape(-1)
        flat = np.flatnonzero(flat_counts > 0)
        counts = np.asarray(np.rint(flat_counts[flat]), dtype=np.int64)
        return cls(table, sums, counts, flat, n_units)

    def unit_patterns(self) -> NDArray[np.int64] | None:
        """Each unit's cell (as an index into the non-empty cells), computed once."""
        if "p" not in self._patterns:
            cells = None if self.table.unit_weights is not None else self.table.unit_cells
            patterns = None
            if cells is not None and self.flat is not None:
                lookup = np.full(self.k * self.k, -1, dtype=np.int64)
                lookup[self.flat] = np.arange(self.flat.shape[0])
                patterns = lookup[cells]
            self._patterns["p"] = patterns
        out: NDArray[np.int64] | None = self._patterns["p"]
        return out

    def resampling(self, statistic: Callable[[Arr], Arr]) -> Resampling:
        """The figure as ``statistic(weights @ features)`` over the cells."""
        assert self.features is not None and self.counts is not None  # noqa: S101 (callers check)
        weighted = self.table.unit_weights is not None
        return Resampling(self.features, self.counts, statistic, self.unit_patterns(),
                          None if weighted else self.table.unit_ids)

    def value(self, statistic: Callable[[Arr], Arr]) -> float:
        """The figure on the whole table."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(statistic(self.sums[None, :])[0])


def _whole(table: ContingencyTable) -> bool:
    data = table._sparse.data if table.is_sparse else table.counts  # noqa: SLF001
    return bool(np.array_equal(data, np.rint(data)))


def resolve_label(value: Any, categories: tuple[Any, ...]) -> Any:
    """``value`` as one of ``categories``; text matches a label it spells (``"1"`` -> 1).

    Returns ``None`` when nothing matches.
    """
    if value in categories:
        return value
    if isinstance(value, str):
        hits = [c for c in categories if str(c) == value]
        if len(hits) == 1:
            return hits[0]
    return None


# --------------------------------------------------------------------------- results
def wilson(x: float, m: float, level: float) -> tuple[float, float]:
    """Wilson's (1927) score interval for ``x`` successes in ``m`` trials."""
    z = _normal_quantile(level)
    p = x / m
    centre = (p + z * z / (2.0 * m)) / (1.0 + z * z / m)
    half = z / (1.0 + z * z / m) * math.sqrt(max(p * (1.0 - p) / m + z * z / (4.0 * m * m), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)


@functools.lru_cache(maxsize=16)
def _normal_quantile(level: float) -> float:
    """Computed once per level: evaluate asks it for every class's figures."""
    return float(norm_ppf(0.5 + level / 2.0))


def figure_result(
    name: str,
    cells: Cells,
    statistic: Callable[[Arr], Arr],
    reason: str | None,
    *,
    proportion: tuple[float, float] | None = None,
    bounds: tuple[float, float] = (0.0, 1.0),
    details: dict[str, Any] | None = None,
    class_index: int | None = None,
    compact: Callable[[Arr], Arr] | None = None,
    leave_one_out: Callable[[], Arr] | None = None,
) -> AgreementResult:
    """One figure as an :class:`~accord.AgreementResult` (no warning is emitted here).

    ``proportion`` is ``(x, m)`` for a proportion ``x / m``: Wald SE and Wilson
    interval. Otherwise the SE is the jackknife over units, from the cells; when the
    figure is of the class at ``class_index``, ``compact`` computes it from that class's
    four columns alone and the jackknife leaves the others out; ``leave_one_out``
    gives the figure without one unit of each non-empty cell in a cheaper closed form.
    """
    est = cells.value(statistic)
    info: dict[str, Any] = dict(details or {})
    resample = None if cells.flat is None else (lambda: cells.resampling(statistic))
    if not math.isfinite(est):
        if cells.sums[0] <= 0:
            reason = "the table is empty (no unit has both a reference label and a prediction)"
        reason = reason or f"{name} is 0/0 on these data"
        return _make(name, cells, math.nan, math.nan, reason, info, bounds, resample, None)
    interval = None
    if proportion is not None:
        x, m = proportion
        se = math.sqrt(max(est * (1.0 - est), 0.0) / m)
        info.update(x=x, m=m, se_method="wald", ci_method="wilson")
        interval = _wilson_for(x, m)
    elif cells.flat is not None and cells.counts is not None:
        # leave-one-out needs only the cells, not each unit's cell (O(n) to build); a
        # figure of one class only the class's columns (O(cells), not O(cells x k))
        if leave_one_out is not None:
            se, _ = jackknife_se_of(leave_one_out(), cells.counts)
        elif class_index is not None and compact is not None:
            feats = cells.class_features(class_index)
            se, _ = jackknife_se(Resampling(feats, cells.counts, compact))
        else:
            feats_all, se = cells.features, math.nan
            if feats_all is not None:  # always, with the cells
                se, _ = jackknife_se(Resampling(feats_all, cells.counts, statistic))
        info.update(se_method="jackknife")
    else:
        se = math.nan
        info.update(se_note="the table holds proportions or fractional weights, so there are "
                    "no units to leave out; give the counts")
    return _make(name, cells, est, se, None, info, bounds, resample, interval)


def _wilson_for(x: float, m: float) -> Callable[[float], tuple[float, float]]:
    return lambda level: wilson(x, m, level)


def _make(
    name: str, cells: Cells, est: float, se: float, reason: str | None, details: dict[str, Any],
    bounds: tuple[float, float], resample: Any, interval: Any,
) -> AgreementResult:
    return AgreementResult(
        coefficient=name, estimate=est, observed=est, expected=math.nan, se=se,
        n_units=cells.n_units, n_raters=2, undefined_reason=reason, details=details,
        bounds=bounds, resampling=resample, analytic_interval=interval,
    )


def class_figure(figure: str, cells: Cells, index: int) -> AgreementResult:
    """Precision, recall, F1 or specificity of the class at ``index``."""
    k, label = cells.k, cells.table.categories[index]
    n, d = float(cells.sums[0]), float(cells.sums[1 + index])
    r, c = float(cells.sums[1 + k + index]), float(cells.sums[1 + 2 * k + index])

    def statistic(s: Arr) -> Arr:
        return one_class(figure, s, k, index)

    def compact(s: Arr) -> Arr:  # s = [n, n_ii, n_i+, n_+i]
        return one_class(figure, s, 1, 0)

    proportion = {"precision": (d, c), "recall": (d, r),
                  "specificity": (n - r - c + d, n - r)}.get(figure)
    reason = _class_reason(figure, label)
    return figure_result(f"{figure}[{label}]", cells, statistic, reason,
                         proportion=proportion, details={"class": label},
                         class_index=index,
                         compact=compact)


def _class_reason(figure: str, label: Any) -> str:
    return {
        "precision": f"the system never predicted {label!r}, so precision is 0/0 (scikit-learn "
                     "reports 0 with a warning by default)",
        "recall": f"{label!r} never occurs in the reference, so recall is 0/0",
        "f1": f"{label!r} occurs in neither the reference nor the predictions, so F1 is 0/0",
        "specificity": f"every reference label is {label!r}, so there are no negatives and "
                       "specificity is 0/0",
    }[figure]


def average_figure(figure: str, average: str, cells: Cells) -> AgreementResult:
    """The macro, micro or weighted average of one figure, with the classes left out."""
    k = cells.k

    def statistic(s: Arr) -> Arr:
        return averaged(figure, average, s, k)

    details: dict[str, Any] = {"average": average}
    if average != "micro":
        vals = per_class(figure, cells.sums[None, :], k)[0]
        left = [cells.table.categories[i] for i in np.flatnonzero(~np.isfinite(vals))]
        details.update(n_left_out=len(left), left_out=left)
    proportion = None
    if average == "micro" and figure != "specificity":
        proportion = (float(cells.sums[1 : 1 + k].sum()), float(cells.sums[0]))
    reason = f"no class has a defined {figure}" if average != "micro" else None
    loo = None
    if cells.flat is not None and (average != "micro" or figure == "specificity"):
        flat = cells.flat

        def loo() -> Arr:
            if average == "micro":
                return _loo.micro_specificity(k, cells.sums, flat)
            return _loo.averaged(partial(_figure, figure), average, k, cells.sums, flat)
    return figure_result(f"{average}_{figure}", cells, statistic, reason,
                         proportion=proportion, details=details, leave_one_out=loo)


def accuracy_result(cells: Cells) -> AgreementResult:
    """Accuracy with the Wilson interval."""
    k = cells.k
    correct, n = float(cells.sums[1 : 1 + k].sum()), float(cells.sums[0])
    return figure_result("accuracy", cells, lambda s: accuracy_stat(s, k), None,
                         proportion=(correct, n))


def balanced_accuracy_result(cells: Cells) -> AgreementResult:
    """Macro-averaged recall over the classes present in the reference."""
    return replace(average_figure("recall", "macro", cells), coefficient="balanced_accuracy")


def mcc_result(cells: Cells) -> AgreementResult:
    """Gorodkin's multiclass Matthews correlation."""
    k = cells.k
    reason = ("the reference or the predictions use a single class throughout, so the "
              "Matthews correlation is 0/0 (scikit-learn reports 0)")
    flat = cells.flat
    loo = None if flat is None else partial(_loo.mcc, k, cells.sums, flat)
    return figure_result("mcc", cells, lambda s: mcc_stat(s, k), reason, bounds=(-1.0, 1.0),
                         leave_one_out=loo)
