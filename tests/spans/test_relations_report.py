"""The report's Relations part: verdict first, per type, the disputed relations, the JSON."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from rich.console import Console

import accord
from accord.report.json import schema

ROOT = Path(__file__).resolve().parents[2]
BRAT = ROOT / "tests" / "readers" / "data" / "brat_relations"


def test_report_has_a_relations_part_in_every_format():
    rep = accord.report(accord.read(BRAT), seed=1)
    doc = json.loads(rep.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    rel = doc["spans"]["relations"]
    res = accord.relation_agreement(accord.read(BRAT))
    f1 = rel["results"][0]
    assert f1["figure"] == "f1" and f1["estimate"] == res.f1.estimate
    assert f1["confidence_interval"]["confidence_level"] == 0.95
    assert rel["kappa_kind"] == "cohen_kappa"
    assert {r["type"] for r in rel["results"][2:]} == {"Colleague", "Equiv", "Located_in"}
    md = rep.to_markdown()
    at = md.index("### Relations")
    assert md[at:].split("\n")[2].startswith("**Relations (arguments matched strictly)")
    assert "Charles Babbag" in md[at:]
    assert '<h3 id="relations">Relations</h3>' in rep.to_html()
    console = Console(record=True, width=200)
    console.print(rep)
    assert "The most disputed relations" in console.export_text()


def test_no_relations_no_part():
    ner = ROOT / "examples" / "ner_spans.csv"
    ann = accord.read(ner, unit="doc", rater="annotator", value="label", start="start",
                      end="end")
    doc = json.loads(accord.report(ann, seed=1).to_json())
    assert "relations" not in doc["spans"]
