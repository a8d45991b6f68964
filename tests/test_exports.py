"""The public API is exactly the names below (after httpx's test_exported_members.py).

Adding or removing a public name is a deliberate act: update EXPECTED in the
same commit, keeping constants first and then the plain sorted order.
"""

from __future__ import annotations

import types

import accord

EXPECTED = [
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


def _sort_key(name: str) -> tuple[bool, str]:
    """Constants (REGISTRY, SCALES) first, then everything in plain sorted order."""
    return (not name.isupper(), name)


def test_all_is_exactly_the_expected_set() -> None:
    assert set(accord.__all__) == set(EXPECTED)
    assert accord.__all__ == EXPECTED


def test_all_is_sorted_without_duplicates() -> None:
    assert accord.__all__ == sorted(accord.__all__, key=_sort_key)
    assert len(set(accord.__all__)) == len(accord.__all__)


def test_every_exported_name_exists() -> None:
    missing = [name for name in accord.__all__ if not hasattr(accord, name)]
    assert missing == []


def test_no_public_name_is_left_out_of_all() -> None:
    stray = [
        name for name in dir(accord)
        if not name.startswith("_") and name not in accord.__all__
        and not isinstance(getattr(accord, name), types.ModuleType)
    ]
    assert stray == []


def test_every_registered_coefficient_is_exported_under_its_name() -> None:
    for name, info in accord.REGISTRY.items():
        assert name in accord.__all__, name
        assert getattr(accord, name) is info.function


def test_each_public_name_is_loaded_from_the_module_that_api_imports_it_from() -> None:
    """``accord._WHERE`` (one module imported per name on first use) and ``accord._api``
    (every name at once) name the same objects, so the lazy path cannot drift."""
    import importlib

    import accord._api as api

    where = accord._WHERE  # noqa: SLF001
    assert set(where) == set(accord.__all__) - {"__version__", "datasets"}
    for name, module in where.items():
        assert getattr(importlib.import_module(module), name) is getattr(api, name), name
