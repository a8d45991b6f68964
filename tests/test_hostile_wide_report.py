"""A crowd with thousands of distinct labels: the count-based coefficients read sparse
rater counts (the same figures as the dense ones), and ``accord report`` leaves the
parts past their budget out, each with its sentence on the first screen (issue 40)."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_array

import accord
from accord import RaterCounts
from accord.data.annotations import Annotations
from accord.errors import BudgetError, DataError

# Fleiss (1971), Table 1: 30 patients x 6 psychiatrists (as in test_many_raters.py)
FLEISS_1971 = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
    [0, 0, 5, 0, 1], [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
    [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0], [1, 0, 0, 4, 1],
    [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0], [1, 0, 5, 0, 0], [0, 0, 0, 0, 6]]
COUNT_BASED = ("fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement")


def _sparse(counts: object, categories: list[object]) -> RaterCounts:
    return RaterCounts._trusted(csr_array(np.asarray(counts, dtype=np.int64)), categories,
                                None)


def test_fleiss_1971_from_sparse_counts() -> None:
    rc = _sparse(FLEISS_1971, [1, 2, 3, 4, 5])
    assert rc.is_sparse
    res = accord.fleiss_kappa(rc)
    # Fleiss (1971): kappa .430, z 17.65; irrCAC 1.0 fleiss.kappa.dist: se .0542
    assert res.estimate == pytest.approx(0.4302445201, abs=1e-9)
    assert res.details["se0"] == pytest.approx(0.0243739321, abs=1e-9)
    assert res.details["z"] == pytest.approx(17.65183058, abs=1e-6)
    assert res.se == pytest.approx(0.0542, abs=5e-5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), min_size=4, max_size=4), min_size=2, max_size=25)
       .filter(lambda rows: any(sum(r) >= 2 for r in rows)))
def test_sparse_counts_give_the_dense_figures(rows: list[list[int]]) -> None:
    cats = ["a", "b", "c", "d"]
    for name in COUNT_BASED:
        with warnings.catch_warnings():  # one category in use: undefined in both
            warnings.simplefilter("ignore", accord.DegenerateDataWarning)
            dense = getattr(accord, name)(RaterCounts(rows, categories=cats))
            sparse = getattr(accord, name)(_sparse(rows, cats))
        for a, b in ((dense.estimate, sparse.estimate), (dense.se, sparse.se),
                     (dense.observed, sparse.observed), (dense.expected, sparse.expected),
                     *((dense.details[k], sparse.details[k]) for k in ("se0", "z")
                       if k in dense.details)):
            assert a == pytest.approx(b, abs=1e-12, nan_ok=True)
        assert dense.undefined_reason == sparse.undefined_reason


def _crowd(units: int, workers: int = 200, seed: int = 0) -> Annotations:
    """benchmarks/bench_wide_consensus.py's crowd: three workers a unit, right 70% of the
    time, otherwise one of 2 x units labels."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, units, units)
    unit = np.repeat(np.arange(units), 3)
    worker = (np.repeat(rng.integers(0, workers, units), 3)
              + np.tile([0, workers // 3, 2 * workers // 3], units)) % workers
    label = np.where(rng.random(unit.shape[0]) < 0.7, truth[unit],
                     rng.integers(0, 2 * units, unit.shape[0]))
    return Annotations.from_long({"u": unit, "w": worker, "v": [f"L{x}" for x in label]},
                                 unit="u", rater="w", value="v")


def test_wide_counts_are_sparse_and_equal_the_dense_path() -> None:
    ann = _crowd(2_000)
    rc = RaterCounts.from_annotations(ann)
    assert rc.is_sparse and rc.matrix.nnz <= ann.n_ratings  # 2,000 x ~2,400 dense: 4.8 M
    dense = RaterCounts(rc.counts, categories=list(rc.categories))
    for name in COUNT_BASED:
        a, b = getattr(accord, name)(ann), getattr(accord, name)(dense)
        assert a.estimate == pytest.approx(b.estimate, abs=1e-12)
        assert a.se == pytest.approx(b.se, abs=1e-12)


def test_fleiss_on_eleven_thousand_labels_holds_no_dense_table() -> None:
    ann = _crowd(10_000)
    assert len(ann.categories) > 10_000  # dense: 10^4 x 1.1 x 10^4 int64 = 0.9 GB
    tracemalloc.start()
    try:
        res = accord.fleiss_kappa(ann)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20  # before: 1.8 GB
    alpha = accord.krippendorff_alpha(ann)  # (n r - 1) / (n r) apart, n r = 30,000
    assert res.estimate == pytest.approx(alpha.estimate, abs=1e-4)
    with pytest.raises(BudgetError, match=r"units x categories counts .* past the budget"):
        _ = RaterCounts.from_annotations(ann).counts
    with pytest.raises(BudgetError, match="asymptotic interval"):
        res.confidence_interval(method="jackknife")


def test_report_on_a_wide_crowd_leaves_parts_out_and_says_so_first() -> None:
    ann = _crowd(1_000)
    tracemalloc.start()
    try:
        rep = accord.report(ann)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 256 * 2**20
    assert rep.annotators is None and len(rep.left_out) == 1
    assert rep.left_out[0].startswith("No Annotators section: a confusion matrix")
    assert rep.left_out[0] in rep.notes  # kept for JSON
    md = rep.to_markdown()
    assert md.index("> left out: No Annotators section") < md.index("## Data")
    assert md.count("No Annotators section") == 1
    html = rep.to_html()
    assert html.index("left out: No Annotators section") < html.index("</header>")


def test_pair_tables_past_their_budget_are_left_out_with_the_reason() -> None:
    # ten raters on every unit, 4,000 labels: 45 pairs x 4,000^2 x 2 cells, 11 GiB
    rng = np.random.default_rng(2)
    rows = np.where(rng.random((2_000, 10)) < 0.5, rng.integers(0, 4_000, 2_000)[:, None],
                    rng.integers(0, 4_000, (2_000, 10)))
    ann = Annotations.from_wide([[f"L{x}" for x in r] for r in rows])
    with pytest.raises(DataError, match="contingency tables of 45 rater pairs"):
        accord.pairwise(ann, "cohen_kappa")
    from accord.report import sections

    few = sections.few_pairs(ann)
    assert few.result is None and few.over_budget
    assert few.note.startswith("With 10 raters the rater x rater matrix and the worksheets")
    assert "rater pairs" in few.note and few.note.endswith(".")


def _pairwise_spammer(conf: np.ndarray) -> np.ndarray:
    """Raykar & Yu's (2012) score as written: every pair of rows (the former k^3 way)."""
    k = conf.shape[1]
    diff = conf[:, :, None, :] - conf[:, None, :, :]
    return np.nansum(diff * diff, axis=(1, 2, 3)) / 2.0 / (k * (k - 1))


@pytest.mark.parametrize("seed", range(8))
def test_spammer_score_in_closed_form_equals_the_pairwise_sum(seed: int) -> None:
    from accord.annotators._figures import spammer_score

    rng = np.random.default_rng(seed)
    r, k = int(rng.integers(1, 6)), int(rng.integers(2, 9))
    conf = rng.dirichlet(np.ones(k), size=(r, k))
    conf[rng.random((r, k)) < 0.2] = np.nan  # true classes a rater never met
    np.testing.assert_allclose(spammer_score(conf), _pairwise_spammer(conf), rtol=0,
                               atol=1e-12)
    spam = np.tile(rng.dirichlet(np.ones(k)), (1, k, 1))  # same row for every class: 0
    assert spammer_score(spam)[0] == pytest.approx(0.0, abs=1e-15)


def test_annotators_on_three_raters_of_thousands_of_labels_hold_no_k_cubed_array() -> None:
    # three raters, about 800 labels: under the k x k budget, but the pairwise differences
    # of the spammer score were 3 x k^3 floats (13.7 GB here; 435 GiB at 2,690 labels)
    rng = np.random.default_rng(0)
    unit = np.repeat(np.arange(600), 3)
    label = np.where(rng.random(1_800) < 0.7, unit, rng.integers(0, 1_200, 1_800))
    ann = Annotations.from_long({"u": unit, "w": np.tile([0, 1, 2], 600),
                                 "v": [f"L{x}" for x in label]}, unit="u", rater="w", value="v")
    assert len(ann.categories) > 700
    q = accord.annotators(ann, method="majority")
    assert all(0.0 <= r.spammer_score <= 1.0 for r in q)
