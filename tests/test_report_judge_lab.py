"""The judge lab in the report: each section's figures are the library call's figures.

The library figures are checked against their peers in their own tests (statsmodels'
Wilson and pair-clustered OLS for the shares, ``Logit`` for the length slope, choix for
the Bradley-Terry strengths, scikit-learn's Brier score, pingouin's ICC, ppi_python's
PPI mean: tests/test_judge_*.py); here every figure of a section, its interval and its
count must equal the library result it was built from, at full precision, and every
rendering must open with the verdict.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from statistics import NormalDist
from typing import Any

import jsonschema
import numpy as np
import pytest
from rich.console import Console

import accord
from accord.errors import InvalidParameterError
from accord.judge.pairs_io import is_pairwise, read_pairwise
from accord.judge.sentences import interval
from accord.report.json import schema
from accord.report.markdown import escape
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SLICE = EXAMPLES / "alpaca_eval_slice.json"
JUDGE = "alpaca_eval_gpt4"


def _slice() -> tuple[Any, Any]:
    table = read_pairwise(SLICE)
    prefs = accord.preferences(table.columns, judge=JUDGE, lengths=("len_first", "len_second"),
                               generators=("first", "second"), family=["gpt4"])
    return prefs, accord.bradley_terry(table.comparisons())


def slice_report() -> accord.Report:
    prefs, bt = _slice()
    return accord.report(prefs, judge_lab=[bt])


def both_orders(humans: int = 0, seed: int = 4, lean: str | None = "A") -> Any:
    """A judge shown 60 pairs in both orders that gives the verdict ``lean`` (A: the
    first-shown answer) half the time and else picks the better answer (``lean=None``:
    always the better one); ``humans`` raters with no position bias."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {k: [] for k in ("unit", "rater", "first", "second",
                                                  "verdict", "len_first", "len_second")}
    for u in range(60):
        a, b = f"a{u}", f"b{u}"
        la, lb = (int(x) for x in rng.integers(50, 900, 2))
        better = rng.random() < 0.5  # a is better
        for rater in ["judge", *(f"h{i}" for i in range(humans))]:
            for first, second, lf, ls in ((a, b, la, lb), (b, a, lb, la)):
                if rater == "judge" and lean is not None and rng.random() < 0.5:
                    verdict = lean
                else:
                    verdict = "A" if (first == a) == better else "B"
                rows["unit"].append(u)
                rows["rater"].append(rater)
                rows["first"].append(first)
                rows["second"].append(second)
                rows["verdict"].append(verdict)
                rows["len_first"].append(lf)
                rows["len_second"].append(ls)
    return accord.preferences(rows, judge="judge", lengths=("len_first", "len_second"))


def calibration() -> Any:
    rng = np.random.default_rng(7)
    scores = rng.random(300)
    labels = (rng.random(300) < scores ** 1.5).astype(int)
    return accord.judge_calibration(scores, labels, n_bins=10, rng=1)


def consistency() -> Any:
    return accord.judge_consistency([[4, 4, 5], [2, 3, 2], [5, 5, 5], [1, 2, 1], [3, 3, 4],
                                     [2, 2, 2], [4, 5, 4], [1, 1, 2]], threshold=3)


def ppi() -> Any:
    rng = np.random.default_rng(11)
    truth = rng.random(600) < 0.4
    judge = np.where(rng.random(600) < 0.85, truth, ~truth).astype(int)
    return accord.ppi_mean(judge[100:], judge[:100], truth[:100].astype(int))


def _same(fig: Any, res: Any, level: float = 0.95) -> None:
    """A section's figure is the library result: estimate, interval and count."""
    assert fig.estimate == res.estimate
    ci = interval(res, level)
    assert (fig.ci_low, fig.ci_high) == (ci.low, ci.high)
    assert fig.n == res.n_units


def _console(rep: accord.Report) -> str:
    console = Console(width=4000, record=True, color_system=None, file=io.StringIO())
    console.print(rep)
    return console.export_text()


