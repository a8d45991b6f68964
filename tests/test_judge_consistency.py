"""Repeat-run consistency of a judge.

Oracles, run here: pingouin 0.7 ``intraclass_corr`` (ICC(1,1) and ICC(1,k), with their F
intervals; accord's ICC itself is checked against R psych elsewhere); the
Spearman-Brown formula (Spearman 1910; Brown 1910) written out; pandas for the
within-item variance; statsmodels ``proportion_confint(method="wilson")`` for the
flip rate's interval; a hand count for the flip rates.
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
from accord.errors import DataError, DegenerateDataWarning, InsufficientDataError


def _runs(seed: int, n: int = 60, k: int = 4, noise: float = 0.8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    true = rng.normal(3, 1, n)
    return np.clip(np.round(true[:, None] + rng.normal(0, noise, (n, k))), 1, 5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_icc_matches_pingouin_and_spearman_brown(seed: int) -> None:
    import pandas as pd
    import pingouin as pg

    x = _runs(seed)
    c = accord.judge_consistency(x)
    long = pd.DataFrame([(i, j, x[i, j]) for i in range(x.shape[0]) for j in range(x.shape[1])],
                        columns=["item", "run", "score"])
    with warnings.catch_warnings():  # pingouin's own pandas deprecations are not ours
        warnings.simplefilter("ignore")
        ref = pg.intraclass_corr(long, targets="item", raters="run",
                                 ratings="score").set_index("Type")
    assert c.icc.estimate == pytest.approx(ref.loc["ICC(1,1)", "ICC"], abs=1e-12)
    assert c.icc_k.estimate == pytest.approx(ref.loc["ICC(1,k)", "ICC"], abs=1e-12)
    ci = c.icc.confidence_interval()
    assert (ci.low, ci.high) == pytest.approx(tuple(ref.loc["ICC(1,1)", "CI95"]), abs=0.006)  # 2 dp
    k, rho = x.shape[1], c.icc.estimate
    assert c.icc_k.estimate == pytest.approx(k * rho / (1 + (k - 1) * rho), abs=1e-12)


@pytest.mark.parametrize("target", [0.8, 0.9, 0.95])
def test_runs_needed_steps_up_to_the_target(target: float) -> None:
    c = accord.judge_consistency(_runs(3))
    need = c.runs_needed(target)
    rho = c.icc.estimate
    m = need.estimate
    assert m * rho / (1 + (m - 1) * rho) == pytest.approx(target, abs=1e-12)
    assert need.details["runs"] == math.ceil(m)
    ci, icc_ci = need.confidence_interval(0.9), c.icc.confidence_interval(0.9)
    assert ci.low == pytest.approx(target * (1 - icc_ci.high) / (icc_ci.high * (1 - target)))
    assert ci.high == pytest.approx(target * (1 - icc_ci.low) / (icc_ci.low * (1 - target)))


def test_flip_rates_and_variance_match_a_hand_count() -> None:
    import pandas as pd
    from statsmodels.stats.proportion import proportion_confint

    x = _runs(4).astype(object)
    x[0, 1] = None  # a run without a verdict on item 0
    c = accord.judge_consistency(x, threshold=3)
    rows = [[v for v in row if v is not None] for row in x]
    flips = sum(len(set(r)) > 1 for r in rows)
    cross = sum(min(r) < 3 <= max(r) for r in rows)
    assert c.flip_rate.estimate == flips / len(rows)
    assert c.threshold_flip_rate is not None
    assert c.threshold_flip_rate.estimate == cross / len(rows)
    low, high = proportion_confint(flips, len(rows), method="wilson")
    ci = c.flip_rate.confidence_interval()
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)
    var = pd.DataFrame(x.astype(float)).var(axis=1, ddof=1).mean()
    assert c.within_item_variance.estimate == pytest.approx(var, abs=1e-12)


@given(st.integers(0, 10_000))
@settings(max_examples=20, deadline=None)
def test_item_and_run_order_do_not_matter(seed: int) -> None:
    x = _runs(seed, n=15, k=3)
    rng = np.random.default_rng(seed)
    y = x[rng.permutation(15)][:, rng.permutation(3)]
    with pytest.warns(DegenerateDataWarning) if np.all(x == x[:, :1]) else _nothing():
        a, b = accord.judge_consistency(x, threshold=3), accord.judge_consistency(y, threshold=3)
    for name in ("flip_rate", "threshold_flip_rate", "within_item_variance", "icc", "icc_k"):
        ra, rb = getattr(a, name), getattr(b, name)
        assert ra.estimate == pytest.approx(rb.estimate, abs=1e-12, nan_ok=True)


class _nothing:  # noqa: N801 - a no-op context manager
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def test_bad_input() -> None:
    with pytest.raises(InsufficientDataError, match="at least two runs"):
        accord.judge_consistency([[1], [2], [3]])
    with pytest.raises(DataError, match="numeric verdicts"):
        accord.judge_consistency([["pass", "fail"], ["pass", "pass"]])
    with pytest.raises(InsufficientDataError, match="at most one"):
        accord.judge_consistency([[1, None], [None, 2]])
    with pytest.raises(Exception, match="reliability in"):
        accord.judge_consistency(_runs(5)).runs_needed(1.2)
