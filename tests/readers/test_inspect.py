"""``accord inspect`` and the summary behind it (issue 5: "accord inspect PATH prints it")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from accord.cli import main
from accord.readers import describe

DATA = Path(__file__).parent / "data"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner(env={"COLUMNS": "120", "LINES": "50"}).invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_inspect_lists_fields_when_none_is_chosen():
    code, out, err = run("inspect", str(DATA / "label_studio_export.json"))
    assert code == 0, err
    for text in (
        "format label_studio",
        "choose one with --field",
        "entities",
        "sentiment",
        "ground_truth",
        "gold",
        "sentiment-v2",
        "model",
        "12 (bob@example.org)",
    ):
        assert text in out


def test_inspect_one_field_shows_categories_drops_and_audit():
    code, out, err = run("inspect", str(DATA / "label_studio_export.json"), "--field", "sentiment")
    assert code == 0, err
    for text in (
        "field 'sentiment'; 3 units, 4 raters, 6 ratings",
        "positive",
        "negative",
        "not used: 1 skipped (was_cancelled)",
        "9 read, 6 used",
        "2 answers",
    ):
        assert text in out


def test_inspect_json_matches_the_library_summary():
    path = str(DATA / "wide_pilot.csv")
    code, out, err = run("inspect", path, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc.pop("schema_version"), doc.pop("command")) == (3, "inspect")
    (got,) = doc.pop("results")
    library = json.loads(json.dumps(describe(path), default=str))
    # the CLI states the same caveats in its own words: --raters A B, not raters=[...]
    assert [c.replace("--raters A B", "raters=[...]") for c in doc.pop("caveats")] == \
        library.pop("caveats")
    assert len(got.pop("audit_lines")) == len(library.pop("audit_lines"))
    assert got == library
    assert got["format"] == "csv" and got["units"] == 5
    assert [(r["name"], r["ratings"]) for r in got["raters"]] == [("ann", 5), ("bob", 3), ("cy", 3)]
    assert got["dropped"] == [{"reason": "missing value", "count": 4}]


def test_inspect_spans_counts_per_rater():
    code, out, err = run(
        "inspect", str(DATA / "label_studio_export.json"), "--field", "entities", "--json"
    )
    assert code == 0, err
    (got,) = json.loads(out)["results"]
    assert got["units"] == 3 and got["spans"]["labels"] == {"LOC": 2, "PRODUCT": 2}
    assert {r["name"]: r["spans"] for r in got["raters"]} == {"11": 2, "12": 1, "ground_truth": 1}


def test_inspect_single_rater_file_works(tmp_path):
    p = tmp_path / "one.csv"
    p.write_text("item,rater,label\n1,a,x\n2,a,y\n")
    code, out, err = run("inspect", str(p))
    assert code == 0, err
    assert "2 units, 1 raters, 2 ratings" in out


def test_inspect_bad_file_is_one_line_exit_1(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('[{"id": 1, "annotations": [{"completed_by": 1,, }]}]')
    code, out, err = run("inspect", str(p), "--format", "label_studio")
    assert code == 1
    assert err.count("\n") == 1 and str(p) in err and "line 1" in err


@pytest.mark.parametrize(("name", "text", "where", "problem"), [
    ("trailing.json", '[{"a": 1,}]', "line 1, column 10", "expecting property name"),
    ("open.json", '{"bad json\n', "line 1, column 2", "unterminated string)"),
    ("second.jsonl", '{"a": 1}\n{"b": 2,}\n', "line 2, column 9", "expecting property name"),
])
def test_undetectable_json_names_its_syntax_error(tmp_path, name, text, where, problem):
    """Without --format, broken JSON is reported as broken JSON, not as an unknown layout."""
    p = tmp_path / name
    p.write_text(text)
    code, out, err = run("inspect", str(p))
    assert code == 1
    assert err.count("\n") == 1
    assert f"{name}, {where}: expected" in err and problem in err
    assert "not a layout accord knows" not in err
