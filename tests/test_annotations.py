"""Annotations: constructors on every accepted input, missing values, categories, errors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.data.annotations import Annotations, build
from accord.errors import (
    DataError,
    DuplicateRatingError,
    InsufficientDataError,
    InvalidParameterError,
    UnknownCategoryError,
)

ROWS = [("u1", "ann", "pos"), ("u1", "bob", "neg"), ("u2", "ann", "pos"), ("u2", "bob", "pos"),
        ("u3", "ann", "neg"), ("u3", "bob", "neg")]
EXPECTED = {("u1", "ann", "pos"), ("u1", "bob", "neg"), ("u2", "ann", "pos"),
            ("u2", "bob", "pos"), ("u3", "ann", "neg"), ("u3", "bob", "neg")}


def _columns() -> dict[str, list[str]]:
    return {"unit": [r[0] for r in ROWS], "rater": [r[1] for r in ROWS],
            "value": [r[2] for r in ROWS]}


def _frames() -> list[Any]:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    frame = pd.DataFrame(_columns())
    return [frame, pl.DataFrame(_columns()), pa.table(_columns())]


# --------------------------------------------------------------------------- from_long
def test_from_long_on_records_with_positions() -> None:
    ann = Annotations.from_long(ROWS, unit=0, rater=1, value=2)
    assert set(ann.records()) == EXPECTED
    assert ann.units == ("u1", "u2", "u3") and ann.raters == ("ann", "bob")
    assert ann.categories == ("neg", "pos")


def test_from_long_on_dicts_numpy_and_mappings() -> None:
    as_dicts = [{"unit": u, "rater": r, "value": v} for u, r, v in ROWS]
    for data in (_columns(), as_dicts):
        assert set(Annotations.from_long(data).records()) == EXPECTED
    arr = np.array(ROWS, dtype=object)
    assert set(Annotations.from_long(arr, unit=0, rater=1, value=2).records()) == EXPECTED


def test_from_long_on_frames() -> None:
    for frame in _frames():
        ann = Annotations.from_long(frame, unit="unit", rater="rater", value="value")
        assert set(ann.records()) == EXPECTED, type(frame)
        assert ann.categories == ("neg", "pos")


def test_from_long_named_columns_and_missing_column() -> None:
    data = {"item": [1, 1], "coder": ["a", "b"], "label": [3, 3]}
    ann = Annotations.from_long(data, unit="item", rater="coder", value="label")
    assert list(ann.records()) == [(1, "a", 3), (1, "b", 3)]
    with pytest.raises(DataError, match="column 'unit' not found"):
        Annotations.from_long(data)


# --------------------------------------------------------------------------- from_wide
def test_from_wide_on_lists_numpy_and_dicts() -> None:
    rows = [["a", "a"], ["b", "a"], ["b", None]]
    for data in (rows, np.array(rows, dtype=object), {"rater_1": ["a", "b", "b"],
                                                      "rater_2": ["a", "a", None]}):
        ann = Annotations.from_wide(data)
        assert ann.raters == ("rater_1", "rater_2") and ann.n_ratings == 5
        assert ann.wide().tolist() == [[0, 0], [1, 0], [1, -1]]


def test_from_wide_on_frames_with_unit_and_rater_columns() -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    cols = {"id": ["x", "y", "z"], "r1": ["a", "b", None], "r2": ["a", "a", "b"],
            "note": ["", "", ""]}
    for frame in (pd.DataFrame(cols), pl.DataFrame(cols), pa.table(cols)):
        ann = Annotations.from_wide(frame, raters=["r1", "r2"], unit="id")
        assert ann.units == ("x", "y", "z") and ann.raters == ("r1", "r2")
        assert set(ann.records()) == {("x", "r1", "a"), ("x", "r2", "a"), ("y", "r1", "b"),
                                      ("y", "r2", "a"), ("z", "r2", "b")}


def test_from_wide_numeric_numpy_with_nan() -> None:
    m = np.array([[1.0, 2.0], [np.nan, 2.0], [3.0, 3.0]])
    ann = Annotations.from_wide(m)
    assert ann.categories == (1.0, 2.0, 3.0)
    assert ann.audit.dropped == {"missing value": 1}
    assert ann.n_units == 3


def test_from_wide_names_missing_rater_columns() -> None:
    with pytest.raises(DataError, match=r"rater column\(s\) \['r3'\] not found"):
        Annotations.from_wide({"r1": [1, 2], "r2": [1, 2]}, raters=["r1", "r3"])


def test_from_pairs() -> None:
    ann = Annotations.from_pairs(["a", "b"], ["a", "a"], raters=("gold", "model"))
    assert ann.raters == ("gold", "model")
    assert list(ann.records()) == [(0, "gold", "a"), (0, "model", "a"), (1, "gold", "b"),
                                   (1, "model", "a")]
    with pytest.raises(DataError, match="same length"):
        Annotations.from_pairs([1, 2, 3], [1, 2])


# --------------------------------------------------------------------------- missing values
@pytest.mark.parametrize("marker", [None, float("nan"), ""])
def test_default_missing_values_are_counted_not_categories(marker: Any) -> None:
    ann = Annotations.from_wide([["a", "a"], ["b", marker], [marker, "b"], ["a", "b"]])
    assert ann.categories == ("a", "b")
    assert ann.audit.dropped == {"missing value": 2}
    assert ann.audit.rows_read == 8 and ann.audit.ratings_used == 6
    assert not any(v is None or v == "" or (isinstance(v, float) and math.isnan(v))
                   for _, _, v in ann.records())


def test_user_missing_markers() -> None:
    rows = [("u1", "a", "yes"), ("u1", "b", "NA"), ("u2", "a", "."), ("u2", "b", "no"),
            ("u3", "a", "no"), ("u3", "b", "no")]
    ann = Annotations.from_long(rows, unit=0, rater=1, value=2, missing=["NA", "."])
    assert ann.categories == ("no", "yes")
    assert ann.audit.dropped["missing value"] == 2
    assert any("dropped 2: missing value" in line for line in ann.audit.lines())
    numeric = Annotations.from_wide([[1, -9], [2, 2], [3, 3]], missing=[-9])
    assert numeric.categories == (1, 2, 3) and numeric.audit.dropped["missing value"] == 1


def test_missing_unit_or_rater_ids_are_counted() -> None:
    rows = [("u1", "a", 1), ("u1", "b", 1), (None, "a", 2), ("u2", None, 2), ("u2", "a", 1),
            ("u2", "b", 1)]
    ann = Annotations.from_long(rows, unit=0, rater=1, value=2)
    assert ann.audit.dropped == {"missing unit or rater id": 2}
    assert ann.n_ratings == 4


# --------------------------------------------------------------------------- categories
def test_declared_categories_keep_unused_ones_and_their_order() -> None:
    ann = Annotations.from_wide([["b", "b"], ["c", "b"]], categories=["a", "b", "c", "d"])
    assert ann.categories == ("a", "b", "c", "d")
    assert ann.wide().tolist() == [[1, 1], [2, 1]]
    t = accord.ContingencyTable.from_annotations(ann)
    assert t.k == 4 and t.counts[0].sum() == 0 and t.counts[3].sum() == 0


def test_value_outside_declared_categories() -> None:
    with pytest.raises(UnknownCategoryError, match=r"'z'.*declared: \['a', 'b'\]"):
        Annotations.from_wide([["a", "z"], ["b", "a"]], categories=["a", "b"])


def test_declared_categories_must_be_distinct() -> None:
    with pytest.raises(DataError, match="distinct"):
        Annotations.from_wide([["a", "a"]], categories=["a", "a"])


def test_with_categories_reorders_and_keeps_ratings() -> None:
    ann = Annotations.from_wide([["lo", "hi"], ["mid", "mid"]])
    ordered = ann.with_categories(["lo", "mid", "hi"], level="ordinal")
    assert ordered.categories == ("lo", "mid", "hi") and ordered.level == "ordinal"
    assert set(ordered.records()) == set(ann.records())


# --------------------------------------------------------------------------- errors
def test_duplicates_error_names_the_pairs() -> None:
    rows = [("u1", "a", "x"), ("u1", "a", "y"), ("u1", "b", "x"), ("u2", "b", "x"),
            ("u2", "b", "y"), ("u2", "a", "x")]
    with pytest.raises(DuplicateRatingError,
                       match=r"2 unit\(s\).*unit 'u1' by rater 'a'.*unit 'u2' by rater 'b'"):
        Annotations.from_long(rows, unit=0, rater=1, value=2)


def test_duplicates_error_shows_the_first_few() -> None:
    rows = [(f"u{i}", "a", v) for i in range(5) for v in ("x", "y")] + \
           [(f"u{i}", "b", "x") for i in range(5)]
    with pytest.raises(DuplicateRatingError, match=r"5 unit\(s\).*and 2 more"):
        Annotations.from_long(rows, unit=0, rater=1, value=2)


def test_duplicates_last_keeps_the_last_value_and_says_so() -> None:
    rows = [("u1", "a", "x"), ("u1", "a", "y"), ("u1", "b", "x"), ("u1", "b", "x")]
    ann = Annotations.from_long(rows, unit=0, rater=1, value=2, duplicates="last")
    assert sorted(ann.records()) == [("u1", "a", "y"), ("u1", "b", "x")]
    assert any("kept the last value" in n for n in ann.audit.notes)
    assert any("identical repeated" in n for n in ann.audit.notes)


def test_identical_repeats_collapse_without_error() -> None:
    rows = [("u1", "a", "x"), ("u1", "a", "x"), ("u1", "b", "x")]
    assert Annotations.from_long(rows, unit=0, rater=1, value=2).n_ratings == 2


def test_duplicates_option_is_validated() -> None:
    with pytest.raises(InvalidParameterError, match="'duplicates' parameter"):
        Annotations.from_long(ROWS, unit=0, rater=1, value=2, duplicates="first")  # type: ignore[arg-type]


def test_fewer_than_two_raters() -> None:
    with pytest.raises(InsufficientDataError, match="at least two raters; found 1"):
        Annotations.from_wide([[1], [2]])
    with pytest.raises(InsufficientDataError, match="at least two raters"):
        Annotations.from_long([("u1", "a", 1), ("u2", "a", 2)], unit=0, rater=1, value=2)


def test_no_unit_rated_twice() -> None:
    with pytest.raises(InsufficientDataError, match="no unit was rated by two"):
        Annotations.from_wide([[1, None], [None, 2]])


def test_numeric_level_with_non_numeric_labels() -> None:
    with pytest.raises(DataError, match=r"level='interval' needs numeric values.*'high'"):
        Annotations.from_wide([["1", "high"], ["2", "3"]], level="interval")
    ann = Annotations.from_wide([["1", "2.5"], ["2", "3"]], level="ratio")
    assert ann.categories == (1.0, 2.0, 2.5, 3.0)
    with pytest.raises(DataError, match="not all numbers"):
        Annotations.from_wide([["a", "b"], ["b", "a"]]).numeric_values()


def test_level_is_validated() -> None:
    with pytest.raises(InvalidParameterError, match="'level' parameter"):
        Annotations.from_wide([[1, 2]], level="metric")  # type: ignore[arg-type]


def test_unhashable_labels() -> None:
    with pytest.raises(DataError, match="unhashable"):
        Annotations.from_wide([[{"a": 1}, "b"], ["a", "b"]])


def test_list_cells_are_sets_of_labels() -> None:
    ann = Annotations.from_wide([[["b", "a"], "b"], ["a", {"b"}]])
    assert ann.set_valued
    assert ann.categories == (("a",), ("a", "b"), ("b",))


def test_ragged_rows() -> None:
    with pytest.raises(DataError, match="same number of columns"):
        Annotations.from_wide([[1, 2], [1]])


def test_no_silent_coercion_of_mixed_labels() -> None:
    ann = Annotations.from_wide([[1, "1"], ["1", 1]])
    assert len(ann.categories) == 2  # the int 1 and the string "1" stay different


# --------------------------------------------------------------------------- views
def test_select_humans_and_kinds() -> None:
    ann = build(np.array(["u1", "u1", "u1", "u2", "u2", "u2"], dtype=object),
                np.array(["a", "b", "gpt", "a", "b", "gpt"], dtype=object),
                np.array(["x", "x", "y", "y", "y", "y"], dtype=object),
                kinds={"gpt": "llm"})
    assert ann.kinds == {"a": "human", "b": "human", "gpt": "llm"}
    assert ann.humans().raters == ("a", "b")
    sub = ann.select(["gpt", "a"])
    assert sub.raters == ("gpt", "a") and sub.n_ratings == 4
    with pytest.raises(DataError, match="not found"):
        ann.select(["c"])


def test_codes_are_read_only() -> None:
    units, _, _ = Annotations.from_wide([[1, 2]]).codes
    with pytest.raises(ValueError):
        units[0] = 5


# --------------------------------------------------------------------------- round trip
labels = st.sampled_from(["a", "b", "c", 1, 2, 2.5, ("t", 1)])


@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from(["r1", "r2", "r3"]), labels),
                min_size=2, max_size=40))
def test_records_round_trip(rows: list[tuple[int, str, Any]]) -> None:
    dedup = {(u, r): v for u, r, v in rows}  # one rating per (unit, rater)
    data = [(u, r, v) for (u, r), v in dedup.items()]
    raters = {r for _, r, _ in data}
    per_unit = [sum(1 for u2, _, _ in data if u2 == u) for u in {u for u, _, _ in data}]
    if len(raters) < 2 or max(per_unit) < 2:
        with pytest.raises(InsufficientDataError):
            Annotations.from_long(data, unit=0, rater=1, value=2)
        return
    ann = Annotations.from_long(data, unit=0, rater=1, value=2)
    assert sorted(map(repr, ann.records())) == sorted(map(repr, data))
    again = Annotations.from_long(list(ann.records()), unit=0, rater=1, value=2)
    assert list(again.records()) == list(ann.records())
    assert again.categories == ann.categories
