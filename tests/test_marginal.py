"""Symmetry and marginal homogeneity tests against R and statsmodels.

Sources:
- R figures recorded in statsmodels' ``stats/tests/results/contingency_table_r_results.csv``
  (homog_stat, bowker_stat, mcnemar p-values, ...) for its three test tables, copied
  below at full precision;
- Stuart (1955) vision data (R irr's ``vision``): Stuart-Maxwell 11.96 on 3 df
  (Agresti 2013, *Categorical Data Analysis*, sec. 11.3); R ``irr::rater.bias(vision)``
  output on rdrr.io: Ratio = 0.537, Chisq(1) = 11.9, p-value = 0.000566;
- statsmodels ``SquareTable.homogeneity`` / ``symmetry`` and ``mcnemar`` as differential
  oracles on random tables.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar

import accord
from accord import ContingencyTable
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError

VISION = [[1520, 266, 124, 66], [234, 1512, 432, 78], [117, 362, 1772, 205],
          [36, 82, 179, 492]]
SM_TABLES = [
    [[23, 15], [19, 31]],
    [[144, 33, 84, 126], [2, 4, 14, 29], [0, 2, 6, 25], [0, 0, 1, 5]],
    [[20, 10, 5], [3, 30, 15], [0, 5, 40]],
]
# R figures from statsmodels' contingency_table_r_results.csv
R_HOMOGENEITY = [(0.470588235294118, 1), (271.922246968262, 3), (13.7647058823529, 2)]
R_BOWKER = [(0.470588235294118, 1, 0.492716677227088),
            (297.610989010989, 6, 2.65851858368065e-61),
            (13.7692307692308, 3, 0.00323670650323545)]


@pytest.mark.parametrize("k", range(3))
def test_stuart_maxwell_and_bowker_reproduce_r(k: int) -> None:
    t = ContingencyTable(SM_TABLES[k])
    sm_res = accord.stuart_maxwell_test(t)
    assert sm_res.statistic == pytest.approx(R_HOMOGENEITY[k][0], rel=1e-12)
    assert sm_res.df == R_HOMOGENEITY[k][1]
    bow = accord.bowker_test(t)
    assert bow.statistic == pytest.approx(R_BOWKER[k][0], rel=1e-12)
    assert bow.df == R_BOWKER[k][1]
    assert bow.pvalue == pytest.approx(R_BOWKER[k][2], rel=1e-9)


def test_mcnemar_reproduces_r() -> None:
    t = ContingencyTable(SM_TABLES[0])
    assert accord.mcnemar_test(t).statistic == pytest.approx(0.470588235294118, rel=1e-12)
    # R mcnemar.test(correct=TRUE) p 0.606905427217951; binomial p 0.60759136127308
    assert accord.mcnemar_test(t, method="corrected").pvalue == pytest.approx(
        0.606905427217951, rel=1e-12)
    assert accord.mcnemar_test(t, method="exact").pvalue == pytest.approx(
        0.60759136127308, rel=1e-12)
    peer = mcnemar(np.array(SM_TABLES[0]), exact=False, correction=True)
    res = accord.mcnemar_test(t, method="corrected")
    assert res.statistic == pytest.approx(peer.statistic, rel=1e-13)


def test_vision_data() -> None:
    t = ContingencyTable(VISION)
    smx = accord.stuart_maxwell_test(t)
    assert round(smx.statistic, 2) == 11.96 and smx.df == 3  # Agresti (2013), sec. 11.3
    peer = sm.stats.SquareTable(np.array(VISION), shift_zeros=False)
    assert smx.statistic == pytest.approx(peer.homogeneity().statistic, rel=1e-12)
    assert smx.pvalue == pytest.approx(peer.homogeneity().pvalue, rel=1e-9)
    bh = accord.bhapkar_test(t)
    assert bh.statistic == pytest.approx(peer.homogeneity("bhapkar").statistic, rel=1e-12)
    assert accord.bowker_test(t).statistic == pytest.approx(peer.symmetry().statistic,
                                                             rel=1e-12)
    rb = accord.rater_bias(t)  # irr: Ratio = 0.537, Chisq(1) = 11.9, p-value = 0.000566
    assert (round(rb.estimate, 3), round(rb.statistic, 1)) == (0.537, 11.9)
    assert round(rb.pvalue, 6) == 0.000566
    b = sum(VISION[i][j] for i in range(4) for j in range(i + 1, 4))
    c = sum(VISION[i][j] for i in range(4) for j in range(i))
    assert rb.estimate == b / (b + c)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5).flatmap(
    lambda k: st.lists(st.integers(1, 60), min_size=k * k, max_size=k * k)))
def test_random_tables_match_statsmodels(cells: list[int]) -> None:
    k = int(round(math.sqrt(len(cells))))
    counts = np.array(cells, dtype=float).reshape(k, k)
    peer = sm.stats.SquareTable(counts, shift_zeros=False)
    t = ContingencyTable(counts)
    assert accord.stuart_maxwell_test(t).statistic == pytest.approx(
        peer.homogeneity().statistic, rel=1e-9, abs=1e-12)
    assert accord.bhapkar_test(t).statistic == pytest.approx(
        peer.homogeneity("bhapkar").statistic, rel=1e-9, abs=1e-12)
    assert accord.bowker_test(t).statistic == pytest.approx(peer.symmetry().statistic,
                                                             rel=1e-9, abs=1e-12)
    if k == 2:
        ref = mcnemar(counts, exact=True)
        assert accord.mcnemar_test(t, method="exact").pvalue == pytest.approx(ref.pvalue,
                                                                             rel=1e-12)


def test_labels_and_table_give_the_same_tests() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 3, 200)
    b = np.where(rng.random(200) < 0.7, a, rng.integers(0, 3, 200))
    t = ContingencyTable.from_codes(a, b, [0, 1, 2])
    for f in (accord.stuart_maxwell_test, accord.bhapkar_test, accord.bowker_test,
              accord.rater_bias):
        assert f(a, b).statistic == pytest.approx(f(t).statistic, rel=1e-14)


def test_category_never_confused_is_its_own_group() -> None:
    # Category "c" is only ever agreed on: S on the first k - 1 categories is singular
    # when "c" is not the one left out. accord tests the linked categories (rank 1).
    counts = np.array([[10.0, 6, 0], [2, 12, 0], [0, 0, 9]])
    res = accord.stuart_maxwell_test(ContingencyTable(counts, ["a", "b", "c"]))
    reduced = sm.stats.SquareTable(counts[:2, :2], shift_zeros=False).homogeneity()
    assert res.statistic == pytest.approx(reduced.statistic, rel=1e-12)
    assert res.df == 1 and res.details["n_groups"] == 1
    assert res.pvalue == pytest.approx(reduced.pvalue, rel=1e-9)


def test_perfect_agreement_is_undefined() -> None:
    t = ContingencyTable([[5, 0, 0], [0, 4, 0], [0, 0, 3]])
    for f in (accord.stuart_maxwell_test, accord.bhapkar_test, accord.bowker_test,
              accord.rater_bias):
        with pytest.warns(DegenerateDataWarning, match="never disagree"):
            res = f(t)
        assert not res.defined and math.isnan(res.statistic)
        assert res.to_dict()["statistic"] is None
    with pytest.warns(DegenerateDataWarning):
        assert not accord.mcnemar_test(ContingencyTable([[5, 0], [0, 4]])).defined


def test_bhapkar_infinite_when_every_unit_disagrees_one_way() -> None:
    res = accord.bhapkar_test(ContingencyTable([[0, 7], [0, 0]]))
    assert res.statistic == math.inf and res.pvalue == 0.0


def test_bad_input() -> None:
    with pytest.raises(DataError, match="two categories"):
        accord.mcnemar_test(ContingencyTable(SM_TABLES[2]))
    with pytest.raises(InvalidParameterError, match="'method' parameter of mcnemar_test"):
        accord.mcnemar_test(ContingencyTable(SM_TABLES[0]), method="fisher")  # type: ignore[arg-type]


def test_marginal_tests_pick_by_table_size() -> None:
    assert [r.test for r in accord.marginal_tests(ContingencyTable(SM_TABLES[0]))] == [
        "mcnemar"]
    two = accord.marginal_tests(ContingencyTable(VISION))
    assert [r.test for r in two] == ["stuart_maxwell", "bhapkar", "bowker"]
    assert "chi2(3)" in str(two[0])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12).flatmap(
    lambda k: st.lists(st.booleans(), min_size=k * k, max_size=k * k)))
def test_the_groups_of_linked_categories_are_scipys_connected_components(
        cells: list[bool]) -> None:
    """Stuart-Maxwell's groups come from a small search of its own (scipy.sparse's import
    is longer than a small report's tests), numbered as scipy numbers them."""
    from scipy.sparse.csgraph import connected_components

    from accord.interpret.marginal import _components

    k = int(round(math.sqrt(len(cells))))
    m = np.array(cells).reshape(k, k)
    linked = m | m.T
    n, label = _components(linked)
    want_n, want_label = connected_components(linked, directed=False)
    assert n == want_n and label.tolist() == want_label.tolist()
