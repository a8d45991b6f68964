"""The result of evaluating one system against a reference: :class:`Evaluation`.

A small frozen dataclass of :class:`~accord.AgreementResult` objects plus the
confusion matrix they all come from (:mod:`accord.coefficients.classification`),
so every figure keeps its own interval and undefined reason.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from accord.coefficients import _classification_core as cl
from accord.data import _validation as v
from accord.errors import DegenerateDataWarning
from accord.evaluation._intervals import intervals
from accord.inference.bootstrap import Bootstrap
from accord.inference.display import Tabular
from accord.inference.results import AgreementResult, ConfidenceInterval, _jsonable, _num
from accord.tables.contingency import ContingencyTable

if TYPE_CHECKING:
    from accord.inference.ceiling import HumanCeiling

__all__ = ["Averages", "Baselines", "ClassMetrics", "Evaluation", "evaluation_from_table"]



@dataclass(frozen=True)
class ClassMetrics:
    """One class against the rest.

    Attributes
    ----------
    label : object
        The class.
    precision, recall, f1, specificity : AgreementResult
        ``TP/(TP+FP)``, ``TP/(TP+FN)``, ``2TP/(2TP+FP+FN)`` and ``TN/(TN+FP)``.
    support : int
        Units whose reference label is this class.
    tp, fp, fn, tn : float
        The one-vs-rest counts (sums of sample weights when weights were given).
    """

    label: Any
    precision: AgreementResult
    recall: AgreementResult
    f1: AgreementResult
    specificity: AgreementResult
    support: int
    tp: float
    fp: float
    fn: float
    tn: float

    def figures(self) -> dict[str, AgreementResult]:
        """The four figures by name."""
        return {f: getattr(self, f) for f in cl.FIGURES}


@dataclass(frozen=True)
class Averages:
    """Precision, recall, F1 and specificity averaged over the classes one way.

    ``average`` is ``"macro"`` (plain mean over the classes where the figure is
    defined; ``details["n_left_out"]`` counts the others), ``"micro"`` (pooled
    counts; precision = recall = F1 = accuracy for single-label data) or
    ``"weighted"`` (mean weighted by reference support).
    """

    average: str
    precision: AgreementResult
    recall: AgreementResult
    f1: AgreementResult
    specificity: AgreementResult

    def figures(self) -> dict[str, AgreementResult]:
        """The four figures by name."""
        return {f: getattr(self, f) for f in cl.FIGURES}


@dataclass(frozen=True)
class Baselines:
    """What a system must beat before its accuracy means anything.

    Attributes
    ----------
    majority_class : object
        The most frequent reference class (the first in category order on ties).
    majority_accuracy : float
        The accuracy of always predicting it.
    chance_accuracy : float
        ``p_e = sum_c p_c+ p_+c``: the accuracy expected if the predictions were
        independent of the reference with the same marginals (Cohen's chance term).
    chance_note : str or None
        "no better than chance on these units" when the 95% interval of Cohen's
        kappa includes 0.
    majority_note : str or None
        A sentence when the accuracy does not exceed the majority-class baseline.
    """

    majority_class: Any
    majority_accuracy: float
    chance_accuracy: float
    chance_note: str | None
    majority_note: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {
            "majority_class": _jsonable(self.majority_class),
            "majority_accuracy": _num(self.majority_accuracy),
            "chance_accuracy": _num(self.chance_accuracy),
            "chance_note": self.chance_note,
            "majority_note": self.majority_note,
        }


@dataclass(frozen=True)
class Evaluation(Tabular):
    """A system's labels against a reference: the confusion matrix and every figure.

    Attributes
    ----------
    table : ContingencyTable
        The confusion matrix: rows are the reference classes, columns the predicted.
    accuracy, balanced_accuracy, mcc, kappa : AgreementResult
        Accuracy (Wilson interval), balanced accuracy (macro recall), Gorodkin's
        multiclass Matthews correlation and Cohen's kappa (weighted when the scale
        is ordinal; its ``observed`` is the accuracy and ``expected`` is ``p_e``).
    per_class : mapping of label to ClassMetrics
        Per-class precision, recall, F1, specificity, support and TP/FP/FN/TN.
    macro, micro, weighted : Averages
        The three averages of the four per-class figures.
    baselines : Baselines
        Majority-class and chance accuracy, with the sentences a reviewer needs.
    reference, system : str
        Names of the two label sources.
    positive : object or None
        The positive class of a binary task, when one was named.
    n_unreferenced : int
        Units with a prediction but no reference label: not evaluated.
    n_unpredicted : int
        Units with a reference label but no prediction: not evaluated.
    notes : tuple of str
        What was left out and why, and other things worth knowing.
    ceiling : HumanCeiling or None
        The same figure for human annotators against the same reference, when the
        data hold them (:func:`accord.evaluate` on annotations).
    """

    table: ContingencyTable
    accuracy: AgreementResult
    balanced_accuracy: AgreementResult
    mcc: AgreementResult
    kappa: AgreementResult
    per_class: Mapping[Any, ClassMetrics]
    macro: Averages
    micro: Averages
    weighted: Averages
    baselines: Baselines
    reference: str = "reference"
    system: str = "system"
    positive: Any = None
    n_unreferenced: int = 0
    n_unpredicted: int = 0
    notes: tuple[str, ...] = ()
    ceiling: HumanCeiling | None = None

    @property
    def n_units(self) -> int:
        """Units evaluated: those with both a reference label and a prediction."""
        return self.accuracy.n_units

    @property
    def categories(self) -> tuple[Any, ...]:
        """The classes, in the table's order."""
        return self.table.categories

    def results(self) -> dict[str, AgreementResult]:
        """Every figure by a dotted name, e.g. ``"accuracy"``, ``"macro.f1"``,
        ``"per_class.a.recall"``."""
        out = {name: getattr(self, name) for name in
               ("accuracy", "balanced_accuracy", "mcc", "kappa")}
        for avg in (self.macro, self.micro, self.weighted):
            out.update({f"{avg.average}.{f}": r for f, r in avg.figures().items()})
        for label, row in self.per_class.items():
            out.update({f"per_class.{label}.{f}": r for f, r in row.figures().items()})
        return out

    def intervals(
        self, confidence_level: float = 0.95, *, method: Bootstrap | str | None = None,
        bootstrap: Bootstrap | None = None,
    ) -> dict[str, ConfidenceInterval]:
        """An interval for every figure of :meth:`results`.

        ``method=None`` (the default): Wilson intervals for proportions (accuracy,
        per-class precision, recall and specificity, micro precision/recall/F1) and
        the percentile bootstrap over the k x k cells (9999 resamples, seed 0, one
        draw shared by every figure, unweighted kappa included) for the rest
        (``bootstrap=`` replaces that default bootstrap). When that draw would be very
        large (more than about 4 * 10^8 numbers: tens of thousands of non-empty cells),
        the default falls back to each result's own interval (as ``"asymptotic"``); a
        ``Bootstrap`` passed as ``method`` is always honoured. ``"asymptotic"`` or
        ``"jackknife"``: each result's own method (Wilson, the jackknife-SE normal
        interval, the Fleiss-Cohen-Everitt interval of kappa). A ``Bootstrap``: that
        bootstrap for every figure.
        """
        return intervals(self, confidence_level, method, bootstrap)

    def to_dict(
        self, confidence_level: float = 0.95, *, method: Bootstrap | str | None = None,
        bootstrap: Bootstrap | None = None,
    ) -> dict[str, Any]:
        """JSON-ready mapping at full precision, ``None`` where undefined, with the
        intervals of :meth:`intervals`. The confusion matrix is its k x k ``counts``,
        or, above 2,000 classes, its non-empty ``cells`` as ``[row, column, count]``."""
        cis = self.intervals(confidence_level, method=method, bootstrap=bootstrap)

        def fig(key: str, res: AgreementResult) -> dict[str, Any]:
            return {**res.to_dict(), "confidence_interval": cis[key].to_dict()}

        t = self.table
        return {
            "reference": self.reference, "system": self.system, "n_units": self.n_units,
            "n_unreferenced": self.n_unreferenced, "n_unpredicted": self.n_unpredicted,
            "categories": _jsonable(list(t.categories)), "positive": _jsonable(self.positive),
            "confusion_matrix": {
                "rows": "reference", "columns": "predicted", **_cells(t),
                "row_totals": _jsonable(t.row_totals),
                "col_totals": _jsonable(t.col_totals), "n": _num(t.n),
            },
            **{k: fig(k, getattr(self, k)) for k in
               ("accuracy", "balanced_accuracy", "mcc", "kappa")},
            "per_class": {str(label): {
                "support": row.support, "tp": row.tp, "fp": row.fp, "fn": row.fn, "tn": row.tn,
                **{f: fig(f"per_class.{label}.{f}", r) for f, r in row.figures().items()},
            } for label, row in self.per_class.items()},
            **{a.average: {f: fig(f"{a.average}.{f}", r) for f, r in a.figures().items()}
               for a in (self.macro, self.micro, self.weighted)},
            "baselines": self.baselines.to_dict(),
            "notes": list(self.notes),
            "ceiling": None if self.ceiling is None else self.ceiling.to_dict(),
        }

    def __str__(self) -> str:
        lines = [f"{self.system} against {self.reference}: {self.n_units} units, "
                 f"{self.table.k} classes"]
        for name in ("accuracy", "balanced_accuracy", "mcc", "kappa"):
            lines.append(f"  {_short(getattr(self, name))}")
        lines.append(f"  macro F1 {_fmt(self.macro.f1)}, weighted F1 {_fmt(self.weighted.f1)}")
        b = self.baselines
        lines.append(f"  majority-class accuracy {b.majority_accuracy:.4f} "
                     f"({b.majority_class!r}), chance accuracy {b.chance_accuracy:.4f}")
        lines += [f"  {s}" for s in (b.chance_note, b.majority_note) if s]
        if self.ceiling is not None:
            lines.append(f"  {self.ceiling.sentence}")
        return "\n".join(lines)


