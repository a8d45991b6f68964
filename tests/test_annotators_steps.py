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

    from accord.annotators._em import rating_matrix

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
