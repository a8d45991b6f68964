"""LLM judges against humans: may a judge replace a human annotator?

* :func:`alt_test`: the alternative annotator test (Calderon, Reichart & Dror 2025);
* :func:`judge_agreement`: the judge against each human and the humans' consensus,
  next to the human-human ceiling.
"""

from accord.judge.agreement import JudgeAgreement, judge_agreement
from accord.judge.alt_test import AltTestHuman, AltTestResult, alt_test

__all__ = ["AltTestHuman", "AltTestResult", "JudgeAgreement", "alt_test", "judge_agreement"]
