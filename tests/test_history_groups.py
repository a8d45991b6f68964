"""accord.groups: one analysis per group of units; each group's kappa is checked against
scikit-learn's ``cohen_kappa_score`` on that group's raw labels."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import accord
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError


def _data(seed: int = 1, n: int = 60) -> tuple[accord.Annotations, list[str], np.ndarray,
                                               np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = np.where(rng.random(n) < 0.7, a, rng.integers(0, 3, n))
    batch = [f"week {i % 3}" for i in range(n)]
    rows = [(f"u{i}", r, int(x)) for i in range(n) for r, x in (("A", a[i]), ("B", b[i]))]
    return accord.Annotations.from_long(rows, unit=0, rater=1, value=2), batch, a, b


def test_each_group_is_its_own_analysis() -> None:
    ann, batch, a, b = _data()
    by = dict(zip((f"u{i}" for i in range(len(batch))), batch))
    res = accord.groups(ann, by=by).apply(accord.cohen_kappa)
    assert res.names == ("week 0", "week 1", "week 2")
    for name, r in zip(res.names, res.results):
        idx = [i for i, g in enumerate(batch) if g == name]
        assert r.estimate == pytest.approx(cohen_kappa_score(a[idx], b[idx]), abs=1e-14)
        assert r.n_units == len(idx)
    assert res.pooled.estimate == pytest.approx(cohen_kappa_score(a, b), abs=1e-14)
    assert res["week 1"] is res.results[1]
    assert res.to_dict()["groups"][0]["group"] == "week 0"


def test_mapping_sequence_and_function_agree() -> None:
    ann, batch, _, _ = _data()
    as_map = accord.groups(ann, by=dict(zip(ann.units, batch)))
    as_seq = accord.groups(ann, by=batch)
    as_fun = accord.groups(ann, by=lambda u: f"week {int(str(u)[1:]) % 3}")
    sizes = [[p.n_units for p in g.parts] for g in (as_map, as_seq, as_fun)]
    assert sizes[0] == sizes[1] == sizes[2] == [20, 20, 20]
    assert len(as_map) == 3 and list(as_map) == list(as_map.names)
    assert as_map["week 2"].n_units == 20 and as_map.items()[0][0] == "week 0"


def test_missing_group_values_form_their_own_group_and_are_said() -> None:
    ann, batch, _, _ = _data()
    batch[0], batch[1] = None, float("nan")  # type: ignore[call-overload]
    batch[2] = "  "
    g = accord.groups(ann, by=batch)
    assert g.names[0] == "(missing)" and g["(missing)"].n_units == 3
    assert g.notes == ("3 unit(s) have no group; they are analysed together as the group "
                       "'(missing)'",)
    with pytest.raises(DataError, match="3 unit\\(s\\) have no group"):
        accord.groups(ann, by=batch, missing="error")


def test_a_group_with_one_unit_is_undefined_with_a_reason() -> None:
    ann, batch, _, _ = _data()
    batch[5] = "lonely"
    with pytest.warns(DegenerateDataWarning, match="group 'lonely' has 1 unit"):
        res = accord.groups(ann, by=batch).apply(accord.cohen_kappa)
    lonely = res["lonely"]
    assert math.isnan(lonely.estimate) and lonely.undefined_reason is not None
    assert all(r.defined for n, r in zip(res.names, res.results) if n != "lonely")


def test_bad_by_is_one_sentence() -> None:
    ann, batch, _, _ = _data()
    with pytest.raises(InvalidParameterError, match="a group for each of the 60 units"):
        accord.groups(ann, by=batch[:10])
    with pytest.raises(InvalidParameterError, match="'by' parameter of groups"):
        accord.groups(ann, by=3)  # type: ignore[arg-type]


def test_groups_feed_compare_and_homogeneity() -> None:
    ann, batch, _, _ = _data(n=300)
    res = accord.groups(ann, by=batch).apply(accord.cohen_kappa)
    d = accord.compare(res["week 1"], res["week 0"])
    assert d.design == "independent"
    test = accord.homogeneity(res.results)
    assert test.df == 2 and 0 <= test.pvalue <= 1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_unit_order_does_not_change_the_groups(seed: int) -> None:
    ann, batch, a, b = _data(seed=3, n=45)
    order = np.random.default_rng(seed).permutation(45)
    rows = [(f"u{i}", r, int(x)) for i in order for r, x in (("A", a[i]), ("B", b[i]))]
    shuffled = accord.Annotations.from_long(rows, unit=0, rater=1, value=2)
    by = dict(zip((f"u{i}" for i in range(45)), batch))
    one = accord.groups(ann, by=by).apply(accord.cohen_kappa)
    two = accord.groups(shuffled, by=by).apply(accord.cohen_kappa)
    for name in one.names:
        assert one[name].estimate == pytest.approx(two[name].estimate, abs=1e-14)
