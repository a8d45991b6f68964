"""Invariants of every registered coefficient, driven by :data:`accord.REGISTRY`.

After scikit-learn's ``tests/test_common.py``: each coefficient is placed in
explicit classes below (how many raters, what data, which options, which
invariances), one test fails when a registered coefficient is left out of any
class, and every property test is parametrised over the class it holds for.
A coefficient added to the registry therefore cannot ship unclassified, and
once classified it is checked against everything its class promises.

Every call goes through :func:`_run`, which also checks the undefined-result
contract on whatever data Hypothesis draws: a result is undefined exactly when
it emits one ``DegenerateDataWarning``; then its estimate is ``nan`` and it
carries a reason; a defined result never warns.
"""

from __future__ import annotations

import inspect
import json
import math
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import accord
from accord import AgreementResult, Annotations, ContingencyTable, RaterCounts
from accord.readers.spans import SpanTable
from tests.spans._tables import table_spans

# --------------------------------------------------------------------------- classification
# How many raters a coefficient compares: exactly two, or any number >= 2.
# Classifier metrics against a reference (the first sequence): two label sources only.
CLASSIFICATION = {"accuracy", "balanced_accuracy", "f1", "mcc", "precision", "recall"}
# Agreement on spans (pairwise F1 over rater pairs): any number of raters, spans as data.
# The property tests give it the same units x raters tables as the others, read as spans
# by _args (spans._tables.table_spans: a label is a span, None a document not annotated).
SPANS = {"span_f1"}
TWO_RATER_ONLY = {"bangdiwala_b", "cohen_kappa", "kappa_max", "pabak", "scott_pi"} | CLASSIFICATION
SCORES = {"finn", "kendall_w", "mean_pearson", "mean_spearman", "robinson_a"}  # irr's
MANY_RATER = {
    "brennan_prediger", "conger_kappa", "fleiss_kappa", "gwet_ac1", "icc",
    "janson_olsson_iota", "krippendorff_alpha", "light_kappa", "percent_agreement",
} | SCORES | SPANS
# What it reads: labels of any hashable kind, or numeric scores only.
LABELS = {
    "bangdiwala_b", "brennan_prediger", "cohen_kappa", "conger_kappa", "fleiss_kappa", "gwet_ac1",
    "janson_olsson_iota", "kappa_max", "krippendorff_alpha", "light_kappa", "pabak",
    "percent_agreement", "scott_pi",
} | CLASSIFICATION
NUMERIC_ONLY = {"icc"} | SCORES
# Chance-corrected (kappa-like) or not.
CHANCE_CORRECTED = {
    "brennan_prediger", "cohen_kappa", "conger_kappa", "fleiss_kappa", "gwet_ac1",
    "janson_olsson_iota", "kappa_max", "krippendorff_alpha", "light_kappa", "pabak", "scott_pi",
}
NOT_CHANCE_CORRECTED = {"bangdiwala_b", "icc", "percent_agreement"} | SCORES | CLASSIFICATION \
    | SPANS
