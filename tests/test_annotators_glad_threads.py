"""GLAD's figures do not depend on the BLAS thread count.

GLAD's M step is scipy's conjugate gradients on an objective with dot products over
every rating; a threaded BLAS dot sums in another order, which moved the line search,
the iteration count and the posteriors with the machine's thread count (at 10^5
ratings: 15 vs 17 iterations, posteriors 5.8e-5 apart). The fit runs under one BLAS
thread whatever the process's pool, so the result is the same bit for bit.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

import accord
from accord import Annotations


def _crowd(n_units: int = 4_000, per_unit: int = 8, n_workers: int = 10) -> Annotations:
    """Binary ratings of workers with accuracy 0.55-0.9: 32,000 ratings, past the
    size at which OpenBLAS splits a dot over its threads."""
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 2, n_units)
    acc = rng.uniform(0.55, 0.9, n_workers)
    unit = np.repeat(np.arange(n_units), per_unit)
    worker = np.argsort(rng.random((n_units, n_workers)), axis=1)[:, :per_unit].ravel()
    value = np.where(rng.random(unit.size) < acc[worker], truth[unit], 1 - truth[unit])
    return Annotations.from_long({"u": unit, "w": worker, "v": value},
                                 unit="u", rater="w", value="v")


def test_glad_is_identical_under_one_or_two_blas_threads() -> None:
    ann = _crowd()
    fits = {}
    for threads in (2, 1):
        with threadpool_limits(limits=threads, user_api="blas"):
            fits[threads] = accord.consensus(ann, method="glad")
    two, one = fits[2], fits[1]
    assert two.n_iter == one.n_iter
    assert np.array_equal(two.posterior, one.posterior)
    assert np.array_equal(two.parameters["alpha"], one.parameters["alpha"])
    assert np.array_equal(two.parameters["beta"], one.parameters["beta"])
    assert two.log_likelihood == one.log_likelihood


def _blas_threads() -> dict[str, int]:
    return {i["filepath"]: i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}


def test_glad_restores_the_blas_pool() -> None:
    ann = _crowd(n_units=200)
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        accord.consensus(ann, method="glad")
        assert _blas_threads() == before
