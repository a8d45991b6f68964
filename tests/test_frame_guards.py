"""The library reads a frame or an array by the rules the file readers apply (issue 20,
observation 1): a unit-named column holds the unit ids, a comment column is left out
with a LayoutWarning, a column of ids and a long layout are refused with the sentence
the CLI prints, and an array that looks raters x units warns.

Reference values: ``statsmodels.stats.inter_rater.fleiss_kappa`` (statsmodels 0.14) on
the rating columns alone, and ``krippendorff.alpha`` (krippendorff 0.9) on the raters x
units array that package takes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import krippendorff
import numpy as np
import pandas as pd
import polars as pl
import pytest
from click.testing import CliRunner
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

import accord
from accord.cli import main

RATERS = ["r1", "r2", "r3", "r4"]


def _ratings() -> np.ndarray[Any, Any]:
    """40 units x 4 raters, labels 0..2, raters agreeing with a true label 70% of the time."""
    rng = np.random.default_rng(20)
    truth = rng.integers(0, 3, 40)
    noise = rng.integers(0, 3, (40, 4))
    return np.where(rng.random((40, 4)) < 0.7, truth[:, None], noise)


def _frame() -> dict[str, Any]:
    """The issue's frame: unit ids, four rating columns and a short free-text comment."""
    x = _ratings()
    comments = np.random.default_rng(1).choice(["ok", "unsure", "hard one", ""], 40)
    return {"item_id": [f"rev-{i:05d}" for i in range(40)],
            **{r: x[:, j] for j, r in enumerate(RATERS)}, "comment": comments.tolist()}


def _as(kind: str, columns: dict[str, Any]) -> Any:
    if kind == "pyarrow":
        import pyarrow as pa

        return pa.table({k: list(v) for k, v in columns.items()})
    return pd.DataFrame(columns) if kind == "pandas" else pl.DataFrame(columns)


def _reference_fleiss() -> float:
    return float(sm_fleiss_kappa(aggregate_raters(_ratings())[0]))  # statsmodels 0.14


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow"])
def test_unit_ids_are_not_a_rater_and_a_comment_is_left_out_with_a_warning(kind: str) -> None:
    with pytest.warns(accord.LayoutWarning, match=r"columns \['comment'\] were left out"):
        res = accord.fleiss_kappa(_as(kind, _frame()))
    assert res.estimate == pytest.approx(_reference_fleiss(), rel=1e-12, abs=0)
    assert res.n_units == 40


@pytest.mark.parametrize("kind", ["pandas", "polars"])
def test_the_unit_column_names_the_units(kind: str) -> None:
    with pytest.warns(accord.LayoutWarning):
        ann = accord.Annotations.from_wide(_as(kind, _frame()))
    assert list(ann.raters) == RATERS
    assert ann.units[:2] == ("rev-00000", "rev-00001")
    assert any("'comment'" in c for c in ann.audit.caveats)


def test_named_raters_need_no_warning_and_give_the_same_figure() -> None:
    ann = accord.Annotations.from_wide(pd.DataFrame(_frame()), raters=RATERS)
    assert ann.units[0] == "rev-00000"  # the unit-named column, not a rater
    res = accord.fleiss_kappa(ann)
    assert res.estimate == pytest.approx(_reference_fleiss(), rel=1e-12, abs=0)


@pytest.mark.parametrize("kind", ["pandas", "polars"])
def test_a_column_of_ids_is_refused_with_the_sentence_the_cli_prints(
    kind: str, tmp_path: Path
) -> None:
    columns = _frame()
    columns["key"] = columns.pop("item_id")  # not named like unit ids: found by its values
    del columns["comment"]
    with pytest.raises(accord.DataError) as lib:
        accord.fleiss_kappa(_as(kind, columns))
    path = tmp_path / "keyed.csv"
    pd.DataFrame(columns).to_csv(path, index=False)
    cli = CliRunner().invoke(main, ["compute", str(path)])
    assert cli.exit_code == 1 and "Traceback" not in cli.output
    sentence = ("column 'key' looks like ids, not ratings: its 40 values are all distinct, "
                "so no two raters could agree on it")
    assert sentence in str(lib.value)
    assert sentence in " ".join(cli.output.split())


def test_a_row_number_column_in_an_array_is_refused() -> None:
    x = np.column_stack([np.arange(1, 41), _ratings()])
    with pytest.raises(accord.DataError, match="column 'rater_1' looks like ids"):
        accord.fleiss_kappa(x)
    with pytest.raises(accord.DataError, match="column 'rater_1' looks like ids"):
        accord.fleiss_kappa(x.tolist())


def test_ranks_and_fine_scores_stay_ratings() -> None:
    """A permutation (one rater's ranks) and all-distinct floats are not ids."""
    rng = np.random.default_rng(3)
    ranks = np.column_stack([rng.permutation(20) + 1 for _ in range(3)])
    assert np.isfinite(accord.kendall_w(ranks).estimate)
    scores = rng.normal(size=(20, 3))
    assert np.isfinite(accord.icc(scores).estimate)


