"""Crowds with as many distinct labels as units (free text, entity ids): majority vote and
Wawa count the sparse (unit, label) votes; the EM models are refused in one sentence
(issue 40)."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

import accord
from accord.annotators import _sparse
from accord.annotators._crowd import crowd_of
from accord.data.annotations import Annotations
from accord.errors import DataError


def _wide(units: int, seed: int = 0) -> Annotations:
    """Three workers per unit, right 70% of the time, otherwise a label from 2 x units."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, units, units)
    unit = np.repeat(np.arange(units), 3)
    worker = (np.repeat(rng.integers(0, 50, units), 3) + np.tile([0, 17, 31], units)) % 50
    label = np.where(rng.random(unit.shape[0]) < 0.7, truth[unit],
                     rng.integers(0, 2 * units, unit.shape[0]))
    return Annotations.from_long({"u": unit, "w": worker, "v": [f"L{x}" for x in label]},
                                 unit="u", rater="w", value="v")


def _small(seed: int) -> Annotations:
    rng = np.random.default_rng(seed)
    rows = rng.choice(["a", "b", "c", "d", None], size=(40, 5), p=[.3, .3, .15, .15, .1])
    rows[:, 0] = np.where(rows[:, 0] == None, "a", rows[:, 0])  # noqa: E711
    return Annotations.from_wide(rows.tolist())


@pytest.mark.parametrize("method", ["majority", "wawa"])
@pytest.mark.parametrize("seed", range(6))
def test_the_sparse_votes_give_the_dense_figures(monkeypatch: pytest.MonkeyPatch, method: str,
                                                 seed: int) -> None:
    ann = _small(seed)
    dense = accord.consensus(ann, method=method)  # type: ignore[arg-type]
    monkeypatch.setattr(_sparse, "CELL_BUDGET", 1)
    monkeypatch.setattr(_sparse, "CELLS_PER_RATING", 0)
    sparse = accord.consensus(ann, method=method)  # type: ignore[arg-type]
    assert hasattr(sparse.posterior, "tocsr") and not hasattr(dense.posterior, "tocsr")
    np.testing.assert_allclose(sparse.posterior.toarray(), dense.posterior, rtol=1e-12)
    assert sparse.labels == dense.labels
    assert sparse.tied == dense.tied
    # Wawa's weighted votes are summed in another order (equal to the last bit or two),
    # which may order units of equal confidence otherwise
    assert sorted(sparse.uncertain) == sorted(dense.uncertain)
    a, b = sparse.to_dict(), dense.to_dict()
    key = [sorted(d["units"], key=lambda u: u["unit"]) for d in (a, b)]
    assert [u.pop("posterior") for u in key[0]] == pytest.approx(
        [u.pop("posterior") for u in key[1]], rel=1e-12)
    assert key[0] == key[1] and {**a, "units": 0} == {**b, "units": 0}
    if method == "majority":  # integer votes: the very same figures and order
        assert sparse.to_dict() == dense.to_dict()


def test_majority_on_ten_thousand_labels_holds_no_dense_table() -> None:
    ann = _wide(10_000)
    assert len(ann.categories) > 10_000  # units x categories dense: 10^8 cells, 800 MB
    tracemalloc.start()
    try:
        c = accord.consensus(ann, method="majority")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20
    assert hasattr(c.posterior, "tocsr") and len(c.units) == 10_000
    assert c.posterior.nnz <= 30_000
    np.testing.assert_allclose(np.asarray(c.posterior.sum(axis=1)).ravel(), 1.0)


@pytest.mark.parametrize("method", ["dawid_skene", "one_coin", "glad", "mace"])
def test_the_em_models_on_ten_thousand_labels_are_refused_in_one_sentence(method: str) -> None:
    with pytest.raises(DataError, match=r"past the budget .*'majority', 'wawa'") as info:
        accord.consensus(_wide(10_000), method=method)  # type: ignore[arg-type]
    assert "\n" not in str(info.value) and "GiB" in str(info.value)


def test_a_normal_crowd_stays_dense_and_unrefused() -> None:
    # 10^5 units of five classes: 5 x 10^5 posterior cells, under the budget
    rng = np.random.default_rng(1)
    rows = rng.integers(0, 5, size=(100_000, 3))
    ann = Annotations.from_wide(rows)
    assert not _sparse.over_budget("dawid_skene", crowd_of(ann, func="test"))


def test_annotator_figures_on_ten_thousand_labels_are_refused_in_one_sentence() -> None:
    with pytest.raises(DataError, match=r"confusion matrix of .* past the budget"):
        accord.annotators(_wide(10_000), method="majority")


def test_glad_on_one_annotator_of_a_hundred_thousand_labels_is_refused_at_once() -> None:
    n = 100_000
    ann = Annotations.from_long(
        {"u": np.r_[np.arange(n), np.arange(100)], "w": np.r_[np.zeros(n, int), np.ones(100, int)],
         "v": [f"L{i}" for i in range(n)] + [f"L{i}" for i in range(100)]},
        unit="u", rater="w", value="v")
    start = time.process_time()
    with pytest.raises(DataError, match="GLAD model .* past the budget"):
        accord.consensus(ann, method="glad")
    assert time.process_time() - start < 10  # before: a dense 10^5 x 10^5 posterior
