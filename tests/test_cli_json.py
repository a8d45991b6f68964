"""One JSON schema: every command's ``--json`` output validates against its JSON Schema
(package data in ``accord/cli/schemas``), and no key means two things."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from accord.cli import _json
from accord.cli._json import SCHEMA_VERSION
from tests.conftest import run_cli

EX = str(Path(__file__).resolve().parents[1] / "examples")
TWO = ("--raters", "annotator_a", "annotator_b")
CROWD = (f"{EX}/crowd.csv", "--unit", "image", "--rater", "worker", "--value", "label")

#: One run per command (a subcommand of judge is "judge NAME").
RUNS: dict[str, tuple[str, ...]] = {
    "compute": ("compute", f"{EX}/pilot.csv", *TWO),
    "check": ("check", f"{EX}/pilot.csv", *TWO, "--coefficient", "cohen_kappa", "--min", "0.5"),
    "compare": ("compare", f"{EX}/batches/pilot.csv", f"{EX}/batches/batch2.csv", *TWO),
    "table": ("table", f"{EX}/pilot.csv", *TWO),
    "inspect": ("inspect", f"{EX}/pilot.csv"),
    "report": ("report", f"{EX}/pilot.csv", *TWO),
    "disagreements": ("disagreements", f"{EX}/pilot.csv", *TWO),
    "evaluate": ("evaluate", f"{EX}/preds.csv", "--gold", "gold", "--predicted", "model",
                 "--n-resamples", "200", "--seed", "1"),
    "multilabel": ("multilabel", f"{EX}/toxicity_multilabel.csv", "--separator", ";"),
    "spans": ("spans", f"{EX}/ner_spans.csv", "--unit", "doc", "--rater", "annotator",
              "--label", "label", "--start", "start", "--end", "end", "--n-resamples", "200",
              "--seed", "1"),
    "plan": ("plan", "--expected", "0.6", "--width", "0.2"),
    "boxes": ("boxes", f"{EX}/boxes.csv", "--n-resamples", "200"),
    "polygons": ("polygons", f"{EX}/polygons.csv", "--n-resamples", "200"),
    "keypoints": ("keypoints", f"{EX}/keypoints.csv", "--names", "wrist", "tip", "--sigmas",
                  "wrist=0.062", "tip=0.05", "--n-resamples", "200"),
    "history": ("history", f"{EX}/history.db"),
    "judge alt": ("judge", "alt", f"{EX}/judge.csv", "--judge", "gpt4", "--humans", "ann_a",
                  "ann_b", "ann_c", "--missing", "ERROR", "--n-resamples", "200", "--seed", "1"),
    "judge bias": ("judge", "bias", f"{EX}/alpaca_eval_slice.json", "--family", "gpt4"),
    "judge rank": ("judge", "rank", f"{EX}/alpaca_eval_slice.json"),
    "judge consistency": ("judge", "consistency", f"{EX}/judge_runs.csv", "--target", "0.95"),
    "judge calibration": ("judge", "calibration", f"{EX}/judge_scores.csv", "--score",
                          "judge_prob", "--label", "human", "--seed", "1"),
    "judge ppi": ("judge", "ppi", f"{EX}/judge_scores.csv", "--judge", "judge_pass", "--human",
                  "human"),
    "judge panel": ("judge", "panel", f"{EX}/jury.csv", "--judges", "judge_a", "judge_b",
                    "judge_c"),
    "consensus": ("consensus", *CROWD),
    "annotators": ("annotators", *CROWD, "--n-resamples", "200", "--seed", "1"),
}


def _schema(name: str) -> dict[str, Any]:
    text = files("accord.cli").joinpath("schemas", f"{name.replace(' ', '_')}.json")
    doc: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return doc


#: Keys that meant two things (p_o or D_o; an interval object or a list), that the
#: report alone used, or that named an interval otherwise; none may appear anywhere in
#: any JSON accord writes.
RETIRED = set(_json.RETIRED)


def _keys(doc: Any) -> set[str]:
    if isinstance(doc, dict):
        return set(doc) | {k for v in doc.values() for k in _keys(v)}
    if isinstance(doc, list):
        return {k for v in doc for k in _keys(v)}
    return set()


def test_every_command_has_a_run_and_a_schema() -> None:
    from tests.test_cli_options import COMMANDS

    assert sorted(RUNS) == sorted(name for name, _ in COMMANDS)
    shipped = {p.name for p in files("accord.cli").joinpath("schemas").iterdir()}
    assert shipped == {f"{n.replace(' ', '_')}.json" for n in [*RUNS, "error"]}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_json_output_validates_against_the_command_schema(name: str) -> None:
    code, out, err = run_cli(*RUNS[name], "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, _schema(name), cls=jsonschema.Draft202012Validator)
    assert list(doc)[:2] == ["schema_version", "command"]
    assert (doc["schema_version"], doc["command"]) == (SCHEMA_VERSION, name)
    # one spelling per thing: the interval is confidence_interval everywhere (the report's
    # too), p_o/p_e against D_o/D_e are told apart by name, and history reads runs
    # recorded with the older keys under the new ones. Plan's --expected value (the
    # anticipated coefficient) is expected_estimate
    assert not RETIRED & _keys(doc), name
    assert "results" in doc, name
    assert out.startswith("{\n  \"schema_version\"")  # pretty-printed, the same everywhere
    assert "NaN" not in out and "Infinity" not in out


def test_kappa_and_alpha_name_their_observed_figures_apart() -> None:
    import krippendorff
    import numpy as np
    import polars as pl
    from sklearn.metrics import cohen_kappa_score

    code, out, err = run_cli("compute", f"{EX}/pilot.csv", *TWO, "--coefficient",
                             "cohen_kappa", "krippendorff_alpha", "--json")
    assert code == 0, err
    kappa, alpha = json.loads(out)["results"]
    assert {"observed_agreement", "expected_agreement"} <= set(kappa)
    assert not {"observed_disagreement", "expected_disagreement"} & set(kappa)
    assert {"observed_disagreement", "expected_disagreement"} <= set(alpha)
    assert not {"observed_agreement", "expected_agreement"} & set(alpha)
    # kappa = (p_o - p_e) / (1 - p_e) and alpha = 1 - D_o / D_e, against scikit-learn and
    # the krippendorff package on the same two columns
    po, pe = kappa["observed_agreement"], kappa["expected_agreement"]
    assert kappa["estimate"] == pytest.approx((po - pe) / (1 - pe), abs=1e-12)
    assert alpha["estimate"] == pytest.approx(
        1 - alpha["observed_disagreement"] / alpha["expected_disagreement"], abs=1e-12)
    df = pl.read_csv(f"{EX}/pilot.csv", null_values=["NA"]).drop_nulls(
        ["annotator_a", "annotator_b"])
    a, b = df["annotator_a"].to_list(), df["annotator_b"].to_list()
    assert kappa["estimate"] == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    codes = {c: i for i, c in enumerate(sorted(set(a) | set(b)))}
    data = np.array([[codes[x] for x in a], [codes[x] for x in b]], dtype=float)
    assert alpha["estimate"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"), abs=1e-12)


def test_errors_validate_against_the_error_schema() -> None:
    for args, status in [(("compute", f"{EX}/pilot.csv", "--raters", "annotator_a", "x"), 1),
                         (("judge", "rank", f"{EX}/alpaca_eval_slice.json", "--confidence-level",
                           "7"), 2)]:
        code, out, _ = run_cli(*args, "--json")
        doc = json.loads(out)
        jsonschema.validate(doc, _schema("error"), cls=jsonschema.Draft202012Validator)
        assert code == doc["exit_status"] == status


def test_the_schemas_and_the_json_page_are_what_the_description_says() -> None:
    """docs/_tools/json_reference.py writes every command's schema and
    docs/reference/json.md from one description of the documents: both are current."""
    import sys

    tools = Path(__file__).resolve().parents[1] / "docs" / "_tools"
    sys.path.insert(0, str(tools))
    try:
        import json_reference
    finally:
        sys.path.remove(str(tools))
    shipped = files("accord.cli").joinpath("schemas")
    for name, text in json_reference.schemas().items():
        assert shipped.joinpath(name).read_text(encoding="utf-8") == text, \
            f"{name} is stale: run python docs/_tools/json_reference.py"
    page = (tools.parent / "reference" / "json.md").read_text(encoding="utf-8")
    assert page == json_reference.render(), "docs/reference/json.md is stale: run " \
        "python docs/_tools/json_reference.py"
    assert sorted(c.name for c in json_reference.COMMANDS) == sorted(RUNS)
