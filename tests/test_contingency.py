"""ContingencyTable: construction, marginals, sparse storage, shards and the worksheet."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import sparse

import accord
from accord import ContingencyTable
from accord.errors import DataError

COHEN_1960 = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]  # Cohen (1960), p. 45 (x 200)


def test_figures_of_cohen_1960() -> None:
    # Cohen (1960, p. 45): p_o = .70, p_c = .41, row and column marginals as printed
    t = ContingencyTable(COHEN_1960)
    assert t.n == 200 and t.k == 3 and t.categories == (0, 1, 2)
    assert t.row_totals.tolist() == [120, 60, 20]
    assert t.col_totals.tolist() == [100, 60, 40]
    assert t.diagonal.tolist() == [88, 40, 12]
    assert t.p_o == pytest.approx(0.70, abs=1e-15)
    assert t.p_e == pytest.approx(0.41, abs=1e-15)


def test_counts_from_lists_numpy_and_frames() -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    counts = [[20, 5], [10, 15]]
    forms = [counts, np.array(counts), np.array(counts, dtype=float),
             pd.DataFrame(counts), pl.DataFrame({"a": [20, 10], "b": [5, 15]}),
             pa.table({"a": [20, 10], "b": [5, 15]}), sparse.csr_array(np.array(counts))]
    for form in forms:
        t = ContingencyTable(form, ["yes", "no"])
        assert t.counts.tolist() == [[20, 5], [10, 15]], type(form)
        assert t.categories == ("yes", "no")


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([[1, 2, 3], [4, 5, 6]], "square"),
        ([1, 2, 3], "square"),
        ([[1, -1], [0, 2]], "non-negative"),
        ([[1, np.inf], [0, 2]], "finite"),
        ([["a", "b"], ["c", "d"]], "must be numbers"),
    ],
)
def test_invalid_counts(counts: object, message: str) -> None:
    with pytest.raises(DataError, match=message):
        ContingencyTable(counts)


def test_categories_must_match_the_size() -> None:
    with pytest.raises(DataError, match="categories has 3 labels but the table is 2 x 2"):
        ContingencyTable([[1, 2], [3, 4]], ["a", "b", "c"])


def test_empty_table_has_undefined_proportions() -> None:
    t = ContingencyTable([[0, 0], [0, 0]])
    assert t.n == 0 and math.isnan(t.p_o) and math.isnan(t.p_e)
    assert "undefined" in t.worksheet()


# --------------------------------------------------------------------------- from data
def test_from_codes_counts_with_one_bincount_and_sample_weight() -> None:
    a = np.array([0, 0, 1, 2, 2, 2])
    b = np.array([0, 1, 1, 2, 0, 2])
    t = ContingencyTable.from_codes(a, b, ["x", "y", "z"])
    expected = np.zeros((3, 3))
    np.add.at(expected, (a, b), 1)
    assert t.counts.tolist() == expected.tolist()
    w = np.array([0.5, 1, 2, 1, 1, 3])
    tw = ContingencyTable.from_codes(a, b, ["x", "y", "z"], sample_weight=w)
    expected_w = np.zeros((3, 3))
    np.add.at(expected_w, (a, b), w)
    np.testing.assert_allclose(tw.counts, expected_w)
    assert tw.n == pytest.approx(w.sum())


def test_from_annotations_leaves_out_units_rated_by_one() -> None:
    ann = accord.Annotations.from_wide({"a": ["x", "y", None, "x"], "b": ["x", "x", "y", None],
                                        "c": ["y", "y", "y", "y"]})
    t = ContingencyTable.from_annotations(ann, ["a", "b"])
    assert t.n == 2 and t.counts.tolist() == [[1, 0], [1, 0]]
    assert t.unit_ids == (0, 1)
    with pytest.raises(DataError, match="name two with raters"):
        ContingencyTable.from_annotations(ann)
    with pytest.raises(DataError, match="exactly two raters"):
        ContingencyTable.from_annotations(ann, ["a", "b", "c"])


def test_from_annotations_keeps_declared_categories_and_checks_weights() -> None:
    ann = accord.Annotations.from_wide([["lo", "lo"], ["hi", "lo"]], categories=["lo", "mid", "hi"])
    t = ContingencyTable.from_annotations(ann)
    assert t.categories == ("lo", "mid", "hi") and t.counts.tolist() == [
        [1, 0, 0], [0, 0, 0], [1, 0, 0]]
    with pytest.raises(DataError, match="one weight per unit"):
        ContingencyTable.from_annotations(ann, sample_weight=[1.0])


def test_labels_and_table_give_the_same_counts() -> None:
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, 4, 500), rng.integers(0, 4, 500)
    direct = np.zeros((4, 4))
    np.add.at(direct, (a, b), 1)
    t = ContingencyTable.from_annotations(accord.Annotations.from_pairs(a, b))
    assert t.counts.tolist() == direct.tolist()


# --------------------------------------------------------------------------- sparse
def test_many_categories_are_held_sparse_with_the_same_figures() -> None:
    rng = np.random.default_rng(5)
    k, n = 3000, 20_000
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.5, a, rng.integers(0, k, n))
    t = ContingencyTable.from_codes(a, b, list(range(k)))
    assert t.is_sparse
    rows, cols = np.bincount(a, minlength=k), np.bincount(b, minlength=k)
    assert t.row_totals.tolist() == rows.tolist() and t.col_totals.tolist() == cols.tolist()
    assert t.p_o == pytest.approx(np.mean(a == b), abs=1e-15)
    assert t.p_e == pytest.approx(rows @ cols / n**2, abs=1e-15)
    dense = ContingencyTable(t.counts)
    assert not dense.is_sparse and dense.p_e == pytest.approx(t.p_e, abs=1e-15)


def test_a_huge_sparse_table_refuses_a_dense_matrix() -> None:
    k = 30_000
    t = ContingencyTable(sparse.csr_array((np.ones(2), ([0, 1], [0, 1])), shape=(k, k)))
    assert t.p_o == 1.0
    with pytest.raises(DataError, match="would not fit in memory"):
        _ = t.counts


# --------------------------------------------------------------------------- shards
def test_tables_from_shards_add_up() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 3, 300), rng.integers(0, 3, 300)
    cats = ["x", "y", "z"]
    whole = ContingencyTable.from_codes(a, b, cats)
    parts = ContingencyTable.from_codes(a[:100], b[:100], cats) + ContingencyTable.from_codes(
        a[100:], b[100:], cats)
    assert parts == whole
    mixed = ContingencyTable(sparse.csr_array(whole.counts), cats) + ContingencyTable(
        np.zeros((3, 3)), cats)
    assert mixed.is_sparse and mixed == whole


def test_only_tables_over_the_same_categories_add() -> None:
    with pytest.raises(DataError, match="same categories"):
        ContingencyTable([[1, 0], [0, 1]], "ab") + ContingencyTable([[1, 0], [0, 1]], "ba")


def test_equality_and_hash() -> None:
    assert ContingencyTable([[1, 2], [3, 4]]) == ContingencyTable(np.array([[1.0, 2], [3, 4]]))
    assert ContingencyTable([[1, 2], [3, 4]]) != ContingencyTable([[1, 2], [3, 5]])
    with pytest.raises(TypeError):
        hash(ContingencyTable([[1]]))


# --------------------------------------------------------------------------- worksheet
def test_worksheet_text() -> None:
    text = ContingencyTable([[20, 5], [10, 15]], ["yes", "no"]).worksheet(
        rater_names=("Ann", "Bob"))
    assert text.splitlines() == [
        "Ann \\ Bob  yes  no  total",
        "yes         20   5     25",
        "no          10  15     25",
        "total       30  20     50",
        "p_o = 0.7000   p_e = 0.5000   kappa = 0.4000",
    ]


def test_worksheet_of_a_degenerate_table_says_undefined() -> None:
    text = ContingencyTable([[10, 0], [0, 0]], ["a", "b"]).worksheet()
    assert text.splitlines()[-1] == "p_o = 1.0000   p_e = 1.0000   kappa = undefined (p_e = 1)"


def test_worksheet_rich() -> None:
    import io

    from rich.console import Console

    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(ContingencyTable(COHEN_1960, ["a", "b", "c"]))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert [line.rstrip() for line in lines] == [
        "┏━━━━━━━━━━━━━━━━━━━┳━━━━━┳━━━━┳━━━━┳━━━━━━━┓",
        "┃ rater 1 \\ rater 2 ┃   a ┃  b ┃  c ┃ total ┃",
        "┡━━━━━━━━━━━━━━━━━━━╇━━━━━╇━━━━╇━━━━╇━━━━━━━┩",
        "│ a                 │  88 │ 14 │ 18 │   120 │",
        "│ b                 │  10 │ 40 │ 10 │    60 │",
        "│ c                 │   2 │  6 │ 12 │    20 │",
        "│ total             │ 100 │ 60 │ 40 │   200 │",
        "└───────────────────┴─────┴────┴────┴───────┘",
        "p_o = 0.7000   p_e = 0.4100   kappa = 0.4915",
    ]


def test_worksheet_of_many_categories_is_a_summary() -> None:
    k = 40
    text = ContingencyTable(np.eye(k) * 2 + 1).worksheet()
    assert text.startswith("(40 categories: too many to print as a table)")
