"""LLM judges against humans: may a judge replace a human annotator?

* :func:`alt_test`: the alternative annotator test (Calderon, Reichart & Dror 2025);
* :func:`judge_agreement`: the judge against each human and the humans' consensus,
  next to the human-human ceiling;
* :func:`preferences`: pairwise verdicts shown in both orders: position
  consistency and bias, verdicts normalised to the winning candidate; with output
  lengths and generators, length bias and self-preference (:mod:`accord.judge.biases`);
* :func:`bradley_terry`: rankings from pairwise verdicts, an order effect, Davidson ties;
* :func:`judge_consistency`: the same judge run several times on the same items;
* :func:`judge_calibration`: a judge's probabilities against human labels;
* :func:`ppi_mean`: a judge's rate corrected by a human-labelled sample (PPI);
* :func:`judge_panel`: several judges combined, each and the panel through the alt-test;
* :func:`read_pairwise`: AlpacaEval annotations (or JSONL/CSV) as columns for the above.
"""

from accord.judge.agreement import JudgeAgreement, judge_agreement
from accord.judge.alt_test import AltTestHuman, AltTestResult, alt_test
from accord.judge.bradley_terry import BradleyTerryResult, bradley_terry
from accord.judge.calibration import JudgeCalibration, judge_calibration
from accord.judge.consistency import JudgeConsistency, judge_consistency
from accord.judge.jury import JudgePanel, judge_panel
from accord.judge.pairs_io import PairwiseTable, read_pairwise
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
    "PairwiseTable",
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
    "read_pairwise",
]
