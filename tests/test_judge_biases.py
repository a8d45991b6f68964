"""Length bias, self-preference and pair-resampled position bias of a pairwise judge.

Oracles, all run here: statsmodels ``proportion_confint(method="wilson")`` for the
judge's share with one verdict per pair; statsmodels ``OLS`` with a cluster-robust
covariance clustered by pair (``use_correction=False``) for every share pooled over
both orders or over humans (an intercept-only regression's coefficient is the share,
its clustered SE the linearised one) and for the judge-minus-humans excess (two
indicators, no intercept); statsmodels ``Logit`` for the length slope, its model-based
and its pair-clustered standard errors. Counts are checked against a hand count.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError, DegenerateDataWarning
from accord.judge import PreferenceResult

COLS = ("unit", "rater", "first", "second", "verdict", "len_first", "len_second",
        "gen_first", "gen_second")


def _rows(seed: int, n_pairs: int = 120, both: float = 0.6, humans: int = 2
          ) -> dict[str, list[Any]]:
    """A judge that leans to the first and to the longer answer, and a few humans."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {k: [] for k in COLS}
    for u in range(n_pairs):
        lens = rng.integers(20, 900, 2)
        gens = ("gpt", "llama") if u % 3 else ("mistral", "gpt") if u % 2 else ("llama", "qwen")
        quality = rng.normal(0, 1)
        for r in ["judge", *[f"h{i}" for i in range(humans)]]:
            orders = [(0, 1), (1, 0)] if rng.random() < both else [(0, 1)]
            for o in orders:
                f, s = o
                d = (lens[f] - lens[s]) / 250 + (quality if f == 0 else -quality)
                d += 0.5 if r == "judge" else 0.0
                x = rng.random()
                p = 1 / (1 + math.exp(-d))
                v = "tie" if x < 0.08 else "A" if rng.random() < p else "B"
                vals = (f"p{u}", r, "xy"[f], "xy"[s], v, int(lens[f]), int(lens[s]),
                        gens[f], gens[s])
                for k, val in zip(COLS, vals):
                    rows[k].append(val)
    return rows


def _run(rows: dict[str, list[Any]], **kw: Any) -> PreferenceResult:
    return accord.preferences(rows, judge="judge", lengths=("len_first", "len_second"),
                              generators=("gen_first", "gen_second"), family="gpt", **kw)


def _verdict_table(rows: dict[str, list[Any]]) -> Any:
    import pandas as pd

    df = pd.DataFrame(rows)
    df = df[df.verdict != "tie"].copy()
    df["winner"] = np.where(df.verdict == "A", df["first"], df["second"])
    df["first_wins"] = (df.verdict == "A").astype(float)
    lens = {}
    for r in df.itertuples():
        lens[(r.unit, r.first)] = r.len_first
        lens[(r.unit, r.second)] = r.len_second
    longer = {}
    for u in df.unit.unique():
        lx, ly = lens[(u, "x")], lens[(u, "y")]
        longer[u] = None if lx == ly else "x" if lx > ly else "y"
    df["longer"] = df.unit.map(longer)
    df["for_longer"] = (df.winner == df.longer).astype(float)
    df["diff"] = (df.len_first - df.len_second) / 100.0
    return df