def _cells(t: ContingencyTable) -> dict[str, Any]:
    """The k x k ``counts``; a sparse table (over 2,000 classes) as its non-empty
    ``cells``, ``[row, column, count]`` each, so that the size follows the units."""
    if not t.is_sparse:
        counts = t.counts
        # finite counts are already what _jsonable makes of them (floats): one tolist, not
        # a Python call per cell (2,000 classes: 4 x 10^6 cells, 19 s)
        return {"counts": counts.tolist() if bool(np.isfinite(counts).all())
                else _jsonable(counts.tolist())}
    coo = t._sparse.tocoo()  # noqa: SLF001 (the table's own storage, read only)
    order = np.lexsort((coo.col, coo.row))
    return {"cells": [[int(coo.row[i]), int(coo.col[i]), _num(float(coo.data[i]))]
                      for i in order]}


def _fmt(res: AgreementResult) -> str:
    return f"{res.estimate:.4f}" if res.defined else "undefined"


def _short(res: AgreementResult) -> str:
    return f"{res.coefficient} = {_fmt(res)}"


# --------------------------------------------------------------------------- building
def evaluation_from_table(
    table: ContingencyTable,
    *,
    reference: str = "reference",
    system: str = "system",
    positive: Any = None,
    weights: Any = None,
    supports: np.ndarray[Any, Any] | None = None,
    n_unreferenced: int = 0,
    n_unpredicted: int = 0,
    notes: tuple[str, ...] = (),
) -> Evaluation:
    """Every figure from one confusion matrix (rows = reference); warns once if any is undefined.

    ``supports`` are the unweighted reference counts per class (default: the row
    totals rounded).
    """
    from accord.coefficients.two_raters import cohen_kappa

    cells = cl.Cells.of(table)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        kappa = cohen_kappa(table, weights=weights)
    support = np.rint(table.row_totals) if supports is None else supports
    ev = Evaluation(
        table=table,
        accuracy=cl.accuracy_result(cells),
        balanced_accuracy=cl.balanced_accuracy_result(cells),
        mcc=cl.mcc_result(cells),
        kappa=kappa,
        per_class={label: _class(cells, i, int(support[i]))
                   for i, label in enumerate(table.categories)},
        macro=_averages(cells, "macro"),
        micro=_averages(cells, "micro"),
        weighted=_averages(cells, "weighted"),
        baselines=_baselines(table, kappa, cells),
        reference=reference, system=system, positive=positive,
        n_unreferenced=n_unreferenced, n_unpredicted=n_unpredicted,
        notes=(*notes, *_free_text(table.k, cells.n_units)),
    )
    _warn_undefined(ev)
    return ev


