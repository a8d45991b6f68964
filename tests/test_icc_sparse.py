"""ICC from long (sparse) data: the same numbers as the dense units x raters algebra.

Oracles:

- the dense implementation accord used before the long path (kept below as
  ``_dense_mean_squares``: centred units x raters matrix, per-unit features including
  which raters scored each unit and their outer products, ``C`` solved with the last
  rater effect fixed at 0), on random incomplete designs (Hypothesis), to 1e-10;
- statsmodels 0.15 type II sums of squares (``tests/test_icc.py``) for Henderson's
  Method III, and the published Shrout & Fleiss (1979) / psych / pingouin values there,
  which run through the same long path;
- the conjugate-gradient route against the direct solve on the same designs.
"""

from __future__ import annotations

import math
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import accord
from accord import RatingMatrix
from accord.coefficients.intraclass import FEATURE_BUDGET, FORMS, _estimate, form_of
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError
from accord.tables import _henderson
from accord.tables.rating_matrix import MeanSquares, mean_squares
from tests.conftest import run_cli


# ------------------------------------------------------------------ the dense oracle
def _dense_mean_squares(x: np.ndarray) -> tuple[MeanSquares, int]:
    """The dense algebra: units with two scores, centred, features summed (k^2 block)."""
    keep = (~np.isnan(x)).sum(axis=1) >= 2
    x = x[keep]
    x = x[:, (~np.isnan(x)).any(axis=0)]
    rated = ~np.isnan(x)
    complete = bool(rated.all())
    k = x.shape[1]
    z = np.where(rated, x - np.nanmean(x), 0.0)
    n_i = rated.sum(axis=1).astype(float)
    s = z.sum(axis=1)
    mean = s / n_i
    dev = np.where(rated, z - mean[:, None], 0.0)
    within = np.einsum("ij,ij->i", dev, dev)
    head = [float(n_i.size), n_i.sum(), n_i @ n_i, s.sum(), s @ mean, within.sum()]
    sums = np.concatenate([head, z.sum(axis=0)])
    if not complete:
        r = rated.astype(float)
        sums = np.concatenate([sums, r.sum(axis=0), mean @ r, ((r / n_i[:, None]).T @ r).ravel()])
    return mean_squares(sums[None, :], k, complete), k


def _from_long(x: np.ndarray) -> accord.Annotations:
    rows, cols = np.nonzero(~np.isnan(x))
    return accord.Annotations.from_long(
        {"u": rows.tolist(), "r": cols.tolist(), "v": x[rows, cols].tolist()},
        unit="u", rater="r", value="v", level="interval")


designs = st.integers(3, 25).flatmap(lambda n: st.integers(2, 6).flatmap(lambda k: st.tuples(
    st.lists(st.lists(st.integers(0, 9), min_size=k, max_size=k), min_size=n, max_size=n),
    st.lists(st.lists(st.booleans(), min_size=k, max_size=k), min_size=n, max_size=n))))


def _matrix(design: tuple[list[list[int]], list[list[bool]]]) -> np.ndarray:
    values, holes = design
    x = np.array(values, dtype=float)
    x[np.array(holes)] = np.nan
    return x


