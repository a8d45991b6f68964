"""accord.compare: paired difference of two coefficients on the same units.

The paired bootstrap is checked against a naive loop that resamples raw units
and recomputes both coefficients on the same resampled units; the paired
jackknife against a naive leave-one-unit-out loop. The loops recount kappa from
the raw labels with a small numpy function (``_kappa``) that is itself checked
against scikit-learn 1.9.1 ``cohen_kappa_score`` (sklearn in a 10^3-iteration
loop is too slow for the default suite).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import accord
from accord.coefficients._pairwise_intervals import pairwise_resampling
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError
from accord.inference.bootstrap import Bootstrap
from accord.inference.paired import paired_resampling
from accord.inference.results import AgreementResult


def _kappa(x: np.ndarray, y: np.ndarray, k: int = 3) -> float:
    """Cohen's kappa recounted from raw labels."""
    table = np.bincount(x * k + y, minlength=k * k).reshape(k, k) / x.shape[0]
    po, pe = np.trace(table), table.sum(axis=1) @ table.sum(axis=0)
    return float((po - pe) / (1 - pe))


def test_the_naive_kappa_is_sklearns() -> None:
    for seed in range(5):
        gold, a, _ = _three(30 + seed, seed)
        assert _kappa(gold, a) == pytest.approx(cohen_kappa_score(gold, a), abs=1e-14)


