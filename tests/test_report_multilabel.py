"""The report's multilabel section: the figures of multilabel_agreement, with intervals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import accord
from accord.report.json import schema
from tests.conftest import run_cli

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "toxicity_multilabel.csv"


@pytest.fixture(scope="module")
def ann() -> accord.Annotations:
    return accord.read(EXAMPLE, label_separator=";")


@pytest.fixture(scope="module")
def rep(ann: accord.Annotations) -> accord.Report:
    return accord.report(ann)


def test_section_holds_the_library_figures(ann: accord.Annotations, rep: accord.Report) -> None:
    sec = rep.multilabel
    assert sec is not None
    want = accord.multilabel_agreement(ann)
    assert [r.label for r in sec.labels] == [str(x) for x in want.labels]
    for row in sec.labels:
        res = want.per_label[row.label]
        ci = res.confidence_interval(0.95)
        assert (row.figure.estimate, row.figure.ci_low, row.figure.ci_high) == (
            res.estimate, ci.low, ci.high)
    by_name = {r.name: r for r in sec.summary}
    masi = by_name["Krippendorff's alpha, MASI distance"]
    assert masi.estimate == accord.krippendorff_alpha(ann, level="masi").estimate
    assert by_name["mean pairwise Dice similarity"].ci_low == \
        want.mean_dice.confidence_interval().low
    assert sec.macro.estimate == want.macro
    macro_ci = want.macro_interval(0.95, method=accord.Bootstrap(n_resamples=1999, rng=0))
    assert (sec.macro.ci_low, sec.macro.ci_high) == (macro_ci.low, macro_ci.high)
    # prevalence: the share of the ratings whose set holds the label, counted directly
    sets = [x for x in ann.wide().ravel() if x >= 0]
    cats = ann.categories
    for row in sec.labels:
        n = sum(row.label in cats[c] for c in sets)
        assert row.n_present == n and row.prevalence == n / len(sets)
    # the coefficient table holds alpha on the sets, no single-label worksheets
    assert [r.coefficient for r in rep.coefficients] == ["krippendorff_alpha"]
    assert rep.coefficients[0].estimate == masi.estimate
    assert rep.pairs == () and rep.matrix is None


def test_json_validates_and_is_absent_for_single_labels(rep: accord.Report) -> None:
    doc = json.loads(rep.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert doc["multilabel"]["labels"][0]["figure"]["confidence_interval"]["low"] is not None
    single = accord.Annotations.from_pairs(["a", "b", "a", "a"], ["a", "b", "b", "a"])
    assert "multilabel" not in json.loads(accord.report(single).to_json())


def test_markdown_console_and_html_show_the_section(rep: accord.Report) -> None:
    md = rep.to_markdown()
    assert "## Multilabel agreement" in md and "| toxic |" in md
    html = rep.to_html()
    assert 'id="multilabel"' in html and 'href="#multilabel"' in html
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(rep)
    text = console.export_text()
    assert "Multilabel agreement" in text and "maximum-percentage agreement" in text


def test_labels_are_escaped_and_undefined_labels_said() -> None:
    evil = "<b>x</b>|*y*"
    ann = accord.Annotations.from_wide({"a": [(evil, "ok"), ("ok",), ("ok", evil), ("ok",)],
                                        "b": [(evil, "ok"), ("ok",), ("ok",), ("ok",)]})
    rep = accord.report(ann)
    assert "<b>" not in rep.to_html() and "&lt;b&gt;x&lt;/b&gt;" in rep.to_html()
    assert "<b>" not in rep.to_markdown()
    sec = rep.multilabel
    assert sec is not None
    assert sec.macro_left_out == ("ok",)  # in every rating: no variation, alpha undefined
    ok = next(r for r in sec.labels if r.label == "ok")
    assert ok.figure.undefined_reason and ok.prevalence == 1.0
    assert "Left out of the macro mean (undefined): ok." in sec.notes
    assert any("undefined for label(s) 'ok'" in n for n in rep.notes)


def test_options_that_need_single_labels_are_refused(ann: accord.Annotations) -> None:
    with pytest.raises(accord.DataError, match="sets of labels"):
        accord.report(ann, coefficients=["cohen_kappa"])
    with pytest.raises(accord.DataError, match="pair worksheets"):
        accord.report(ann, pairs=[("annotator_a", "annotator_b")])
    with pytest.raises(accord.DataError, match="use 'masi' or 'jaccard'"):
        accord.report(ann, level="ordinal")
    jac = accord.report(ann, level="jaccard")
    assert jac.coefficients[0].estimate == accord.krippendorff_alpha(ann, level="jaccard").estimate


def test_cli_report_on_label_sets(tmp_path: Path) -> None:
    out = tmp_path / "multilabel.json"
    code, _, err = run_cli("report", str(EXAMPLE), "--separator", ";", "-q", "-o", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["label"] for r in doc["multilabel"]["labels"]][:2] == ["insult", "none"]
    long = EXAMPLE.with_name("toxicity_multilabel_long.csv")
    code, text, err = run_cli("report", str(long), "--multilabel", "-o", "-", "--to", "markdown")
    assert code == 0, err
    assert "## Multilabel agreement" in text


def test_too_many_distinct_sets_leave_the_set_alphas_out(ann: accord.Annotations,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the limit of distinct sets neither the table nor the section computes the
    set alphas (every pair of distinct sets), and both say so; the rest renders."""
    monkeypatch.setattr("accord.coefficients.multilabel.MAX_SETS_FOR_ALPHA", 5)
    rep = accord.report(ann)
    assert rep.coefficients == () and rep.primary is None
    sec = rep.multilabel
    assert sec is not None
    assert [r.name for r in sec.summary if "alpha" in r.name] == []
    assert any("not computed" in n and "distinct sets" in n for n in sec.notes)
    assert rep.headline == "3 raters rated 60 units."
    jsonschema.Draft202012Validator(schema()).validate(json.loads(rep.to_json()))
    assert "Multilabel agreement" in rep.to_markdown() and 'id="multilabel"' in rep.to_html()
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(rep)
    assert "maximum-percentage agreement" in console.export_text()


def test_data_summary_counts_labels_not_sets(ann: accord.Annotations,
                                             rep: accord.Report) -> None:
    """Label sets are summarised by their labels (ratings giving each, counted from the
    raw cells of the example) and the number of distinct sets, with no level line."""
    import csv

    with EXAMPLE.open(newline="") as fh:
        cells = [c for row in csv.DictReader(fh) for k, c in row.items()
                 if k != "item_id" and c]
    want = {}
    for cell in cells:
        for label in cell.split(";"):
            want[label] = want.get(label, 0) + 1
    d = rep.data
    assert dict(zip(d.categories, d.category_counts)) == want
    assert d.label_sets == len(ann.categories) == len(set(
        tuple(sorted(c.split(";"))) for c in cells))
    md = accord.report(ann).to_markdown()
    line = next(x for x in md.splitlines() if x.startswith("- labels:"))
    assert f"labels: {len(want)} in {d.label_sets} distinct label sets" in line
    assert "level nominal" not in line
    html = rep.to_html()
    assert f"{len(want)} in {d.label_sets} distinct label sets" in html
    single = accord.report(accord.read(EXAMPLE.parent / "pilot.csv",
                                       raters=["annotator_a", "annotator_b", "annotator_c"]))
    assert single.data.label_sets == 0
    assert any(x.startswith("- categories: 3, level nominal") for x in
               single.to_markdown().splitlines())

