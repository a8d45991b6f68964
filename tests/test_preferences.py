"""Pairwise preference judgements: normalisation, position consistency and bias.

Oracles: statsmodels ``proportion_confint(method="wilson")`` for the Wilson interval,
scipy ``binomtest`` computed by hand for one case (2 * 0.5**8), scikit-learn's
``cohen_kappa_score`` on normalised verdicts rebuilt here by hand, following Zheng et
al. (2023): a win counts only when it holds in both orders, otherwise a tie.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError, InvalidParameterError
from accord.judge.preferences import wilson_interval

FLIP = {"A": "B", "B": "A", "tie": "tie"}


def _swapped_rows(seed: int, n_pairs: int = 30, bias: float = 0.3) -> dict[str, list[Any]]:
    """Each pair (x vs y) shown to each rater in both orders; the judge leans to position A."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {k: [] for k in ("unit", "rater", "first", "second", "verdict")}
    better = rng.choice(["x", "y", "tie"], n_pairs, p=[0.45, 0.45, 0.1])
    for rater, lean in (("judge", bias), ("ann", 0.0), ("bob", 0.0)):
        for u in range(n_pairs):
            for first, second in (("x", "y"), ("y", "x")):
                r = rng.random()
                if r < lean:
                    verdict = "A"
                elif better[u] == "tie" or r > 0.9:
                    verdict = "tie"
                else:
                    verdict = "A" if better[u] == first else "B"
                for key, val in zip(rows, (f"p{u}", rater, first, second, verdict)):
                    rows[key].append(val)
    return rows


def _normalised_by_hand(rows: dict[str, list[Any]]) -> dict[tuple[Any, Any], Any]:
    seen: dict[tuple[Any, Any], set[Any]] = {}
    for u, r, a, b, x in zip(*rows.values()):
        winner = a if x == "A" else b if x == "B" else "tie"
        seen.setdefault((u, r), set()).add(winner)
    return {k: next(iter(s)) if len(s) == 1 else "tie" for k, s in seen.items()}