def _clustered_mean(y: Any, groups: Any) -> tuple[float, float]:
    import statsmodels.api as sm

    fit = sm.OLS(np.asarray(y, float), np.ones(len(y))).fit(
        cov_type="cluster", cov_kwds={"groups": np.asarray(groups), "use_correction": False})
    return float(fit.params[0]), float(fit.bse[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_length_bias_shares_match_clustered_ols(seed: int) -> None:
    rows = _rows(seed)
    res = _run(rows)
    df = _verdict_table(rows)
    df = df[df.longer.notna()]
    _, codes = np.unique(df.unit, return_inverse=True)
    judge = df[df.rater == "judge"]
    est, se = _clustered_mean(judge.for_longer, judge.unit.factorize()[0])
    lb = res.length_bias
    assert lb is not None
    assert lb.estimate == pytest.approx(est, abs=1e-12)
    assert lb.se == pytest.approx(se, rel=1e-10)
    humans = df[(df.rater != "judge") & df.unit.isin(judge.unit)]
    est_h, se_h = _clustered_mean(humans.for_longer, humans.unit.factorize()[0])
    hb = res.length_bias_humans
    assert hb is not None
    assert hb.estimate == pytest.approx(est_h, abs=1e-12)
    assert hb.se == pytest.approx(se_h, rel=1e-10)


@pytest.mark.parametrize("seed", [3, 4])
def test_excess_matches_a_two_indicator_clustered_regression(seed: int) -> None:
    import statsmodels.api as sm

    rows = _rows(seed)
    res = _run(rows)
    df = _verdict_table(rows)
    df = df[df.longer.notna()]
    common = set(df[df.rater == "judge"].unit) & set(df[df.rater != "judge"].unit)
    df = df[df.unit.isin(common)]
    X = np.column_stack([(df.rater == "judge"), (df.rater != "judge")]).astype(float)
    fit = sm.OLS(df.for_longer.to_numpy(float), X).fit(
        cov_type="cluster", cov_kwds={"groups": df.unit.factorize()[0], "use_correction": False})
    c = np.array([1.0, -1.0])
    ex = res.length_bias_excess
    assert ex is not None
    assert ex.estimate == pytest.approx(float(c @ fit.params), abs=1e-12)
    assert ex.se == pytest.approx(math.sqrt(float(c @ fit.cov_params() @ c)), rel=1e-10)


def test_one_order_share_is_a_plain_proportion_with_the_wilson_interval() -> None:
    from statsmodels.stats.proportion import proportion_confint

    rows = _rows(5, both=0.0, humans=1)
    res = _run(rows)
    df = _verdict_table(rows)
    judge = df[(df.rater == "judge") & df.longer.notna()]
    k, n = int(judge.for_longer.sum()), len(judge)
    lb = res.length_bias
    assert lb is not None
    assert lb.estimate == pytest.approx(k / n, abs=1e-15)
    assert lb.se == pytest.approx(math.sqrt(k / n * (1 - k / n) / n), rel=1e-12)
    ci = lb.confidence_interval(0.9)
    low, high = proportion_confint(k, n, alpha=0.1, method="wilson")
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)
    assert ci.method == "wilson"
    # every pair was seen in one order only: position bias undefined, and said so
    assert "judge" not in res.position
    assert any("no pair in both orders" in n for n in res.biases.notes)  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [6, 7])
def test_length_slope_matches_statsmodels_logit(seed: int) -> None:
    import statsmodels.api as sm

    rows = _rows(seed, n_pairs=200)
    res = _run(rows)
    df = _verdict_table(rows)
    judge = df[df.rater == "judge"]
    X = sm.add_constant(judge["diff"].to_numpy(float))
    y = judge.first_wins.to_numpy(float)
    model = sm.Logit(y, X).fit(disp=0, tol=1e-14, maxiter=200)
    clustered = sm.Logit(y, X).fit(disp=0, tol=1e-14, maxiter=200, cov_type="cluster", cov_kwds={
        "groups": judge.unit.factorize()[0], "use_correction": False})
    s = res.length_slope
    assert s is not None
    assert s.estimate == pytest.approx(model.params[1], rel=1e-9)
    assert s.details["intercept"] == pytest.approx(model.params[0], rel=1e-9)
    assert s.details["se_model"] == pytest.approx(model.bse[1], rel=1e-9)
    assert s.se == pytest.approx(clustered.bse[1], rel=1e-9)
    assert s.details["intercept_se"] == pytest.approx(clustered.bse[0], rel=1e-9)


@pytest.mark.parametrize("seed", [8, 9])
def test_position_share_resamples_whole_pairs(seed: int) -> None:
    rows = _rows(seed)
    res = _run(rows)
    df = _verdict_table(rows)
    judge = df[df.rater == "judge"]
    orders = _rows_orders(rows, "judge")
    both = judge[judge.unit.isin([u for u, n in orders.items() if n == 2])]
    est, se = _clustered_mean(both.first_wins, both.unit.factorize()[0])
    pos = res.position["judge"]
    assert pos.estimate == pytest.approx(est, abs=1e-12)
    assert pos.se == pytest.approx(se, rel=1e-10)
    assert pos.details["pairs_one_order"] == sum(n == 1 for n in orders.values())
    ci = pos.confidence_interval(method=accord.Bootstrap(n_resamples=999, rng=1))
    assert ci.low < est < ci.high


