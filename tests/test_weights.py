"""Agreement weights: Gwet's eight named weights and validation of user matrices.

The named matrices are checked against the definitions of R irrCAC's
``weights.gen.r`` as ported by Python irrCAC 0.4.4 (``irrCAC.weights.Weights``
on categories 1..q); the values below were printed by that package (rounded to
15 decimals) and are compared at 1e-12.
"""

from __future__ import annotations

import numpy as np
import pytest

import accord
from accord.data.weights import WEIGHT_NAMES, agreement_weights, is_identity
from accord.errors import InvalidParameterError, UndeclaredOrderWarning

IRRCAC_WEIGHTS: dict[int, dict[str, list[list[float]]]] = {
    3: {
        "identity": [
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ],
        "linear": [
            [1.0, 0.5, 0.0],
            [0.5, 1.0, 0.5],
            [0.0, 0.5, 1.0],
        ],
        "quadratic": [
            [1.0, 0.75, 0.0],
            [0.75, 1.0, 0.75],
            [0.0, 0.75, 1.0],
        ],
        "ordinal": [
            [1.0, 0.666666666666667, 0.0],
            [0.666666666666667, 1.0, 0.666666666666667],
            [0.0, 0.666666666666667, 1.0],
        ],
        "radical": [
            [1.0, 0.292893218813453, 0.0],
            [0.292893218813453, 1.0, 0.292893218813453],
            [0.0, 0.292893218813453, 1.0],
        ],
        "ratio": [
            [1.0, 0.555555555555556, 0.0],
            [0.555555555555556, 1.0, 0.84],
            [0.0, 0.84, 1.0],
        ],
        "circular": [
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ],
        "bipolar": [
            [1.0, 0.666666666666667, 0.0],
            [0.666666666666667, 1.0, 0.666666666666667],
            [0.0, 0.666666666666667, 1.0],
        ],
    },
    5: {
        "identity": [
            [1.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 1.0],
        ],
        "linear": [
            [1.0, 0.75, 0.5, 0.25, 0.0],
            [0.75, 1.0, 0.75, 0.5, 0.25],
            [0.5, 0.75, 1.0, 0.75, 0.5],
            [0.25, 0.5, 0.75, 1.0, 0.75],
            [0.0, 0.25, 0.5, 0.75, 1.0],
        ],
        "quadratic": [
            [1.0, 0.9375, 0.75, 0.4375, 0.0],
            [0.9375, 1.0, 0.9375, 0.75, 0.4375],
            [0.75, 0.9375, 1.0, 0.9375, 0.75],
            [0.4375, 0.75, 0.9375, 1.0, 0.9375],
            [0.0, 0.4375, 0.75, 0.9375, 1.0],
        ],
        "ordinal": [
            [1.0, 0.9, 0.7, 0.4, 0.0],
            [0.9, 1.0, 0.9, 0.7, 0.4],
            [0.7, 0.9, 1.0, 0.9, 0.7],
            [0.4, 0.7, 0.9, 1.0, 0.9],
            [0.0, 0.4, 0.7, 0.9, 1.0],
        ],
        "radical": [
            [1.0, 0.5, 0.292893218813452, 0.133974596215561, 0.0],
            [0.5, 1.0, 0.5, 0.292893218813452, 0.133974596215561],
            [0.292893218813452, 0.5, 1.0, 0.5, 0.292893218813452],
            [0.133974596215561, 0.292893218813452, 0.5, 1.0, 0.5],
            [0.0, 0.133974596215561, 0.292893218813452, 0.5, 1.0],
        ],
        "ratio": [
            [1.0, 0.75, 0.4375, 0.19, 0.0],
            [0.75, 1.0, 0.91, 0.75, 0.586734693877551],
            [0.4375, 0.91, 1.0, 0.954081632653061, 0.859375],
            [0.19, 0.75, 0.954081632653061, 1.0, 0.972222222222222],
            [0.0, 0.586734693877551, 0.859375, 0.972222222222222, 1.0],
        ],
        "circular": [
            [1.0, 0.618033988749895, 0.0, 0.0, 0.618033988749895],
            [0.618033988749895, 1.0, 0.618033988749895, 0.0, 0.0],
            [0.0, 0.618033988749895, 1.0, 0.618033988749895, 0.0],
            [0.0, 0.0, 0.618033988749895, 1.0, 0.618033988749895],
            [0.618033988749895, 0.0, 0.0, 0.618033988749895, 1.0],
        ],
        "bipolar": [
            [1.0, 0.857142857142857, 0.666666666666667, 0.4, 0.0],
            [0.857142857142857, 1.0, 0.933333333333333, 0.75, 0.4],
            [0.666666666666667, 0.933333333333333, 1.0, 0.933333333333333, 0.666666666666667],
            [0.4, 0.75, 0.933333333333333, 1.0, 0.857142857142857],
            [0.0, 0.4, 0.666666666666667, 0.857142857142857, 1.0],
        ],
    },
}


