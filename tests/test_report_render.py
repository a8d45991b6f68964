"""Rendering: escaping in every format, the JSON schema, full precision, saving, plots."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import accord
from accord.report import plots
from accord.report.json import schema

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EVIL = "<script>alert(1)</script>"
MARKUP = "[bold red]boom[/bold red]"


def hostile() -> accord.Report:
    """Labels, rater names, unit ids and study text that try to break out of their medium."""
    labels = {
        "unit": ["<img src=x onerror=alert(2)>", "u2", "u3", "u4", "u5", "u6"],
        "<b>ann</b>": [EVIL, "ok", MARKUP, "$x^2$", "ok", "a|b"],
        "bob & co": ["ok", "ok", EVIL, "$x^2$", MARKUP, "ok"],
    }
    ann = accord.Annotations.from_wide(labels, unit="unit", raters=["<b>ann</b>", "bob & co"])
    study = accord.Study.from_dict({
        "title": "<h1>owned</h1>",
        "population": {"description": "</td></tr></table><script>alert(3)</script>"},
        "acceptance": {"rule": "cohen_kappa >= 0.5"},
        "disposition": {"reference": "<a href='http://x.invalid'>x</a>"},
    })
    return accord.report(ann, study)


def test_html_escapes_everything_from_the_data() -> None:
    page = hostile().to_html()
    assert "<script" not in page.lower().replace("&lt;script", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "<b>ann</b>" not in page and "&lt;b&gt;ann&lt;/b&gt;" in page
    assert "<h1>owned</h1>" not in page and "&lt;h1&gt;owned&lt;/h1&gt;" in page
    assert "<a href='http" not in page
    assert "&lt;a href=&#x27;http://x.invalid&#x27;&gt;x&lt;/a&gt;" in page
    assert "bob &amp; co" in page


def test_html_is_self_contained() -> None:
    page = accord.report(accord.read(EXAMPLES / "pilot.csv"), EXAMPLES / "study.toml").to_html()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    for pattern in (r"<script\b", r"<link\b", r"<img\b", r"<iframe\b", r"@import", r"url\(http",
                    r"src=\"http", r"href=\"http"):
        assert not re.search(pattern, page), pattern
    assert 'name="viewport"' in page and "@media print" in page
    assert page.count("<svg") >= 3


def test_markdown_escapes_everything_from_the_data() -> None:
    text = hostile().to_markdown()
    assert "<" not in text.replace("&lt;", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&lt;b&gt;ann&lt;/b&gt;" in text
    assert "# Pilot decision: &lt;h1&gt;owned&lt;/h1&gt;" in text
    assert "a\\|b" in text  # a pipe cannot split a table cell
    assert "\\[bold red\\]boom\\[/bold red\\]" in text
    tables: list[list[int]] = [[]]
    for line in text.splitlines():
        if line.startswith("|"):
            tables[-1].append(len(re.findall(r"(?<!\\)\|", line)))
        elif tables[-1]:
            tables.append([])
    assert all(len(set(t)) <= 1 for t in tables)  # every row of a table has as many cells


def test_console_prints_labels_as_text() -> None:
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    console.print(hostile())
    out = console.export_text()
    assert EVIL in out and "<b>ann</b>" in out
    assert MARKUP in out  # rich markup in a label is printed, not interpreted


def test_json_validates_against_the_schema() -> None:
    validator = jsonschema.Draft202012Validator(schema())
    jsonschema.Draft202012Validator.check_schema(schema())
    reports = [
        hostile(),
        accord.report(accord.read(EXAMPLES / "pilot.csv"), method="bootstrap", n_resamples=200,
                      seed=1),
        accord.report(accord.read(EXAMPLES / "pilot.csv"), EXAMPLES / "study.toml"),
        accord.report(accord.Annotations.from_pairs(["a"] * 4, ["a"] * 4)),
    ]
    for rep in reports:
        doc = json.loads(rep.to_json())
        validator.validate(doc)
        assert doc["schema_version"] == 3  # the version of every command's --json


def test_schema_rejects_drift() -> None:
    doc = json.loads(accord.report(accord.Annotations.from_pairs(list("abab"), list("abba")))
                     .to_json())
    validator = jsonschema.Draft202012Validator(schema())
    for mutate in (lambda d: d.update(extra=1), lambda d: d["data"].pop("n_units"),
                   lambda d: d["results"][0].update(estimate="0.5")):
        bad = json.loads(json.dumps(doc))
        mutate(bad)
        assert not validator.is_valid(bad)


def test_json_keeps_full_precision_and_null_for_undefined() -> None:
    rep = accord.report(accord.read(EXAMPLES / "pilot.csv"))
    doc = json.loads(rep.to_json())
    for row, out in zip(rep.coefficients, doc["results"]):
        # the keys of AgreementResult.to_dict() and of every command's --json
        family = "disagreement" if row.coefficient == "krippendorff_alpha" else "agreement"
        ci = out["confidence_interval"]
        for value, got in [(row.estimate, out["estimate"]), (row.se, out["se"]),
                           (row.ci_low, ci["low"]), (row.ci_high, ci["high"]),
                           (row.observed, out[f"observed_{family}"]),
                           (row.expected, out[f"expected_{family}"])]:
            assert got == (value if math.isfinite(value) else None)
        assert (ci["confidence_level"], ci["method"]) == (row.confidence_level, row.method)
    assert doc["pairs"][0]["context"]["prevalence_index"] is None  # 3 categories: no index
    assert "NaN" not in rep.to_json()
    pa = next(r for r in rep.coefficients if r.coefficient == "fleiss_kappa")
    assert repr(pa.estimate) in rep.to_json(indent=None)


def test_save_chooses_the_format(tmp_path: Path) -> None:
    rep = accord.report(accord.Annotations.from_pairs(list("abab"), list("abba")))
    assert rep.save(tmp_path / "r.md").read_text(encoding="utf-8") == rep.to_markdown()
    assert json.loads(rep.save(tmp_path / "r.json").read_text(encoding="utf-8"))
    assert rep.save(tmp_path / "r.HTML").read_text(encoding="utf-8").startswith("<!DOCTYPE")
    assert rep.save(tmp_path / "r.txt", format="markdown").read_text(encoding="utf-8")
    with pytest.raises(accord.AccordError, match="ending in .html, .md or .json"):
        rep.save(tmp_path / "r.txt")


# --------------------------------------------------------------------------- plots
def test_html_is_deterministic_for_a_seed() -> None:
    ann = accord.Annotations.from_pairs(list("aabbaabbab"), list("aabbabbbaa"))
    pages = [accord.report(ann, method="bootstrap", n_resamples=200, seed=8).to_html()
             for _ in range(2)]
    assert pages[0] == pages[1]


def test_svg_is_deterministic_and_dateless() -> None:
    rep = accord.report(accord.read(EXAMPLES / "pilot.csv", raters=["annotator_a", "annotator_b"]))
    first = plots.contingency_heatmap(rep.pairs[0].worksheet)
    second = plots.contingency_heatmap(rep.pairs[0].worksheet)
    assert first is not None and first == second
    assert "<dc:date>" not in first and first.startswith("<svg")
    assert 'data-plot="heatmap"' in first and 'style="max-width:' in first


def test_plot_ids_are_unique_in_a_page() -> None:
    ann = accord.read(EXAMPLES / "pilot.csv", raters=["annotator_a", "annotator_b"])
    page = accord.report(ann, method="bootstrap", n_resamples=200, seed=3).to_html()
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    for ref in re.findall(r"url\(#([^)]+)\)", page):
        assert ref in ids
    assert page.count('data-plot="') == 4  # coefficients, heatmap, category bars, bootstrap


def test_plot_labels_are_plain_text() -> None:
    rep = hostile()
    svg = plots.contingency_heatmap(rep.pairs[0].worksheet)
    assert svg is not None
    assert "<script" not in svg and "&lt;script&gt;" in svg
    assert "$x^2$" in svg  # shown as typed, not as mathtext


def test_no_plot_when_there_is_nothing_to_draw() -> None:
    rep = accord.report(accord.Annotations.from_pairs(["a"] * 4, ["a"] * 4))
    assert plots.coefficient_intervals(rep.coefficients[1:2]) is None  # undefined kappa
    assert rep.bootstrap is None


def test_rater_matrix_and_bootstrap_plots() -> None:
    rep = accord.report(accord.read(EXAMPLES / "pilot.csv"), method="bootstrap",
                        n_resamples=200, seed=1)
    assert rep.matrix is not None and rep.bootstrap is not None
    matrix = plots.rater_matrix(rep.matrix)
    assert matrix is not None and "annotator_c" in matrix and "0.63" in matrix
    histogram = plots.bootstrap_histogram(rep.bootstrap)
    assert histogram is not None and "200 resamples" in histogram
