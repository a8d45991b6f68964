"""Independent batches: accord.compare without shared units, and accord.homogeneity.

Sources named per test:
- the delta-method difference is recomputed by hand from each kappa's
  Fleiss-Cohen-Everitt SE (itself checked against R irr elsewhere);
- the independent bootstrap is checked against a naive loop that resamples each
  batch's raw units on its own and recounts kappa with scikit-learn's
  ``cohen_kappa_score``;
- the homogeneity statistic against statsmodels 0.15 ``combine_effects`` (its
  Cochran's Q, ``q``), and against a by-hand computation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.meta_analysis import combine_effects

import accord
from accord.errors import DataError, InvalidParameterError
from accord.inference.results import AgreementResult


def _batch(prefix: str, n: int, agree: float, seed: int) -> tuple[accord.Annotations, tuple]:
    """Two raters on ``n`` units named ``prefix0..``; the second copies the first w.p. agree."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = np.where(rng.random(n) < agree, a, rng.integers(0, 3, n))
    rows = [(f"{prefix}{i}", r, int(x)) for i in range(n) for r, x in (("A", a[i]), ("B", b[i]))]
    return accord.Annotations.from_long(rows, unit=0, rater=1, value=2), (a, b)


def test_no_shared_units_is_an_independent_comparison_by_the_delta_method() -> None:
    pilot, _ = _batch("p", 80, 0.6, 1)
    batch, _ = _batch("b", 120, 0.85, 2)
    ka, kb = accord.cohen_kappa(batch), accord.cohen_kappa(pilot)
    d = accord.compare(ka, kb, method="asymptotic")
    assert d.design == "independent" and d.n_shared == 0 and d.n_units == 200
    se = math.sqrt(ka.se**2 + kb.se**2)  # by hand: independent estimates
    z = stats.norm.ppf(0.975)
    assert d.difference == pytest.approx(ka.estimate - kb.estimate, abs=1e-15)
    assert d.interval.low == pytest.approx(d.difference - z * se, abs=1e-14)
    assert d.interval.high == pytest.approx(d.difference + z * se, abs=1e-14)
    assert d.pvalue == pytest.approx(2 * stats.norm.sf(abs(d.difference) / se), abs=1e-14)
    assert d.interval_a == ka.confidence_interval()
    assert d.to_dict()["design"] == "independent"


def test_independent_bootstrap_matches_a_naive_loop_over_raw_units() -> None:
    pilot, (pa, pb) = _batch("p", 40, 0.6, 3)
    batch, (ba, bb) = _batch("b", 50, 0.85, 4)
    n_res = 300
    d = accord.compare(accord.cohen_kappa(batch), accord.cohen_kappa(pilot),
                       method=accord.Bootstrap(n_resamples=n_res, rng=5))
    # The library draws resamples over distinct patterns; a raw-unit loop with its own
    # generator gives another Monte-Carlo sample, so compare the two distributions'
    # spread and centre, not draw by draw.
    rng = np.random.default_rng(11)
    loop = []
    for _ in range(2000):
        i, j = rng.integers(0, ba.size, ba.size), rng.integers(0, pa.size, pa.size)
        loop.append(cohen_kappa_score(ba[i], bb[i]) - cohen_kappa_score(pa[j], pb[j]))
    reps = d.interval.replicates
    assert reps is not None and reps.size == n_res - d.n_excluded
    assert np.std(reps, ddof=1) == pytest.approx(np.std(loop, ddof=1), rel=0.15)
    assert np.mean(reps) == pytest.approx(np.mean(loop), abs=0.03)
    assert d.interval.low < d.difference < d.interval.high
    assert d.interval.method == "bootstrap-percentile" and d.design == "independent"


def test_the_bootstrap_replicates_are_the_difference_of_each_batchs_own() -> None:
    pilot, _ = _batch("p", 60, 0.5, 6)
    batch, _ = _batch("b", 70, 0.8, 7)
    ka, kb = accord.cohen_kappa(batch), accord.cohen_kappa(pilot)
    d = accord.compare(ka, kb, method=accord.Bootstrap(n_resamples=500, rng=8))
    assert d.interval_a is not None and d.interval_b is not None
    ra, rb = d.interval_a.replicates, d.interval_b.replicates
    assert ra is not None and rb is not None and d.interval.replicates is not None
    np.testing.assert_allclose(d.interval.replicates, ra - rb, atol=0)
    assert d.interval.low == pytest.approx(np.quantile(ra - rb, 0.025), abs=1e-15)
    # each side's interval is that result's own bootstrap from the same stream
    gen = np.random.default_rng(8)
    own = ka.confidence_interval(method=accord.Bootstrap(n_resamples=500, rng=gen))
    assert own.low == d.interval_a.low and own.high == d.interval_a.high


