"""Conger, Light and pairwise from long codes and a sparse join on units.

The oracle is the units x raters implementation these replace (copied below from
accord 0.x, ``_rater_based.py``: Gwet's 2014 SE of Conger's kappa as irrCAC
``conger.kappa.raw`` computes it, and each pair's Cohen's kappa on the units both
raters rated), run on incomplete designs drawn by Hypothesis; the published values
(irrCAC ``cac.raw4raters``, irr ``kappam.light(diagnoses)``) are in
test_many_raters.py and test_pairwise.py and must not move.
"""

from __future__ import annotations

import math
import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import accord
from accord.coefficients import _count_based as cb
from accord.coefficients._chance import chance_corrected
from accord.coefficients._many_data import long_codes
from accord.coefficients._pair_join import pair_tables, shared_units, within_unit_pairs
from accord.data.weights import agreement_weights
from accord.errors import DataError, DegenerateDataWarning
from tests.conftest import traced_peak


# --------------------------------------------------------------------------- dense oracle
def _classif(codes: np.ndarray, q: int) -> np.ndarray:
    r = codes.shape[1]
    rated = codes >= 0
    flat = np.nonzero(rated)[1] * q + codes[rated]
    return np.bincount(flat, minlength=r * q).reshape(r, q).astype(np.float64)


def _dense_conger(codes: np.ndarray, q: int, w: np.ndarray | None) -> tuple[float, float]:
    """Conger's kappa and Gwet's SE from the units x raters matrix (the former code)."""
    counts = np.zeros((codes.shape[0], q), dtype=np.int64)
    for i, row in enumerate(codes):
        for c in row[row >= 0]:
            counts[i, c] += 1
    t = cb.terms(counts, w)
    classif = _classif(codes, q)
    p = classif / classif.sum(axis=1, keepdims=True)
    r = codes.shape[1]
    ww = np.eye(q) if w is None else w
    total = p.sum(axis=0)
    pe = float((total @ ww @ total - np.einsum("gk,kl,gl->", p, ww, p)) / (r * (r - 1.0)))
    est = float(chance_corrected(np.array([t.p_a]), np.array([pe]))[0])
    n, n2 = t.n, t.n2
    if n < 2 or not math.isfinite(est):
        return est, math.nan
    n_g = classif.sum(axis=1)
    a = p.sum(axis=0)[None, :] - p
    b = a @ ww
    d = np.sum((p @ ww.T) * a, axis=1)
    rated = codes >= 0
    b_chosen = np.where(rated, np.take_along_axis(b.T, np.maximum(codes, 0), axis=0), 0.0)
    lam = (n / n_g)[None, :] * (b_chosen - (rated - (n_g / n)[None, :]) * d[None, :])
    pe_i = lam.sum(axis=1) / (r * (r - 1.0))
    c_i = (n / n2) * (t.pa_i - pe * t.two) / (1.0 - pe)
    c_i = c_i - 2.0 * (1.0 - est) * (pe_i - pe) / (1.0 - pe)
    return est, math.sqrt(float(np.sum((c_i - est) ** 2)) / (n * (n - 1.0)))


def _dense_pairs(codes: np.ndarray, q: int) -> dict[tuple[int, int], tuple[int, float]]:
    """Each pair's shared units and Cohen's kappa, column by column (the former code)."""
    out = {}
    for g, h in combinations(range(codes.shape[1]), 2):
        both = (codes[:, g] >= 0) & (codes[:, h] >= 0)
        n = int(both.sum())
        if n == 0:
            continue
        a, b = codes[both, g], codes[both, h]
        po = float(np.count_nonzero(a == b)) / n
        pe = float(np.bincount(a, minlength=q) @ np.bincount(b, minlength=q)) / n**2
        out[(g, h)] = (n, float(chance_corrected(np.array([po]), np.array([pe]))[0]))
    return out


def _designs() -> st.SearchStrategy[np.ndarray]:
    """Units x raters codes (-1 = not rated), incomplete, with a unit rated twice."""
    shape = st.tuples(st.integers(2, 25), st.integers(2, 7))
    return shape.flatmap(lambda s: arrays(np.int64, s, elements=st.integers(-1, 3))).filter(
        lambda x: bool(((x >= 0).sum(axis=1) >= 2).any()))


def _table(codes: np.ndarray) -> list[list[float | None]]:
    return [[None if c < 0 else float(c) for c in row] for row in codes]