# Symmetric under a swap of the two raters / a permutation of the rater columns.
# Swapping reference and system swaps precision and recall (and so changes balanced accuracy).
NOT_SYMMETRIC = {"balanced_accuracy", "precision", "recall"}
SYMMETRIC = (LABELS | NUMERIC_ONLY | SPANS) - NOT_SYMMETRIC
# Unchanged when nominal categories are renamed by a one-to-one map (unweighted).
RELABEL_INVARIANT = LABELS | SPANS
NOT_RELABEL_INVARIANT = {"icc"} | SCORES  # reads the numbers themselves
# Perfect agreement gives exactly 1 wherever the coefficient is defined.
PERFECT_IS_ONE = LABELS | NUMERIC_ONLY | SPANS
PERFECT_NOT_ONE: set[str] = set()
# Options.
TAKES_WEIGHTS = {
    "brennan_prediger", "cohen_kappa", "conger_kappa", "fleiss_kappa", "gwet_ac1",
    "percent_agreement", "scott_pi",
}
NO_WEIGHTS = {
    "bangdiwala_b", "icc", "janson_olsson_iota", "kappa_max", "krippendorff_alpha",
    "light_kappa", "pabak",
} | SCORES | CLASSIFICATION | SPANS
TAKES_LEVEL = {"janson_olsson_iota", "krippendorff_alpha"}
NO_LEVEL = (LABELS | NUMERIC_ONLY | SPANS) - TAKES_LEVEL
TAKES_FORM = {"icc"}
NO_FORM = (LABELS | NUMERIC_ONLY | SPANS) - TAKES_FORM
TAKES_CATEGORIES = set(LABELS) - {"janson_olsson_iota"}
NO_CATEGORIES = {"icc", "janson_olsson_iota"} | SCORES | SPANS
# Sufficient statistics accepted in place of raw data.
FROM_CONTINGENCY_TABLE = {
    "bangdiwala_b", "brennan_prediger", "cohen_kappa", "gwet_ac1", "kappa_max",
    "krippendorff_alpha", "pabak", "percent_agreement", "scott_pi",
} | CLASSIFICATION
NOT_FROM_CONTINGENCY_TABLE = {
    "conger_kappa", "fleiss_kappa", "icc", "janson_olsson_iota", "light_kappa",
} | SCORES | SPANS
FROM_RATER_COUNTS = {
    "brennan_prediger", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha", "percent_agreement",
}
# two-rater coefficients that follow Gwet's raw-data formulas when a unit is rated once
RAW_WHEN_RATED_ONCE = {"gwet_ac1", "brennan_prediger", "percent_agreement"}
NOT_FROM_RATER_COUNTS = {  # they need to know which rater gave which rating
    "bangdiwala_b", "cohen_kappa", "conger_kappa", "icc", "janson_olsson_iota", "kappa_max",
    "light_kappa", "pabak", "scott_pi",
} | SCORES | CLASSIFICATION | SPANS

AXES: dict[str, tuple[set[str], ...]] = {
    "raters": (TWO_RATER_ONLY, MANY_RATER),
    "data": (LABELS, NUMERIC_ONLY, SPANS),
    "chance": (CHANCE_CORRECTED, NOT_CHANCE_CORRECTED),
    "rater symmetry": (SYMMETRIC, NOT_SYMMETRIC),
    "relabelling": (RELABEL_INVARIANT, NOT_RELABEL_INVARIANT),
    "perfect agreement": (PERFECT_IS_ONE, PERFECT_NOT_ONE),
    "weights": (TAKES_WEIGHTS, NO_WEIGHTS),
    "level": (TAKES_LEVEL, NO_LEVEL),
    "form": (TAKES_FORM, NO_FORM),
    "categories": (TAKES_CATEGORIES, NO_CATEGORIES),
    "contingency table": (FROM_CONTINGENCY_TABLE, NOT_FROM_CONTINGENCY_TABLE),
    "rater counts": (FROM_RATER_COUNTS, NOT_FROM_RATER_COUNTS),
}

# Many-rater chance-corrected coefficients whose result records a data-dependent floor.
DATA_DEPENDENT_FLOOR = {"brennan_prediger", "conger_kappa", "fleiss_kappa", "gwet_ac1"}

NAMES = sorted(accord.REGISTRY)
TOL = 1e-12
REL = 1e-9
FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- the classification
def _misclassified(names: list[str]) -> list[str]:
    """One line per (name, axis) where a name is not in exactly one class."""
    out = []
    for axis, classes in AXES.items():
        for name in names:
            homes = sum(name in cls for cls in classes)
            if homes != 1:
                out.append(f"{name!r} is in {homes} classes of the {axis!r} axis")
    return out


def test_every_registered_coefficient_is_classified_once_on_every_axis() -> None:
    """A new coefficient must be placed in exactly one class of each axis."""
    assert _misclassified(NAMES) == []


def test_an_unclassified_coefficient_is_caught_on_every_axis() -> None:
    assert len(_misclassified(["a_new_coefficient"])) == len(AXES)


@pytest.mark.parametrize("axis", sorted(AXES))
def test_no_class_names_an_unregistered_coefficient(axis: str) -> None:
    stale = set().union(*AXES[axis]) - set(NAMES)
    assert stale == set()


