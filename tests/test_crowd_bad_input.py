"""Bad input in a crowd file ends in one sentence with counts, found while the ids are
counted: a worker who rated a unit twice, and ids of mixed types."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import accord
from accord.cli import main
from accord.errors import DataError, DuplicateRatingError

COLS = ["--unit", "comment_id", "--rater", "worker_id", "--value", "toxicity"]
NAMES = {"unit": "comment_id", "rater": "worker_id", "value": "toxicity"}


def _crowd(units: int = 400, workers: int = 60, per_unit: int = 5) -> pl.DataFrame:
    rng = np.random.default_rng(7)
    unit = np.repeat(np.arange(units), per_unit)
    worker = np.concatenate([rng.choice(workers, per_unit, replace=False) for _ in range(units)])
    label = rng.integers(0, 5, unit.shape[0])
    return pl.DataFrame({"comment_id": unit, "worker_id": worker, "toxicity": label})


def _one_line_error(path: Path) -> str:
    result = CliRunner().invoke(main, ["report", str(path), *COLS, "--level", "ordinal"])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    return lines[0]


def test_repeats_far_apart_are_counted_and_the_first_named(tmp_path: Path) -> None:
    """Two workers each rated a unit again at the end of the file, one with another label:
    one clashing pair (named), out of all the pairs; the identical repeat is not a clash."""
    df = _crowd()
    a, b = df.row(10), df.row(1500)
    extra = pl.DataFrame({"comment_id": [a[0], b[0]], "worker_id": [a[1], b[1]],
                          "toxicity": [(a[2] + 1) % 5, b[2]]})
    path = tmp_path / "crowd.parquet"
    pl.concat([df, extra]).write_parquet(path)
    expected = (f": 1 unit(s) were rated twice by the same rater with different values "
                f"(unit '{a[0]}' by rater '{a[1]}'); if a later row corrects")
    with pytest.raises(DuplicateRatingError, match=expected.replace("(", r"\(").replace(
            ")", r"\)")):
        accord.read(path, **NAMES)
    assert "1 unit(s) were rated twice" in _one_line_error(path)
    last = accord.read(path, **NAMES, duplicates="last")  # counts what it dropped
    assert last.audit.dropped["replaced by a later rating of the same unit and rater"] == 1
    assert "1 identical repeated rating(s) collapsed" in last.audit.notes
    assert last.n_ratings == df.height


def test_ids_written_as_integers_and_as_decimals_are_refused_with_counts(
    tmp_path: Path
) -> None:
    """A CSV whose unit ids are integers, a few written as decimals (``7.0``, as a float
    column writes them): one unit would count as two."""
    df = _crowd().with_columns(pl.col("comment_id").cast(pl.String))
    ids = df["comment_id"].to_list()
    ids[3] = "0.0"  # unit 0 also written as a decimal
    ids[-1] = "399.00"
    path = tmp_path / "crowd.csv"
    df.with_columns(pl.Series("comment_id", ids)).write_csv(path)
    with pytest.raises(DataError, match=r"crowd\.csv: the unit ids mix 400 integer and 2 other "
                       r"id\(s\), and 2 id\(s\) are written both ways \(e\.g\. '0' and '0\.0'\)"):
        accord.read(path, **NAMES)
    assert "written both ways" in _one_line_error(path)


def test_integer_ids_mixed_with_text_are_kept_and_stated(tmp_path: Path) -> None:
    df = _crowd().with_columns(pl.col("worker_id").cast(pl.String))
    workers = df["worker_id"].to_list()
    workers[100] = "worker_id"  # a repeated header line's cell
    path = tmp_path / "crowd.csv"
    df.with_columns(pl.Series("worker_id", workers)).write_csv(path)
    ann = accord.read(path, **NAMES)
    assert "worker_id" in ann.raters and ann.n_raters == 61
    assert ("the rater ids mix 60 integer and 1 other id(s) (e.g. 'worker_id'), all kept as "
            "text ids") in ann.audit.caveats[0]
    result = CliRunner().invoke(main, ["report", str(path), *COLS, "--level", "ordinal"])
    assert result.exit_code == 0 and "the rater ids mix 60 integer" in result.output


def test_text_ids_of_one_kind_are_not_questioned(tmp_path: Path) -> None:
    df = _crowd().with_columns(pl.format("c{}", "comment_id").alias("comment_id"),
                               pl.col("worker_id").cast(pl.String))
    path = tmp_path / "crowd.csv"
    df.write_csv(path)
    assert accord.read(path, **NAMES).audit.caveats == ()
