"""Report data of the judge lab: every result has ``to_dict()`` (JSON) and ``sentence()``.

The sentences carry the figures of the results they describe (rounded only for reading);
each figure itself is checked against its oracle in test_judge_*.py. Here: the JSON
round-trips, the sentence quotes the estimate and the figure's own default interval, and
the verdict word follows the interval (not the point estimate).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import accord
from accord.judge.sentences import interval, ppi_sentence

from .test_judge_biases import _rows as _pair_rows
from .test_judge_biases import _run as _preferences
from .test_judge_bradley_terry import _comparisons
from .test_judge_jury import _ann, _wide


def _interval_text(res: Any, digits: int = 3, level: float = 0.95) -> str:
    ci = interval(res, level)
    return f"{level:.0%} CI {ci.low:.{digits}f} to {ci.high:.{digits}f}"


def _json(res: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert isinstance(out, dict) and out
    return out


def test_bias_sentence_leans_by_the_interval() -> None:
    p = _preferences(_pair_rows(0, n_pairs=200))
    lb, own = p.length_bias, p.self_preference
    assert lb is not None and own is not None
    ci = interval(lb, 0.95)
    assert ci.low > 0.5  # the simulated judge prefers longer answers
    text = p.sentence()
    assert text.startswith(f"judge prefers the longer output: {lb.estimate:.0%} of "
                           f"{lb.expected:.0f} decisive verdicts")
    assert f"(95% CI {ci.low:.0%} to {ci.high:.0%})" in text
    assert f"own family's output in {own.estimate:.0%}" in text
    assert _json(p)["biases"]
    narrow = p.sentence(0.5)
    assert f"(50% CI {interval(lb, 0.5).low:.0%}" in narrow


def test_consistency_has_to_dict_and_a_sentence() -> None:
    rng = np.random.default_rng(3)
    truth = rng.integers(1, 6, 60)
    runs = np.clip(truth[:, None] + rng.integers(-1, 2, (60, 4)), 1, 5)
    c = accord.judge_consistency(runs, threshold=3)
    out = _json(c)
    assert out["icc"] == json.loads(json.dumps(c.icc.to_dict()))
    assert out["n_runs"] == 4 and out["threshold_flip_rate"] is not None
    text = c.sentence(target=0.95)
    need = c.runs_needed(0.95)
    assert f"ICC(1,1)) {c.icc.estimate:.3f} ({_interval_text(c.icc)})" in text
    assert f"{need.details['runs']} run(s) reach 0.95" in text
    assert f"disagree on {c.flip_rate.estimate:.0%}" in text


def test_calibration_sentence_names_the_held_out_split() -> None:
    rng = np.random.default_rng(5)
    p = rng.random(400)
    y = (rng.random(400) < p ** 2).astype(int)
    cal = accord.judge_calibration(p, y, rng=2)
    rec = cal.recalibration
    assert rec is not None
    text = cal.sentence()
    assert text.startswith(f"Brier score {cal.brier.estimate:.3f} ({_interval_text(cal.brier)})")
    assert (f"fitted on {rec.n_fit} items moves the ECE of the other {rec.n_check} from "
            f"{rec.ece_before.estimate:.3f} to {rec.ece_after.estimate:.3f}") in text
    assert _json(cal)["recalibration"]["n_fit"] == rec.n_fit


def test_ranking_sentence_quotes_the_chosen_interval() -> None:
    bt = accord.bradley_terry(_comparisons(2, k=5, n=300, order=0.4), order_effect=True)
    top = bt.ranking()[0]
    text = bt.sentence()
    assert text.startswith(f"{top} ranks first of 5 with log-strength "
                           f"{bt.strength[top].estimate:.3f} ({_interval_text(bt.strength[top])})")
    assert bt.order_effect is not None
    assert f"worth {bt.order_effect.estimate:.3f} log-odds" in text
    boot = accord.Bootstrap(n_resamples=200, rng=1)
    ci = bt.strength[top].confidence_interval(method=boot)
    assert f"CI {ci.low:.3f} to {ci.high:.3f}" in bt.sentence(method=boot)
    assert _json(bt)["n_comparisons"] == 300


def test_ppi_sentence() -> None:
    rng = np.random.default_rng(9)
    judge = (rng.random(500) < 0.6).astype(float)
    human = np.where(rng.random(500) < 0.85, judge, 1 - judge)
    est = accord.ppi_mean(judge[100:], judge[:100], human[:100])
    text = ppi_sentence(est)
    assert text.startswith(f"The corrected rate is {est.estimate:.3f} ({_interval_text(est)})")
    assert f"the judge alone says {est.expected:.3f}" in text
    assert _json(est)["estimate"] == est.estimate


def test_panel_sentence_says_pass_or_fail_from_the_alt_test() -> None:
    p = accord.judge_panel(_ann(_wide(0)), judges=["j1", "j2", "j3"])
    text = p.sentence()
    verdict = "passes" if p.alt_tests["panel"].passed else "fails"
    assert text.startswith(f"The majority panel of 3 judges {verdict} the alternative")
    assert f"worth {p.effective_judges.estimate:.2f}" in text
    assert _json(p)["combine"] == "majority"


def test_bad_confidence_level_is_one_sentence() -> None:
    bt = accord.bradley_terry(_comparisons(2, k=3, n=60))
    with pytest.raises(accord.AccordError, match="confidence_level"):
        bt.sentence(1.5)
