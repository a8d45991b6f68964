"""``accord.evaluate`` on Annotations: reference and systems by rater kind, several
systems, the human ceiling, McNemar's test (against statsmodels 0.15.0
``mcnemar(exact=True)``) and paired comparisons (``accord.compare``)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar

import accord
from accord.evaluation import Evaluations

TOL = 1e-12


def _data(seed: int = 0, n: int = 300, **accuracy: float) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    out: dict[str, Any] = {"gold": gold}
    for name, p in accuracy.items():
        out[name] = np.where(rng.random(n) < p, gold, (gold + rng.integers(1, 3, n)) % 3)
    return out


def _ann(data: dict[str, Any], **kinds: str) -> accord.Annotations:
    ann = accord.Annotations.from_wide(data)
    ann.kinds.update({"gold": "gold", **kinds})
    return ann


def test_reference_and_systems_come_from_the_rater_kinds() -> None:
    data = _data(ann_a=0.8, model=0.7, judge=0.6)
    evs = accord.evaluate(_ann(data, model="model", judge="llm"))
    assert isinstance(evs, Evaluations)
    assert list(evs) == ["model", "judge"] and evs.reference == "gold"
    assert evs.humans == ("ann_a",)
    alone = accord.evaluate(data["gold"], data["model"])
    for key, res in alone.results().items():
        assert evs["model"].results()[key].estimate == pytest.approx(res.estimate, abs=TOL)
    assert evs["model"].reference == "gold" and evs["model"].system == "model"


def test_one_named_system_returns_one_evaluation() -> None:
    ev = accord.evaluate(_ann(_data(model=0.7)), reference="gold", systems="model")
    assert isinstance(ev, accord.Evaluation) and ev.table.n == 300


def test_units_without_a_reference_label_are_counted() -> None:
    data = _data(n=50, model=0.8)
    gold = data["gold"].astype(object)
    gold[:7] = None
    model = data["model"].astype(object)
    model[10:12] = None
    ev = accord.evaluate(_ann({"gold": gold, "model": model}), systems="model")
    assert (ev.n_units, ev.n_unreferenced, ev.n_unpredicted) == (41, 7, 2)
    assert any("7 unit(s) without a reference label (from gold)" in note for note in ev.notes)


@pytest.mark.parametrize(("kinds", "kwargs", "match"), [
    ({"gold": "human"}, {}, "no rater is of kind 'gold'"),
    ({"model": "gold"}, {}, "the raters of kind 'gold' are"),
    ({}, {"reference": "nobody"}, r"reference: rater\(s\) \['nobody'\] not found"),
    ({}, {"systems": ["model", "x"]}, r"systems: rater\(s\) \['x'\] not found"),
    ({"model": "human"}, {}, "no rater is of kind 'model' or 'llm'"),
    ({}, {"systems": "gold"}, "is the reference"),
])
def test_naming_errors_are_one_sentence(kinds: dict[str, str], kwargs: dict[str, Any],
                                        match: str) -> None:
    ann = accord.Annotations.from_wide(_data(n=20, model=0.8))
    ann.kinds.update({"gold": "gold", "model": "model", **kinds})
    with pytest.raises(accord.DataError, match=match):
        accord.evaluate(ann, **kwargs)


def test_no_unit_with_both_labels_is_an_error() -> None:
    ann = _ann({"gold": ["a", "b", None, None], "model": [None, None, "a", "b"],
                "ann": ["a", "b", "a", "b"]}, model="model")
    with pytest.raises(accord.DataError, match="no unit has both a label from the reference"):
        accord.evaluate(ann)


def test_several_systems_from_a_mapping() -> None:
    data = _data(a=0.8, b=0.6)
    evs = accord.evaluate(data["gold"], {"a": data["a"], "b": data["b"]})
    assert isinstance(evs, Evaluations) and set(evs) == {"a", "b"}
    assert evs["a"].accuracy.estimate > evs["b"].accuracy.estimate
    with pytest.raises(accord.DataError, match="no system 'c'"):
        evs["c"]
    assert set(evs.to_dict(method="asymptotic")["systems"]) == {"a", "b"}


# --------------------------------------------------------------------------- McNemar
@pytest.mark.parametrize("seed", range(5))
def test_mcnemar_matches_statsmodels_exact(seed: int) -> None:
    data = _data(seed, n=80 + 40 * seed, a=0.75, b=0.65)
    evs = accord.evaluate(_ann(data, a="model", b="model"))
    res = evs.mcnemar("a", "b")
    right_a, right_b = data["a"] == data["gold"], data["b"] == data["gold"]
    table = [[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
             [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]]
    theirs = mcnemar(table, exact=True)
    assert (res.b, res.c) == (table[0][1], table[1][0])
    assert res.statistic == theirs.statistic
    assert res.pvalue == pytest.approx(theirs.pvalue, abs=TOL)


def test_mcnemar_uses_only_units_both_systems_labelled() -> None:
    gold = ["y", "n", "y", "n", "y", "n"]
    a = ["y", "n", "y", "y", None, "n"]
    b = ["n", "n", "y", "n", "y", None]
    res = accord.evaluate(gold, {"a": a, "b": b}).mcnemar("a", "b")
    assert (res.n_units, res.b, res.c) == (4, 1, 1) and res.pvalue == 1.0


def test_paired_comparison_of_two_systems_is_accord_compare() -> None:
    data = _data(3, a=0.8, b=0.7)
    evs = accord.evaluate(data["gold"], {"a": data["a"], "b": data["b"]})
    boot = accord.Bootstrap(n_resamples=500, rng=2)
    ours = evs.compare("a", "b", "kappa", method=boot)
    theirs = accord.compare(accord.cohen_kappa(data["gold"], data["a"]),
                            accord.cohen_kappa(data["gold"], data["b"]), method=boot)
    assert ours.difference == pytest.approx(theirs.difference, abs=TOL)
    assert (ours.interval.low, ours.interval.high) == (pytest.approx(theirs.interval.low),
                                                      pytest.approx(theirs.interval.high))
    with pytest.raises(accord.DataError, match="no figure 'f2'"):
        evs.compare("a", "b", "f2")


# --------------------------------------------------------------------------- the ceiling
def _ceiling(model: float, seed: int = 1) -> Any:
    data = _data(seed, n=400, ann_a=0.8, ann_b=0.76, model=model)
    ev = accord.evaluate(_ann(data, model="model"), systems="model",
                         method=accord.Bootstrap(n_resamples=999, rng=0))
    assert ev.ceiling is not None
    return ev.ceiling, data


def test_ceiling_near_the_humans() -> None:
    c, data = _ceiling(0.78)
    assert c.outcome == "near"
    assert "lies within the human annotators' range against the same reference" in c.sentence
    assert "near the human ceiling on these 400 units" in c.sentence
    low, high = c.human_range
    assert low <= c.system_result.estimate <= high
    acc_a = np.mean(data["ann_a"] == data["gold"])
    assert c.humans["ann_a"].estimate == pytest.approx(acc_a, abs=TOL)
    agree = np.mean(data["ann_a"] == data["ann_b"])
    assert c.human_agreement is not None
    assert c.human_agreement.estimate == pytest.approx(agree, abs=TOL)


def test_ceiling_clearly_below_the_humans() -> None:
    c, _ = _ceiling(0.55)
    assert c.outcome == "below" and "clearly below the human annotators" in c.sentence
    assert all(d.interval.high < 0 for d in c.comparisons.values())


def test_ceiling_above_every_human() -> None:
    c, _ = _ceiling(0.97)
    assert c.outcome == "above"
    assert "above every human annotator" in c.sentence
    assert "the reference itself may be the limit" in c.sentence


def test_ceiling_comparisons_are_paired_bootstraps_of_the_same_units() -> None:
    c, data = _ceiling(0.78)
    boot = accord.Bootstrap(n_resamples=999, rng=0)
    human = accord.evaluate(data["gold"], data["ann_a"])
    theirs = accord.compare(c.system_result, human.accuracy, method=boot)
    assert c.comparisons["ann_a"].difference == pytest.approx(theirs.difference, abs=TOL)
    assert c.comparisons["ann_a"].interval.low == pytest.approx(theirs.interval.low, abs=TOL)


def test_ceiling_on_another_figure_and_in_to_dict() -> None:
    data = _data(2, ann_a=0.8, model=0.8)
    ev = accord.evaluate(_ann(data, model="model"), systems="model", ceiling_figure="macro.f1",
                         method=accord.Bootstrap(n_resamples=200, rng=0))
    assert ev.ceiling is not None and ev.ceiling.figure == "macro.f1"
    assert ev.ceiling.human_agreement is None  # one human
    out = ev.to_dict(method="asymptotic")["ceiling"]
    assert out["outcome"] in ("near", "below", "above") and out["sentence"]
    with pytest.raises(accord.AccordError, match="ceiling_figure"):
        accord.evaluate(_ann(data, model="model"), systems="model", ceiling_figure="f9")


def test_annotations_without_humans_have_no_ceiling() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = accord.evaluate(_ann(_data(model=0.7), model="model"), systems="model")
    assert ev.ceiling is None and math.isfinite(ev.accuracy.estimate)
