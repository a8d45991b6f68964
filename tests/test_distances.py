"""accord.distances and Krippendorff's alpha with set distances.

Oracles: NLTK 3.x ``AnnotationTask(distance=...).alpha()`` and
``nltk.metrics.distance.masi_distance`` / ``jaccard_distance`` on random data;
DKPro Agreement's ``SetAnnotationsTest`` example (its own two set distances, given
here as callables, reproduce its published D_o, D_e and alpha); Passonneau (2006)
for the MASI cases; Krippendorff (2011) example C for the ordinal difference.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.coefficients import distances
from accord.errors import DataError

nltk_agreement = pytest.importorskip("nltk.metrics.agreement")
nltk_distance = pytest.importorskip("nltk.metrics.distance")

LABELS = "abcde"


def random_sets(rng: random.Random, n_units: int, n_raters: int, *, missing: float = 0.0,
                allow_empty: bool = False) -> list[list[Any]]:
    rows = []
    for _ in range(n_units):
        row: list[Any] = []
        for _ in range(n_raters):
            if rng.random() < missing:
                row.append(None)
                continue
            k = rng.randint(0 if allow_empty else 1, 3)
            row.append(frozenset(rng.sample(LABELS, k)))
        rows.append(row)
    return rows


def nltk_alpha(rows: list[list[Any]], distance: Any) -> float:
    data = [(f"r{j}", f"u{i}", cell) for i, row in enumerate(rows)
            for j, cell in enumerate(row) if cell is not None]
    task = nltk_agreement.AnnotationTask(data=data, distance=distance)
    return float(task.alpha())


def exact_masi(a: frozenset[Any], b: frozenset[Any]) -> float:
    """Passonneau (2006) with exact thirds, written independently of accord."""
    inter, union = len(a & b), len(a | b)
    if a == b:
        m = 1.0
    elif inter == min(len(a), len(b)):
        m = 2 / 3
    elif inter:
        m = 1 / 3
    else:
        m = 0.0
    return 1 - inter / union * m


def rounded_masi(a: Any, b: Any) -> float:
    return distances.masi(a, b, monotonicity=(1, 0.67, 0.33, 0))


def rounded_masi_oracle(a: frozenset[Any], b: frozenset[Any]) -> float:
    """The MASI with weights 0.67 and 0.33 of older NLTK releases."""
    inter, union = len(a & b), len(a | b)
    m = 1 if a == b else 0.67 if inter == min(len(a), len(b)) else 0.33 if inter else 0
    return 1 - inter / union * m


@pytest.mark.parametrize("seed", range(6))
def test_masi_and_jaccard_equal_nltk_distances(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        a = frozenset(rng.sample(LABELS, rng.randint(1, 4)))
        b = frozenset(rng.sample(LABELS, rng.randint(1, 4)))
        assert distances.masi(a, b) == pytest.approx(nltk_distance.masi_distance(a, b),
                                                     abs=1e-15)
        assert rounded_masi(a, b) == pytest.approx(rounded_masi_oracle(a, b), abs=1e-15)
        assert distances.jaccard(a, b) == pytest.approx(nltk_distance.jaccard_distance(a, b),
                                                        abs=1e-15)


@pytest.mark.parametrize("seed", range(8))
def test_alpha_masi_and_jaccard_equal_nltk(seed: int) -> None:
    rng = random.Random(seed)
    rows = random_sets(rng, 40, 3, missing=0.2 if seed % 2 else 0.0)
    assert accord.krippendorff_alpha(rows, level="masi").estimate == pytest.approx(
        nltk_alpha(rows, nltk_distance.masi_distance), abs=1e-12)
    assert accord.krippendorff_alpha(rows, level="masi").estimate == pytest.approx(
        nltk_alpha(rows, exact_masi), abs=1e-12)
    assert accord.krippendorff_alpha(rows, level="jaccard").estimate == pytest.approx(
        nltk_alpha(rows, nltk_distance.jaccard_distance), abs=1e-12)
    # the rounded weights of older releases through a callable level
    assert accord.krippendorff_alpha(rows, level=rounded_masi).estimate == pytest.approx(
        nltk_alpha(rows, rounded_masi_oracle), abs=1e-12)


def test_distance_functions_as_levels_take_the_fast_path() -> None:
    rows = random_sets(random.Random(3), 30, 2)
    for name, func in (("masi", distances.masi), ("jaccard", distances.jaccard)):
        by_name = accord.krippendorff_alpha(rows, level=name)
        by_func = accord.krippendorff_alpha(rows, level=func)
        assert by_func.estimate == by_name.estimate
        assert by_func.details["level"] == name


def dkpro_set_distance(a: Any, b: Any) -> float:
    """DKPro's SetAnnotationDistanceFunction (Passonneau 2004 monotonicity only)."""
    a, b = frozenset(a), frozenset(b)
    if a == b:
        return 0.0
    if a <= b or b <= a:
        return 1 / 3
    return 2 / 3 if a & b else 1.0


