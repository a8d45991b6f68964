"""accord spans --coefficient gamma / unitizing_alpha: the library's figures, a sentence
each, and the JSON its schema describes."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import jsonschema

import accord
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
SPANS = ROOT / "examples" / "ner_spans.csv"
COLS = ("--unit", "doc", "--rater", "annotator", "--label", "label", "--start", "start",
        "--end", "end")


def test_gamma_and_alpha_u_in_the_json_are_the_library_figures():
    code, out, err = run_cli("spans", str(SPANS), *COLS, "--coefficient", "gamma",
                             "--coefficient", "unitizing_alpha", "--json",
                             "--n-resamples", "200", "--seed", "3")
    assert code == 0, err
    doc = json.loads(out)
    schema = json.loads(files("accord.cli").joinpath("schemas", "spans.json").read_text("utf-8"))
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    gamma, alpha_u = doc["unitizing"]
    ann = accord.read(SPANS, unit="doc", rater="annotator", value="label", start="start",
                      end="end")
    rows = {"doc": [s.unit for s in ann.spans], "annotator": [s.rater for s in ann.spans],
            "label": [s.label for s in ann.spans], "start": [s.start for s in ann.spans],
            "end": [s.end for s in ann.spans]}
    res = accord.gamma(rows, rng=3)
    assert gamma["coefficient"] == "gamma" and gamma["estimate"] == res.estimate
    assert gamma["details"]["gamma_cat"] == res.details["gamma_cat"]
    assert set(gamma["per_category"]) == {"LOC", "ORG", "PER"}
    ci = gamma["confidence_interval"]
    assert ci["method"] == "bootstrap-percentile" and ci["low"] <= res.estimate <= ci["high"]
    assert alpha_u["estimate"] == accord.unitizing_alpha(ann).estimate
    assert alpha_u["confidence_interval"] is None
    assert "overlap" in gamma["sentence"] and "never overlap" in alpha_u["sentence"]


def test_gamma_is_left_out_unless_asked_and_the_table_says_each_in_a_sentence():
    code, out, err = run_cli("spans", str(SPANS), *COLS, "--n-resamples", "0")
    assert code == 0, err
    assert "gamma" not in out
    code, out, err = run_cli("spans", str(SPANS), *COLS, "--n-resamples", "0",
                             "--coefficient", "gamma")
    assert code == 0, err
    assert "unitizing coefficients" in out and "gamma (Mathet) aligns" in out
    code, _, err = run_cli("spans", str(SPANS), *COLS, "--coefficient", "kappa")
    assert code == 2 and "--coefficient" in err
