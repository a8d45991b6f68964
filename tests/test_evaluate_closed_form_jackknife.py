"""The jackknife SEs of the averages and MCC in ``accord.evaluate`` come from closed-form
leave-one-out values (O(cells + k)): equal to the leave-one-out on the summed features
(O(cells x k), the way they were computed before), and ``evaluate`` at 2,000 classes
no longer builds the cells x (1 + 3k) features (issue 40: about 10 s and 351 MiB)."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.coefficients import _classification_core as core
from accord.inference.jackknife import jackknife_se
from accord.inference.resampling import Resampling
from accord.tables.contingency import ContingencyTable


def _direct_se(cells: core.Cells, statistic: object) -> float:
    assert cells.features is not None and cells.counts is not None
    return jackknife_se(Resampling(cells.features, cells.counts, statistic))[0]  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 7).flatmap(lambda k: st.lists(
    st.lists(st.integers(0, 6), min_size=k, max_size=k), min_size=k, max_size=k)))
def test_closed_form_leave_one_out_equals_the_summed_features(rows: list[list[int]]) -> None:
    counts = np.asarray(rows)
    if counts.sum() < 2:
        return
    cells = core.Cells.of(ContingencyTable(counts))
    k = cells.k
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        for figure in core.FIGURES:
            for average in ("macro", "weighted", "micro"):
                if average == "micro" and figure != "specificity":
                    continue  # a proportion: Wald SE, no jackknife
                res = core.average_figure(figure, average, cells)
                want = _direct_se(cells, lambda s, f=figure, a=average: core.averaged(f, a, s, k))
                assert res.se == pytest.approx(want, abs=1e-12, nan_ok=True), (figure, average)
        res = core.mcc_result(cells)
        want = _direct_se(cells, lambda s: core.mcc_stat(s, k))
        assert res.se == pytest.approx(want, abs=1e-12, nan_ok=True)


def test_scikit_learn_figures_are_kept() -> None:
    # scikit-learn 1.9.1 f1_score(average="macro") and matthews_corrcoef on these labels
    ref = [0, 1, 2, 0, 1, 2, 0, 1, 2, 2]
    pred = [0, 2, 1, 0, 0, 2, 0, 1, 2, 1]
    ev = accord.evaluate(ref, pred)
    assert ev.macro.f1.estimate == pytest.approx(0.5873015873015873, abs=1e-12)
    assert ev.mcc.estimate == pytest.approx(0.4090909090909091, abs=1e-12)
    assert np.isfinite(ev.macro.f1.se) and np.isfinite(ev.mcc.se)


def test_two_thousand_classes_hold_no_cells_by_classes_features() -> None:
    n = 2_000
    rng = np.random.default_rng(0)
    ref = [f"l{i}" for i in range(n)]
    pred = [f"l{(i + int(rng.random() < 0.3)) % n}" for i in range(n)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        tracemalloc.start()
        try:
            accord.evaluate(ref, pred)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 128 * 2**20  # before: 351 MiB (the features: 2,600 x 6,001 floats)
