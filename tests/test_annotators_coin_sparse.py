"""A vote's quality and relabelling on crowds of many labels: the one-coin fit held at
the voted cells gives the dense fit's figures (Hypothesis), and on 10^4 labels it runs
in memory proportional to the ratings."""

from __future__ import annotations

import json
import tracemalloc
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import accord
from accord.annotators import _coin_sparse, _em, _relabel_sparse, _sparse
from accord.annotators._crowd import Crowd, crowd_of
from accord.data.annotations import Annotations
from accord.errors import InsufficientDataError
from tests.conftest import run_cli as run


def _crowd_rows(seed: int, n: int, r: int, k: int, missing: float) -> list[list[object]]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    skill = rng.uniform(0.2, 0.95, r)
    right = rng.random((n, r)) < skill
    labels = np.where(right, truth[:, None], rng.integers(0, k, (n, r)))
    rows: list[list[object]] = [[f"c{x}" for x in row] for row in labels.tolist()]
    gone = rng.random((n, r)) < missing
    gone[:, 0] = False  # every unit keeps a rating
    for i, j in zip(*np.nonzero(gone)):
        rows[i][j] = None
    return rows


crowds = st.tuples(st.integers(0, 10**6), st.integers(3, 40), st.integers(2, 6),
                   st.integers(2, 7), st.floats(0.0, 0.6))


def _spread(crowd: Crowd, dense: _em.Fit) -> float:
    """How far the dense fit moves when only its rounding changes: the largest change in
    its posterior, accuracies and prior with the categories, and then the units and
    ratings, in reverse order (``inf`` when the iteration count changes). Near an
    unstable point EM multiplies its rounding each iteration (two raters at chance on
    two labels), and at a symmetric one (every unit split evenly) the last bit of a sum
    decides which way it leaves: there the figures are not the data's to 1e-12."""
    n, k = crowd.n_units, crowd.k
    flipped = replace(crowd, value=k - 1 - crowd.value, unit_counts=None,
                      categories=crowd.categories[::-1])
    turned = replace(flipped, unit=(n - 1 - flipped.unit)[::-1].copy(),
                     rater=flipped.rater[::-1].copy(), value=flipped.value[::-1].copy(),
                     unit_ids=crowd.unit_ids[::-1])
    out = 0.0
    for other, rows in ((flipped, slice(None)), (turned, slice(None, None, -1))):
        fit = _em.fit("one_coin", other, tol=1e-7, max_iter=1000)
        if fit.n_iter != dense.n_iter:
            return float("inf")
        a, p = fit.parameters["accuracy"], fit.parameters["prior"][::-1]
        out = max(out, float(np.abs(fit.posterior[rows, ::-1] - dense.posterior).max()),
                  float(np.abs(a - dense.parameters["accuracy"]).max()),
                  float(np.abs(p - dense.parameters["prior"]).max()))
    return out


@settings(max_examples=150, deadline=None)
@given(crowds)
@example((3466, 3, 2, 2, 0.5))
def test_the_fit_at_the_voted_cells_is_the_dense_fit(args: tuple) -> None:
    try:
        crowd = crowd_of(Annotations.from_wide(_crowd_rows(*args), require_pairs=False),
                         func="test")
    except InsufficientDataError:  # one label in use: no consensus to fit
        assume(False)
    dense = _em.fit("one_coin", crowd, tol=1e-7, max_iter=1000)
    spread = _spread(crowd, dense)
    assume(spread < 1e-9)
    # 1e-12, or the dense fit's own spread under another order of summation if wider; an
    # annotator fitted at chance (accuracy 1/k) is the unstable point where EM multiplies
    # its rounding each iteration, which the reorderings above can leave exact (the
    # pinned case: two annotators who always disagree, 6.7e-12 apart after 17 iterations)
    chance = float(np.abs(dense.parameters["accuracy"] - 1.0 / crowd.k).min())
    tol = max(1e-12, 4 * spread, 1e-10 if chance < 1e-3 else 0.0)
    held = _coin_sparse.one_coin(crowd, tol=1e-7, max_iter=1000)
    post = held.posterior
    np.testing.assert_allclose(post.voted, dense.posterior.ravel()[post.cells], rtol=0,
                               atol=tol)
    np.testing.assert_allclose(post.toarray(), dense.posterior, rtol=0, atol=tol)
    for name in ("accuracy", "prior"):
        np.testing.assert_allclose(held.parameters[name], dense.parameters[name], rtol=0,
                                   atol=tol)
    assert held.log_likelihood == pytest.approx(dense.log_likelihood, rel=1e-12, abs=tol)
    assert (held.n_iter, held.converged) == (dense.n_iter, dense.converged)


def test_a_fit_settled_by_rounding_is_not_compared() -> None:
    # two raters, two labels, every split unit 1-1: the majority start is a symmetric
    # fixed point, left one way or the other on the last bit of a sum
    rows = [["c0", "c1"], ["c1", "c1"], ["c0", "c0"], ["c0", "c1"]]
    crowd = crowd_of(Annotations.from_wide(rows), func="test")
    dense = _em.fit("one_coin", crowd, tol=1e-7, max_iter=1000)
    assert _spread(crowd, dense) > 0.5
    crowd = crowd_of(Annotations.from_wide([*rows, ["c0", "c0"]]), func="test")
    assert _spread(crowd, _em.fit("one_coin", crowd, tol=1e-7, max_iter=1000)) < 1e-12