def test_the_leads_sentence() -> None:
    a = AgreementResult("cohen_kappa", 0.71, math.nan, math.nan, 0.0255, 300, 2)
    b = AgreementResult("cohen_kappa", 0.58, math.nan, math.nan, 0.0408, 120, 2)
    d = accord.compare(a, b, design="independent")  # tables: the delta method
    assert d.interval.method == "asymptotic"
    assert d.sentence("batch 3", "the pilot") == (
        "batch 3 (kappa 0.71, 95% CI 0.66-0.76) is higher than the pilot (0.58, 0.50-0.66) "
        "by 0.13 (0.04-0.22)")
    flat = accord.compare(b, a, design="independent")
    assert flat.sentence("the pilot", "batch 3").startswith(
        "the pilot (kappa 0.58, 95% CI 0.50-0.66) is lower than batch 3")
    close = AgreementResult("cohen_kappa", 0.60, math.nan, math.nan, 0.05, 100, 2)
    assert accord.compare(close, b, design="independent").sentence("x", "y").endswith(
        "by 0.02 (-0.11 to 0.15); the interval includes 0, so the data do not show a difference")


def test_paired_path_is_unchanged_for_shared_units() -> None:
    batch, _ = _batch("b", 40, 0.8, 9)
    ka = accord.cohen_kappa(batch)
    d = accord.compare(ka, accord.fleiss_kappa(batch), method="jackknife")
    assert d.design == "paired" and d.n_shared == 40


def test_refusals_say_what_to_do() -> None:
    pilot, _ = _batch("p", 30, 0.6, 1)
    table = accord.cohen_kappa(accord.ContingencyTable([[20, 5], [5, 20]]))
    with pytest.raises(DataError, match="design='independent'"):
        accord.compare(table, accord.cohen_kappa(pilot))
    with pytest.raises(InvalidParameterError, match="BCa is for paired"):
        accord.compare(table, table, design="independent",
                       method=accord.Bootstrap(kind="bca"))
    # a table's cells are resampled as its units: two tables of two batches can be compared
    tables = accord.compare(table, table, design="independent",
                            method=accord.Bootstrap(n_resamples=200, rng=1))
    assert tables.difference == 0 and tables.interval.low < 0 < tables.interval.high
    bare = AgreementResult("cohen_kappa", 0.5, math.nan, math.nan, 0.1, 50, 2)
    with pytest.raises(DataError, match="summary without units"):
        accord.compare(bare, bare, design="independent", method="jackknife")
    with pytest.raises(InvalidParameterError, match="'design' parameter of compare"):
        accord.compare(table, table, design="both")  # type: ignore[arg-type]
    no_se = accord.compare(accord.krippendorff_alpha(pilot), accord.krippendorff_alpha(
        _batch("q", 30, 0.7, 2)[0]), method="asymptotic")
    assert math.isnan(no_se.difference) or no_se.interval.method == "asymptotic"


def test_homogeneity_matches_statsmodels_cochran_q() -> None:
    batches = [_batch(p, n, agree, s)[0] for p, n, agree, s in
               (("a", 60, 0.5, 1), ("b", 80, 0.7, 2), ("c", 70, 0.9, 3), ("d", 50, 0.6, 4))]
    results = [accord.cohen_kappa(b) for b in batches]
    test = accord.homogeneity(results)
    eff = np.array([r.estimate for r in results])
    var = np.array([r.se**2 for r in results])
    ref = combine_effects(eff, var)  # statsmodels 0.15, fixed-effect Cochran's Q
    assert test.statistic == pytest.approx(ref.q, rel=1e-12)
    assert test.pooled == pytest.approx(ref.mean_effect_fe, rel=1e-12)
    assert test.df == 3
    assert test.pvalue == pytest.approx(stats.chi2.sf(ref.q, 3), rel=1e-12)


