"""A panel of judges in the report, and the consistency report's own target.

The panel's figures are checked against their oracles in tests/test_judge_jury.py (the
alt-test of a panel column built by hand, numpy ``corrcoef`` of the judges' errors,
Kish's design effect written out, the jackknife by leaving each unit out) and the
consistency figures in tests/test_judge_consistency.py (pingouin's ICC, the
Spearman-Brown prophecy); here every figure of the report's panel and consistency
sections, its interval and its count must equal the library result it was built from,
at full precision, and every rendering must open with the verdict.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from rich.console import Console

import accord
from accord.errors import InvalidParameterError
from accord.judge.sentences import interval
from accord.report.json import schema
from accord.report.markdown import escape
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JURY = EXAMPLES / "jury.csv"
JUDGES = ["judge_a", "judge_b", "judge_c"]
HUMANS = ["human_1", "human_2", "human_3"]
RUNS = EXAMPLES / "judge_runs.csv"


def _jury_data() -> accord.Annotations:
    return accord.read(JURY, raters=[*JUDGES, *HUMANS])


def jury(**options: Any) -> Any:
    """The bundled jury: three judges and three humans on 150 items."""
    return accord.judge_panel(_jury_data(), judges=JUDGES, **options)


def _console(rep: accord.Report) -> str:
    console = Console(width=4000, record=True, color_system=None, file=io.StringIO())
    console.print(rep)
    return console.export_text()


def test_the_panel_section_holds_the_library_figures() -> None:
    p = jury()
    rep = accord.report(None, judge_lab=p)
    lab = rep.judge_lab
    assert lab is not None and [x.kind for x in lab.parts] == ["panel"]
    part = lab.parts[0]
    assert part.title == "Panel of judges" and part.sentence == p.sentence()
    for who in [*JUDGES, "panel"]:
        alt = p.alt_tests[who]
        rate = part.figure("winning_rate", who)
        rho = part.figure("advantage_probability", who)
        assert rate is not None and rho is not None
        assert (rate.estimate, rate.n) == (alt.winning_rate, alt.n_units)
        assert (rho.estimate, rho.n) == (alt.advantage_probability, alt.n_units)
        extra = dict(rate.extra)
        assert extra["passed"] == alt.passed
        assert (extra["humans_won"], extra["humans_tested"]) == (
            sum(h.won for h in alt.per_human.values()), alt.n_tested)
        assert extra["per_human"] == [h.to_dict() for h in alt.per_human.values()]
        assert (extra["epsilon"], extra["fdr"], extra["test"]) == (alt.epsilon, alt.fdr,
                                                                   alt.test)
        assert not math.isfinite(rate.ci_low)  # a test's outcome: no interval
    k_eff = part.figure("effective_judges")
    assert k_eff is not None
    ci = interval(p.effective_judges, 0.95)  # the interval of the panel's sentence
    assert (k_eff.estimate, k_eff.ci_low, k_eff.ci_high, k_eff.n) == (
        p.effective_judges.estimate, ci.low, ci.high, p.effective_judges.n_units)
    mean = part.figure("mean_error_correlation")
    assert mean is not None and mean.estimate == p.effective_judges.observed
    pairs = [f for f in part.figures if f.key == "error_correlation"]
    assert [(f.who, dict(f.extra)["with"]) for f in pairs] == [
        ("judge_a", "judge_b"), ("judge_a", "judge_c"), ("judge_b", "judge_c")]
    for f, (a, b) in zip(pairs, [(0, 1), (0, 2), (1, 2)]):
        assert f.estimate == p.error_correlation[a, b]


def test_the_verdict_names_the_judges_that_pass_and_the_panel_s_size() -> None:
    p = jury()
    rep = accord.report(None, judge_lab=p)
    job = rep.job
    assert job is not None and job.kind == "judge_panel" and rep.title == "Panel of judges"
    passed = [j for j in JUDGES if p.alt_tests[j].passed]
    assert passed == ["judge_b", "judge_c"]
    ci = interval(p.effective_judges, 0.95)
    assert job.verdict == (
        "The majority panel of 3 judges passes the alternative annotator test (winning rate "
        "1.00); 2 of 3 judges pass alone (judge_b and judge_c); the judges are worth "
        f"{p.effective_judges.estimate:.2f} (95% CI {ci.low:.2f} to {ci.high:.2f}) "
        "independent judges.")
    assert (job.figure_name, job.figure) == ("panel's alt-test winning rate",
                                             f"{p.alt_tests['panel'].winning_rate:.2f}")


def test_every_rendering_opens_with_the_verdict_and_the_json_validates() -> None:
    p = jury()
    rep = accord.report(None, judge_lab=p)
    job = rep.job
    assert job is not None
    md = rep.to_markdown()
    assert md.splitlines()[0] == "# Panel of judges"
    assert escape(job.verdict) in md.split("\n## ", 1)[0]
    assert "| judge_a | fails | 0.00 | 0 of 3 |" in md
    lines = _console(rep).splitlines()
    assert lines[0] == rep.title and job.verdict in "\n".join(lines[:lines.index("")])
    page = rep.to_html()
    header = page[page.index("<header>"):page.index("</header>")]
    assert 'id="verdict"' in header and 'id="lab-panel"' in page
    assert "<caption>Effective number of judges</caption>" in page
    doc = json.loads(rep.to_json())
    jsonschema.validate(doc, schema())
    assert doc["job"]["kind"] == "judge_panel"
    figures = doc["judge_lab"]["parts"]["panel"]["figures"]
    got = {(f["key"], f.get("who", "")): f for f in figures}
    k_eff = got[("effective_judges", "")]
    ci = interval(p.effective_judges, 0.95)
    assert k_eff["estimate"] == p.effective_judges.estimate
    assert (k_eff["confidence_interval"]["low"], k_eff["confidence_interval"]["high"]) == (
        ci.low, ci.high)
    panel = got[("winning_rate", "panel")]
    assert panel["passed"] is True and panel["confidence_interval"] is None
    assert panel["per_human"] == p.alt_tests["panel"].to_dict()["per_human"]
    assert got[("advantage_probability", "judge_a")]["estimate"] == (
        p.alt_tests["judge_a"].advantage_probability)


def test_a_tied_majority_and_the_alt_test_s_caveats_are_notes() -> None:
    rows = {"unit": list(range(12)),
            "j1": [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1],
            "j2": [1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1],
            "h1": [1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1],
            "h2": [1, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0],
            "h3": [1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1]}
    ann = accord.Annotations.from_wide(rows, unit="unit", raters=["j1", "j2", "h1", "h2", "h3"])
    with pytest.warns(UserWarning, match="fewer than 30 units"):
        p = accord.judge_panel(ann, judges=["j1", "j2"])
    assert p.n_panel_ties == 3  # two judges who disagree leave no majority
    part = accord.report(None, judge_lab=p).judge_lab.parts[0]  # type: ignore[union-attr]
    assert f"{p.n_panel_ties} unit(s) have a tied majority and no panel verdict." in part.notes
    for who, alt in p.alt_tests.items():
        for note in alt.notes:
            assert f"{who}: {note}" in part.notes


def test_an_undefined_effective_size_says_why_and_the_json_holds_null() -> None:
    rows = {"unit": list(range(8)), **{r: [1, 0, 1, 1, 0, 0, 1, 0]
                                       for r in ("j1", "j2", "h1", "h2", "h3")}}
    ann = accord.Annotations.from_wide(rows, unit="unit", raters=list(rows)[1:])
    with pytest.warns(accord.DegenerateDataWarning, match="effective_judges is undefined"):
        p = accord.judge_panel(ann, judges=["j1", "j2"], test="wilcoxon")
    rep = accord.report(None, judge_lab=p)
    assert rep.job is not None and "an undefined number of independent judges" in rep.job.verdict
    part = rep.judge_lab.parts[0]  # type: ignore[union-attr]
    k_eff = part.figure("effective_judges")
    assert k_eff is not None and not k_eff.defined
    assert k_eff.undefined_reason == p.effective_judges.undefined_reason
    assert f"it is undefined here: {p.effective_judges.undefined_reason}." in part.notes[1]
    doc = json.loads(rep.to_json())
    jsonschema.validate(doc, schema())
    got = {f["key"]: f for f in doc["judge_lab"]["parts"]["panel"]["figures"]}
    assert got["effective_judges"]["estimate"] is None
    assert got["effective_judges"]["confidence_interval"] is None
    assert got["error_correlation"]["estimate"] is None


def test_a_panel_of_scores_beside_other_lab_results() -> None:
    from tests.test_report_judge_lab import calibration

    rows = {"unit": list(range(40))}
    for name, shift in (("j1", 0), ("j2", 1), ("j3", 2), ("h1", 0), ("h2", 1), ("h3", 0)):
        rows[name] = [float((u * 7 + shift * (u % 3)) % 5) for u in range(40)]
    ann = accord.Annotations.from_wide(rows, unit="unit", raters=list(rows)[1:])
    p = accord.judge_panel(ann, judges=["j1", "j2", "j3"], combine="mean", test="wilcoxon")
    cal = calibration()
    rep = accord.report(None, judge_lab=[cal, p], confidence_level=0.9)
    lab = rep.judge_lab
    assert lab is not None and [x.kind for x in lab.parts] == ["calibration", "panel"]
    assert rep.job is not None and rep.job.kind == "judge_calibration"
    part = lab.part("panel")
    assert part is not None and part.sentence == p.sentence(0.9)
    k_eff = part.figure("effective_judges")
    assert k_eff is not None
    ci = interval(p.effective_judges, 0.9)
    assert (k_eff.ci_low, k_eff.ci_high, k_eff.confidence_level) == (ci.low, ci.high, 0.9)
    assert "the judge's score minus the humans' mean" in " ".join(part.notes)
    jsonschema.validate(json.loads(rep.to_json()), schema())


def test_judge_panel_report_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "jury.json"
    code, stdout, err = run_cli("judge", "panel", str(JURY), "--judges", *JUDGES, "--raters",
                                *JUDGES, *HUMANS, "--report", str(out))
    assert code == 0, err
    assert "report written to" in err
    p = accord.judge_panel(_jury_data(), judges=JUDGES)
    assert p.sentence() in " ".join(stdout.split())
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema())
    assert doc["job"]["kind"] == "judge_panel" and doc["job"]["verdict"] == p.sentence()
    figures = doc["judge_lab"]["parts"]["panel"]["figures"]
    k_eff = next(f for f in figures if f["key"] == "effective_judges")
    assert k_eff["estimate"] == p.effective_judges.estimate
    assert "examples/jury.csv: 900 read, 900 used" in " ".join(doc["notes"])
    page = tmp_path / "jury.html"
    code, _, err = run_cli("judge", "panel", str(JURY), "--judges", *JUDGES, "--raters",
                           *JUDGES, *HUMANS, "--confidence-level", "0.9", "--report", str(page))
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert 'id="lab-panel"' in text and "<h1>Panel of judges</h1>" in text
    assert "90% CI" in text


def test_judge_panel_report_errors_are_one_sentence(tmp_path: Path) -> None:
    code, _, err = run_cli("judge", "panel", str(JURY), "--judges", *JUDGES, "--report",
                           str(tmp_path / "jury.txt"))
    assert code == 2 and "name a .html, .md or .json file" in err and "Traceback" not in err
    code, _, err = run_cli("judge", "panel", str(JURY), "--judges", "judge_a", "nobody",
                           "--report", str(tmp_path / "jury.md"))
    assert code == 1 and "not among the raters" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "jury.md").exists()


# ------------------------------------------------------------------ the consistency target
def _runs() -> list[list[float]]:
    return [[4, 4, 5], [2, 3, 2], [5, 5, 5], [1, 2, 1], [3, 3, 4], [2, 2, 2], [4, 5, 4],
            [1, 1, 2]]


def test_the_consistency_result_remembers_its_target() -> None:
    c = accord.judge_consistency(_runs(), target=0.85)
    assert c.target == 0.85 and c.to_dict()["target"] == 0.85
    assert c.runs_needed().to_dict() == c.runs_needed(0.85).to_dict()
    assert c.runs_needed(0.9).details["target"] == 0.9  # the public contract still holds
    need = c.runs_needed(0.85)
    assert c.sentence() == c.sentence(target=0.85)
    assert f"{need.details['runs']} run(s) reach 0.85;" in c.sentence()
    assert accord.judge_consistency(_runs()).target == 0.9


@pytest.mark.parametrize("target", [0.0, 1.0, 1.5, "0.9", True])
def test_a_bad_target_is_one_sentence(target: Any) -> None:
    with pytest.raises(InvalidParameterError,
                       match=r"^The 'target' parameter of judge_consistency must be a "
                             r"reliability in \(0, 1\)\. Got .* instead\.$"):
        accord.judge_consistency(_runs(), target=target)


def test_the_consistency_report_uses_the_target() -> None:
    c = accord.judge_consistency(_runs(), target=0.85)
    rep = accord.report(None, judge_lab=c)
    part = rep.judge_lab.part("consistency") if rep.judge_lab else None
    assert part is not None and rep.job is not None
    assert part.sentence == c.sentence() and rep.job.verdict == c.sentence()
    needs = [f for f in part.figures if f.key == "runs_needed"]
    assert [dict(f.extra)["target"] for f in needs] == [0.8, 0.85, 0.9, 0.95]
    for f in needs:
        res = c.runs_needed(dict(f.extra)["target"])
        ci = interval(res, 0.95)
        assert (f.estimate, f.ci_low, f.ci_high, f.n) == (res.estimate, ci.low, ci.high,
                                                          res.n_units)
        assert dict(f.extra)["runs"] == res.details["runs"]
    assert [f.label for f in needs if "(the target)" in f.label] == [
        "runs needed for reliability 0.85 (the target)"]
    same = accord.report(None, judge_lab=accord.judge_consistency(_runs(), target=0.95))
    assert same.judge_lab is not None
    assert [dict(f.extra)["target"] for f in same.judge_lab.parts[0].figures
            if f.key == "runs_needed"] == [0.8, 0.9, 0.95]


def test_judge_consistency_target_reaches_its_report(tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    code, stdout, err = run_cli("judge", "consistency", str(RUNS), "--target", "0.85",
                                "--report", str(out))
    assert code == 0, err
    ann = accord.read(RUNS)
    runs = ann.numeric_values()[ann.wide()]
    c = accord.judge_consistency(runs, target=0.85)
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema())
    assert doc["job"]["verdict"] == c.sentence() and "reach 0.85;" in c.sentence()
    assert c.sentence() in " ".join(stdout.split())
    needs = [f for f in doc["judge_lab"]["parts"]["consistency"]["figures"]
             if f["key"] == "runs_needed"]
    assert [f["target"] for f in needs] == [0.8, 0.85, 0.9, 0.95]
    assert needs[1]["estimate"] == c.runs_needed(0.85).estimate
    # --level (the scale of the ratings read) and --confidence-level are two options
    code, _, err = run_cli("judge", "consistency", str(RUNS), "--level", "interval",
                           "--confidence-level", "0.9", "--target", "0.85", "--report", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["job"]["verdict"] == c.sentence(0.9) and "(90% CI" in c.sentence(0.9)
    code, _, err = run_cli("judge", "consistency", str(RUNS), "--target", "1.5")
    assert code == 2 and "'--target': 1.5 is not in the range 0<x<1" in err
    assert "Traceback" not in err