def _rows_orders(rows: dict[str, list[Any]], rater: str) -> dict[str, int]:
    seen: dict[str, set[str]] = {}
    for u, r, a in zip(rows["unit"], rows["rater"], rows["first"]):
        if r == rater:
            seen.setdefault(u, set()).add(a)
    return {u: len(s) for u, s in seen.items()}


def test_self_preference_counts_pairs_with_one_own_output() -> None:
    rows = _rows(10, humans=1)
    res = _run(rows)
    df = _verdict_table(rows)
    gens = {}
    for r in df.itertuples():
        gens[(r.unit, r.first)] = r.gen_first
        gens[(r.unit, r.second)] = r.gen_second
    own = {}
    for u in df.unit.unique():
        mine = [c for c in "xy" if gens[(u, c)] == "gpt"]
        own[u] = mine[0] if len(mine) == 1 else None
    df["own"] = df.unit.map(own)
    judge = df[(df.rater == "judge") & df.own.notna()]
    est, se = _clustered_mean(judge.winner == judge.own, judge.unit.factorize()[0])
    sp = res.self_preference
    assert sp is not None and sp.estimate == pytest.approx(est, abs=1e-12)
    assert sp.se == pytest.approx(se, rel=1e-10)
    assert res.self_preference_humans is not None
    assert res.to_dict()["biases"]["self_preference"]["estimate"] == sp.estimate


@given(st.integers(0, 10_000))
@settings(max_examples=15, deadline=None)
def test_unit_order_and_candidate_names_do_not_matter(seed: int) -> None:
    rows = _rows(seed, n_pairs=30)
    perm = np.random.default_rng(seed).permutation(len(rows["unit"]))
    shuffled = {k: [v[i] for i in perm] for k, v in rows.items()}
    renamed = dict(shuffled)
    renamed["first"] = [{"x": "q", "y": "r"}[c] for c in shuffled["first"]]
    renamed["second"] = [{"x": "q", "y": "r"}[c] for c in shuffled["second"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        a, b = _run(rows), _run(renamed)
    for name in ("length_bias", "length_bias_humans", "self_preference"):
        ra, rb = getattr(a, name), getattr(b, name)
        assert ra.estimate == pytest.approx(rb.estimate, abs=1e-12, nan_ok=True)
        assert ra.se == pytest.approx(rb.se, abs=1e-12, nan_ok=True)


def test_bad_input_is_one_sentence() -> None:
    rows = _rows(11, n_pairs=10)
    no_len = dict(rows)
    no_len["len_first"] = [None] + rows["len_first"][1:]
    with pytest.raises(DataError, match="length of output 'x' in pair #1 is missing"):
        _run(no_len)
    with pytest.raises(DataError, match="column 'generator' not found"):
        accord.preferences(rows, judge="judge", generators=("generator", "gen_second"),
                           family="gpt")
    with pytest.raises(DataError, match="needs family="):
        accord.preferences(rows, judge="judge", generators=("gen_first", "gen_second"))
    with pytest.raises(DataError, match="needs judge="):
        accord.preferences(rows, lengths=("len_first", "len_second"))
    neg = dict(rows)
    neg["len_second"] = [-1] * len(rows["len_second"])
    neg["len_first"] = [-1] * len(rows["len_first"])
    with pytest.raises(DataError, match="non-negative numbers"):
        _run(neg)


def test_no_own_output_is_undefined_with_a_reason() -> None:
    rows = _rows(12, n_pairs=20)
    with pytest.warns(DegenerateDataWarning, match="self_preference is undefined"):
        res = accord.preferences(rows, judge="judge", generators=("gen_first", "gen_second"),
                                 family="claude")
    sp = res.self_preference
    assert sp is not None and math.isnan(sp.estimate) and sp.undefined_reason
