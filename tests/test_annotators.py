"""accord.consensus and accord.annotators: invariants, hand-checked figures, bad input.

Hand-checked figures: majority vote shares and Wawa weights are counted by hand
in the docstrings of each test; the pooled kappa against the others is checked
against accord.cohen_kappa on the pair table it pools (two annotators: the pooled
table is their contingency table). Numbers of the EM models are checked against
crowd-kit in test_annotators_crowdkit.py.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import (
    ConvergenceWarning,
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
)

METHODS = ["majority", "wawa", "one_coin", "dawid_skene", "glad", "mace"]


def crowd(seed: int, n_units: int = 60, n_raters: int = 6, k: int = 3) -> list[tuple]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_units)
    acc = rng.uniform(0.5, 0.95, n_raters)
    rows = []
    for u in range(n_units):
        for r in rng.choice(n_raters, 4, replace=False):
            lab = truth[u] if rng.random() < acc[r] else rng.integers(0, k)
            rows.append((f"u{u}", f"r{r}", f"c{lab}"))
    return rows


def long(rows: list[tuple]) -> accord.Annotations:
    return accord.Annotations.from_long(rows, unit=0, rater=1, value=2)


def quiet(ann: accord.Annotations, method: str, **kw: object) -> accord.Consensus:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return accord.consensus(ann, method=method, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_posteriors_are_distributions(method: str, seed: int) -> None:
    c = quiet(long(crowd(seed)), method)
    assert c.posterior.shape == (len(c.units), len(c.categories))
    np.testing.assert_allclose(c.posterior.sum(axis=1), 1.0, atol=1e-12)
    assert (c.posterior >= 0).all()
    np.testing.assert_array_equal(c.confidence, c.posterior.max(axis=1))


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), perm_seed=st.integers(0, 10_000))
def test_invariant_to_order_and_relabelling(method: str, seed: int, perm_seed: int) -> None:
    rows = crowd(seed)
    base = quiet(long(rows), method)
    rng = np.random.default_rng(perm_seed)
    shuffled = [rows[i] for i in rng.permutation(len(rows))]
    rename = {f"c{i}": f"z{j}" for i, j in enumerate(rng.permutation(3))}
    renamed = [(f"unit-{u}", f"ann-{r}", rename[v]) for u, r, v in shuffled]
    other = quiet(long(renamed), method)
    # GLAD's conjugate-gradient steps amplify the rounding of sums taken in another order
    # (hypothesis found seed=8492, perm_seed=0 with a difference of 1.03e-4)
    tol = 1e-3 if method == "glad" else 1e-6
    for u in base.units:
        got = other.posterior[other.units.index(f"unit-{u}")]
        for c, cat in enumerate(base.categories):
            assert got[other.categories.index(rename[cat])] == pytest.approx(
                base.posterior[base.units.index(u), c], abs=tol)


@pytest.mark.parametrize("method", ["majority", "wawa", "one_coin", "dawid_skene", "glad",
                                    "mace"])
def test_a_unit_rated_once_is_said_truly(method: str) -> None:
    # 's' says 'a' whatever x and y (who agree) say, on 9 'b' units and 3 'a' units; unit
    # 99 has only s's 'a'. A vote gives it 'a'; a model knows s's 'a' tells nothing and
    # gives it the likelier class, 'b': the note must not say "that annotator's" then.
    rows = [(u, r, "b" if u < 9 else "a") for u in range(12) for r in "xy"]
    rows += [(u, "s", "a") for u in (*range(12), 99)]
    u, r, v = zip(*rows, strict=True)
    ann = accord.Annotations.from_long({"u": u, "r": r, "v": v}, unit="u", rater="r",
                                       value="v")
    c = accord.consensus(ann, method=method)
    (note,) = [n for n in c.notes if "one annotator only" in n]
    assert c.single_rated == (99,)
    if method in ("majority", "wawa"):
        assert c.labels[99] == "a" and "their label is that annotator's" in note
    else:
        assert c.labels[99] == "b" and "can differ from it" in note


def test_majority_reports_ties_and_vote_shares() -> None:
    # unit 1: x, y (a tie); unit 2: x, x, y -> x with 2/3
    ann = accord.Annotations.from_wide([["x", "y", None], ["x", "x", "y"], ["y", None, None]])
    c = accord.consensus(ann, method="majority")
    assert c.tied == (0,)
    assert c.posterior.tolist() == [[0.5, 0.5], [2 / 3, 1 / 3], [0.0, 1.0]]
    assert c.single_rated == (2,)
    assert c.uncertain == (0, 1)  # least certain first
    assert any("one annotator only" in n for n in c.notes)
    rows = c.rows()
    assert [r["unit"] for r in rows] == [0, 1, 2]
    assert rows[0]["tied"] and rows[2]["single_rated"]
    json.dumps(c.to_dict())
    assert list(c.to_frame().columns)[:4] == ["unit", "label", "posterior", "n_ratings"]


def test_wawa_weights_are_agreement_with_the_majority() -> None:
    # majority: a, b, a, b; rater_3 agrees on units 2 and 3 only -> weight 1/2
    ratings = [["a", "a", "b"], ["b", "b", "b"], ["a", "a", "a"], ["b", "b", "a"]]
    c = accord.consensus(ratings, method="wawa")
    assert c.parameters["skill"].tolist() == [1.0, 1.0, 0.5]
    assert c.posterior[0].tolist() == [2 / 2.5, 0.5 / 2.5]


@pytest.mark.parametrize("method", METHODS[2:])
def test_perfect_annotator_gets_accuracy_one(method: str) -> None:
    rows = crowd(3)
    truth = {}
    for u, _, v in rows:
        truth.setdefault(u, v)
    rows = [*rows, *((u, "oracle", v) for u, v in truth.items())]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        q = accord.annotators(long(rows), reference={u: v for u, v in truth.items()},
                              method=method)  # type: ignore[arg-type]
    best = q["oracle"]
    assert best.accuracy.estimate == 1.0
    assert best.spammer_score == pytest.approx(1.0)
    assert best.flag is None
    assert all(best.accuracy.per_category[c]["recall"] == 1.0 for c in q.categories)
    np.testing.assert_allclose(best.confusion, np.eye(3))
    assert q.against == "reference"


def test_annotators_flags_a_careless_annotator() -> None:
    rng = np.random.default_rng(7)
    rows = []
    for u in range(120):
        t = f"c{rng.integers(0, 3)}"
        for r in range(4):
            rows.append((f"u{u}", f"r{r}", t if rng.random() < 0.9 else f"c{rng.integers(0, 3)}"))
        rows.append((f"u{u}", "careless", f"c{rng.integers(0, 3)}"))
    q = accord.annotators(long(rows), method="dawid_skene")
    assert [r.name for r in q.flagged] == ["careless"]
    assert q["careless"].flag.startswith("careless agrees with the consensus on")
    assert "check their guideline reading" in q["careless"].flag
    assert q["careless"].spammer_score < 0.2 < q["r0"].spammer_score
    ci = q["careless"].accuracy.confidence_interval(method=accord.Bootstrap(999, rng=1))
    assert ci.low <= q["careless"].accuracy.estimate <= ci.high
    json.dumps(q.to_dict())
    assert q.to_frame()["annotator"].iloc[0] == "careless"


def test_kappa_vs_others_is_cohen_kappa_for_two_annotators() -> None:
    a = ["x", "x", "y", "y", "x", "y", "x", "x"]
    b = ["x", "y", "y", "y", "x", "x", "x", "y"]
    q = accord.annotators(accord.Annotations.from_wide(list(zip(a, b))), method="majority")
    expected = accord.cohen_kappa(a, b).estimate
    assert q["rater_1"].agreement.estimate == pytest.approx(expected, abs=1e-12)
    assert q["rater_2"].agreement.estimate == pytest.approx(expected, abs=1e-12)
    ci = q["rater_1"].agreement.confidence_interval(method=accord.Bootstrap(499, rng=0))
    assert -1 <= ci.low <= ci.high <= 1


def test_reference_rater_is_taken_out_of_the_crowd() -> None:
    rows = [*crowd(5), *((f"u{u}", "gold", "c0") for u in range(60))]
    q = accord.annotators(long(rows), reference="gold", method="majority")
    assert "gold" not in q.names and q.against == "reference"
    assert "gold" not in q.consensus.raters


# ------------------------------------------------------------------ bad input
def test_non_convergence_is_reported() -> None:
    with pytest.warns(ConvergenceWarning, match="did not converge in 1 iterations"):
        c = accord.consensus(long(crowd(1)), method="dawid_skene", max_iter=1)
    assert not c.converged and c.n_iter == 1 and c.last_change > 0


def test_numeric_scores_are_refused() -> None:
    ann = accord.Annotations.from_wide([[1.5, 2.0], [3.0, 3.5]], level="interval")
    with pytest.raises(DataError, match="numeric scores"):
        accord.consensus(ann)


def test_a_single_category_is_refused() -> None:
    with pytest.raises(InsufficientDataError, match="every rating is 'a'"):
        accord.consensus([["a", "a"], ["a", "a"]])


def test_constant_annotators_warn() -> None:
    with pytest.warns(DegenerateDataWarning, match="same label to all their units"):
        c = accord.consensus([["a", "b", "b"], ["a", "b", "b"]], method="majority")
    assert any("nothing about any annotator" in n for n in c.notes)


def test_one_rating_annotator_and_lone_label_are_noted() -> None:
    rows = [*crowd(2), ("u0", "newcomer", "rare")]
    c = accord.consensus(long(rows), method="dawid_skene")
    assert any("one rating only ('newcomer')" in n for n in c.notes)
    assert any("used by one annotator only ('rare')" in n for n in c.notes)
    assert "rare" in c.categories  # nothing dropped


def test_non_integer_numbers_are_noted_as_categories() -> None:
    scores = [[0.5, 1.5, 0.5], [2.5, 2.5, 1.5], [0.5, 0.5, 0.5]]
    c = accord.consensus(scores, method="majority")
    assert c.categories == (0.5, 1.5, 2.5)  # read as categories, and said so
    assert any(n.startswith("The labels are non-integer numbers (0.5, 1.5, 2.5)") and
               "accord.score_consensus" in n for n in c.notes)
    whole = accord.consensus([[0, 1, 0], [2, 2, 1], [0, 0, 0]], method="majority")
    assert not any("non-integer" in n for n in whole.notes)  # a 0-2 scale is categories


@pytest.mark.parametrize(("kw", "message"), [
    ({"method": "em"}, "'method' parameter of consensus"),
    ({"tol": -1}, "'tol' parameter"),
    ({"max_iter": 0}, "'max_iter' parameter"),
    ({"threshold": 1.5}, "'threshold' parameter"),
])
def test_bad_options(kw: dict, message: str) -> None:
    with pytest.raises(accord.AccordError, match=message):
        accord.consensus([["a", "b"], ["a", "a"]], **kw)  # type: ignore[arg-type]


def test_bad_reference() -> None:
    ann = long(crowd(1))
    with pytest.raises(DataError, match="neither a rater"):
        accord.annotators(ann, reference="nobody")
    with pytest.raises(DataError, match="that no annotator used"):
        accord.annotators(ann, reference={"u0": "zzz"})


def test_multilabel_is_refused() -> None:
    rows = [("u1", "a", "x"), ("u1", "a", "y"), ("u1", "b", "x")]
    ann = accord.Annotations.from_long(rows, unit=0, rater=1, value=2, multilabel=True)
    with pytest.raises(DataError, match="sets of labels"):
        accord.consensus(ann)


def test_accuracy_and_recall_match_scikit_learn() -> None:
    """Against a reference, accuracy and per-class recall are sklearn's accuracy_score and
    recall_score(average=None) on the annotator's units."""
    metrics = pytest.importorskip("sklearn.metrics")
    rows = crowd(11)
    rng = np.random.default_rng(11)
    gold = {f"u{u}": f"c{rng.integers(0, 3)}" for u in range(60)}
    q = accord.annotators(long(rows), reference=gold, method="majority")
    for name in q.names:
        mine = [(gold[u], v) for u, r, v in rows if r == name]
        y_true, y_pred = zip(*mine)
        acc = q[name].accuracy
        assert acc.estimate == pytest.approx(metrics.accuracy_score(y_true, y_pred), abs=1e-15)
        labels = sorted(set(y_true))
        recall = metrics.recall_score(y_true, y_pred, labels=labels, average=None)
        for lab, rec in zip(labels, recall):
            assert acc.per_category[lab]["recall"] == pytest.approx(rec, abs=1e-15)


