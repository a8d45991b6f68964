"""Invariants of the two-rater coefficients, checked with Hypothesis.

Rater swap, unit order, relabelling of nominal categories, perfect agreement,
bounds, raw labels against the table, the resampling contract and identity
weights. Undefined results (p_e = 1) must come with a DegenerateDataWarning and
``nan``; a defined one never warns.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import accord

UNWEIGHTED = ["cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger", "percent_agreement",
              "pabak"]
WEIGHTED = ["cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger", "percent_agreement"]
SYMMETRIC_WEIGHTS = ["linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"]
TOL = 1e-12


@st.composite
def rating_pairs(draw: Any, max_k: int = 5) -> tuple[list[int], list[int]]:
    """Two raters' labels on the same units, with a tunable amount of agreement."""
    k = draw(st.integers(1, max_k))
    label = st.integers(0, k - 1)
    rows = draw(st.lists(st.tuples(label, label, st.booleans()), min_size=2, max_size=50))
    return [a for a, _, _ in rows], [a if same else b for a, b, same in rows]


def _run(func: Callable[..., accord.AgreementResult], *args: Any,
         **kwargs: Any) -> accord.AgreementResult:
    """Call a coefficient; a warning is given exactly when the result is undefined."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = func(*args, **kwargs)
    degenerate = [w for w in caught if issubclass(w.category, accord.DegenerateDataWarning)]
    assert len(caught) == len(degenerate), [str(w.message) for w in caught]
    assert bool(degenerate) == (not res.defined)
    if not res.defined:
        assert math.isnan(res.estimate) and res.undefined_reason
    return res


def _same(a: accord.AgreementResult, b: accord.AgreementResult, *, se: bool = True) -> None:
    assert a.defined == b.defined
    if a.defined:
        assert a.estimate == pytest.approx(b.estimate, abs=TOL)
        if se:
            # compare variances: an SE near 0 is the square root of rounding noise
            assert a.se**2 == pytest.approx(b.se**2, abs=TOL, nan_ok=True)


# --------------------------------------------------------------------------- symmetry
@given(rating_pairs(), st.sampled_from(UNWEIGHTED))
def test_rater_swap(pair: tuple[list[int], list[int]], name: str) -> None:
    func = getattr(accord, name)
    y1, y2 = pair
    _same(_run(func, y1, y2), _run(func, y2, y1))


@given(rating_pairs(), st.sampled_from(WEIGHTED), st.sampled_from(SYMMETRIC_WEIGHTS))
def test_rater_swap_with_symmetric_weights(pair: tuple[list[int], list[int]], name: str,
                                           weights: str) -> None:
    func = getattr(accord, name)
    y1, y2 = pair
    cats = sorted(set(y1) | set(y2))
    _same(_run(func, y1, y2, weights=weights, categories=cats),
          _run(func, y2, y1, weights=weights, categories=cats))


# --------------------------------------------------------------------------- invariance
@given(rating_pairs(), st.sampled_from(UNWEIGHTED + ["kappa_max"]), st.randoms())
def test_unit_order(pair: tuple[list[int], list[int]], name: str, rnd: Any) -> None:
    func = getattr(accord, name)
    y1, y2 = pair
    order = list(range(len(y1)))
    rnd.shuffle(order)
    _same(_run(func, y1, y2), _run(func, [y1[i] for i in order], [y2[i] for i in order]))


@given(rating_pairs(), st.sampled_from(UNWEIGHTED), st.randoms())
def test_relabelling_nominal_categories(pair: tuple[list[int], list[int]], name: str,
                                       rnd: Any) -> None:
    func = getattr(accord, name)
    y1, y2 = pair
    names = ["delta", "alpha", "echo", "bravo", "charlie"]
    rnd.shuffle(names)
    relabel = dict(enumerate(names))
    _same(_run(func, y1, y2), _run(func, [relabel[a] for a in y1], [relabel[b] for b in y2]))


# --------------------------------------------------------------------------- values
@given(rating_pairs(), st.sampled_from(UNWEIGHTED))
def test_perfect_agreement_gives_one_when_defined(pair: tuple[list[int], list[int]],
                                                  name: str) -> None:
    y1, _ = pair
    res = _run(getattr(accord, name), y1, list(y1))
    if len(set(y1)) > 1:
        assert res.estimate == pytest.approx(1.0, abs=TOL)
    elif name != "percent_agreement":
        # one category: p_e = 1 (kappa, pi, Brennan-Prediger/PABAK with q = 1) or q < 2 (AC1)
        assert not res.defined
    else:
        assert res.estimate == pytest.approx(1.0, abs=TOL)


@given(rating_pairs(), st.sampled_from(UNWEIGHTED))
def test_bounds(pair: tuple[list[int], list[int]], name: str) -> None:
    res = _run(getattr(accord, name), *pair)
    assume(res.defined)
    low, high = (0.0, 1.0) if name == "percent_agreement" else (-1.0, 1.0)
    assert res.bounds == (low, high)
    assert low - TOL <= res.estimate <= high + TOL
    ci = res.confidence_interval(0.9)
    assert low <= ci.low <= ci.high <= high


@given(rating_pairs(), st.sampled_from(WEIGHTED), st.sampled_from(SYMMETRIC_WEIGHTS))
def test_weighted_never_exceeds_one(pair: tuple[list[int], list[int]], name: str,
                                    weights: str) -> None:
    res = _run(getattr(accord, name), *pair, weights=weights)
    if res.defined:
        assert res.estimate <= 1.0 + TOL


@given(rating_pairs())
def test_kappa_never_exceeds_kappa_max(pair: tuple[list[int], list[int]]) -> None:
    kappa = _run(accord.cohen_kappa, *pair)
    kmax = _run(accord.kappa_max, *pair)
    if kappa.defined:
        assert kappa.estimate <= kmax.estimate + TOL


# --------------------------------------------------------------------------- entry points
@given(rating_pairs(), st.sampled_from(UNWEIGHTED + ["kappa_max"]))
def test_raw_labels_and_table_agree(pair: tuple[list[int], list[int]], name: str) -> None:
    func = getattr(accord, name)
    y1, y2 = pair
    cats = sorted(set(y1) | set(y2))
    counts = np.zeros((len(cats), len(cats)))
    for a, b in zip(y1, y2):
        counts[cats.index(a), cats.index(b)] += 1
    raw, table = _run(func, y1, y2), _run(func, accord.ContingencyTable(counts, cats))
    if name not in ("gwet_ac1", "brennan_prediger", "percent_agreement"):
        _same(raw, table)
        return
    # Gwet's variance from the ratings (irrCAC *.raw) divides by n (n - 1), from the
    # table (*.table) by n^2
    _same(raw, table, se=False)
    n = len(y1)
    if raw.defined and n > 1:
        assert raw.se**2 == pytest.approx(table.se**2 * n / (n - 1), abs=TOL, nan_ok=True)


@given(rating_pairs(), st.sampled_from(UNWEIGHTED + ["kappa_max"]),
       st.sampled_from([None, "quadratic"]))
def test_resampling_full_equals_estimate(pair: tuple[list[int], list[int]], name: str,
                                         weights: str | None) -> None:
    func = getattr(accord, name)
    kwargs = {} if weights is None or name in ("pabak", "kappa_max") else {"weights": weights}
    res = _run(func, *pair, **kwargs)
    assume(res.defined)
    assert res.resampling is not None
    assert res.resampling().full() == pytest.approx(res.estimate, abs=TOL)


@given(rating_pairs(), st.sampled_from(WEIGHTED))
def test_identity_weights_equal_unweighted(pair: tuple[list[int], list[int]], name: str) -> None:
    func = getattr(accord, name)
    y1, y2 = pair
    cats = sorted(set(y1) | set(y2))
    eye = np.eye(len(cats))
    plain = _run(func, y1, y2)
    for weights in ("identity", eye):
        _same(plain, _run(func, y1, y2, weights=weights, categories=cats))


@given(rating_pairs())
def test_unit_sample_weights_equal_unweighted(pair: tuple[list[int], list[int]]) -> None:
    y1, y2 = pair
    _same(_run(accord.cohen_kappa, y1, y2),
          _run(accord.cohen_kappa, y1, y2, sample_weight=np.ones(len(y1))))
