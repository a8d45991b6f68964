"""LLM judges against humans: may a judge replace a human annotator?

* :func:`alt_test`: the alternative annotator test (Calderon, Reichart & Dror 2025);
* :func:`judge_agreement`: the judge against each human and the humans' consensus,
  next to the human-human ceiling;
* :func:`preferences`: pairwise verdicts shown in both orders: position
  consistency and bias, verdicts normalised to the winning candidate.
"""

from accord.judge.agreement import JudgeAgreement, judge_agreement
from accord.judge.alt_test import AltTestHuman, AltTestResult, alt_test
from accord.judge.bradley_terry import BradleyTerryResult, bradley_terry
from accord.judge.calibration import JudgeCalibration, judge_calibration
from accord.judge.consistency import JudgeConsistency, judge_consistency
from accord.judge.jury import JudgePanel, judge_panel
from accord.judge.ppi import ppi_mean
from accord.judge.preferences import PositionBias, PreferenceResult, preferences

__all__ = [
    "AltTestHuman",
    "AltTestResult",
    "BradleyTerryResult",
    "JudgeAgreement",
    "JudgeCalibration",
    "JudgeConsistency",
    "JudgePanel",
    "PositionBias",
    "PreferenceResult",
    "alt_test",
    "bradley_terry",
    "judge_agreement",
    "judge_calibration",
    "judge_consistency",
    "judge_panel",
    "ppi_mean",
    "preferences",
]
