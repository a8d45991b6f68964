"""accord.consensus(model=...): a model's probabilities as one more, fitted annotator.

Measured on simulated crowds with known truth (seeded): a model of 80% top-1
accuracy raises Dawid-Skene's accuracy, and a weak model (30-60%) never lowers it by
more than 0.01. Invariants (Hypothesis): a uniform model changes no label, and
relabelling the categories permutes the posterior. Bad input: one sentence each.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import accord
from accord.errors import ConvergenceWarning, DataError, InvalidParameterError

VOICED = ["majority", "wawa", "one_coin", "dawid_skene", "mace"]


def simulated(seed: int, n_units: int = 600, n_raters: int = 8, k: int = 3,
              per_unit: int = 3) -> tuple[np.ndarray, accord.Annotations]:
    """A crowd whose annotators are right with probability 0.35-0.8, wrong evenly."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_units)
    acc = rng.uniform(0.35, 0.8, n_raters)
    rows = []
    for u in range(n_units):
        for r in rng.choice(n_raters, per_unit, replace=False):
            right = rng.random() < acc[r]
            lab = truth[u] if right else (truth[u] + rng.integers(1, k)) % k
            rows.append((u, f"r{r}", int(lab)))
    return truth, accord.Annotations.from_long(rows, unit=0, rater=1, value=2,
                                               categories=list(range(k)))


def model_probs(truth: np.ndarray, accuracy: float, seed: int, k: int = 3
                ) -> dict[int, dict[int, float]]:
    """A model whose label is right with probability ``accuracy`` (else another class),
    its probabilities a Dirichlet draw around that label (5 on it, 1 on the others)."""
    rng = np.random.default_rng(seed + 1000)
    n = truth.shape[0]
    label = np.where(rng.random(n) < accuracy, truth, (truth + rng.integers(1, k, n)) % k)
    alpha = np.ones((n, k))
    alpha[np.arange(n), label] += 4.0
    return {u: dict(enumerate(rng.dirichlet(alpha[u]).tolist())) for u in range(n)}


def accuracy_of(c: accord.Consensus, truth: np.ndarray) -> float:
    return float(np.mean([c.labels[u] == truth[u] for u in c.units]))


def quiet(data: object, method: str, **kw: object) -> accord.Consensus:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return accord.consensus(data, method=method, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["dawid_skene", "mace"])
@pytest.mark.parametrize("seed", range(5))
def test_a_good_model_raises_and_a_weak_one_does_not_lower_the_fit(method: str,
                                                                   seed: int) -> None:
    truth, ann = simulated(seed)
    alone = accuracy_of(quiet(ann, method), truth)
    good = quiet(ann, method, model=model_probs(truth, 0.8, seed))
    assert accuracy_of(good, truth) > alone
    assert good.model is not None
    for weak in (0.3, 0.4, 0.5, 0.6):
        with_weak = quiet(ann, method, model=model_probs(truth, weak, seed))
        assert accuracy_of(with_weak, truth) >= alone - 0.01, weak
        # the fit tells the better model (its expected probability on the true class)
        assert with_weak.model is not None
        assert with_weak.model.accuracy.estimate < good.model.accuracy.estimate


def test_the_model_s_accuracy_is_estimated_with_an_interval() -> None:
    truth, ann = simulated(1)
    c = quiet(ann, "dawid_skene", model=model_probs(truth, 0.8, 1))
    assert c.model is not None and c.model.vote == "soft" and c.model.n_units == 600
    conf = c.model.confusion
    assert conf is not None and conf.shape == (3, 3)
    np.testing.assert_allclose(conf.sum(axis=1), 1.0)
    est = c.model.accuracy.estimate
    assert est == pytest.approx(float(np.diagonal(conf) @ c.parameters["prior"]))
    ci = c.model.accuracy.confidence_interval()
    assert ci.method == "wilson" and ci.low < est < ci.high
    assert c.parameters["confusion"].shape == (8, 3, 3)  # the annotators' only
    doc = c.to_dict()["model"]
    assert doc["vote"] == "soft" and doc["accuracy"]["coefficient"] == "model_accuracy"
    assert doc["accuracy"]["confidence_interval"]["method"] == "wilson"
    one = quiet(ann, "one_coin", model=model_probs(truth, 0.8, 1))
    assert one.model is not None and one.parameters["accuracy"].shape == (8,)
    assert 0.4 < one.model.accuracy.estimate < 0.95


