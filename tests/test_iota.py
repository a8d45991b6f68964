"""Janson & Olsson's iota against R irr's identities and published output.

Sources: irr's documentation: with one nominal variable iota "reduces to the Fleiss
exact kappa" (Conger 1980), so ``iota(list(diagnoses))`` equals accord's Conger's kappa;
Janson & Olsson (2001): with two raters and one nominal variable iota is Cohen's kappa;
``iota`` output of R irr 0.84.1 on a two-variable nominal example (9 subjects, 2 raters,
value 0.775) printed in a published blog post (kusanagi.hatenablog.jp, 2017); the
photo data of Janson & Olsson (2001, Table 1) against irr's formula transcribed below.
"""

from __future__ import annotations

import numpy as np
import pytest

import accord
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError

WEIGHT = [[71, 74, 76], [73, 80, 80], [86, 101, 93], [59, 62, 66], [71, 83, 77]]
HEIGHT = [[166, 171, 171], [160, 170, 165], [187, 174, 185], [161, 163, 162],
          [172, 182, 181]]


def _irr_iota(variables: list[np.ndarray]) -> float:
    n, m = variables[0].shape
    do = de = 0.0
    for x in variables:
        ss_t = np.var(x.ravel(), ddof=1) * (n * m - 1)
        ss_w = np.sum(np.var(x, axis=1, ddof=1) / n) * n * (m - 1)
        ss_c = np.var(x.mean(axis=0), ddof=1) * n * (m - 1)
        do += ss_w
        de += (m - 1) * ss_t + ss_c
    return 1 - m * do / de


def test_one_nominal_variable_is_conger_kappa() -> None:
    diagnoses = accord.datasets.load("fleiss_1971_wide").data
    res = accord.janson_olsson_iota(diagnoses)
    assert res.estimate == pytest.approx(accord.conger_kappa(diagnoses).estimate, rel=1e-12)


def test_two_raters_one_variable_is_cohen_kappa() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, 60)
    b = np.where(rng.random(60) < 0.6, a, rng.integers(0, 4, 60))
    res = accord.janson_olsson_iota(np.column_stack([a, b]).astype(object))
    assert res.estimate == pytest.approx(accord.cohen_kappa(a, b).estimate, rel=1e-12)


def test_published_two_variable_nominal_output() -> None:
    old_new = [["Old", "Old"], ["New", "New"], ["Old", "New"], ["New", "New"], ["Old", "Old"],
               ["New", "New"], ["New", "New"], ["Old", "Old"], ["New", "New"]]
    speed = [["Slow", "Slow"], ["Fast", "Fast"], ["Slow", "Slow"], ["Fast", "Fast"],
             ["Slow", "Slow"], ["Fast", "Fast"], ["Slow", "Fast"], ["Slow", "Slow"],
             ["Fast", "Fast"]]
    res = accord.janson_olsson_iota(old_new, speed)
    assert round(res.estimate, 3) == 0.775 and res.details["n_variables"] == 2


def test_photo_quantitative_matches_irr_formula() -> None:
    w, h = np.array(WEIGHT, float), np.array(HEIGHT, float)
    res = accord.janson_olsson_iota(WEIGHT, HEIGHT, level="interval")
    assert res.estimate == pytest.approx(_irr_iota([w, h]), rel=1e-12)
    z = [(x - x.mean()) / x.std(ddof=1) for x in (w, h)]
    std = accord.janson_olsson_iota(WEIGHT, HEIGHT, level="interval", standardize=True)
    assert std.estimate == pytest.approx(_irr_iota(z), rel=1e-12)
    jack = res.confidence_interval(0.95, method="jackknife")
    assert jack.low < res.estimate < jack.high


def test_missing_units_dropped_and_bad_input() -> None:
    w = [row[:] for row in WEIGHT] + [[70, None, 72]]
    h = [row[:] for row in HEIGHT] + [[170, 171, 169]]
    res = accord.janson_olsson_iota(w, h, level="interval")
    assert res.details["n_units_dropped"] == 1 and res.n_units == 5
    with pytest.raises(DataError, match="same units and raters"):
        accord.janson_olsson_iota(WEIGHT, HEIGHT[:4], level="interval")
    with pytest.raises(InvalidParameterError, match="'standardize' parameter"):
        accord.janson_olsson_iota(WEIGHT, standardize=True)
    with pytest.warns(DegenerateDataWarning, match="every rating is the same"):
        assert not accord.janson_olsson_iota([["a", "a"], ["a", "a"]]).defined
