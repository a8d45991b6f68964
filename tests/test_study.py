"""The declared study protocol: parsing, validation naming the key, and the decision.

Reference values: Cohen (1960, p. 45) table, kappa = 0.4915 with the Fleiss, Cohen
& Everitt (1969) SE 0.0510 (also in ../shared/reference/cases.json, ``cohen_1960_p45``).
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import accord
from accord.errors import DegenerateDataWarning, InvalidParameterError, StudyError
from accord.study.protocol import AcceptanceRule, Metric, evaluate

COHEN_1960 = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]
KAPPA_1960, SE_1960 = 0.4915254237288136, 0.05101


def pairs_from_table(table: list[list[int]], cats: list[str]) -> accord.Annotations:
    """Unit-level ratings that reproduce a published contingency table."""
    a, b = [], []
    for i, row in enumerate(table):
        for j, n in enumerate(row):
            a += [cats[i]] * n
            b += [cats[j]] * n
    return accord.Annotations.from_pairs(a, b, raters=("ann", "bob"))


@pytest.fixture
def cohen() -> accord.Annotations:
    return pairs_from_table(COHEN_1960, ["x", "y", "z"])


def write(tmp_path: Path, text: str, name: str = "study.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


FULL = """
    title = "Pilot"
    [population]
    description = "all reviews of 2024"
    sampling = "simple random sample"
    items_file = "items.txt"
    [annotators]
    names = ["ann", "bob"]
    independent = true
    [task]
    categories = ["z", "y", "x"]
    ontology_revision = "v2"
    missing = "exclude"
    [metric]
    coefficient = "cohen_kappa"
    confidence_level = 0.90
    interval = "bootstrap"
    n_resamples = 500
    seed = 7
    [acceptance]
    rule = "kappa >= 0.45"
    on = "lower-ci"
    [disposition]
    decided_by = "QA board"
    date = 2024-03-05
