"""Bangdiwala's B: irrCAC's published figure, the delta method, raw data = table.

Sources: R irrCAC README (GitHub kgwet/irrCAC, version 1.4):
``bangdiwala.table(cont3x3abstractors)`` 0.8059604, SE 0.05449465; the delta-method SE
is checked against central finite differences of accord's own estimate.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord import ContingencyTable
from accord.errors import DegenerateDataWarning


def _delta_se(f: Callable[[np.ndarray], float], counts: np.ndarray, h: float = 1e-6) -> float:
    """Delta-method SE with a central-difference gradient of ``f`` in the proportions."""
    n = counts.sum()
    p = counts / n
    g = np.zeros_like(p)
    for idx in np.ndindex(p.shape):
        up, down = p.copy(), p.copy()
        up[idx] += h
        down[idx] -= h
        g[idx] = (f(up) - f(down)) / (2 * h)
    return float(np.sqrt((np.sum(p * g * g) - np.sum(p * g) ** 2) / n))

ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]


def test_irrcac_readme() -> None:
    res = accord.bangdiwala_b(ContingencyTable(ABSTRACTORS))
    assert res.estimate == pytest.approx(0.8059604, abs=5e-8)
    assert res.se == pytest.approx(0.05449465, abs=5e-9)
    # B = sum n_kk^2 / sum n_k+ n_+k = (13^2 + 20^2 + 56^2) / (13*13 + 27*24 + 63*60)
    assert res.estimate == pytest.approx((169 + 400 + 3136) / (169 + 648 + 3780), rel=1e-15)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=9, max_size=9))
def test_se_is_the_delta_method(cells: list[int]) -> None:
    counts = np.array(cells, dtype=float).reshape(3, 3)

    def f(p: np.ndarray) -> float:
        return accord.bangdiwala_b(ContingencyTable(p * 1000.0)).estimate

    res = accord.bangdiwala_b(ContingencyTable(counts))
    assert res.se == pytest.approx(_delta_se(f, counts), rel=1e-5)


def test_labels_give_the_table_and_swapping_raters_changes_nothing() -> None:
    rng = np.random.default_rng(2)
    a = rng.integers(0, 4, 150)
    b = np.where(rng.random(150) < 0.6, a, rng.integers(0, 4, 150))
    table = ContingencyTable.from_codes(a, b, [0, 1, 2, 3])
    raw = accord.bangdiwala_b(a, b)
    assert raw.estimate == pytest.approx(accord.bangdiwala_b(table).estimate, rel=1e-15)
    assert raw.se == pytest.approx(accord.bangdiwala_b(table).se, rel=1e-15)
    assert accord.bangdiwala_b(b, a).estimate == pytest.approx(raw.estimate, rel=1e-15)


def test_no_shared_category_is_undefined() -> None:
    with pytest.warns(DegenerateDataWarning, match="no category is used by both"):
        res = accord.bangdiwala_b(["a", "a"], ["b", "b"])
    assert not res.defined


def test_interval_by_resampling_and_analytic() -> None:
    res = accord.bangdiwala_b(ContingencyTable(ABSTRACTORS))
    ci = res.confidence_interval(0.95)
    assert ci.low == pytest.approx(0.8059604 - 1.959964 * 0.05449465, abs=1e-6)
    boot = res.confidence_interval(0.95, method=accord.Bootstrap(500, rng=3))
    assert 0.6 < boot.low < res.estimate < boot.high <= 1.0
