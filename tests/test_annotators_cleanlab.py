"""accord's consensus against cleanlab's CROWDLAB (``cleanlab.multiannotator``, Goh et al. 2022).

Where the method is the same, the figures agree within 1e-6 on shared inputs:

* majority vote with cleanlab's ``quality_method="agreement"``: the consensus labels of
  the units without a tie, the consensus quality (the share of annotators agreeing with
  the label) and each annotator's label quality (the share agreeing with that label) are
  accord's vote shares (the last where cleanlab 2.9.0 counts right: see the test);
* majority vote with ``model=`` is cleanlab's majority vote with ``pred_probs``: a tie
  goes to the tied label the model puts most probability on (its first tie-break);
* ``tie_break="quality"`` is cleanlab's third majority-vote tie-break (the mean agreement
  with the majority of each tied label's annotators) on a crowd where its first two
  (the model's probabilities, the rarer class) cannot decide;
* CROWDLAB's label-quality score of an annotator's label is the "self-confidence" of
  that label under a posterior (``cleanlab.rank.get_label_quality_scores``); given
  accord's posterior it is :attr:`Quality.annotator_labels`.

Where the method differs (CROWDLAB's weighted ensemble of the model and the annotators
against Dawid-Skene with the model as a fitted annotator), accuracy on the public crowds
is compared in ``benchmarks/bench_cleanlab.py`` and recorded in ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import accord

from .test_annotators_model import simulated

cleanlab_ma = pytest.importorskip("cleanlab.multiannotator")
cleanlab_rank = pytest.importorskip("cleanlab.rank")


def wide(ann: accord.Annotations) -> np.ndarray:
    """The units x annotators label codes, NaN where not rated (cleanlab's input)."""
    unit, rater, value = ann.codes
    out = np.full((len(ann.units), len(ann.raters)), np.nan)
    out[unit, rater] = value
    return out


def crowdlab(labels: np.ndarray, k: int, **kw: object) -> dict:
    """cleanlab's figures with uniform model probabilities (no say in any tie)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cleanlab_ma.get_label_quality_multiannotator(
            labels, np.full((labels.shape[0], k), 1.0 / k), verbose=False, **kw)


@pytest.mark.parametrize("seed", range(3))
def test_majority_and_agreement_quality_are_cleanlab_s(seed: int) -> None:
    _, ann = simulated(seed, n_units=400, n_raters=8, per_unit=3)
    labels = wide(ann)
    got = crowdlab(labels, 3, consensus_method="majority_vote", quality_method="agreement")
    lq, detail = got["label_quality"], got["detailed_label_quality"].to_numpy()
    c = accord.consensus(ann, method="majority")
    clear = ~np.isin(np.arange(len(c.units)), [c.units.index(u) for u in c.tied])
    assert clear.sum() > 300
    np.testing.assert_array_equal(lq["consensus_label"].to_numpy()[clear],
                                  c.label_codes[clear])
    rows = np.arange(len(c.units))
    np.testing.assert_allclose(lq["consensus_quality_score"].to_numpy()[clear],
                               c.posterior[rows, c.label_codes][clear], atol=1e-6, rtol=0)
    # cleanlab 2.9.0 counts a unit's labels with internal.util.value_counts on floats
    # (the wide array has NaN), which places the counts of the classes present one after
    # the other: right only where the classes present are 0..m-1 (on a unit labelled
    # [2, 2, 0] it gives class 1 the two votes for 2). Compared where it is right.
    unit, rater, value = ann.codes
    present = c.posterior > 0
    prefix = (present == (np.arange(3)[None, :] < present.sum(axis=1)[:, None])).all(axis=1)
    ok = prefix[unit]
    assert ok.sum() > 400
    np.testing.assert_allclose(detail[unit, rater][ok], c.posterior[unit, value][ok],
                               atol=1e-6, rtol=0)
    assert (np.abs(detail[unit, rater] - c.posterior[unit, value])[~ok] > 0.3).any()


def mirrored_crowd(seed: int, n: int = 300, n_raters: int = 6) -> accord.Annotations:
    """A binary crowd of 4 ratings a unit and its mirror image (every label flipped on
    copies of the units): both classes are given equally often, so cleanlab's second
    tie-break (the rarer class) never decides."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, n)
    acc = rng.uniform(0.55, 0.95, n_raters)
    rows = []
    for u in range(n):
        for r in rng.choice(n_raters, 4, replace=False):
            lab = int(truth[u] if rng.random() < acc[r] else 1 - truth[u])
            rows += [(u, f"r{r}", lab), (n + u, f"r{r}", 1 - lab)]
    return accord.Annotations.from_long(rows, unit=0, rater=1, value=2, categories=[0, 1])


@pytest.mark.parametrize("seed", range(3))
def test_tie_break_quality_is_cleanlab_s_third_tie_break(seed: int) -> None:
    ann = mirrored_crowd(seed)
    labels = wide(ann)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.random.seed(seed)  # cleanlab draws the ties that remain at random
        mv = cleanlab_ma.get_majority_vote_label(labels, np.full((labels.shape[0], 2), 0.5),
                                                 verbose=False)
    drawn = {int(x) for w in caught for x in re.findall(r"\d+", str(w.message).split("[")[-1])
             if "random selection" in str(w.message)}
    c = accord.consensus(ann, method="majority", tie_break="quality")
    tied = [c.units.index(u) for u in c.tied]
    decided = [i for i in tied if i not in drawn]
    assert len(decided) > 20
    np.testing.assert_array_equal(mv[decided], c.label_codes[decided])
    clear = np.setdiff1d(np.arange(len(c.units)), tied)
    np.testing.assert_array_equal(mv[clear], c.label_codes[clear])


@pytest.mark.parametrize("seed", range(3))
def test_majority_with_a_model_is_cleanlab_s_first_tie_break(seed: int) -> None:
    """cleanlab's majority vote breaks a tie first by the model's probabilities among the
    tied labels (``get_majority_vote_label``, tiebreak 1); accord's majority with
    ``model=`` does the same and nothing else with the model."""
    ann = mirrored_crowd(seed)
    labels = wide(ann)
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(2), labels.shape[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mv = cleanlab_ma.get_majority_vote_label(labels, probs, verbose=False)
    model = {u: dict(zip(ann.categories, p.tolist())) for u, p in zip(ann.units, probs)}
    c = accord.consensus(ann, method="majority", model=model)
    assert len(c.tied) > 20 and c.tie_break == "model"
    np.testing.assert_array_equal(mv, c.label_codes)


@pytest.mark.parametrize("method", ["dawid_skene", "majority"])
def test_annotator_label_quality_is_crowdlab_s_self_confidence(method: str) -> None:
    _, ann = simulated(5, n_units=300)
    q = accord.consensus(ann, method=method).quality
    unit, rater, value = ann.codes
    post = accord.consensus(ann, method=method)._quality_posterior
    theirs = np.empty(unit.shape[0])
    for r in range(len(ann.raters)):
        mine = rater == r
        theirs[mine] = cleanlab_rank.get_label_quality_scores(
            value[mine], post[unit[mine]], method="self_confidence")
    np.testing.assert_allclose(q.annotator_labels, theirs, atol=1e-6, rtol=0)
