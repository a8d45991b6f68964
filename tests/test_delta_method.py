"""Analytic SEs against a finite-difference delta method.

For a coefficient ``f`` of the cell proportions ``p_kl`` of a two-rater table, the
delta-method variance is ``(sum p_kl g_kl^2 - (sum p_kl g_kl)^2) / n`` with
``g = df/dp`` (multinomial sampling of n units). The gradient here is taken by
central differences on ``f`` recomputed by accord from the perturbed table, so the
check is independent of the analytic derivative written in the SE.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord

ASYMMETRIC = np.array([[1.0, 0.2, 0.0], [0.7, 1.0, 0.5], [0.1, 0.9, 1.0]])


def _delta_se(f: Callable[[np.ndarray], float], counts: np.ndarray, h: float = 1e-6) -> float:
    n = counts.sum()
    p = counts / n
    g = np.zeros_like(p)
    for idx in np.ndindex(p.shape):
        up, down = p.copy(), p.copy()
        up[idx] += h
        down[idx] -= h
        g[idx] = (f(up) - f(down)) / (2 * h)
    mean = float(np.sum(p * g))
    return math.sqrt((float(np.sum(p * g * g)) - mean**2) / n)


def _scott(weights: np.ndarray) -> Callable[[np.ndarray], float]:
    def f(p: np.ndarray) -> float:
        return accord.scott_pi(accord.ContingencyTable(p * 1000.0), weights=weights).estimate

    return f


@pytest.mark.parametrize("weights", [ASYMMETRIC, ASYMMETRIC.T, (ASYMMETRIC + ASYMMETRIC.T) / 2])
def test_weighted_scott_pi_se_is_the_delta_method(weights: np.ndarray) -> None:
    counts = np.array([[20.0, 5, 3], [4, 30, 9], [1, 6, 22]])
    res = accord.scott_pi(accord.ContingencyTable(counts), weights=weights)
    assert res.se == pytest.approx(_delta_se(_scott(weights), counts), rel=1e-6)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=9, max_size=9),
       st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6))
def test_weighted_scott_pi_se_delta_method_property(cells: list[int], off: list[float]) -> None:
    counts = np.array(cells, dtype=float).reshape(3, 3)
    w = np.eye(3)
    w[~np.eye(3, dtype=bool)] = off
    res = accord.scott_pi(accord.ContingencyTable(counts), weights=w)
    if not res.defined or res.se < 1e-6:
        return
    assert res.se == pytest.approx(_delta_se(_scott(w), counts), rel=1e-5)


def test_weighted_cohen_kappa_se_is_the_delta_method_with_asymmetric_weights() -> None:
    counts = np.array([[20.0, 5, 3], [4, 30, 9], [1, 6, 22]])
    res = accord.cohen_kappa(accord.ContingencyTable(counts), weights=ASYMMETRIC)

    def f(p: np.ndarray) -> float:
        return accord.cohen_kappa(accord.ContingencyTable(p * 1000.0),
                                  weights=ASYMMETRIC).estimate

    assert res.se == pytest.approx(_delta_se(f, counts), rel=1e-6)
