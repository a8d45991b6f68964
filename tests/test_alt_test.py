"""The alternative annotator test (Calderon, Reichart & Dror, ACL 2025).

Differential oracle: ``_reference`` below is a plain, unit-by-unit transcription of
the procedure as the authors' reference implementation (github.com/nitaytech/AltTest,
``alt_test_example.ipynb``) runs it: keep units rated by the judge and at least two
humans; for each left-out human score the judge and the human against the remaining
humans; indicators ``judge >= human`` and ``human >= judge``; scipy's
``ttest_1samp(human - judge, epsilon, alternative="less")``; the Benjamini-Yekutieli
step-up at q = 0.05; winning rate = rejections / humans. The BY adjustment is also
checked against statsmodels ``multipletests(method="fdr_by")``.

On the authors' own data, ``benchmarks/check_alttest_reference.py`` reproduces all
52 winning rates and advantage probabilities their notebook prints (9 data sets,
4-6 LLMs each); their repository has no licence, so those data are not copied here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import accord
from accord.errors import DataError, InsufficientDataError, InvalidParameterError
from accord.judge.alt_test import by_adjusted


# ----------------------------------------------------------------------- the oracle
def _ref_score(name: str, pred: Any, others: list[Any]) -> float:
    if name == "accuracy":
        return float(np.mean([pred == o for o in others]))
    if name == "neg_rmse":
        return -float(np.sqrt(np.mean([(pred - o) ** 2 for o in others])))
    return -float(np.mean([abs(pred - o) for o in others]))


def _ref_by(pvalues: list[float], q: float) -> set[int]:
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (math.isnan(pvalues[i]), pvalues[i]))
    h_m = sum(1.0 / k for k in range(1, m + 1))
    last = -1
    for rank, i in enumerate(order, start=1):
        if pvalues[i] <= rank / m * q / h_m:
            last = rank
    return set(order[:last]) if last > 0 else set()


def _reference(judge: dict[Any, Any], humans: dict[Any, dict[Any, Any]], name: str,
               eps: float, min_units: int = 0) -> dict[str, Any]:
    by_unit: dict[Any, list[Any]] = {}
    for h, ratings in humans.items():
        for unit in ratings:
            by_unit.setdefault(unit, []).append(h)
    keep = {u for u, hs in by_unit.items() if len(hs) >= 2 and u in judge}
    pvalues, rhos, names = [], [], []
    for h, ratings in humans.items():
        d, w_j = [], []
        if sum(unit in keep for unit in ratings) < min_units:
            continue  # not tested, but still among the others of everyone else
        for unit in ratings:
            if unit not in keep:
                continue
            others = [humans[k][unit] for k in by_unit[unit] if k != h]
            s_j = _ref_score(name, judge[unit], others)
            s_h = _ref_score(name, ratings[unit], others)
            w_j.append(int(s_j >= s_h))
            d.append(int(s_h >= s_j) - int(s_j >= s_h))
        pvalues.append(float(stats.ttest_1samp(d, eps, alternative="less").pvalue))
        rhos.append(float(np.mean(w_j)))
        names.append(h)
    won = _ref_by(pvalues, 0.05)
    return {"pvalues": dict(zip(names, pvalues)), "rhos": dict(zip(names, rhos)),
            "won": {names[i] for i in won}, "winning_rate": len(won) / len(names),
            "rho": float(np.mean(rhos))}


def _panel(seed: int, n_units: int, n_humans: int, k: int, missing: float,
           judge_noise: float, human_noise: float) -> tuple[dict[str, list[Any]], Any]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, n_units)

    def noisy(p: float) -> np.ndarray:
        out = truth.copy()
        flip = rng.random(n_units) < p
        out[flip] = rng.integers(1, k + 1, int(flip.sum()))
        return out

    cols: dict[str, list[Any]] = {"judge": noisy(judge_noise).tolist()}
    for j in range(n_humans):
        col: list[Any] = noisy(human_noise).tolist()
        for i in np.flatnonzero(rng.random(n_units) < missing):
            col[i] = None
        cols[f"h{j}"] = col
    return cols, truth


def _dicts(cols: dict[str, list[Any]]) -> tuple[dict[Any, Any], dict[str, dict[Any, Any]]]:
    judge = {i: x for i, x in enumerate(cols["judge"]) if x is not None}
    humans = {h: {i: x for i, x in enumerate(c) if x is not None}
              for h, c in cols.items() if h != "judge"}
    return judge, humans


@pytest.mark.parametrize("scoring", ["accuracy", "neg_rmse", "abs_error"])
@pytest.mark.parametrize("seed", range(6))
def test_matches_reference_procedure_on_random_data(seed: int, scoring: str) -> None:
    cols, _ = _panel(seed, n_units=90, n_humans=3 + seed % 4, k=5, missing=0.15,
                     judge_noise=0.2 + 0.1 * (seed % 3), human_noise=0.35)
    res = accord.alt_test(cols, judge="judge", scoring=scoring)  # type: ignore[arg-type]
    ref = _reference(*_dicts(cols), scoring, 0.2)
    for h, row in res.per_human.items():
        assert row.pvalue == pytest.approx(ref["pvalues"][h], rel=1e-12, abs=1e-300)
        assert row.advantage_probability == pytest.approx(ref["rhos"][h], abs=1e-12)
    assert {h for h, row in res.per_human.items() if row.won} == ref["won"]
    assert res.winning_rate == pytest.approx(ref["winning_rate"], abs=1e-12)
    assert res.advantage_probability == pytest.approx(ref["rho"], abs=1e-12)
    assert res.passed == (ref["winning_rate"] >= 0.5)


def test_matches_reference_on_real_valued_scores() -> None:
    rng = np.random.default_rng(11)
    truth = rng.normal(size=60)
    cols = {"judge": (truth + rng.normal(scale=0.4, size=60)).tolist()}
    cols |= {f"h{j}": (truth + rng.normal(scale=0.6, size=60)).tolist() for j in range(4)}
    res = accord.alt_test(cols, judge="judge", scoring="neg_rmse", epsilon=0.1)
    ref = _reference(*_dicts(cols), "neg_rmse", 0.1)  # type: ignore[arg-type]
    assert [r.pvalue for r in res.per_human.values()] == pytest.approx(
        list(ref["pvalues"].values()), rel=1e-12)
    assert res.winning_rate == ref["winning_rate"]


def test_custom_similarity_matches_reference_accuracy() -> None:
    cols, _ = _panel(3, n_units=70, n_humans=4, k=3, missing=0.1, judge_noise=0.2,
                     human_noise=0.3)
    same = accord.alt_test(cols, judge="judge", scoring=lambda a, b: a == b)
    acc = accord.alt_test(cols, judge="judge")
    assert [r.pvalue for r in same.per_human.values()] == [
        r.pvalue for r in acc.per_human.values()]
    assert same.scoring == "<lambda>"


def test_custom_similarity_sees_only_rated_pairs() -> None:
    seen: list[Any] = []

    def sim(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        seen.extend(a.tolist() + b.tolist())
        return (a == b).astype(float)

    cols = {"j": ["a", "b"] * 20, "x": ["a", None] * 20, "y": ["a", "b"] * 20,
            "z": ["b", "b"] * 20}
    accord.alt_test(cols, judge="j", scoring=sim, test="wilcoxon")
    assert None not in seen and seen


def test_min_units_leaves_a_human_untested_but_among_the_others() -> None:
    cols, _ = _panel(9, n_units=80, n_humans=4, k=3, missing=0.0, judge_noise=0.2,
                     human_noise=0.3)
    cols["late"] = [None] * 60 + cols["h0"][60:]
    res = accord.alt_test(cols, judge="judge", min_units=30)
    ref = _reference(*_dicts(cols), "accuracy", 0.2, min_units=30)
    assert res.n_tested == 4 and not res.per_human["late"].won
    assert res.winning_rate == ref["winning_rate"]
    assert res.advantage_probability == pytest.approx(ref["rho"], abs=1e-12)
    for h in ref["pvalues"]:
        assert res.per_human[h].pvalue == pytest.approx(ref["pvalues"][h], rel=1e-12)
    assert any("not tested" in n for n in res.notes)
    with pytest.raises(InsufficientDataError, match="tests nobody"):
        accord.alt_test(cols, judge="judge", min_units=1000)


# ----------------------------------------------------------------------- BY correction
@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=12))
@settings(max_examples=200, deadline=None)
def test_by_adjustment_matches_statsmodels(p: list[float]) -> None:
    from statsmodels.stats.multitest import multipletests

    reject, corrected, _, _ = multipletests(p, alpha=0.05, method="fdr_by")
    ours = by_adjusted(p)
    np.testing.assert_allclose(ours, corrected, rtol=1e-12, atol=1e-15)
    assert (ours <= 0.05).tolist() == reject.tolist()


def test_by_adjustment_with_nan_is_the_step_up_over_all_hypotheses() -> None:
    p = [0.001, math.nan, 0.004, 0.2]
    adjusted = by_adjusted(p)
    assert math.isnan(adjusted[1])
    assert {i for i, a in enumerate(adjusted) if a <= 0.05} == _ref_by(p, 0.05)


# ----------------------------------------------------------------------- properties
def test_judge_equal_to_majority_wins_against_noisy_humans() -> None:
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 4, 300)
    humans = {}
    for j in range(5):
        col = truth.copy()
        flip = rng.random(300) < 0.3
        col[flip] = rng.integers(0, 4, int(flip.sum()))
        humans[f"h{j}"] = col
    stacked = np.stack(list(humans.values()), axis=1)
    majority = np.array([np.bincount(row, minlength=4).argmax() for row in stacked])
    res = accord.alt_test({"judge": majority, **humans}, judge="judge")
    assert res.passed and res.winning_rate == 1.0
    assert res.advantage_probability > 0.8


def test_random_judge_loses() -> None:
    cols, _ = _panel(8, n_units=300, n_humans=5, k=4, missing=0.0, judge_noise=1.0,
                     human_noise=0.2)
    res = accord.alt_test(cols, judge="judge")
    assert not res.passed and res.winning_rate == 0.0
    assert res.advantage_probability < 0.5


@given(st.integers(0, 10_000), st.permutations(range(4)))
@settings(max_examples=25, deadline=None)
def test_order_of_humans_changes_nothing(seed: int, order: list[int]) -> None:
    cols, _ = _panel(seed, n_units=60, n_humans=4, k=3, missing=0.1, judge_noise=0.3,
                     human_noise=0.3)
    names = [f"h{j}" for j in range(4)]
    base = accord.alt_test(cols, judge="judge")
    shuffled = accord.alt_test(cols, judge="judge", humans=[names[i] for i in order])
    assert shuffled.winning_rate == base.winning_rate
    assert shuffled.advantage_probability == pytest.approx(base.advantage_probability,
                                                           abs=1e-15)
    for h in names:
        a, b = base.per_human[h], shuffled.per_human[h]
        assert (a.won, a.n_units) == (b.won, b.n_units)
        assert a.pvalue == pytest.approx(b.pvalue, rel=1e-12, nan_ok=True)


def test_epsilon_only_helps_the_judge() -> None:
    cols, _ = _panel(2, n_units=80, n_humans=4, k=3, missing=0.0, judge_noise=0.35,
                     human_noise=0.3)
    rates = [accord.alt_test(cols, judge="judge", epsilon=e).winning_rate
             for e in (0.0, 0.1, 0.2, 0.3)]
    assert rates == sorted(rates)


# ----------------------------------------------------------------------- small samples
def test_fewer_than_30_units_warns_and_wilcoxon_is_offered() -> None:
    cols, _ = _panel(1, n_units=20, n_humans=3, k=3, missing=0.0, judge_noise=0.1,
                     human_noise=0.3)
    with pytest.warns(UserWarning, match="fewer than 30 units.*test='wilcoxon'"):
        res = accord.alt_test(cols, judge="judge")
    assert any("wilcoxon" in n for n in res.notes)
    wil = accord.alt_test(cols, judge="judge", test="wilcoxon")
    assert wil.test == "wilcoxon" and not wil.notes
    judge, humans = _dicts(cols)
    for h, row in wil.per_human.items():
        units = sorted(humans[h])
        assert row.n_units == len(units)


def test_wilcoxon_matches_scipy_on_the_indicator_differences() -> None:
    cols, _ = _panel(4, n_units=25, n_humans=3, k=3, missing=0.0, judge_noise=0.2,
                     human_noise=0.3)
    res = accord.alt_test(cols, judge="judge", test="wilcoxon", epsilon=0.15)
    judge, humans = _dicts(cols)
    for h, ratings in humans.items():
        d = []
        for unit, x in ratings.items():
            others = [humans[k][unit] for k in humans if k != h]
            s_j = np.mean([judge[unit] == o for o in others])
            s_h = np.mean([x == o for o in others])
            d.append(int(s_h >= s_j) - int(s_j >= s_h) - 0.15)
        expected = stats.wilcoxon(d, alternative="less")
        assert res.per_human[h].pvalue == pytest.approx(float(expected.pvalue), rel=1e-12)


# ----------------------------------------------------------------------- bad input
def test_fewer_than_two_humans_is_one_sentence() -> None:
    with pytest.raises(InsufficientDataError, match="at least 2 humans besides the judge"):
        accord.alt_test({"j": [1, 2, 3], "a": [1, 2, 3]}, judge="j")


def test_judge_without_shared_units_names_the_units() -> None:
    data = {"j": [1, 2, None, None], "a": [None, None, 1, 2], "b": [None, None, 1, 1]}
    with pytest.raises(InsufficientDataError, match=r"rated none of the units.*e\.g\."):
        accord.alt_test(data, judge="j")


def test_unknown_judge_and_bad_options() -> None:
    data = {"j": [1, 2, 1], "a": [1, 2, 2], "b": [1, 1, 2]}
    with pytest.raises(DataError, match="not among the raters"):
        accord.alt_test(data, judge="gpt")
    with pytest.raises(DataError, match="cannot also be one of the humans"):
        accord.alt_test(data, judge="j", humans=["j", "a"])
    with pytest.raises(InvalidParameterError, match="'scoring' parameter"):
        accord.alt_test(data, judge="j", scoring="f1")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'epsilon' parameter"):
        accord.alt_test(data, judge="j", epsilon=2)
    with pytest.raises(InvalidParameterError, match="'fdr' parameter"):
        accord.alt_test(data, judge="j", fdr=0)
    with pytest.raises(DataError, match="numeric ratings"):
        accord.alt_test({"j": ["a"], "x": ["a"], "y": ["b"]}, judge="j", scoring="neg_rmse")


def test_human_sharing_one_unit_has_a_reason() -> None:
    base, _ = _panel(0, n_units=40, n_humans=3, k=3, missing=0.0, judge_noise=0.2,
                     human_noise=0.3)
    base["late"] = [None] * 39 + [1]
    with pytest.warns(UserWarning, match=r"'late' \(1\)"):
        res = accord.alt_test(base, judge="judge")
    late = res.per_human["late"]
    assert late.n_units == 1 and math.isnan(late.pvalue) and not late.won
    assert "share 1 unit" in (late.undefined_reason or "")


@pytest.mark.parametrize("test", ["t", "wilcoxon"])
def test_differences_all_equal_to_epsilon_are_undefined_with_a_reason(test: str) -> None:
    a = [1, 2, 3, 1, 2] * 8
    data = {"j": a, "h0": a, "h1": a, "h2": a}
    res = accord.alt_test(data, judge="j", epsilon=0.0, test=test)  # type: ignore[arg-type]
    row = res.per_human["h0"]
    assert math.isnan(row.pvalue) and not row.won and "0/0" in (row.undefined_reason or "")
    assert res.winning_rate == 0.0 and res.advantage_probability == 1.0
    assert accord.alt_test(data, judge="j", epsilon=0.1).winning_rate == 1.0


def test_to_dict_and_str() -> None:
    cols, _ = _panel(0, n_units=40, n_humans=3, k=3, missing=0.0, judge_noise=0.1,
                     human_noise=0.3)
    res = accord.alt_test(cols, judge="judge")
    d = res.to_dict()
    assert d["passed"] == res.passed and len(d["per_human"]) == 3
    assert "alt-test" in str(res) and res.rho == res.advantage_probability


def test_annotations_with_llm_kind_default_humans() -> None:
    cols, _ = _panel(0, n_units=40, n_humans=3, k=3, missing=0.0, judge_noise=0.1,
                     human_noise=0.3)
    ann = accord.Annotations.from_wide(cols)
    ann.kinds["judge"] = "llm"
    res = accord.alt_test(ann, judge="judge")
    assert res.humans == ("h0", "h1", "h2")


@given(st.integers(0, 10_000), st.permutations(range(1, 4)))
@settings(max_examples=20, deadline=None)
def test_relabelling_nominal_categories_changes_nothing(seed: int, perm: list[int]) -> None:
    cols, _ = _panel(seed, n_units=50, n_humans=3, k=3, missing=0.0, judge_noise=0.3,
                     human_noise=0.3)
    names = {1: "x", 2: "y", 3: "z"}
    mapping = {v: names[perm[v - 1]] for v in (1, 2, 3)}
    relabelled = {r: [mapping[x] for x in col] for r, col in cols.items()}
    a = accord.alt_test(cols, judge="judge")
    b = accord.alt_test(relabelled, judge="judge")
    assert [r.pvalue for r in a.per_human.values()] == [r.pvalue for r in b.per_human.values()]
    assert a.advantage_probability == b.advantage_probability
