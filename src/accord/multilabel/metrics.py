"""Set-valued predictions against a reference: scikit-learn's multilabel metrics.

From the units x labels indicator matrices of the reference ``T`` and the
prediction ``P`` (sufficient statistic: per label ``tp``, ``fp``, ``fn``; per unit
``|T & P|``, ``|T|``, ``|P|``):

- per label: precision ``tp / (tp + fp)``, recall ``tp / (tp + fn)``, F1
  ``2 tp / (2 tp + fp + fn)``, support ``tp + fn``;
- averages: micro (from the summed counts), macro (mean over labels), weighted
  (by support; when the labels with a defined value all have support 0, their
  plain mean, as scikit-learn), samples (per unit, then the mean over units);
- Hamming loss: the share of unit-label cells that differ; subset accuracy: the
  share of units whose predicted set equals the reference set.

These are the definitions of scikit-learn's ``precision_recall_fscore_support``,
``hamming_loss`` and ``accuracy_score`` on multilabel indicator data. A ratio whose
denominator is 0 is ``nan`` (scikit-learn's ``zero_division=np.nan``) and averages
leave such values out; a :class:`~accord.DegenerateDataWarning` names the labels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _sets
from accord.data import _validation as v
from accord.errors import DataError
from accord.inference.bootstrap import Bootstrap
from accord.inference.display import Tabular
from accord.inference.results import ConfidenceInterval
from accord.multilabel._intervals import UnitFeatures, unit_features

__all__ = ["MultilabelEvaluation", "evaluate_multilabel", "evaluate_raters"]

FloatArray = NDArray[np.float64]
_FUNC = "evaluate_multilabel"
_AVERAGES = ("micro", "macro", "weighted", "samples")


@dataclass(frozen=True)
class MultilabelEvaluation(Tabular):
    """Multilabel predictions scored against a reference.

    Attributes
    ----------
    labels : tuple
        The labels, in order.
    per_label : mapping of label to mapping
        ``precision``, ``recall``, ``f1``, ``support``, ``tp``, ``fp``, ``fn``.
    averages : mapping of str to mapping
        ``"micro"``, ``"macro"``, ``"weighted"`` and ``"samples"``, each with
        ``precision``, ``recall`` and ``f1``.
    hamming_loss, subset_accuracy : float
        As scikit-learn defines them for indicator data.
    n_units : int
        Units scored (both a reference and a prediction).
    n_left_out : int
        Units left out because the reference or the prediction is missing.
    ceiling : HumanCeiling or None
        From :func:`accord.evaluate` on Annotations with human raters: the system's
        micro F1 (or the figure asked for) beside each human's against the same
        reference, on the same units, with paired bootstrap differences.
    """

    labels: tuple[Any, ...]
    per_label: Mapping[Any, Mapping[str, float]]
    averages: Mapping[str, Mapping[str, float]]
    hamming_loss: float
    subset_accuracy: float
    n_units: int
    n_left_out: int = 0
    notes: tuple[str, ...] = field(default=())
    units: UnitFeatures | None = field(default=None, repr=False, compare=False)
    ceiling: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "per_label", MappingProxyType(
            {k: MappingProxyType(dict(x)) for k, x in self.per_label.items()}))
        object.__setattr__(self, "averages", MappingProxyType(
            {k: MappingProxyType(dict(x)) for k, x in self.averages.items()}))

    def estimates(self) -> dict[str, float]:
        """Every figure by the key :meth:`intervals` uses: ``per_label.<label>.f1``,
        ``micro.precision``, ..., ``hamming_loss``, ``subset_accuracy``."""
        out = {f"per_label.{label}.{k}": float(row[k]) for label, row in self.per_label.items()
               for k in ("precision", "recall", "f1")}
        out.update({f"{avg}.{k}": float(row[k]) for avg, row in self.averages.items()
                    for k in ("precision", "recall", "f1")})
        out.update(hamming_loss=self.hamming_loss, subset_accuracy=self.subset_accuracy)
        return out

    def intervals(self, confidence_level: float = 0.95, *,
                  method: Bootstrap | None = None) -> dict[str, ConfidenceInterval]:
        """An interval for every figure of :meth:`estimates`, by the same keys.

        By default Wilson's interval for the proportions of independent units
        (subset accuracy; per label, precision and recall) and a bootstrap over units
        (``Bootstrap(9999, rng=0)``) for the rest, all figures from the same
        resamples; with ``method=Bootstrap(...)`` every figure is bootstrapped.
        Micro precision and recall and the Hamming loss count (unit, label) cells,
        which are not independent within a unit, so they are bootstrapped by unit.
        An undefined figure has ``nan`` limits; resamples where a figure is
        undefined are left out and counted in ``n_excluded``.

        Examples
        --------
        >>> import accord
        >>> ev = accord.evaluate_multilabel([("a",), ("a", "b"), ("b",), ()] * 5,
        ...                                 [("a",), ("a",), ("a", "b"), ()] * 5)
        >>> ci = ev.intervals()["subset_accuracy"]   # 10 of 20 units: Wilson
        >>> round(ci.low, 4), round(ci.high, 4), ci.method
        (0.2993, 0.7007, 'wilson')
        """
        from accord.multilabel._intervals import intervals, unit_features

        level = v.confidence_level(confidence_level, func="MultilabelEvaluation.intervals")
        if method is not None and not isinstance(method, Bootstrap):
            raise v.fail("method", "MultilabelEvaluation.intervals",
                         "None or an accord.Bootstrap(...)", method)
        units = self.units
        if units is None:
            units = unit_features(np.zeros((0, len(self.labels)), dtype=bool),
                                  np.zeros((0, len(self.labels)), dtype=bool))
        return intervals(units, self.labels, self.estimates(), level, method)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined figures are ``None``."""
        return {
            "labels": [str(x) for x in self.labels],
            "per_label": {str(k): _clean(x) for k, x in self.per_label.items()},
            "averages": {k: _clean(x) for k, x in self.averages.items()},
            "hamming_loss": self.hamming_loss,
            "subset_accuracy": self.subset_accuracy,
            "n_units": self.n_units,
            "n_left_out": self.n_left_out,
            "notes": list(self.notes),
            "ceiling": None if self.ceiling is None else self.ceiling.to_dict(),
        }