def dkpro_masi(a: Any, b: Any) -> float:
    """DKPro's MASISetAnnotationDistanceFunction: (1 - J) * m."""
    a, b = frozenset(a), frozenset(b)
    union = len(a | b)
    jd = 1.0 if union == 0 else 1 - len(a & b) / union
    if a == b:
        return 0.0
    if a <= b or b <= a:
        return jd / 3
    return jd * 2 / 3 if a & b else jd


DKPRO_EXAMPLE = [
    [(), ()], [("A",), ()], [("A",), ("A",)], [("A",), ("B",)], [("A", "B"), ("A",)],
    [("A", "B"), ("A", "C")], [("A", "B", "C"), ("A", "B", "C")], [("C",), ("A", "C")],
    [("C",), ("A", "C")],
]


@pytest.mark.parametrize(("distance", "d_o", "d_e", "alpha"), [
    (dkpro_set_distance, 0.333, 0.409, 0.186),
    (dkpro_masi, 0.253, 0.338, 0.252),
])
def test_dkpro_set_annotations_example(distance: Any, d_o: float, d_e: float,
                                       alpha: float) -> None:
    """DKPro Agreement SetAnnotationsTest: published to three decimals."""
    res = accord.krippendorff_alpha(DKPRO_EXAMPLE, level=distance)
    assert res.observed == pytest.approx(d_o, abs=1e-3)
    assert res.expected == pytest.approx(d_e, abs=1e-3)
    assert res.estimate == pytest.approx(alpha, abs=1e-3)


def test_masi_cases_of_passonneau_2006() -> None:
    assert distances.masi(("a", "b"), ("b", "a")) == 0.0
    assert distances.masi(("a",), ("a", "b")) == pytest.approx(1 - 0.5 * 2 / 3, abs=1e-15)
    assert distances.masi(("a", "b"), ("b", "c")) == pytest.approx(1 - 1 / 9, abs=1e-15)
    assert distances.masi(("a",), ("b",)) == 1.0
    assert distances.masi((), ()) == 0.0 and distances.jaccard(set(), frozenset()) == 0.0
    assert distances.masi("a", ("a",)) == 0.0  # a single label is a one-label set


def test_empty_sets_are_values_and_missing_is_refused() -> None:
    rows = [[(), ()], [("a",), ()], [("a",), ("a",)], [("b",), ("a", "b")]]
    res = accord.krippendorff_alpha(rows, level="jaccard")
    assert math.isfinite(res.estimate) and res.n_units == 4
    with pytest.raises(DataError, match="missing"):
        distances.masi(None, ("a",))


sets_st = st.frozensets(st.sampled_from(LABELS), max_size=4)


@given(sets_st, sets_st, sets_st)
def test_set_distances_are_metrics_in_unit_interval(a: Any, b: Any, c: Any) -> None:
    for d in (distances.masi, distances.jaccard):
        assert 0.0 <= d(a, b) <= 1.0
        assert d(a, b) == d(b, a)
        assert d(a, a) == 0.0
    # Jaccard distance obeys the triangle inequality
    assert distances.jaccard(a, c) <= distances.jaccard(a, b) + distances.jaccard(b, c) + 1e-12