# every usable score 0 but one, whose rater scored nothing else: the rater effect takes
# it whole, so targets and residual are both 0 and ICC3 is 0/0; the dense sums once left
# R(t | r) at -1e-15 and gave 1.0 where the long sums gave the undefined nan
_ONE_RATER_CONSTANT = ([[0, 0, 0, 0, 5, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
                       [[True, False, False, False, False, False],
                        [True, False, False, False, True, True],
                        [True, False, False, False, True, False],
                        [False, False, False, False, True, False],
                        [True, True, True, True, False, True]])


@settings(max_examples=150, deadline=None)
@given(designs, st.sampled_from(sorted(FORMS)))
@example(_ONE_RATER_CONSTANT, "ICC3")
def test_long_path_equals_the_dense_algebra(design: tuple[list[list[int]], list[list[bool]]],
                                            form: str) -> None:
    x = _matrix(design)
    usable = (~np.isnan(x)).sum(axis=1) >= 2
    if usable.sum() < 2 or len(set(x[usable][~np.isnan(x[usable])])) < 2:
        return
    ms, k = _dense_mean_squares(x)
    if k < 2:
        return
    chosen = form_of(form)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        if chosen.model != "one_way" and not np.isfinite(ms.ms_cols[0]):
            with pytest.raises(DataError, match="disconnected design"):
                accord.icc(x, form=form)
            return
        expected = float(_estimate(ms, chosen, k)[0])
        for data in (x, _from_long(x)):
            res = accord.icc(data, form=form)
            # relative too: a k form near 1 + (k - 1) rho = 0 magnifies rounding
            assert res.estimate == pytest.approx(expected, rel=1e-10, abs=1e-10, nan_ok=True)
            for name in ("ms_rows", "ms_cols", "ms_error", "ms_within"):
                want = float(getattr(ms, name)[0])
                assert res.details[name] == pytest.approx(want, rel=1e-10, abs=1e-10,
                                                          nan_ok=True)


def test_long_path_keeps_the_published_values() -> None:
    """Shrout & Fleiss (1979) Table 2 from long Annotations: psych 2.5.3's ICC(2,1),
    F, and interval (cases.json), as from the array."""
    sf = np.array(accord.datasets.load("shrout_fleiss_1979").data, dtype=float)
    res = accord.icc(_from_long(sf), form="ICC2")
    assert res.estimate == pytest.approx(0.2897637795, abs=1e-9)
    assert res.details["F"] == pytest.approx(11.02724796, abs=1e-8)
    ci = res.confidence_interval(0.95)
    assert (ci.low, ci.high) == pytest.approx((0.01878651337, 0.7610843696), abs=1e-9)


# ------------------------------------------------------------------ Henderson by CG
def _random_design(seed: int, n: int, k: int, per_unit: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    unit = np.repeat(np.arange(n), per_unit)
    rater = np.concatenate([rng.choice(k, per_unit, replace=False) for _ in range(n)])
    score = rng.normal(size=n)[unit] + rng.normal(size=k)[rater] + rng.normal(size=unit.size)
    return unit, rater, score


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_conjugate_gradients_equal_the_direct_solve(seed: int) -> None:
    unit, rater, score = _random_design(seed, 400, 60, 4)
    z = score - score.mean()
    direct = _henderson.long_sums(unit, rater, z, 400, 60, complete=False)
    cg = _henderson.long_sums(unit, rater, z, 400, 60, complete=False, direct_raters=0,
                              dense_raters=0)
    assert direct.solver == "dense" and cg.solver.startswith("conjugate gradients")
    assert "C formed" not in cg.solver  # a random design converges within a few iterations
    assert cg.ssc == pytest.approx(direct.ssc, rel=1e-10)


def test_a_chain_of_raters_forms_c_and_agrees_with_the_direct_solve() -> None:
    """Raters in a ring (unit i scored by raters j, j + 1, j + 2): slow for conjugate
    gradients through the incidence, so C is formed after a few iterations."""
    rng = np.random.default_rng(7)
    n, k = 3000, 400
    unit = np.repeat(np.arange(n), 3)
    rater = (np.repeat(rng.integers(0, k, n), 3) + np.tile([0, 1, 2], n)) % k
    z = rng.normal(size=unit.size)
    z -= z.mean()
    direct = _henderson.long_sums(unit, rater, z, n, k, complete=False, direct_raters=k)
    assert direct.solver == "dense"
    cg = _henderson.long_sums(unit, rater, z, n, k, complete=False, direct_raters=0,
                              dense_raters=0)
    assert cg.solver.endswith("C formed)")
    assert cg.ssc == pytest.approx(direct.ssc, rel=1e-10)
    late = _henderson.long_sums(unit, rater, z, n, k, complete=False)  # 400 > 200 raters
    assert late.solver == "dense (after 40 conjugate-gradient iterations)"
    assert late.ssc == pytest.approx(direct.ssc, rel=1e-12)


def test_a_disconnected_design_is_found_on_either_route() -> None:
    unit = np.repeat(np.arange(6), 2)
    rater = np.array([0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3])
    z = np.arange(12.0) - 5.5
    for limit in (200, 0):
        sums = _henderson.long_sums(unit, rater, z, 6, 4, complete=False, direct_raters=limit)
        assert math.isnan(sums.ssc) and sums.why == _henderson.DISCONNECTED
    ann = accord.Annotations.from_long({"u": unit.tolist(), "r": rater.tolist(),
                                        "v": (z % 5).tolist()}, unit="u", rater="r", value="v")
    with pytest.raises(DataError, match=r"disconnected design\); use form='ICC1'"):
        accord.icc(ann, form="ICC3")
    assert math.isfinite(accord.icc(ann, form="ICC1").estimate)


# ------------------------------------------------------------------ one pass
def test_six_forms_share_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = _henderson.long_sums

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    import accord.tables.rating_matrix as module

    monkeypatch.setattr(module, "long_sums", counted)
    rng = np.random.default_rng(4)
    x = rng.normal(size=(50, 5)) + rng.normal(size=(50, 1))
    x[rng.random(x.shape) < 0.2] = np.nan
    rm = RatingMatrix(x)
    values = [accord.icc(rm, form=f).estimate for f in FORMS]
    assert len(calls) == 1 and all(math.isfinite(v) for v in values)


# ------------------------------------------------------------------ resampling
def test_resampling_features_are_the_dense_layout() -> None:
    """The bootstrap's per-unit features from long arrays equal the dense ones
    (:meth:`RatingMatrix.features` of the matrix of units with two scores)."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(30, 4)) + rng.normal(size=(30, 1))
    x[rng.random(x.shape) < 0.3] = np.nan
    x[0, 1:] = np.nan  # a unit with one score, left out
    res = accord.icc(RatingMatrix(x, units=[f"u{i}" for i in range(30)]), form="ICC2")
    dense, _ = RatingMatrix(x).rated(2).features()
    rs = res.resampling()  # type: ignore[misc]
    np.testing.assert_allclose(rs.features, dense, rtol=0, atol=1e-12)
    assert rs.unit_ids is not None and "u0" not in rs.unit_ids
    assert len(rs.unit_ids) == res.n_units < 30
    one_way = accord.icc(_from_long(x), form="ICC1").resampling()  # type: ignore[misc]
    assert one_way.features.shape[1] == 6
    assert one_way.full() == pytest.approx(accord.icc(x, form="ICC1").estimate, abs=1e-13)


def _crowd(n_units: int, n_raters: int, per_unit: int, seed: int = 0) -> accord.Annotations:
    unit, rater, score = _random_design(seed, n_units, n_raters, per_unit)
    import polars as pl

    frame = pl.DataFrame({"u": unit, "r": rater, "v": np.round(score, 3)})
    return accord.Annotations.from_long(frame, unit="u", rater="r", value="v",
                                        level="interval")


def test_bootstrap_on_a_crowd_refuses_the_two_way_forms_and_runs_the_one_way() -> None:
    ann = _crowd(20_000, 3_000, 5)
    res = accord.icc(ann, form="ICC2")
    assert FEATURE_BUDGET < 20_000 * (6 + 3 * 3000 + 3000**2)
    assert res.details["solver"].startswith("conjugate gradients")
    f_interval = res.confidence_interval(0.95)
    assert f_interval.low < res.estimate < f_interval.high
    with pytest.raises(InvalidParameterError, match=r"use the F interval .* ICC1 / ICC1k"):
        res.confidence_interval(0.95, method=accord.Bootstrap(n_resamples=99, rng=1))
    one = accord.icc(ann, form="ICC1")
    boot = one.confidence_interval(0.95, method=accord.Bootstrap(n_resamples=199, rng=1))
    assert boot.low < one.estimate < boot.high


# ------------------------------------------------------------------ memory
def test_icc_of_a_crowd_never_builds_units_x_raters() -> None:
    """10^4 raters, 5 * 10^4 units, 4 ratings each: tracemalloc's peak stays far below
    the units x raters x 8 bytes (4 GB) of a dense matrix; all six forms and the F
    interval run."""
    units, raters = 50_000, 10_000
    ann = _crowd(units, raters, 4, seed=6)
    assert ann.n_raters == raters
    tracemalloc.start()
    try:
        rm = RatingMatrix.from_annotations(ann)
        out = [accord.icc(rm, form=f) for f in FORMS]
        ci = out[1].confidence_interval(0.95)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < units * raters * 8 / 50, f"peak {peak / 2**20:.0f} MiB"
    assert all(0.0 < r.estimate < 1.0 for r in out) and ci.low < out[1].estimate < ci.high


def test_the_report_on_interval_crowd_data_gives_icc_with_its_f_interval() -> None:
    """300 raters, 4 of them per unit: ICC(2,1) and its F interval are in the report; with
    bootstrap intervals the ICC row says why it has none (the per-unit features of 300
    raters), and alpha keeps its bootstrap interval."""
    ann = _crowd(6_000, 300, 4, seed=8)
    rep = accord.report(ann)
    icc = next(r for r in rep.results if r.coefficient == "icc")
    row = next(r for r in rep.coefficients if r.coefficient == "icc")
    assert icc.details["form"] == "ICC2" and icc.details["design"] == "incomplete"
    assert row.ci_low < icc.estimate < row.ci_high and row.method == "F-satterthwaite"
    boot = accord.report(ann, method="bootstrap", n_resamples=99, seed=1)
    row = next(r for r in boot.coefficients if r.coefficient == "icc")
    assert math.isnan(row.ci_low) and "use the F interval" in str(row.ci_note)
    alpha = next(r for r in boot.coefficients if r.coefficient == "krippendorff_alpha")
    assert alpha.ci_low < alpha.estimate < alpha.ci_high


def test_long_matrix_views_equal_the_dense_ones() -> None:
    """From Annotations: ``values`` is the units x raters matrix of the wide codes,
    ``rated`` and ``feature_sums`` agree with the dense matrix's."""
    rng = np.random.default_rng(9)
    x = rng.integers(0, 7, (40, 5)).astype(float)
    x[rng.random(x.shape) < 0.35] = np.nan
    x[:, 0] = np.where(np.isnan(x).all(axis=1), 3.0, x[:, 0])  # no empty unit
    ann = accord.Annotations.from_wide(x.tolist(), level="interval")
    rm = RatingMatrix.from_annotations(ann)
    lookup = np.append(np.asarray(ann.categories, dtype=float), np.nan)
    np.testing.assert_array_equal(rm.values, lookup[ann.wide()])
    dense = RatingMatrix(rm.values)
    assert rm.n_ratings == dense.n_ratings == int((~np.isnan(x)).sum())
    np.testing.assert_array_equal(rm.rated(3).values, dense.rated(3).values)
    feats, _ = dense.features()
    np.testing.assert_allclose(rm.feature_sums(), feats.sum(axis=0), rtol=1e-12, atol=1e-12)


def test_average_forms_of_incomplete_designs_say_how_many_ratings_units_had() -> None:
    """ICCk steps ICC up to all k raters (psych's k); on a sparse design the note gives
    the Spearman-Brown step-up (Shrout & Fleiss 1979, eq. for ICC(., k)) to the mean
    ratings per unit, computed here by hand from the single form."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 1)) + rng.normal(size=(300, 40))
    x[rng.random((300, 40)) < 0.9] = np.nan
    x = x[(~np.isnan(x)).sum(axis=1) >= 2]
    m = float((~np.isnan(x)).sum() / x.shape[0])
    for single, average in (("ICC1", "ICC1k"), ("ICC2", "ICC2k"), ("ICC3", "ICC3k")):
        rho = accord.icc(x, form=single).estimate
        res = accord.icc(x, form=average)
        assert res.details["ratings_per_unit"] == pytest.approx(m, rel=1e-12)
        assert res.estimate == pytest.approx(40 * rho / (1 + 39 * rho), rel=1e-12)
        at_m = m * rho / (1 + (m - 1) * rho)
        assert f"has reliability {at_m:.4f}" in res.details["note"]
        assert f"units had {m:.1f} ratings on average" in res.details["note"]
    complete = rng.normal(size=(30, 1)) + rng.normal(size=(30, 4))
    assert "note" not in accord.icc(complete, form="ICC2k").details
    few_missing = complete.copy()
    few_missing[0, 0] = np.nan
    assert "note" not in accord.icc(few_missing, form="ICC2k").details  # 3.97 of 4 raters


def test_the_note_is_printed_by_compute_and_the_report(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    rows = ["unit,rater,score"]
    for u in range(200):
        for r in rng.choice(30, size=3, replace=False):
            rows.append(f"u{u},r{r},{rng.normal() + u % 7:.3f}")
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(rows) + "\n")
    code, out, err = run_cli("compute", str(path), "--unit", "unit", "--rater", "rater",
                             "--value", "score", "--level", "interval", "--coefficient",
                             "icc", "--form", "ICC2k")
    assert code == 0, err
    assert "icc: ICC2k is the reliability of the mean of all 30 raters" in " ".join(out.split())
    ann = accord.read(path, unit="unit", rater="rater", value="score", level="interval")
    md = accord.report(ann, coefficients=["icc"], form="ICC2k").to_markdown()
    assert "units had 3.0 ratings on average" in " ".join(md.split())


def test_the_report_names_the_icc_form() -> None:
    """The ICC row says which of the six forms it is, in both namings."""
    x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
                  [6, 2, 4, 7]], dtype=float)  # Shrout & Fleiss (1979), Table 2
    ann = accord.Annotations.from_wide(x, level="interval")
    for form, label in (("ICC2", "ICC2 = ICC(A,1)"), ("ICC3k", "ICC3k = ICC(C,k)")):
        row = next(r for r in accord.report(ann, coefficients=["icc"], form=form).coefficients)
        assert row.label == f"Intraclass correlation (ICC, {label})"


def test_a_zero_denominator_is_undefined_with_its_reason_on_both_paths() -> None:
    """ICC(A,1) of [[1, 2], [2, 1]] plus a unit rated once: MSR = MSC = 0, MSE = 1, so
    its numerator is -1 over a denominator of exactly 0 (Shrout & Fleiss's formula 2).
    The dense algebra gave -inf and the long path nan; both are undefined, with a reason
    that names the zero denominator rather than 0/0."""
    x = np.array([[1.0, 2.0, np.nan], [2.0, 1.0, np.nan], [np.nan, np.nan, 1.0]])
    ms, k = _dense_mean_squares(x)
    assert math.isnan(float(_estimate(ms, form_of("ICC2"), k)[0]))
    for data in (x, _from_long(x)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            res = accord.icc(data, form="ICC2")
        assert math.isnan(res.estimate)
        assert "denominator" in str(res.undefined_reason)


def test_a_rater_effect_that_explains_every_difference_is_undefined() -> None:
    """The design above from the array and from long data: ICC3 is nan with its reason
    (targets and residual both 0), never the 1.0 that rounding noise once gave."""
    x = _matrix(_ONE_RATER_CONSTANT)
    with pytest.warns(DegenerateDataWarning):
        results = [accord.icc(data, form="ICC3") for data in (x, _from_long(x))]
    for res in results:
        assert math.isnan(res.estimate)
        assert res.details["ms_rows"] == 0.0
        assert "each rater only adds a constant" in res.undefined_reason
