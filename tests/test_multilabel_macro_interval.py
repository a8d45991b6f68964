"""The bootstrap interval of multilabel_agreement's macro mean, checked by brute force:
every resample is rebuilt unit by unit (all labels of a unit together) and
multilabel_agreement is run on it; its macro mean must equal the replicate."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import accord
from accord.errors import DegenerateDataWarning, InvalidParameterError
from accord.inference.bootstrap import draw_weights, unit_patterns
from accord.inference.resampling import pattern_index

LABELS = ["a", "b", "c", "d"]


def _data(seed: int, n_raters: int) -> list[list[tuple[str, ...]]]:
    rng = np.random.default_rng(seed)
    truth = rng.random((40, len(LABELS))) < 0.35
    out = []
    for u in range(40):
        row = []
        for _ in range(n_raters):
            keep = np.where(rng.random(len(LABELS)) < 0.8, truth[u], rng.random(len(LABELS)) < .3)
            row.append(tuple(lab for lab, k in zip(LABELS, keep) if k))
        out.append(row)
    return out


@pytest.mark.parametrize(("coefficient", "n_raters", "seed"), [
    ("krippendorff_alpha", 3, 0), ("cohen_kappa", 2, 1), ("fleiss_kappa", 3, 2),
    ("gwet_ac1", 2, 3)])
def test_replicates_equal_the_macro_of_each_resample(coefficient: str, n_raters: int,
                                                     seed: int) -> None:
    data = _data(seed, n_raters)
    res = accord.multilabel_agreement(data, coefficient=coefficient, labels=LABELS)
    boot = accord.Bootstrap(n_resamples=30, rng=seed)
    ci = res.macro_interval(0.9, method=boot)
    # the same draw: the joint pattern of every unit under the four labels
    per_label = [res.per_label[lab].resampling() for lab in LABELS]  # type: ignore[misc]
    joint = np.column_stack([r.unit_patterns for r in per_label])
    _, counts, inverse = pattern_index(joint)
    first = np.unique(inverse, return_index=True)[1]  # one unit of each joint pattern
    weights = draw_weights(counts, 30, boot.generator(), units=unit_patterns(counts))
    brute = []
    for w in weights:
        units = np.repeat(first, w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            again = accord.multilabel_agreement([data[u] for u in units],
                                                coefficient=coefficient, labels=LABELS)
        values = [again.per_label[lab].estimate for lab in LABELS]
        brute.append(float(np.mean(values)))  # nan when one label is undefined
    want = np.asarray(brute)
    finite = want[np.isfinite(want)]
    assert ci.n_excluded == want.size - finite.size
    assert ci.replicates is not None
    np.testing.assert_allclose(ci.replicates, finite, rtol=0, atol=1e-12)
    low, high = np.quantile(finite, [0.05, 0.95])
    assert (ci.low, ci.high) == pytest.approx((low, min(high, 1.0)), abs=1e-12)
    assert ci.method == "bootstrap-percentile"


def test_undefined_labels_are_left_out_as_in_the_estimate() -> None:
    data = [[("a", "z"), ("a", "z")], [("z",), ("b", "z")], [("b", "z"), ("b", "z")],
            [("a", "z"), ("z",)], [("z",), ("z",)], [("a", "b", "z"), ("a", "z")]]
    with pytest.warns(DegenerateDataWarning):
        res = accord.multilabel_agreement(data)
    assert res.macro_left_out == ("z",)
    ci = res.macro_interval(method=accord.Bootstrap(n_resamples=200, rng=0))
    assert math.isfinite(ci.low) and ci.low <= res.macro <= ci.high
    with pytest.raises(InvalidParameterError):
        res.macro_interval(method="asymptotic")  # type: ignore[arg-type]
