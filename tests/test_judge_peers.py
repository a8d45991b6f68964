"""The judge lab against the small peer packages that answer the same questions.

judgemetry 0.1.0: ``verbosity_bias`` and ``self_preference`` (judge share minus human
share, both orders pooled), ``expected_calibration_error`` and ``brier_score`` (10
equal-width bins). rater-agreement 0.1.0 (``raters.intra``): ``flip_rate`` (overall
and across a threshold), ``icc_1_1``, ``within_item_variance``. Each figure they share
with accord is compared at full precision, on data without ties (judgemetry counts a
tie against self-preference, accord leaves ties out: they agree when there is none).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import accord

judgemetry = pytest.importorskip("judgemetry")
raters_intra = pytest.importorskip("raters.intra")


def _pairs(seed: int, n: int = 150) -> tuple[list[Any], dict[str, list[Any]]]:
    from judgemetry.records import JudgedPair, PairRecord, Verdict

    rng = np.random.default_rng(seed)
    judged, rows = [], {k: [] for k in ("unit", "rater", "first", "second", "verdict",
                                        "len_first", "len_second", "gen_first", "gen_second")}
    for u in range(n):
        la, lb = (int(x) for x in rng.integers(5, 60, 2))
        ma, mb = ("self-model", "other") if u % 3 == 0 else ("other", "third")
        human = "A" if rng.random() < 0.5 else "B"
        fwd, bwd = ("A" if rng.random() < 0.6 else "B" for _ in range(2))
        rec = PairRecord(f"p{u}", "q", "a" * la, "b" * lb, ma, mb, human)
        judged.append(JudgedPair(rec, Verdict(fwd, 0.5, ""), Verdict(bwd, 0.5, ""), "j"))
        lens, gens = {"a": la, "b": lb}, {"a": ma, "b": mb}
        # the judge saw (a, b) then (b, a); judgemetry writes both winners in the (a, b) frame
        for first, second, win in (("a", "b", fwd), ("b", "a", bwd)):
            verdict = "A" if {"A": "a", "B": "b"}[win] == first else "B"
            _add(rows, f"p{u}", "judge", first, second, verdict, lens, gens)
        _add(rows, f"p{u}", "human", "a", "b", human, lens, gens)
    return judged, rows


def _add(rows: dict[str, list[Any]], unit: str, rater: str, first: str, second: str,
         verdict: str, lens: dict[str, int], gens: dict[str, str]) -> None:
    for key, val in zip(rows, (unit, rater, first, second, verdict, lens[first], lens[second],
                               gens[first], gens[second])):
        rows[key].append(val)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_verbosity_and_self_preference_match_judgemetry(seed: int) -> None:
    from judgemetry.metrics import self_preference, verbosity_bias

    judged, rows = _pairs(seed)
    res = accord.preferences(rows, judge="judge", lengths=("len_first", "len_second"),
                             generators=("gen_first", "gen_second"), family="self-model")
    assert res.length_bias_excess is not None and res.self_preference_excess is not None
    assert res.length_bias_excess.estimate == pytest.approx(
        verbosity_bias(judged).value, abs=1e-12)
    assert res.self_preference_excess.estimate == pytest.approx(
        self_preference(judged, "self-model").value, abs=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
def test_brier_and_ece_match_judgemetry(seed: int) -> None:
    from judgemetry.metrics import brier_score, expected_calibration_error

    rng = np.random.default_rng(seed)
    s = rng.random(300)
    y = (rng.random(300) < s).astype(int)
    outcomes = [(float(a), bool(b)) for a, b in zip(s, y)]
    cal = accord.judge_calibration(s, y, recalibrate=None)
    assert cal.brier.estimate == pytest.approx(brier_score(outcomes), abs=1e-14)
    assert cal.ece.estimate == pytest.approx(expected_calibration_error(outcomes), abs=1e-14)


@pytest.mark.parametrize("seed", [5, 6])
def test_consistency_matches_rater_agreement(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = np.clip(np.rint(rng.normal(3, 1, 80)[:, None] + rng.normal(0, 0.7, (80, 4))), 1, 5)
    c = accord.judge_consistency(x, threshold=3.5)
    assert c.flip_rate.estimate == pytest.approx(raters_intra.flip_rate(x), abs=1e-15)
    assert c.threshold_flip_rate is not None
    assert c.threshold_flip_rate.estimate == pytest.approx(
        raters_intra.flip_rate(x, threshold=3.5), abs=1e-15)
    assert c.icc.estimate == pytest.approx(raters_intra.icc_1_1(x), abs=1e-12)
    assert c.within_item_variance.estimate == pytest.approx(
        raters_intra.within_item_variance(x), abs=1e-12)