def _clean(m: Mapping[str, float]) -> dict[str, float | None]:
    return {k: (None if isinstance(x, float) and math.isnan(x) else x) for k, x in m.items()}


def evaluate_multilabel(
    reference: Any, predicted: Any, /, *, labels: Sequence[Any] | None = None,
    separator: str | None = None,
) -> MultilabelEvaluation:
    """Score set-valued predictions against a reference, as scikit-learn does.

    Parameters
    ----------
    reference, predicted : sequence of sets, or units x labels 0/1 arrays
        One entry per unit, aligned: a set, frozenset, tuple or list of labels (a
        single label is a one-label set; ``None`` = missing, and the unit is left
        out), or a 2-D indicator array (then ``labels`` names its columns).
    labels : sequence, optional
        The labels and their order; labels nobody used are kept (their scores are
        undefined). Default: every label used, sorted.
    separator : str, optional
        Text entries hold several labels joined by this string (``"toxic;spam"``).

    Returns
    -------
    MultilabelEvaluation

    References
    ----------
    scikit-learn ``precision_recall_fscore_support``, ``hamming_loss``,
    ``accuracy_score`` (multilabel indicator input); Tsoumakas, G. & Katakis, I.
    (2007). Multi-label classification: an overview. IJDWM 3(3).

    Examples
    --------
    >>> import accord
    >>> ref = [("a",), ("a", "b"), ("b",), ()]
    >>> pred = [("a",), ("a",), ("a", "b"), ()]
    >>> ev = accord.evaluate_multilabel(ref, pred)
    >>> ev.per_label["b"]["recall"], ev.hamming_loss, ev.subset_accuracy
    (0.5, 0.25, 0.5)
    >>> round(ev.averages["micro"]["f1"], 4)
    0.75
    """
    t, p, names, left_out = _indicators(reference, predicted, labels, separator)
    tp = (t & p).sum(axis=0).astype(np.float64)
    fp = (~t & p).sum(axis=0).astype(np.float64)
    fn = (t & ~p).sum(axis=0).astype(np.float64)
    precision, recall, f1 = _prf(tp, fp, fn)
    support = tp + fn
    per_label = {
        name: {"precision": float(precision[j]), "recall": float(recall[j]),
               "f1": float(f1[j]), "support": float(support[j]), "tp": float(tp[j]),
               "fp": float(fp[j]), "fn": float(fn[j])}
        for j, name in enumerate(names)
    }
    averages = _averages(t, p, tp, fp, fn, precision, recall, f1)
    notes = _warn_undefined(names, precision, recall)
    n = t.shape[0]
    return MultilabelEvaluation(
        labels=names, per_label=per_label, averages=averages,
        hamming_loss=float((t != p).mean()) if t.size else math.nan,
        subset_accuracy=float((t == p).all(axis=1).mean()) if n else math.nan,
        n_units=n, n_left_out=left_out, notes=notes, units=unit_features(t, p),
    )


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(den > 0, num / den, np.nan), dtype=np.float64)


