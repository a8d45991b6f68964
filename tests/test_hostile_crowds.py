"""Crowds built to trip the consensus models: a declared category nobody used."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import accord
from accord.engines import consensus as engine_consensus

# three workers (columns) on four units; 'z' is declared but never given
ROWS = [["y", "y", "x"], ["y", "x", "y"], ["x", "x", "x"], ["y", "y", "x"]]


@pytest.mark.parametrize(("method", "accelerate"), [
    ("dawid_skene", False), ("dawid_skene", True), ("one_coin", False), ("one_coin", True),
    ("mace", False)])
def test_an_unused_declared_category_keeps_posterior_zero(method: str,
                                                          accelerate: bool) -> None:
    c = accord.consensus(ROWS, method=method,  # type: ignore[arg-type]
                         categories=["x", "y", "z"], accelerate=accelerate)
    assert c.categories == ("x", "y", "z")
    assert np.all(c.posterior[:, 2] == 0.0)
    assert "z" not in [r["label"] for r in c.rows()]


def test_dawid_skene_with_an_unused_class_labels_as_crowd_kit() -> None:
    # crowd-kit 1.4.2, DawidSkene(n_iter=100).fit_predict on the same 12 ratings (which
    # never sees 'z'): ['y', 'x', 'x', 'y']; before, unit 1 (rated y, x, y) was 'z' at 1.0
    c = accord.consensus(ROWS, method="dawid_skene", categories=["x", "y", "z"])
    assert [c.labels[u] for u in range(4)] == ["y", "x", "x", "y"]
    undeclared = accord.consensus(ROWS, method="dawid_skene")
    assert [undeclared.labels[u] for u in range(4)] == ["y", "x", "x", "y"]


@pytest.mark.parametrize("method", ["dawid_skene", "one_coin"])
def test_the_engine_holds_an_unused_class_at_zero_too(method: str) -> None:
    frame = pl.DataFrame([(u, w, x) for u, row in enumerate(ROWS) for w, x in enumerate(row)],
                         schema=["u", "w", "l"], orient="row").lazy()
    got = engine_consensus(frame, unit="u", rater="w", value="l", method=method,
                           categories=["x", "y", "z"]).statistic
    mem = accord.consensus(ROWS, method=method, categories=["x", "y", "z"])
    assert np.all(got.posterior[:, 2] == 0.0)
    assert [got.labels[u] for u in range(4)] == [mem.labels[u] for u in range(4)]


def test_wawa_says_which_annotators_weigh_nothing_for_want_of_a_majority() -> None:
    # 'c' rates units 0 and 1 only, each a tie (x against y): no majority label, so
    # Wawa's weight for 'c' is 0 (Wawa: agreement with the majority label, units with a
    # tied majority left out); 'a' and 'b' agree with the majority of unit 2
    rows = {"a": ["x", None, "x", "y"], "b": [None, "x", "x", "y"], "c": ["y", "y", None, None]}
    c = accord.consensus(rows, method="wawa")
    assert c.parameters["skill"].tolist() == [1.0, 1.0, 0.0]
    said = [n for n in c.notes if "rated only units whose majority is tied" in n]
    assert said == ["1 annotator(s) rated only units whose majority is tied ('c'): Wawa "
                    "gives them weight 0 (no majority label to agree with), so their votes "
                    "count only where every annotator of a unit has weight 0."]
    plain = accord.consensus({"a": ["x", "y"], "b": ["x", "y"]}, method="wawa")
    assert not any("majority is tied" in n for n in plain.notes)


@pytest.mark.parametrize("method", ["majority", "wawa", "dawid_skene", "one_coin", "mace"])
def test_a_crowd_where_no_unit_is_rated_twice_is_labelled_and_flagged(method: str) -> None:
    # the crowds guide: units rated once are kept and flagged, even when all of them are
    table = [["x", None, None], [None, "y", None], [None, None, "x"], ["y", None, None]]
    c = accord.consensus(table, method=method)  # type: ignore[arg-type]
    if method in ("majority", "wawa"):  # an EM model may read an annotator's label as another
        assert [c.labels[u] for u in c.units] == ["x", "y", "x", "y"]
    assert c.single_rated == c.units and len(c.units) == 4
    ann = accord.Annotations.from_long(
        {"u": [1, 2, 3], "r": ["a", "b", "a"], "v": ["x", "y", "y"]}, unit="u", rater="r",
        value="v", require_pairs=False)
    assert accord.consensus(ann, method="majority").single_rated == (1, 2, 3)


def test_agreement_still_refuses_a_table_where_no_unit_is_rated_twice() -> None:
    with pytest.raises(accord.errors.InsufficientDataError, match="no unit was rated by two"):
        accord.fleiss_kappa([["x", None], [None, "y"]])