@given(st.integers(0, 200), st.integers(0, 200), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
@settings(max_examples=200, deadline=None)
def test_wilson_matches_statsmodels(k: int, extra: int, level: float) -> None:
    from statsmodels.stats.proportion import proportion_confint

    n = k + extra
    if n == 0:
        assert all(math.isnan(x) for x in wilson_interval(0, 0))
        return
    low, high = proportion_confint(k, n, alpha=1 - level, method="wilson")
    np.testing.assert_allclose(wilson_interval(k, n, level), (low, high), rtol=1e-12,
                               atol=1e-15)


def test_normalised_verdicts_and_agreement_match_a_hand_count() -> None:
    from sklearn.metrics import cohen_kappa_score

    rows = _swapped_rows(1)
    res = accord.preferences(rows, judge="judge")
    truth = _normalised_by_hand(rows)
    got = {(u, r): v for u, r, v in res.annotations.records()}
    assert got == truth
    for human in ("ann", "bob"):
        units = [f"p{u}" for u in range(30)]
        expected = cohen_kappa_score([truth[(u, "judge")] for u in units],
                                     [truth[(u, human)] for u in units])
        assert res.agreement[human].estimate == pytest.approx(expected, abs=1e-12)
    assert "tie" in res.annotations.categories


def test_position_figures_match_a_hand_count() -> None:
    rows = _swapped_rows(2, bias=0.4)
    res = accord.preferences(rows)
    mine = [i for i, r in enumerate(rows["rater"]) if r == "judge"]
    verdicts = [rows["verdict"][i] for i in mine]
    decisive = [x for x in verdicts if x != "tie"]
    judge = res.per_rater["judge"]
    assert judge.n_verdicts == 60 and judge.n_decisive == len(decisive)
    assert judge.first_share == decisive.count("A") / len(decisive)
    assert judge.tie_share == verdicts.count("tie") / 60
    pairs: dict[str, set[Any]] = {}
    for i in mine:
        a, b, x = rows["first"][i], rows["second"][i], rows["verdict"][i]
        pairs.setdefault(rows["unit"][i], set()).add(a if x == "A" else b if x == "B" else "t")
    assert judge.n_swapped == 30
    assert judge.consistency == sum(len(s) == 1 for s in pairs.values()) / 30
    assert judge.first_interval == wilson_interval(decisive.count("A"), len(decisive))
    assert judge.bias > 0.1 and judge.pvalue < 0.05


def test_exact_binomial_pvalue() -> None:
    rows = {"unit": list(range(8)), "rater": ["j"] * 8, "first": ["x"] * 8,
            "second": ["y"] * 8, "verdict": ["A"] * 8}
    res = accord.preferences(rows)
    assert res.per_rater["j"].pvalue == pytest.approx(2 * 0.5**8, rel=1e-12)
    assert math.isnan(res.per_rater["j"].consistency)


@given(st.integers(0, 500))
@settings(max_examples=20, deadline=None)
def test_swapping_display_order_keeps_verdicts_and_mirrors_bias(seed: int) -> None:
    rows = _swapped_rows(seed)
    mirrored = dict(rows, first=rows["second"], second=rows["first"],
                    verdict=[FLIP[x] for x in rows["verdict"]])
    a, b = accord.preferences(rows), accord.preferences(mirrored)
    assert sorted(a.annotations.records()) == sorted(b.annotations.records())
    for r in ("judge", "ann", "bob"):
        assert a.per_rater[r].first_share == pytest.approx(1 - b.per_rater[r].first_share)
        assert a.per_rater[r].consistency == b.per_rater[r].consistency


def test_candidate_verdicts_give_the_same_result() -> None:
    rows = _swapped_rows(3)
    named = dict(rows, verdict=[a if x == "A" else b if x == "B" else "tie"
                                for a, b, x in zip(rows["first"], rows["second"],
                                                   rows["verdict"])])
    a = accord.preferences(rows)
    b = accord.preferences(named, verdicts="candidate")
    assert sorted(a.annotations.records()) == sorted(b.annotations.records())
    assert a.per_rater["judge"] == b.per_rater["judge"]


def test_parse_failures_are_declared_missing_and_counted() -> None:
    rows = _swapped_rows(4)
    rows["verdict"][0] = "ERROR"
    rows["verdict"][1] = None
    with pytest.raises(DataError, match="not one of .*'ERROR'.*missing="):
        accord.preferences(rows)
    res = accord.preferences(rows, missing=["ERROR"])
    assert res.annotations.audit.dropped["missing value"] == 2
    assert res.per_rater["judge"].n_verdicts == 58
    assert "2 verdict(s) were missing" in res.annotations.audit.notes[0]


def test_bad_input() -> None:
    rows = _swapped_rows(5)
    odd = dict(rows, second=["z"] + rows["second"][1:])
    with pytest.raises(DataError, match="one pair id must always hold the same two"):
        accord.preferences(odd)
    twice = {k: v + v[:1] for k, v in rows.items()}
    twice["verdict"][-1] = FLIP[twice["verdict"][0]] if twice["verdict"][0] != "tie" else "A"
    with pytest.raises(DataError, match="two different verdicts"):
        accord.preferences(twice)
    with pytest.raises(DataError, match="not among the raters"):
        accord.preferences(rows, judge="gpt")
    with pytest.raises(InvalidParameterError, match="'labels' parameter"):
        accord.preferences(rows, labels=("A", "B"))
    with pytest.raises(InvalidParameterError, match="'verdicts' parameter"):
        accord.preferences(rows, verdicts="winner")  # type: ignore[arg-type]


def test_to_dict_and_str() -> None:
    res = accord.preferences(_swapped_rows(6), judge="judge")
    d = res.to_dict()
    assert {r["rater"] for r in d["per_rater"]} == {"judge", "ann", "bob"}
    assert set(d["agreement"]) == {"ann", "bob"}
    assert "first shown wins" in str(res) and "kappa" in str(res)
