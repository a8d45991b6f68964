"""The drift chart: limits by hand, and its false-alarm rate and detection by simulation.

Batches are simulated as two-rater 3 x 3 contingency tables drawn from cell
probabilities with a known kappa: ``P = (1 - w) p p' + w diag(p)`` has
marginals ``p`` on both sides and Cohen's kappa exactly ``w`` (p_o = w + (1 -
w) sum p^2, p_e = sum p^2). Each batch's kappa and SE come from accord
(Fleiss-Cohen-Everitt SE, checked against R irr elsewhere).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import accord
from accord.history.drift import batches_to_detect, control_chart
from accord.history.store import Figure, Run

P = np.array([0.5, 0.3, 0.2])
N_UNITS = 150


def _cells(kappa: float) -> np.ndarray:
    return ((1 - kappa) * np.outer(P, P) + kappa * np.diag(P)).ravel()


def test_the_cell_model_has_the_kappa_it_claims() -> None:
    table = accord.ContingencyTable((_cells(0.7) * 1e6).reshape(3, 3))
    assert accord.cohen_kappa(table).estimate == pytest.approx(0.7, abs=1e-12)


def _history(rng: np.random.Generator, kappas: list[float], revision: str = "1") -> list[Run]:
    runs = []
    for t, k in enumerate(kappas):
        counts = rng.multinomial(N_UNITS, _cells(k)).reshape(3, 3)
        res = accord.cohen_kappa(accord.ContingencyTable(counts))
        runs.append(Run(f"2026-01-01T00:00:{t:02d}", "s",
                        (Figure("cohen_kappa", res.estimate, res.se),), revision, id=t))
    return runs


def test_limits_by_hand() -> None:
    # baseline: estimates 0.7, 0.8, 0.6 with SEs 0.1, 0.05, 0.1 -> weights 100, 400, 100;
    # mean (70 + 320 + 60) / 600 = 0.75, baseline variance 1/600; batch SE 0.08
    runs = [Run(f"t{i}", "s", (Figure("cohen_kappa", k, se),), id=i)
            for i, (k, se) in enumerate([(0.7, 0.1), (0.8, 0.05), (0.6, 0.1), (0.6, 0.08)])]
    last = control_chart(runs, "cohen_kappa").points[-1]
    limit = 0.75 - stats.norm.ppf(0.95) * math.sqrt(0.08**2 + 1 / 600)
    assert last.baseline == pytest.approx(0.75, abs=1e-14)
    assert last.lower_limit == pytest.approx(limit, abs=1e-14)
    assert last.flagged == bool(limit > 0.6)
    assert [p.n_baseline for p in control_chart(runs, "cohen_kappa").points] == [0, 1, 2, 3]
    assert not any(p.flagged for p in control_chart(runs, "cohen_kappa").points[:3])


def test_an_interval_without_se_gives_its_half_width() -> None:
    fig = Figure("krippendorff_alpha", 0.7, math.nan, 0.6, 0.8, 0.95)
    from accord.history.drift import figure_se

    assert figure_se(fig) == pytest.approx(0.1 / stats.norm.ppf(0.975), rel=1e-14)


def test_a_new_revision_starts_a_new_baseline() -> None:
    rng = np.random.default_rng(3)
    runs = _history(rng, [0.8] * 6) + _history(rng, [0.5] * 4, revision="2")
    runs = [Run(f"{i:03d}", r.study, r.figures, r.revision, id=i) for i, r in enumerate(runs)]
    points = control_chart(runs, "cohen_kappa").points
    assert [p.n_baseline for p in points[6:]] == [0, 1, 2, 3]  # revision 2 judged on its own
    assert not any(p.flagged for p in points[6:9])


def test_batches_to_detect_by_hand() -> None:
    # no baseline error: p = Phi(0.1/0.05 - 1.6449) = Phi(0.3551) = 0.6387;
    # 1 - 0.3613^k >= 0.95 first at k = 3 (0.9528)
    p = stats.norm.cdf(0.1 / 0.05 - stats.norm.ppf(0.95))
    assert 1 - (1 - p) ** 2 < 0.95 <= 1 - (1 - p) ** 3
    assert batches_to_detect(0.1, 0.05) == 3
    assert batches_to_detect(0.0, 0.05, probability=0.04) == 1
    assert batches_to_detect(0.3, 0.05, baseline_se=0.02) == 1


def _false_alarms(n_histories: int, seed: int) -> tuple[float, float]:
    """The per-batch flag rate under constant kappa 0.7 and its Monte-Carlo SE (the
    batches of one history share a baseline, so the SE is taken over histories)."""
    rng = np.random.default_rng(seed)
    per_history = []
    for _ in range(n_histories):
        points = control_chart(_history(rng, [0.7] * 10), "cohen_kappa").points
        per_history.append(np.mean([p.flagged for p in points if p.n_baseline >= 3]))
    rates = np.array(per_history)
    return float(rates.mean()), float(rates.std(ddof=1) / math.sqrt(n_histories))


def _detected_within(n_histories: int, seed: int) -> tuple[float, int]:
    rng = np.random.default_rng(seed)
    big = 1000 * N_UNITS  # the SE of a batch after the drop, from its expected table
    counts = np.round(_cells(0.6) * big).astype(np.int64).reshape(3, 3)
    se = accord.cohen_kappa(accord.ContingencyTable(counts)).se * math.sqrt(big / N_UNITS)
    k = batches_to_detect(0.1, se, baseline_se=se / math.sqrt(5))
    hits = 0
    for _ in range(n_histories):
        points = control_chart(_history(rng, [0.7] * 5 + [0.6] * k), "cohen_kappa").points
        hits += any(p.flagged for p in points[5:])
    return hits / n_histories, k


def test_false_alarms_and_detection_fast() -> None:
    rate, mc_se = _false_alarms(150, seed=11)
    assert rate <= 0.05 + 3 * mc_se
    found, k = _detected_within(150, seed=12)
    assert k == 7 and found >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / 150)


@pytest.mark.slow
def test_false_alarm_rate_is_at_most_nominal_over_1000_histories() -> None:
    rate, mc_se = _false_alarms(1000, seed=21)
    assert rate <= 0.05 + 3 * mc_se  # measured: about 0.05 (5000 histories: 0.0509)
    assert mc_se < 0.005


@pytest.mark.slow
def test_a_drop_of_0_1_is_flagged_within_the_promised_batches() -> None:
    found, k = _detected_within(1000, seed=22)
    assert found >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / 1000), (found, k)


def test_a_flagged_batch_does_not_enter_the_baseline() -> None:
    """Three batches at 0.75, one at 0.40, then one at 0.62 (SE 0.05 each).

    By hand: after three batches the limit is 0.75 - 1.6449 sqrt(0.05^2 + 0.05^2/3) =
    0.6550, so 0.40 is flagged. Were it taken into the baseline (as it once was), the
    baseline would be 0.6625 and the next limit 0.6625 - 1.6449 sqrt(0.05^2 + 0.05^2/4) =
    0.5706, and 0.62 would pass; kept out, the limit stays 0.6550 and 0.62 is flagged.
    """
    runs = [Run(f"2026-01-0{t}", "s", (Figure("cohen_kappa", k, 0.05),))
            for t, k in enumerate([0.75, 0.75, 0.75, 0.40, 0.62], start=1)]
    chart = control_chart(runs, "cohen_kappa")
    fourth, fifth = chart.points[3], chart.points[4]
    z = stats.norm.ppf(0.95)
    assert fourth.flagged and fourth.lower_limit == pytest.approx(
        0.75 - z * math.sqrt(0.05**2 + 0.05**2 / 3), abs=1e-12)
    assert fifth.baseline == pytest.approx(0.75, abs=1e-12) and fifth.n_baseline == 3
    assert fifth.lower_limit == pytest.approx(fourth.lower_limit, abs=1e-12)
    assert fifth.flagged and "1 flagged batch(es) left out" in (fifth.reason or "")