#: Above this many classes, a label set with about one class per two units is named.
FREE_TEXT_CLASSES = 100


def _free_text(k: int, n_units: int) -> tuple[str, ...]:
    """A note when the labels look like free text or ids rather than a set of classes."""
    if k <= FREE_TEXT_CLASSES or 2 * k < n_units:
        return ()
    return (f"{k} distinct labels in {n_units} units: labels this varied look like free text "
            "or ids rather than classes; check that the reference and system columns hold "
            "labels",)


def _class(cells: cl.Cells, i: int, support: int) -> ClassMetrics:
    k, s = cells.k, cells.sums
    n, d, r, c = float(s[0]), float(s[1 + i]), float(s[1 + k + i]), float(s[1 + 2 * k + i])
    figs = {f: cl.class_figure(f, cells, i) for f in cl.FIGURES}
    return ClassMetrics(cells.table.categories[i], support=support, tp=d, fp=c - d, fn=r - d,
                        tn=n - r - c + d, **figs)


def _averages(cells: cl.Cells, average: str) -> Averages:
    return Averages(average, **{f: cl.average_figure(f, average, cells) for f in cl.FIGURES})


def _baselines(table: ContingencyTable, kappa: AgreementResult, cells: cl.Cells) -> Baselines:
    n, rows, cols = table.n, table.row_totals, table.col_totals
    top = int(np.argmax(rows))
    majority = float(rows[top] / n)
    chance = float(rows @ cols / n**2)
    acc = float(table.diagonal.sum() / n)
    chance_note = None
    if kappa.defined and math.isfinite(kappa.se):
        ci = kappa.confidence_interval(0.95)
        if ci.low <= 0.0 <= ci.high:
            chance_note = (f"no better than chance on these {cells.n_units} units: Cohen's kappa "
                           f"{kappa.estimate:.2f} (95% CI {ci.low:.2f} to {ci.high:.2f}) "
                           "includes 0")
    majority_note = None
    if acc <= majority + 1e-12:
        majority_note = (f"accuracy {acc:.2f} does not exceed {majority:.2f}, the accuracy of "
                         "always predicting the majority reference class "
                         f"{table.categories[top]!r}")
    return Baselines(table.categories[top], majority, chance, chance_note, majority_note)


def _warn_undefined(ev: Evaluation) -> None:
    bad = [(name, r.undefined_reason) for name, r in ev.results().items() if not r.defined]
    if not bad:
        return
    shown = "; ".join(f"{name} ({why})" for name, why in bad[:4])
    more = f"; and {len(bad) - 4} more" if len(bad) > 4 else ""
    warnings.warn(
        f"evaluate: {len(bad)} figure(s) are undefined (nan): {shown}{more}",
        DegenerateDataWarning, stacklevel=v.user_level(),
    )

