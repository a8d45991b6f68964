"""RaterCounts: validation, counting from annotations and codes, patterns.

Counts are checked against statsmodels 0.15 ``aggregate_raters`` (the same
units x categories table) and against hand counts.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord import RaterCounts
from accord.errors import DataError


class TestValidation:
    def test_basic_properties(self) -> None:
        rc = RaterCounts([[0, 2, 1], [3, 0, 0], [1, 1, 0]], categories=["a", "b", "c"])
        assert rc.counts.dtype == np.int64
        assert rc.n_units == 3 and rc.n_categories == 3 and rc.n_raters == 3
        assert rc.n_ratings.tolist() == [3, 3, 2]
        assert rc.category_totals.tolist() == [4, 3, 1]
        assert rc.categories == ("a", "b", "c")
        assert "n_units=3" in repr(rc)

    def test_counts_read_only(self) -> None:
        rc = RaterCounts([[1, 1]])
        with pytest.raises(ValueError, match="read-only"):
            rc.counts[0, 0] = 5

    def test_whole_numbers_as_floats_accepted(self) -> None:
        assert RaterCounts([[1.0, 2.0]]).counts.tolist() == [[1, 2]]

    @pytest.mark.parametrize(("counts", "message"), [
        ([[1.5, 0.5]], "whole numbers"),
        ([[1, -1]], "non-negative"),
        ([[1, np.nan]], "non-negative"),
        ([1, 2, 3], "2-D"),
        ([["a", "b"]], "not numbers"),
        (np.zeros((2, 0)), "at least one category"),
    ])
    def test_bad_counts(self, counts: object, message: str) -> None:
        with pytest.raises(DataError, match=message):
            RaterCounts(counts)

    def test_categories_length_and_distinct(self) -> None:
        with pytest.raises(DataError, match="2 labels but the counts have 3 columns"):
            RaterCounts([[1, 1, 0]], categories=["a", "b"])
        with pytest.raises(DataError, match="distinct"):
            RaterCounts([[1, 1]], categories=["a", "a"])

    def test_frame_columns_become_categories(self) -> None:
        import pandas as pd

        rc = RaterCounts(pd.DataFrame({"yes": [2, 1], "no": [0, 1]}))
        assert rc.categories == ("yes", "no")
        assert rc.counts.tolist() == [[2, 0], [1, 1]]

    def test_rated_drops_empty_rows(self) -> None:
        rc = RaterCounts([[1, 1], [0, 0], [2, 0]]).rated()
        assert rc.counts.tolist() == [[1, 1], [2, 0]]


class TestCounting:
    def test_from_annotations_with_missing(self) -> None:
        ann = accord.Annotations.from_wide([["x", "y", None], ["y", "y", "y"], [None, "x", "x"]])
        rc = RaterCounts.from_annotations(ann)
        assert rc.categories == ("x", "y")
        assert rc.counts.tolist() == [[1, 1], [0, 3], [2, 0]]
        assert rc.unit_ids == (0, 1, 2)

    def test_declared_categories_kept(self) -> None:
        ann = accord.Annotations.from_wide([[1, 1], [1, 3]], categories=[1, 2, 3])
        assert RaterCounts.from_annotations(ann).counts.tolist() == [[2, 0, 0], [1, 0, 1]]

    def test_statsmodels_aggregate_raters(self) -> None:
        from statsmodels.stats.inter_rater import aggregate_raters  # statsmodels 0.15

        rng = np.random.default_rng(11)
        data = rng.integers(0, 5, size=(300, 6))
        expected, _ = aggregate_raters(data)
        ann = accord.Annotations.from_wide(data)
        assert np.array_equal(RaterCounts.from_annotations(ann).counts, expected)
        codes = data.astype(np.int64)
        assert np.array_equal(RaterCounts.from_codes(codes, range(5)).counts, expected)

    def test_from_codes_with_missing(self) -> None:
        codes = np.array([[0, -1, 1], [-1, -1, 2], [2, 2, 2]])
        rc = RaterCounts.from_codes(codes, ["a", "b", "c"])
        assert rc.counts.tolist() == [[1, 1, 0], [0, 0, 1], [0, 0, 3]]


@given(st.lists(st.lists(st.integers(0, 4), min_size=3, max_size=3), min_size=1, max_size=40))
def test_patterns_reconstruct_counts(rows: list[list[int]]) -> None:
    rc = RaterCounts(rows)
    patterns, counts, inverse = rc.patterns()
    assert np.array_equal(patterns[inverse], rc.counts)
    assert counts.sum() == rc.n_units
    assert len({tuple(p) for p in patterns.tolist()}) == patterns.shape[0]


def test_patterns_wide_rows_fall_back() -> None:
    """Rows too wide for one 63-bit key use the row-wise unique."""
    rng = np.random.default_rng(2)
    rows = rng.integers(0, 1000, size=(50, 12))
    rows[10] = rows[3]
    patterns, counts, inverse = RaterCounts(rows).patterns()
    assert np.array_equal(patterns[inverse], rows)
    assert patterns.shape[0] == 49 and counts.max() == 2
