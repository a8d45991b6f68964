"""The report's "Model against reference" section (built by accord.report.reference)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema

import accord
from accord.report.json import schema
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]
PREDS = ROOT / "examples" / "preds.csv"
KINDS = {"gold": "gold", "model": "model", "llm": "llm"}


def _report() -> accord.Report:
    return accord.report(accord.read(PREDS, kinds=KINDS))


def test_the_section_holds_each_system_against_the_reference() -> None:
    rep = _report()
    ref = rep.reference
    assert ref is not None and ref.reference == "gold" and ref.humans == ("ann_a", "ann_b")
    model = ref.systems[0]
    ev = accord.evaluate(accord.read(PREDS, kinds=KINDS), systems="model")
    assert model.confusion.raters == ("gold", "model")
    assert model.confusion.counts[0] == tuple(ev.table.counts[0])  # rows = reference
    summary = {r.name: r for r in model.summary}
    assert summary["macro F1"].estimate == ev.macro.f1.estimate
    cis = ev.intervals()
    assert (summary["macro F1"].ci_low, summary["macro F1"].ci_high) == (
        cis["macro.f1"].low, cis["macro.f1"].high)
    assert summary["accuracy"].method == "wilson"
    assert [r.name for r in model.ceiling] == ["model", "ann_a", "ann_b",
                                              "human-human agreement"]
    assert any("near the human ceiling" in s for s in model.sentences)
    assert ref.comparisons[0].startswith("McNemar's exact test, model vs llm")


def test_json_validates_and_markdown_and_console_show_the_section() -> None:
    rep = _report()
    doc = json.loads(rep.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert doc["reference"]["systems"][1]["system"] == "llm"
    md = rep.to_markdown()
    assert "## Model against reference" in md and "### llm against gold (395 units)" in md
    from rich.console import Console

    console = Console(width=120, record=True)
    console.print(rep)
    assert "Model against reference (gold)" in console.export_text()


def test_no_section_without_a_reference_and_a_system() -> None:
    ann = accord.read(PREDS)  # every column a human rater
    rep = accord.report(ann)
    assert rep.reference is None
    assert json.loads(rep.to_json())["reference"] is None
    assert "Model against reference" not in rep.to_markdown()


def test_an_undefined_figure_is_shown_as_undefined() -> None:
    ann = accord.Annotations.from_wide({"gold": ["a", "a", "b", "c"], "m": ["a", "a", "b", "b"],
                                        "h": ["a", "b", "b", "c"]})
    ann.kinds.update(gold="gold", m="model")
    rep = accord.report(ann)
    assert rep.reference is not None
    row = next(c for c in rep.reference.systems[0].classes if c.label == "c")
    assert math.isnan(row.precision.estimate) and "never predicted 'c'" in str(
        row.precision.undefined_reason)
    assert any("precision" in n for n in rep.notes)


def test_cli_report_with_gold_and_predicted() -> None:
    code, out, err = run("report", str(PREDS), "--gold", "gold", "--predicted", "model",
                         "-o", "-", "--to", "markdown", "-q")
    assert code == 0, err
    assert "### model against gold (397 units)" in out
    code, _, err = run("report", str(PREDS), "--gold", "gold", "--predicted", "nobody", "-q")
    assert code == 2 and "rater 'nobody' not found" in err


def test_with_a_reference_the_agreement_figures_are_the_peoples() -> None:
    rep = _report()
    assert rep.data.raters == ("ann_a", "ann_b")
    assert rep.headline.startswith("ann_a and ann_b agree")
    assert any("The agreement figures use the 2 human raters" in n for n in rep.notes)
    one_human = accord.read(PREDS, raters=["gold", "ann_a", "model"],
                            kinds={"gold": "gold", "model": "model"})
    rep = accord.report(one_human)  # fewer than two people: every rater stays
    assert rep.data.n_raters == 3 and rep.reference is not None
