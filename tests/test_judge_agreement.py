"""judge_agreement: the judge against each human and the consensus, next to the human ceiling.

Oracles: every figure is recomputed here from its definition with accord's own
coefficients (themselves checked against R and scikit-learn elsewhere) and with
scikit-learn's cohen_kappa_score for the pairs; the consensus (majority label, ties
left out; or the mean score) is rebuilt by hand.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import InsufficientDataError, InvalidParameterError

FAST = accord.Bootstrap(n_resamples=200, rng=0)


def _panel(seed: int, n: int = 60, humans: int = 4, k: int = 3,
           missing: float = 0.0) -> dict[str, list[Any]]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    cols: dict[str, list[Any]] = {}
    for name, noise in [("judge", 0.2)] + [(f"h{j}", 0.3) for j in range(humans)]:
        col = truth.copy()
        flip = rng.random(n) < noise
        col[flip] = rng.integers(0, k, int(flip.sum()))
        values: list[Any] = col.tolist()
        if name != "judge":
            for i in np.flatnonzero(rng.random(n) < missing):
                values[i] = None
        cols[name] = values
    return cols


def _majority(labels: list[Any]) -> Any:
    counts = Counter(x for x in labels if x is not None).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def _eligible(cols: dict[str, list[Any]], humans: list[str]) -> list[int]:
    return [i for i in range(len(cols["judge"]))
            if cols["judge"][i] is not None and sum(cols[h][i] is not None for h in humans) >= 2]


def test_pairs_match_sklearn_cohen_kappa() -> None:
    from sklearn.metrics import cohen_kappa_score

    cols = _panel(1, missing=0.1)
    res = accord.judge_agreement(cols, judge="judge", coefficient="cohen_kappa", method=FAST)
    humans = [f"h{j}" for j in range(4)]
    units = _eligible(cols, humans)
    assert res.n_units == len(units)
    for h in humans:
        both = [i for i in units if cols[h][i] is not None]
        expected = cohen_kappa_score([cols["judge"][i] for i in both], [cols[h][i] for i in both])
        assert res.judge_vs_human[h].estimate == pytest.approx(expected, abs=1e-12)


def test_leave_one_out_consensus_rows_match_their_definition() -> None:
    from sklearn.metrics import cohen_kappa_score

    cols = _panel(2, humans=5, missing=0.1)
    humans = [f"h{j}" for j in range(5)]
    res = accord.judge_agreement(cols, judge="judge", coefficient="cohen_kappa", method=FAST)
    units = _eligible(cols, humans)
    for h in humans:
        rest = [k for k in humans if k != h]
        pairs_j, pairs_h = [], []
        for i in units:
            m = _majority([cols[k][i] for k in rest])
            if m is None:
                continue
            pairs_j.append((cols["judge"][i], m))
            if cols[h][i] is not None:
                pairs_h.append((cols[h][i], m))
        assert res.judge_vs_others[h].estimate == pytest.approx(
            cohen_kappa_score(*zip(*pairs_j)), abs=1e-12)
        assert res.human_vs_others[h].estimate == pytest.approx(
            cohen_kappa_score(*zip(*pairs_h)), abs=1e-12)
        diff = res.differences[h]
        assert diff.difference == pytest.approx(
            res.judge_vs_others[h].estimate - res.human_vs_others[h].estimate, abs=1e-15)
        assert diff.interval.low <= diff.difference <= diff.interval.high
    assert res.ceiling == pytest.approx(
        np.mean([res.human_vs_others[h].estimate for h in humans]), abs=1e-15)


def test_panel_with_and_without_the_judge_is_alpha_on_the_same_units() -> None:
    cols = _panel(3, missing=0.2)
    humans = [f"h{j}" for j in range(4)]
    res = accord.judge_agreement(cols, judge="judge", method=FAST)
    units = _eligible(cols, humans)
    table = [[cols[r][i] for r in ["judge", *humans]] for i in units]
    with_judge = accord.krippendorff_alpha(table)
    without = accord.krippendorff_alpha([row[1:] for row in table])
    assert res.coefficient == "krippendorff_alpha" and res.level == "nominal"
    assert res.panel_with_judge is not None and res.panel_without_judge is not None
    assert res.panel_with_judge.estimate == pytest.approx(with_judge.estimate, abs=1e-12)
    assert res.panel_without_judge.estimate == pytest.approx(without.estimate, abs=1e-12)
    assert res.panel_change is not None
    assert res.panel_change.difference == pytest.approx(
        with_judge.estimate - without.estimate, abs=1e-12)


def test_scores_use_the_mean_of_the_other_humans_and_icc() -> None:
    rng = np.random.default_rng(4)
    truth = rng.normal(size=50)
    cols = {"judge": (truth + rng.normal(scale=0.3, size=50)).round(2).tolist()}
    cols |= {f"h{j}": (truth + rng.normal(scale=0.5, size=50)).round(2).tolist()
             for j in range(3)}
    res = accord.judge_agreement(cols, judge="judge", coefficient="icc", method=FAST)
    assert res.level == "interval"
    for h in ["h0", "h1", "h2"]:
        rest = [k for k in ["h0", "h1", "h2"] if k != h]
        mean = np.mean([cols[k] for k in rest], axis=0)
        expected = accord.icc(np.column_stack([cols[h], mean]))
        assert res.human_vs_others[h].estimate == pytest.approx(expected.estimate, abs=1e-12)
        expected_j = accord.icc(np.column_stack([cols["judge"], mean]))
        assert res.judge_vs_others[h].estimate == pytest.approx(expected_j.estimate, abs=1e-12)


def test_weighted_kappa_option_is_passed_on() -> None:
    cols = _panel(5, k=5)
    res = accord.judge_agreement(cols, judge="judge", coefficient="cohen_kappa",
                                 weights="quadratic", method=FAST)
    expected = accord.cohen_kappa(cols["judge"], cols["h0"], weights="quadratic")
    assert res.judge_vs_human["h0"].estimate == pytest.approx(expected.estimate, abs=1e-12)


def test_judge_copying_a_human_agrees_perfectly_with_them() -> None:
    cols = _panel(6)
    cols["judge"] = list(cols["h1"])
    res = accord.judge_agreement(cols, judge="judge", coefficient="cohen_kappa", method=FAST)
    assert res.judge_vs_human["h1"].estimate == 1.0
    assert res.judge_vs_others["h1"].estimate == pytest.approx(
        res.human_vs_others["h1"].estimate, abs=1e-15)


@given(st.integers(0, 1000), st.permutations(range(4)))
@settings(max_examples=10, deadline=None)
def test_order_of_humans_changes_nothing(seed: int, order: list[int]) -> None:
    cols = _panel(seed, n=40, missing=0.1)
    names = [f"h{j}" for j in range(4)]
    a = accord.judge_agreement(cols, judge="judge", method=FAST)
    b = accord.judge_agreement(cols, judge="judge", humans=[names[i] for i in order],
                               method=FAST)
    for h in names:
        for x, y in ((a.judge_vs_human[h], b.judge_vs_human[h]),
                     (a.human_vs_others[h], b.human_vs_others[h])):
            assert x.estimate == pytest.approx(y.estimate, abs=1e-12, nan_ok=True)
    assert a.panel_with_judge is not None and b.panel_with_judge is not None
    assert a.panel_with_judge.estimate == pytest.approx(b.panel_with_judge.estimate, abs=1e-12)


def test_two_rater_coefficient_has_no_panel_rows_and_says_why() -> None:
    res = accord.judge_agreement(_panel(7), judge="judge", coefficient="cohen_kappa",
                                 method=FAST)
    assert res.panel_with_judge is None and res.panel_change is None
    assert any("two raters only" in n for n in res.notes)


def test_ties_are_left_out_and_noted() -> None:
    cols = {"judge": ["a", "b", "a", "b"] * 10, "x": ["a", "b", "b", "b"] * 10,
            "y": ["a", "a", "b", "b"] * 10}
    res = accord.judge_agreement(cols, judge="judge", coefficient="cohen_kappa", method=FAST)
    assert res.judge_vs_consensus.n_units == 30
    assert any("have no majority label" in n and "10 among x, y" in n for n in res.notes)


def test_to_dict_and_str() -> None:
    res = accord.judge_agreement(_panel(8), judge="judge", method=FAST)
    d = res.to_dict()
    assert [r["human"] for r in d["per_human"]] == ["h0", "h1", "h2", "h3"]
    assert d["panel_change"]["difference"]["estimate"] == pytest.approx(
        res.panel_change.difference)  # type: ignore[union-attr]
    # each human's row: the three figures and the judge minus the human, with its interval
    diff = res.differences["h0"]
    assert d["per_human"][0]["difference"]["confidence_interval"] == diff.interval.to_dict()
    assert "ceiling" in str(res)
    assert math.isfinite(res.judge_level)


def test_bad_input() -> None:
    cols = _panel(9)
    with pytest.raises(InsufficientDataError, match="at least 2 humans"):
        accord.judge_agreement(cols, judge="judge", humans=["h0"])
    with pytest.raises(InvalidParameterError, match="'coefficient' parameter"):
        accord.judge_agreement(cols, judge="judge", coefficient="kappa")
    with pytest.raises(InvalidParameterError, match="does not take 'form'"):
        accord.judge_agreement(cols, judge="judge", coefficient="cohen_kappa", form="ICC2")
    with pytest.raises(InsufficientDataError, match="at least two humans"):
        accord.judge_agreement({"judge": [1, 2, None], "a": [1, None, 2], "b": [None, 2, 2]},
                               judge="judge")