def test_classes_agree_with_the_registry_metadata() -> None:
    for name in NAMES:
        info = accord.REGISTRY[name]
        assert (name in TWO_RATER_ONLY) == (info.raters == "two"), name
        assert (name in CHANCE_CORRECTED) == info.chance_corrected, name
        assert (name in TAKES_WEIGHTS) == info.weighted, name
        assert (name in NUMERIC_ONLY) == ("nominal" not in info.levels), name


@pytest.mark.parametrize("name", NAMES)
def test_classes_agree_with_the_signature(name: str) -> None:
    params = inspect.signature(accord.REGISTRY[name].function).parameters
    for option, cls in (("weights", TAKES_WEIGHTS), ("level", TAKES_LEVEL),
                        ("form", TAKES_FORM), ("categories", TAKES_CATEGORIES)):
        takes = option in params and params[option].kind is inspect.Parameter.KEYWORD_ONLY
        assert takes == (name in cls), f"{name}: {option}"


@pytest.mark.parametrize("name", NAMES)
def test_registry_entry_is_documented(name: str) -> None:
    info = accord.REGISTRY[name]
    assert info.name == name
    assert info.title.strip() and info.citation.strip()
    assert re.search(r"\(\d{4}\)", info.citation), "the citation names a year"
    assert getattr(accord, name) is info.function
    doc = inspect.getdoc(info.function) or ""
    assert re.search(r"^Examples\n-{8,}$", doc, re.MULTILINE), f"{name} has no Examples section"
    assert ">>> " in doc.split("Examples", 1)[1]


@pytest.mark.parametrize("name", NAMES)
def test_result_names_its_coefficient_and_bounds(name: str) -> None:
    info = accord.REGISTRY[name]
    res = _run(info.function, *_args(name, _example(name)))
    assert res.coefficient == name
    assert info.bounds[0] < info.bounds[1] <= 1.0
    _check_bounds(name, res)


def _check_bounds(name: str, res: AgreementResult) -> None:
    """The result's range is the registry's, except that the many-rater kappas record
    their floor ``-p_e / (1 - p_e)``, below -1 when weights or units rated once push
    p_e above 1/2 (documented in fleiss_kappa's Notes)."""
    lo, hi = accord.REGISTRY[name].bounds
    assert res.bounds[1] == hi
    if name in DATA_DEPENDENT_FLOOR:
        assert res.bounds[0] <= lo
    else:
        assert res.bounds[0] == lo


