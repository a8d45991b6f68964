"""Agreement on spans: matching, evaluation against a reference, pairwise F1.

* :mod:`accord.spans.matching`: one-to-one matching of two raters' spans in the
  four SemEval-2013 task 9.1 modes, by sorted sweeps per unit;
* :func:`evaluate_spans`: precision, recall and F1 against a reference (spans
  or tag sequences);
* :mod:`accord.spans.tags`: entities of BIO-style tag sequences, as seqeval
  finds them.
"""

from accord.spans._scores import SpanCounts
from accord.spans.evaluate import SpanEvaluation, SpanScores, evaluate_spans
from accord.spans.matching import KINDS, MODES

__all__ = ["KINDS", "MODES", "SpanCounts", "SpanEvaluation", "SpanScores", "evaluate_spans"]