def _prf(tp: FloatArray, fp: FloatArray, fn: FloatArray) -> tuple[FloatArray, ...]:
    return _ratio(tp, tp + fp), _ratio(tp, tp + fn), _ratio(2.0 * tp, 2.0 * tp + fp + fn)


def _mean(x: FloatArray, w: FloatArray | None = None) -> float:
    ok = ~np.isnan(x)
    if not ok.any():
        return math.nan
    if w is None:
        return float(x[ok].mean())
    total = float(w[ok].sum())
    # as scikit-learn's _nanaverage: when the defined values all weigh 0, their plain mean
    return float(x[ok] @ w[ok] / total) if total > 0 else float(x[ok].mean())


def _averages(t: NDArray[np.bool_], p: NDArray[np.bool_], tp: FloatArray, fp: FloatArray,
              fn: FloatArray, *per: FloatArray) -> dict[str, dict[str, float]]:
    keys = ("precision", "recall", "f1")
    micro = _prf(np.asarray([tp.sum()]), np.asarray([fp.sum()]), np.asarray([fn.sum()]))
    inter = (t & p).sum(axis=1).astype(np.float64)
    n_t = t.sum(axis=1).astype(np.float64)
    n_p = p.sum(axis=1).astype(np.float64)
    samples = (_ratio(inter, n_p), _ratio(inter, n_t), _ratio(2.0 * inter, n_t + n_p))
    support = tp + fn
    return {
        "micro": {k: float(x[0]) for k, x in zip(keys, micro)},
        "macro": {k: _mean(x) for k, x in zip(keys, per)},
        "weighted": {k: _mean(x, support) for k, x in zip(keys, per)},
        "samples": {k: _mean(x) for k, x in zip(keys, samples)},
    }


def _warn_undefined(names: tuple[Any, ...], precision: FloatArray,
                    recall: FloatArray) -> tuple[str, ...]:
    notes = []
    for what, x, why in (("precision", precision, "never predicted"),
                         ("recall", recall, "absent from the reference")):
        bad = [names[j] for j in np.flatnonzero(np.isnan(x))]
        if bad:
            shown = ", ".join(repr(b) for b in bad[:5]) + (" ..." if len(bad) > 5 else "")
            notes.append(f"{what} is undefined for label(s) {shown} ({why}); "
                         "averages leave it out")
    for note in notes:
        v.warn_undefined(_FUNC, note)
    return tuple(notes)