def test_an_annotator_without_ratings_is_kept_and_said() -> None:
    ann = accord.Annotations.from_wide([["a", "b", None], ["a", "a", None], ["b", "b", None]])
    c = accord.consensus(ann, method="dawid_skene")
    assert any("gave no rating ('rater_3')" in n for n in c.notes)
    with pytest.warns(DegenerateDataWarning) as record:
        q = accord.annotators(ann, method="majority")
    said = " ".join(str(w.message) for w in record)
    assert "accuracy is undefined for 1 annotator(s) ('rater_3')" in said
    assert "kappa_vs_others is undefined for 1 annotator(s) ('rater_3')" in said
    assert q["rater_3"].n_units == 0 and not q["rater_3"].accuracy.defined


def test_competence_interval_refits_the_model() -> None:
    rng = np.random.default_rng(3)
    rows = []
    for u in range(80):
        t = f"c{rng.integers(0, 3)}"
        for r in range(4):
            rows.append((f"u{u}", f"r{r}", t if rng.random() < 0.9 else f"c{rng.integers(0, 3)}"))
        rows.append((f"u{u}", "careless", f"c{rng.integers(0, 3)}"))
    q = accord.annotators(long(rows), method="dawid_skene")
    bad = q.competence_interval("careless", n_resamples=40, rng=1)
    good = q.competence_interval("r0", n_resamples=40, rng=1)
    assert bad.method == "bootstrap-refit" and bad.n_excluded == 0
    assert bad.low <= q["careless"].competence <= bad.high < good.low
    assert bad == q.competence_interval("careless", n_resamples=40, rng=1)  # seeded


def test_warnings_point_at_the_caller_s_line() -> None:
    # stacklevel walks out of the whole accord package, not only out of accord.data
    ratings = [["x", "y", "x"], ["y", "y", "y"], ["x", "x", "y"], ["y", "x", "y"]]
    for accelerate in (False, True):
        with pytest.warns(ConvergenceWarning) as caught:
            accord.consensus(ratings, max_iter=1, accelerate=accelerate)
        assert caught[0].filename == __file__
    with pytest.warns(DegenerateDataWarning) as caught:
        accord.consensus([["a", "b", "b"], ["a", "b", "b"]], method="majority")
    assert caught[0].filename == __file__