def _three(n: int, seed: int, acc_a: float = 0.85, acc_b: float = 0.6) -> tuple[np.ndarray, ...]:
    """Gold labels and two models that copy gold with different probabilities."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < acc_a, gold, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < acc_b, gold, rng.integers(0, 3, n))
    return gold, a, b


def _long(gold: np.ndarray, a: np.ndarray, b: np.ndarray, drop_b: tuple[int, ...] = ()) -> list:
    rows = []
    for i in range(gold.shape[0]):
        rows += [(f"u{i}", "gold", int(gold[i])), (f"u{i}", "model_a", int(a[i]))]
        if i not in drop_b:
            rows.append((f"u{i}", "model_b", int(b[i])))
    return rows


def test_a_result_compared_with_itself_differs_by_zero() -> None:
    res = accord.cohen_kappa(*_three(100, 0)[:2])
    for method in (Bootstrap(999, rng=0), Bootstrap(999, kind="bca", rng=0), "jackknife"):
        cmp = accord.compare(res, res, method=method)  # type: ignore[arg-type]
        assert cmp.difference == 0.0
        assert cmp.interval.low == 0.0 and cmp.interval.high == 0.0
        assert cmp.pvalue == 1.0 and cmp.n_units == cmp.n_shared == 100


def test_paired_bootstrap_matches_naive_paired_resampling() -> None:
    gold, a, b = _three(150, 1)
    ra, rb = accord.cohen_kappa(gold, a), accord.cohen_kappa(gold, b)
    n_boot = 1500
    cmp = accord.compare(ra, rb, method=Bootstrap(n_boot, rng=2))
    rng = np.random.default_rng(3)
    naive = np.empty(n_boot)
    for i in range(n_boot):
        idx = rng.integers(0, 150, 150)
        naive[i] = _kappa(gold[idx], a[idx]) - _kappa(gold[idx], b[idx])
    fast = cmp.interval.replicates
    assert fast is not None and fast.shape == (n_boot,)
    pooled = np.concatenate([fast, naive])
    for q in (0.025, 0.25, 0.5, 0.75, 0.975):
        sd = math.sqrt(2 * q * (1 - q) / n_boot)
        lo, hi = np.quantile(pooled, [max(q - 4 * sd, 0), min(q + 4 * sd, 1)])
        assert abs(np.quantile(fast, q) - np.quantile(naive, q)) <= hi - lo, q
    # pairing matters: the paired spread is below the spread of independent resampling
    sep = np.hypot(ra.confidence_interval(method=Bootstrap(n_boot, rng=4)).replicates.std(),
                   rb.confidence_interval(method=Bootstrap(n_boot, rng=5)).replicates.std())
    assert fast.std() < sep


def test_paired_jackknife_equals_the_leave_one_out_loop() -> None:
    gold, a, b = _three(60, 6)
    cmp = accord.compare(accord.cohen_kappa(gold, a), accord.cohen_kappa(gold, b),
                         method="jackknife")
    loo = np.array([_kappa(np.delete(gold, i), np.delete(a, i))
                    - _kappa(np.delete(gold, i), np.delete(b, i)) for i in range(60)])
    se = math.sqrt(59 / 60 * np.sum((loo - loo.mean()) ** 2))
    z = 1.959963984540054
    assert cmp.interval.low == pytest.approx(cmp.difference - z * se, rel=1e-12)
    assert cmp.pvalue == pytest.approx(math.erfc(abs(cmp.difference) / se / math.sqrt(2)),
                                       rel=1e-9)


def test_units_are_matched_by_label_with_unequal_unit_sets() -> None:
    gold, a, b = _three(80, 7)
    ann = accord.Annotations.from_long(_long(gold, a, b, drop_b=(3, 10, 11)), unit=0, rater=1,
                                       value=2)
    ra = accord.cohen_kappa(ann, raters=["gold", "model_a"])
    rb = accord.cohen_kappa(ann, raters=["gold", "model_b"])
    assert (ra.n_units, rb.n_units) == (80, 77)
    paired = paired_resampling(ra.resampling(), rb.resampling())
    assert (paired.n_units, paired.n_shared) == (80, 77)
    assert paired.first.full() == pytest.approx(ra.estimate, abs=1e-15)
    assert paired.second.full() == pytest.approx(rb.estimate, abs=1e-15)
    cmp = accord.compare(ra, rb, method=Bootstrap(999, rng=0))
    assert cmp.difference == ra.estimate - rb.estimate
    assert (cmp.n_units, cmp.n_shared) == (80, 77)


def test_unit_order_does_not_matter() -> None:
    gold, a, b = _three(50, 8)
    rows = _long(gold, a, b)
    shuffled = [rows[i] for i in np.random.default_rng(0).permutation(len(rows))]
    r1 = accord.cohen_kappa(accord.Annotations.from_long(rows, unit=0, rater=1, value=2),
                            raters=["gold", "model_a"])
    r2 = accord.cohen_kappa(accord.Annotations.from_long(shuffled, unit=0, rater=1, value=2),
                            raters=["gold", "model_a"])
    cmp = accord.compare(r1, r2, method=Bootstrap(500, rng=1))
    assert cmp.difference == pytest.approx(0.0, abs=1e-15)
    np.testing.assert_allclose(cmp.interval.replicates, 0.0, atol=1e-12)


def test_pairs_with_missing_labels_are_matched_by_position() -> None:
    gold = [0, 1, 1, 0, 1, 0, 1, 1, 0, 0]
    a = [0, 1, None, 0, 1, 0, 1, 1, 0, 1]
    b = [0, 1, 1, 0, 0, 0, 1, None, 0, 0]
    ra, rb = accord.cohen_kappa(gold, a), accord.cohen_kappa(gold, b)
    paired = paired_resampling(ra.resampling(), rb.resampling())
    assert (paired.n_units, paired.n_shared) == (10, 8)
    assert paired.first.full() == pytest.approx(ra.estimate, abs=1e-15)
    assert paired.second.full() == pytest.approx(rb.estimate, abs=1e-15)


def test_errors_are_clear() -> None:
    table = accord.cohen_kappa(accord.ContingencyTable([[20, 5], [5, 20]]))
    res = accord.cohen_kappa(*_three(50, 9)[:2])
    with pytest.raises(DataError, match="summary without units"):
        accord.compare(table, res)
    with pytest.raises(DataError, match="has 50 units .* has 40"):
        accord.compare(res, accord.cohen_kappa(*_three(40, 9)[:2]))
    other = accord.Annotations.from_long([("x", "r1", 1), ("x", "r2", 1), ("y", "r1", 0),
                                          ("y", "r2", 1)], unit=0, rater=1, value=2)
    with pytest.raises(DataError, match="share no unit"):
        accord.compare(res, accord.cohen_kappa(other))
    with pytest.raises(InvalidParameterError, match="'method' parameter of compare"):
        accord.compare(res, res, method="asymptotic")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'confidence_level' parameter of compare"):
        accord.compare(res, res, confidence_level=95)
    with pytest.raises(InvalidParameterError, match="an AgreementResult"):
        accord.compare(res, 0.5)  # type: ignore[arg-type]


def test_undefined_coefficient_gives_an_undefined_difference() -> None:
    with pytest.warns(DegenerateDataWarning):
        flat = accord.cohen_kappa([1, 1, 1, 1, 1], [1, 1, 1, 1, 1])
    ok = accord.cohen_kappa([1, 0, 1, 0, 1], [1, 0, 1, 1, 1])
    cmp = accord.compare(flat, ok, method=Bootstrap(99, rng=0))
    assert math.isnan(cmp.difference) and math.isnan(cmp.pvalue)
    assert "result_a (cohen_kappa) is undefined" in (cmp.undefined_reason or "")
    assert json.loads(json.dumps(cmp.to_dict()))["difference"]["estimate"] is None
    assert "undefined" in str(cmp)


def test_clear_difference_has_a_small_pvalue_and_methods_agree() -> None:
    gold, a, b = _three(400, 10, acc_a=0.9, acc_b=0.5)
    ra, rb = accord.cohen_kappa(gold, a), accord.cohen_kappa(gold, b)
    boot = accord.compare(ra, rb, method=Bootstrap(1999, rng=0))
    jack = accord.compare(ra, rb, method="jackknife")
    assert boot.pvalue == 1 / 2000  # no replicate at or below 0
    assert jack.pvalue < 1e-10
    assert boot.interval.low == pytest.approx(jack.interval.low, abs=0.02)
    assert boot.interval.high == pytest.approx(jack.interval.high, abs=0.02)
    out = boot.to_dict()
    assert out["difference"]["confidence_interval"]["method"] == "bootstrap-percentile"
    assert out["n_units"] == 400 and out["first"]["estimate"] == ra.estimate
    assert "cohen_kappa - cohen_kappa" in str(boot)


def test_mean_pairwise_coefficient_keeps_the_pairs_together() -> None:
    """Light's kappa (mean pairwise Cohen) of two rater panels on the same units."""
    rng = np.random.default_rng(11)
    truth = rng.integers(0, 3, 120)
    panel = np.where(rng.random((120, 6)) < 0.6, truth[:, None], rng.integers(0, 3, (120, 6)))
    first = pairwise_resampling(panel[:, :3], 3)
    second = pairwise_resampling(panel[:, 3:], 3)

    def light(x: np.ndarray) -> float:
        return float(np.mean([_kappa(x[:, g], x[:, h]) for g, h in ((0, 1), (0, 2), (1, 2))]))

    assert light(panel[:, :3]) == pytest.approx(
        np.mean([cohen_kappa_score(panel[:, g], panel[:, h]) for g, h in ((0, 1), (0, 2), (1, 2))]),
        abs=1e-14)
    assert first.full() == pytest.approx(light(panel[:, :3]), abs=1e-12)

    def result(rs: object, est: float) -> AgreementResult:
        return AgreementResult("light_kappa", est, math.nan, math.nan, math.nan, 120, 3,
                               resampling=lambda: rs)  # type: ignore[arg-type,return-value]

    ra, rb = result(first, first.full()), result(second, second.full())
    cmp = accord.compare(ra, rb, method="jackknife")
    loo = np.array([light(np.delete(panel[:, :3], i, axis=0))
                    - light(np.delete(panel[:, 3:], i, axis=0)) for i in range(120)])
    se = math.sqrt(119 / 120 * np.sum((loo - loo.mean()) ** 2))
    z = 1.959963984540054
    assert cmp.interval.high == pytest.approx(cmp.difference + z * se, rel=1e-10)