def _ann(codes: np.ndarray) -> accord.Annotations:
    """The annotations of a code matrix, with the ratings stored in a shuffled order (so
    that a unit's raters come in any order, and units are not sorted)."""
    ann = accord.Annotations.from_wide(_table(codes), categories=[0.0, 1.0, 2.0, 3.0])
    units, raters, values = ann.codes
    order = np.random.default_rng(int(codes.sum()) % 97).permutation(units.shape[0])
    return accord.Annotations(units[order], raters[order], values[order], units=ann.units,
                              raters=ann.raters, categories=ann.categories,
                              declared_order=True)


# --------------------------------------------------------------------------- Conger
@settings(max_examples=150, deadline=None)
@given(_designs(), st.sampled_from([None, "quadratic", "linear"]), st.booleans())
def test_conger_equals_the_dense_implementation(codes: np.ndarray, weights: str | None,
                                                in_steps: bool) -> None:
    """Also with the passes over the ratings made 3 ratings at a time."""
    from accord.coefficients import _many_data

    with pytest.MonkeyPatch.context() as mp:
        if in_steps:
            mp.setattr(_many_data, "RATINGS_STEP", 3)
        _check_conger(codes, weights)


def _check_conger(codes: np.ndarray, weights: str | None) -> None:
    ann = _ann(codes)
    dense = ann.wide()  # the oracle's input: raters without a rating dropped, as before
    dense = dense[:, (dense >= 0).any(axis=0)]
    if dense.shape[1] < 2:
        return
    w = None if weights is None else agreement_weights(weights, 4, func="test")
    est, se = _dense_conger(dense, 4, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.conger_kappa(ann, weights=weights)
    if math.isnan(est):
        assert math.isnan(res.estimate)
        return
    assert res.estimate == pytest.approx(est, abs=1e-12)
    assert res.se == pytest.approx(se, abs=1e-12, nan_ok=True)
    assert res.n_raters == dense.shape[1]


# --------------------------------------------------------------------------- pairs
@settings(max_examples=150, deadline=None)
@given(_designs(), st.booleans())
def test_sparse_join_equals_the_dense_pairs(codes: np.ndarray, by_sorting: bool) -> None:
    """Both ways of counting keys (a dense bincount, np.unique merged across chunks),
    with chunks of 3 pairs so that chunks and merges happen on small data."""
    from accord.coefficients import _pair_join

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_pair_join, "CHUNK", 3)
        if by_sorting:
            mp.setattr(_pair_join, "_dense_keys", lambda size, n: False)
        _check_join(codes)