def test_wawa_counts_the_model_s_top_label() -> None:
    ratings = [["x", "y"], ["x", "y"], ["y", "y"]]
    probs = {0: {"x": 0.8, "y": 0.2}, 1: {"x": 0.3, "y": 0.7}, 2: {"x": 0.5, "y": 0.5}}
    c = accord.consensus(ratings, method="wawa", model=probs)
    assert [c.labels[u] for u in c.units] == ["x", "y", "y"]
    assert c.tied == ()
    assert c.model is not None and c.model.vote == "top label"
    # unit 2's top is shared (no vote); units 0 and 1 agree with the consensus
    assert c.model.accuracy.n_units == 2 and c.model.accuracy.estimate == 1.0


def test_majority_takes_the_model_as_a_tie_break_only() -> None:
    # units 0 and 1 tied 1-1; unit 2 at 2-1 for 'y' with the model sure of 'x'
    ratings = [["x", "y", None], ["x", "y", None], ["y", "y", "x"], ["x", "x", "x"]]
    probs = {0: {"x": 0.8, "y": 0.2}, 1: {"x": 0.3, "y": 0.7}, 2: {"x": 0.99, "y": 0.01},
             3: {"x": 0.9, "y": 0.1}}
    c = accord.consensus(ratings, method="majority", model=probs)
    assert [c.labels[u] for u in c.units] == ["x", "y", "y", "x"]  # 2: the crowd's 'y'
    assert c.tied == (0, 1) and c.tie_break == "model"  # still reported as ties
    alone = accord.consensus(ratings, method="majority")
    np.testing.assert_array_equal(c.posterior, alone.posterior)  # the crowd's vote shares
    assert "2 of 2 tied unit(s) took the tied label the model puts most" in " ".join(c.notes)
    assert c.model is not None and c.model.vote == "tie-break"
    assert np.isnan(c.model.weight) and c.model.crowd_weight == 1.0
    # its accuracy: the untied units it voted on (2 and 3), one of which it agrees with
    assert c.model.accuracy.n_units == 2 and c.model.accuracy.estimate == 0.5
    doc = c.to_dict()
    assert doc["model"]["vote"] == "tie-break" and doc["model"]["weight"] is None
    assert doc["n_tied"] == 2


def test_a_tie_the_model_leaves_falls_to_tie_break() -> None:
    # unit 0: the model puts 0.5 on each tied label; unit 1: not scored
    ratings = [["a", "b", None, None], ["b", "a", None, None], ["a", "a", "a", "b"],
               ["a", "a", "b", "a"], ["b", "b", "b", "b"]]
    probs = {0: {"a": 0.5, "b": 0.5}, 2: {"a": 0.9, "b": 0.1}}
    first = accord.consensus(ratings, method="majority", model=probs)
    assert first.tie_break == "model" and first.tied == (0, 1)
    assert (first.labels[0], first.labels[1]) == ("a", "a")  # the first tied category
    assert "the 2 it left" in " ".join(first.notes)
    quality = accord.consensus(ratings, method="majority", model=probs, tie_break="quality")
    plain = accord.consensus(ratings, method="majority", tie_break="quality")
    assert quality.tie_break == "model, then quality"
    assert quality.labels == plain.labels  # the quality rule's labels, the crowd's alone


