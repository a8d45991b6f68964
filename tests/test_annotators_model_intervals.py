"""Intervals on each annotator's model figures: competence, spammer score, confusion cells.

The bootstrap resamples units and refits the consensus model on each resample,
warm-started from the converged fit. Oracles, run here:
- the refit on the full sample (every unit once) is the point estimate (to 1e-6: the
  warm start is the fixed point, so EM stops at once);
- crowd-kit 1.4 ``DawidSkene`` run to convergence (its ``errors_`` are the confusion
  matrices, ``priors_`` the class prior): competence ``sum_c prior_c theta[c, c]`` on
  the full data to 1e-8, and on each resampled crowd (slow lane): crowd-kit starts from
  the vote shares and accord's refit from the converged fit, and both stop on a change
  in log-likelihood, so on flat resamples they stop at nearby points: half the
  replicates agree to 2e-6, the worst to 0.013, the percentile limits to 0.004
  (asserted: median difference below 0.005, limits within 0.02);
- the reference case is a plain resample of units (no model to refit for the
  confusion): its spammer score interval equals a loop that recomputes Raykar & Yu's
  score (JMLR 13, eq. 8) from counts on each resample.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

import accord
from accord.inference.bootstrap import draw_weights

from .test_annotators_crowdkit import simulated_crowd


def _crowd(**kw: Any) -> tuple[Any, accord.Annotations, np.ndarray]:
    df, truth = simulated_crowd(**kw)
    ann = accord.Annotations.from_long(df, unit="task", rater="worker", value="label")
    return df, ann, truth


@pytest.mark.parametrize("method", ["dawid_skene", "one_coin", "mace", "glad", "wawa"])
def test_full_sample_refit_is_the_point_estimate(method: str) -> None:
    _, ann, _ = _crowd(n_units=80, n_raters=6, per_unit=4, seed=1)
    q = accord.annotators(ann, method=method, n_resamples=50, tol=1e-12, max_iter=20_000)
    row = q["w0"]
    for fig, value in ((row.competence_figure, row.competence),
                       (row.spammer_figure, row.spammer_score)):
        assert fig is not None and fig.estimate == value
        res = fig.resampling() if fig.resampling else None
        assert res is not None
        assert res.full() == pytest.approx(value, abs=1e-6)
    cats = q.categories
    cell = row.confusion_figures[(cats[0], cats[1])]
    assert cell.estimate == row.confusion[0, 1]


def _ds_competence_with_crowdkit(frame: Any, rater: str) -> float:
    ck = pytest.importorskip("crowdkit.aggregation")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = ck.DawidSkene(n_iter=10_000, tol=1e-12).fit(frame)
    errors = ds.errors_.xs(rater, level="worker")  # rows: given label, columns: true
    prior = ds.priors_
    return float(sum(prior[c] * errors.loc[c, c] for c in prior.index))


@pytest.mark.slow
def test_dawid_skene_competence_replicates_match_crowdkit_refits() -> None:
    pd = pytest.importorskip("pandas")
    records, ann, _ = _crowd(n_units=200, n_raters=6, per_unit=5, seed=3)
    q = accord.annotators(ann, method="dawid_skene", n_resamples=50, tol=1e-12,
                          max_iter=10_000)
    assert q["w1"].competence == pytest.approx(_ds_competence_with_crowdkit(records, "w1"),
                                               abs=1e-8)
    units = list(q.consensus.units)
    fig = q["w1"].competence_figure
    assert fig is not None and fig.resampling is not None
    weights = draw_weights(np.ones(len(units), dtype=np.int64), 30,
                           np.random.default_rng(4), units=np.arange(len(units)))
    ours = fig.resampling().evaluate(weights)
    by_unit = dict(list(records.groupby("task")))
    theirs = []
    for w in weights:
        parts = []
        for i, times in enumerate(w):
            for t in range(int(times)):
                part = by_unit[units[i]].copy()
                part["task"] = f"{units[i]}#{t}"
                parts.append(part)
        theirs.append(_ds_competence_with_crowdkit(pd.concat(parts), "w1"))
    diff = np.abs(ours - np.array(theirs))
    # EM from the converged fit (ours) and from the vote shares (crowd-kit) stop at
    # nearby points of a flat likelihood (the stopping rule is a change in
    # log-likelihood, not in the parameters), so replicates agree to about 0.01
    assert np.median(diff) < 0.005
    lo_hi = np.quantile(ours, [0.025, 0.975])
    assert lo_hi == pytest.approx(np.quantile(theirs, [0.025, 0.975]), abs=0.02)


def _spammer(conf: np.ndarray) -> float:
    """Raykar & Yu's score; a pair of rows with a true class the annotator never met
    (a ``nan`` row) adds nothing, accord's convention."""
    k = conf.shape[0]
    return sum(float(((conf[a] - conf[b]) ** 2).sum()) for a in range(k)
               for b in range(a + 1, k)
               if np.isfinite(conf[a]).all() and np.isfinite(conf[b]).all()) / (k * (k - 1))


def test_spammer_interval_against_a_reference_is_a_unit_resample() -> None:
    _, ann, truth = _crowd(n_units=50, n_raters=5, per_unit=3, seed=5)
    units = list(ann.units)
    gold = {f"u{i}": int(t) for i, t in enumerate(truth)}
    q = accord.annotators(ann, reference=gold, method="majority", n_resamples=50)
    cats = list(q.categories)
    fig = q["w2"].spammer_figure
    assert fig is not None
    mine = [(units.index(u), cats.index(v)) for u, r, v in ann.records() if r == "w2"]
    order = list(q.consensus.units)
    weights = draw_weights(np.ones(len(order), dtype=np.int64), 200,
                           np.random.default_rng(6), units=np.arange(len(order)))
    reps = []
    for w in weights:
        counts = np.zeros((len(cats), len(cats)))
        for ui, v in mine:
            counts[cats.index(gold[units[ui]]), v] += w[order.index(units[ui])]
        rows = counts.sum(axis=1, keepdims=True)
        conf = np.divide(counts, rows, out=np.full_like(counts, np.nan), where=rows > 0)
        reps.append(_spammer(conf) if counts.sum() else math.nan)
    finite = np.array([x for x in reps if math.isfinite(x)])
    low, high = np.quantile(finite, [0.025, 0.975])
    ci = fig.confidence_interval(method=accord.Bootstrap(n_resamples=200, rng=6))
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)
    assert fig.estimate == pytest.approx(_spammer(q["w2"].confusion), abs=1e-12)
