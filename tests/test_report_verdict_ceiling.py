"""The model card's verdict reads the human ceiling as the ceiling's own sentence does.

On the bundled pilot, annotator_b's accuracy against annotator_a (0.8435, 95% CI
0.77-0.90) is under the one other human's (annotator_c: 0.8772) but the paired interval
of the difference holds 0, so the evidence says "not clearly below ... near the human
ceiling". The verdict said "below the human annotators' range (0.8772 to 0.8772)".
"""

from __future__ import annotations

from pathlib import Path

import accord

ROOT = Path(__file__).resolve().parents[1]


def _report() -> accord.Report:
    ann = accord.read(ROOT / "examples" / "pilot.csv")
    ann.kinds["annotator_a"] = "gold"  # what accord report --gold/--predicted does
    ann.kinds["annotator_b"] = "model"
    return accord.report(ann)


def test_the_verdict_does_not_call_a_model_below_the_humans_when_the_evidence_does_not() -> None:
    rep = _report()
    system = rep.reference.systems[0]
    assert system.ceiling_outcome == "near"
    assert any("not clearly below" in s for s in system.sentences)
    verdict = rep.job.verdict
    assert "not clearly below the human annotator (0.8772, accuracy)" in verdict
    assert "range (0.8772 to 0.8772" not in verdict
    # the figures quoted are the library's own
    ann = accord.read(ROOT / "examples" / "pilot.csv")
    ann.kinds["annotator_c"] = "human"
    ev = accord.evaluate(ann, reference="annotator_a", systems="annotator_b")
    assert ev.ceiling is not None and ev.ceiling.outcome == "near"
    assert f"{ev.ceiling.humans['annotator_c'].estimate:.4f}" == "0.8772"
