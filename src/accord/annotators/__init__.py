"""Annotators and consensus labels: who is reliable, and what is the label?

* :func:`consensus`: one label per unit from a crowd's ratings (majority vote,
  Wawa, one-coin, Dawid-Skene, GLAD, MACE), with posteriors and the units whose
  label is uncertain listed first, and a model's probabilities as one more annotator
  (``model=``, see :mod:`._model`); how likely each label is right
  (:class:`~.label_quality.Quality`) and which units to relabel next
  (:class:`~.relabel.Relabel`);
* :func:`annotators`: one row per annotator: accuracy against a reference or the
  consensus with an interval, agreement with the others, the confusion matrix,
  competence and label bias, and a sentence for each annotator worth checking;
* :func:`score_consensus`: one score per unit from numeric ratings (mean, median,
  or a model of each annotator's bias and noise), with each annotator's bias and noise.
"""

from .consensus import METHODS, consensus
from .label_quality import Quality
from .quality import AnnotatorQuality, Annotators, annotators
from .relabel import Relabel
from .result import Consensus, ModelVoice
from .score_result import ScoreConsensus
from .scores import SCORE_METHODS, score_consensus

__all__ = ["METHODS", "SCORE_METHODS", "AnnotatorQuality", "Annotators", "Consensus",
           "ModelVoice", "Quality", "Relabel", "ScoreConsensus", "annotators", "consensus",
           "score_consensus"]
