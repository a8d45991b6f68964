"""Intraclass correlations: Shrout & Fleiss (1979), psych, irr, pingouin and incomplete designs.

Sources of the expected numbers:

- Shrout & Fleiss (1979), Table 2 data; full-precision values of R psych 2.5.3
  ``ICC(sf, lmer = FALSE)`` as recorded in ../shared/reference/cases.json (F, df, p, CI);
  the published ICC(2,k) = .62 (Table 4);
- R irr 0.84.1's agreement F test on the same data (cases.json "also": df2 4.785..., p .0113);
- pingouin 0.7.0 ``intraclass_corr``, run here on random complete data (all six forms, CIs);
- incomplete designs: statsmodels 0.15 OLS ANOVA with type II sums of squares (the Henderson
  Method III reductions) and type I one-way sums of squares, with the expected-mean-square
  coefficients computed independently in the test from projection matrices.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pingouin
import pytest
import statsmodels.formula.api as smf
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.anova import anova_lm

import accord
from accord import RatingMatrix
from accord.coefficients.intraclass import FORMS
from accord.errors import (
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)
from accord.tables.rating_matrix import mean_squares

SF = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]

# psych 2.5.3 ICC(sf), via cases.json: icc, F, df1, df2, p, 95% CI.
PSYCH = {
    "ICC1": (0.1657417684, 1.794678492, 5, 18, 0.1647688083, -0.1329323249, 0.7225600623),
    "ICC2": (0.2897637795, 11.02724796, 5, 15, 0.0001345665165, 0.01878651337, 0.7610843696),
    "ICC3": (0.7148407148, 11.02724796, 5, 15, 0.0001345665165, 0.342464765, 0.94585826),
    "ICC1k": (0.4427971337, 1.794678492, 5, 18, 0.1647688083, -0.8844421552, 0.9124154203),
    "ICC3k": (0.9093155424, 11.02724796, 5, 15, 0.0001345665165, 0.6756747138, 0.9858916782),
}
PINGOUIN_TYPES = {"ICC1": "ICC(1,1)", "ICC2": "ICC(A,1)", "ICC3": "ICC(C,1)",
                  "ICC1k": "ICC(1,k)", "ICC2k": "ICC(A,k)", "ICC3k": "ICC(C,k)"}


@pytest.mark.parametrize("form", sorted(PSYCH))
def test_shrout_fleiss_table_2_against_psych(form: str) -> None:
    icc, f, df1, df2, p, low, high = PSYCH[form]
    res = accord.icc(SF, form=form)
    assert res.estimate == pytest.approx(icc, abs=1e-9)
    assert res.details["F"] == pytest.approx(f, abs=1e-8)
    assert (res.details["df1"], res.details["df2"]) == (df1, df2)
    assert res.details["pvalue"] == pytest.approx(p, abs=1e-10)
    ci = res.confidence_interval(0.95)
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-9)
    assert ci.method == res.details["ci_method"]


def _pingouin(df: pd.DataFrame) -> pd.DataFrame:
    """pingouin 0.7.0's table; its pandas deprecation warnings are not ours to assert."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pingouin.intraclass_corr(df, "t", "r", "s").set_index("Type")