def test_krippendorff_differences() -> None:
    assert distances.nominal("a", "b") == 1.0 and distances.nominal(2, 2) == 0.0
    assert distances.interval(2, 5) == 9.0
    assert distances.ratio(1, 3) == 0.25 and distances.ratio(0, 0) == 0.0
    # Krippendorff (2011) example C, ordinal: marginals 9 13 10 5 3
    assert distances.ordinal(0, 1, [9, 13, 10, 5, 3]) == (9 / 2 + 13 / 2) ** 2
    assert distances.ordinal(2, 0, [9, 13, 10, 5, 3]) == distances.ordinal(0, 2, [9, 13, 10, 5, 3])


def test_ordinal_difference_as_a_matrix_reproduces_ordinal_alpha() -> None:
    data = accord.datasets.load("krippendorff_2011").data
    cm = accord.CoincidenceMatrix.from_annotations(
        accord.datasets.load("krippendorff_2011").as_annotations())
    n_c = cm.marginals
    k = len(n_c)
    delta = np.array([[distances.ordinal(i, j, n_c) for j in range(k)] for i in range(k)])
    ordinal = accord.krippendorff_alpha(data, level="ordinal").estimate  # numeric labels
    by_matrix = accord.krippendorff_alpha(data, level=delta).estimate
    assert by_matrix == pytest.approx(ordinal, abs=1e-12)


def test_named_single_label_levels_refuse_sets() -> None:
    rows = [[("a", "b"), ("a",)], [("b",), ("b",)]]
    with pytest.raises(DataError, match="sets of labels.*masi"):
        accord.krippendorff_alpha(rows)


def test_large_number_of_distinct_sets_matches_dense_path() -> None:
    """Blocks of the distance matrix give the same D_e as the dense matrix."""
    rng = np.random.default_rng(1)
    labels = [f"l{i}" for i in range(12)]
    rows = [[tuple(sorted(rng.choice(labels, size=rng.integers(1, 5), replace=False).tolist()))
             for _ in range(3)] for _ in range(300)]
    res = accord.krippendorff_alpha(rows, level="masi")
    ann = accord.Annotations.from_wide(rows)
    cm = accord.CoincidenceMatrix.from_annotations(ann)
    m = np.array([[exact_masi(frozenset(a), frozenset(b)) for b in cm.categories]
                  for a in cm.categories])
    dense = accord.krippendorff_alpha(rows, level=m)
    assert res.estimate == pytest.approx(dense.estimate, abs=1e-12)
    assert res.se == pytest.approx(dense.se, abs=1e-12)


cells_st = st.one_of(st.none(), st.frozensets(st.sampled_from("abc"), min_size=1, max_size=3))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(cells_st, min_size=3, max_size=3), min_size=4, max_size=12),
       st.randoms(use_true_random=False))
def test_set_alpha_invariances(rows: list[list[Any]], rnd: random.Random) -> None:
    """Unit order, rater order and label names do not matter; the Annotations and the
    coincidence-matrix entry points agree; identical sets give alpha 1."""
    import warnings as w

    with w.catch_warnings():
        w.simplefilter("ignore", accord.DegenerateDataWarning)
        try:
            base = accord.krippendorff_alpha(rows, level="masi")
        except accord.errors.InsufficientDataError:
            return
        shuffled = rows[:]
        rnd.shuffle(shuffled)
        renamed = [[None if c is None else frozenset(x.upper() for x in c) for c in row][::-1]
                   for row in shuffled]
        other = accord.krippendorff_alpha(renamed, level="masi")
        cm = accord.CoincidenceMatrix.from_annotations(accord.Annotations.from_wide(rows))
        from_cm = accord.krippendorff_alpha(cm, level="masi")
    for res in (other, from_cm):
        assert (math.isnan(base.estimate) and math.isnan(res.estimate)) or \
            res.estimate == pytest.approx(base.estimate, abs=1e-12)
    same = [[row[0]] * 3 for row in rows if row[0] is not None]
    if len({r[0] for r in same}) > 1:
        assert accord.krippendorff_alpha(same, level="jaccard").estimate == pytest.approx(1.0)