def test_the_slice_s_sections_hold_the_library_figures() -> None:
    prefs, bt = _slice()
    rep = accord.report(prefs, judge_lab=[bt])
    lab = rep.judge_lab
    assert lab is not None and lab.judge == JUDGE
    assert [p.kind for p in lab.parts] == ["position", "length", "self_preference", "ranking"]
    length = lab.part("length")
    assert length is not None
    _same(length.figure("length_bias"), prefs.length_bias)
    _same(length.figure("length_slope"), prefs.length_slope)
    own = lab.part("self_preference")
    assert own is not None
    _same(own.figure("self_preference"), prefs.self_preference)
    ranking = lab.part("ranking")
    assert ranking is not None
    strengths = [f for f in ranking.figures if f.key == "strength"]
    assert [f.who for f in strengths] == [str(i) for i in bt.ranking()]
    elo = bt.elo()
    for f in strengths:
        _same(f, bt.strength[f.who])
        assert dict(f.extra)["elo"] == elo[f.who].estimate
    position = lab.part("position")
    assert position is not None and not position.figures[0].defined  # one order only
    assert position.figures[0].undefined_reason == f"{JUDGE!r} saw no pair in both orders"


def test_the_slice_s_verdict_leads_with_length_and_says_position_is_unmeasured() -> None:
    rep = slice_report()
    job = rep.job
    assert job is not None and job.kind == "pairwise_judge" and rep.title == "Pairwise judge"
    assert job.verdict == (
        "alpaca_eval_gpt4 prefers the longer output in 88% of decisive verdicts (95% CI 83% "
        "to 91%); it picks its own family's output in 98% of 50 pairs against another family "
        "(95% CI 90% to 100%); its position bias cannot be measured: no pair was shown in "
        "both orders (show each pair both ways to measure it).")
    assert (job.figure_name, job.figure) == ("P(prefers the longer output)", "0.876")
    assert rep.coefficients == () and rep.judge is None


def test_position_bias_in_both_orders_opens_the_verdict_with_its_interval() -> None:
    prefs = both_orders()
    rep = accord.report(prefs)
    position = rep.judge_lab.part("position") if rep.judge_lab else None
    assert position is not None
    res = prefs.position["judge"]
    fig = position.figure("position_first_share", "judge")
    assert fig is not None
    ci = res.confidence_interval(0.95)  # the pair-resampled (linearised) interval
    assert (fig.estimate, fig.ci_low, fig.ci_high, fig.n) == (res.estimate, ci.low, ci.high,
                                                             res.n_units)
    assert dict(fig.extra)["pairs_both_orders"] == res.details["pairs_both_orders"] == 60
    assert rep.job is not None
    share = f"{100 * res.estimate:.0f}%"
    assert rep.job.verdict.startswith(
        f"judge prefers the first-shown output in {share} of decisive verdicts on the 60 "
        f"pairs seen in both orders (95% CI {100 * ci.low:.0f}% to {100 * ci.high:.0f}%): "
        "its verdicts depend on position; it ")
    assert rep.job.figure == f"{res.estimate:.3f}"


@pytest.mark.parametrize("lean,reading", [
    (None, "picks the first-shown output in {share} of decisive verdicts on the 60 pairs seen "
           "in both orders ({ci}): no clear position preference; it "),
    ("B", "picks the first-shown output in {share} of decisive verdicts on the 60 pairs seen "
          "in both orders ({ci}): it prefers the second-shown output, so its verdicts depend "
          "on position; it ")])
def test_the_verdict_reads_the_interval_of_the_position_share(lean: str | None,
                                                              reading: str) -> None:
    prefs = both_orders(lean=lean)
    res = prefs.position["judge"]
    ci = res.confidence_interval(0.95)
    rep = accord.report(prefs)
    assert rep.job is not None
    text = reading.format(share=f"{100 * res.estimate:.0f}%",
                          ci=f"95% CI {100 * ci.low:.0f}% to {100 * ci.high:.0f}%")
    assert rep.job.verdict.startswith(f"judge {text}"), rep.job.verdict


