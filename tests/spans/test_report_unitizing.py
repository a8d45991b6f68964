"""The span report's unitizing part: alpha_U and gamma beside the F1, a sentence each,
gamma left out past its size budget (said on the first screen), in every medium."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import accord
from accord.report import unitizing_section
from accord.report.json import schema

ROOT = Path(__file__).resolve().parents[2]
SPANS = ROOT / "examples" / "ner_spans.csv"


def _ann() -> accord.Annotations:
    return accord.read(SPANS, unit="doc", rater="annotator", value="label", start="start",
                       end="end")


def _console(rep: accord.Report) -> str:
    console = Console(record=True, width=200)
    console.print(rep)
    return console.export_text()


def test_alpha_u_and_gamma_are_the_library_figures_in_every_medium() -> None:
    ann = _ann()
    rep = accord.report(ann, seed=1)
    assert rep.spans is not None and rep.spans.unitizing is not None
    alpha_u, gamma = rep.spans.unitizing.rows
    assert alpha_u.estimate == accord.unitizing_alpha(ann).estimate
    rows = {"doc": [s.unit for s in ann.spans], "annotator": [s.rater for s in ann.spans],
            "label": [s.label for s in ann.spans], "start": [s.start for s in ann.spans],
            "end": [s.end for s in ann.spans]}
    assert gamma.estimate == accord.gamma(rows, rng=1).estimate
    assert gamma.ci_low <= gamma.estimate <= gamma.ci_high
    doc = json.loads(rep.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    part = doc["spans"]["unitizing"]
    assert part["left_out"] is None
    assert [r["coefficient"] for r in part["results"]] == ["unitizing_alpha", "gamma"]
    text = _console(rep)
    assert "Unitizing: alpha_U and gamma" in text and "gamma (Mathet) aligns" in text
    assert "alpha_U and gamma" in rep.to_markdown() and 'id="unitizing"' in rep.to_html()


def test_gamma_past_the_budget_is_left_out_and_said_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(unitizing_section, "GAMMA_BUDGET", 5)
    rep = accord.report(_ann(), seed=1)
    assert rep.spans is not None and rep.spans.unitizing is not None
    assert [r.coefficient for r in rep.spans.unitizing.rows] == ["unitizing_alpha"]
    said = rep.spans.unitizing.left_out
    assert said is not None and "gamma left out" in said and "over the report's budget of 5" in said
    text = _console(rep)
    assert text.index("gamma left out") < text.index("Rater pairs")
    assert said in json.loads(rep.to_json())["spans"]["unitizing"]["left_out"]