def evaluate_raters(annotations: Any, reference: Any, *,
                    labels: Sequence[Any] | None = None) -> dict[Any, MultilabelEvaluation]:
    """Every other rater's label sets scored against the ``reference`` rater's.

    Each rater is scored on the units both they and the reference rated (the
    others are counted in ``n_left_out``).

    Examples
    --------
    >>> import accord
    >>> ann = accord.Annotations.from_wide({"gold": ["a;b", "b", "a"], "model": ["a", "b", "b"]},
    ...                                    separator=";")
    >>> ev = evaluate_raters(ann, "gold")["model"]
    >>> ev.per_label["a"]["recall"], ev.subset_accuracy
    (0.5, 0.3333333333333333)
    """
    from accord.data.annotations import Annotations

    if not isinstance(annotations, Annotations):
        raise DataError(f"evaluate_raters needs accord.Annotations; got "
                        f"{type(annotations).__name__}.")
    if reference not in annotations.raters:
        raise DataError(f"reference rater {reference!r} not found; the raters are "
                        f"{list(annotations.raters)!r}.")
    sets = annotations.as_sets()
    codes = sets.wide()
    cats = list(sets.categories) + [None]  # code -1 (not rated) picks None
    ref = codes[:, sets.raters.index(reference)]
    names = labels if labels is not None else sets.labels
    return {
        rater: evaluate_multilabel([cats[c] for c in ref], [cats[c] for c in codes[:, j]],
                                   labels=names)
        for j, rater in enumerate(sets.raters) if rater != reference
    }


# --------------------------------------------------------------------- input
def _indicators(reference: Any, predicted: Any, labels: Sequence[Any] | None,
                separator: str | None) -> tuple[NDArray[np.bool_], NDArray[np.bool_],
                                                tuple[Any, ...], int]:
    if isinstance(reference, np.ndarray) and reference.ndim == 2:
        return _arrays(reference, predicted, labels)
    ref = _set_list(reference, "reference", separator)
    pred = _set_list(predicted, "predicted", separator)
    if len(ref) != len(pred):
        raise DataError(f"reference and predicted must have one entry per unit; got "
                        f"{len(ref)} and {len(pred)}.")
    pairs = [(a, b) for a, b in zip(ref, pred) if a is not None and b is not None]
    if not pairs:
        raise DataError(f"{_FUNC}: no unit has both a reference and a prediction.")
    distinct = list(dict.fromkeys([a for a, _ in pairs] + [b for _, b in pairs]))
    names, member = _sets.membership(distinct, labels)
    index = {s: i for i, s in enumerate(distinct)}
    t = member[[index[a] for a, _ in pairs]]
    p = member[[index[b] for _, b in pairs]]
    return t, p, names, len(ref) - len(pairs)


def _set_list(x: Any, name: str, separator: str | None) -> list[tuple[Any, ...] | None]:
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        raise DataError(f"{name} must be a sequence with one set of labels per unit; "
                        f"got {type(x).__name__}.")
    return [_sets.canonical(c, separator) for c in x]


def _arrays(reference: Any, predicted: Any, labels: Sequence[Any] | None) -> tuple[
        NDArray[np.bool_], NDArray[np.bool_], tuple[Any, ...], int]:
    t = np.asarray(reference)
    p = np.asarray(predicted)
    if p.shape != t.shape:
        raise DataError(f"reference and predicted indicator arrays must have one shape; got "
                        f"{t.shape} and {p.shape}.")
    for arr, name in ((t, "reference"), (p, "predicted")):
        if arr.size and not np.isin(arr, (0, 1)).all():
            raise DataError(f"{name} must be a 0/1 indicator array (units x labels).")
    names = tuple(labels) if labels is not None else tuple(range(t.shape[1]))
    if len(names) != t.shape[1]:
        raise DataError(f"labels has {len(names)} names but the arrays have {t.shape[1]} "
                        "columns.")
    return t.astype(bool), p.astype(bool), names, 0