def test_with_humans_the_judge_section_and_the_lab_sections_both_appear() -> None:
    prefs = both_orders(humans=3)
    rep = accord.report(prefs, seed=1)
    assert rep.job is not None and rep.job.kind == "judge"  # the alt-test decides
    assert rep.judge is not None and rep.judge_lab is not None
    position = rep.judge_lab.part("position")
    assert position is not None
    assert [f.who for f in position.figures] == ["judge", "h0", "h1", "h2"]
    for f in position.figures:
        _same_position(f, prefs.position[f.who])
    length = rep.judge_lab.part("length")
    assert length is not None
    humans = length.figure("length_bias_humans")
    assert humans is not None and prefs.length_bias_humans is not None
    _same(humans, prefs.length_bias_humans)
    doc = json.loads(rep.to_json())
    jsonschema.validate(doc, schema())
    got = {f["who"]: f for f in doc["judge_lab"]["parts"]["position"]["figures"]}
    assert got["h1"]["estimate"] == prefs.position["h1"].estimate
    page = rep.to_html()
    assert page.index('id="judge"') < page.index('id="lab-position"')


def _same_position(fig: Any, res: Any) -> None:
    ci = res.confidence_interval(0.95)
    assert (fig.estimate, fig.ci_low, fig.ci_high) == (res.estimate, ci.low, ci.high)


def test_calibration_consistency_and_ppi_sections_hold_the_library_figures() -> None:
    cal, con, est = calibration(), consistency(), ppi()
    rep = accord.report(None, judge_lab=[cal, con, est])
    lab = rep.judge_lab
    assert lab is not None and rep.job is not None and rep.job.kind == "judge_calibration"
    c = lab.part("calibration")
    assert c is not None
    _same(c.figure("brier"), cal.brier)
    _same(c.figure("ece"), cal.ece)
    assert cal.recalibration is not None
    _same(c.figure("ece_after"), cal.recalibration.ece_after)
    assert [(b.low, b.high, b.n, b.mean_score, b.observed_rate) for b in c.bins] == [
        (b.low, b.high, b.n, b.mean_score, b.observed_rate) for b in cal.bins]
    k = lab.part("consistency")
    assert k is not None
    for key in ("flip_rate", "threshold_flip_rate", "within_item_variance", "icc", "icc_k"):
        _same(k.figure(key), getattr(con, key))
    needs = [f for f in k.figures if f.key == "runs_needed"]
    assert [dict(f.extra)["target"] for f in needs] == [0.8, 0.9, 0.95]
    for f in needs:
        _same(f, con.runs_needed(dict(f.extra)["target"]))
    p = lab.part("ppi")
    assert p is not None
    _same(p.figure("ppi_mean"), est)
    humans = p.figure("humans_only")
    z = NormalDist().inv_cdf(0.975)
    se = est.details["classical_se"]
    assert humans is not None and humans.estimate == est.observed
    assert humans.ci_low == pytest.approx(est.observed - z * se, abs=1e-12)
    judge = p.figure("judge_only")
    n = est.details["n_unlabelled"]
    assert judge is not None and judge.n == n
    half = z * math.sqrt(est.expected * (1 - est.expected) / n)
    assert judge.ci_high == pytest.approx(est.expected + half, abs=1e-12)


@pytest.mark.parametrize("build", [slice_report,
                                   lambda: accord.report(None, judge_lab=calibration()),
                                   lambda: accord.report(None, judge_lab=consistency()),
                                   lambda: accord.report(None, judge_lab=ppi())])
def test_every_rendering_opens_with_the_verdict_and_the_json_validates(build: Any) -> None:
    rep = build()
    job = rep.job
    assert job is not None
    md = rep.to_markdown()
    assert md.splitlines()[0] == f"# {rep.title}"
    assert escape(job.verdict) in md.split("\n## ", 1)[0]
    lines = _console(rep).splitlines()
    assert lines[0] == rep.title and job.verdict in "\n".join(lines[:lines.index("")])
    page = rep.to_html()
    header = page[page.index("<header>"):page.index("</header>")]
    assert 'id="verdict"' in header
    doc = json.loads(rep.to_json())
    jsonschema.validate(doc, schema())
    assert doc["job"]["kind"] == job.kind
    for part in doc["judge_lab"]["parts"].values():
        for fig in part["figures"]:
            assert {"estimate", "confidence_interval", "n"} <= set(fig)