@pytest.mark.parametrize("q", [3, 5])
@pytest.mark.parametrize("name", WEIGHT_NAMES)
def test_named_weights_match_irrcac(q: int, name: str) -> None:
    w = agreement_weights(name, q)
    np.testing.assert_allclose(w, IRRCAC_WEIGHTS[q][name], rtol=0, atol=1e-12)


@pytest.mark.parametrize("q", [2, 3, 4, 7])
@pytest.mark.parametrize("name", WEIGHT_NAMES)
def test_named_weights_are_agreement_weights(q: int, name: str) -> None:
    w = agreement_weights(name, q)
    assert w.shape == (q, q)
    assert np.all(np.diag(w) == 1.0)
    assert w.min() >= 0.0 and w.max() <= 1.0
    np.testing.assert_allclose(w, w.T, atol=1e-15)


def test_linear_and_quadratic_formulas() -> None:
    # Cohen (1968); Fleiss & Cohen (1973): 1 - |k - l| / (q - 1), 1 - (k - l)^2 / (q - 1)^2
    k = np.arange(6)
    d = np.abs(np.subtract.outer(k, k))
    np.testing.assert_allclose(agreement_weights("linear", 6), 1 - d / 5, atol=1e-15)
    np.testing.assert_allclose(agreement_weights("quadratic", 6), 1 - d**2 / 25, atol=1e-15)


def test_none_and_identity_and_one_category() -> None:
    assert is_identity(agreement_weights(None, 4))
    assert is_identity(agreement_weights("identity", 4))
    assert not is_identity(agreement_weights("linear", 4))
    for name in WEIGHT_NAMES:
        assert agreement_weights(name, 1).tolist() == [[1.0]]


def test_unknown_weight_name_uses_the_standard_message() -> None:
    with pytest.raises(InvalidParameterError) as err:
        agreement_weights("quadratc", 3, func="cohen_kappa")
    assert str(err.value).startswith("The 'weights' parameter of cohen_kappa must be one of {")
    assert str(err.value).endswith("Got 'quadratc' instead.")


@pytest.mark.parametrize(
    ("matrix", "expected"),
    [
        ([[1, 0], [0, 1]], "a 3 x 3 matrix"),
        ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]], "a 3 x 3 matrix"),
        ([[1, 2, 0], [0, 1, 0], [0, 0, 1]], "agreement weights in [0, 1]"),
        ([[1, -0.5, 0], [0, 1, 0], [0, 0, 1]], "agreement weights in [0, 1]"),
        ([[1, np.nan, 0], [0, 1, 0], [0, 0, 1]], "agreement weights in [0, 1]"),
        ([[0.9, 0, 0], [0, 1, 0], [0, 0, 1]], "1 on the diagonal"),
        ([["a", 0, 0], [0, 1, 0], [0, 0, 1]], "a weight name or a 3 x 3 numeric matrix"),
    ],
)
def test_invalid_matrices_are_rejected(matrix: object, expected: str) -> None:
    with pytest.raises(InvalidParameterError) as err:
        agreement_weights(matrix, 3, func="cohen_kappa")
    text = str(err.value)
    assert text.startswith("The 'weights' parameter of cohen_kappa must be ")
    assert expected in text and "Got " in text and text.endswith(" instead.")


def test_coefficient_rejects_a_matrix_of_the_wrong_size() -> None:
    with pytest.raises(InvalidParameterError, match=r"a 3 x 3 matrix .*shape \(2, 2\)"):
        accord.cohen_kappa([1, 2, 3], [1, 2, 2], weights=[[1, 0], [0, 1]])


def test_nonsymmetric_matrix_is_allowed() -> None:
    w = [[1, 0.5, 0], [0, 1, 0.5], [0, 0, 1]]
    np.testing.assert_array_equal(agreement_weights(w, 3), np.asarray(w, dtype=float))


def test_weights_use_category_positions_not_label_values() -> None:
    y1, y2 = [1, 5, 10, 10, 5], [1, 10, 10, 5, 5]
    by_value = accord.cohen_kappa(y1, y2, weights="linear")
    by_name = accord.cohen_kappa(["lo", "mid", "hi", "hi", "mid"], ["lo", "hi", "hi", "mid", "mid"],
                                 weights="linear", categories=["lo", "mid", "hi"])
    assert by_value.estimate == pytest.approx(by_name.estimate, abs=1e-15)


