"""Units rated only by raters that ``raters=`` / ``--raters`` leaves out are counted and
said (issue 26), never silently absent; the counts are checked by hand on small tables."""

from __future__ import annotations

from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli

WIDE = "item,a,b,c,comment\n1,x,x,x,\n2,y,y,,\n3,,,x,\n4,NA,,y,ok\n5,x,,x,\n6,y,x,y,\n7,,,,late\n"
LONG = "item,coder,label\n1,a,x\n1,b,x\n2,a,y\n2,b,y\n3,c,x\n4,c,y\n5,a,y\n5,b,x\n"


@pytest.fixture
def wide(tmp_path: Path) -> Path:
    path = tmp_path / "wide.csv"
    path.write_text(WIDE)
    return path


def test_wide_selection_counts_units_rated_only_by_the_columns_left_out(wide: Path) -> None:
    ann = accord.read(wide, raters=["a", "b"])
    # by hand: units 3 and 4 were rated by c only ('NA' is missing); 7 has only a comment
    assert ann.units == ("1", "2", "5", "6")
    assert ann.audit.caveats == ("2 unit(s) were rated only in columns not selected as "
                                 "raters (['c']); left out",)
    assert "  note: 1 unit(s) with no rating at all (every value missing)" in ann.audit.lines()


def test_wide_selection_of_every_rated_column_says_nothing(wide: Path) -> None:
    ann = accord.read(wide, raters=["a", "b", "c"])
    assert ann.audit.caveats == () and ann.n_units == 6


def test_missing_markers_count_as_missing_in_the_columns_left_out(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text("item,a,b,c\n1,x,x,x\n2,y,x,skip\n3,,,skip\n")
    assert accord.read(path, raters=["a", "b"], missing=["skip"]).audit.caveats == ()
    assert accord.read(path, raters=["a", "b"]).audit.caveats[0].startswith("1 unit(s) were")


def test_cli_says_it_on_the_first_line_for_wide_and_long_data(wide: Path,
                                                              tmp_path: Path) -> None:
    code, out, err = run_cli("compute", str(wide), "--raters", "a", "b")
    assert code == 0, err
    assert out.splitlines()[0] == ("caveat: 2 unit(s) were rated only in columns not "
                                   "selected as raters (['c']); left out")
    long = tmp_path / "long.csv"
    long.write_text(LONG)
    code, out, err = run_cli("compute", str(long), "--unit", "item", "--rater", "coder",
                             "--value", "label", "--raters", "a", "b")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "caveat: 2 unit(s) were rated only by raters not selected ('c'); left out"
    assert lines[1].startswith(f"{long}: 3 units, 2 raters")
