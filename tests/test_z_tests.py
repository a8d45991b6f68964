"""z tests of Light's kappa and of Fleiss' kappa per category, as R's irr reports them.

Sources: R irr 0.84.1 manual example output, ``kappam.light(diagnoses)``: Kappa = 0.459,
z = 2.31, p-value = 0.0211 (rdrr.io); irr's ``kappam.fleiss(x, detail = TRUE)`` formulas
(``kappaK = (pjk - pj) / (1 - pj)``, ``SE = sqrt(2 / (n m (m - 1)))``) transcribed below.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import accord

DIAGNOSES = accord.datasets.load("fleiss_1971_wide").data  # R irr's diagnoses


def test_light_kappa_z_reproduces_irr() -> None:
    res = accord.light_kappa(DIAGNOSES)
    assert round(res.estimate, 3) == 0.459
    assert round(res.details["irr_z"], 2) == 2.31
    assert round(res.details["irr_pvalue"], 4) == 0.0211


def test_light_kappa_z_uses_irr_listwise_deletion() -> None:
    data = [[1, 2, None], [2, 1, 1], [2, 2, 2], [1, None, 2], [1, 1, 1], [2, 1, 2]]
    complete = [row for row in data if None not in row]
    res, listwise = accord.light_kappa(data), accord.light_kappa(complete)
    assert res.details["irr_z"] == pytest.approx(listwise.details["irr_z"], rel=1e-14)
    assert listwise.details["irr_z"] == pytest.approx(
        listwise.estimate / math.sqrt(_irr_chance_var(np.array(complete))), rel=1e-12)
    assert res.estimate != listwise.estimate  # accord's kappa uses each pair's units


def _irr_chance_var(x: np.ndarray) -> float:
    """irr kappam.light's variance, transcribed: P = 1 - B / n^(2 C(m, 2))."""
    n, m = x.shape
    levels = np.unique(x)
    dis = []
    for a in range(m - 1):
        for b in range(a + 1, m):
            dis.append(sum(np.sum(x[:, a] == li) * np.sum(x[:, b] == lj)
                           for li in levels for lj in levels if li != lj))
    big = len(dis) * math.prod(dis)
    chance = 1 - big / n ** (m * (m - 1))
    return chance / (n * (1 - chance))


def _irr_fleiss_detail(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, m = x.shape
    levels = np.unique(x)
    ttab = np.stack([(x == c).sum(axis=1) for c in levels], axis=1).astype(float)
    pj = ttab.sum(axis=0) / (n * m)
    pjk = ((ttab**2).sum(axis=0) - n * m * pj) / (n * m * (m - 1) * pj)
    kappa = (pjk - pj) / (1 - pj)
    z = kappa / math.sqrt(2 / (n * m * (m - 1)))
    return kappa, z, 2 * (1 - stats.norm.cdf(np.abs(z)))


def test_fleiss_per_category_z_reproduces_irr_detail() -> None:
    x = np.array(DIAGNOSES)
    kappa, z, p = _irr_fleiss_detail(x)
    res = accord.fleiss_kappa(DIAGNOSES)
    assert res.per_category is not None
    got = [res.per_category[c] for c in sorted(res.per_category)]
    np.testing.assert_allclose([g["kappa"] for g in got], kappa, rtol=1e-12)
    np.testing.assert_allclose([g["z"] for g in got], z, rtol=1e-12)
    np.testing.assert_allclose([g["pvalue"] for g in got], p, rtol=1e-9, atol=1e-15)