# ---------------------------------------------------------------- the order of text labels
LOW_HIGH_X = ["low", "medium", "high", "low"]
LOW_HIGH_Y = ["medium", "medium", "high", "high"]
SCALE = ["low", "medium", "high"]
SORTED = r"sorted text labels \['high', 'low', 'medium'\] were taken as the scale"


@pytest.mark.parametrize("name", ["cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger",
                                  "percent_agreement", "fleiss_kappa", "conger_kappa"])
def test_named_weights_on_undeclared_text_labels_say_which_order_they_used(name: str) -> None:
    """Sorted text ("high" < "low" < "medium") is the order used when none is declared
    (ARCHITECTURE: "declared (or sorted observed) category order"), and it is rarely the
    scale, so an UndeclaredOrderWarning says so; declaring the order silences it."""
    func = getattr(accord, name)
    data = {"a": LOW_HIGH_X, "b": LOW_HIGH_Y}
    with pytest.warns(UndeclaredOrderWarning, match=SORTED):
        sorted_order = func(data, weights="linear")
    explicit = func(data, weights="linear", categories=["high", "low", "medium"])
    assert sorted_order.estimate == pytest.approx(explicit.estimate, abs=1e-15)
    assert func(data, weights="linear", categories=SCALE).defined  # no warning: errors here
    func(data)  # unweighted needs no order
    func(data, weights="identity")


def test_sorted_text_order_matches_scikit_learn_and_the_declared_scale_differs() -> None:
    from sklearn.metrics import cohen_kappa_score

    with pytest.warns(UndeclaredOrderWarning):
        sorted_order = accord.cohen_kappa(LOW_HIGH_X, LOW_HIGH_Y, weights="linear")
    # scikit-learn 1.9.1 also weights sorted labels
    assert sorted_order.estimate == pytest.approx(
        cohen_kappa_score(LOW_HIGH_X, LOW_HIGH_Y, weights="linear"), abs=1e-15)
    # hand computation on low < medium < high: p_o = 0.625, p_e = 0.5, kappa = 0.25
    declared = accord.cohen_kappa(LOW_HIGH_X, LOW_HIGH_Y, weights="linear", categories=SCALE)
    assert declared.estimate == pytest.approx(0.25, abs=1e-15)
    assert sorted_order.estimate == pytest.approx(0.5, abs=1e-15)


def test_declared_order_travels_with_annotations_and_tables() -> None:
    ann = accord.Annotations.from_pairs(LOW_HIGH_X, LOW_HIGH_Y)
    assert not ann.ordered
    declared = accord.Annotations.from_pairs(LOW_HIGH_X, LOW_HIGH_Y, categories=SCALE)
    assert declared.ordered and ann.with_categories(SCALE).ordered
    assert declared.select(["rater_1", "rater_2"]).ordered
    assert accord.Annotations.from_pairs([1, 2], [2, 2]).ordered  # numbers are a scale
    assert accord.cohen_kappa(declared, weights="linear").estimate == pytest.approx(0.25)
    assert accord.pairwise(declared, "cohen_kappa", weights="linear").mean() == pytest.approx(0.25)
    table = accord.ContingencyTable.from_annotations(ann)
    assert not table.ordered
    with pytest.warns(UndeclaredOrderWarning, match="declare the order"):
        accord.cohen_kappa(table, weights="quadratic")
    # declaring the table's own order on the call is enough, and leaves the table as it was
    accord.cohen_kappa(table, weights="quadratic", categories=list(table.categories))
    assert not table.ordered
    # counts a user wrote down are in the order the user gave
    assert accord.ContingencyTable([[1, 2], [3, 4]], ["yes", "no"]).ordered
    assert accord.RaterCounts([[1, 1], [2, 0]], categories=["yes", "no"]).ordered


def test_ordinal_alpha_on_undeclared_text_labels_says_which_order_it_used() -> None:
    data = {"a": LOW_HIGH_X, "b": LOW_HIGH_Y}
    with pytest.warns(UndeclaredOrderWarning, match="level='ordinal' ranks the categories"):
        accord.krippendorff_alpha(data, level="ordinal")
    declared = accord.krippendorff_alpha(data, level="ordinal", categories=SCALE)
    sorted_text = accord.krippendorff_alpha(data, level="ordinal",
                                            categories=["high", "low", "medium"])
    assert declared.estimate != pytest.approx(sorted_text.estimate)
    counts = accord.RaterCounts.from_annotations(accord.Annotations.from_wide(data))
    with pytest.warns(UndeclaredOrderWarning, match=SORTED):
        accord.krippendorff_alpha(counts, level="ordinal")
