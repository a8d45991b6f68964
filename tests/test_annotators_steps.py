"""The shared E-step normaliser of the consensus models against scipy.special.

``normalise_log`` turns rows of log-scores into probabilities and the sum of
the rows' log normalisers (the log-likelihood); it is computed column by column
for speed, and must equal ``scipy.special.softmax`` and ``logsumexp`` (scipy
1.17) to 1e-12, including rows far from 0 where a naive ``exp`` overflows.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp, softmax

from accord.annotators._crowd import normalise_log


@pytest.mark.parametrize("k", [2, 3, 5, 9])
def test_normalise_log_matches_scipy(k: int) -> None:
    rng = np.random.default_rng(k)
    logp = rng.normal(0, 30, size=(500, k))
    logp[:10] += 800.0  # exp would overflow without the row maximum taken out
    logp[10:20] -= 800.0
    post, ll = normalise_log(logp.copy())
    np.testing.assert_allclose(post, softmax(logp, axis=1), rtol=1e-12, atol=1e-300)
    assert ll == pytest.approx(float(logsumexp(logp, axis=1).sum()), rel=1e-12)
    np.testing.assert_allclose(post.sum(axis=1), 1.0, rtol=1e-14)


def test_rating_matrix_from_grouped_ratings_equals_the_coo_build() -> None:
    # ratings grouped by unit take the one-pass CSR build; scipy's COO -> CSR
    # conversion (sorted, duplicates summed) is the oracle, and the products agree
    from scipy.sparse import csr_matrix

    from accord.annotators._crowd import rating_matrix

    rng = np.random.default_rng(7)
    rows = np.sort(rng.integers(0, 48, 600))  # rows 48 and 49 stay empty
    cols = rng.integers(0, 30, 600)
    rows[1], cols[1] = rows[0], cols[0]  # a repeated (row, column) entry, counted twice
    got = rating_matrix(rows, cols, 50, 30)
    oracle = csr_matrix((np.ones(600), (rows, cols)), shape=(50, 30))
    assert got.shape == oracle.shape and got.toarray().max() >= 2
    np.testing.assert_array_equal(got.toarray(), oracle.toarray())
    w = rng.normal(size=(30, 4))
    np.testing.assert_allclose(got @ w, oracle @ w, rtol=1e-14, atol=1e-14)
    post = rng.random((50, 4))
    np.testing.assert_allclose(got.T @ post, oracle.T @ post, rtol=1e-14, atol=1e-14)
    shuffled = rng.permutation(600)  # not grouped: the COO build
    unsorted = rating_matrix(rows[shuffled], cols[shuffled], 50, 30)
    np.testing.assert_array_equal(unsorted.toarray(), oracle.toarray())


def _sparse_crowd(seed: int, units: int = 3000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 8, units)
    unit = np.repeat(np.arange(units), sizes)
    rater = rng.integers(0, 40, unit.shape[0])
    truth = rng.integers(0, 4, units)
    noise = rng.integers(0, 4, unit.shape[0])
    value = np.where(rng.random(unit.shape[0]) < 0.7, truth[unit], noise)
    return unit, rater, value


@pytest.mark.parametrize("blocks", [2, 3, 7])
def test_row_blocks_give_scipy_s_products(monkeypatch: pytest.MonkeyPatch, blocks: int) -> None:
    # stacked block products are the whole product row for row (the same arithmetic);
    # the transposed product is the blocks' sums added in order (to rounding)
    from accord.annotators import _blocks
    from accord.annotators._crowd import rating_matrix

    monkeypatch.setattr(_blocks, "SPLIT_FROM", 1)
    monkeypatch.setattr(_blocks, "BLOCKS", blocks)
    unit, rater, value = _sparse_crowd(blocks)
    m = rating_matrix(unit, rater * 4 + value, 3000, 160)
    split = _blocks.RowBlocks(m)
    assert len(split.parts) == blocks
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(160, 4)), rng.random((3000, 4))
    try:
        assert np.array_equal(split.dot(x), m @ x)
        np.testing.assert_allclose(split.tdot(y), m.T @ y, rtol=1e-13, atol=1e-12)
        assert np.array_equal(split.column_sums(), np.asarray(m.sum(axis=0)).ravel())
    finally:
        split.close()


@pytest.mark.parametrize(("blocks", "chunk"), [(1, 8192), (1, 7), (2, 64), (3, 1000)])
def test_row_blocks_posterior_is_normalise_log_of_the_product(
        monkeypatch: pytest.MonkeyPatch, blocks: int, chunk: int) -> None:
    # the E step normalises chunk by chunk (the last one partial) into given arrays:
    # the same numbers, bit for bit, as normalising the whole product at once
    from accord.annotators import _blocks
    from accord.annotators._crowd import rating_matrix

    monkeypatch.setattr(_blocks, "SPLIT_FROM", 1)
    monkeypatch.setattr(_blocks, "BLOCKS", blocks)
    monkeypatch.setattr(_blocks, "CHUNK_ROWS", chunk)
    unit, rater, value = _sparse_crowd(5)
    m = rating_matrix(unit, rater * 4 + value, 3000, 160)
    split = _blocks.RowBlocks(m)
    # blocks and chunks are views of the matrix's arrays, not copies
    assert all(np.shares_memory(c.data, m.data) for part in split.chunks for _, c in part)
    assert all(np.shares_memory(t.data, m.data) for t in split.transposed)
    rng = np.random.default_rng(1)
    x, add = np.log(rng.random((160, 4))), np.log(rng.dirichlet(np.ones(4)))
    post, top, log_total = np.empty((3000, 4)), np.empty(3000), np.empty(3000)
    try:
        split.posterior(x, add, post, top, log_total)
    finally:
        split.close()
    want, ll = normalise_log(m @ x, add)
    assert np.array_equal(post, want)
    assert float(log_total.sum() + top.sum()) == ll


@pytest.mark.parametrize("accelerate", [False, True])
def test_dawid_skene_in_row_blocks_equals_one_block(monkeypatch: pytest.MonkeyPatch,
                                                    accelerate: bool) -> None:
    from accord.annotators import _blocks, _em
    from accord.annotators._crowd import Crowd

    unit, rater, value = _sparse_crowd(11)
    crowd = Crowd(unit, rater, value, tuple(range(3000)), tuple(range(40)), tuple(range(4)))
    whole = _em.dawid_skene(crowd, tol=1e-10, max_iter=500, accelerate=accelerate)
    monkeypatch.setattr(_blocks, "SPLIT_FROM", 1)
    split = _em.dawid_skene(crowd, tol=1e-10, max_iter=500, accelerate=accelerate)
    assert split.n_iter == whole.n_iter
    assert split.log_likelihood == pytest.approx(whole.log_likelihood, rel=1e-12)
    np.testing.assert_allclose(split.posterior, whole.posterior, atol=1e-9)
    np.testing.assert_allclose(split.parameters["confusion"], whole.parameters["confusion"],
                               atol=1e-9)
