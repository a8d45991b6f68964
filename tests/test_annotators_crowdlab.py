"""``consensus(method="crowdlab", model=P)`` against cleanlab 2.9.0's CROWDLAB.

Oracle: ``cleanlab.multiannotator.get_label_quality_multiannotator`` with its defaults
(``consensus_method="best_quality"``, ``quality_method="crowdlab"``), on the same wide
label array and the same model probabilities: the consensus labels equal, and the
consensus quality scores, each annotator's label quality, the model's weight and the
annotators' weights within 1e-9 (the issue asks 1e-6; the sums only run in another
order). Goh, Tkachenko & Mueller (2022), arXiv:2210.06812.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError, InvalidParameterError

from .test_annotators_model import model_probs, simulated

cleanlab_ma = pytest.importorskip("cleanlab.multiannotator")


def _wide(ann: accord.Annotations) -> np.ndarray:
    unit, rater, value = ann.codes
    out = np.full((len(ann.units), len(ann.raters)), np.nan)
    out[unit, rater] = value
    return out


def _cleanlab(labels: np.ndarray, probs: np.ndarray) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cleanlab_ma.get_label_quality_multiannotator(
            labels, probs, verbose=False, return_detailed_quality=True, return_weights=True)


def _check(ann: accord.Annotations, probs: dict, k: int) -> accord.Consensus:
    matrix = np.array([[probs[u][c] for c in range(k)] for u in ann.units])
    got = _cleanlab(_wide(ann), matrix)
    c = accord.consensus(ann, method="crowdlab", model=probs)
    lq = got["label_quality"]
    assert [c.labels[u] for u in c.units] == lq["consensus_label"].tolist()
    q = c.quality
    np.testing.assert_allclose(q.consensus, lq["consensus_quality_score"], rtol=0, atol=1e-9)
    assert c.model is not None and c.model.weight is not None
    assert c.model.weight == pytest.approx(got["model_weight"], abs=1e-9)
    order = [ann.raters.index(r) for r in c.raters]
    np.testing.assert_allclose(c.parameters["weight"], got["annotator_weight"][order],
                               rtol=0, atol=1e-9)
    detail = got["detailed_label_quality"].to_numpy()
    unit, rater, _ = ann.codes
    np.testing.assert_allclose(q.annotator_labels, detail[unit, rater], rtol=0, atol=1e-9)
    return c


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("accuracy", [0.6, 0.8])
def test_crowdlab_is_cleanlab_s(seed: int, accuracy: float) -> None:
    truth, ann = simulated(seed, n_units=400, n_raters=8, per_unit=3)
    c = _check(ann, model_probs(truth, accuracy, seed), 3)
    assert c.method == "crowdlab" and c.model.vote == "weighted"
    assert c.model.n_units == 400


def test_ties_follow_cleanlab_s_three_breaks() -> None:
    """Two ratings a unit: many majority ties; with uniform model probabilities the
    model cannot break them, so the rarer class and then the voters' agreement do."""
    truth, ann = simulated(7, n_units=300, n_raters=6, per_unit=2)
    flat = {u: {c: 1.0 / 3 for c in range(3)} for u in range(300)}
    _check(ann, flat, 3)
    _check(ann, model_probs(truth, 0.7, 7), 3)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.integers(2, 5),
       st.floats(0.2, 0.95))
def test_any_small_crowd_is_cleanlab_s(seed: int, k: int, per_unit: int,
                                       accuracy: float) -> None:
    truth, ann = simulated(seed, n_units=60, n_raters=6, k=k, per_unit=per_unit)
    probs = model_probs(truth, accuracy, seed, k=k)
    _check(ann, probs, k)


def test_a_model_on_some_units_only() -> None:
    """Units the model did not score are mixed from the votes alone (cleanlab needs every
    unit scored): their posterior is the annotators' part, normalised by its weight."""
    truth, ann = simulated(3, n_units=200, n_raters=6, per_unit=3)
    probs = model_probs(truth, 0.8, 3)
    some = {u: p for u, p in probs.items() if u % 2 == 0}
    c = accord.consensus(ann, method="crowdlab", model=some)
    assert c.model.n_units == 100
    post = np.asarray(c.posterior)
    np.testing.assert_allclose(post.sum(axis=1), 1.0, atol=1e-12)
    w = np.asarray(c.parameters["weight"])
    like = c.parameters["consensus_likelihood"]
    unit, rater, value = ann.codes
    odd = 1
    mine = unit == odd
    by_label = np.bincount(value[mine], weights=w[rater[mine]], minlength=3)
    other = (1 - like) / 2
    want = (other * by_label.sum() + (like - other) * by_label) / by_label.sum()
    np.testing.assert_allclose(post[odd], want, atol=1e-12)


def test_crowdlab_needs_a_model_and_a_unit_rated_twice() -> None:
    _, ann = simulated(0, n_units=30, n_raters=4, per_unit=2)
    with pytest.raises(InvalidParameterError, match="pass them as model="):
        accord.consensus(ann, method="crowdlab")
    once = accord.Annotations.from_long([(u, f"r{u % 3}", u % 2) for u in range(10)],
                                        unit=0, rater=1, value=2, require_pairs=False)
    with pytest.raises(DataError, match="every unit has one rating"):
        accord.consensus(once, method="crowdlab", model={u: {0: 0.5, 1: 0.5}
                                                         for u in range(10)})
    with pytest.raises(InvalidParameterError, match="'crowdlab'"):
        accord.consensus(ann, method="glad", model={0: {0: 1.0}})


def test_the_command_line_runs_crowdlab() -> None:
    import json

    from tests.conftest import run_cli

    args = ["consensus", "examples/crowd.csv", "--unit", "image", "--rater", "worker",
            "--value", "label"]
    code, out, _ = run_cli(*args, "--model", "examples/crowd_model.csv",
                           "--method", "crowdlab", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["method"] == "crowdlab" and doc["model"]["vote"] == "weighted"
    assert doc["model"]["weight"] > 0
    code, out, err = run_cli(*args, "--method", "crowdlab")
    assert code != 0 and "--model FILE" in out + err
    assert "Traceback" not in out + err


def test_a_tie_that_no_break_decides_takes_the_first_tied_label() -> None:
    """Every unit tied, so no annotator has an agreement with a clear majority (the third
    tie-break has nothing to compare; cleanlab 2.9.0 then fails drawing from an empty
    choice): the first tied label, never a declared category nobody gave."""
    rows = [("u0", "a", "y"), ("u0", "b", "z"), ("u1", "a", "z"), ("u1", "b", "y")]
    ann = accord.Annotations.from_long(rows, unit=0, rater=1, value=2,
                                       categories=["x", "y", "z"])
    flat = {u: {"x": 1 / 3, "y": 1 / 3, "z": 1 / 3} for u in ("u0", "u1")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = accord.consensus(ann, method="crowdlab", model=flat)
    assert dict(c.labels) == {"u0": "y", "u1": "y"}


def test_a_model_only_on_units_rated_once_gets_the_floor_weight_and_a_note() -> None:
    rows = [("u0", "a", "y"), ("u0", "b", "y"), ("u1", "a", "z"), ("u1", "b", "z"),
            ("u2", "a", "y")]
    ann = accord.Annotations.from_long(rows, unit=0, rater=1, value=2)
    c = accord.consensus(ann, method="crowdlab", model={"u2": {"y": 0.1, "z": 0.9}})
    assert c.model is not None and c.model.weight == pytest.approx(1e-6 * np.sqrt(5 / 3))
    assert any("scored no unit rated more than once" in n for n in c.notes)
    assert c.labels["u2"] == "y"  # the one vote decides, not the model