# --------------------------------------------------------------------------- data
def _run(func: Callable[..., AgreementResult], *args: Any, **kwargs: Any) -> AgreementResult:
    """Call a coefficient and check the undefined contract on its result."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = func(*args, **kwargs)
    kinds = [w.category for w in caught]
    assert all(issubclass(k, accord.DegenerateDataWarning) for k in kinds), [
        str(w.message) for w in caught
    ]
    if res.defined:
        assert kinds == [], [str(w.message) for w in caught]
        assert math.isfinite(res.estimate)
    else:
        assert len(kinds) == 1, f"{len(kinds)} warnings for one undefined result"
        assert math.isnan(res.estimate)
        assert isinstance(res.undefined_reason, str) and res.undefined_reason.strip()
        assert str(caught[0].message).endswith(res.undefined_reason)
    return res


def _args(name: str, data: np.ndarray) -> tuple[Any, ...]:
    """Two-rater-only coefficients are called scikit-learn style, ``f(y1, y2)``; span
    coefficients get the table as spans (:func:`_spans`)."""
    if name in SPANS:
        return (table_spans(data),)
    if name in TWO_RATER_ONLY:
        return (list(data[:, 0]), list(data[:, 1]))
    return (data,)


def _example(name: str) -> np.ndarray:
    rng = np.random.default_rng(7)
    raters = 2 if name in TWO_RATER_ONLY else 3
    truth = rng.integers(0, 4, 30)
    noise = rng.integers(0, 4, (30, raters))
    noisy = np.where(rng.random((30, raters)) < 0.7, truth[:, None], noise)
    if name in NUMERIC_ONLY:
        return noisy + rng.normal(scale=0.3, size=noisy.shape)
    return noisy.astype(object)


@st.composite
def tables(draw: Any, name: str, *, missing: bool = True, perfect: bool = False) -> np.ndarray:
    """A units x raters table for ``name``; ``None`` marks a missing rating.

    At least two units are rated by every rater, so the data can always be paired.
    Labels are small ints (objects) or, for numeric-only coefficients, floats.
    """
    n_raters = 2 if name in TWO_RATER_ONLY else draw(st.integers(2, 5))
    n_units = draw(st.integers(3, 25))
    k = draw(st.integers(2, 4))
    truth = draw(st.lists(st.integers(0, k - 1), min_size=n_units, max_size=n_units))
    cells = st.tuples(st.integers(0, k - 1), st.integers(0, 9))
    grid = draw(st.lists(st.lists(cells, min_size=n_raters, max_size=n_raters),
                         min_size=n_units, max_size=n_units))
    out = np.empty((n_units, n_raters), dtype=object)
    for i, row in enumerate(grid):
        for j, (label, roll) in enumerate(row):
            value: Any = truth[i] if perfect or roll < 6 else label
            if missing and i >= 2 and roll == 9 and name not in TWO_RATER_ONLY:
                value = None
            out[i, j] = value
    if name in NUMERIC_ONLY:
        scores = np.where(out == None, np.nan, out).astype(float)  # noqa: E711
        return scores * draw(st.sampled_from([1.0, 2.5, -0.5]))
    return out


def _same(a: AgreementResult, b: AgreementResult, *, se: bool = True) -> None:
    assert a.defined == b.defined, (a, b)
    if a.defined:
        assert a.estimate == pytest.approx(b.estimate, rel=REL, abs=TOL)
        if not se:
            return
        # variances, not SEs: an SE near 0 is the square root of rounding noise
        assert a.se ** 2 == pytest.approx(b.se ** 2, rel=1e-7, abs=TOL, nan_ok=True)
        assert (a.n_units, a.n_raters) == (b.n_units, b.n_raters)


def _by_name(strategy: Callable[..., Any], names: set[str]) -> Any:
    return st.sampled_from(sorted(names)).flatmap(lambda n: st.tuples(st.just(n), strategy(n)))


# --------------------------------------------------------------------------- invariances
@FEW
@given(case=_by_name(tables, SYMMETRIC), data=st.data())
def test_rater_order_invariance(case: tuple[str, np.ndarray], data: Any) -> None:
    """Swapping the two raters, or permuting the columns of many raters."""
    name, table = case
    func = accord.REGISTRY[name].function
    order = data.draw(st.permutations(range(table.shape[1])))
    _same(_run(func, *_args(name, table)), _run(func, *_args(name, table[:, order])))


@FEW
@given(case=_by_name(tables, set(NAMES)), data=st.data())
def test_unit_order_invariance(case: tuple[str, np.ndarray], data: Any) -> None:
    name, table = case
    func = accord.REGISTRY[name].function
    order = data.draw(st.permutations(range(table.shape[0])))
    _same(_run(func, *_args(name, table)), _run(func, *_args(name, table[order])))


@FEW
@given(case=_by_name(tables, RELABEL_INVARIANT), data=st.data())
def test_relabelling_nominal_categories(case: tuple[str, np.ndarray], data: Any) -> None:
    """Renaming categories one to one (which also reorders them) changes nothing."""
    name, table = case
    func = accord.REGISTRY[name].function
    names = data.draw(st.lists(st.text("xyzab", min_size=1, max_size=3), min_size=4,
                               max_size=4, unique=True))
    renamed = np.empty(table.shape, dtype=object)
    for idx, x in np.ndenumerate(table):
        renamed[idx] = None if x is None else names[x]
    _same(_run(func, *_args(name, table)), _run(func, *_args(name, renamed)))


@FEW
@given(case=_by_name(tables, MANY_RATER), data=st.data())
def test_a_rater_without_ratings_changes_nothing(case: tuple[str, np.ndarray],
                                                 data: Any) -> None:
    """An all-missing column is no rater: same estimate, SE and n_raters."""
    name, table = case
    info = accord.REGISTRY[name]
    # Two columns of these go through the two-rater table (irrCAC *.table formulas); the
    # wider input takes the many-rater path, whose relation is checked against RaterCounts.
    assume(table.shape[1] > 2 or info.family != "two_raters")
    func = info.function
    at = data.draw(st.integers(0, table.shape[1]))
    empty: Any = np.nan if name in NUMERIC_ONLY else None
    wider = np.insert(table.astype(object), at, empty, axis=1)
    if name in NUMERIC_ONLY:
        wider = wider.astype(float)
    _same(_run(func, *_args(name, table)), _run(func, *_args(name, wider)))


@FEW
@given(case=_by_name(lambda n: tables(n, perfect=True), PERFECT_IS_ONE))
def test_perfect_agreement_gives_one(case: tuple[str, np.ndarray]) -> None:
    name, table = case
    res = _run(accord.REGISTRY[name].function, *_args(name, table))
    if res.defined:  # undefined when a single category (or score) is used throughout
        assert res.estimate == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("name", sorted(PERFECT_IS_ONE))
def test_perfect_agreement_has_an_interval_at_one(name: str) -> None:
    """Zero variance is no error: every interval method gives a finite interval ending at 1
    (the ICC(A,1) interval used to divide by zero here)."""
    raters = 2 if name in TWO_RATER_ONLY else 3
    truth = np.array([0, 1, 2, 0, 1, 2, 2])
    table = np.repeat(truth[:, None], raters, axis=1)
    data = table.astype(float) if name in NUMERIC_ONLY else table.astype(object)
    res = _run(accord.REGISTRY[name].function, *_args(name, data))
    assert res.estimate == pytest.approx(1.0, abs=TOL)
    methods: list[Any] = ["jackknife", accord.Bootstrap(n_resamples=50, rng=0)]
    if math.isfinite(res.se) or res.analytic_interval is not None:
        methods.append("asymptotic")
    for method in methods:
        ci = res.confidence_interval(0.95, method=method)
        assert ci.low <= ci.high == pytest.approx(1.0, abs=TOL), method


@FEW
@given(case=_by_name(tables, set(NAMES)))
def test_estimate_and_interval_lie_within_bounds(case: tuple[str, np.ndarray]) -> None:
    name, table = case
    res = _run(accord.REGISTRY[name].function, *_args(name, table))
    _check_bounds(name, res)
    lo, hi = res.bounds
    if not res.defined:
        return
    assert lo - TOL <= res.estimate <= hi + TOL
    analytic = math.isfinite(res.se) or res.analytic_interval is not None
    ci = res.confidence_interval(0.9, method="asymptotic" if analytic else "jackknife")
    if math.isfinite(ci.low):
        assert lo <= ci.low <= ci.high <= hi


@FEW
@given(case=_by_name(tables, set(NAMES)))
def test_resampling_full_sample_equals_the_estimate(case: tuple[str, np.ndarray]) -> None:
    name, table = case
    res = _run(accord.REGISTRY[name].function, *_args(name, table))
    assert res.resampling is not None, f"{name} computed from raw data has no resampling"
    full = res.resampling().full()
    if res.defined:
        assert full == pytest.approx(res.estimate, rel=REL, abs=TOL)
    else:
        assert math.isnan(full)


@FEW
@given(case=_by_name(tables, set(NAMES)))
def test_to_dict_is_strict_json(case: tuple[str, np.ndarray]) -> None:
    name, table = case
    res = _run(accord.REGISTRY[name].function, *_args(name, table))
    out = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert out["coefficient"] == name
    assert out["undefined_reason"] == res.undefined_reason
    if res.defined:
        assert out["estimate"] == res.estimate  # full precision survives the round trip
    else:
        assert out["estimate"] is None


def _rated_once(table: np.ndarray) -> bool:
    """Whether some unit (row) of a two-column table has exactly one rating."""
    return any(sum(x is not None for x in row) == 1 for row in table)


@FEW
@given(case=_by_name(tables, FROM_CONTINGENCY_TABLE))
def test_raw_labels_and_contingency_table_agree(case: tuple[str, np.ndarray]) -> None:
    name, table = case
    pair = table[:, :2]
    func = accord.REGISTRY[name].function
    ann = Annotations.from_wide(pair)
    raw, from_table = _run(func, pair), _run(func, ContingencyTable.from_annotations(ann))
    if name == "krippendorff_alpha":
        # Units rated once are unpairable either way; the table's variance divides by n^2
        # (irrCAC krippen2.table), the ratings' by n (n - 1) (krippen.alpha.raw).
        _same(raw, from_table, se=False)
        n = raw.n_units
        if raw.defined and n > 1:
            assert raw.se ** 2 == pytest.approx(from_table.se ** 2 * n / (n - 1), rel=1e-7,
                                                abs=TOL)
        return
    if name not in RAW_WHEN_RATED_ONCE:
        _same(raw, from_table)
        return
    # Ratings follow Gwet's raw-data formulas (irrCAC *.raw): the many-rater result on
    # the same ratings, units rated once included. Without such units the estimate is
    # the table's and the variance the table's times n / (n - 1) (*.table divides by n^2).
    _same(raw, _run(func, RaterCounts.from_annotations(ann)))
    if not _rated_once(pair):
        _same(raw, from_table, se=False)
        n = raw.n_units
        assert raw.se ** 2 == pytest.approx(from_table.se ** 2 * n / (n - 1), rel=1e-7,
                                            abs=TOL, nan_ok=True)


@FEW
@given(case=_by_name(tables, FROM_RATER_COUNTS))
def test_raw_ratings_and_rater_counts_agree(case: tuple[str, np.ndarray]) -> None:
    """The ratings and their counts give one result, SE included, for any number of raters."""
    name, table = case
    func = accord.REGISTRY[name].function
    counts = RaterCounts.from_annotations(Annotations.from_wide(table))
    _same(_run(func, table), _run(func, counts))


# --------------------------------------------------------------------------- options
@FEW
@given(case=_by_name(tables, TAKES_WEIGHTS), weights=st.sampled_from(["linear", "quadratic"]))
def test_distance_weights_ignore_the_direction_of_the_scale(case: tuple[str, np.ndarray],
                                                            weights: str) -> None:
    """Linear and quadratic weights depend on |i - j|: reversing the categories is a no-op."""
    name, table = case
    func = accord.REGISTRY[name].function
    cats = sorted({x for x in table.ravel() if x is not None})
    _same(_run(func, *_args(name, table), weights=weights, categories=cats),
          _run(func, *_args(name, table), weights=weights, categories=cats[::-1]))


@pytest.mark.parametrize("name", sorted(TAKES_WEIGHTS))
def test_identity_weights_are_the_unweighted_coefficient(name: str) -> None:
    func = accord.REGISTRY[name].function
    data = _example(name)
    k = len({x for x in data.ravel() if x is not None})
    plain = _run(func, *_args(name, data))
    _same(plain, _run(func, *_args(name, data), weights="identity"))
    _same(plain, _run(func, *_args(name, data), weights=np.eye(k)))


@pytest.mark.parametrize("name", sorted(TAKES_CATEGORIES))
def test_declaring_an_unused_category_keeps_unweighted_nominal_agreement_defined(
    name: str,
) -> None:
    """Declared categories are accepted; an unknown value among the data is refused."""
    func = accord.REGISTRY[name].function
    data = _example(name)
    cats = sorted({x for x in data.ravel() if x is not None})
    res = _run(func, *_args(name, data), categories=[*cats, "unused"])
    assert res.defined
    with pytest.raises(accord.AccordError, match="outside the declared categories"):
        func(*_args(name, data), categories=cats[:-1])


@FEW
@given(table=tables("krippendorff_alpha", missing=True),
       shift=st.sampled_from([-3.0, 0.0, 10.0]), scale=st.sampled_from([0.5, 2.0, 7.0]))
def test_alpha_levels_are_invariant_to_their_admissible_transformations(
    table: np.ndarray, shift: float, scale: float
) -> None:
    """Interval: any a*x + b (a > 0); ratio: any a*x; ordinal: any increasing map."""
    func = accord.krippendorff_alpha
    x = np.where(table == None, np.nan, table).astype(float)  # noqa: E711
    _same(_run(func, x, level="interval"), _run(func, scale * x + shift, level="interval"))
    _same(_run(func, x, level="ratio"), _run(func, scale * x, level="ratio"))
    _same(_run(func, x, level="ordinal"), _run(func, np.exp(x) + shift, level="ordinal"))


FORMS = ("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k")


@FEW
@given(table=tables("icc"), form=st.sampled_from(FORMS),
       shift=st.sampled_from([-3.0, 0.0, 10.0]), scale=st.sampled_from([-2.0, 0.5, 7.0]))
def test_icc_is_invariant_to_a_linear_change_of_units(
    table: np.ndarray, form: str, shift: float, scale: float
) -> None:
    _same(_run(accord.icc, table, form=form), _run(accord.icc, scale * table + shift, form=form))


@pytest.mark.parametrize("name", sorted(TAKES_LEVEL))
def test_every_declared_level_is_accepted(name: str) -> None:
    func = accord.REGISTRY[name].function
    numeric = np.array(_example(name), dtype=float)
    for level in accord.REGISTRY[name].levels:
        assert _run(func, numeric, level=level).defined


@pytest.mark.parametrize("form", [*FORMS, "ICC(1,1)", "ICC(A,1)", "ICC(C,1)", "ICC(1,k)",
                                  "ICC(A,k)", "ICC(C,k)"])
def test_every_icc_form_is_accepted_and_named(form: str) -> None:
    res = _run(accord.icc, _example("icc"), form=form)
    assert res.defined and res.details["form"] in FORMS


# --------------------------------------------------------------------------- undefined
def _degenerate(name: str) -> np.ndarray:
    """Every rater gives every unit the same value: 0/0 for all but percent agreement."""
    raters = 2 if name in TWO_RATER_ONLY else 3
    value: Any = 2.5 if name in NUMERIC_ONLY else "same"
    out = np.empty((6, raters), dtype=float if name in NUMERIC_ONLY else object)
    out[:] = value
    return out


@pytest.mark.parametrize("name", NAMES)
def test_undefined_results_have_a_reason_one_warning_and_null_json(name: str) -> None:
    func = accord.REGISTRY[name].function
    res = _run(func, *_args(name, _degenerate(name)))
    if name == "percent_agreement" or name in CLASSIFICATION - {"mcc"}:
        assert res.estimate == 1.0  # not chance-corrected: perfect agreement is defined
        res = _run(func, ContingencyTable([[0, 0], [0, 0]]))
    if name == "bangdiwala_b":
        assert res.estimate == 1.0  # not chance-corrected: perfect agreement is defined
        res = _run(func, ContingencyTable([[0, 3], [0, 0]]))  # no category shared: 0/0
    if name in SPANS:
        assert res.estimate == 1.0  # the same spans everywhere agree
        coverage = {(f"d{i}", r): "annotated" for i in range(3) for r in ("a", "b")}
        res = _run(func, SpanTable((), coverage))  # nobody marked a span: 2 * 0 / 0
    assert not res.defined
    assert json.loads(json.dumps(res.to_dict(), allow_nan=False))["estimate"] is None
    ci = res.confidence_interval(0.95)
    assert math.isnan(ci.low) and math.isnan(ci.high)


@pytest.mark.parametrize("name", sorted(FROM_CONTINGENCY_TABLE))
def test_an_empty_table_is_undefined_or_refused_never_a_number(name: str) -> None:
    """Two-rater coefficients: an empty table is undefined (issue 2); alpha refuses it
    like any data with no pairable unit (issue 3)."""
    func = accord.REGISTRY[name].function
    empty = ContingencyTable([[0, 0], [0, 0]])
    if name == "krippendorff_alpha":
        with pytest.raises(accord.AccordError, match="nothing to pair"):
            func(empty)
        return
    assert not _run(func, empty).defined
