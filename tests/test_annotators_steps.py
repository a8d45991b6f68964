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
