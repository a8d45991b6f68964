"""The crowd report with a model's probabilities (``annotators_model``, ``accord report
--model``): "The model as an annotator" and "Relabel these first".

The figures are the library's :class:`~accord.Consensus` on the same input (the same
method, the model as one more annotator), compared at full precision; the parts appear
only when a model is given, in every rendering; the JSON validates against
``report/schema.json`` and gives every figure with an SE its interval; bad models are one
sentence from the library and from the command line.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import polars as pl
import pytest

import accord
from accord.errors import DataError, InvalidParameterError
from accord.report.annotators_section import UNUSED_MODEL
from accord.report.json import schema
from accord.report.model_voice_section import MODEL_TITLE, RELABEL_TITLE, SHOWN
from tests.conftest import run_cli
from tests.test_cli_json_parity import problems

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CROWD = EXAMPLES / "crowd.csv"
MODEL = EXAMPLES / "crowd_model.csv"
LONG = ("--unit", "image", "--rater", "worker", "--value", "label")


def _crowd() -> accord.Annotations:
    return accord.read(CROWD, unit="image", rater="worker", value="label")


def _model() -> pl.DataFrame:
    return pl.read_csv(MODEL)


@pytest.mark.parametrize("method", ["majority", "wawa", "one_coin", "dawid_skene", "mace"])
def test_the_parts_give_the_library_s_consensus_figures(method: str) -> None:
    ann, probs = _crowd(), _model()
    rep = accord.report(ann, seed=1, annotators_method=method, annotators_model=probs)
    assert rep.annotators is not None and rep.annotators.model is not None
    part = rep.annotators.model
    c = accord.consensus(ann, method=method, model=probs)  # type: ignore[arg-type]
    assert c.model is not None
    ci = c.model.accuracy.confidence_interval(0.95)
    assert (part.vote, part.n_units, part.n_units_crowd) == (c.model.vote, 150, 150)
    assert (part.weight, part.crowd_weight) == (c.model.weight, c.model.crowd_weight)
    assert (part.accuracy.estimate, part.accuracy.se, part.accuracy.ci_low,
            part.accuracy.ci_high) == (c.model.accuracy.estimate, c.model.accuracy.se,
                                       ci.low, ci.high)
    # agreement: the units the model voted on whose consensus label is its top label
    top = probs.select(list(c.categories)).to_numpy()
    mine = np.array([c.categories.index(c.labels[u]) for u in probs["unit"].to_list()])
    assert part.agreement.n_units == 150
    assert part.agreement.estimate == pytest.approx(float(np.mean(top.argmax(axis=1) == mine)),
                                                    abs=1e-15)
    assert part.agreement.ci_low < part.agreement.estimate < part.agreement.ci_high
    again = c.relabel(SHOWN)
    assert part.relabel_score == again.score and part.relabel_accuracy == again.accuracy
    assert [(r.unit, r.label, r.quality, r.p_change, r.p_confirm, r.gain, r.reason)
            for r in part.relabel] == [
        (str(r["unit"]), str(r["label"]), r["quality"], r["p_change"], r["p_confirm"],
         r["gain"], r["reason"]) for r in again.rows()]


def test_the_parts_appear_only_with_a_model_in_every_rendering() -> None:
    from rich.console import Console

    ann = _crowd()
    plain = accord.report(ann, seed=1)
    voiced = accord.report(ann, seed=1, annotators_model=_model())
    assert plain.annotators is not None and plain.annotators.model is None
    assert "model" not in plain.to_dict()["annotators"]
    for rep, shown in ((plain, False), (voiced, True)):
        md, html = rep.to_markdown(), rep.to_html()
        console = Console(width=200, record=True)
        console.print(rep)
        text = console.export_text()
        for title in (MODEL_TITLE, RELABEL_TITLE):
            assert (f"### {title}" in md) is shown
            assert (f">{title}</h3>" in html) is shown
            assert (title in text) is shown
    md = voiced.to_markdown()
    # under the annotators' table, in the Annotators section
    assert md.index("## Annotators") < md.index(f"### {MODEL_TITLE}") < md.index(
        f"### {RELABEL_TITLE}")
    part = voiced.annotators.model  # type: ignore[union-attr]
    assert part is not None and f"{100 * part.accuracy.estimate:.1f}%" in md
    assert part.relabel[0].reason in md.replace("\\", "")


def test_the_json_validates_and_gives_every_se_its_interval() -> None:
    doc = accord.report(_crowd(), seed=1, annotators_model=_model()).to_dict()
    jsonschema.validate(doc, schema(), cls=jsonschema.Draft202012Validator)
    part = doc["annotators"]["model"]
    assert part["accuracy"]["confidence_interval"]["method"] == "wilson"
    assert part["agreement"]["confidence_interval"]["confidence_level"] == 0.95
    assert len(part["relabel"]["results"]) == SHOWN and part["relabel"]["note"] is None
    assert problems({"results": [], **doc}) == []
    bad = json.loads(json.dumps(doc))
    bad["annotators"]["model"]["weight of the model"] = 1.0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema(), cls=jsonschema.Draft202012Validator)


def test_a_model_for_a_report_without_the_section_is_said() -> None:
    pairs = accord.Annotations.from_pairs(["a", "b", "a", "b"], ["a", "b", "b", "b"])
    rep = accord.report(pairs, annotators_model={0: {"a": 1.0, "b": 0.0}})
    assert UNUSED_MODEL in rep.notes


def test_bad_models_are_one_sentence_from_the_library() -> None:
    ann = _crowd()
    stray = _model().with_columns(pl.col("unit").str.replace("img", "photo"))
    with pytest.raises(DataError, match=r"the model scored 150 unit\(s\) the crowd does not "
                       r"have \('photo001', 'photo002', 'photo003', \.\.\.\)"):
        accord.report(ann, annotators_model=stray)
    with pytest.raises(InvalidParameterError, match=r"annotators_method='glad' \(accord CLI: "
                       r"--consensus-method glad\) takes no model"):
        accord.report(ann, annotators_method="glad", annotators_model=_model())


def test_cli_model_gives_the_library_s_report() -> None:
    code, out, err = run_cli("report", str(CROWD), *LONG, "--model", str(MODEL),
                             "--consensus-method", "majority", "--seed", "1", "--json")
    assert code == 0, err
    part = json.loads(out)["annotators"]["model"]
    lib = accord.report(_crowd(), seed=1, annotators_method="majority",
                        annotators_model=_model()).to_dict()["annotators"]["model"]
    assert part == lib
    assert part["relabel"]["score"].startswith("vote change probability")
    code, out, err = run_cli("report", str(CROWD), *LONG, "--model", str(MODEL))
    assert code == 0, err
    assert MODEL_TITLE in out and RELABEL_TITLE in out


def test_cli_bad_model_files_are_one_line(tmp_path: Path) -> None:
    stray = tmp_path / "stray.csv"
    stray.write_text("unit,cat,dog,other\nnope,0.2,0.3,0.5\n", encoding="utf-8")
    code, out, err = run_cli("report", str(CROWD), *LONG, "--model", str(stray))
    assert code == 1 and out == "" and "Traceback" not in err
    assert "the model scored 1 unit(s) the crowd does not have ('nope')" in err
    code, out, err = run_cli("report", str(CROWD), *LONG, "--model", str(MODEL),
                             "--consensus-method", "glad")
    assert code == 2 and "Traceback" not in err
    assert "report: --consensus-method glad takes no model" in err
    code, out, err = run_cli("report", str(EXAMPLES / "alpaca_eval_slice.json"),
                             "--model", str(MODEL))
    assert code == 2 and "DATA is a pairwise-preference file, so --model does not apply" in err


def test_a_crowd_report_shows_the_model_and_the_units_to_relabel_on_its_first_screen(
) -> None:
    """From LEADS_FROM annotators on, the section (the model's parts with it) comes
    before the data and the coefficients."""
    from tests.test_annotators_model import model_probs, simulated

    truth, ann = simulated(3, n_units=300, n_raters=12)
    rep = accord.report(ann, seed=1, annotators_model=model_probs(truth, 0.8, 3))
    assert rep.annotators is not None and rep.annotators.leads
    md = rep.to_markdown()
    assert (md.index("## Annotators") < md.index(f"### {MODEL_TITLE}")
            < md.index(f"### {RELABEL_TITLE}") < md.index("## Data"))
    html = rep.to_html()
    assert html.index(f">{RELABEL_TITLE}</h3>") < html.index('<section id="summary">')


def test_majority_s_model_is_said_to_break_ties_only() -> None:
    from accord.report.model_voice_section import cells

    rep = accord.report(_crowd(), seed=1, annotators_method="majority",
                        annotators_model=_model())
    assert rep.annotators is not None and rep.annotators.model is not None
    part = rep.annotators.model
    assert part.vote == "tie-break" and np.isnan(part.weight)
    lead = cells(part, "majority vote")["model_lead"]
    assert lead.startswith("The model's probabilities entered the majority vote consensus "
                           "as a tie-break on 150 of 150 units; majority vote learns no "
                           "reliability, so the model breaks the crowd's ties only")