@pytest.mark.parametrize("kind", ["pandas", "polars"])
def test_a_long_frame_passed_as_wide_is_refused_naming_from_long(kind: str) -> None:
    wide = pd.DataFrame(_frame()).drop(columns="comment")
    long = wide.melt(id_vars="item_id", var_name="annotator", value_name="label")
    with pytest.raises(accord.DataError) as err:
        accord.fleiss_kappa(long if kind == "pandas" else pl.from_pandas(long))
    msg = str(err.value)
    assert "this table looks long (one row per rating), not wide: column 'annotator' " \
           "holds rater ids" in msg
    assert "Annotations.from_long" in msg and "accord.read" in msg
    ann = accord.Annotations.from_long(long, unit="item_id", rater="annotator", value="label")
    assert accord.fleiss_kappa(ann).estimate == pytest.approx(_reference_fleiss(), rel=1e-12)


def test_repeating_unit_ids_read_as_wide_are_refused() -> None:
    frame = pd.DataFrame({"item": ["a", "a", "b", "b", "c", "c"], "x": [1, 2, 1, 1, 2, 2],
                          "y": [1, 2, 1, 2, 2, 2]})
    with pytest.raises(accord.DataError, match=r"unit ids in column 'item' repeat across rows "
                                               r"\(6 rows, 3 distinct ids\)"):
        accord.fleiss_kappa(frame)


def test_a_transposed_array_warns_and_the_right_orientation_matches_krippendorff() -> None:
    x = _ratings().astype(np.float64)
    x[::7, 1] = np.nan
    expected = krippendorff.alpha(reliability_data=x.T, level_of_measurement="nominal")
    with pytest.warns(accord.LayoutWarning, match=re.escape(
            "krippendorff_alpha: the table has 4 rows and 40 columns, read as 4 units (rows) "
            "rated by 40 raters (columns): accord expects units x raters")):
        accord.krippendorff_alpha(x.T)
    assert accord.krippendorff_alpha(x).estimate == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("func", [accord.fleiss_kappa, accord.icc, accord.kendall_w])
def test_every_array_entry_point_warns_on_a_transposed_array(func: Any) -> None:
    x = _ratings().T.astype(np.float64) + 1.0
    with pytest.warns(accord.LayoutWarning, match="accord expects units x raters"):
        func(x)
    with pytest.warns(accord.LayoutWarning, match="pass the transpose"):
        accord.fleiss_kappa(x.tolist())


def test_the_reader_and_the_library_share_one_rule_table() -> None:
    from accord.data import _columns
    from accord.readers import _layout, _ls_min, _table

    assert _table.UNIT_NAMES is _columns.UNIT_NAMES
    assert _ls_min.NON_RATER_NAMES is _columns.NON_RATER_NAMES
    assert _layout.long_error is _columns.long_error


GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "frames.md"


def test_the_frames_guide_runs_and_prints_what_it_says() -> None:
    import contextlib
    import io

    text = GUIDE.read_text(encoding="utf-8")
    namespace: dict[str, Any] = {}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(block, str(GUIDE), "exec"), namespace)  # noqa: S102 - our own page
        expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
        assert buf.getvalue().splitlines() == expected
    for line in re.findall(r"^\$ accord (.*)$", text, re.M):
        root = GUIDE.parents[2]
        args = [str(root / a) if a.startswith("examples/") else a for a in line.split()]
        assert CliRunner().invoke(main, args).exit_code == 0, line


def test_a_rater_named_judge_that_shares_the_labels_stays_a_rater(tmp_path: Path) -> None:
    """A text column named like rater ids means a long table only when its values are
    not the other columns' labels (rater ids never are)."""
    cols = {"item_id": [f"u{i}" for i in range(12)], "judge": list("abab" * 3),
            "x": list("abbb" * 3), "y": list("aabb" * 3)}
    ann = accord.Annotations.from_wide(pd.DataFrame(cols))
    assert ann.raters == ("judge", "x", "y")
    path = tmp_path / "judged.csv"
    pd.DataFrame(cols).to_csv(path, index=False)
    assert accord.read(path).raters == ("judge", "x", "y")


def test_the_cli_reads_the_same_file_to_the_same_figure(tmp_path: Path) -> None:
    """The file of the issue's frame: the CLI also takes item_id as the units and leaves
    the comment out, naming it, so file and frame give statsmodels' figure."""
    path = tmp_path / "rated.csv"
    pd.DataFrame(_frame()).to_csv(path, index=False)
    out = CliRunner().invoke(main, ["compute", str(path), "--coefficient", "fleiss_kappa"])
    assert out.exit_code == 0, out.output
    assert f"{_reference_fleiss():.4f}" in out.output
    assert "'comment'" in out.output
