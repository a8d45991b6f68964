"""accord spans with relations: --relations FILE, relations read with the spans, the JSON."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

import accord
from accord.readers.relations import read_relations
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
SPANS = ROOT / "examples" / "ner_spans_ids.csv"
RELATIONS = ROOT / "examples" / "ner_relations.csv"
COLS = ("--unit", "doc", "--rater", "annotator", "--label", "label", "--start", "start",
        "--end", "end")
BRAT = ROOT / "tests" / "readers" / "data" / "brat_relations"


def test_relations_file_gives_the_library_figures_in_the_json():
    code, out, err = run_cli("spans", str(SPANS), *COLS, "--relations", str(RELATIONS),
                             "--json", "--n-resamples", "100", "--seed", "3")
    assert code == 0, err
    doc = json.loads(out)
    schema = json.loads(files("accord.cli").joinpath("schemas", "spans.json").read_text("utf-8"))
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    rel = doc["relations"]
    ann = accord.read(SPANS, unit="doc", rater="annotator", value="label", start="start",
                      end="end")
    res = accord.relation_agreement(ann, read_relations(RELATIONS, unit="doc",
                                                        rater="annotator"))
    f1, kappa = rel["results"][:2]
    assert (f1["figure"], kappa["figure"]) == ("f1", "kappa")
    assert f1["estimate"] == res.f1.estimate and kappa["estimate"] == res.kappa.estimate
    assert f1["confidence_interval"]["method"] == "bootstrap-percentile"
    assert rel["counts"] == res.counts.to_dict()
    assert {r["type"] for r in rel["results"][2:]} == set(res.per_type)


def test_relations_read_with_brat_spans_are_reported_without_an_option():
    code, out, err = run_cli("spans", str(BRAT), "--mode", "type", "--n-resamples", "0")
    assert code == 0, err
    assert "relations, arguments matched type: mean pairwise F1 1.0000" in out
    assert "relations per type" in out


def test_symmetric_needs_relations_and_bad_relations_are_one_line():
    code, _, err = run_cli("spans", str(ROOT / "examples" / "ner_spans.csv"), *COLS,
                           "--symmetric", "x")
    assert code == 2 and "--symmetric needs relations" in err
    code, _, err = run_cli("spans", str(SPANS), *COLS, "--relations", str(SPANS))
    assert code == 1 and "expected the columns" in err


@pytest.mark.parametrize("mode", ["strict", "type"])
def test_modes_reach_the_relations(mode):
    code, out, err = run_cli("spans", str(BRAT), "--mode", mode, "--json", "--n-resamples", "0")
    assert code == 0, err
    assert json.loads(out)["relations"]["mode"] == mode
