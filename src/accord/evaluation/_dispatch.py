"""The one entry point, :func:`evaluate`, and the routing of its inputs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accord import _validation as v
from accord.evaluation._inputs import count_pairs
from accord.evaluation._result import Evaluation, evaluation_from_table
from accord.tables.contingency import ContingencyTable

__all__ = ["evaluate"]

ORDERED_LEVELS = ("ordinal", "interval", "ratio")


def evaluate(
    data: Any,
    predicted: Any = None,
    /,
    *,
    categories: Sequence[Any] | None = None,
    positive: Any = None,
    sample_weight: Any = None,
    level: str | None = None,
    weights: Any = None,
) -> Evaluation:
    r"""A system's labels against reference labels: confusion matrix, figures, baselines.

    .. math:: \text{precision}_c = \frac{TP_c}{TP_c + FP_c}, \quad
              \text{recall}_c = \frac{TP_c}{TP_c + FN_c}, \quad
              F_1 = \frac{2\,TP_c}{2\,TP_c + FP_c + FN_c}, \quad
              \text{accuracy} = \frac{\sum_c n_{cc}}{n}

    Parameters
    ----------
    data, predicted : label sequences, or a ContingencyTable
        ``evaluate(gold, predicted)`` as in scikit-learn's metrics (reference
        first), or a confusion matrix whose rows are the reference classes.
        A missing label (None, NaN, "") leaves the unit out, counted in
        ``n_unreferenced`` / ``n_unpredicted`` and in ``notes``.
    categories : sequence, optional
        The classes and their order; classes never used are kept (their F1 is
        undefined and left out of the macro average). A label outside them is an error.
    positive : label, optional
        The positive class of a binary task (the registry's ``average="binary"``).
    sample_weight : sequence of float, optional
        One frequency weight per unit, as in scikit-learn.
    level : {"nominal", "ordinal", "interval", "ratio"}, optional
        An ordered level makes ``kappa`` quadratically weighted (unless ``weights``).
    weights : str or array, optional
        Agreement weights for ``kappa`` (see :func:`accord.cohen_kappa`).

    Returns
    -------
    Evaluation
        Every figure is an :class:`~accord.AgreementResult`; an undefined one is
        ``nan`` with its reason, and one :class:`~accord.DegenerateDataWarning`
        lists them. scikit-learn returns 0 for a 0/0 precision or recall by
        default (``zero_division="warn"``) and 0 for an undefined Matthews
        correlation; accord does not.

    Raises
    ------
    DataError
        Sequences of different lengths, a label outside ``categories``, or no unit
        with both a reference label and a prediction.

    Examples
    --------
    >>> import accord
    >>> gold = ["cat", "cat", "dog", "dog", "bird", "cat", "dog", "bird"]
    >>> pred = ["cat", "dog", "dog", "dog", "bird", "cat", "cat", "cat"]
    >>> ev = accord.evaluate(gold, pred)
    >>> round(ev.accuracy.estimate, 4), round(ev.macro.f1.estimate, 4)
    (0.625, 0.6349)
    >>> ev.per_class["cat"].precision.estimate, ev.per_class["cat"].support
    (0.5, 3)
    >>> ci = ev.accuracy.confidence_interval(0.95)   # Wilson's score interval
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.3057, 0.8632)
    """
    func = "evaluate"
    if level is not None:
        v.choice(level, ("nominal", *ORDERED_LEVELS), param="level", func=func)
    if weights is None and level in ORDERED_LEVELS:
        weights = "quadratic"
    if isinstance(data, ContingencyTable):
        if predicted is not None or sample_weight is not None:
            raise v.fail("predicted", func, "nothing with a ContingencyTable (its rows are the "
                         "reference)", predicted)
        table = data
        if categories is not None and tuple(categories) != table.categories:
            raise v.fail("categories", func, f"the table's categories {list(table.categories)!r}",
                         categories)
        _check_positive(positive, table)
        return evaluation_from_table(table, positive=positive, weights=weights)
    if predicted is None:
        raise v.fail("predicted", func, "the predicted labels, one per unit", predicted)
    counted = count_pairs(data, predicted, categories=categories, sample_weight=sample_weight)
    _check_positive(positive, counted.table)
    return evaluation_from_table(
        counted.table, reference="gold", system="predicted", positive=positive, weights=weights,
        supports=counted.supports, n_unreferenced=counted.n_unreferenced,
        n_unpredicted=counted.n_unpredicted, notes=counted.notes("gold", "predicted"),
    )


def _check_positive(positive: Any, table: ContingencyTable) -> None:
    if positive is not None and positive not in table.categories:
        raise v.fail("positive", "evaluate",
                     f"one of the classes {list(table.categories)!r}", positive)