def _check_join(codes: np.ndarray) -> None:
    ann = _ann(codes)
    lc = long_codes(ann, categories=None, func="test")
    dense = ann.wide()[:, [ann.raters.index(r) for r in lc.rater_labels]]
    expected = _dense_pairs(dense, 4)
    a, b, n = shared_units(lc.units, lc.raters, lc.n_units, lc.n_raters)
    assert {(g, h): k for g, h, k in zip(a.tolist(), b.tolist(), n.tolist())} == {
        p: v[0] for p, v in expected.items()}
    tables = pair_tables(lc.units, lc.raters, lc.values, lc.n_units, lc.n_raters, 4, a, b)
    for j, (g, h) in enumerate(zip(a.tolist(), b.tolist())):
        both = (dense[:, g] >= 0) & (dense[:, h] >= 0)
        want = np.zeros((4, 4), dtype=np.int64)
        np.add.at(want, (dense[both, g], dense[both, h]), 1)
        np.testing.assert_array_equal(tables[j], want)
    sizes = (codes >= 0).sum(axis=1)
    assert within_unit_pairs(lc.units, lc.n_units) == int(np.sum(sizes * (sizes - 1) // 2))


@settings(max_examples=100, deadline=None)
@given(_designs(), st.integers(1, 6))
def test_light_is_the_mean_over_pairs_with_enough_shared_units(codes: np.ndarray,
                                                               min_shared: int) -> None:
    ann = _ann(codes)
    lc = long_codes(ann, categories=None, func="test")
    dense = ann.wide()[:, [ann.raters.index(r) for r in lc.rater_labels]]
    kept = {p: v for p, v in _dense_pairs(dense, 4).items() if v[0] >= min_shared}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.light_kappa(ann, min_shared=min_shared)
    kappas = [k for _, k in kept.values()]
    assert res.details["n_pairs"] == len(kept)
    r = dense.shape[1]
    assert res.details["n_pairs_left_out"] == r * (r - 1) // 2 - len(kept)
    if not kappas or not all(math.isfinite(k) for k in kappas):
        assert math.isnan(res.estimate) and res.undefined_reason
    else:
        assert res.estimate == pytest.approx(float(np.mean(kappas)), abs=1e-12)
    if res.details["n_pairs_left_out"]:
        assert "Light 1971 averages every pair" in res.details["note"]


def test_light_min_shared_says_what_it_left_out() -> None:
    data = [[1, 1, None], [2, 2, None], [1, 2, None], [2, 2, 1], [None, 1, 1]]
    res = accord.light_kappa(data, min_shared=3)
    assert res.details["n_pairs"] == 1 and res.details["n_pairs_left_out"] == 2
    assert res.details["note"] == (
        "the mean over the 1 of 3 rater pairs that share at least 3 units (Light 1971 "
        "averages every pair): 2 pair(s) share fewer units and 0 share none.")
    with pytest.warns(DegenerateDataWarning, match="no pair of raters shares at least 9"):
        assert math.isnan(accord.light_kappa(data, min_shared=9).estimate)


# --------------------------------------------------------------------------- crowds
UNITS, RATERS, PER_UNIT = 100_000, 10_000, 3
DENSE_BYTES = UNITS * RATERS * 8  # 8 GB


def _crowd() -> accord.Annotations:
    rng = np.random.default_rng(3)
    unit = np.repeat(np.arange(UNITS), PER_UNIT)
    start = rng.integers(0, RATERS, UNITS)
    rater = (np.repeat(start, PER_UNIT) + np.tile(np.arange(PER_UNIT), UNITS)) % RATERS
    values = rng.integers(0, 5, unit.shape[0])
    return accord.Annotations(unit, rater, values, units=range(UNITS), raters=range(RATERS),
                              categories=range(5))



def test_conger_and_light_of_a_crowd_never_build_units_x_raters() -> None:
    ann = _crowd()
    out: list[accord.AgreementResult] = []
    peak = traced_peak(lambda: out.append(accord.conger_kappa(ann)))
    assert peak < DENSE_BYTES / 50, f"conger peak {peak / 2**20:.0f} MiB"
    assert -1.0 < out[0].estimate < 1.0 and out[0].se > 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        peak = traced_peak(lambda: out.append(accord.light_kappa(ann, min_shared=20)))
    assert peak < DENSE_BYTES / 50, f"light peak {peak / 2**20:.0f} MiB"
    assert out[1].details["n_pairs"] > 0 and "share at least 20 units" in out[1].details["note"]


def test_what_needs_the_units_x_raters_matrix_refuses_a_crowd_with_its_size() -> None:
    ann = _crowd()
    size = r"100,000 units x 10,000 raters would allocate 7\.5 GiB for 300,000 ratings"
    res = accord.conger_kappa(ann)
    with pytest.raises(DataError, match="conger_kappa resamples units through each unit's "
                       "row of ratings by rater, which for " + size):
        res.confidence_interval(method="jackknife")
    with pytest.raises(DataError, match="unit_agreement lists every unit's label by rater, "
                       "a units x raters matrix, which for " + size):
        accord.unit_agreement(ann)


# --------------------------------------------------------------------------- accord.pairwise
def _dense_pairwise(ann: accord.Annotations, name: str, options: dict[str, object]
                    ) -> tuple[np.ndarray, dict[tuple[object, object], accord.AgreementResult]]:
    """The former accord.pairwise: the units x raters matrix, each pair on its own units."""
    from accord.coefficients._registry import REGISTRY
    from accord.coefficients.pairwise import _shared_units, call_quietly

    rated = ann.wide() >= 0
    n = np.zeros((ann.n_raters,) * 2, dtype=np.int64)
    n[np.diag_indices(ann.n_raters)] = rated.sum(axis=0)
    out = {}
    for i, j in combinations(range(ann.n_raters), 2):
        n[i, j] = n[j, i] = np.count_nonzero(rated[:, i] & rated[:, j])
        if n[i, j]:
            a, b = ann.raters[i], ann.raters[j]
            out[(a, b)] = call_quietly(REGISTRY[name].function,
                                       _shared_units(ann.select([a, b])), options, name, 2)
    return n, out


@settings(max_examples=60, deadline=None)
@given(_designs(), st.sampled_from([("cohen_kappa", {}), ("cohen_kappa", {"weights": "linear"}),
                                    ("scott_pi", {}), ("gwet_ac1", {"weights": "quadratic"}),
                                    ("percent_agreement", {}), ("krippendorff_alpha", {}),
                                    ("mcc", {}), ("brennan_prediger", {})]))
def test_pairwise_equals_the_dense_implementation(codes: np.ndarray,
                                                  case: tuple[str, dict[str, object]]) -> None:
    name, options = case
    ann = _ann(codes)
    n, expected = _dense_pairwise(ann, name, options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.pairwise(ann, name, **options)
    np.testing.assert_array_equal(res.n, n)
    for pair, want in expected.items():
        got = res.results[pair]
        i, j = res.raters.index(pair[0]), res.raters.index(pair[1])
        assert res.estimates[i, j] == pytest.approx(want.estimate, abs=1e-12, nan_ok=True)
        assert got.n_units == want.n_units and got.undefined_reason == want.undefined_reason
        for attr in ("estimate", "se", "observed", "expected"):
            assert getattr(got, attr) == pytest.approx(getattr(want, attr), abs=1e-12,
                                                       nan_ok=True), attr
    shared = [r.estimate for r in expected.values() if r.n_units > 0]
    if shared and all(math.isfinite(x) for x in shared):
        assert res.mean() == pytest.approx(float(np.mean(shared)), abs=1e-12)
    else:
        assert math.isnan(res.mean())


@settings(max_examples=60, deadline=None)
@given(_designs(), st.sampled_from([("cohen_kappa", None), ("scott_pi", "linear"),
                                    ("gwet_ac1", None), ("brennan_prediger", "quadratic"),
                                    ("percent_agreement", None)]))
def test_mean_pairwise_result_equals_the_dense_resampling(codes: np.ndarray,
                                                          case: tuple[str, str | None]) -> None:
    from accord.coefficients._pairwise_intervals import mean_pairwise_result, pairwise_resampling

    name, weights = case
    ann = _ann(codes)
    dense = ann.wide()
    rated = dense >= 0
    pairs = [(g, h) for g, h in combinations(range(dense.shape[1]), 2)
             if np.any(rated[:, g] & rated[:, h])]
    w = None if weights is None else agreement_weights(weights, 4, func="test")
    want = pairwise_resampling(dense, 4, coefficient=name, weights=w, pairs=pairs).full()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = mean_pairwise_result(ann, name, weights=weights)
    assert res.estimate == pytest.approx(want, abs=1e-12, nan_ok=True)
    assert res.resampling is not None and res.resampling().full() == pytest.approx(
        want, abs=1e-12, nan_ok=True)


def test_pairwise_min_shared_leaves_pairs_out_with_the_reason() -> None:
    data = [[1, 1, None], [2, 2, None], [1, 2, None], [2, 2, 1], [None, 1, 1]]
    with pytest.warns(DegenerateDataWarning, match="2 pair"):
        res = accord.pairwise(data, min_shared=3)
    assert res.n_pairs == 1 and res.n_left_out == 2
    assert res.results[("rater_1", "rater_3")].undefined_reason == (
        "raters 'rater_1' and 'rater_3' share 1 unit(s), fewer than min_shared=3")
    assert math.isnan(res.estimates[1, 2]) and res.n[1, 2] == 2
    assert res.top(5) == [("rater_1", "rater_2", 4, pytest.approx(res.estimates[0, 1]))]


def test_pairwise_of_a_crowd_never_builds_units_x_raters() -> None:
    ann = _crowd()
    out: list[accord.PairwiseResult] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        peak = traced_peak(lambda: out.append(accord.pairwise(ann, min_shared=15)))
    assert peak < DENSE_BYTES / 50, f"pairwise peak {peak / 2**20:.0f} MiB"
    res = out[0]
    assert res.n_pairs == len(res.results) > 0 and (res.pair_n[res.pair_n >= 15]).all()
    with pytest.raises(DataError, match="rater x rater matrix of 10,000 raters"):
        _ = res.estimates
    first = next(iter(res.results))
    assert res.results[first].n_units >= 15  # made when looked up


def test_pairwise_to_dict_gives_pairs_without_matrices_beyond_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    pw = importlib.import_module("accord.coefficients.pairwise")

    monkeypatch.setattr(pw, "MATRIX_RATERS", 2)
    out = accord.pairwise([[1, 1, 2], [2, 2, 2], [1, 2, 1], [2, 2, 2]]).to_dict()
    assert out["estimates"] is None and out["n"] is None and len(out["pairs"]) == 3


# --------------------------------------------------------------------------- the report
def _workers(n_units: int, n_workers: int, per_unit: int, seed: int = 6) -> accord.Annotations:
    rng = np.random.default_rng(seed)
    unit = np.repeat(np.arange(n_units), per_unit)
    rater = (np.repeat(rng.integers(0, n_workers, n_units), per_unit)
             + np.tile(np.arange(per_unit), n_units)) % n_workers
    return accord.Annotations(unit, rater, rng.integers(0, 3, unit.shape[0]),
                              units=range(n_units),
                              raters=[f"w{i:02d}" for i in range(n_workers)],
                              categories=["a", "b", "c"])


def test_a_crowd_report_shows_the_pairs_that_share_most_units() -> None:
    ann = _workers(3000, 60, 4)
    rep = accord.report(ann)
    assert rep.matrix is not None and len(rep.matrix.raters) <= 30
    with pytest.warns(DegenerateDataWarning, match="undefined for 1590 pair"):
        pw = accord.pairwise(ann, min_shared=30)  # the pairs left out
    enough = int(np.count_nonzero(pw.pair_n >= 30))
    note = next(x for x in rep.notes if x.startswith("With 60 raters"))
    assert f"of {enough:,} such pairs in all; {1770 - enough:,} of the 1,770 pairs" in note
    assert "leave-one-out is left out (more than 30 raters)" in note
    index = {r: i for i, r in enumerate(ann.raters)}
    full = pw.estimates
    for i, a in enumerate(rep.matrix.raters):
        for j, b in enumerate(rep.matrix.raters):
            n, value = rep.matrix.n[i][j], rep.matrix.values[i][j]
            if i != j and n >= 30:
                assert value == pytest.approx(full[index[a], index[b]], abs=1e-12)
            elif i != j:
                assert math.isnan(value)
    assert {p.reason for p in rep.pairs} == {"the least agreeing pair (lowest Cohen's kappa)",
                                             "the most agreeing pair (highest Cohen's kappa)"}


def test_a_crowd_report_above_the_budget_leaves_the_pairs_out_and_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from accord.report import sections

    monkeypatch.setattr(sections, "PAIR_BUDGET", 1000)
    rep = accord.report(_workers(3000, 60, 4))
    assert rep.matrix is None and not rep.pairs
    assert ("the rater x rater matrix and the worksheets of the least and most agreeing pairs "
            "are left out: finding the pairs that share units means joining 18,000 pairs of "
            "ratings within units, more than the report's budget of 1,000") in rep.notes[0]


def test_a_sparse_crowd_report_says_no_pair_shares_enough_units() -> None:
    rep = accord.report(_workers(400, 200, 3))
    assert rep.matrix is None
    assert ("With 200 raters no pair of raters shares 30 units or more, so the rater x rater "
            "matrix and the worksheets of the least and most agreeing pairs are left out; "
            "leave-one-out is left out (more than 30 raters); name pairs with pairs=."
            ) in rep.notes


def test_the_sparse_key_count_re_sorts_a_bounded_multiple_of_what_it_is_given() -> None:
    """Counting distinct keys by np.unique per chunk merges the parts geometrically: with
    chunks of 64 keys, 400 chunks of new keys (25,600 in all) re-sort at most 4x the keys
    given, however many are distinct. Merging at a fixed size re-sorted everything held on
    every chunk once the distinct keys passed 4 chunks: about 64 x 400^2 / 2 = 5.1 M keys
    (200x). The work is counted (the keys concatenated by each merge), not timed."""
    from accord.coefficients import _pair_join

    sorted_keys = 0
    merged = _pair_join._KeyCounter._merged

    def counting(self: _pair_join._KeyCounter) -> tuple[np.ndarray, np.ndarray]:
        nonlocal sorted_keys
        sorted_keys += sum(k.size for k, _ in self.parts)
        return merged(self)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_pair_join, "CHUNK", 64)
        mp.setattr(_pair_join._KeyCounter, "_merged", counting)
        counter = _pair_join._KeyCounter(1 << 40, dense=False)
        rng = np.random.default_rng(0)
        keys = rng.permutation(1 << 20)[:400 * 64].astype(np.int64)
        for s in range(0, keys.size, 64):
            counter.add(np.concatenate([keys[s:s + 64], keys[:8]]))  # 8 keys seen again
        got_keys, got_counts = counter.result()
    given = 400 * 72
    assert sorted_keys <= 4 * given
    np.testing.assert_array_equal(got_keys, np.sort(keys))
    expected = np.ones(keys.size, dtype=np.int64)
    expected[np.searchsorted(got_keys, keys[:8])] += 400
    np.testing.assert_array_equal(got_counts, expected)
