"""Batches answer their question: ``report --by COL`` and ``compare FILE --by COL`` open
with each group's figure, their chart (an SVG forest in HTML, a line of text a group on
the console and in Markdown) and the homogeneity test, then the pooled figure; the group
column is a role, never a rater nor an ignored column, in the console, the report files
and the JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path

from accord.report.groups_section import GroupRow, text_chart
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]


def _weeks(tmp_path: Path) -> Path:
    """examples/batches.csv with its batch column called 'week' (no name rule knows it)."""
    text = (ROOT / "examples" / "batches.csv").read_text(encoding="utf-8")
    path = tmp_path / "weeks.csv"
    path.write_text(text.replace("batch,", "week,", 1), encoding="utf-8")
    return path


def _no_week_ignored(text: str) -> None:
    assert "ignored columns" not in text or "'week'" not in text.split("ignored columns")[1]


def test_report_by_reads_the_pooled_data_without_the_group_column(tmp_path: Path) -> None:
    """Before: the pooled report took 'week' as a third rater (its values as categories)."""
    f = str(_weeks(tmp_path))
    code, out, err = run("report", f, "--by", "week", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["data"]["raters"] == ["annotator_a", "annotator_b"]
    assert "pilot" not in doc["data"]["categories"]
    assert any("group column: 'week'" in n for n in doc["data"]["notes"])
    _no_week_ignored(json.dumps(doc))
    groups = doc["groups"]
    assert groups["by"] == "week" and groups["coefficient"] == "cohen_kappa"
    assert [g["group"] for g in groups["groups"]] == ["pilot", "batch2", "batch3", None]
    assert groups["groups"][-1]["pooled"] and groups["groups"][-1]["n_units"] == 240
    assert groups["homogeneity"]["df"] == 2
    for declared in ([], ["--raters", "annotator_a", "annotator_b"]):
        code, out, err = run("report", f, "--by", "week", *declared)
        assert code == 0, err
        _no_week_ignored(out)
        assert "raters: 2 (annotator_a, annotator_b)" in out


def test_report_by_opens_with_the_groups_their_chart_and_the_test(tmp_path: Path) -> None:
    f = str(_weeks(tmp_path))
    code, out, err = run("report", f, "--by", "week")
    assert code == 0, err
    lines = out.splitlines()
    table = lines.index("Cohen's kappa by week")
    assert table < next(i for i, x in enumerate(lines) if x.startswith("units:"))
    assert lines[table + 2].split()[:3] == ["pilot", "60", "0.4845"]
    assert lines[table + 5].split()[:2] == ["(pooled)", "240"]
    chart = lines[table + 6:table + 11]  # under the table: a narrow terminal never wraps it
    assert chart[0].split() == ["pilot", "|----*----|"] and chart[3].startswith("(pooled)")
    assert "#" in chart[3] and chart[4].split() == ["0", "0.5", "1"]
    assert lines[table + 11].startswith("groups equal? chi-square test of homogeneity")
    page = tmp_path / "r.html"
    code, _, err = run("report", f, "--by", "week", "-q", "-o", str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    main = html.split("<main>", 1)[1]
    assert main.lstrip().startswith('<section id="groups">')
    section = main.split("</section>", 1)[0]
    assert 'data-plot="groups"' in section and section.count("<circle") == 3
    assert "groups equal? chi-square test of homogeneity" in section
    _no_week_ignored(html)
    md = tmp_path / "r.md"
    code, _, err = run("report", f, "--by", "week", "-q", "-o", str(md))
    assert code == 0, err
    text = md.read_text(encoding="utf-8")
    assert text.index("## Cohen's kappa by week") < text.index("## Data")
    assert "```text\npilot " in text
    _no_week_ignored(text)


def test_compare_by_opens_with_the_groups_then_the_differences(tmp_path: Path) -> None:
    f = str(_weeks(tmp_path))
    code, out, err = run("compare", f, "--by", "week")
    assert code == 0, err
    lines = out.splitlines()
    table = lines.index("Cohen's kappa by week")
    assert [x.split()[0] for x in lines[table + 2:table + 6]] == ["pilot", "batch2", "batch3",
                                                                   "(pooled)"]
    said = next(i for i, x in enumerate(lines) if x.startswith("groups equal? chi-square"))
    assert table < said < next(i for i, x in enumerate(lines) if "higher than pilot" in x)
    code, out, err = run("compare", f, "--by", "week", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["pooled"]["n_units"] == 240 and doc["pooled"]["n_raters"] == 2


def test_the_text_chart_puts_every_group_on_one_axis() -> None:
    rows = [GroupRow("a", 10, 0.5, 0.25, 0.75), GroupRow("b", 10, -0.5, -1.0, 0.0),
            GroupRow("c", 10, math.nan, math.nan, math.nan, "no variation"),
            GroupRow("pooled", 20, 0.0, -0.5, 0.5, pooled=True)]
    lines, axis = text_chart(rows, width=21)
    assert lines[0] == "          : |--*--|"
    assert lines[1] == "|----*----|"
    assert lines[2] == "          :"
    assert lines[3] == "     |----#----|"
    assert axis.split() == ["-1", "0", "0.5", "1"]
