"""``cohen_kappa(..., labels=...)`` against scikit-learn 1.9's ``cohen_kappa_score(labels=)``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import accord
from accord.errors import DataError, InvalidParameterError

LETTERS = ["a", "b", "c", "d"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LETTERS), st.sampled_from(LETTERS)), min_size=4,
                max_size=40),
       st.permutations(LETTERS).map(lambda p: p[:3]),
       st.sampled_from([None, "linear", "quadratic"]))
def test_matches_scikit_learn(pairs: list[tuple[str, str]], labels: list[str],
                              weights: str | None) -> None:
    y1, y2 = [p[0] for p in pairs], [p[1] for p in pairs]
    inside = [p for p in pairs if p[0] in labels and p[1] in labels]
    if len({x for p in inside for x in p}) < 2:
        return  # p_e = 1 (sklearn returns nan with a warning there too)
    res = accord.cohen_kappa(y1, y2, labels=labels, weights=weights)
    expected = cohen_kappa_score(y1, y2, labels=labels, weights=weights)
    assert res.estimate == pytest.approx(expected, abs=1e-12)
    assert res.details["n_units_outside_labels"] == len(pairs) - len(inside)
    assert res.n_units == len(inside)


def test_an_absent_label_keeps_its_row() -> None:
    res = accord.cohen_kappa(["a", "b", "a"], ["a", "b", "b"], labels=["a", "b", "z"],
                             weights="linear")
    expected = cohen_kappa_score(["a", "b", "a"], ["a", "b", "b"], labels=["a", "b", "z"],
                                 weights="linear")
    assert res.estimate == pytest.approx(expected, abs=1e-12)


def test_bad_labels() -> None:
    with pytest.raises(DataError, match="none of labels"):
        accord.cohen_kappa(["a", "b"], ["a", "b"], labels=["x"])
    with pytest.raises(DataError, match="labels must be distinct"):
        accord.cohen_kappa(["a", "b"], ["a", "b"], labels=["a", "a"])
    with pytest.raises(InvalidParameterError, match="non-empty"):
        accord.cohen_kappa(["a", "b"], ["a", "b"], labels=[])
