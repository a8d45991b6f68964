"""Span results: intervals through per-unit counts, JSON, and the per-label figures."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import DegenerateDataWarning

REF = [[(0, 5, "PER"), (9, 12, "LOC")], [(2, 4, "ORG")], [(0, 3, "PER")], [], [(1, 8, "LOC")]]
PRED = [[(0, 5, "PER"), (9, 11, "LOC")], [(2, 4, "PER")], [], [(3, 6, "ORG")], [(1, 8, "LOC")]]


def test_json_and_intervals() -> None:
    res = accord.evaluate_spans(REF, PRED, mode="partial")
    out = json.loads(json.dumps(res.to_dict()))
    # same boundaries count whatever the label (unit 2: ORG vs PER); 9-12 vs 9-11 is half
    assert out["counts"] == {"correct": 3, "incorrect": 0, "partial": 1, "missed": 1,
                             "spurious": 1, "possible": 5, "actual": 5}  # fmt: skip
    assert out["f1"]["estimate"] == pytest.approx(2 * 3.5 / 10)
    ci = res.f1.confidence_interval(0.9, method=accord.Bootstrap(n_resamples=300, rng=2))
    assert 0.0 <= ci.low <= res.f1.estimate <= ci.high <= 1.0
    jack = res.f1.confidence_interval(method="jackknife")
    assert jack.low < res.f1.estimate < jack.high
    with pytest.raises(accord.AccordError, match="no analytic standard error"):
        res.f1.confidence_interval()


side = st.lists(st.tuples(st.integers(0, 15), st.integers(1, 5), st.sampled_from("AB")),
                max_size=4)  # fmt: skip
units = st.lists(st.tuples(side, side), min_size=1, max_size=8)


@given(units, st.sampled_from(["strict", "partial", "type"]), st.integers(0, 2**31))
def test_a_replicate_is_the_figure_on_the_resampled_documents(data, mode, seed) -> None:  # type: ignore[no-untyped-def]
    ref = [[(s, s + n, lab) for s, n, lab in r] for r, _ in data]
    pred = [[(s, s + n, lab) for s, n, lab in p] for _, p in data]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.evaluate_spans(ref, pred, mode=mode)
        rs = res.f1.resampling()  # type: ignore[misc]
        draw = np.random.default_rng(seed).integers(0, len(ref), size=len(ref))
        weights = np.bincount(rs.unit_patterns[draw], minlength=rs.counts.shape[0])[None, :]
        again = accord.evaluate_spans([ref[i] for i in draw], [pred[i] for i in draw], mode=mode)
    got, want = rs.evaluate(weights)[0], again.f1.estimate
    assert (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want, abs=1e-12)