def test_many_rater_results_can_be_compared() -> None:
    fleiss, light = getattr(accord, "fleiss_kappa", None), getattr(accord, "light_kappa", None)
    if fleiss is None or light is None:
        pytest.skip("many-rater coefficients are not in this tree yet")
    rng = np.random.default_rng(12)
    truth = rng.integers(0, 3, 90)
    data = np.where(rng.random((90, 4)) < 0.6, truth[:, None], rng.integers(0, 3, (90, 4)))
    rf, rl = fleiss(data), light(data)
    cmp = accord.compare(rf, rl, method=Bootstrap(999, rng=0))
    assert cmp.difference == pytest.approx(rf.estimate - rl.estimate, abs=1e-15)
    assert cmp.n_shared == 90 and cmp.interval.low <= cmp.difference <= cmp.interval.high


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_swapping_the_results_negates_the_difference(seed: int) -> None:
    gold, a, b = _three(40, seed)
    ra, rb = accord.cohen_kappa(gold, a), accord.cohen_kappa(gold, b)
    ab = accord.compare(ra, rb, method=Bootstrap(200, rng=seed))
    ba = accord.compare(rb, ra, method=Bootstrap(200, rng=seed))
    if math.isnan(ab.difference):
        return
    assert ba.difference == -ab.difference
    assert ba.interval.low == pytest.approx(-ab.interval.high, abs=1e-12)
    assert ba.interval.high == pytest.approx(-ab.interval.low, abs=1e-12)
    assert ba.pvalue == pytest.approx(ab.pvalue, abs=1e-12)


@pytest.mark.parametrize(("coefficient", "weights"),
                         [("cohen_kappa", None), ("cohen_kappa", "quadratic"),
                          ("scott_pi", None), ("gwet_ac1", None), ("brennan_prediger", None),
                          ("percent_agreement", None)])