"""


def test_full_protocol_is_read(tmp_path: Path) -> None:
    (tmp_path / "items.txt").write_text("# sampled ids\n0\n1\n\n2\n", encoding="utf-8")
    study = accord.load_study(write(tmp_path, FULL))
    assert study.title == "Pilot"
    assert study.population.items == ("0", "1", "2")
    assert study.population.items_file == "items.txt"
    assert study.annotators.names == ("ann", "bob") and study.annotators.independent is True
    assert study.task.categories == ("z", "y", "x") and study.task.missing == "exclude"
    assert study.metric == Metric("cohen_kappa", confidence_level=0.90, interval="bootstrap",
                                  n_resamples=500, seed=7)
    assert study.acceptance == AcceptanceRule("cohen_kappa", 0.45, ">=", "lower-ci")
    assert study.disposition.decided_by == "QA board"
    assert study.disposition.date == "2024-03-05"  # a TOML date is kept as ISO text
    assert study.disposition.reference == ""


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("[acceptance]\nrule = 'cohen_kappa >= 0.8'\n[metric]\ncoefficent = 'x'\n", "coefficent"),
        ("[acceptance]\nrule = 'cohen_kappa => 0.8'\n", "[acceptance].rule"),
        ("[acceptance]\nrule = 'kapa >= 0.8'\n", "[acceptance].rule"),
        ("[acceptance]\nrule = 'cohen_kappa >= 0.8'\non = 'lower'\n", "[acceptance].on"),
        ("[metric]\ncoefficient = 'scott_pi'\n[acceptance]\nrule = 'kappa >= 0.8'\n",
         "[acceptance].rule"),
        ("[metric]\ncoefficient = 'cohen_kappa'\nconfidence_level = 95\n"
         "[acceptance]\nrule = 'kappa >= 0.8'\n", "[metric].confidence_level"),
        ("[metric]\ncoefficient = 'cohen_kappa'\ninterval = 'exact'\n"
         "[acceptance]\nrule = 'kappa >= 0.8'\n", "[metric].interval"),
        ("[metric]\ncoefficient = 'cohen_kappa'\nweights = 'quadratc'\n"
         "[acceptance]\nrule = 'kappa >= 0.8'\n", "[metric].weights"),
        ("[metric]\ncoefficient = 'cohen_kappa'\nseed = -1\n"
         "[acceptance]\nrule = 'kappa >= 0.8'\n", "[metric].seed"),
        ("[annotators]\nindependent = 'yes'\n[acceptance]\nrule = 'cohen_kappa >= 0.8'\n",
         "[annotators].independent"),
        ("[annotators]\nnames = ['a', 'a']\n[acceptance]\nrule = 'cohen_kappa >= 0.8'\n",
         "[annotators].names"),
        ("[task]\ncategories = []\n[acceptance]\nrule = 'cohen_kappa >= 0.8'\n",
         "[task].categories"),
        ("[task]\nmissing = 'impute'\n[acceptance]\nrule = 'cohen_kappa >= 0.8'\n",
         "[task].missing"),
        ("[population]\nitems = ['a']\nitems_file = 'f.txt'\n"
         "[acceptance]\nrule = 'cohen_kappa >= 0.8'\n", "[population].items_file"),
        ("[population]\nitems_file = 'absent.txt'\n[acceptance]\nrule = 'cohen_kappa >= 0.8'\n",
         "[population].items_file"),
        ("title = 'no rule'\n", "[acceptance]"),
        ("acceptance = 3\n", "[acceptance]"),
        ("[acceptance\nrule = 1\n", "not valid TOML"),
    ],
)
def test_invalid_protocol_names_the_key(tmp_path: Path, body: str, key: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(StudyError) as info:
        accord.load_study(path)
    message = str(info.value)
    assert key in message and str(path) in message
    assert message.count("\n") == 0


def test_rule_names_a_part_of_the_metric_or_a_registered_coefficient() -> None:
    study = accord.Study.from_dict({"metric": {"coefficient": "gwet_ac1"},
                                    "acceptance": {"rule": "ac1 > 0.7"}})
    assert study.acceptance == AcceptanceRule("gwet_ac1", 0.7, ">", "estimate")
    study = accord.Study.from_dict({"acceptance": {"rule": "scott_pi >= 1e-1"}})
    assert study.metric.coefficient == "scott_pi" and study.acceptance.threshold == 0.1


def test_acceptance_rule_validates_its_arguments() -> None:
    with pytest.raises(InvalidParameterError, match="'on' parameter"):
        AcceptanceRule("cohen_kappa", 0.8, on="lower")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'threshold' parameter"):
        AcceptanceRule("cohen_kappa", math.nan)


def test_decision_on_estimate_and_on_lower_limit(cohen: accord.Annotations) -> None:
    # Cohen (1960): kappa = 0.4915, SE = 0.0510 -> 95% lower limit 0.4915 - 1.96 * 0.0510
    metric = Metric("cohen_kappa")
    on_estimate = evaluate(cohen, metric, AcceptanceRule("cohen_kappa", 0.45)).decision
    assert on_estimate.status == "accepted"
    assert on_estimate.value == pytest.approx(KAPPA_1960, abs=1e-12)
    lower = evaluate(cohen, metric, AcceptanceRule("cohen_kappa", 0.45, on="lower-ci")).decision
    z = stats.norm.ppf(0.975)
    assert lower.value == pytest.approx(KAPPA_1960 - z * SE_1960, abs=2e-4)
    assert lower.status == "rejected"
    assert lower.line().startswith("REJECTED: cohen_kappa lower 95% limit (asymptotic) 0.39")


def test_threshold_equal_to_the_value_depends_on_the_operator(cohen: accord.Annotations) -> None:
    est = accord.cohen_kappa(cohen).estimate
    metric = Metric("cohen_kappa")
    assert evaluate(cohen, metric, AcceptanceRule("cohen_kappa", est)).decision.accepted
    assert not evaluate(cohen, metric, AcceptanceRule("cohen_kappa", est, ">")).decision.accepted


def test_undefined_estimate_is_never_accepted() -> None:
    same = accord.Annotations.from_pairs(["pos"] * 6, ["pos"] * 6)
    with pytest.warns(DegenerateDataWarning, match="single category"):
        ev = evaluate(same, Metric("cohen_kappa"), AcceptanceRule("cohen_kappa", -1.0))
    assert ev.decision.status == "undefined" and not ev.decision.accepted
    assert math.isnan(ev.decision.value)
    assert "single category" in (ev.decision.reason or "")
    assert ev.decision.line().startswith("UNDEFINED (not accepted)")
    assert ev.decision.to_dict()["value"] is None


def test_lower_limit_without_an_interval_is_undefined(cohen: accord.Annotations) -> None:
    # kappa_max has no analytic SE, so an asymptotic lower limit does not exist
    rule = AcceptanceRule("kappa_max", 0.0, on="lower-ci")
    decision = evaluate(cohen, Metric("kappa_max"), rule).decision
    assert decision.status == "undefined"
    assert "no analytic standard error" in (decision.reason or "")
    on_estimate = evaluate(cohen, Metric("kappa_max"), AcceptanceRule("kappa_max", 0.0)).decision
    assert on_estimate.status == "accepted"


def test_bootstrap_decision_is_reproducible_with_a_seed(cohen: accord.Annotations) -> None:
    metric = Metric("cohen_kappa", interval="bootstrap", n_resamples=400, seed=11)
    rule = AcceptanceRule("cohen_kappa", 0.4, on="lower-ci")
    first, second = (evaluate(cohen, metric, rule).decision for _ in range(2))
    assert first.value == second.value
    assert first.interval is not None and first.interval.method == "bootstrap-percentile"
    boot = accord.Bootstrap(n_resamples=400, rng=11)
    direct = accord.cohen_kappa(cohen).confidence_interval(0.95, method=boot)
    assert first.value == direct.low


def test_prepare_selects_declared_annotators_and_category_order() -> None:
    ann = accord.Annotations.from_wide({"a": ["x", "y", "x"], "b": ["x", "y", "y"],
                                        "c": ["y", "y", "x"]})
    study = accord.Study.from_dict({"annotators": {"names": ["b", "a"]},
                                    "task": {"categories": ["y", "x", "unused"]},
                                    "acceptance": {"rule": "cohen_kappa >= 0"}})
    prepared, notes = study.prepare(ann)
    assert prepared.raters == ("b", "a") and notes == ()
    assert prepared.categories == ("y", "x", "unused")
    np.testing.assert_array_equal(  # rows: b, columns: a, in the declared order
        accord.ContingencyTable.from_annotations(prepared).counts,
        [[1, 1, 0], [0, 1, 0], [0, 0, 0]])


def test_prepare_keeps_observed_categories_when_labels_are_undeclared() -> None:
    ann = accord.Annotations.from_pairs(["x", "y", "w"], ["x", "y", "y"])
    study = accord.Study.from_dict({"task": {"categories": ["x", "y"]},
                                    "acceptance": {"rule": "cohen_kappa >= 0"}})
    prepared, notes = study.prepare(ann)
    assert prepared.categories == ann.categories
    assert len(notes) == 1 and "'w'" in notes[0]


def test_numeric_labels_match_declared_categories_by_text() -> None:
    ann = accord.Annotations.from_pairs([1, 2, 3, 3], [1, 2, 3, 2])
    study = accord.Study.from_dict({"task": {"categories": ["3", "2", "1"]},
                                    "acceptance": {"rule": "cohen_kappa >= 0"}})
    prepared, _ = study.prepare(ann)
    assert prepared.categories == (3, 2, 1)
    np.testing.assert_array_equal(
        accord.ContingencyTable.from_annotations(prepared).counts,
        [[1, 1, 0], [0, 1, 0], [0, 0, 1]])


def test_a_value_equal_to_the_threshold_up_to_rounding_is_accepted() -> None:
    """kappa = 2/5 exactly (p_o = 2/3, p_e = 4/9), computed as 0.39999999999999997."""
    a = ["y", "y", "n", "n", "n", "n"]
    b = ["y", "y", "y", "y", "n", "n"]
    res = accord.cohen_kappa(a, b)
    assert res.estimate == pytest.approx(0.4, abs=1e-15)
    assert AcceptanceRule("cohen_kappa", 0.4).decide(res).accepted
    assert not AcceptanceRule("cohen_kappa", 0.4, operator=">").decide(res).accepted
    assert not AcceptanceRule("cohen_kappa", 0.4000001).decide(res).accepted
