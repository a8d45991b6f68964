"""accord.interpret.diagnostics: per-unit agreement, leave-one-rater-out, label distributions.

Per-unit agreement is the unit's term of Fleiss' (1971) P_i (its mean over units
is Fleiss' P-bar, 0.5556 on Fleiss' Table 1); leave-one-rater-out values are
checked against the coefficient computed directly on the remaining raters;
label counts against pandas ``value_counts``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import accord
from accord import RaterCounts
from accord.errors import DataError, DegenerateDataWarning

FLEISS_1971 = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
    [0, 0, 5, 0, 1], [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
    [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0], [1, 0, 0, 4, 1],
    [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0], [1, 0, 5, 0, 0], [0, 0, 0, 0, 6],
]
RAW = [["a", "a", "a", None], ["a", "b", "b", "b"], ["c", "b", "a", "a"], ["b", "b", None, None],
       ["c", None, None, None]]


class TestUnitAgreement:
    def test_fleiss_table_mean_is_p_bar(self) -> None:
        ua = accord.unit_agreement(RaterCounts(FLEISS_1971, categories=[1, 2, 3, 4, 5]))
        # Fleiss (1971): P-bar = .5556; unit 1 (all six agree) has P_1 = 1
        assert np.mean(ua.agreement) == pytest.approx(0.5555555556, abs=1e-9)
        assert ua.agreement[0] == 1.0 and ua.raters is None
        assert ua.labels(1) == {2: 3, 5: 3}

    def test_raw_shares_and_labels(self) -> None:
        ua = accord.unit_agreement(RAW)
        # pairs agreeing: 3/3, 3/6, 1/6, 1/1, and a unit with one rating
        assert ua.agreement[:4].tolist() == pytest.approx([1.0, 0.5, 1 / 6, 1.0])
        assert math.isnan(ua.agreement[4])
        assert ua.n_ratings.tolist() == [3, 4, 4, 2, 1]
        assert ua.labels(2) == {"rater_1": "c", "rater_2": "b", "rater_3": "a", "rater_4": "a"}

    def test_disagreements_sorted(self) -> None:
        rows = accord.unit_agreement(RAW).disagreements(None)
        assert [r["unit"] for r in rows] == [2, 1, 0, 3]  # ties: more ratings first
        assert rows[0]["agreement"] == pytest.approx(1 / 6)
        assert len(accord.unit_agreement(RAW).disagreements(2)) == 2

    def test_to_dict_is_json(self) -> None:
        out = accord.unit_agreement(RAW).to_dict()
        json.dumps(out)
        assert out["units"][4]["agreement"] is None
        assert out["disagreements"][0]["unit"] == 2


class TestLeaveOneRaterOut:
    def test_matches_direct_computation(self) -> None:
        loo = accord.leave_one_rater_out(RAW, "fleiss_kappa")
        ann = accord.Annotations.from_wide(RAW)
        assert loo.full.estimate == pytest.approx(accord.fleiss_kappa(RAW).estimate, abs=1e-15)
        for rater in ann.raters:
            rest = [r for r in ann.raters if r != rater]
            direct = accord.fleiss_kappa(ann.select(rest))
            assert loo.estimates[rater] == pytest.approx(direct.estimate, abs=1e-15)
            assert loo.change[rater] == pytest.approx(direct.estimate - loo.full.estimate)

    def test_options_passed(self) -> None:
        loo = accord.leave_one_rater_out(RAW, "gwet_ac1", weights="linear",
                                         categories=["a", "b", "c"])
        assert loo.full.details["weights"] == "linear"

    def test_two_raters_leave_one(self) -> None:
        with pytest.warns(DegenerateDataWarning, match="2 leave-one-rater-out"):
            loo = accord.leave_one_rater_out([[1, 1], [2, 2], [1, 2]], "cohen_kappa")
        assert all(math.isnan(x) for x in loo.estimates.values())
        assert loo.results["rater_1"].undefined_reason == "without 'rater_1' only one rater is left"
        json.dumps(loo.to_dict())

    def test_rater_counts_refused(self) -> None:
        with pytest.raises(DataError, match="which rater gave each rating"):
            accord.leave_one_rater_out(RaterCounts(FLEISS_1971))


class TestLabelDistribution:
    def test_counts_match_pandas(self) -> None:
        import pandas as pd

        dist = accord.label_distribution(RAW)
        frame = pd.DataFrame(RAW, columns=list(dist.raters))
        for g, rater in enumerate(dist.raters):
            counts = frame[rater].value_counts()
            for k, cat in enumerate(dist.categories):
                assert dist.counts[g, k] == counts.get(cat, 0)
        assert dist.proportions[0].tolist() == pytest.approx([0.4, 0.2, 0.4])

    def test_to_dict(self) -> None:
        out = accord.label_distribution(RAW).to_dict()
        json.dumps(out)
        assert out["raters"][3] == {"rater": "rater_4", "n_ratings": 2,
                                    "counts": {"a": 1, "b": 1, "c": 0},
                                    "proportions": {"a": 0.5, "b": 0.5, "c": 0.0}}
