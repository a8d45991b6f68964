"""accord: inter-annotator agreement, exact and honest.

Every coefficient returns an :class:`AgreementResult` with its estimate, the
observed and chance agreement behind it, a standard error where the literature
gives one, and ``confidence_interval()``.

>>> import accord
>>> res = accord.cohen_kappa(["yes", "no", "yes", "yes"], ["yes", "no", "no", "yes"])
>>> round(res.estimate, 3)
0.5
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accord._api import *  # noqa: F403

from accord._version import __version__

__all__ = [
    "REGISTRY",
    "SCALES",
    "AccordError",
    "AgreementResult",
    "Annotations",
    "AnnotatorQuality",
    "Annotators",
    "Audit",
    "BenchmarkResult",
    "Bootstrap",
    "BoxAgreement",
    "BoxConsensus",
    "BoxDetection",
    "CoincidenceMatrix",
    "Comparison",
    "ConfidenceInterval",
    "Consensus",
    "ContingencyTable",
    "ConvergenceWarning",
    "DataError",
    "DegenerateDataWarning",
    "Evaluation",
    "Evaluations",
    "FormatError",
    "GroupedResult",
    "Groups",
    "HomogeneityTest",
    "Interpretation",
    "KeypointAgreement",
    "KeypointConsensus",
    "LayoutWarning",
    "MarginalTest",
    "MultilabelAgreement",
    "MultilabelEvaluation",
    "PolygonAgreement",
    "PolygonConsensus",
    "PowerPlan",
    "RaterCounts",
    "RatingMatrix",
    "RelationAgreement",
    "Report",
    "SamplePlan",
    "Scale",
    "ScoreConsensus",
    "SpanAgreement",
    "SpanEvaluation",
    "Study",
    "UndeclaredOrderWarning",
    "__version__",
    "accuracy",
    "alt_test",
    "annotators",
    "balanced_accuracy",
    "bangdiwala_b",
    "benchmark",
    "bhapkar_test",
    "bowker_test",
    "box_agreement",
    "box_consensus",
    "bradley_terry",
    "brennan_prediger",
    "category_agreement",
    "cohen_kappa",
    "compare",
    "conger_kappa",
    "consensus",
    "datasets",
    "disagreements",
    "distances",
    "evaluate",
    "evaluate_boxes",
    "evaluate_multilabel",
    "evaluate_spans",
    "f1",
    "finn",
    "fleiss_kappa",
    "formats",
    "gamma",
    "groups",
    "gwet_ac1",
    "homogeneity",
    "icc",
    "interpret",
    "janson_olsson_iota",
    "judge_agreement",
    "judge_calibration",
    "judge_consistency",
    "judge_panel",
    "kappa_max",
    "kendall_w",
    "keypoint_agreement",
    "keypoint_consensus",
    "krippendorff_alpha",
    "label_distribution",
    "leave_one_rater_out",
    "light_kappa",
    "load_study",
    "marginal_tests",
    "mcc",
    "mcnemar_test",
    "mean_pearson",
    "mean_spearman",
    "multilabel_agreement",
    "pabak",
    "pairwise",
    "percent_agreement",
    "plan_lower_limit",
    "plan_power",
    "plan_sample_size",
    "polygon_agreement",
    "polygon_consensus",
    "ppi_mean",
    "precision",
    "preferences",
    "rater_bias",
    "read",
    "recall",
    "relation_agreement",
    "report",
    "robinson_a",
    "score_consensus",
    "scott_pi",
    "span_agreement",
    "span_f1",
    "stuart_maxwell_test",
    "token_agreement",
    "token_annotations",
    "unit_agreement",
    "unitizing_alpha",
]

# Public functions that share their name with a subpackage (accord.report is the function;
# the subpackage is accord.report.*; likewise accord.interpret and accord.annotators):
# importing the subpackage must not replace them.
_SHADOWED = frozenset({"annotators", "interpret", "report"})


#: Where each public name lives, so that its first use imports that module only
#: (``accord.cohen_kappa`` does not import the readers, the report or scipy.stats);
#: ``accord._api`` imports them all at once, and a test checks that the two agree.
_WHERE: dict[str, str] = {
    name: module
    for module, names in {
        "accord.annotators": (
            "AnnotatorQuality Annotators Consensus ScoreConsensus annotators consensus "
            "score_consensus"
        ),
        "accord.coefficients": (
            "MultilabelAgreement REGISTRY accuracy balanced_accuracy bangdiwala_b "
            "brennan_prediger category_agreement cohen_kappa conger_kappa distances f1 finn "
            "fleiss_kappa gwet_ac1 icc janson_olsson_iota kappa_max kendall_w "
            "krippendorff_alpha light_kappa mcc mean_pearson mean_spearman "
            "multilabel_agreement pabak percent_agreement precision recall robinson_a scott_pi"
        ),
        "accord.coefficients.pairwise": "pairwise",
        "accord.data.annotations": "Annotations Audit",
        "accord.errors": (
            "AccordError ConvergenceWarning DataError DegenerateDataWarning FormatError "
            "LayoutWarning UndeclaredOrderWarning"
        ),
        "accord.evaluation": "Evaluation Evaluations evaluate",
        "accord.history": "GroupedResult Groups groups",
        "accord.images": (
            "BoxAgreement BoxConsensus BoxDetection KeypointAgreement KeypointConsensus "
            "PolygonAgreement PolygonConsensus box_agreement box_consensus evaluate_boxes "
            "keypoint_agreement keypoint_consensus polygon_agreement polygon_consensus"
        ),
        "accord.inference": "Bootstrap",
        "accord.inference.compare": "Comparison compare",
        "accord.inference.homogeneity": "HomogeneityTest homogeneity",
        "accord.inference.results": "AgreementResult ConfidenceInterval",
        "accord.interpret.diagnostics": "label_distribution leave_one_rater_out unit_agreement",
        "accord.interpret.disagreements": "disagreements",
        "accord.interpret.interpretation": (
            "BenchmarkResult Interpretation SCALES Scale benchmark interpret"
        ),
        "accord.interpret.marginal": (
            "MarginalTest bhapkar_test bowker_test marginal_tests mcnemar_test rater_bias "
            "stuart_maxwell_test"
        ),
        "accord.judge": (
            "alt_test bradley_terry judge_agreement judge_calibration judge_consistency "
            "judge_panel ppi_mean preferences"
        ),
        "accord.multilabel.metrics": "MultilabelEvaluation evaluate_multilabel",
        "accord.readers": "formats read",
        "accord.report": "Report report",
        "accord.spans": (
            "RelationAgreement SpanAgreement SpanEvaluation evaluate_spans gamma "
            "relation_agreement span_agreement span_f1 "
            "token_agreement token_annotations unitizing_alpha"
        ),
        "accord.study.planning": "SamplePlan plan_sample_size",
        "accord.study.power": "PowerPlan plan_lower_limit plan_power",
        "accord.study.protocol": "Study load_study",
        "accord.tables": "CoincidenceMatrix ContingencyTable RaterCounts RatingMatrix",
    }.items()
    for name in names.split()
}


def _load(name: str) -> Any:
    """The public object ``name``, importing only the module that defines it."""
    import importlib

    module = importlib.import_module(_WHERE[name])
    if not hasattr(module, name):  # a submodule (accord.distances), as ``from m import`` finds
        importlib.import_module(f"{_WHERE[name]}.{name}")
    return getattr(module, name)


def __getattr__(name: str) -> Any:
    """The public names are imported on first use (numpy and scipy only when needed)."""
    if name == "datasets":  # a subpackage
        import importlib

        return importlib.import_module("accord.datasets")
    if name in _WHERE:
        value = _load(name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'accord' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(__all__) | {n for n in globals() if n.startswith("__")})


class _Package(types.ModuleType):
    def __getattribute__(self, name: str) -> Any:
        if name in _SHADOWED:
            return _load(name)
        return super().__getattribute__(name)


sys.modules[__name__].__class__ = _Package