def _tie_crowd(seed: int) -> tuple[list[tuple[int, int, int]], dict[int, dict[int, float]]]:
    """Two to four ratings a unit over three labels (many ties), a random model."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(30):
        for r in rng.choice(6, int(rng.integers(2, 5)), replace=False):
            rows.append((u, int(r), int(rng.integers(0, 3))))
    probs = {}
    for u in range(0, 30, 1 + seed % 2):  # every unit, or every other one
        p = rng.dirichlet(np.ones(3))
        if rng.random() < 0.2:
            p = np.round(p, 1)
            p = p / p.sum()
        probs[u] = dict(enumerate(p.tolist()))
    return rows, probs


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_majority_with_a_model_moves_no_untied_label(seed: int) -> None:
    """Against a direct count: an untied unit keeps the crowd's majority label whatever the
    model says; a tied unit takes the tied label the model puts most probability on, and
    where the model puts it equally on two tied labels (or did not score the unit), the
    first tied category."""
    rows, probs = _tie_crowd(seed)
    ann = accord.Annotations.from_long(rows, unit=0, rater=1, value=2, categories=[0, 1, 2])
    c = accord.consensus(ann, method="majority", model=probs)
    counts: dict[int, list[int]] = {u: [0, 0, 0] for u in range(30)}
    for u, _, v_ in rows:
        counts[u][v_] += 1
    tied = []
    for u, votes in counts.items():
        top = [x for x in range(3) if votes[x] == max(votes)]
        if len(top) == 1:
            assert c.labels[u] == top[0]
            continue
        tied.append(u)
        p = probs.get(u)
        best = [x for x in top if p is not None and p[x] == max(p[y] for y in top)]
        assert c.labels[u] == (best[0] if len(best) == 1 else top[0])
    assert list(c.tied) == tied


def test_the_two_forms_of_a_model_give_the_same_consensus() -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    truth, ann = simulated(4, n_units=200)
    rng = np.random.default_rng(4)
    label = np.where(rng.random(200) < 0.8, truth, (truth + 1) % 3)
    conf = rng.uniform(0.34, 1.0, 200)
    spread = {u: {c: float(conf[u]) if c == label[u] else (1 - float(conf[u])) / 2
                  for c in range(3)} for u in range(200)}
    pairs = {u: (int(label[u]), float(conf[u])) for u in range(200)}
    frame = pd.DataFrame({"unit": range(200), "label": label, "confidence": conf})
    for method in [*VOICED, "crowdlab"]:
        want = quiet(ann, method, model=spread)
        for form in (pairs, frame, frame.set_index("unit"), pl.from_pandas(frame)):
            got = quiet(ann, method, model=form)
            np.testing.assert_array_equal(got.posterior, want.posterior)
            assert got.labels == want.labels
            assert got.model is not None and want.model is not None
            assert got.model.accuracy.estimate == want.model.accuracy.estimate
            said = [n for n in got.notes if n not in want.notes]
            assert said == ["The model gave a top label and its confidence c per unit, read "
                            "as the probabilities c on that label and (1 - c) / 2 on each of "
                            "the 2 other categories (an assumption: its other labels' "
                            "probabilities were not given)."]


@pytest.mark.parametrize(("model", "message"), [
    ({0: ("x", 1.5)}, "the model's confidence of unit 0 is 1.5; a confidence is the "
     "probability of its label, a number from 0 to 1."),
    ({0: ("x", -0.1)}, "the model's confidence of unit 0 is -0.1"),
    ({0: ("x", float("nan"))}, "the model's confidence of unit 0 is nan"),
    ({0: ("x", "high")}, "the model's confidence of unit 0 is 'high'"),
    ({0: ("z", 0.9)}, "the model's label 'z' of unit 0 is not among the crowd's categories "
     "('x', 'y')."),
    ({0: ("x", 0.9), 1: {"x": 1.0}}, "must be a mapping {unit: (label, confidence)} when its "
     "first row is a pair"),
    ({0: ("x", 0.9, 0.1)}, "must be a mapping {unit: (label, confidence)}"),
])
def test_bad_top_labels_are_refused_in_one_sentence(model: object, message: str) -> None:
    with pytest.raises((DataError, InvalidParameterError)) as err:
        accord.consensus(RATINGS, model=model)
    assert message in str(err.value)


def test_a_top_label_frame_that_scores_a_unit_twice_is_refused() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"unit": [0, 1, 1], "label": ["x", "y", "x"],
                          "confidence": [0.9, 0.8, 0.6]})
    with pytest.raises(DataError, match="the model scores the unit 1 twice"):
        accord.consensus(RATINGS, model=frame)


def test_frames_and_text_headers_are_read() -> None:
    pd = pytest.importorskip("pandas")
    ratings = [[0, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 1]]
    frame = pd.DataFrame({"unit": [0, 1, 2, 3], "0": [0.9, 0.2, 0.6, 0.3],
                          "1": [0.1, 0.8, 0.4, 0.7]})
    by_column = accord.consensus(ratings, model=frame)
    by_index = accord.consensus(ratings, model=frame.set_index("unit"))
    np.testing.assert_array_equal(by_column.posterior, by_index.posterior)
    pl = pytest.importorskip("polars")
    by_polars = accord.consensus(ratings, model=pl.from_pandas(frame))
    np.testing.assert_array_equal(by_column.posterior, by_polars.posterior)


def test_units_the_model_did_not_score_are_noted() -> None:
    ratings = [["x", "y", "x"], ["y", "y", "y"], ["x", "x", "x"], ["y", "x", "y"]]
    c = accord.consensus(ratings, model={1: {"x": 0.1, "y": 0.9}})
    assert "The model did not score 3 of 4 unit(s)" in " ".join(c.notes)
    assert c.model is not None and c.model.n_units == 1


RATINGS = [["x", "y", "x"], ["y", "y", "y"], ["x", "x", "x"], ["y", "x", "y"]]


@pytest.mark.parametrize(("model", "message"), [
    ({0: {"x": -0.1, "y": 1.1}}, "numbers from 0 to 1; unit 0, label 'x' has -0.1"),
    ({0: {"x": float("nan"), "y": 1.0}}, "unit 0, label 'x' has nan"),
    ({0: {"x": 0.5, "y": 0.5}, 1: {"x": 0.5, "y": 0.4}}, "unit 1 sum to 0.9, not 1"),
    ({0: {"x": 0.5, "z": 0.5}}, "columns 'z' are not among the crowd's categories"),
    ({0: {"x": 1.0}, 7: {"x": 1.0}, 8: {"y": 1.0}, 9: {"y": 1.0}, 10: {"y": 1.0}},
     "scored 4 unit(s) the crowd does not have (7, 8, 9, ...)"),
    ({0: 0.5}, "must be a mapping {unit: {label: probability}}"),
    ({}, "the model scores no unit"),
    ([[0.5, 0.5]], "a pandas or polars data frame"),
])
def test_bad_models_are_refused_in_one_sentence(model: object, message: str) -> None:
    wanted = InvalidParameterError if "data frame" in message or "mapping" in message else DataError
    with pytest.raises(wanted) as err:
        accord.consensus(RATINGS, model=model)
    assert message in str(err.value)


def test_rows_are_not_normalised_but_rounding_is_allowed() -> None:
    near = {0: {"x": 0.3333333, "y": 0.6666666}}  # off by 1e-7
    assert accord.consensus(RATINGS, model=near).model is not None


def test_glad_takes_no_model() -> None:
    with pytest.raises(InvalidParameterError, match="method='glad' .* takes no model; a "
                       "model's probabilities are taken by 'majority', 'wawa', 'one_coin', "
                       "'dawid_skene', 'mace' and 'crowdlab'"):
        accord.consensus(RATINGS, method="glad", model={0: {"x": 1.0}})


def test_mace_s_model_accuracy_is_its_competence_plus_its_lucky_guesses() -> None:
    truth, ann = simulated(3)
    c = quiet(ann, "mace", model=model_probs(truth, 0.8, 3))
    assert c.model is not None and c.model.vote == "soft" and c.model.confusion is None
    assert c.parameters["competence"].shape == (8,) and c.parameters["strategy"].shape == (8, 3)
    assert 1 / 3 < c.model.accuracy.estimate < 0.8


@pytest.mark.parametrize("method", ["one_coin", "dawid_skene"])
def test_squarem_reaches_the_same_fit_with_a_model(method: str) -> None:
    truth, ann = simulated(2)
    probs = model_probs(truth, 0.8, 2)
    plain = quiet(ann, method, model=probs)
    fast = quiet(ann, method, model=probs, accelerate=True)
    assert fast.n_iter < plain.n_iter
    assert plain.model is not None and fast.model is not None
    assert fast.model.accuracy.estimate == pytest.approx(plain.model.accuracy.estimate,
                                                         abs=1e-3)
    same = np.mean([plain.labels[u] == fast.labels[u] for u in plain.units])
    assert same > 0.99


def small_crowd(seed: int) -> list[tuple]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, 40)
    acc = rng.uniform(0.5, 0.95, 6)
    rows = []
    for u in range(40):
        for r in rng.choice(6, 4, replace=False):
            lab = truth[u] if rng.random() < acc[r] else rng.integers(0, 3)
            rows.append((f"u{u}", f"r{r}", f"c{lab}"))
    return rows


def margin_labels(c: accord.Consensus, margin: float = 1e-6) -> dict[object, object]:
    """The labels of the units whose top posterior clears the next by ``margin`` (1e-6:
    rounding may break an exact tie either way)."""
    post = np.sort(c.posterior, axis=1)
    clear = post[:, -1] - post[:, -2] > margin
    return {u: c.labels[u] for u, ok in zip(c.units, clear) if ok}


@pytest.mark.parametrize("method", VOICED)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
@example(seed=1297)
def test_a_uniform_model_changes_no_label(method: str, seed: int) -> None:
    """A model that says nothing (1/3 on each label) leaves every clear label as it is.
    MACE's fixed point keeps a small competence for it (its guessing strategy fitted to
    the posterior is not uniform, so a uniform soft rating is not exactly neutral; on
    seed 1297 its vote weighs 0.073 against the median annotator's 2.23 and moves one
    posterior by 0.033): there a label must stand where the top clears the next by 0.1,
    and the model's weight stays below a tenth of the median annotator's."""
    ann = accord.Annotations.from_long(small_crowd(seed), unit=0, rater=1, value=2)
    alone = quiet(ann, method)
    uniform = {u: {c: 1 / 3 for c in ann.categories} for u in ann.units}
    voiced = quiet(ann, method, model=uniform)
    mine = margin_labels(alone, 0.1 if method == "mace" else 1e-6)
    assert {u: voiced.labels[u] for u in mine} == mine
    if method == "mace":
        assert voiced.model is not None
        assert abs(voiced.model.weight) < 0.1 * abs(voiced.model.crowd_weight)


@pytest.mark.parametrize("method", VOICED)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), perm_seed=st.integers(0, 10_000))
def test_relabelling_the_categories_permutes_the_result(method: str, seed: int,
                                                        perm_seed: int) -> None:
    rows = small_crowd(seed)
    rng = np.random.default_rng(perm_seed)
    probs = {f"u{u}": dict(zip(["c0", "c1", "c2"], rng.dirichlet(np.ones(3)).tolist()))
             for u in range(0, 40, 2)}
    rename = {f"c{i}": f"z{j}" for i, j in enumerate(rng.permutation(3))}
    base = quiet(accord.Annotations.from_long(rows, unit=0, rater=1, value=2), method,
                 model=probs)
    renamed = [(u, r, rename[v]) for u, r, v in rows]
    other = quiet(accord.Annotations.from_long(renamed, unit=0, rater=1, value=2), method,
                  model={u: {rename[c]: p for c, p in row.items()} for u, row in probs.items()})
    cols = [other.categories.index(rename[c]) for c in base.categories]
    np.testing.assert_allclose(np.asarray(other.posterior)[:, cols], base.posterior,
                               atol=1e-6)
    assert base.model is not None and other.model is not None
    assert other.model.accuracy.estimate == pytest.approx(base.model.accuracy.estimate,
                                                          abs=1e-6)


def test_a_frame_that_scores_a_unit_twice_is_refused() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"unit": [0, 1, 1], "x": [0.5, 0.2, 0.3], "y": [0.5, 0.8, 0.7]})
    with pytest.raises(DataError, match="the model scores the unit 1 twice"):
        accord.consensus(RATINGS, model=frame)


def test_a_model_past_the_dense_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from accord.annotators import _sparse

    monkeypatch.setattr(_sparse, "CELL_BUDGET", 4)
    monkeypatch.setattr(_sparse, "CELLS_PER_RATING", 0)
    with pytest.raises(DataError, match="8 cells, past the budget of 4 for 12 ratings"):
        accord.consensus(RATINGS, method="majority", model={0: {"x": 1.0}})


@pytest.mark.parametrize("method", ["one_coin", "dawid_skene", "mace"])
def test_the_model_s_weight_is_the_log_odds_of_its_vote(method: str) -> None:
    truth, ann = simulated(2)
    k = 3
    good = quiet(ann, method, model=model_probs(truth, 0.9, 2))
    weak = quiet(ann, method, model=model_probs(truth, 0.4, 2))
    for c in (good, weak):
        assert c.model is not None
        a = c.model.accuracy.estimate
        assert c.model.weight == pytest.approx(np.log(a * (k - 1) / (1 - a)))
        # the median annotator's, their accuracies read the same way
        if method == "dawid_skene":
            crowd = np.einsum("rcc,c->r", c.parameters["confusion"], c.parameters["prior"])
        elif method == "one_coin":
            crowd = c.parameters["accuracy"]
        else:
            continue
        assert c.model.crowd_weight == pytest.approx(
            float(np.median(np.log(crowd * (k - 1) / (1 - crowd)))))
    assert good.model is not None and weak.model is not None
    assert good.model.weight > weak.model.weight
    doc = good.to_dict()["model"]
    assert doc["weight"] == good.model.weight and doc["crowd_weight"] == good.model.crowd_weight


def test_wawa_weighs_the_model_as_an_annotator() -> None:
    ratings = [["x", "x", "y"], ["x", "y", "y"], ["y", "y", "y"], ["x", "x", "x"]]
    probs = {0: {"x": 0.8, "y": 0.2}, 1: {"x": 0.1, "y": 0.9}, 2: {"x": 0.9, "y": 0.1},
             3: {"x": 0.6, "y": 0.4}}
    c = accord.consensus(ratings, method="majority", model=probs)
    # majority: every annotator's vote weighs 1; the model's none (it breaks ties only)
    assert c.model is not None and np.isnan(c.model.weight) and c.model.crowd_weight == 1.0
    w = accord.consensus(ratings, method="wawa", model=probs)
    # Wawa: the model agrees with the majority on 3 of 4 units (not unit 2's 'y'): its weight
    assert w.model is not None and w.model.weight == pytest.approx(0.75)
    assert w.model.crowd_weight == pytest.approx(float(np.median(w.parameters["skill"])))
