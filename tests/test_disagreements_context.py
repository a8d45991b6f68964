"""--text and --context: the item's text and other columns beside each disagreement.

Carried from the input to the disagreement list, the review CSV (spreadsheet-safe) and the
report (escaped in HTML and Markdown), for wide and long tables.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

import accord
from accord.errors import DataError
from accord.interpret.context import read_context
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HOSTILE = "<script>alert(1)</script>"


def _wide(tmp_path: Path) -> Path:
    path = tmp_path / "items.csv"
    path.write_text(
        "item,text,note,ann_a,ann_b\n"
        f"i1,\"Great product, works\",ok,pos,pos\n"
        f"i2,{HOSTILE},check,pos,neg\n"
        "i3,=HYPERLINK(\"http://x\"),,neg,pos\n"
        "i4,fine,,neg,neg\n", encoding="utf-8")
    return path


def test_library_disagreements_list_the_context_after_the_unit(tmp_path: Path) -> None:
    path = _wide(tmp_path)
    ann = accord.read(path, unit="item", raters=["ann_a", "ann_b"])
    ctx = read_context(path, ["text", "note"], units=ann.units)
    assert ctx == {"text": {"i1": "Great product, works", "i2": HOSTILE, "i3":
                            '=HYPERLINK("http://x")', "i4": "fine"},
                   "note": {"i1": "ok", "i2": "check"}}
    d = accord.disagreements(ann, context=ctx)
    rows = list(csv.reader(io.StringIO(d.to_csv())))
    assert rows[0] == ["unit", "text", "note", "ann_a", "ann_b", "n_ratings", "agreement",
                       "adjudicated", "comment"]
    assert rows[1][:5] == ["i2", HOSTILE, "check", "pos", "neg"]
    # a formula in the text is shown as text by a spreadsheet (OWASP CSV injection)
    assert rows[2][:3] == ["i3", "'=HYPERLINK(\"http://x\")", ""]
    assert len(rows) == 3


def test_long_tables_join_a_unit_s_distinct_values_in_row_order(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text("item,coder,label,comment\n"
                    "u1,a,x,unclear\nu1,b,y,sarcasm?\nu1,c,x,unclear\n"
                    "u2,a,x,\nu2,b,x,\n", encoding="utf-8")
    ann = accord.read(path, unit="item", rater="coder", value="label")
    ctx = read_context(path, ["comment"], units=ann.units, unit="item")
    assert ctx == {"comment": {"u1": "unclear | sarcasm?"}}


def test_the_report_escapes_the_text_in_html_and_markdown(tmp_path: Path) -> None:
    path = _wide(tmp_path)
    ann = accord.read(path, unit="item", raters=["ann_a", "ann_b"])
    rep = accord.report(ann, context=read_context(path, ["text"], units=ann.units))
    assert rep.units.context_columns == ("text",)
    assert [r.context for r in rep.units.rows] == [(HOSTILE,), ('=HYPERLINK("http://x")',)]
    page = rep.to_html()
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    md = rep.to_markdown()
    assert "| unit | text | ann_a | ann_b | agreeing pairs |" in md
    assert "| i2 | &lt;script&gt;alert(1)&lt;/script&gt; | pos | neg | 0% |" in md
    assert HOSTILE not in md
    import jsonschema

    from accord.report.json import schema

    jsonschema.validate(rep.to_dict(), schema())


def test_a_crowd_with_context_and_bad_context_are_refused() -> None:
    ann = accord.Annotations.from_wide({f"r{i}": ["a", "b"] for i in range(60)})
    with pytest.raises(DataError, match="a crowd"):
        accord.disagreements(ann, context={"text": {0: "x"}})
    pair = accord.Annotations.from_pairs(["a", "b"], ["a", "a"])
    with pytest.raises(DataError, match="context must map column names"):
        accord.disagreements(pair, context=["text"])  # type: ignore[arg-type]


def test_cli_carries_text_and_context_to_the_review_csv_and_the_report(tmp_path: Path) -> None:
    path = _wide(tmp_path)
    review = tmp_path / "review.csv"
    code, _, err = run_cli("disagreements", str(path), "--unit", "item", "--text", "text",
                           "--context", "note", "--raters", "ann_a", "ann_b", "-o", str(review))
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(review.read_text(encoding="utf-8"))))
    assert rows[0][:3] == ["item", "text", "note"] and rows[1][:3] == ["i2", HOSTILE, "check"]
    out = tmp_path / "r.html"
    code, _, err = run_cli("report", str(EXAMPLES / "judge.csv"), "--raters", "ann_a", "ann_b",
                           "ann_c", "--context", "gpt4_rationale", "-q", "-o", str(out))
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert "<th>gpt4_rationale</th>" in page
    assert "the review reads as positive overall" in page
    code, _, err = run_cli("disagreements", str(path), "--text", "nope")
    assert code == 1 and "context column(s) 'nope' not found" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
