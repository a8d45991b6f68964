"""A classifier (or an annotator) against a reference: :func:`evaluate`.

``evaluate`` routes each kind of input to one confusion matrix per system,
rows = reference, columns = system, and computes every figure from it
(:mod:`accord.coefficients.classification`). The routing is one function,
:func:`accord.evaluation._dispatch.route`: single-label sequences, a
``ContingencyTable``, a mapping of systems, and ``Annotations`` with rater kinds.
Other data (spans, set-valued labels) plug in there with their own sufficient
statistic and result type.
"""

from accord.evaluation._dispatch import evaluate
from accord.evaluation._result import Averages, Baselines, ClassMetrics, Evaluation
from accord.evaluation.ceiling import Evaluations, HumanCeiling, McNemar

__all__ = [
    "Averages", "Baselines", "ClassMetrics", "Evaluation", "Evaluations", "HumanCeiling",
    "McNemar", "evaluate",
]
