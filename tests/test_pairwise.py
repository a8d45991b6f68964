"""accord.pairwise: the rater x rater matrix of a two-rater coefficient.

Pairwise Cohen's kappas are checked against scikit-learn 1.9
``cohen_kappa_score`` on the units both raters rated; their mean against
``light_kappa`` (Light 1971; R irr ``kappam.light(diagnoses)`` = 0.459).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import accord
from accord import RaterCounts
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError

DIAGNOSES = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]


def test_cohen_matrix_matches_sklearn() -> None:
    data = np.array(DIAGNOSES, dtype=float)
    data[[0, 5, 9], 2] = np.nan
    res = accord.pairwise(data)
    assert res.raters == tuple(f"rater_{j}" for j in range(1, 7))
    for i in range(6):
        assert res.n[i, i] == np.count_nonzero(~np.isnan(data[:, i]))
        assert math.isnan(res.estimates[i, i])
        for j in range(i + 1, 6):
            both = ~np.isnan(data[:, i]) & ~np.isnan(data[:, j])
            expected = cohen_kappa_score(data[both, i], data[both, j])
            assert res.estimates[i, j] == pytest.approx(expected, abs=1e-12)
            assert res.estimates[j, i] == res.estimates[i, j]
            assert res.n[i, j] == res.n[j, i] == both.sum()
            assert res.results[(res.raters[i], res.raters[j])].n_units == both.sum()


def test_mean_is_light_kappa() -> None:
    res = accord.pairwise(DIAGNOSES)
    assert res.mean() == pytest.approx(accord.light_kappa(DIAGNOSES).estimate, abs=1e-15)
    assert res.mean() == pytest.approx(0.459, abs=5e-4)  # irr kappam.light(diagnoses)


def test_other_coefficient_and_options() -> None:
    res = accord.pairwise(DIAGNOSES, "gwet_ac1", weights="quadratic")
    direct = accord.gwet_ac1([row[:2] for row in DIAGNOSES], weights="quadratic",
                             categories=[1, 2, 3, 4, 5])
    assert res.coefficient == "gwet_ac1"
    assert res.estimates[0, 1] == pytest.approx(direct.estimate, abs=1e-15)


def test_pair_without_common_unit_is_nan_with_reason() -> None:
    data = [["a", None, "a"], ["b", None, "b"], [None, "a", "a"], [None, "b", "a"]]
    with pytest.warns(DegenerateDataWarning, match="1 pair"):
        res = accord.pairwise(data)
    pair = res.results[("rater_1", "rater_2")]
    assert math.isnan(res.estimates[0, 1]) and res.n[0, 1] == 0
    assert pair.undefined_reason == "raters 'rater_1' and 'rater_2' rated no unit in common"
    assert res.estimates[0, 2] == pytest.approx(1.0)
    assert res.mean() == pytest.approx(np.mean([1.0, 0.0]))  # the pair with no unit left out


def test_undefined_pairs_summarised_in_one_warning() -> None:
    data = [["a", "a", "b"], ["a", "a", "a"], ["a", "a", "b"]]
    with pytest.warns(DegenerateDataWarning) as record:
        res = accord.pairwise(data)
    assert len(record) == 1 and "1 pair(s)" in str(record[0].message)
    assert "p_e = 1" in res.results[("rater_1", "rater_2")].undefined_reason
    assert math.isnan(res.mean())


def test_to_dict_is_json() -> None:
    out = accord.pairwise(DIAGNOSES[:10]).to_dict()
    text = json.dumps(out)
    assert out["coefficient"] == "cohen_kappa" and len(out["pairs"]) == 15
    assert out["estimates"][0][0] is None and "NaN" not in text


def test_bad_input() -> None:
    with pytest.raises(InvalidParameterError, match="'coefficient' parameter of pairwise"):
        accord.pairwise(DIAGNOSES, "kappa")
    with pytest.raises(DataError, match="which rater gave each rating"):
        accord.pairwise(RaterCounts([[1, 1], [2, 0]]))
