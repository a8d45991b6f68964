"""The one entry point, :func:`evaluate`, and the routing of its inputs.

:func:`route` is the only place that looks at what kind of data came in; each
branch turns it into one confusion matrix per system and hands it to
:func:`~accord.evaluation._result.evaluation_from_table`. Another kind of data
(spans, set-valued labels) gets its own branch here and its own result type.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from accord.coefficients._classification_core import resolve_label
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError, DegenerateDataWarning, InsufficientDataError
from accord.evaluation import _annotations as ann_mod
from accord.evaluation._inputs import Counted, count_pairs
from accord.evaluation._result import Evaluation, evaluation_from_table
from accord.evaluation._spans import evaluate_span_data, is_span_data
from accord.evaluation.ceiling import Evaluations
from accord.inference.bootstrap import Bootstrap
from accord.inference.ceiling import HumanCeiling, ceiling_for
from accord.inference.results import AgreementResult
from accord.multilabel.metrics import MultilabelEvaluation
from accord.readers.boxes import BoxTable
from accord.readers.spans import SpanTable
from accord.spans.evaluate import SpanEvaluation
from accord.tables.contingency import ContingencyTable

if TYPE_CHECKING:  # the box branch imports the images family when boxes come in
    from accord.images.detection import BoxDetection

__all__ = ["evaluate"]

ORDERED_LEVELS = ("ordinal", "interval", "ratio")
CEILING_BOOTSTRAP = Bootstrap(n_resamples=9999, rng=0)
#: What ``evaluate`` returns on set-valued Annotations.
SetEvaluations = MultilabelEvaluation | dict[Any, MultilabelEvaluation]
if TYPE_CHECKING:
    #: What evaluate returns, by input: labels, systems, spans, label sets, boxes.
    Evaluated = (Evaluation | Evaluations | SpanEvaluation | dict[str, SpanEvaluation]
                 | SetEvaluations | BoxDetection | dict[str, BoxDetection])


@dataclass(frozen=True)
class _Options:
    categories: Sequence[Any] | None
    positive: Any
    sample_weight: Any
    weights: Any
    ceiling_figure: str | None
    method: Bootstrap
    mode: str | None = None
    label_options: tuple[str, ...] = ()  # the label options given (refused for spans)


@overload
def evaluate(data: BoxTable, predicted: None = None, /, *, reference: str, systems: str,
             ceiling_figure: str | None = ..., method: Bootstrap | None = ...
             ) -> BoxDetection: ...
@overload
def evaluate(data: BoxTable, predicted: None = None, /, *, reference: str,
             systems: list[str] | tuple[str, ...], ceiling_figure: str | None = ...,
             method: Bootstrap | None = ...) -> dict[str, BoxDetection]: ...
@overload
def evaluate(data: SpanTable, predicted: None = None, /, *, reference: str, systems: str,
             mode: str | None = ...) -> SpanEvaluation: ...
@overload
def evaluate(data: SpanTable, predicted: None = None, /, *, reference: str,
             systems: list[str] | tuple[str, ...],
             mode: str | None = ...) -> dict[str, SpanEvaluation]: ...
@overload
def evaluate(data: Annotations, predicted: None = None, /, *,
             categories: Sequence[Any] | None = ..., positive: Any = ...,
             sample_weight: Any = ..., level: str | None = ...,
             weights: Any = ..., reference: Any = ..., systems: str,
             ceiling_figure: str | None = ..., method: Bootstrap | None = ...,
             mode: str | None = ...) -> Evaluation: ...
@overload
def evaluate(data: Annotations, predicted: None = None, /, *,
             categories: Sequence[Any] | None = ..., positive: Any = ...,
             sample_weight: Any = ..., level: str | None = ...,
             weights: Any = ..., reference: Any = ..., systems: Sequence[Any] | None = ...,
             ceiling_figure: str | None = ..., method: Bootstrap | None = ...,
             mode: str | None = ...) -> Evaluations: ...
@overload
def evaluate(data: Any, predicted: Mapping[str, Any], /, *,
             categories: Sequence[Any] | None = ..., positive: Any = ...,
             sample_weight: Any = ..., level: str | None = ..., weights: Any = ...,
             reference: None = ..., systems: None = ..., ceiling_figure: str | None = ...,
             method: Bootstrap | None = ...) -> Evaluations: ...
@overload
def evaluate(data: Any, predicted: Any = ..., /, *, categories: Sequence[Any] | None = ...,
             positive: Any = ..., sample_weight: Any = ..., level: str | None = ...,
             weights: Any = ..., reference: None = ..., systems: None = ...,
             ceiling_figure: str | None = ..., method: Bootstrap | None = ...) -> Evaluation: ...


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
    reference: Any = None,
    systems: Any = None,
    ceiling_figure: str | None = None,
    method: Bootstrap | None = None,
    mode: str | None = None,
) -> Evaluated:
    r"""A system's labels against reference labels: confusion matrix, figures, baselines.

    .. math:: \text{precision}_c = \frac{TP_c}{TP_c + FP_c}, \quad
              \text{recall}_c = \frac{TP_c}{TP_c + FN_c}, \quad
              F_1 = \frac{2\,TP_c}{2\,TP_c + FP_c + FN_c}, \quad
              \text{accuracy} = \frac{\sum_c n_{cc}}{n}

    Parameters
    ----------
    data, predicted : label sequences, a ContingencyTable, or Annotations
        ``evaluate(gold, predicted)`` as in scikit-learn's metrics (reference
        first); ``predicted`` may be a mapping ``{system name: labels}`` to
        evaluate several systems. A ``ContingencyTable`` is a confusion matrix
        whose rows are the reference classes. A missing label (None, NaN, "")
        leaves the unit out, counted in ``n_unreferenced`` / ``n_unpredicted``
        and in ``notes``.
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

    reference : rater name, optional
        With Annotations: the reference rater (default: the one rater of kind
        ``"gold"``, as readers mark Label Studio ground truth or INCEpTION curation).
    systems : rater name or sequence of names, optional
        With Annotations: the raters to evaluate (default: those of kind ``"model"``
        or ``"llm"``). One name returns an ``Evaluation``; otherwise ``Evaluations``.
        The remaining raters of kind ``"human"`` give each system a human ceiling.
        When the ratings are sets of labels (``ann.set_valued``), each system's sets
        are scored against the reference's by :func:`accord.evaluate_multilabel`:
        a ``MultilabelEvaluation`` for one name, else a dict of them (``categories``
        are the labels; the single-label options are refused). Span data go to
        :func:`accord.evaluate_spans`. Both get the human ceiling too. A box table
        (:func:`accord.readers.boxes.box_table`) goes to :func:`accord.evaluate_boxes`,
        once per system (reference and systems named), a ``BoxDetection`` for one name,
        else a dict of them; the other annotators with no scored box give the ceiling.
    ceiling_figure : str, optional
        The figure of the human ceiling: for labels a key of ``Evaluation.results()``
        (default ``"accuracy"``; e.g. ``"macro.f1"``, ``"kappa"``); for spans
        and boxes ``"f1"`` (default), ``"precision"`` or ``"recall"``; for label sets
        ``"micro.f1"`` (default), ``"micro.precision"``, ``"micro.recall"`` or
        ``"subset_accuracy"``.
    method : Bootstrap, optional
        The paired bootstrap of the ceiling's comparisons (default 9999
        resamples, seed 0).
    mode : {"strict", "exact", "partial", "type"}, optional
        Span data only (a ``SpanTable``, or Annotations read from a span export):
        when a system's span matches the reference's (default ``"strict"``). Each
        system is scored by :func:`accord.evaluate_spans`, which returns a
        ``SpanEvaluation`` (a dict of them for several systems); the label options
        (``categories``, ``positive``, ``sample_weight``, ``level``, ``weights``,
        ``method``) do not apply to spans and are refused.

    Returns
    -------
    Evaluation or Evaluations
        One ``Evaluation`` per system (``Evaluations`` maps system names to them and
        adds McNemar's test and paired comparisons). Every figure is an
        :class:`~accord.AgreementResult`; an undefined one is
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
    The example of scikit-learn's ``classification_report`` documentation
    (precision 0.50, 0.00, 1.00; recall 1.00, 0.00, 0.67; macro F1 0.49):

    >>> import accord
    >>> ev = accord.evaluate([0, 1, 2, 2, 2], [0, 0, 2, 2, 1])
    >>> [round(ev.per_class[c].precision.estimate, 2) for c in (0, 1, 2)]
    [0.5, 0.0, 1.0]
    >>> [round(ev.per_class[c].recall.estimate, 2) for c in (0, 1, 2)]
    [1.0, 0.0, 0.67]
    >>> ev.accuracy.estimate, round(ev.macro.f1.estimate, 2), round(ev.weighted.f1.estimate, 2)
    (0.6, 0.49, 0.61)

    Text labels, the Wilson interval of the accuracy:

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
    if method is not None and not isinstance(method, Bootstrap):
        raise v.fail("method", func, "an accord.Bootstrap(...) for the paired comparisons", method)
    given = tuple(k for k, x in (("categories", categories), ("positive", positive),
                                 ("sample_weight", sample_weight), ("level", level),
                                 ("weights", weights), ("method", method)) if x is not None)
    if mode is not None and not is_span_data(data):
        raise v.fail("mode", func, "None for labels (it is the matching mode of span data)",
                     mode)
    level = level or (data.level if isinstance(data, Annotations) else None)
    if weights is None and level in ORDERED_LEVELS:
        weights = "quadratic"
    opts = _Options(categories, positive, sample_weight, weights, ceiling_figure,
                    method or CEILING_BOOTSTRAP, mode, given)
    return route(data, predicted, opts, reference=reference, systems=systems)


def route(data: Any, predicted: Any, opts: _Options, *, reference: Any, systems: Any
          ) -> Evaluated:
    """Send each kind of input to the branch that counts it.

    The branches, in order: ``Annotations`` (reference and systems are raters,
    chosen by name or by kind; humans give the ceiling), a ``ContingencyTable``
    (rows = reference), a mapping of systems, and two label sequences. Each
    branch builds one confusion matrix per system and calls
    :func:`~accord.evaluation._result.evaluation_from_table`.

    To route another kind of data here (span annotations, set-valued labels),
    add a branch *before* the generic ones that recognises it (e.g.
    ``isinstance(data, Annotations) and data.spans is not None``), computes its
    own sufficient statistic and returns its own frozen result type; the
    single-label branches need not change.
    """
    func = "evaluate"
    if isinstance(data, BoxTable):  # boxes: detection P/R/F1 (and AP) over images
        from accord.evaluation._boxes import evaluate_box_data

        return evaluate_box_data(data, predicted, opts.label_options, reference=reference,
                                 systems=systems, method=opts.method,
                                 ceiling_figure=opts.ceiling_figure)
    if is_span_data(data):  # spans: precision, recall and F1 in a matching mode
        return evaluate_span_data(data, predicted, opts.mode, opts.label_options,
                                  reference=reference, systems=systems, method=opts.method,
                                  ceiling_figure=opts.ceiling_figure)
    if isinstance(data, Annotations) and data.set_valued and predicted is None:
        from accord.evaluation._multilabel import evaluate_sets

        return evaluate_sets(data, reference, systems, categories=opts.categories, unused={
            "positive": opts.positive, "sample_weight": opts.sample_weight,
            "weights": opts.weights}, ceiling_figure=opts.ceiling_figure, method=opts.method)
    if isinstance(data, Annotations):
        if predicted is not None:
            raise v.fail("predicted", func, "nothing with Annotations (name the raters with "
                         "reference= and systems=)", predicted)
        return _from_annotations(data, opts, reference, systems)
    for name, val in (("reference", reference), ("systems", systems)):
        if val is not None:
            raise v.fail(name, func, "None unless the data are Annotations", val)
    if isinstance(data, ContingencyTable):
        return _from_table(data, predicted, opts)
    if isinstance(predicted, Mapping):
        return _from_mapping(data, predicted, opts)
    if predicted is None:
        raise v.fail("predicted", func, "the predicted labels, one per unit", predicted)
    counted = count_pairs(data, predicted, categories=opts.categories,
                          sample_weight=opts.sample_weight)
    return _evaluation(counted, "gold", "predicted", opts)


def _evaluation(counted: Counted, reference: str, system: str, opts: _Options) -> Evaluation:
    positive = _check_positive(opts.positive, counted.table)
    return evaluation_from_table(
        counted.table, reference=reference, system=system, positive=positive,
        weights=opts.weights, supports=counted.supports, n_unreferenced=counted.n_unreferenced,
        n_unpredicted=counted.n_unpredicted, notes=counted.notes(reference, system),
    )


def _from_table(table: ContingencyTable, predicted: Any, opts: _Options) -> Evaluation:
    if predicted is not None or opts.sample_weight is not None:
        raise v.fail("predicted", "evaluate", "nothing with a ContingencyTable (its rows are "
                     "the reference)", predicted)
    if opts.categories is not None and tuple(opts.categories) != table.categories:
        raise v.fail("categories", "evaluate",
                     f"the table's categories {list(table.categories)!r}", opts.categories)
    return _evaluation(Counted(table, None, 0, 0), "reference", "system", opts)


def _from_mapping(gold: Any, predicted: Mapping[str, Any], opts: _Options) -> Evaluations:
    if not predicted:
        raise v.fail("predicted", "evaluate", "at least one system's labels", predicted)
    out = {}
    for name, labels in predicted.items():
        counted = count_pairs(gold, labels, categories=opts.categories,
                              sample_weight=opts.sample_weight, names=("gold", str(name)))
        out[name] = _evaluation(counted, "gold", str(name), opts)
    return Evaluations(out, "gold")


def _from_annotations(ann: Annotations, opts: _Options, reference: Any,
                      systems: Any) -> Evaluation | Evaluations:
    if opts.sample_weight is not None:
        raise v.fail("sample_weight", "evaluate", "None with Annotations", opts.sample_weight)
    if opts.categories is not None:
        ann = ann.with_categories(opts.categories)
    roles = ann_mod.roles(ann, reference, systems)
    out = {}
    for system in roles.systems:
        counted = ann_mod.count_raters(ann, roles.reference, system)
        ev = _evaluation(counted, str(roles.reference), str(system), opts)
        if roles.humans:
            ev = replace(ev, ceiling=_ceiling(ann, roles, system, ev, opts))
        out[system] = ev
    if isinstance(systems, (str, int)):
        return out[systems]
    return Evaluations(out, roles.reference, roles.humans)


def _ceiling(ann: Annotations, roles: ann_mod.Roles, system: Any, ev: Evaluation,
             opts: _Options) -> HumanCeiling:
    figure = opts.ceiling_figure or "accuracy"
    results = ev.results()
    if figure not in results:
        raise v.fail("ceiling_figure", "evaluate", "a figure name such as 'accuracy', "
                     "'macro.f1' or 'kappa'", figure)
    scope = ann_mod.shared_units(ann, [roles.reference, system])
    humans: dict[str, AgreementResult] = {}
    quiet = replace(opts, positive=None)
    for human in roles.humans:
        try:
            counted = ann_mod.count_raters(ann, roles.reference, human, units=scope)
        except InsufficientDataError:
            continue  # this annotator labelled none of the system's units
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            human_ev = _evaluation(counted, str(roles.reference), str(human), quiet)
        humans[str(human)] = human_ev.results()[figure]
    return ceiling_for(str(system), results[figure], humans,
                       _human_agreement(ann, roles.humans, scope), figure, opts.method)


def _human_agreement(ann: Annotations, humans: Sequence[Any],
                     scope: np.ndarray[Any, Any]) -> AgreementResult | None:
    """Pairwise percent agreement among the humans on the system's units."""
    from accord.coefficients.two_raters import percent_agreement

    if len(humans) < 2:
        return None
    wide = ann.wide()[scope][:, [ann.raters.index(h) for h in humans]]
    labels = [[None if c < 0 else ann.categories[c] for c in row] for row in wide.tolist()]
    names = [str(h) for h in humans]
    rows = {name: [row[i] for row in labels] for i, name in enumerate(names)}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            return percent_agreement(rows)
    except (DataError, InsufficientDataError):
        return None


def _check_positive(positive: Any, table: ContingencyTable) -> Any:
    if positive is None:
        return None
    label = resolve_label(positive, table.categories)
    if label is None:
        raise v.fail("positive", "evaluate",
                     f"one of the classes {list(table.categories)!r}", positive)
    return label

