"""Panels of judges: combined verdicts, alt-tests, the effective number of judges.

Oracles, run here: ``accord.alt_test`` (itself checked against the authors' 52
published figures) on a panel column built by hand; numpy ``corrcoef`` of the
judges' errors and Kish's (1965) design-effect formula k^2 / sum(rho) written out;
the jackknife SE recomputed by leaving each unit out.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError


def _wide(seed: int, n: int = 80, labels: int = 3, numeric: bool = False) -> dict[str, list]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, labels, n)
    shared = rng.random(n) < 0.2  # the judges share some errors
    out: dict[str, list] = {"unit": list(range(n))}
    for name, noise in (("j1", 0.25), ("j2", 0.3), ("j3", 0.2), ("h1", 0.1), ("h2", 0.1),
                        ("h3", 0.15)):
        wrong = rng.random(n) < noise
        if name.startswith("j"):
            wrong |= shared
        vals = np.where(wrong, (truth + 1) % labels, truth)
        out[name] = [float(x) if numeric else int(x) for x in vals]
    return out


RATERS = ["j1", "j2", "j3", "h1", "h2", "h3"]


def _ann(rows: dict[str, list]) -> accord.Annotations:
    return accord.Annotations.from_wide(rows, unit="unit", raters=RATERS)


@pytest.mark.parametrize("seed", [0, 1])
def test_majority_panel_and_alt_tests(seed: int) -> None:
    rows = _wide(seed)
    p = accord.judge_panel(_ann(rows), judges=["j1", "j2", "j3"])
    panel = []
    for a, b, c in zip(rows["j1"], rows["j2"], rows["j3"]):
        (top, count), *rest = Counter([a, b, c]).most_common()
        panel.append(None if rest and rest[0][1] == count else top)
    assert p.n_panel_ties == sum(x is None for x in panel)
    by_hand = accord.Annotations.from_wide({**rows, "panel": panel}, unit="unit",
                                           raters=[*RATERS, "panel"])
    for j in ("j1", "j2", "j3", "panel"):
        ref = accord.alt_test(by_hand, judge=j, humans=["h1", "h2", "h3"])
        assert p.alt_tests[j].to_dict() == ref.to_dict()


@pytest.mark.parametrize("seed", [2, 3])
def test_effective_judges_is_kish_on_the_error_correlations(seed: int) -> None:
    rows = _wide(seed, numeric=True)
    p = accord.judge_panel(_ann(rows), judges=["j1", "j2", "j3"], combine="mean")
    x = np.array([rows[r] for r in RATERS], dtype=float).T
    err = x[:, :3] - x[:, 3:].mean(axis=1, keepdims=True)
    rho = np.corrcoef(err.T)
    np.testing.assert_allclose(p.error_correlation, rho, rtol=0, atol=1e-12)
    assert p.effective_judges.estimate == pytest.approx(9 / rho.sum(), abs=1e-12)
    loo = np.array([9 / np.corrcoef(np.delete(err, i, axis=0).T).sum() for i in range(len(err))])
    n = len(err)
    se = math.sqrt((n - 1) / n * np.sum((loo - loo.mean()) ** 2))
    assert p.effective_judges.se == pytest.approx(se, rel=1e-9)
    ci = p.effective_judges.confidence_interval(method=accord.Bootstrap(n_resamples=500, rng=1))
    assert ci.low <= p.effective_judges.estimate <= ci.high


def test_labels_that_are_not_numbers_use_disagreement_with_the_humans_majority() -> None:
    rows = _wide(4)
    named = {k: v if k == "unit" else ["abc"[x] for x in v] for k, v in rows.items()}
    p = accord.judge_panel(_ann(named), judges=["j1", "j2", "j3"])
    h = np.array([named[r] for r in ("h1", "h2", "h3")]).T
    keep, majority = [], []
    for row in h:
        (top, count), *rest = Counter(row).most_common()
        keep.append(not (rest and rest[0][1] == count))
        majority.append(top)
    j = np.array([named[r] for r in ("j1", "j2", "j3")]).T
    err = (j != np.array(majority)[:, None]).astype(float)[np.array(keep)]
    assert p.effective_judges.estimate == pytest.approx(9 / np.corrcoef(err.T).sum(), abs=1e-12)


@given(st.integers(0, 10_000))
@settings(max_examples=10, deadline=None)
def test_judge_order_does_not_change_the_effective_number(seed: int) -> None:
    rows = _wide(seed, n=40, numeric=True)
    a = accord.judge_panel(_ann(rows), judges=["j1", "j2", "j3"], combine="mean")
    b = accord.judge_panel(_ann(rows), judges=["j3", "j1", "j2"], combine="mean")
    assert a.effective_judges.estimate == pytest.approx(b.effective_judges.estimate, abs=1e-12)


def test_bad_input() -> None:
    ann = _ann(_wide(5))
    with pytest.raises(DataError, match="at least two judges"):
        accord.judge_panel(ann, judges=["j1"])
    with pytest.raises(DataError, match="not among the raters"):
        accord.judge_panel(ann, judges=["j1", "gpt"])
    with pytest.raises(DataError, match="both a judge and a human"):
        accord.judge_panel(ann, judges=["j1", "j2"], humans=["j2", "h1"])


def test_a_rater_named_panel_is_refused_rather_than_merged_with_the_panel() -> None:
    rows = _wide(5)
    rows["panel"] = rows.pop("h3")
    ann = accord.Annotations.from_wide(rows, unit="unit", raters=[*RATERS[:5], "panel"])
    with pytest.raises(DataError, match="a rater of the data has that name already"):
        accord.judge_panel(ann, judges=["j1", "j2"])