def _quiet_icc(x: np.ndarray, form: str) -> float:
    """The estimate, nan when undefined (the warning is asserted in its own test)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return accord.icc(x, form=form).estimate


def test_shrout_fleiss_icc2k() -> None:
    res = accord.icc(SF, form="ICC2k")
    assert round(res.estimate, 2) == 0.62  # Shrout & Fleiss (1979), Table 4
    df = pd.DataFrame([(i, j, v) for i, row in enumerate(SF) for j, v in enumerate(row)],
                      columns=["t", "r", "s"])
    row = _pingouin(df).loc["ICC(A,k)"]
    assert res.estimate == pytest.approx(row["ICC"], abs=1e-13)  # pingouin 0.7.0
    ci = res.confidence_interval(0.95)  # pingouin rounds its CI95 to 2 decimals
    assert (ci.low, ci.high) == pytest.approx(tuple(row["CI95"]), abs=0.005 + 1e-12)


def test_irr_figures_are_recorded_for_the_agreement_forms() -> None:
    res = accord.icc(SF, form="ICC2")
    # irr 0.84.1 tests the agreement ICC with the Satterthwaite df of its interval.
    assert res.details["irr_df2"] == pytest.approx(4.78514386221276, abs=1e-10)
    assert res.details["irr_pvalue"] == pytest.approx(0.0112698600525559, abs=1e-12)
    assert res.details["df2"] == 15  # psych: (n - 1)(k - 1)
    avg = accord.icc(SF, form="ICC2k").details
    assert "irr_interval" in avg and avg["irr_interval"][0] < avg["irr_interval"][1]


@pytest.mark.parametrize("seed", [1, 2])
def test_all_six_forms_match_pingouin(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(30, 1)) * 1.3 + rng.normal(size=(30, 5)) + np.arange(5) * 0.4
    df = pd.DataFrame([(i, j, x[i, j]) for i in range(30) for j in range(5)],
                      columns=["t", "r", "s"])
    table = _pingouin(df)  # pingouin 0.7.0
    for form, name in PINGOUIN_TYPES.items():
        res = accord.icc(x, form=form)
        row = table.loc[name]
        assert res.estimate == pytest.approx(row["ICC"], abs=1e-12)
        assert res.details["F"] == pytest.approx(row["F"], rel=1e-12)
        assert (res.details["df1"], res.details["df2"]) == (row["df1"], row["df2"])
        assert res.details["pvalue"] == pytest.approx(row["pval"], rel=1e-9)
        ci = res.confidence_interval(0.95)  # pingouin rounds CI95 to 2 decimals
        assert (ci.low, ci.high) == pytest.approx(tuple(row["CI95"]), abs=0.005 + 1e-12)


def test_forms_by_either_name_and_any_case() -> None:
    for form in FORMS.values():
        a = accord.icc(SF, form=form.name)
        b = accord.icc(SF, form=form.mcgraw_wong.lower())
        assert a.estimate == b.estimate
        assert a.details["form"] == form.name and b.details["mcgraw_wong"] == form.mcgraw_wong
        assert a.coefficient == "icc"
    with pytest.raises(InvalidParameterError, match="'form' parameter of icc"):
        accord.icc(SF, form="ICC4")


def test_interval_at_any_level() -> None:
    res = accord.icc(SF, form="ICC3")
    narrow, wide = res.confidence_interval(0.5), res.confidence_interval(0.99)
    assert wide.low < narrow.low < res.estimate < narrow.high < wide.high


# ------------------------------------------------------------------ incomplete designs
def _incomplete(seed: int, n: int = 25, k: int = 4, missing: float = 0.25) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 1)) * 1.5 + rng.normal(size=(n, k)) + np.arange(k) * 0.7
    x[rng.random(x.shape) < missing] = np.nan
    return x


def _long(x: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame([(i, j, x[i, j]) for i in range(x.shape[0]) for j in range(x.shape[1])
                         if not np.isnan(x[i, j])], columns=["t", "r", "y"])


def _projection(m: np.ndarray) -> np.ndarray:
    return m @ np.linalg.pinv(m)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_incomplete_two_way_is_henderson_method_3(seed: int) -> None:
    x = RatingMatrix(_incomplete(seed)).rated(2).values
    df = _long(x)
    # statsmodels 0.15: type II SS of the additive model = R(targets | raters), R(raters | targets)
    table = anova_lm(smf.ols("y ~ C(t) + C(r)", df).fit(), typ=2)
    ms_t, ms_r, ms_e = (table.loc[name, "sum_sq"] / table.loc[name, "df"]
                        for name in ("C(t)", "C(r)", "Residual"))
    # coefficients of s2_t and s2_r in E[R(t | r)] and E[R(r | t)], from projections
    a = pd.get_dummies(df["t"]).to_numpy(float)
    b = pd.get_dummies(df["r"]).to_numpy(float)
    big_n, n, k = len(df), a.shape[1], b.shape[1]
    t_a = big_n - np.trace(a.T @ _projection(b) @ a)
    t_b = big_n - np.trace(b.T @ _projection(a) @ b)
    s2_t = (ms_t - ms_e) * (n - 1) / t_a
    s2_r = (ms_r - ms_e) * (k - 1) / t_b
    res2 = accord.icc(x, form="ICC2")
    res3 = accord.icc(x, form="ICC(C,1)")
    assert res2.estimate == pytest.approx(s2_t / (s2_t + s2_r + ms_e), abs=1e-12)
    assert res3.estimate == pytest.approx(s2_t / (s2_t + ms_e), abs=1e-12)
    assert res3.details["F"] == pytest.approx(ms_t / ms_e, rel=1e-12)
    assert res3.details["df2"] == table.loc["Residual", "df"]
    assert res2.details["design"] == "incomplete"
    assert res2.details["method"] == "Henderson method III"
    k4 = accord.icc(x, form="ICC2k").estimate
    rho = res2.estimate
    assert k4 == pytest.approx(k * rho / (1 + (k - 1) * rho), abs=1e-13)


@pytest.mark.parametrize("seed", [6, 7])
def test_incomplete_one_way_uses_unequal_group_sizes(seed: int) -> None:
    x = RatingMatrix(_incomplete(seed)).rated(2).values
    df = _long(x)
    table = anova_lm(smf.ols("y ~ C(t)", df).fit())  # statsmodels 0.15, one-way
    msb = table.loc["C(t)", "mean_sq"]
    msw = table.loc["Residual", "mean_sq"]
    sizes = df.groupby("t").size().to_numpy(float)
    n0 = (sizes.sum() - (sizes**2).sum() / sizes.sum()) / (len(sizes) - 1)
    res = accord.icc(x, form="ICC1")
    # Searle, Casella & McCulloch (1992), sec. 3.6: s2_t = (MSB - MSW) / n0
    assert res.estimate == pytest.approx((msb - msw) / (msb + (n0 - 1) * msw), abs=1e-12)
    assert res.details["n0"] == pytest.approx(n0, abs=1e-12)
    assert res.details["F"] == pytest.approx(msb / msw, rel=1e-12)
    ci = res.confidence_interval(0.95)
    assert ci.low < res.estimate < ci.high


def test_incomplete_formulas_reduce_to_the_complete_ones() -> None:
    rm = RatingMatrix(SF)
    feats, k = rm.features()
    r = np.ones((feats.shape[0], k))
    n_i = r.sum(axis=1)
    mean = feats[:, 3] / n_i
    outer = (r[:, :, None] * r[:, None, :]).reshape(-1, k * k) / n_i[:, None]
    layout = np.column_stack([feats, r, mean[:, None] * r, outer])  # incomplete layout
    general = mean_squares(layout.sum(axis=0)[None, :], k, complete=False)
    textbook = mean_squares(feats.sum(axis=0)[None, :], k, complete=True)
    for name in ("ms_rows", "ms_cols", "ms_error", "k_rows", "k_cols"):
        assert getattr(general, name) == pytest.approx(getattr(textbook, name), rel=1e-12)


def test_units_with_one_score_are_left_out() -> None:
    data = [row[:] for row in SF] + [[5, None, None, None]]
    res = accord.icc(data, form="ICC3")
    assert res.details["n_units_dropped"] == 1 and res.n_units == 6
    assert res.estimate == pytest.approx(PSYCH["ICC3"][0], abs=1e-9)


def test_disconnected_design_is_an_error() -> None:
    x = np.full((10, 4), np.nan)
    rng = np.random.default_rng(8)
    x[:5, :2] = rng.normal(size=(5, 2))
    x[5:, 2:] = rng.normal(size=(5, 2))
    with pytest.raises(DataError, match="disconnected design"):
        accord.icc(x, form="ICC2")
    assert math.isfinite(accord.icc(x, form="ICC1").estimate)


# ------------------------------------------------------------------ bad input, undefined
def test_bad_input_gives_one_clear_sentence() -> None:
    with pytest.raises(InsufficientDataError, match="at least two raters"):
        accord.icc(np.array([[1.0], [2.0], [3.0]]))
    with pytest.raises(InsufficientDataError, match="at least two units"):
        accord.icc([[1, 2, 3]])
    with pytest.raises(DataError, match="not a number"):
        accord.icc([["a", "b"], ["c", "a"]])


def test_zero_variance_is_undefined() -> None:
    for form in FORMS:
        with pytest.warns(DegenerateDataWarning, match="every score is the same"):
            res = accord.icc([[4, 4, 4], [4, 4, 4], [4, 4, 4]], form=form)
        assert math.isnan(res.estimate) and res.undefined_reason
        assert math.isnan(res.confidence_interval().low)
    flat = pd.DataFrame([(i, j, 4.0) for i in range(3) for j in range(3)],
                        columns=["t", "r", "s"])
    assert _pingouin(flat)["ICC"].isna().all()  # pingouin 0.7.0: nan, without a reason


def test_perfect_consistency_with_rater_offsets() -> None:
    x = np.array([[1.0, 3.0], [2.0, 4.0], [5.0, 7.0], [4.0, 6.0]])
    res = accord.icc(x, form="ICC3")
    assert res.estimate == pytest.approx(1.0, abs=1e-12)
    assert res.details["F"] == math.inf and res.details["pvalue"] == 0.0
    assert res.confidence_interval().low == 1.0
    assert accord.icc(x, form="ICC2").estimate < 1.0


# ------------------------------------------------------------------ resampling
@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("complete", [True, False])
def test_resampling_full_equals_estimate(form: str, complete: bool) -> None:
    x = np.array(SF, dtype=float) if complete else _incomplete(9, n=20)
    res = accord.icc(x, form=form)
    assert res.resampling is not None
    assert res.resampling().full() == pytest.approx(res.estimate, abs=1e-13)
    ci = res.confidence_interval(0.9, method=accord.Bootstrap(n_resamples=300, rng=2))
    assert ci.n_excluded <= 300 and ci.low <= ci.high


# ------------------------------------------------------------------ properties
scores = st.integers(3, 12).flatmap(lambda n: st.lists(
    st.lists(st.integers(0, 9), min_size=3, max_size=3), min_size=n, max_size=n))


def _varies(data: list[list[int]]) -> bool:
    return len({v for row in data for v in row}) > 1


@given(scores, st.sampled_from(sorted(FORMS)), st.randoms(use_true_random=False))
def test_unit_and_rater_order_do_not_matter(data: list[list[int]], form: str,
                                            rnd: object) -> None:
    if not _varies(data):
        return
    x = np.array(data, dtype=float)
    base = _quiet_icc(x, form)
    rows = list(range(x.shape[0]))
    rnd.shuffle(rows)  # type: ignore[attr-defined]
    other = _quiet_icc(x[rows][:, [2, 0, 1]], form)
    assert other == pytest.approx(base, abs=1e-9, nan_ok=True)


@given(st.lists(st.integers(0, 9), min_size=2, max_size=20), st.integers(2, 5),
       st.sampled_from(sorted(FORMS)))
def test_perfect_agreement_is_one(truth: list[int], raters: int, form: str) -> None:
    if len(set(truth)) < 2:
        return
    x = np.repeat(np.array(truth, dtype=float)[:, None], raters, axis=1)
    assert accord.icc(x, form=form).estimate == pytest.approx(1.0, abs=1e-12)


@given(scores, st.sampled_from(sorted(FORMS)), st.floats(0.1, 10), st.floats(-50, 50))
def test_linear_rescaling_does_not_matter(data: list[list[int]], form: str, scale: float,
                                          shift: float) -> None:
    if not _varies(data):
        return
    x = np.array(data, dtype=float)
    base = _quiet_icc(x, form)
    assert _quiet_icc(x * scale + shift, form) == pytest.approx(base, abs=1e-8, nan_ok=True)


def test_average_agreement_form_with_a_zero_denominator_is_undefined_in_any_order() -> None:
    """Exactly, MSR = 16/9, MSC = 43/9, MSE = 91/9, so MSR + (MSC - MSE)/n = 0 and
    ICC(A,k) is 0/0 by psych's formula; in floating point the denominator is 2e-15 or
    0 depending on the unit order, which once gave -6.8e15 or nan."""
    x = np.array([[5, 6, 6], [2, 8, 7], [7, 6, 0]], dtype=float)
    for order in ([0, 1, 2], [2, 1, 0], [1, 0, 2]):
        with pytest.warns(DegenerateDataWarning, match="average-measure ICC is undefined"):
            res = accord.icc(x[order], form="ICC2k")
        assert math.isnan(res.estimate)
    assert accord.icc(x, form="ICC2").estimate == pytest.approx((16 - 91) / (16 + 2 * 91 + 43 - 91))


def test_irr_figures_that_overflow_are_nan_without_a_warning() -> None:
    """irr's Satterthwaite df is 0.008 here, so its F quantile is infinite and its ICC(A,k)
    lower limit inf/inf: NaN, as R gives, and no RuntimeWarning."""
    x = np.array([[0, 5, 2], [1, 6, 3], [9, 7, 0]], dtype=float)
    res = accord.icc(x, form="ICC2k")  # warnings are errors in this suite
    assert res.estimate == pytest.approx(-0.4, abs=1e-12)
    assert math.isnan(res.details["irr_interval"][0])


@pytest.mark.parametrize(("scale", "shift"), [(1.0, 0.0), (1.0, 1.0), (2.0, 0.0), (3.7, -41.0)])
def test_consistency_icc_without_target_or_error_variance_is_undefined(scale: float,
                                                                       shift: float) -> None:
    """Every target scored [0, 0, 1]: MSR = MSE = 0 exactly, so ICC(3,1) is 0/0. Rounding
    once left MSE = 1e-16 for some shifts (ICC -0.5) and 0 for others (nan)."""
    x = np.array([[0, 0, 1]] * 3, dtype=float) * scale + shift
    with pytest.warns(DegenerateDataWarning, match="each rater only adds a constant"):
        assert math.isnan(accord.icc(x, form="ICC3").estimate)
    # ICC(1,1) sees only within-target variance: (0 - MSW) / (0 + 2 MSW) = -1/2
    assert accord.icc(x, form="ICC1").estimate == pytest.approx(-0.5, abs=1e-12)
    assert accord.icc(x, form="ICC2").estimate == pytest.approx(0.0, abs=1e-12)