def test_homogeneity_by_hand_and_two_groups_is_the_squared_z() -> None:
    # by hand: kappas 0.5, 0.7 with SEs 0.1, 0.2: weights 100, 25; pooled (50+17.5)/125 = 0.54;
    # chi2 = 100*0.04^2 + 25*0.16^2 = 0.16 + 0.64 = 0.8 = (0.2)^2 / (0.01 + 0.04)
    a = AgreementResult("cohen_kappa", 0.5, math.nan, math.nan, 0.1, 50, 2)
    b = AgreementResult("cohen_kappa", 0.7, math.nan, math.nan, 0.2, 50, 2)
    test = accord.homogeneity([a, b])
    assert test.pooled == pytest.approx(0.54, abs=1e-14)
    assert test.statistic == pytest.approx(0.8, abs=1e-14)
    d = accord.compare(a, b, design="independent")
    assert test.pvalue == pytest.approx(d.pvalue, abs=1e-14)


def test_homogeneity_bootstrap_for_any_coefficient() -> None:
    batches = [_batch(p, 60, agree, s)[0] for p, agree, s in (("a", 0.5, 1), ("b", 0.9, 2))]
    results = [accord.krippendorff_alpha(b) for b in batches]
    test = accord.homogeneity(results, method=accord.Bootstrap(n_resamples=400, rng=1))
    assert test.method == "bootstrap" and test.df == 1 and test.pvalue < 0.05
    jack = accord.homogeneity(results, method="jackknife")
    from accord.inference.jackknife import jackknife_se

    assert jack.ses[0] == jackknife_se(results[0].resampling())[0]  # type: ignore[misc]
    with pytest.raises(DataError, match="one coefficient"):
        accord.homogeneity([results[0], accord.cohen_kappa(batches[1])])
    with pytest.raises(InvalidParameterError, match="at least two"):
        accord.homogeneity([results[0]])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.floats(-0.9, 0.95), st.floats(0.01, 0.3)), min_size=2, max_size=6),
       st.randoms(use_true_random=False))
def test_homogeneity_ignores_group_order(groups: list, rnd: object) -> None:
    results = [AgreementResult("cohen_kappa", k, math.nan, math.nan, se, 40, 2)
               for k, se in groups]
    shuffled = list(results)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    one, two = accord.homogeneity(results), accord.homogeneity(shuffled)
    assert one.statistic == pytest.approx(two.statistic, rel=1e-9, abs=1e-12)
    assert one.statistic >= 0


@settings(max_examples=25, deadline=None)
@given(st.floats(-0.9, 0.95), st.floats(-0.9, 0.95), st.floats(0.01, 0.3), st.floats(0.01, 0.3))
def test_swapping_the_batches_mirrors_the_difference(ka: float, kb: float, sa: float,
                                                     sb: float) -> None:
    a = AgreementResult("cohen_kappa", ka, math.nan, math.nan, sa, 40, 2, bounds=(-1, 1))
    b = AgreementResult("cohen_kappa", kb, math.nan, math.nan, sb, 40, 2, bounds=(-1, 1))
    ab, ba = (accord.compare(x, y, design="independent") for x, y in ((a, b), (b, a)))
    assert ab.difference == -ba.difference
    assert ab.interval.low == pytest.approx(-ba.interval.high, abs=1e-12)
    assert ab.pvalue == pytest.approx(ba.pvalue, abs=1e-12)


def test_bootstrap_homogeneity_is_close_to_the_analytic_one_on_large_batches() -> None:
    results = [accord.cohen_kappa(_batch(p, 400, agree, s)[0])
               for p, agree, s in (("a", 0.6, 1), ("b", 0.7, 2), ("c", 0.65, 3))]
    analytic = accord.homogeneity(results)
    boot = accord.homogeneity(results, method=accord.Bootstrap(n_resamples=2000, rng=4))
    for se_a, se_b in zip(analytic.ses, boot.ses):
        assert se_b == pytest.approx(se_a, rel=0.1)
    assert boot.statistic == pytest.approx(analytic.statistic, rel=0.25)


def test_positional_batches_of_different_sizes_name_the_independent_design() -> None:
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 2, 50), rng.integers(0, 2, 40)
    a, b = accord.cohen_kappa(x, x), accord.cohen_kappa(y, 1 - y)
    with pytest.raises(DataError, match="has 50 units .* has 40.*design='independent'"):
        accord.compare(a, b)
    d = accord.compare(a, b, design="independent", method=accord.Bootstrap(n_resamples=200,
                                                                           rng=1))
    assert d.design == "independent" and d.difference == 2.0
