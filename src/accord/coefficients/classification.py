"""Classifier metrics against a reference, as registered coefficients.

Accuracy, balanced accuracy, precision, recall, F1 and the Matthews correlation
of a system's labels against reference labels, computed from the confusion
matrix (rows = reference, columns = system); the formulas, conventions and
references are in :mod:`accord.coefficients._classification_core`. Each
function returns one :class:`~accord.AgreementResult`; :func:`accord.evaluate`
returns all of them at once with the per-class table and the baselines.

Data: ``f(reference, predicted)`` as in scikit-learn, a ``ContingencyTable``
(rows = reference), a two-column table (first column = reference) or
``Annotations`` with two raters (the reference is the rater of kind ``"gold"``
when there is one, else the first; ``raters=[reference, system]`` names them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from accord.coefficients import _classification_core as core
from accord.coefficients._data import as_table, reusable
from accord.coefficients._registry import register
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.inference.results import AgreementResult
from accord.tables.contingency import ContingencyTable

__all__ = ["accuracy", "balanced_accuracy", "f1", "mcc", "precision", "recall"]

_CITE_SL = (
    "Sokolova, M. & Lapalme, G. (2009). A systematic analysis of performance measures for "
    "classification tasks. Information Processing & Management 45(4), 427-437."
)
_CITE_WILSON = (
    " Interval: Wilson, E. B. (1927). Probable inference, the law of succession, and "
    "statistical inference. JASA 22(158), 209-212."
)


def _table(data: Any, predicted: Any, categories: Sequence[Any] | None, sample_weight: Any,
           raters: Sequence[Any] | None, func: str) -> ContingencyTable:
    """The confusion matrix, rows = reference (the gold rater of two, or the first)."""
    data = reusable(data)
    if isinstance(data, Annotations) and raters is None and data.n_raters == 2:
        gold = [r for r in data.raters if data.kinds.get(r) == "gold"]
        if len(gold) == 1:
            raters = [gold[0], *(r for r in data.raters if r != gold[0])]
    return as_table(data, predicted, categories=categories, sample_weight=sample_weight,
                    raters=raters, func=func)


def _finish(name: str, res: AgreementResult, **details: Any) -> AgreementResult:
    """Name the result after the registry entry; warn once when it is undefined."""
    out = replace(res, coefficient=name, details={**res.details, **details})
    if not out.defined:
        v.warn_undefined(name, out.undefined_reason or "it is 0/0 on these data")
    return out


def _averaged(figure: str, data: Any, predicted: Any, average: str | None, positive: Any,
              categories: Sequence[Any] | None, sample_weight: Any,
              raters: Sequence[Any] | None) -> AgreementResult:
    if average is None:
        average = "binary" if positive is not None else "macro"
    v.choice(average, core.AVERAGES, param="average", func=figure)
    if average == "binary" and positive is None:
        raise v.fail("positive", figure, "the positive class when average='binary'", positive)
    if average != "binary" and positive is not None:
        raise v.fail("average", figure, "'binary' (or None) when positive= is given", average)
    table = _table(data, predicted, categories, sample_weight, raters, figure)
    cells = core.Cells.of(table)
    if average == "binary":
        label = core.resolve_label(positive, table.categories)
        if label is None:
            raise v.fail("positive", figure, f"one of the classes {list(table.categories)!r}",
                         positive)
        res = core.class_figure(figure, cells, table.categories.index(label))
        positive = label
        return _finish(figure, res, average="binary", positive=positive)
    return _finish(figure, core.average_figure(figure, average, cells))


@register("accuracy", title="Accuracy", family="classification",
          citation=_CITE_SL + _CITE_WILSON, chance_corrected=False, bounds=(0.0, 1.0))
def accuracy(
    data: Any,
    predicted: Any = None,
    /,
    *,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    r"""The share of units whose predicted label equals the reference label.

    .. math:: \text{accuracy} = \frac{\sum_c n_{cc}}{n}

    ``se`` is the binomial SE ``sqrt(p (1 - p) / n)``; the asymptotic interval is
    Wilson's score interval (``details["ci_method"] == "wilson"``).

    Examples
    --------
    >>> import accord
    >>> res = accord.accuracy(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    >>> res.estimate
    0.75
    >>> ci = res.confidence_interval(0.95)
    >>> round(ci.low, 4), round(ci.high, 4), ci.method
    (0.3006, 0.9544, 'wilson')
    """
    table = _table(data, predicted, categories, sample_weight, raters, "accuracy")
    return _finish("accuracy", core.accuracy_result(core.Cells.of(table)))


@register("balanced_accuracy", title="Balanced accuracy", family="classification",
          citation="Brodersen, K. H., Ong, C. S., Stephan, K. E. & Buhmann, J. M. (2010). The "
          "balanced accuracy and its posterior distribution. ICPR 2010, 3121-3124.",
          chance_corrected=False, bounds=(0.0, 1.0))
def balanced_accuracy(
    data: Any,
    predicted: Any = None,
    /,
    *,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    r"""The mean recall over the classes present in the reference.

    .. math:: \text{balanced accuracy} = \frac{1}{|C|} \sum_{c \in C} \frac{n_{cc}}{n_{c+}},
              \quad C = \{c : n_{c+} > 0\}

    As scikit-learn's ``balanced_accuracy_score`` (which warns about predicted
    classes absent from the reference and leaves them out, as here).
    ``se`` is the jackknife SE over units.

    Examples
    --------
    >>> import accord
    >>> round(accord.balanced_accuracy([0, 0, 0, 1], [0, 0, 1, 1]).estimate, 4)
    0.8333
    """
    table = _table(data, predicted, categories, sample_weight, raters, "balanced_accuracy")
    return _finish("balanced_accuracy", core.balanced_accuracy_result(core.Cells.of(table)))




@register("precision", title="Precision", family="classification",
          citation=_CITE_SL + _CITE_WILSON, chance_corrected=False, bounds=(0.0, 1.0))
def precision(
    data: Any,
    predicted: Any = None,
    /,
    *,
    average: str | None = None,
    positive: Any = None,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    r"""Of the units predicted as a class, the share whose reference label is that class.

    .. math:: \text{precision}_c = \frac{TP_c}{TP_c + FP_c} = \frac{n_{cc}}{n_{+c}}

    Undefined (``nan``) for a class never predicted; scikit-learn returns 0 there
    by default (``zero_division="warn"``), and ``zero_division=np.nan`` matches accord.

    Parameters
    ----------
    data, predicted : reference and predicted labels, or a table (rows = reference)
    average : {"macro", "micro", "weighted", "binary"}, optional
        Default ``"binary"`` when ``positive`` is given, else ``"macro"`` (the mean
        over the classes where the figure is defined; those left out are listed in
        ``details["left_out"]``). ``"micro"`` pools the counts (equal to accuracy
        for single-label data); ``"weighted"`` weights by reference support.
    positive : label, optional
        The positive class, for ``average="binary"``.

    Examples
    --------
    >>> import accord
    >>> gold = ["spam", "spam", "ham", "ham", "ham"]
    >>> pred = ["spam", "ham", "ham", "spam", "ham"]
    >>> accord.precision(gold, pred, positive="spam").estimate
    0.5
    >>> round(accord.precision(gold, pred, average="macro").estimate, 4)
    0.5833
    """
    return _averaged("precision", data, predicted, average, positive, categories, sample_weight,
                     raters)


@register("recall", title="Recall (sensitivity)", family="classification",
          citation=_CITE_SL + _CITE_WILSON, chance_corrected=False, bounds=(0.0, 1.0))
def recall(
    data: Any,
    predicted: Any = None,
    /,
    *,
    average: str | None = None,
    positive: Any = None,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    r"""Of the units of a reference class, the share predicted as that class.

    .. math:: \text{recall}_c = \frac{TP_c}{TP_c + FN_c} = \frac{n_{cc}}{n_{c+}}

    Undefined (``nan``) for a class absent from the reference.

    Parameters
    ----------
    data, predicted : reference and predicted labels, or a table (rows = reference)
    average : {"macro", "micro", "weighted", "binary"}, optional
        Default ``"binary"`` when ``positive`` is given, else ``"macro"`` (the mean
        over the classes where the figure is defined; those left out are listed in
        ``details["left_out"]``). ``"micro"`` pools the counts (equal to accuracy
        for single-label data); ``"weighted"`` weights by reference support.
    positive : label, optional
        The positive class, for ``average="binary"``.

    Examples
    --------
    >>> import accord
    >>> gold = ["spam", "spam", "ham", "ham", "ham"]
    >>> pred = ["spam", "ham", "ham", "spam", "ham"]
    >>> accord.recall(gold, pred, positive="spam").estimate
    0.5
    """
    return _averaged("recall", data, predicted, average, positive, categories, sample_weight,
                     raters)


@register("f1", title="F1 score", family="classification",
          citation="van Rijsbergen, C. J. (1979). Information Retrieval, 2nd ed., ch. 7. "
          "Butterworths; " + _CITE_SL, chance_corrected=False, bounds=(0.0, 1.0))
def f1(
    data: Any,
    predicted: Any = None,
    /,
    *,
    average: str | None = None,
    positive: Any = None,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    r"""The harmonic mean of precision and recall.

    .. math:: F_{1,c} = \frac{2\,TP_c}{2\,TP_c + FP_c + FN_c} = \frac{2 n_{cc}}{n_{c+} + n_{+c}}

    Undefined only for a class absent from both sides; the macro average leaves
    such classes out. ``se`` is the jackknife SE over units; pass
    ``method=accord.Bootstrap(...)`` for the multinomial bootstrap over the cells.

    Parameters
    ----------
    data, predicted : reference and predicted labels, or a table (rows = reference)
    average : {"macro", "micro", "weighted", "binary"}, optional
        Default ``"binary"`` when ``positive`` is given, else ``"macro"`` (the mean
        over the classes where the figure is defined; those left out are listed in
        ``details["left_out"]``). ``"micro"`` pools the counts (equal to accuracy
        for single-label data); ``"weighted"`` weights by reference support.
    positive : label, optional
        The positive class, for ``average="binary"``.

    Examples
    --------
    >>> import accord
    >>> gold = ["spam", "spam", "ham", "ham", "ham"]
    >>> pred = ["spam", "ham", "ham", "spam", "ham"]
    >>> round(accord.f1(gold, pred, average="macro").estimate, 4)
    0.5833
    """
    return _averaged("f1", data, predicted, average, positive, categories, sample_weight, raters)


@register("mcc", title="Matthews correlation (multiclass)", family="classification",
          citation="Matthews, B. W. (1975). Biochimica et Biophysica Acta 405(2), 442-451; "
          "multiclass: Gorodkin, J. (2004). Comparing two K-category assignments by a "
          "K-category correlation coefficient. Computational Biology and Chemistry 28(5-6), "
          "367-374.", chance_corrected=False, bounds=(-1.0, 1.0))
def mcc(
    data: Any,
    predicted: Any = None,
    /,
    *,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    r"""Gorodkin's multiclass Matthews correlation coefficient ``R_K``.

    .. math:: R_K = \frac{n \sum_c n_{cc} - \sum_c n_{c+} n_{+c}}
                         {\sqrt{(n^2 - \sum_c n_{+c}^2)(n^2 - \sum_c n_{c+}^2)}}

    Undefined (``nan``) when the reference or the predictions use one class
    throughout; scikit-learn's ``matthews_corrcoef`` returns 0 there. Not of the
    kappa form ``(p_o - p_e) / (1 - p_e)``, so not graded by kappa benchmark scales.

    Examples
    --------
    >>> import accord
    >>> round(accord.mcc([1, 1, 0, 0, 1], [1, 0, 0, 0, 1]).estimate, 4)
    0.6667
    """
    table = _table(data, predicted, categories, sample_weight, raters, "mcc")
    return _finish("mcc", core.mcc_result(core.Cells.of(table)))
