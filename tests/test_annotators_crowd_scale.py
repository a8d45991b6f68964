"""accord.annotators on a crowd: figures from counts, and the accuracy interval (Wilson).

The memory check is a bound on what one call holds (``tracemalloc``), not a timing:
the figures of every annotator are bincounts over the ratings, never an array of
every rating per annotator. Wilson's (1927) interval is checked against statsmodels'
``proportion_confint(method="wilson")`` (0.15): 8 of 10 gives 0.49016247153664183 to
0.9433178485456247; 12 of 12 gives 0.7575059933447589 to 1 (the Wald interval
collapses to 100%-100% there).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import accord
from accord.annotators._crowd import Crowd, crowd_of
from tests.conftest import traced_peak


def _crowd(units: int = 1000, workers: int = 400, per_unit: int = 20) -> accord.Annotations:
    """The benchmark's crowd generator (benchmarks/_crowd_data.py), in small."""
    rng = np.random.default_rng(0)
    sizes = rng.integers(per_unit - 6, per_unit + 7, units)
    unit = np.repeat(np.arange(units), sizes)
    start = np.repeat(rng.integers(0, workers, units), sizes)
    offset = np.arange(unit.shape[0]) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    worker = (start + offset * 7919) % workers
    truth = np.repeat(rng.choice(5, units), sizes)
    label = np.clip(np.rint(truth + rng.normal(0, 0.6, workers)[worker]
                            + rng.normal(0, 0.8, unit.shape[0])), 0, 4).astype(np.int64)
    return accord.Annotations.from_long({"unit": unit, "rater": worker, "value": label},
                                        level="ordinal")


@pytest.mark.parametrize("method", ["majority", "dawid_skene"])
def test_annotators_of_a_crowd_hold_no_array_of_all_ratings_per_annotator(method: str) -> None:
    """400 annotators, 20,206 ratings: an array of every rating kept per annotator (as the
    accuracy bootstrap's closures once kept) is 400 x 20,206 x 8 bytes = 65 MB; the
    figures from counts hold about 4 MB (raters x categories^2 confusion cells and
    per-unit arrays)."""
    ann = _crowd()
    accord.annotators(ann, method=method)  # imports and caches out of the measure
    kept: list[object] = []
    peak = traced_peak(lambda: kept.append(accord.annotators(ann, method=method)))
    assert ann.n_ratings == 20_206
    assert peak < 12 * 2**20


def test_each_annotators_units_are_their_ratings_when_pairs_are_distinct() -> None:
    """Single-label Annotations hold each (unit, rater) pair once, so no sort is needed;
    a crowd that may repeat a pair counts distinct units (checked by hand: rater 0 rated
    unit 0 twice and unit 1 once, so 2 units of 3 ratings)."""
    ann = _crowd(50, 30, 8)
    crowd = crowd_of(ann, func="test")
    assert crowd.pairs_distinct
    keys = np.unique(crowd.rater * crowd.n_units + crowd.unit)
    np.testing.assert_array_equal(crowd.per_rater_units(),
                                  np.bincount(keys // crowd.n_units, minlength=crowd.n_raters))
    repeated = Crowd(np.array([0, 0, 1, 1]), np.array([0, 0, 0, 1]), np.array([0, 1, 0, 1]),
                     (0, 1), ("a", "b"), (0, 1))
    assert repeated.per_rater_units().tolist() == [2, 1]
    assert repeated.per_rater().tolist() == [3, 1]


def test_accuracy_interval_is_wilsons_and_the_flags_name_it() -> None:
    """Rater c agrees with the majority on 8 of 10 units (statsmodels: 0.4902 to 0.9433);
    rater a on all 12 (Wilson 0.7575 to 1, where Wald gives 1 to 1)."""
    a = ["x"] * 12
    b = ["x"] * 12
    c = ["x"] * 8 + ["y"] * 2 + [None, None]
    q = accord.annotators([list(r) for r in zip(a, b, c)], method="majority")
    assert q.interval == "wilson" and q.to_dict()["interval_method"] == "wilson"
    ci = q["rater_3"].accuracy.confidence_interval(0.95)
    assert (ci.low, ci.high) == pytest.approx((0.49016247153664183, 0.9433178485456247),
                                              abs=1e-12)
    full = q["rater_1"].accuracy.confidence_interval(0.95)
    assert full.low == pytest.approx(0.7575059933447589, abs=1e-12)
    assert full.high == pytest.approx(1.0)
    assert q["rater_1"].accuracy.details["ci_method"] == "wilson"


def test_flags_use_wilson_by_default_and_the_bootstrap_when_asked() -> None:
    ann = _crowd(300, 40, 10)
    wilson = accord.annotators(ann, method="majority")
    boot = accord.annotators(ann, method="majority", n_resamples=199, rng=1)
    assert wilson.flagged and boot.flagged and boot.interval == "bootstrap"
    assert all("Wilson CI" in r.flag for r in wilson.flagged if r.flag)
    assert all("bootstrap CI" in r.flag for r in boot.flagged if r.flag)
    for row in wilson.flagged:
        ci = row.accuracy.confidence_interval(wilson.confidence_level)
        assert ci.high < wilson.pool_accuracy and math.isfinite(ci.low)