def _forced_sparse(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_sparse, "CELL_BUDGET", 1)
    monkeypatch.setattr(_sparse, "CELLS_PER_RATING", 0)


@pytest.mark.parametrize("direct", [True, False])
@pytest.mark.parametrize("method", ["majority", "wawa"])
@pytest.mark.parametrize(("seed", "k"), [(0, 5), (1, 5), (2, 7), (3, 3), (4, 2)])
def test_quality_and_relabel_held_sparse_are_the_dense_figures(
        monkeypatch: pytest.MonkeyPatch, method: str, seed: int, k: int, direct: bool) -> None:
    # k = 2, 3: units that received every label (no class left unvoted)
    ann = Annotations.from_wide(_crowd_rows(seed, 40, 4, k, 0.2))
    dense = accord.consensus(ann, method=method)  # type: ignore[arg-type]
    q, again = dense.quality, dense.relabel(40)
    _forced_sparse(monkeypatch)
    if not direct:  # the sum over the classes read from its interpolant
        monkeypatch.setattr(_relabel_sparse, "DIRECT", 0)
    held = accord.consensus(ann, method=method)  # type: ignore[arg-type]
    assert hasattr(held.posterior, "tocsr")
    assert isinstance(held._quality_posterior, _coin_sparse.SparsePosterior)
    hq, ha = held.quality, held.relabel(40)
    np.testing.assert_allclose(hq.consensus, q.consensus, rtol=0, atol=1e-12)
    np.testing.assert_allclose(hq.annotator_labels, q.annotator_labels, rtol=0, atol=1e-12)
    assert hq.estimate == q.estimate and ha.score == again.score
    assert ha.accuracy == pytest.approx(again.accuracy, abs=1e-12)
    assert set(ha.units) == set(again.units)
    mine = {u: i for i, u in enumerate(ha.units)}
    at = [mine[u] for u in again.units]
    for name in ("gain", "p_change", "p_confirm", "quality"):
        np.testing.assert_allclose(getattr(ha, name)[at], getattr(again, name), rtol=0,
                                   atol=1e-12, err_msg=name)


def test_the_interpolated_sum_over_the_classes_is_the_direct_sum() -> None:
    rng = np.random.default_rng(7)
    mass = rng.dirichlet(np.full(20_000, 0.3))
    scale = np.exp(rng.uniform(-12.0, 16.0, 1_500))
    scale[:3] = [1e-9, 0.0, 1e-12]  # the Taylor series' end
    direct = _relabel_sparse._sum_q(scale, mass)
    old = _relabel_sparse.DIRECT
    try:
        _relabel_sparse.DIRECT = 0
        read = _relabel_sparse.total_q(scale, mass)
    finally:
        _relabel_sparse.DIRECT = old
    np.testing.assert_allclose(read, direct, rtol=1e-11, atol=0)


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


@pytest.mark.parametrize("method", ["majority", "wawa"])
def test_quality_and_relabel_on_ten_thousand_labels_hold_no_dense_table(method: str) -> None:
    ann = _wide(10_000)
    c = accord.consensus(ann, method=method)  # type: ignore[arg-type]
    assert hasattr(c.posterior, "tocsr") and len(c.categories) > 10_000
    tracemalloc.start()
    try:
        q = c.quality
        again = c.relabel(20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20  # units x categories dense would be 10^8 cells, 800 MB
    assert q.consensus.shape == (10_000,) and q.annotator_labels.shape == (30_000,)
    assert ((q.consensus >= 0) & (q.consensus <= 1)).all()
    # the voted label of a unanimous unit is far likelier right than a 1-1-1 split's
    labels_per_unit = np.diff(c.posterior.indptr)
    unanimous, split = labels_per_unit == 1, labels_per_unit == 3
    assert unanimous.sum() > 1000 and split.sum() > 1000
    assert q.consensus[unanimous].mean() > 0.99 > 0.6 > q.consensus[split].mean()
    assert len(again) == 20
    if method == "majority":  # a 1-1-1 split is tied, and the tied units come first
        assert all(u in c.tied for u in again.units)
    assert (again.p_change > 0.5).all() and (again.gain > 0).all()


@pytest.mark.parametrize("units", [3_000, 8_000])  # under and past the dense budget
def test_cli_consensus_relabel_on_many_labels_gives_quality_per_unit(tmp_path: Path,
                                                                      units: int) -> None:
    rng = np.random.default_rng(3)
    path = tmp_path / "wide.csv"
    with path.open("w") as f:
        f.write("unit,worker,label\n")
        for u in range(units):
            for w in rng.choice(40, 3, replace=False):
                f.write(f"u{u},w{w},L{rng.integers(0, 2 * units)}\n")
    args = [str(path), "--unit", "unit", "--rater", "worker", "--value", "label",
            "--method", "majority", "--relabel", "4"]
    code, out, err = run("consensus", *args, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["quality_estimate"] == "one-coin posterior of the majority label"
    assert all(0 <= r["quality"] <= 1 for r in doc["results"])
    assert len(doc["relabel"]["results"]) == 4
    code, out, err = run("consensus", *args)
    assert code == 0 and "Relabel these first" in out, err
    assert "not ranked" not in out
