"""Multi-label readings said and spelt as sets, and messages that name what to do."""

from __future__ import annotations

import json
from pathlib import Path

import krippendorff
import numpy as np
import pytest

import accord
from accord.cli._common import separator_hint
from tests.conftest import run_cli

EX = Path(__file__).resolve().parents[1] / "examples"
RATERS = ("--raters", "a", "b", "c")
# 'none' means no label applies; u5's b cell is empty: a missing rating
ROWS = {"u1": ("x;y", "x", "y"), "u2": ("none", "none", "x"), "u3": ("y", "y", "y"),
        "u4": ("x", "x;y", "none"), "u5": ("none", "", "none"), "u6": ("x;y", "x;y", "x"),
        "u7": ("y", "none", "y")}


@pytest.fixture()
def sets_csv(tmp_path: Path) -> Path:
    path = tmp_path / "sets.csv"
    path.write_text("item,a,b,c\n" + "".join(f"{u},{','.join(r)}\n" for u, r in ROWS.items()),
                    encoding="utf-8")
    return path


def _yes_no(label: str) -> np.ndarray:
    """Raters x units: 1 when the set holds ``label``, 0 when not ('none': the empty set),
    nan when the cell is empty."""
    return np.array([[np.nan if cell == "" else float(label in cell.split(";"))
                      for cell in (r[i] for r in ROWS.values())] for i in range(3)])


def test_empty_label_is_scored_as_the_empty_set(sets_csv: Path) -> None:
    # before: 'none' was a label of its own and there was no way to say "no label"
    code, out, err = run_cli("multilabel", str(sets_csv), *RATERS, "--separator", ";",
                             "--empty-label", "none", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["labels"] == ["x", "y"]
    assert doc["caveats"][0].startswith("--empty-label none: 6 rating(s) 'none' scored as "
                                        "the empty set")
    for label in ("x", "y"):  # per-label yes/no alpha, against the krippendorff package
        want = krippendorff.alpha(reliability_data=_yes_no(label),
                                  level_of_measurement="nominal")
        (row,) = (r for r in doc["results"] if r.get("label") == label)
        assert row["estimate"] == pytest.approx(want, abs=1e-12)


def test_empty_label_empty_text_makes_an_empty_cell_the_empty_set(sets_csv: Path) -> None:
    """Before: ``--empty-label ''`` was accepted and did nothing ("0 rating(s) '' scored
    as the empty set"), the empty cell staying a missing rating."""
    code, out, err = run_cli("multilabel", str(sets_csv), *RATERS, "--separator", ";",
                             "--empty-label", "", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["caveats"][0].startswith("--empty-label '': 1 empty cell(s) scored as the "
                                        "empty set")
    for label in ("x", "y"):  # the empty cell is 'no' for every label, 'none' a label
        want = krippendorff.alpha(
            reliability_data=np.nan_to_num(_yes_no(label), nan=0.0),
            level_of_measurement="nominal")
        (row,) = (r for r in doc["results"] if r.get("label") == label)
        assert row["estimate"] == pytest.approx(want, abs=1e-12)
    ann = accord.read(sets_csv, raters=list(RATERS[1:]), label_separator=";",
                      empty_label="")
    assert () in ann.categories and ann.audit.dropped.get("missing value", 0) == 0
    default = accord.read(sets_csv, raters=list(RATERS[1:]), label_separator=";")
    assert () not in default.categories and default.audit.dropped["missing value"] == 1


def test_the_reading_of_empty_cells_is_said_first(sets_csv: Path) -> None:
    code, out, err = run_cli("multilabel", str(sets_csv), *RATERS, "--separator", ";")
    assert code == 0, err
    assert out.splitlines()[0] == (
        "caveat: 1 empty cell(s) read as missing ratings, not as the empty set: to score "
        "'no label applies', pass --empty-label '' (an empty cell) or write a marker such as "
        "none and pass --empty-label none")
    code, out, err = run_cli("multilabel", str(sets_csv), *RATERS, "--separator", ";",
                             "--empty-label", "none")
    assert code == 0, err
    assert out.splitlines()[0].startswith("caveat: --empty-label none: 6 rating(s)")


def test_sets_without_separator_get_a_hint(tmp_path: Path) -> None:
    # before: 'a;b' was read as one label without a word
    path = tmp_path / "joined.csv"
    path.write_text("item,a,b\n1,x;y,x;y\n2,x;z,y;z\n3,y;x,x;y\n", encoding="utf-8")
    code, out, err = run_cli("compute", str(path), "--raters", "a", "b")
    assert code == 0, err
    assert out.splitlines()[0] == (
        "caveat: every label holds ';' (e.g. 'x;y'), read as one label: if a cell is a set "
        "of labels, pass --separator ';' (accord multilabel)")
    assert separator_hint(("a|b", "c|d")) is not None
    assert separator_hint(("a;b", "c")) is None  # not every label: no guess
    assert separator_hint(("a;b", 3)) is None


def test_sets_are_spelt_a_b_and_the_empty_set_braces(sets_csv: Path, tmp_path: Path) -> None:
    # before: the report printed ('x', 'y') and inspect ['x', 'y']
    args = (str(sets_csv), *RATERS, "--separator", ";")
    code, out, err = run_cli("report", *args, "-o", str(tmp_path / "r.md"))
    assert code == 0, err
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    code, shown, err = run_cli("inspect", *args)
    assert code == 0, err
    code, csv_text, err = run_cli("disagreements", *args)
    assert code == 0, err
    for text in (md, shown, csv_text):
        assert not any(f"{o}'{x}'" in text for o in "([" for x in "xy"), text
    assert "| x;y |" in md and "x;y" in shown and "x;y" in csv_text
    from accord.data._sets import label_text

    assert label_text(()) == "{}" and label_text(("x", "y")) == "x;y"


def test_spans_on_a_span_table_names_the_span_options() -> None:
    # before: "compare spans with accord spans", said by accord spans itself
    code, _, err = run_cli("spans", str(EX / "ner_spans.csv"))
    assert code == 1
    assert "--start start --end end --label label" in err


@pytest.mark.parametrize(("text", "said"), [
    ('a,b\n1,"x\n2,y\n', "a double quote opens a cell that is never closed"),
    ("a,b\n1,2,3,4\n2\n", "a row has more cells than the header"),
])
def test_a_malformed_csv_is_one_whole_sentence(tmp_path: Path, text: str, said: str) -> None:
    # before: "could not parse `"x" (cut at the engine's first line break)
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    code, _, err = run_cli("compute", str(path))
    assert code == 1
    (line,) = err.splitlines()
    assert said in line and line.endswith(".")


def test_compute_does_not_offer_span_f1() -> None:
    # before: listed, and every span input refused
    code, out, _ = run_cli("compute", "--help")
    assert code == 0 and "span_f1" not in out
    code, _, err = run_cli("compute", str(EX / "pilot.csv"), "--coefficient", "span_f1")
    assert code == 2 and "'span_f1' is not one of" in err
