"""accord.engines._blocks: one EM pass over a partition of ratings held as arrays.

The oracle is the pass written densely with numpy on the whole crowd: per unit the sum
of its ratings' log terms plus the log prior, normalised over the classes (the
posterior), the log of the normaliser (the log-likelihood), and per (rater, label) key
the posterior mass of each class over that key's ratings (Dawid & Skene 1979's E step
and the counts of its M step). Blocks are the crowd cut at unit boundaries into
parts of any size, in any row order: their sums added equal the whole crowd's.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.engines import _blocks as bk


def crowd(seed: int, n_units: int, n_raters: int, k: int) -> tuple[np.ndarray, ...]:
    """Units (ids 10, 20, ...), their ratings' keys (``rater * k + label``, one rating
    per unit and rater), the crowd's sorted keys, and random terms and log prior."""
    rng = np.random.default_rng(seed)
    units, keys = [], []
    for u in range(n_units):
        raters = rng.choice(n_raters, size=int(rng.integers(1, n_raters + 1)), replace=False)
        units += [10 * (u + 1)] * raters.shape[0]
        keys += (raters * k + rng.integers(0, k, raters.shape[0])).tolist()
    known = np.unique(keys)
    terms = np.log(rng.dirichlet(np.ones(k), size=known.shape[0]))
    log_prior = np.log(rng.dirichlet(np.ones(k)))
    return np.array(units), np.array(keys, dtype=np.int64), known, terms, log_prior


def dense(units: np.ndarray, keys: np.ndarray, known: np.ndarray, terms: np.ndarray,
          log_prior: np.ndarray) -> tuple[np.ndarray, ...]:
    """The pass by hand: a units x keys 0/1 matrix, its products, the softmax."""
    ids, inv = np.unique(units, return_inverse=True)
    x = np.zeros((ids.shape[0], known.shape[0]))
    x[inv, np.searchsorted(known, keys)] = 1.0
    s = x @ terms + log_prior
    ll = np.log(np.exp(s).sum(axis=1))
    post = np.exp(s - ll[:, None])
    return ids, post, ll, x.T @ post, x


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n_units=st.integers(1, 40), n_raters=st.integers(1, 6),
       k=st.integers(2, 4), cuts=st.lists(st.floats(0, 1), max_size=5))
def test_blocks_cut_at_unit_boundaries_add_up_to_the_dense_pass(
        seed: int, n_units: int, n_raters: int, k: int, cuts: list[float]) -> None:
    units, keys, known, terms, log_prior = crowd(seed, n_units, n_raters, k)
    ids, post, ll, mass, _ = dense(units, keys, known, terms, log_prior)
    # the rows shuffled (an engine's partition has no order), then cut between units
    order = np.random.default_rng(seed).permutation(units.shape[0])
    units, keys = units[order], keys[order]
    edges = sorted({0, n_units, *(int(c * n_units) for c in cuts)})
    parts = [(ids[a] <= units) & (units <= ids[b - 1]) for a, b in zip(edges, edges[1:])]
    blocks = [bk.build(units[p], keys[p], known) for p in parts]
    got = bk.add_all([bk.e_and_m(b, terms, log_prior) for b in blocks])
    np.testing.assert_allclose(got[0], mass, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got[1], post.sum(axis=0), rtol=1e-12, atol=1e-12)
    assert abs(got[2] - ll.sum()) <= 1e-9 * max(1.0, abs(ll.sum()))
    per_block = [bk.units(b, terms, log_prior) for b in blocks]
    np.testing.assert_array_equal(np.concatenate([u for u, _, _ in per_block]), ids)
    np.testing.assert_array_equal(np.concatenate([n for _, n, _ in per_block]),
                                  np.bincount(np.unique(units, return_inverse=True)[1]))
    np.testing.assert_allclose(np.concatenate([p for _, _, p in per_block]), post,
                               rtol=1e-12, atol=1e-14)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n_units=st.integers(1, 30), n_raters=st.integers(1, 5),
       k=st.integers(2, 4))
def test_vote_shares_sum_per_key_and_per_class(seed: int, n_units: int, n_raters: int,
                                                k: int) -> None:
    units, keys, known, terms, log_prior = crowd(seed, n_units, n_raters, k)
    *_, x = dense(units, keys, known, terms, log_prior)
    labels = known % k
    votes = x @ np.eye(k)[labels]
    shares = votes / votes.sum(axis=1, keepdims=True)
    mass, prior_sum, ll = bk.votes(bk.build(units, keys, known), labels, k)
    np.testing.assert_allclose(mass, x.T @ shares, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(prior_sum, shares.sum(axis=0), rtol=1e-12)
    assert np.isnan(ll)


def test_a_block_by_hand() -> None:
    # two units, k = 2: unit "b" rated by raters 0 (label 1) and 1 (label 0); unit "a"
    # by rater 1 (label 1); keys 1, 2, 3 -> positions 0, 1, 2 of the sorted known keys
    block = bk.build(np.array(["b", "a", "b"], dtype=object), np.array([1, 3, 2]),
                     np.array([1, 2, 3]))
    ids, indptr, indices = block
    assert ids.tolist() == ["a", "b"]
    assert indptr.tolist() == [0, 1, 3] and indices.tolist() == [2, 0, 1]
    terms = np.log(np.array([[0.2, 0.8], [0.7, 0.3], [0.4, 0.6]]))
    prior = np.log(np.array([0.5, 0.5]))
    _, n, post = bk.units(block, terms, prior)
    assert n.tolist() == [1, 2]
    # unit a: 0.4 vs 0.6; unit b: 0.2 * 0.7 = 0.14 vs 0.8 * 0.3 = 0.24
    np.testing.assert_allclose(post, [[0.4, 0.6], [0.14 / 0.38, 0.24 / 0.38]], rtol=1e-14)
    mass, prior_sum, ll = bk.e_and_m(block, terms, prior)
    np.testing.assert_allclose(mass, [post[1], post[1], post[0]], rtol=1e-14)
    np.testing.assert_allclose(prior_sum, post.sum(axis=0), rtol=1e-14)
    assert abs(ll - (np.log(0.5 * 1.0) + np.log(0.5 * 0.38))) < 1e-14


def test_an_empty_partition_adds_nothing() -> None:
    known = np.array([0, 1, 2, 3])
    empty = bk.build(np.array([], dtype=np.int64), np.array([], dtype=np.int64), known)
    terms, prior = np.zeros((4, 2)), np.log(np.array([0.5, 0.5]))
    mass, prior_sum, ll = bk.e_and_m(empty, terms, prior)
    assert mass.shape == (4, 2) and not mass.any() and not prior_sum.any() and ll == 0.0
    ids, n, post = bk.units(empty, terms, prior)
    assert ids.shape == (0,) and n.shape == (0,) and post.shape == (0, 2)