def test_pairwise_resampling_equals_the_mean_of_pairwise_results(
    coefficient: str, weights: str | None
) -> None:
    """Against accord.pairwise(...).mean(), which computes each pair on its own units."""
    pairwise = getattr(accord, "pairwise", None)
    if pairwise is None:
        pytest.skip("accord.pairwise is not in this tree yet")
    from accord.data.weights import agreement_weights

    rng = np.random.default_rng(13)
    truth = rng.integers(0, 4, 70)
    codes = np.where(rng.random((70, 4)) < 0.6, truth[:, None], rng.integers(0, 4, (70, 4)))
    codes[rng.random(codes.shape) < 0.15] = -1
    codes[:, 3][codes[:, 2] >= 0] = -1  # raters 3 and 4 share no unit
    data = [[None if c < 0 else int(c) for c in row] for row in codes]
    options = {} if weights is None else {"weights": weights}
    with pytest.warns(DegenerateDataWarning, match="'rater_3'-'rater_4'"):
        matrix = pairwise(data, coefficient, categories=[0, 1, 2, 3], **options)
    shared = [(g, h) for g, h in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
              if matrix.n[g, h] > 0]
    w = None if weights is None else agreement_weights(weights, 4)
    rs = pairwise_resampling(codes, 4, coefficient=coefficient, weights=w, pairs=shared)
    assert rs.full() == pytest.approx(matrix.mean(), abs=1e-12)
    # every pair's units resampled together: one draw moves all pairs
    assert np.isfinite(rs.evaluate(rs.counts[None, :])).all()


@pytest.mark.parametrize("coefficient,weights", [("cohen_kappa", None), ("scott_pi", "linear"),
                                                 ("gwet_ac1", "quadratic"),
                                                 ("percent_agreement", None)])
def test_fully_crossed_layout_matches_the_per_pair_layout(
    coefficient: str, weights: str | None
) -> None:
    """Every rater rated every unit: the compact features (one margin per rater) give the
    same full estimate, bootstrap replicates and jackknife values as per-pair tables."""
    from accord.coefficients._pairwise_intervals import _crossed_features, _pair_features
    from accord.data.weights import agreement_weights
    from accord.inference.resampling import row_patterns

    rng = np.random.default_rng(29)
    truth = rng.integers(0, 4, 80)
    codes = np.where(rng.random((80, 5)) < 0.6, truth[:, None], rng.integers(0, 4, (80, 5)))
    w = None if weights is None else agreement_weights(weights, 4)
    rs = pairwise_resampling(codes, 4, coefficient=coefficient, weights=w)
    rows, _, _ = row_patterns(codes, 4)
    pairs = [(g, h) for g in range(5) for h in range(g + 1, 5)]
    compact, per_pair = _crossed_features(rows, pairs, 4, w), _pair_features(rows, pairs, 4, w)
    assert rs.features.shape[1] == compact[0].shape[1] == 1 + 10 + 5 * 4
    draws = rng.multinomial(80, rs.counts / 80, size=50).astype(np.float64)
    for a, b in zip(compact[1](draws @ compact[0]), per_pair[1](draws @ per_pair[0])):
        np.testing.assert_allclose(np.broadcast_to(a, b.shape), b, rtol=0, atol=1e-9)
    # and the mean over pairs is the mean of accord.pairwise's cells
    matrix = accord.pairwise(codes, coefficient, **({} if weights is None else
                                                    {"weights": weights}))
    assert rs.full() == pytest.approx(matrix.mean(), abs=1e-12)


def test_mean_pairwise_result_has_intervals_and_compares() -> None:
    from accord.coefficients._pairwise_intervals import mean_pairwise_result

    rng = np.random.default_rng(14)
    truth = rng.integers(0, 3, 80)
    data = np.where(rng.random((80, 4)) < 0.6, truth[:, None], rng.integers(0, 3, (80, 4)))
    res = mean_pairwise_result(data.tolist(), "gwet_ac1")
    matrix = getattr(accord, "pairwise", None)
    if matrix is not None:
        assert res.estimate == pytest.approx(matrix(data.tolist(), "gwet_ac1").mean(), abs=1e-12)
    ci = res.confidence_interval(method=Bootstrap(999, kind="bca", rng=0))
    assert ci.low < res.estimate < ci.high and res.details["pairs"] == 6
    light = getattr(accord, "light_kappa", None)
    kappa_mean = mean_pairwise_result(data.tolist())
    if light is not None:
        same = accord.compare(light(data.tolist()), kappa_mean, method=Bootstrap(300, rng=0))
        assert same.difference == pytest.approx(0.0, abs=1e-12)
        np.testing.assert_allclose(same.interval.replicates, 0.0, atol=1e-12)
    with pytest.raises(InvalidParameterError, match="'coefficient' parameter"):
        mean_pairwise_result(data.tolist(), "fleiss_kappa")


def test_mean_pairwise_result_undefined_when_a_pair_is() -> None:
    from accord.coefficients._pairwise_intervals import mean_pairwise_result

    with pytest.warns(DegenerateDataWarning, match="at least one of the 3 rater pairs"):
        res = mean_pairwise_result([[1, 1, 1], [1, 1, 2], [1, 1, 1]])
    assert math.isnan(res.estimate) and res.undefined_reason is not None
