"""The report's Annotators section by consensus method (``annotators_method``,
``accord report --consensus-method``) and with ``accelerate``.

Each method's section figures are :func:`accord.annotators`'s own (the same method, the
same Wilson interval behind the flags), compared at full precision; majority vote
and Wawa fit no model, so the section has no competence and says why; a bad method is
one sentence from the library and from the command line; the JSON validates against
``report/schema.json``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest

import accord
from accord.annotators.consensus import METHODS
from accord.errors import InvalidParameterError
from accord.report.annotators_section import COMPETENCE, METHOD_NAMES, UNUSED, cells
from accord.report.json import schema
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CROWD = EXAMPLES / "crowd.csv"
LONG = ("--unit", "image", "--rater", "worker", "--value", "label")
SEED = 5


def _crowd() -> accord.Annotations:
    return accord.read(CROWD, unit="image", rater="worker", value="label")


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("method", METHODS)
def test_each_method_s_section_gives_accord_annotators_figures(method: str) -> None:
    ann = _crowd()
    section = accord.report(ann, seed=SEED, annotators_method=method).annotators
    assert section is not None and section.method == method
    lib = accord.annotators(ann, method=method)  # type: ignore[arg-type]
    assert section.n_annotators == len(lib) == 9
    assert section.n_flagged == len(lib.flagged) and section.pool == lib.pool_accuracy
    assert section.notes[:len(lib.consensus.notes)] == tuple(lib.consensus.notes)
    for row in section.rows:
        mine = lib[row.name]
        ci = mine.accuracy.confidence_interval(0.95)
        assert (row.n_units, row.consensus, row.ci_low, row.ci_high) == (
            mine.n_units, mine.accuracy.estimate, ci.low, ci.high)
        assert _same(row.kappa, mine.agreement.estimate) and row.flag == mine.flag
        expected = mine.competence if method in COMPETENCE else math.nan
        assert _same(row.competence, expected)
    assert [r.name for r in section.rows[:section.n_flagged]] == [r.name for r in lib.flagged]
    assert f"against the {METHOD_NAMES[method]} consensus" in cells(section)["lead"]


@pytest.mark.parametrize("method", ["majority", "wawa"])
def test_majority_and_wawa_render_and_say_there_is_no_model(method: str) -> None:
    rep = accord.report(_crowd(), seed=SEED, annotators_method=method)
    section = rep.annotators
    assert section is not None and not section.has_model
    assert all(math.isnan(r.competence) for r in section.rows)
    c = cells(section)
    assert "competence" not in c["head"] and len(c["head"]) == len(c["rows"][0]) == 6
    why = section.notes[-1]
    assert why.startswith(f"{'Majority vote' if method == 'majority' else 'Wawa'} fits no "
                          "model of the annotators, so the section has no competence")
    md, page = rep.to_markdown(), rep.to_html()
    assert f"- {why}" in md and "| annotator | units | agrees with consensus |" in md
    assert '<section id="annotators">' in page and "fits no model" in page
    doc = json.loads(rep.to_json())
    assert doc["annotators"]["model_figures"] is False and doc["annotators"]["method"] == method
    assert all(r["competence"] is None for r in doc["annotators"]["rows"])


def test_a_model_method_shows_each_annotator_s_competence() -> None:
    rep = accord.report(_crowd(), seed=SEED, annotators_method="mace")
    section = rep.annotators
    assert section is not None and section.has_model
    c = cells(section)
    assert c["head"][5] == "competence" and COMPETENCE["mace"] in c["lead"]
    w08 = next(r for r in section.rows if r.name == "w08")
    lib = accord.annotators(_crowd(), method="mace", rng=SEED)
    assert w08.competence == lib["w08"].competence
    assert f"| {w08.competence:.3f} | yes |" in rep.to_markdown()


def test_the_json_carries_the_method_and_validates() -> None:
    for method in ("dawid_skene", "wawa"):
        doc = json.loads(accord.report(_crowd(), seed=SEED, annotators_method=method,
                                       annotators_accelerate=True).to_json())
        jsonschema.validate(doc, schema(), cls=jsonschema.Draft202012Validator)
        part = doc["annotators"]
        assert part["method"] == method
        assert part["accelerate"] is (method == "dawid_skene")  # only where it applies
        assert set(part["rows"][0]) == {"name", "n_units", "n_compared", "consensus",
                                         "confidence_interval", "kappa", "flag", "competence"}
        assert (part["against"], part["reference"]) == ("consensus", None)
    bad = {**doc, "annotators": {**doc["annotators"], "method": "em"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema(), cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("method", ["majority", "mace"])
def test_a_gold_rater_is_the_reference_of_the_section(method: str) -> None:
    ann = _crowd()
    ann.kinds["expert"] = "gold"  # as accord report --gold expert marks it
    rep = accord.report(ann, seed=SEED, annotators_method=method)
    section = rep.annotators
    assert section is not None and section.reference == "expert" and rep.reference is None
    lib = accord.annotators(_crowd(), reference="expert", method=method,  # type: ignore[arg-type]
                            rng=SEED)
    assert lib.against == "reference" and section.n_annotators == len(lib) == 8
    assert section.pool == lib.pool_accuracy
    for row in section.rows:
        mine = lib[row.name]
        ci = mine.accuracy.confidence_interval(0.95)
        assert (row.n_compared, row.consensus, row.ci_low, row.ci_high, row.flag) == (
            mine.accuracy.n_units, mine.accuracy.estimate, ci.low, ci.high, mine.flag)
        assert _same(row.competence, mine.competence if method == "mace" else math.nan)
    c = cells(section)
    assert "against the reference 'expert' on the units it labelled" in c["lead"]
    assert c["head"][1:3] == ["units with reference", "agrees with reference"]
    w08 = next(r for r in c["rows"] if r[0] == "w08")
    assert w08[1] == "29"  # the expert labelled 29 of w08's 94 images
    doc = json.loads(rep.to_json())
    jsonschema.validate(doc, schema(), cls=jsonschema.Draft202012Validator)
    assert (doc["annotators"]["against"], doc["annotators"]["reference"]) == ("reference",
                                                                             "expert")


def test_cli_gold_without_predicted_is_the_section_s_reference() -> None:
    code, out, err = run_cli("report", str(CROWD), *LONG, "--gold", "expert", "--seed", "1",
                             "--json")
    assert code == 0, err
    part = json.loads(out)["annotators"]
    lib = accord.annotators(_crowd(), reference="expert", rng=1)
    assert part["reference"] == "expert" and part["n_annotators"] == 8
    assert part["pool"] == lib.pool_accuracy
    assert [r["name"] for r in part["rows"][:part["n_flagged"]]] == [r.name for r in lib.flagged]


def test_accelerate_gives_accord_annotators_accelerated_figures() -> None:
    ann = _crowd()
    section = accord.report(ann, seed=SEED, annotators_accelerate=True).annotators
    assert section is not None and section.accelerate and section.method == "dawid_skene"
    lib = accord.annotators(ann, rng=SEED, accelerate=True)
    assert [(r.name, r.consensus, r.competence) for r in section.rows] == [
        (r.name, lib[r.name].accuracy.estimate, lib[r.name].competence) for r in section.rows]
    assert "(EM accelerated by SQUAREM)" in cells(section)["lead"]


def test_the_default_section_is_dawid_skene_and_says_so() -> None:
    rep = accord.report(_crowd(), seed=SEED)
    chosen = accord.report(_crowd(), seed=SEED, annotators_method="dawid_skene")
    assert rep.annotators == chosen.annotators and rep.annotators is not None
    assert rep.annotators.method == "dawid_skene" and not rep.annotators.accelerate
    assert "against the Dawid-Skene (1979) consensus" in rep.to_markdown()


def test_a_bad_method_is_one_sentence_from_the_library() -> None:
    with pytest.raises(InvalidParameterError) as exc:
        accord.report(_crowd(), annotators_method="em")
    assert str(exc.value) == (
        "The 'annotators_method' parameter of report must be one of {'majority', 'wawa', "
        "'one_coin', 'dawid_skene', 'glad', 'mace'}. Got 'em' instead.")
    with pytest.raises(InvalidParameterError, match="^The 'annotators_accelerate' "
                       r"parameter of report must be True or False\. Got 'yes' instead\.$"):
        accord.report(_crowd(), annotators_accelerate="yes")  # type: ignore[arg-type]


def test_a_method_for_a_report_without_the_section_is_said() -> None:
    pairs = accord.Annotations.from_pairs(["a", "b", "a", "b"], ["a", "b", "b", "b"])
    assert UNUSED in accord.report(pairs, annotators_method="mace").notes
    assert UNUSED not in accord.report(pairs).notes


def test_cli_consensus_method_is_the_library_s_section() -> None:
    code, out, err = run_cli("report", str(CROWD), *LONG, "--consensus-method", "glad",
                             "--seed", str(SEED), "--json")
    assert code == 0, err
    part = json.loads(out)["annotators"]
    lib = accord.report(_crowd(), seed=SEED, annotators_method="glad").annotators
    assert lib is not None and part["method"] == "glad"
    assert [(r["name"], r["consensus"], r["competence"]) for r in part["rows"]] == [
        (r.name, r.consensus, r.competence) for r in lib.rows]


def test_cli_bad_consensus_method_is_one_line_without_a_traceback() -> None:
    code, out, err = run_cli("report", str(CROWD), *LONG, "--consensus-method", "em")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "Invalid value for '--consensus-method': 'em' is not one of 'majority', 'wawa', " \
           "'one_coin', 'dawid_skene', 'glad', 'mace'." in err


def test_accord_annotators_takes_the_same_option_under_both_names() -> None:
    new = run_cli("annotators", str(CROWD), *LONG, "--consensus-method", "wawa", "--seed", "1",
                  "--json")
    old = run_cli("annotators", str(CROWD), *LONG, "--method", "wawa", "--seed", "1", "--json")
    assert new[0] == old[0] == 0 and new[1] == old[1]
    assert json.loads(new[1])["method"] == "wawa"


def test_cli_consensus_method_on_a_preference_file_is_bad_usage() -> None:
    code, out, err = run_cli("report", str(EXAMPLES / "alpaca_eval_slice.json"),
                             "--consensus-method", "mace")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "DATA is a pairwise-preference file, so --consensus-method does not apply" in err


def _twenty() -> accord.Annotations:
    """20 workers, 300 comments, about 5 ratings each (the benchmark's crowd generator)."""
    import numpy as np

    rng = np.random.default_rng(0)
    sizes = rng.integers(2, 12, 300)
    unit = np.repeat(np.arange(300), sizes)
    start = np.repeat(rng.integers(0, 20, 300), sizes)
    worker = (start + (np.arange(unit.shape[0]) - np.repeat(np.cumsum(sizes) - sizes, sizes))
              * 7919) % 20
    noisy = (np.repeat(rng.choice(5, 300), sizes) + rng.normal(0, 0.6, 20)[worker]
             + rng.normal(0, 0.8, unit.shape[0]))
    label = np.clip(np.rint(noisy), 0, 4).astype(np.int64)
    return accord.Annotations.from_long({"unit": unit, "rater": worker, "value": label},
                                        level="ordinal")


def test_a_crowd_report_leads_with_the_consensus_and_the_annotators_to_check() -> None:
    """From LEADS_FROM annotators on, the Annotators section comes before the data and the
    coefficients in every rendering; a pilot of three keeps it after them."""
    from accord.report.annotators_section import LEADS_FROM

    rep = accord.report(_twenty(), seed=1)
    assert rep.annotators is not None and rep.annotators.n_annotators == 20 >= LEADS_FROM
    assert rep.annotators.leads and rep.annotators.n_flagged >= 1
    md = rep.to_markdown()
    assert md.index("## Annotators") < md.index("## Data") < md.index("Fleiss")
    html = rep.to_html()
    assert html.index('<section id="annotators">') < html.index("Fleiss")
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(rep)
    text = console.export_text()
    assert text.index("Annotators") < text.index("units: 300") < text.index("Fleiss")
    assert text.index("flagged: ") < text.index("Fleiss")
    pilot = accord.report(_crowd().select(list(_crowd().raters)[:3]), seed=1)
    assert pilot.annotators is not None and not pilot.annotators.leads
    md = pilot.to_markdown()
    assert md.index("## Data") < md.index("## Annotators")


def test_a_crowd_shows_at_most_max_flagged_of_its_flagged_annotators() -> None:
    """A crowd of 400 workers with many flagged shows the MAX_FLAGGED lowest, in the
    library's order, and says how many there are and that accord annotators lists all."""
    import numpy as np

    from accord.report.annotators_section import MAX_FLAGGED, annotators_section

    rng = np.random.default_rng(0)
    sizes = rng.integers(14, 27, 1000)
    unit = np.repeat(np.arange(1000), sizes)
    start = np.repeat(rng.integers(0, 400, 1000), sizes)
    worker = (start + (np.arange(unit.shape[0]) - np.repeat(np.cumsum(sizes) - sizes, sizes))
              * 7919) % 400
    noisy = (np.repeat(rng.choice(5, 1000), sizes) + rng.normal(0, 0.6, 400)[worker]
             + rng.normal(0, 0.8, unit.shape[0]))
    ann = accord.Annotations.from_long(
        {"unit": unit, "rater": worker,
         "value": np.clip(np.rint(noisy), 0, 4).astype(np.int64)}, level="ordinal")
    section = annotators_section(ann, 0.95, "majority")
    lib = accord.annotators(ann, method="majority")
    shown = [r.name for r in section.rows if r.flag]
    assert section.n_flagged == len(lib.flagged) > MAX_FLAGGED == len(shown)
    assert shown == [str(r.name) for r in lib.flagged[:MAX_FLAGGED]]
    lead = cells(section)["lead"]
    assert f"{section.n_flagged} flagged" in lead
    assert f"the {MAX_FLAGGED} flagged ones lowest in agreement" in lead
    assert len(cells(section)["flags"]) == MAX_FLAGGED


def test_an_em_consensus_past_the_report_s_budget_stops_there_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the budget is passes over the ratings: here 5 iterations of crowd.csv's ratings,
    # where Dawid-Skene needs more; the section keeps the last iterate and says why
    # (no ConvergenceWarning: warnings are errors in the tests)
    from accord.report import annotators_section as sec

    ann = _crowd()
    within = accord.report(ann, seed=SEED).annotators
    assert within is not None and not any("budget" in n for n in within.notes)
    monkeypatch.setattr(sec, "EM_BUDGET", 5 * ann.n_ratings)
    capped = accord.report(ann, seed=SEED).annotators
    assert capped is not None and capped.n_annotators == 9
    note = capped.notes[-1]
    assert note.startswith("Dawid-Skene (1979) stopped after 5 iterations, the report's budget")
    assert f"{5 * ann.n_ratings:,} passes over the ratings" in note
    with pytest.warns(accord.errors.ConvergenceWarning):  # the library, capped alike, warns
        lib = accord.annotators(ann, max_iter=5)
    assert [r.consensus for r in capped.rows] == [
        lib[r.name].accuracy.estimate for r in capped.rows]