def test_the_charts_are_inline_svg() -> None:
    page = slice_report().to_html()
    assert 'data-plot="strengths"' in page and "<script" not in page
    cal = accord.report(None, judge_lab=calibration()).to_html()
    assert 'data-plot="reliability"' in cal and "perfect calibration" in cal


def test_judge_lab_takes_only_lab_results() -> None:
    with pytest.raises(InvalidParameterError, match="judge_lab"):
        accord.report(None, judge_lab=["not a result"])
    with pytest.raises(InvalidParameterError, match="judge-lab results"):
        accord.report(None)


def test_pairwise_files_are_recognised_and_ratings_files_are_not() -> None:
    assert is_pairwise(SLICE)
    assert not is_pairwise(EXAMPLES / "judge.csv")
    assert not is_pairwise(EXAMPLES / "export.json")


def test_cli_report_of_a_preference_file(tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    code, _, err = run_cli("report", str(SLICE), "--family", "gpt4", "-q", "-o", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema())
    prefs, bt = _slice()
    assert doc["job"]["kind"] == "pairwise_judge"
    figs = {f["key"]: f for f in doc["judge_lab"]["parts"]["length"]["figures"]}
    assert figs["length_bias"]["estimate"] == prefs.length_bias.estimate
    assert "read 300 judged pair(s)." in doc["notes"]
    code, stdout, err = run_cli("report", str(SLICE), "--json")
    assert code == 0, err
    assert json.loads(stdout)["judge_lab"]["parts"]["ranking"]["figures"][0]["who"] == str(
        bt.ranking()[0])


def test_cli_errors_are_one_sentence(tmp_path: Path) -> None:
    code, _, err = run_cli("report", str(SLICE), "--study", str(EXAMPLES / "study.toml"))
    assert code == 2 and "pairwise-preference file, so --study does not apply" in err
    assert "Traceback" not in err
    code, _, err = run_cli("report", str(EXAMPLES / "pilot.csv"), "--family", "gpt4")
    assert code == 2 and "DATA is not one" in err
    bad = tmp_path / "prefs.json"
    bad.write_text(json.dumps([{"instruction": "q", "output_1": "a", "output_2": "b",
                                "generator_1": "m1", "generator_2": "m2",
                                "preference": "maybe"}]), encoding="utf-8")
    code, _, err = run_cli("report", str(bad), "-q")
    assert code == 1 and "preference 'maybe'" in err and "Traceback" not in err
    code, _, err = run_cli("report", str(SLICE), "--judge", "someone", "-q")
    assert code == 1 and "not among the raters" in err


def test_cli_judge_commands_write_their_report(tmp_path: Path) -> None:
    scores = str(EXAMPLES / "judge_scores.csv")
    out = tmp_path / "cal.md"
    code, _, err = run_cli("judge", "calibration", scores, "--score", "judge_prob", "--label",
                           "human", "--seed", "1", "--report", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Judge calibration\n\nBrier score ")
    out = tmp_path / "ppi.json"
    code, _, err = run_cli("judge", "ppi", scores, "--judge", "judge_pass", "--human", "human",
                           "--report", str(out))
    assert code == 0, err
    jsonschema.validate(json.loads(out.read_text(encoding="utf-8")), schema())
    out = tmp_path / "runs.html"
    code, _, err = run_cli("judge", "consistency", str(EXAMPLES / "judge_runs.csv"),
                           "--report", str(out))
    assert code == 0, err
    assert 'id="lab-consistency"' in out.read_text(encoding="utf-8")
    code, _, err = run_cli("judge", "rank", str(SLICE), "--report", str(tmp_path / "r.txt"))
    assert code == 2 and "name a .html, .md or .json file" in err


def _mixed_file(path: Path) -> Path:
    """40 pairs of the slice shown both ways to the judge and to three humans who mostly
    agree with it; the judge's verdicts on the swapped order are drawn at random."""
    rng = np.random.default_rng(5)
    records = json.loads(SLICE.read_text(encoding="utf-8"))[:40]
    lines = []
    for rec in records:
        swapped = dict(rec, output_1=rec["output_2"], output_2=rec["output_1"],
                       generator_1=rec["generator_2"], generator_2=rec["generator_1"],
                       preference=int(rng.integers(1, 3)))
        for shown in (rec, swapped):
            lines.append(shown)
            for human in ("h1", "h2", "h3"):
                flip = rng.random() < 0.2 and shown["preference"] in (1, 2)
                lines.append(dict(shown, annotator=human,
                                  preference=3 - shown["preference"] if flip
                                  else shown["preference"]))
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n", encoding="utf-8")
    return path


def test_cli_report_of_a_judge_and_humans(tmp_path: Path) -> None:
    data = _mixed_file(tmp_path / "mixed.jsonl")
    code, _, err = run_cli("report", str(data), "-q")
    assert code == 1 and "name the judge with --judge" in err
    out = tmp_path / "mixed.json"
    code, _, err = run_cli("report", str(data), "--judge", JUDGE, "--seed", "1", "-q", "-o",
                           str(out))
    assert code == 0, err
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema())
    assert doc["job"]["kind"] == "judge" and doc["judge"]["judge"] == JUDGE
    table = read_pairwise(data)
    prefs = accord.preferences(table.columns, judge=JUDGE, lengths=("len_first", "len_second"))
    got = {f["who"]: f for f in doc["judge_lab"]["parts"]["position"]["figures"]}
    assert set(got) == {JUDGE, "h1", "h2", "h3"}
    for rater, fig in got.items():
        res = prefs.position[rater]
        ci = res.confidence_interval(0.95)
        assert fig["estimate"] == res.estimate
        assert fig["confidence_interval"]["low"] == ci.low
        assert fig["pairs_both_orders"] == 40
    c = table.columns  # the ranking: the judge's verdicts only
    mine = [(a, b, w) for a, b, w, r in zip(c["first"], c["second"], c["winner"], c["rater"])
            if w is not None and r == JUDGE]
    bt = accord.bradley_terry(mine)
    ranking = {f["who"]: f for f in doc["judge_lab"]["parts"]["ranking"]["figures"]}
    for item, res in bt.strength.items():
        assert ranking[str(item)]["estimate"] == res.estimate
    assert f"The ranking uses the judge's {len(mine)} verdicts" in " ".join(doc["notes"])


def test_span_data_refuse_judge_lab_results_rather_than_drop_them() -> None:
    from accord.errors import DataError

    ann = accord.read(EXAMPLES / "ner_spans.csv", unit="doc", rater="annotator",
                      value="label", start="start", end="end")
    with pytest.raises(DataError, match="the span report has no judge-lab sections"):
        accord.report(ann, judge_lab=calibration())


def test_judge_rank_bootstrap_intervals_reach_its_report(tmp_path: Path) -> None:
    # `judge rank --bootstrap N --report` shows the bootstrap intervals the command prints,
    # not the Fisher-information ones
    out = tmp_path / "rank.json"
    code, _, err = run_cli("judge", "rank", str(SLICE), "--bootstrap", "60", "--seed", "3",
                           "--report", str(out))
    assert code == 0, err
    figures = json.loads(out.read_text(encoding="utf-8"))["judge_lab"]["parts"]["ranking"][
        "figures"]
    bt = accord.bradley_terry(read_pairwise(SLICE).comparisons())
    for f in figures:
        ci = bt.strength[f["who"]].confidence_interval(
            method=accord.Bootstrap(n_resamples=60, rng=3))
        lib = {k: v for k, v in ci.to_dict().items() if k != "n_excluded"}  # in the sentence
        assert f["confidence_interval"] == lib
        assert f["confidence_interval"]["method"] == "bootstrap-percentile"
