"""Agreement on spans: matching, evaluation against a reference, pairwise F1.

* :mod:`accord.spans.matching`: one-to-one matching of two raters' spans in the
  four SemEval-2013 task 9.1 modes, by sorted sweeps per unit;
* :func:`evaluate_spans`: precision, recall and F1 against a reference (spans
  or tag sequences);
* :func:`span_agreement`: pairwise F1 between raters (Hripcsak & Rothschild 2005),
  and :func:`span_f1`, its mean registered as a coefficient (importing this package
  adds ``span_f1`` to :data:`accord.coefficients.REGISTRY`);
* :func:`unitizing_alpha`: Krippendorff's alpha_U on character offsets;
* :func:`token_agreement`: kappa or alpha on the labels of declared tokens;
* :func:`relation_agreement`: F1 and kappa on relations between spans, their
  arguments found by the span matching;
* :func:`gamma`: Mathet's gamma for units that may overlap (pygamma-agreement's
  definitions, the best alignment solved exactly);
* :func:`span_disagreements`, :func:`label_confusion`: the spans behind the figures;
* :mod:`accord.readers.tags`: entities of BIO-style tag sequences, as seqeval
  finds them.
"""

from accord.spans._scores import SpanCounts
from accord.spans.agreement import PairAgreement, SpanAgreement, span_agreement
from accord.spans.disagreements import SpanDisagreement, label_confusion, span_disagreements
from accord.spans.evaluate import SpanEvaluation, SpanScores, evaluate_spans
from accord.spans.gamma import gamma
from accord.spans.matching import KINDS, MODES
from accord.spans.relations import (
    RelationAgreement,
    RelationCounts,
    RelationDispute,
    relation_agreement,
)
from accord.spans.span_f1 import span_f1
from accord.spans.tokens import token_agreement, token_annotations
from accord.spans.unitizing import unitizing_alpha

__all__ = [
    "KINDS",
    "MODES",
    "PairAgreement",
    "RelationAgreement",
    "RelationCounts",
    "RelationDispute",
    "SpanAgreement",
    "SpanCounts",
    "SpanDisagreement",
    "SpanEvaluation",
    "SpanScores",
    "evaluate_spans",
    "gamma",
    "label_confusion",
    "relation_agreement",
    "span_agreement",
    "span_disagreements",
    "span_f1",
    "token_agreement",
    "token_annotations",
    "unitizing_alpha",
]
