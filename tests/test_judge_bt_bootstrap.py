"""Bootstrap intervals of Bradley-Terry strengths: resampled comparisons, refitted.

Oracle, run here: choix 0.4 ``ilsr_pairwise`` (tol=1e-14) refitted on the very
comparisons each resample draws (the draws reproduced from the same seed), the
percentile interval taken with numpy's default quantile. Resamples with an infinite
maximum-likelihood estimate are those whose "beat" graph is not strongly connected
(Ford 1957), counted here with scipy's ``connected_components``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

import accord
from accord.inference.bootstrap import draw_weights, unit_patterns

from .test_judge_bradley_terry import _comparisons


def _resampled(data: list[tuple[int, int, object]], n_resamples: int, seed: int
               ) -> list[list[tuple[int, int, object]]]:
    """The comparisons of each resample, drawn as accord draws its pattern multiplicities."""
    index: dict[int, int] = {}  # accord numbers the items as first met, firsts then seconds
    for x in [i for i, _, _ in data] + [j for _, j, _ in data]:
        index.setdefault(x, len(index))
    keys = [(i, j, 0 if w == i else 1 if w == j else 2) for i, j, w in data]
    patterns = sorted(set(keys), key=lambda t: (index[t[0]], index[t[1]], t[2]))
    counts = np.array([keys.count(p) for p in patterns], dtype=np.int64)
    weights = draw_weights(counts, n_resamples, np.random.default_rng(seed),
                           units=unit_patterns(counts))
    out = []
    for row in weights:
        sample = []
        for (i, j, o), times in zip(patterns, row):
            sample += [(i, j, i if o == 0 else j if o == 1 else "tie")] * int(times)
        out.append(sample)
    return out


def _strongly_connected(sample: list[tuple[int, int, object]], k: int) -> bool:
    src = [i if w == i else j for i, j, w in sample] + [j for i, j, w in sample if w == "tie"]
    dst = [j if w == i else i for i, j, w in sample] + [i for i, j, w in sample if w == "tie"]
    graph = csr_matrix((np.ones(len(src)), (src, dst)), shape=(k, k))
    return connected_components(graph, directed=True, connection="strong")[0] == 1


def test_bootstrap_interval_matches_choix_refits() -> None:
    import choix

    k, n_resamples, seed = 5, 300, 11
    data = _comparisons(1, k=k, n=120)
    bt = accord.bradley_terry(data)
    reps, infinite = [], 0
    for sample in _resampled(data, n_resamples, seed):
        if not _strongly_connected(sample, k):
            infinite += 1
            continue
        wins = [(w, j if w == i else i) for i, j, w in sample]
        reps.append(choix.ilsr_pairwise(k, wins, tol=1e-14, max_iter=100_000))
    assert 0 < infinite < 10
    low, high = np.quantile(np.array(reps), [0.025, 0.975], axis=0)
    for i in range(k):
        ci = bt.strength[i].confidence_interval(
            method=accord.Bootstrap(n_resamples=n_resamples, rng=seed))
        assert ci.n_excluded == infinite
        assert ci.low == pytest.approx(low[i], abs=1e-9)
        assert ci.high == pytest.approx(high[i], abs=1e-9)
    elo = bt.elo()[0].confidence_interval(method=accord.Bootstrap(n_resamples=n_resamples,
                                                                  rng=seed))
    scale = 400 / math.log(10)
    assert elo.low == pytest.approx(1000 + scale * low[0], abs=1e-6)


def test_resamples_with_infinite_strengths_are_counted_and_said() -> None:
    k, n_resamples, seed = 4, 400, 5
    data = _comparisons(7, k=k, n=14)
    bt = accord.bradley_terry(data)
    assert bt.strength[0].defined
    infinite = sum(not _strongly_connected(s, k) for s in _resampled(data, n_resamples, seed))
    assert 0 < infinite < n_resamples
    ci = bt.strength[0].confidence_interval(method=accord.Bootstrap(n_resamples=n_resamples,
                                                                    rng=seed))
    assert ci.n_excluded == infinite
    assert "Ford 1957" in bt.strength[0].details["bootstrap_note"]


def test_order_effect_and_ties_have_bootstrap_intervals() -> None:
    data = _comparisons(2, k=4, n=300, order=0.5, ties=0.4)
    bt = accord.bradley_terry(data, order_effect=True)
    assert bt.order_effect is not None and bt.tie_parameter is not None
    boot = accord.Bootstrap(n_resamples=400, rng=3)
    for fig in (bt.order_effect, bt.tie_parameter):
        ci = fig.confidence_interval(method=boot)
        wald = fig.confidence_interval()
        assert ci.low < fig.estimate < ci.high
        # the bootstrap and the Fisher-information interval agree on a sample this size
        assert abs((ci.high - ci.low) / (wald.high - wald.low) - 1) < 0.25
