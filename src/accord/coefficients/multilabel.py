"""Agreement on set-valued (multi-label) ratings.

Two views of the same data (Artstein & Poesio 2008, section 4.4; Passonneau 2006):

- **per label**: each label is a yes/no question every rater answered on every
  unit they rated (present in the rater's set or not); any agreement coefficient
  of the registry is computed for each label, with its own SE and interval, and
  summarised as the macro mean over labels and a pooled coefficient over all
  (unit, label) items;
- **per set**: Krippendorff's alpha with the MASI and Jaccard distances between
  the sets (:mod:`accord.distances`), the mean pairwise Jaccard and Dice
  similarity of two raters' sets, and the maximum-percentage agreement of
  Veronis (1998) as DKPro Agreement computes it.

Single-label data are the special case of one-label sets: the per-label view is
then each category against the rest (per-category alpha or kappa).

The count runs on the ratings' set codes and the sets x labels membership bits
(:class:`~accord.tables.indicators.LabelIndicators`): per-unit label counts by
``reduceat``, intersections by popcounts; nothing loops over units in Python, and
no units x raters matrix is built except for coefficients that need each rater's
identity (two-rater ones, Conger's and Light's kappa).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._registry import REGISTRY
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError, DegenerateDataWarning
from accord.inference.bootstrap import Bootstrap
from accord.inference.display import Tabular
from accord.inference.resampling import Resampling, pattern_index
from accord.inference.results import AgreementResult, ConfidenceInterval
from accord.tables.coincidence import CoincidenceMatrix
from accord.tables.contingency import ContingencyTable
from accord.tables.indicators import LabelIndicators
from accord.tables.rater_counts import RaterCounts

__all__ = ["MultilabelAgreement", "multilabel_agreement"]

_FUNC = "multilabel_agreement"
#: Coefficients computed from the units x categories counts alone.
_COUNT_BASED = frozenset({"fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement"})
_PRESENCE = (0, 1)
#: Most distinct sets for which the MASI and Jaccard alphas are computed here.
MAX_SETS_FOR_ALPHA = 10_000


@dataclass(frozen=True)
class MultilabelAgreement(Tabular):
    """Agreement on set-valued ratings, per label and per set.

    Attributes
    ----------
    coefficient : str
        The registry name of the per-label coefficient.
    labels : tuple
        The labels, in order.
    per_label : mapping of label to AgreementResult
        The coefficient on the presence (1) or absence (0) of each label.
    pooled : AgreementResult
        The coefficient on all (unit, label) items together: summed tables for
        two-rater coefficients, summed coincidences for alpha, the stacked items
        otherwise. Its interval treats the items as independent, which the labels
        of one unit are not: read it as descriptive.
    macro : float
        Mean of the defined per-label estimates (``nan`` when none is defined);
        ``macro_left_out`` names the labels whose estimate is undefined.
    masi_alpha, jaccard_alpha : AgreementResult or None
        Krippendorff's alpha on the sets with the MASI and Jaccard distances;
        ``None`` when the data hold more than :data:`MAX_SETS_FOR_ALPHA` distinct
        sets (``D_e`` needs every pair of distinct sets; ``details["set_alpha"]``
        says so). Call ``krippendorff_alpha(data, level="masi")`` to compute it anyway.
    mean_jaccard, mean_dice : AgreementResult
        Mean similarity ``|A & B| / |A | B|`` and ``2 |A & B| / (|A| + |B|)`` over every
        pair of raters who both rated a unit (two empty sets count as identical, 1),
        with the SE of a ratio estimator over units (pairs of one unit are not
        independent) and bootstrap/jackknife intervals by unit.
    max_percentage : AgreementResult
        Share of ratings on units whose raters all share at least one label,
        ``sum_u r_u [cap_i A_ui != {}] / sum_u r_u`` over units rated at least twice
        (DKPro's ``MaxPercentageAgreement``; two empty sets share no label), with
        the same ratio-estimator SE.
    n_units, n_raters : int
        Units and raters in the data.
    """

    coefficient: str
    labels: tuple[Any, ...]
    per_label: Mapping[Any, AgreementResult]
    pooled: AgreementResult
    macro: float
    macro_left_out: tuple[Any, ...]
    masi_alpha: AgreementResult | None
    jaccard_alpha: AgreementResult | None
    mean_jaccard: AgreementResult
    mean_dice: AgreementResult
    max_percentage: AgreementResult
    n_units: int
    n_raters: int
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "per_label", MappingProxyType(dict(self.per_label)))
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def macro_interval(self, confidence_level: float = 0.95, *,
                       method: Bootstrap | None = None) -> ConfidenceInterval:
        """A bootstrap interval for ``macro``, resampling units with every label together.

        Each resample draws units with replacement and recomputes every per-label
        coefficient on the same units; the replicate is the mean over the labels
        defined on the full data (a resample where one of them is undefined is left
        out and counted in ``n_excluded``). Default ``Bootstrap(9999, rng=0)``.

        Examples
        --------
        >>> import accord
        >>> rows = [[("a",), ("a", "b")], [("b",), ("b",)], [(), ()], [("a",), ("a",)],
        ...         [("a", "b"), ("b",)], [("b",), ()], [("a",), ("a",)], [(), ("b",)]]
        >>> res = accord.multilabel_agreement(rows)
        >>> ci = res.macro_interval(method=accord.Bootstrap(n_resamples=999, rng=1))
        >>> ci.method, ci.low <= res.macro <= ci.high
        ('bootstrap-percentile', True)
        """
        from accord.coefficients._multilabel_macro import macro_interval

        level = v.confidence_level(confidence_level, func="MultilabelAgreement.macro_interval")
        if method is not None and not isinstance(method, Bootstrap):
            raise v.fail("method", "MultilabelAgreement.macro_interval",
                         "None or an accord.Bootstrap(...)", method)
        boot = method if method is not None else Bootstrap(n_resamples=9999, rng=0)
        return macro_interval(list(self.per_label.values()), self.macro, level, boot)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined figures are ``None``."""
        return {
            "coefficient": self.coefficient,
            "labels": [str(x) for x in self.labels],
            "per_label": {str(k): r.to_dict() for k, r in self.per_label.items()},
            "pooled": self.pooled.to_dict(),
            "macro": _num(self.macro),
            "macro_left_out": [str(x) for x in self.macro_left_out],
            "masi_alpha": None if self.masi_alpha is None else self.masi_alpha.to_dict(),
            "jaccard_alpha": None if self.jaccard_alpha is None else self.jaccard_alpha.to_dict(),
            "mean_jaccard": self.mean_jaccard.to_dict(),
            "mean_dice": self.mean_dice.to_dict(),
            "max_percentage": self.max_percentage.to_dict(),
            "n_units": self.n_units,
            "n_raters": self.n_raters,
            "details": dict(self.details),
        }


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def multilabel_agreement(
    data: Any, /, *, coefficient: str = "krippendorff_alpha",
    labels: Sequence[Any] | None = None,
) -> MultilabelAgreement:
    """Agreement on set-valued ratings: per label (with intervals) and on the sets.

    Parameters
    ----------
    data : Annotations or units x raters table
        Cells are sets, frozensets, tuples or lists of labels (a single label is a
        one-label set); ``None``/``NaN`` = not rated, an empty set = no label
        applies. Read joined cells with ``Annotations.from_wide(..., separator=";")``
        and one row per label with ``Annotations.from_long(..., multilabel=True)``.
        Single-label data give each category against the rest.
    coefficient : str
        Any registry coefficient for the per-label yes/no ratings (default
        Krippendorff's alpha, which takes any number of raters and missing
        ratings); a two-rater coefficient such as ``"cohen_kappa"`` needs exactly
        two raters.
    labels : sequence, optional
        The labels and their order (labels nobody used are kept and are undefined
        for chance-corrected coefficients). Default: every label used, sorted.

    Returns
    -------
    MultilabelAgreement
        ``per_label[label]`` is an :class:`~accord.AgreementResult` with
        ``confidence_interval()``; see the class for the summaries.

    Notes
    -----
    A label that is present (or absent) in every rating gives an undefined
    chance-corrected coefficient: ``nan`` with its reason, left out of ``macro``
    and named in ``macro_left_out``, with one :class:`~accord.DegenerateDataWarning`
    for all such labels.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI). LREC.
    Veronis, J. (1998). A study of polysemy judgements and inter-annotator agreement.
    SENSEVAL-1. Artstein, R. & Poesio, M. (2008). Inter-coder agreement for
    computational linguistics. Computational Linguistics 34(4).

    Examples
    --------
    DKPro Agreement's set-annotation example (nine items, two raters):

    >>> import accord
    >>> data = [[(), ()], [("A",), ()], [("A",), ("A",)], [("A",), ("B",)],
    ...         [("A", "B"), ("A",)], [("A", "B"), ("A", "C")],
    ...         [("A", "B", "C"), ("A", "B", "C")], [("C",), ("A", "C")], [("C",), ("A", "C")]]
    >>> res = accord.multilabel_agreement(data, coefficient="cohen_kappa")
    >>> round(res.max_percentage.estimate, 4)
    0.6667
    >>> round(res.per_label["C"].estimate, 4), round(res.mean_jaccard.estimate, 4)
    (0.7692, 0.537)
    """
    info = _coefficient(coefficient)
    ann = _annotations(data)
    ind = LabelIndicators.from_annotations(ann, labels)
    if info.raters == "two" and ind.n_raters != 2:
        raise DataError(f"{_FUNC}: {coefficient} compares two raters but the data have "
                        f"{ind.n_raters} ({list(ind.raters)!r}); select two raters or use a "
                        "many-rater coefficient such as 'krippendorff_alpha'.")
    present = ind.present_all()
    per_label, undefined = _per_label(ind, info, present)
    defined = [r.estimate for r in per_label.values() if not math.isnan(r.estimate)]
    jac, dice = _pairwise_similarity(ind)
    n_sets = ind.n_sets
    small = n_sets <= MAX_SETS_FOR_ALPHA
    note = "computed" if small else (
        f"not computed: {n_sets} distinct sets (more than {MAX_SETS_FOR_ALPHA}); the expected "
        "disagreement compares every pair of distinct sets")
    pooled = _pooled(ind, info, present)
    masi = _set_alpha(ann, "masi") if small else None
    jaccard = _set_alpha(ann, "jaccard") if small else None
    for name, res in (("pooled", pooled), ("masi_alpha", masi), ("jaccard_alpha", jaccard)):
        if res is not None and res.undefined_reason:
            v.warn_undefined(f"{_FUNC} ({name})", res.undefined_reason)
    return MultilabelAgreement(
        coefficient=coefficient, labels=ind.labels, per_label=per_label,
        pooled=pooled, macro=float(np.mean(defined)) if defined else math.nan,
        macro_left_out=tuple(undefined),
        masi_alpha=masi, jaccard_alpha=jaccard,
        mean_jaccard=jac, mean_dice=dice, max_percentage=_max_percentage(ind),
        n_units=ind.n_units, n_raters=ind.n_raters,
        details={"n_distinct_sets": n_sets, "set_alpha": note},
    )


def _coefficient(name: Any) -> Any:
    if not isinstance(name, str) or name not in REGISTRY or name == "icc":
        options = sorted(n for n in REGISTRY if n != "icc")
        v.choice(name, options, param="coefficient", func=_FUNC)
    return REGISTRY[name]


def _annotations(data: Any) -> Annotations:
    if isinstance(data, Annotations):
        return data.require_pairable()
    if type(data).__name__ in {"ContingencyTable", "RaterCounts", "CoincidenceMatrix",
                               "RatingMatrix"}:
        raise DataError(f"{_FUNC} needs each rater's labels per unit, not a "
                        f"{type(data).__name__}.")
    return Annotations.from_wide(data, set_valued=True)


# --------------------------------------------------------------------- per label
def _per_label(ind: LabelIndicators, info: Any,
               present: NDArray[np.int32]) -> tuple[dict[Any, AgreementResult], list[Any]]:
    out: dict[Any, AgreementResult] = {}
    undefined: list[Any] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        for j, label in enumerate(ind.labels):
            out[label] = _one_label(ind, j, info, present[j])
            if math.isnan(out[label].estimate):
                undefined.append(label)
    if undefined:
        shown = ", ".join(repr(x) for x in undefined[:5])
        more = f" and {len(undefined) - 5} more" if len(undefined) > 5 else ""
        v.warn_undefined(f"{_FUNC} ({info.name})", f"undefined for label(s) {shown}{more}; see "
                         "per_label[label].undefined_reason")
    return out, undefined


def _one_label(ind: LabelIndicators, j: int, info: Any,
               present: NDArray[np.int32]) -> AgreementResult:
    func = info.function
    if info.raters == "two":
        given, rated = ind.label_matrix(j)
        x = given[rated.all(axis=1)].astype(np.int64)
        return func(x[:, 0], x[:, 1])
    if info.name == "krippendorff_alpha":
        return func(binary_coincidences(present.astype(np.int64), ind.n_rated, ind.n_raters))
    if info.name in _COUNT_BASED:
        n1 = present.astype(np.int64)
        return func(RaterCounts(np.column_stack([ind.n_rated - n1, n1]),
                                categories=list(_PRESENCE)))
    given, rated = ind.label_matrix(j)
    x = given.astype(np.float64)
    x[~rated] = np.nan
    return func(x)


def _pooled(ind: LabelIndicators, info: Any, present: NDArray[np.int32]) -> AgreementResult:
    func = info.function
    n_labels = len(ind.labels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        if info.raters == "two":
            counts = np.zeros((2, 2))
            for j in range(n_labels):
                given, rated = ind.label_matrix(j)
                x = given[rated.all(axis=1)].astype(np.int64)
                counts += np.bincount(x[:, 0] * 2 + x[:, 1], minlength=4).reshape(2, 2)
            return _named(func(ContingencyTable(counts, list(_PRESENCE))), "pooled")
        if info.name == "krippendorff_alpha":
            width = int(ind.n_rated.max()) + 1
            base = ind.n_rated * width
            freq = np.zeros(width * width, dtype=np.int64)
            for j in range(n_labels):
                freq += np.bincount(base + present[j], minlength=width * width)
            cm = _binary_cm(freq, width, ind.n_raters, None,
                            n_labels * int(np.sum(ind.n_rated == 1)))
            return _named(func(cm), "pooled")
        if info.name in _COUNT_BASED:
            n1 = present.reshape(-1).astype(np.int64)
            n0 = np.tile(ind.n_rated, n_labels) - n1
            return _named(func(RaterCounts(np.column_stack([n0, n1]),
                                           categories=list(_PRESENCE))), "pooled")
        parts = [ind.label_matrix(j) for j in range(n_labels)]
        x = np.concatenate([g for g, _ in parts]).astype(np.float64)
        x[~np.concatenate([r for _, r in parts])] = np.nan
        return _named(func(x), "pooled")


def _named(res: AgreementResult, how: str) -> AgreementResult:
    from dataclasses import replace

    return replace(res, details={**res.details, "multilabel": how})


def binary_coincidences(present: NDArray[np.int64], rated: NDArray[np.int64],
                        n_raters: int) -> CoincidenceMatrix:
    """Coincidences of yes/no ratings from per-unit counts, by one bincount (no sort).

    A unit's pattern is ``(n_absent, n_present)``; with ``r`` raters there are at
    most ``(r + 1)^2`` patterns, so the matrix is tiny whatever the number of units.
    """
    width = int(rated.max(initial=0)) + 1
    key = rated * width + present
    freq = np.bincount(key, minlength=width * width)
    pairable = rated >= 2
    return _binary_cm(freq, width, n_raters, key[pairable], int(np.sum(rated == 1)))


def _binary_cm(freq: NDArray[np.int64], width: int, n_raters: int,
               keys: NDArray[np.int64] | None, n_unpairable: int) -> CoincidenceMatrix:
    """The coincidence matrix of pattern frequencies indexed by ``m * width + n_present``."""
    used = np.flatnonzero(freq)
    used = used[used // width >= 2]
    m, n1 = used // width, used % width
    n0 = m - n1
    sizes = (n0 > 0).astype(np.int64) + (n1 > 0)
    ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    codes = np.empty(int(ptr[-1]), dtype=np.int64)
    mult = np.empty(int(ptr[-1]), dtype=np.int64)
    first = ptr[:-1]
    codes[first] = np.where(n0 > 0, 0, 1)
    mult[first] = np.where(n0 > 0, n0, n1)
    both = (n0 > 0) & (n1 > 0)
    codes[first[both] + 1] = 1
    mult[first[both] + 1] = n1[both]
    patterns = None
    if keys is not None:
        lookup = np.full(width * width, -1, dtype=np.int64)
        lookup[used] = np.arange(used.shape[0])
        patterns = lookup[keys]
    return CoincidenceMatrix(
        list(_PRESENCE), ptr, codes, mult, freq[used].astype(np.int64),
        unit_patterns=patterns, n_unpairable=n_unpairable, n_raters=n_raters,
        values=np.asarray(_PRESENCE, dtype=np.float64),
    )


# --------------------------------------------------------------------- per set
def _set_alpha(ann: Annotations, kind: str) -> AgreementResult:
    from accord.coefficients.krippendorff import krippendorff_alpha

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return krippendorff_alpha(ann.as_sets(), level=kind)


def _pairwise_similarity(ind: LabelIndicators) -> tuple[AgreementResult, AgreementResult]:
    """Mean Jaccard and Dice similarity over every two ratings of one unit.

    Intersections are popcounts of the packed label bits; two empty sets count as
    identical (similarity 1).
    """
    sizes = ind.set_sizes()
    jac = np.zeros(ind.n_units)
    dice = np.zeros(ind.n_units)
    pairs = np.zeros(ind.n_units)
    for unit, a, b in ind.rating_pairs():
        inter = ind.intersections(a, b)
        total = sizes[a] + sizes[b]
        union = total - inter
        with np.errstate(divide="ignore", invalid="ignore"):
            jac += np.bincount(unit, weights=np.where(union > 0, inter / union, 1.0),
                               minlength=ind.n_units)
            dice += np.bincount(unit, weights=np.where(total > 0, 2.0 * inter / total, 1.0),
                                minlength=ind.n_units)
        pairs += np.bincount(unit, minlength=ind.n_units)
    return (_ratio_result("mean_jaccard", jac, pairs, ind.n_raters),
            _ratio_result("mean_dice", dice, pairs, ind.n_raters))


def _max_percentage(ind: LabelIndicators) -> AgreementResult:
    r = ind.n_rated.astype(np.float64)
    r[r < 2] = 0.0
    return _ratio_result("max_percentage", r * ind.shared(), r, ind.n_raters)


def _ratio_result(name: str, x: NDArray[np.float64], y: NDArray[np.float64],
                  n_raters: int) -> AgreementResult:
    """``sum x_u / sum y_u`` over units with ``y_u > 0``, with the ratio estimator's SE.

    SE by linearisation (Cochran 1977, section 6.3), units independent:
    ``sqrt(n / (n - 1) sum_u (x_u - R y_u)^2) / sum_u y_u``; the bootstrap and the
    jackknife resample the units' ``(x_u, y_u)``.
    """
    keep = y > 0
    x, y = x[keep], y[keep]
    n = int(keep.sum())
    if n == 0:
        why = "no unit has two ratings, so there is nothing to compare"
        v.warn_undefined(f"{_FUNC} ({name})", why)
        return AgreementResult(name, math.nan, math.nan, math.nan, math.nan, 0, n_raters,
                               undefined_reason=why, bounds=(0.0, 1.0))
    est = float(x.sum() / y.sum())
    se = math.sqrt(n / (n - 1) * float(((x - est * y) ** 2).sum())) / float(y.sum()) \
        if n > 1 else math.nan
    def statistic(s: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.asarray(np.where(s[:, 1] > 0, s[:, 0] / s[:, 1], np.nan), dtype=np.float64)

    def resampling() -> Resampling:  # the distinct (x_u, y_u), only when an interval asks
        rows, counts, _ = pattern_index(np.column_stack([x, y]))
        return Resampling(features=np.asarray(rows, dtype=np.float64), counts=counts,
                          statistic=statistic)

    return AgreementResult(
        name, est, est, math.nan, se, n, n_raters,
        details={"se_method": "ratio estimator (linearisation)"}, bounds=(0.0, 1.0),
        resampling=resampling,
    )
