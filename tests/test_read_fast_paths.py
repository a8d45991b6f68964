"""The O(n) paths of reading (ids coded through a table of the ids present, the duplicate
check by one flag per (unit, rater) pair or an in-place sort) give what the general,
sorting paths give."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest.mock import patch

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.data import _encoding as enc
from accord.data.annotations import Annotations, build
from accord.errors import DuplicateRatingError

ints = st.lists(st.integers(0, 40), min_size=1, max_size=300)


def _reference(values: list[Any], order: str) -> tuple[list[int], list[Any]]:
    """Codes and distinct values by plain Python: sorted, or by first appearance."""
    labels = sorted(set(values)) if order == "sorted" else list(dict.fromkeys(values))
    index = {x: i for i, x in enumerate(labels)}
    return [index[x] for x in values], labels


@settings(max_examples=200, deadline=None)
@given(values=ints, order=st.sampled_from(["sorted", "appearance"]), copy=st.booleans(),
       dtype=st.sampled_from([np.int64, np.int32, np.uint16, np.uint64]))
def test_integer_codes_through_a_table_match_plain_python(
    values: list[int], order: str, copy: bool, dtype: Any
) -> None:
    arr = np.array(values, dtype=dtype)
    codes, labels = enc.factorize(arr, order=order, copy=copy)
    assert (codes.tolist(), labels) == _reference(values, order)
    assert codes.dtype == np.int64
    assert all(type(x) is int for x in labels)
    if copy:
        assert not np.shares_memory(codes, arr)


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.sampled_from(["b", "a", "c", "d"]), min_size=1, max_size=200))
def test_text_codes_in_order_of_appearance_match_plain_python(values: list[str]) -> None:
    arr = np.array(values, dtype=object)
    codes, labels = enc.factorize(arr, order="appearance")
    assert (codes.tolist(), labels) == _reference(values, "appearance")


def test_codes_already_in_order_are_kept_without_a_copy_when_asked() -> None:
    sorted_units = np.repeat(np.arange(1000), 3)
    codes, labels = enc.factorize(sorted_units, order="appearance", copy=False)
    assert codes is sorted_units and labels == list(range(1000))
    raters = np.array([0, 1, 0, 2, 1, 3, 2])  # each new rater is the next number
    assert enc.factorize(raters, order="appearance", copy=False)[0] is raters
    assert not np.shares_memory(enc.factorize(raters, order="appearance")[0], raters)


def test_a_value_first_seen_late_in_a_long_array_takes_its_place() -> None:
    """Growing prefixes find the first positions; a rater first seen after 10^5 rows
    (beyond the first prefixes) still gets its place in the order of appearance."""
    rng = np.random.default_rng(0)
    arr = rng.integers(0, 50, 300_000)
    arr[arr == 7] = 8
    arr[250_000] = 7
    arr[-1] = 60  # and one past a gap, seen last
    codes, labels = enc.factorize(arr, order="appearance")
    assert (codes.tolist(), labels) == _reference(arr.tolist(), "appearance")
    assert labels[-2:] == [7, 60]


def _brute_repeats(u: np.ndarray, r: np.ndarray) -> list[int]:
    pairs = list(zip(u.tolist(), r.tolist()))
    counts: dict[tuple[int, int], int] = {}
    for p in pairs:
        counts[p] = counts.get(p, 0) + 1
    return [i for i, p in enumerate(pairs) if counts[p] > 1]


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 5)), min_size=1,
                      max_size=200),
       spread=st.sampled_from([1, 10**6]))
def test_repeated_rows_match_a_count_of_every_pair(
    pairs: list[tuple[int, int]], spread: int
) -> None:
    """``spread`` makes the pairs too many for one flag each, so the sort path runs."""
    from accord.data._duplicates import repeated_rows

    u = np.array([p[0] for p in pairs], dtype=np.int64) * spread
    r = np.array([p[1] for p in pairs], dtype=np.int64)
    rows = repeated_rows(u, r, 6)
    expected = _brute_repeats(u, r)
    assert (rows.tolist() if rows is not None else []) == expected
    assert (rows is None) == (not expected)


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 5)), min_size=1,
                      max_size=200),
       block=st.sampled_from([1, 2, 3, 7, 1 << 20]))
def test_repeats_in_rows_grouped_by_unit_are_found_block_by_block(
    pairs: list[tuple[int, int]], block: int
) -> None:
    """Rows sorted by unit, too many possible pairs for one flag each: the keys are sorted
    in blocks of whole units (tiny blocks here, so units span and cut them)."""
    from accord.data._duplicates import repeated_rows

    pairs = sorted(pairs, key=lambda p: p[0])
    u = np.array([p[0] for p in pairs], dtype=np.int64) * 10**6
    r = np.array([p[1] for p in pairs], dtype=np.int64)
    with patch.object(enc, "BLOCK", block):
        rows = repeated_rows(u, r, 6)
    expected = _brute_repeats(u, r)
    assert (rows.tolist() if rows is not None else []) == expected


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.integers(0, 40), min_size=1, max_size=300),
       block=st.sampled_from([1, 5, 1 << 20]))
def test_ids_coded_in_place_match_ids_coded_into_a_new_array(
    values: list[int], block: int
) -> None:
    arr = np.array(values, dtype=np.int64)
    expected = enc.small_int_codes(arr, appearance=True)
    assert expected is not None
    with patch.object(enc, "BLOCK", block):
        got = enc.small_int_codes(arr, appearance=True, copy=False, overwrite=True)
    assert got is not None
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])
    frozen = np.array(values, dtype=np.int64)
    frozen.flags.writeable = False  # a read-only column is never written to
    kept = enc.small_int_codes(frozen, appearance=True, copy=False, overwrite=True)
    assert kept is not None and np.array_equal(kept[0], expected[0])
    assert frozen.tolist() == values


def _same(a: Annotations, b: Annotations) -> None:
    for x, y in zip(a.codes, b.codes):
        assert np.array_equal(x, y)
    assert (a.units, a.raters, a.categories) == (b.units, b.raters, b.categories)
    assert a.audit == b.audit


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 4), st.integers(0, 3)),
                     min_size=1, max_size=120))
def test_building_without_copies_gives_the_same_annotations(
    rows: list[tuple[int, int, int]]
) -> None:
    """``copy=False`` (a reader's own arrays) against the default, with repeats resolved
    by ``duplicates="last"`` (what was dropped is counted the same)."""
    u, r, v = (np.array(c, dtype=np.int64) for c in zip(*rows))
    made = [build(u.copy(), r.copy(), v.copy(), duplicates="last", copy=c) for c in (True, False)]
    _same(made[0], made[1])
    pairs = {(a, b) for a, b, _ in rows}
    assert made[0].n_ratings == len(pairs)


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 4), st.integers(0, 3)),
                     min_size=1, max_size=120),
       duplicates=st.sampled_from(["error", "last"]))
def test_ids_given_as_codes_build_what_numbering_them_builds(
    rows: list[tuple[int, int, int]], duplicates: Any
) -> None:
    """``coded=`` (a reader's ids, numbered in order of first appearance) against ``build``
    numbering the same codes itself: the same annotations, or the same error."""
    u, r, v = (np.array(c, dtype=np.int64) for c in zip(*rows))
    u = enc.factorize(u, order="appearance")[0]
    r = enc.factorize(r, order="appearance")[0]
    coded = (int(u.max()) + 1, int(r.max()) + 1)
    made: list[Any] = []
    for given_codes in (None, coded):
        try:
            made.append(build(u, r, v, duplicates=duplicates, copy=False, coded=given_codes))
        except DuplicateRatingError as exc:
            made.append(str(exc))
    if isinstance(made[0], str):
        assert made[0] == made[1]
    else:
        _same(made[0], made[1])


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(st.sampled_from(["07", "7", "a", "b b", "Z", "é"]), min_size=1,
                    max_size=60),
       grouped=st.booleans())
def test_text_ids_are_numbered_in_order_of_first_appearance(
    ids: list[str], grouped: bool
) -> None:
    """Sorted ids (runs of rows) and any others: the codes plain Python gives."""
    from accord.readers._ids import id_codes

    if grouped:
        ids = sorted(ids)
    codes, labels, seen = id_codes(pl.Series(ids, dtype=pl.String))
    assert seen and (codes.tolist(), labels) == _reference(ids, "appearance")


def test_integer_and_text_ids_read_as_the_general_path_codes_them(tmp_path: Path) -> None:
    """A Parquet file with integer ids (shuffled, with gaps; coded through a table of the
    ids present) and the same file with the ids as text (an Enum of the ids in order of
    first appearance) give the annotations that Python strings give through ``build``."""
    rng = np.random.default_rng(2)
    n = 20_000
    unit = rng.choice(rng.permutation(5000)[:3000] * 7, n)
    worker = rng.integers(0, 400, n) * 3 + 11
    label = rng.integers(0, 5, n)
    df = pl.DataFrame({"comment_id": unit, "worker_id": worker, "toxicity": label})
    df = df.unique(["comment_id", "worker_id"], keep="first", maintain_order=True)
    paths = [tmp_path / "ints.parquet", tmp_path / "text.parquet"]
    df.write_parquet(paths[0])
    df.with_columns(pl.col("comment_id", "worker_id").cast(pl.String)).write_parquet(paths[1])
    cols = {"unit": "comment_id", "rater": "worker_id", "value": "toxicity"}
    ints, text = (accord.read(p, **cols) for p in paths)
    as_text = df.with_columns(pl.col("comment_id", "worker_id").cast(pl.String))
    general = Annotations.from_long(  # Python strings through np.unique and a reorder
        {k: as_text[k].to_list() for k in as_text.columns}, **cols)
    for fast in (ints, text):
        assert (fast.units, fast.raters, fast.categories) == (
            general.units, general.raters, general.categories)
        for x, y in zip(fast.codes, general.codes):
            assert np.array_equal(x, y)
    assert ints.units[:3] == tuple(str(x) for x in df["comment_id"].unique(
        maintain_order=True).head(3).to_list())
    assert ints.audit.ratings_used == text.audit.ratings_used == df.height


@pytest.mark.parametrize("label_shift", [0, 1])
def test_a_repeated_pair_in_a_long_file_is_collapsed_or_refused(
    tmp_path: Path, label_shift: int
) -> None:
    """An identical repeat is collapsed (a note); a different one refused, naming the pair."""
    rng = np.random.default_rng(4)
    unit = np.repeat(np.arange(3000), 5)
    worker = np.concatenate([rng.choice(50, 5, replace=False) for _ in range(3000)])
    label = rng.integers(0, 4, unit.shape[0])
    df = pl.DataFrame({"u": unit, "w": worker, "v": label})
    row = df.row(7000)
    extra = pl.DataFrame({"u": [row[0]], "w": [row[1]], "v": [row[2] + label_shift]})
    path = tmp_path / "crowd.parquet"
    pl.concat([df, extra]).write_parquet(path)
    if label_shift:
        with pytest.raises(DuplicateRatingError,
                           match=rf": 1 unit\(s\) .* \(unit '{row[0]}' by rater '{row[1]}'\)"):
            accord.read(path, unit="u", rater="w", value="v")
    else:
        ann = accord.read(path, unit="u", rater="w", value="v")
        assert ann.n_ratings == df.height
        assert "1 identical repeated rating(s) collapsed" in ann.audit.notes
