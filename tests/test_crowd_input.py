"""A crowd file with bad input ends in one sentence with counts; an ordinal crowd report
shows Gwet's AC2 with ordinal weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import accord
from accord.cli import main
from accord.errors import DataError, DuplicateRatingError

COLS = {"unit": "comment_id", "rater": "worker_id", "value": "toxicity"}


def _crowd(units: int = 300, workers: int = 90, per_unit: int = 6, seed: int = 1) -> pl.DataFrame:
    """Long crowd ratings, integer ids, labels 0-4, each worker at most once per unit."""
    rng = np.random.default_rng(seed)
    unit = np.repeat(np.arange(units), per_unit)
    worker = np.concatenate([rng.choice(workers, per_unit, replace=False) for _ in range(units)])
    truth = np.repeat(rng.integers(0, 5, units), per_unit)
    label = np.clip(truth + rng.integers(-1, 2, unit.shape[0]), 0, 4)
    return pl.DataFrame({"comment_id": unit, "worker_id": worker, "toxicity": label})


def test_a_worker_rating_a_unit_twice_is_refused_with_counts(tmp_path: Path) -> None:
    df = _crowd()
    again = df.head(4 * 6).filter(pl.col("toxicity") != 2).with_columns(
        (4 - pl.col("toxicity")).alias("toxicity"))  # a different value each time
    clashes = again.select(pl.col("comment_id").n_unique()).item()
    again = again.unique(["comment_id", "worker_id"])
    n_pairs = again.height
    path = tmp_path / "crowd.parquet"
    pl.concat([df, again]).write_parquet(path)
    with pytest.raises(DuplicateRatingError, match=rf"^.*: {n_pairs} unit\(s\) were rated twice"):
        accord.read(path, **COLS)
    assert clashes >= 1
    result = CliRunner().invoke(main, ["report", str(path), "--unit", "comment_id", "--rater",
                                       "worker_id", "--value", "toxicity", "--level", "ordinal"])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{n_pairs} unit(s) were rated twice" in lines[0]


def test_rater_ids_written_as_numbers_and_as_text_are_refused() -> None:
    df = _crowd().to_pandas()
    workers = df["worker_id"].astype(object)
    workers[df["worker_id"] == 7] = "7"  # worker 7 as text everywhere ...
    first = workers.index[df["worker_id"] == 7][0]
    workers[first] = 7  # ... but once as a number
    df["worker_id"] = workers
    with pytest.raises(DataError, match=r"the rater ids mix 90 numeric and 1 text id\(s\), and "
                                        r"1 id\(s\) are written both ways \(e\.g\. 7 and '7'\)"):
        accord.Annotations.from_long(df, **COLS)


def test_ids_of_two_types_that_never_clash_are_kept() -> None:
    df = _crowd().to_pandas()
    workers = df["worker_id"].astype(object)
    workers[df["worker_id"] == 7] = "w7"
    df["worker_id"] = workers
    ann = accord.Annotations.from_long(df, **COLS)
    assert "w7" in ann.raters and 7 not in ann.raters and ann.n_raters == 90


def test_an_ordinal_crowd_report_gives_ac2_with_ordinal_weights(tmp_path: Path) -> None:
    path = tmp_path / "crowd.parquet"
    _crowd().write_parquet(path)
    ann = accord.read(path, **COLS, level="ordinal")
    rows = {r.coefficient: r for r in accord.report(ann).coefficients}
    assert set(rows) == {"percent_agreement", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha"}
    ac2 = accord.gwet_ac1(ann, weights="ordinal")
    assert rows["gwet_ac1"].estimate == ac2.estimate and rows["gwet_ac1"].se == ac2.se
    assert rows["gwet_ac1"].variant == "ordinal weights"
    assert rows["gwet_ac1"].estimate != accord.gwet_ac1(ann).estimate
    assert rows["fleiss_kappa"].estimate == accord.fleiss_kappa(ann).estimate
    assert rows["krippendorff_alpha"].details["level"] == "ordinal"


@pytest.mark.parametrize("dtype", [pl.Int64, pl.Int32, pl.UInt16, pl.UInt64])
def test_integer_ids_coded_from_a_table_match_the_ranked_codes(dtype: pl.DataType) -> None:
    """The table of ids present gives each row the id the sorting path gives it, with the
    labels in order of first appearance (the order Annotations keeps)."""
    from accord.readers._ids import _ranked_int_codes, id_codes, label_codes

    rng = np.random.default_rng(3)
    for n, high in ((1, 5), (1000, 7), (50_000, 60_000), (20_000, 1 << 22), (300_000, 900)):
        if dtype == pl.UInt16:
            high = min(high, 1 << 16)
        s = pl.Series(rng.integers(0, high, n)).cast(dtype)
        codes, labels, seen = id_codes(s)
        ranked, sorted_labels = _ranked_int_codes(s)
        assert [labels[i] for i in codes.tolist()] == [sorted_labels[i] for i in ranked.tolist()]
        assert labels == list(dict.fromkeys(str(x) for x in s.to_list()))
        assert sorted(labels, key=int) == sorted_labels and seen
        assert np.array_equal(label_codes(s)[0], ranked)
    wide = pl.Series([3, -1, 10**12, 3])  # negative or far apart: ranked
    codes, labels, seen = id_codes(wide)
    assert codes.tolist() == [1, 0, 2, 1] and labels == ["-1", "3", "1000000000000"]
    assert not seen  # sorted order: build numbers them by first appearance


def test_appearance_order_of_sorted_and_shuffled_codes() -> None:
    from accord.data import _encoding as enc

    rng = np.random.default_rng(5)
    for arr in (np.sort(rng.integers(0, 50, 400)), rng.integers(0, 50, 400),
                np.array([7]), np.repeat([3, 1, 2], 4)):
        codes, labels = enc.factorize(arr, order="appearance")
        seen = list(dict.fromkeys(arr.tolist()))  # first appearance, by a plain dict
        assert labels == seen
        assert [labels[i] for i in codes] == arr.tolist()


def test_codes_that_are_already_dense_are_copied_not_shared() -> None:
    from accord.data import _encoding as enc

    arr = np.array([2, 0, 1, 1, 0])
    codes, labels = enc.factorize(arr)
    assert codes.tolist() == [2, 0, 1, 1, 0] and labels == [0, 1, 2]
    assert not np.shares_memory(codes, arr)
    gaps = np.array([5, 0, 5, 9])  # not dense: through the look-up table
    assert enc.factorize(gaps)[0].tolist() == [1, 0, 1, 2]


def _interval_alpha_from_sums(x: np.ndarray) -> float:
    """Krippendorff's interval alpha in closed form (delta = (c - k)^2): per unit
    sum_{i != j} (x_i - x_j)^2 = 2 (m S2 - S1^2), and the same over all pairable values."""
    ok = ~np.isnan(x)
    m = ok.sum(axis=1)
    v = np.where(ok, x, 0.0)
    s1, s2 = v.sum(axis=1), (v * v).sum(axis=1)
    keep = m >= 2
    m, s1, s2 = m[keep], s1[keep], s2[keep]
    n = m.sum()
    d_o = (2 * (m * s2 - s1 * s1) / (m - 1)).sum() / n
    d_e = 2 * (n * s2.sum() - s1.sum() ** 2) / (n * (n - 1))
    return float(1 - d_o / d_e)


@pytest.mark.parametrize("raters", [2, 3, 7])
def test_continuous_interval_alpha_equals_its_closed_form(raters: int) -> None:
    """Every value distinct (no ties), 15 % missing: the coincidence-matrix alpha equals
    the sums-of-squares form of Krippendorff (2011, interval metric) to 1e-12."""
    rng = np.random.default_rng(raters)
    x = rng.normal(50, 10, (5000, raters)) + rng.normal(0, 5, (5000, 1))
    x[rng.random(x.shape) < 0.15] = np.nan
    res = accord.krippendorff_alpha(x, level="interval")
    assert res.estimate == pytest.approx(_interval_alpha_from_sums(x), abs=1e-12)


def test_fleiss_on_a_float_array_with_nan_matches_its_long_form() -> None:
    """The array path (NaN = not rated) against the same ratings as Annotations, with
    and without a unit nobody rated."""
    rng = np.random.default_rng(8)
    x = rng.integers(0, 4, (400, 6)).astype(float)
    x[rng.random(x.shape) < 0.2] = np.nan
    for data in (x, np.vstack([x, np.full((1, 6), np.nan)])):
        got = accord.fleiss_kappa(data)
        units, raters = np.nonzero(~np.isnan(data))
        ann = accord.Annotations.from_long(
            pl.DataFrame({"u": units, "r": raters, "v": data[units, raters]}),
            unit="u", rater="r", value="v")
        want = accord.fleiss_kappa(ann)
        assert got.estimate == pytest.approx(want.estimate, abs=1e-12)
        assert got.se == pytest.approx(want.se, abs=1e-12)


def test_whole_numbers_stored_as_floats_code_as_the_sorting_path() -> None:
    from accord.coefficients._many_data import _whole_number_codes
    from accord.data import _encoding as enc

    rng = np.random.default_rng(9)
    for values in (rng.integers(0, 5, 1000).astype(float), rng.integers(-3, 40, 500) * 1.0,
                   np.array([7.0]), np.array([2.0, 9.0, 2.0, 1000.0])):
        fast = _whole_number_codes(values)
        assert fast is not None
        codes, cats = enc.factorize(values)
        assert np.array_equal(fast[0], codes) and fast[1] == tuple(cats)
        assert all(type(c) is float for c in fast[1])
    for other in (np.array([0.5, 1.0]), np.array([0.0, np.inf]), np.array([0.0, 1e9]),
                  np.array([1, 2])):
        assert _whole_number_codes(other) is None


def test_per_unit_agreement_from_counts_matches_the_sorted_keys() -> None:
    from accord.interpret.disagreements import _unit_agreement

    rng = np.random.default_rng(10)
    n = 3000
    df = pl.DataFrame({"u": rng.integers(0, 800, n), "r": rng.integers(0, 9, n),
                       "v": rng.integers(0, 4, n)}).unique(["u", "r"])
    ann = accord.Annotations.from_long(df, unit="u", rater="r", value="v")
    m, share, distinct = _unit_agreement(ann)
    units, _, values = ann.codes
    k = len(ann.categories)
    keys, n_c = np.unique(units * k + values, return_counts=True)  # the sorting path
    same = np.bincount(keys // k, weights=n_c * (n_c - 1.0), minlength=ann.n_units)
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.where(m >= 2, same / (m * (m - 1.0)), np.nan)
    assert np.array_equal(share, want, equal_nan=True)
    assert np.array_equal(distinct, np.bincount(keys // k, minlength=ann.n_units))
    assert accord.fleiss_kappa(ann).n_raters == 9
