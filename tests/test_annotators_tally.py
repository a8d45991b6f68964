"""The per-annotator counts from one pass (``_figures.tally``) and the shared units x
categories table (``Annotations.unit_counts``) against the separate counts they replace.

The reference is the bincount per figure of ``accord.annotators._figures``
(``hits_and_counts``, ``recall_per_class``, ``soft_confusion``, ``kappa_totals``, and
the per-rater label shares), itself checked against crowd-kit 1.4 and a hand count in
``tests/test_annotators.py``: every figure must be the same float, to the bit (the
counts are whole numbers, so the order of the sums cannot move them).
"""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.annotators import _figures as fig
from accord.annotators._crowd import crowd_of
from accord.errors import DegenerateDataWarning
from accord.tables import RaterCounts


def _crowd(seed: int, n_units: int, n_raters: int, k: int, shuffle: bool) -> accord.Annotations:
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(n_units):
        raters = rng.choice(n_raters, size=int(rng.integers(1, n_raters + 1)), replace=False)
        rows += [(f"u{u}", f"r{r}", int(rng.integers(0, k))) for r in raters]
    rows[0] = (*rows[0][:2], 0)  # two categories in use, whatever the draw
    rows.append(("u_last", "r0", 1))
    if shuffle:  # ratings not grouped by unit: the rating matrix is built by a sort
        rows = [rows[i] for i in rng.permutation(len(rows))]
    return accord.Annotations.from_long(rows, unit=0, rater=1, value=2,
                                        categories=list(range(k)), require_pairs=False)


def _separate(crowd, truth, labels):  # type: ignore[no-untyped-def]
    """The figures as each was counted before: one bincount (or several) per figure."""
    hit, hits, counts = fig.hits_and_counts(crowd, truth)
    _, c_hits, c_counts = fig.hits_and_counts(crowd, labels)
    rec = fig.recall_per_class(crowd, truth, hit)
    onehot = np.eye(crowd.k)[np.where(truth >= 0, truth, 0)]
    conf = fig.soft_confusion(crowd, np.where((truth >= 0)[:, None], onehot, 0.0))
    votes = np.bincount(crowd.uv, minlength=crowd.n_units * crowd.k).reshape(
        crowd.n_units, crowd.k).astype(np.float64)
    given_ = np.bincount(crowd.rv, minlength=crowd.n_raters * crowd.k).reshape(
        crowd.n_raters, crowd.k).astype(np.float64)
    return (hits, counts, c_hits, c_counts, *rec, conf, fig.kappa_totals(crowd, votes),
            given_ / np.maximum(given_.sum(axis=1, keepdims=True), 1))


def _shared(crowd, truth, labels):  # type: ignore[no-untyped-def]
    t = fig.tally(crowd, crowd.rating_matrix(), truth, labels, crowd.votes())
    return (*t.hits_and_counts(t.truth), *t.hits_and_counts(t.label), *t.recall(),
            t.confusion(), t.kappa_totals(),
            t.given / np.maximum(t.given.sum(axis=1, keepdims=True), 1))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_units=st.integers(1, 40),
       n_raters=st.integers(2, 7), k=st.integers(2, 5), shuffle=st.booleans())
def test_tally_gives_the_separate_counts_to_the_bit(seed: int, n_units: int, n_raters: int,
                                                    k: int, shuffle: bool) -> None:
    ann = _crowd(seed, n_units, n_raters, k, shuffle)
    crowd = crowd_of(ann, func="test")
    rng = np.random.default_rng(seed + 1)
    labels = rng.integers(0, k, crowd.n_units)
    truth = np.where(rng.random(crowd.n_units) < 0.2, -1, labels)  # ties: no truth
    for a, b in zip(_separate(crowd, truth, labels), _shared(crowd, truth, labels)):
        assert a.shape == b.shape
        assert np.array_equal(a, b, equal_nan=True)
        assert a.tobytes() == b.tobytes()  # the same floats, to the bit (and the same nans)


def test_tally_by_hand() -> None:
    # units x raters: u0 = (x, x, y), u1 = (y, y, -), u2 = (x, y, y); truth u0 x, u1 y, u2 none
    ann = accord.Annotations.from_wide([["x", "x", "y"], ["y", "y", None], ["x", "y", "y"]])
    crowd = crowd_of(ann, func="test")
    t = fig.tally(crowd, crowd.rating_matrix(), np.array([0, 1, -1]), np.array([0, 1, 1]),
                  crowd.votes())
    # rater_3 gave y on u0 (truth x) and y on u2 (no truth): one judged rating, a miss
    assert t.truth[2].tolist() == [[0.0, 1.0], [0.0, 0.0]]
    # rater_1 and rater_2 hit u0 and u1; rater_3 misses u0
    assert [x.tolist() for x in t.hits_and_counts(t.truth)] == [[2.0, 2.0, 0.0],
                                                                [2.0, 2.0, 1.0]]
    # against the labels (u2 labelled y): rater_1 misses u2, rater_2 hits all three,
    # rater_3 hits u2 only
    assert t.hits_and_counts(t.label)[0].tolist() == [2.0, 3.0, 1.0]
    # rater_1's kappa features: agreeing others 1 + 1 + 0, others 2 + 1 + 2, own share
    # of x weighted by others 2 + 2, of y 1; the others' votes x 1 + 0, y 1 + 1 + 2
    assert t.kappa_totals()[0].tolist() == [2.0, 5.0, 4.0, 1.0, 1.0, 4.0]


def test_one_units_by_categories_table_is_shared() -> None:
    ann = _crowd(3, 30, 5, 4, shuffle=True)
    units, _, values = ann.codes
    expected = np.bincount(units * 4 + values, minlength=ann.n_units * 4).reshape(-1, 4)
    assert ann.unit_counts() is ann.unit_counts()  # counted once
    assert np.array_equal(ann.unit_counts(), expected)
    assert not ann.unit_counts().flags.writeable
    rc = RaterCounts.from_annotations(ann)
    assert np.array_equal(rc.counts, RaterCounts.from_codes(ann.wide(), ann.categories).counts)
    crowd = crowd_of(ann, func="test")
    assert crowd.unit_counts is not None and crowd.unit_counts() is ann.unit_counts()
    assert crowd.votes().tobytes() == expected.astype(np.float64).tobytes()
    # the coefficients read the shared table and give the figures they gave from a fresh one
    fresh = _crowd(3, 30, 5, 4, shuffle=True)
    for f in (accord.fleiss_kappa, accord.gwet_ac1):
        assert f(ann).estimate == f(fresh).estimate


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_units=st.integers(1, 40),
       n_raters=st.integers(2, 6), k=st.integers(2, 4), shuffle=st.booleans())
def test_majority_competence_from_the_tally_is_wawas_weight(seed: int, n_units: int,
                                                             n_raters: int, k: int,
                                                             shuffle: bool) -> None:
    from accord.annotators._refit import competence
    from accord.annotators.quality import _consensus_truth

    ann = _crowd(seed, n_units, n_raters, k, shuffle)
    crowd = crowd_of(ann, func="test")
    with warnings.catch_warnings():  # a draw where each annotator keeps one label
        warnings.simplefilter("ignore", DegenerateDataWarning)
        cons = accord.consensus(ann, method="majority")
    truth = _consensus_truth(cons)
    t = fig.tally(crowd, crowd.rating_matrix(), truth, cons.label_codes, crowd.votes())
    hits, counts = t.hits_and_counts(t.truth)
    assert (hits / np.maximum(counts, 1)).tobytes() == competence(crowd, "majority").tobytes()
