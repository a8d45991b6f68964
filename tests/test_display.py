"""Every result shows itself: a card in a notebook (HTML), Markdown, a console text, one
IPython line; a table result also becomes a pandas or polars frame."""

from __future__ import annotations

import csv
import inspect
import re
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

import pytest
from IPython.lib.pretty import pretty

import accord
from accord.coefficients.pairwise import PairwiseResult
from accord.errors import InvalidParameterError
from accord.history.drift import DriftChart
from accord.history.store import Run
from accord.inference.display import Displayed, Tabular
from accord.judge.agreement import JudgeAgreement
from accord.judge.alt_test import AltTestResult
from accord.judge.biases import Biases
from accord.judge.bradley_terry import BradleyTerryResult
from accord.judge.calibration import JudgeCalibration
from accord.judge.consistency import JudgeConsistency
from accord.judge.jury import JudgePanel
from accord.judge.pairs_io import read_pairwise
from accord.judge.preferences import PreferenceResult

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: Public classes that are not results: inputs, sufficient statistics, options, settings.
NOT_RESULTS = {"Annotations", "Audit", "Bootstrap", "CoincidenceMatrix", "ContingencyTable",
               "Groups", "RaterCounts", "RatingMatrix", "Scale", "Study"}

#: Results returned by public functions whose classes are not in ``accord.__all__``.
MORE_RESULTS = (PairwiseResult, JudgeAgreement, AltTestResult, Biases, BradleyTerryResult,
                JudgeCalibration, JudgeConsistency, JudgePanel, PreferenceResult, DriftChart,
                Run)

A = ["spam", "ok", "ok", "<b>x</b>", "ok", "spam", "ok", "ok", "spam", "ok"]
B = ["spam", "ok", "spam", "<b>x</b>", "ok", "spam", "ok", "ok", "ok", "ok"]


def _public_results() -> list[type]:
    out = []
    for name in accord.__all__:
        obj = getattr(accord, name)
        if inspect.isclass(obj) and not issubclass(obj, (BaseException, Warning)) \
                and name not in NOT_RESULTS:
            out.append(obj)
    return out


def test_every_public_result_class_displays_itself() -> None:
    results = [*_public_results(), *MORE_RESULTS]
    assert len(results) >= 30
    lacking = [c.__name__ for c in results if not issubclass(c, Displayed)
               or not all(callable(getattr(c, m, None)) for m in
                          ("_repr_html_", "_repr_markdown_", "_repr_pretty_"))
               or c.__str__ is object.__str__]
    assert not lacking, f"no notebook display: {lacking}"
    # IPython prefers a class's own __repr__ (dataclasses have one) to an inherited
    # _repr_pretty_: each class holds its own
    assert all("_repr_pretty_" in vars(c) for c in results)


def test_the_not_results_are_public_classes() -> None:
    public = {n for n in accord.__all__ if inspect.isclass(getattr(accord, n))}
    assert public >= NOT_RESULTS


def _kappa() -> accord.AgreementResult:
    return accord.cohen_kappa(A, B)


def _crowd() -> accord.Annotations:
    return accord.read(EXAMPLES / "crowd.csv", unit="image", rater="worker", value="label")


def _pilot() -> accord.Annotations:
    return accord.read(EXAMPLES / "pilot.csv")


def _runs() -> list[list[int]]:
    rows = list(csv.reader((EXAMPLES / "judge_runs.csv").open()))[1:]
    return [[int(x) for x in row[1:]] for row in rows]


def _scores() -> tuple[list[float], list[int]]:
    rows = [r for r in csv.DictReader((EXAMPLES / "judge_scores.csv").open()) if r["human"]]
    return [float(r["judge_prob"]) for r in rows], [int(r["human"]) for r in rows]


MAKERS: dict[str, Callable[[], Any]] = {
    "AgreementResult": _kappa,
    "ConfidenceInterval": lambda: _kappa().confidence_interval(0.9),
    "Interpretation": lambda: accord.interpret(_kappa()),
    "BenchmarkResult": lambda: accord.benchmark(_kappa()),
    "Comparison": lambda: accord.compare(_kappa(), accord.scott_pi(A, B)),
    "HomogeneityTest": lambda: accord.homogeneity([_kappa(), accord.cohen_kappa(A, A[::-1])]),
    "MarginalTest": lambda: accord.mcnemar_test(["a", "b", "a", "b", "a"],
                                                ["b", "b", "a", "a", "b"]),
    "PairwiseResult": lambda: accord.pairwise(_pilot()),
    "Evaluation": lambda: accord.evaluate(A, B),
    "Annotators": lambda: accord.annotators(_crowd(), n_resamples=20),
    "AnnotatorQuality": lambda: accord.annotators(_crowd(), n_resamples=20).rows[0],
    "Consensus": lambda: accord.consensus(_crowd()),
    "ScoreConsensus": lambda: accord.score_consensus(accord.read(EXAMPLES / "scores.csv")),
    "MultilabelAgreement": lambda: accord.multilabel_agreement(
        [[{"a", "b"}, {"a"}], [{"b"}, {"b"}], [{"a"}, {"a", "b"}], [set(), {"a"}],
         [{"a"}, {"a"}], [{"b"}, set()]]),
    "MultilabelEvaluation": lambda: accord.evaluate_multilabel(
        [["a", "b"], ["a"], ["b"], []], [["a"], ["a"], ["a", "b"], []]),
    "GroupedResult": lambda: accord.groups(_pilot(), by=lambda u: str(u)[-1] in "02468")
    .apply(accord.fleiss_kappa),
    "Report": lambda: accord.report(_pilot()),
    "BoxConsensus": lambda: accord.box_consensus(EXAMPLES / "boxes.csv"),
    "PolygonConsensus": lambda: accord.polygon_consensus(EXAMPLES / "polygons.csv"),
    "KeypointConsensus": lambda: accord.keypoint_consensus(
        EXAMPLES / "keypoints.csv", names=["wrist", "tip"], sigmas={"wrist": 0.1, "tip": 0.1}),
    "JudgeConsistency": lambda: accord.judge_consistency(_runs(), threshold=3),
    "JudgeCalibration": lambda: accord.judge_calibration(*_scores(), rng=1),
    "PreferenceResult": lambda: accord.preferences(
        read_pairwise(EXAMPLES / "alpaca_eval_slice.json").columns, judge="alpaca_eval_gpt4",
        lengths=("len_first", "len_second"), generators=("first", "second"), family=["gpt4"]),
    "BradleyTerryResult": lambda: accord.bradley_terry(
        read_pairwise(EXAMPLES / "alpaca_eval_slice.json").comparisons()),
    "JudgePanel": lambda: accord.judge_panel(accord.read(EXAMPLES / "jury.csv", unit="item"),
                                             judges=["judge_a", "judge_b", "judge_c"]),
    "AltTestResult": lambda: accord.alt_test(
        accord.read(EXAMPLES / "judge.csv", raters=["gpt4", "ann_a", "ann_b", "ann_c"],
                    missing=["ERROR"], kinds={"gpt4": "llm"}), judge="gpt4", epsilon=0.2),
    "JudgeAgreement": lambda: accord.judge_agreement(
        accord.read(EXAMPLES / "judge.csv", missing=["ERROR"]).select(
            raters=["ann_a", "ann_b", "ann_c", "gpt4"]), judge="gpt4"),
}


@pytest.fixture(scope="module")
def made() -> dict[str, Any]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the examples' small groups warn; not the point here
        return {name: make() for name, make in MAKERS.items()}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_each_result_renders_html_markdown_text_and_one_line(made: dict[str, Any],
                                                            name: str) -> None:
    obj = made[name]
    html = obj._repr_html_()
    assert "<script" not in html.lower() and "<!doctype" not in html.lower()
    assert obj._repr_markdown_().strip()
    assert str(obj).strip() and str(obj) != repr(obj)
    line = pretty(obj)
    assert "\n" not in line and len(line) < 200, line


def test_a_kappa_card_carries_its_figure_interval_reading_and_n() -> None:
    res = _kappa()
    ci = res.confidence_interval(0.95)
    html = res._repr_html_()
    assert f"{res.estimate:.4f}" in html
    assert f"{ci.low:.4f} to {ci.high:.4f}" in html
    assert "Landis &amp; Koch" in html and 'class="caveat"' in html
    assert "n_units 10" in html
    assert pretty(res) == f"cohen_kappa, estimate = {res.estimate:.4f}, 95% CI " \
                          f"{ci.low:.4f} to {ci.high:.4f} (asymptotic)"
    md = res._repr_markdown_()
    assert f"**{res.estimate:.4f}**" in md and "> caveat:" in md


def test_a_card_takes_its_colours_from_the_notebook_theme() -> None:
    html = _kappa()._repr_html_()
    css = html.split("<style>", 1)[1].split("</style>", 1)[0]
    assert "color: inherit" in css and "background: transparent" in css
    # no fixed text or page colour that would vanish on a dark (or light) theme
    assert not re.search(r"(?<!-)color:\s*#|background(-color)?:\s*#", css)
    assert all(rule.strip().startswith(".accord-card") for rule in css.split("}") if rule.strip())


def test_a_card_escapes_labels_from_the_data() -> None:
    html = accord.evaluate(A, B)._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in accord.evaluate(A, B)._repr_markdown_()


def test_a_percent_agreement_card_says_it_is_not_graded() -> None:
    html = accord.percent_agreement(A, B)._repr_html_()
    assert "not graded" in html and "Landis" not in html


def test_an_undefined_estimate_shows_its_reason() -> None:
    with pytest.warns(accord.DegenerateDataWarning):
        res = accord.cohen_kappa(["a", "a", "a"], ["a", "a", "a"])
    assert "undefined" in pretty(res)
    assert res.undefined_reason is not None
    assert accord.interpret.__name__  # the readings are registered
    assert res.undefined_reason.split()[0] in res._repr_html_()


def test_the_report_shows_inline_with_its_css_scoped(made: dict[str, Any]) -> None:
    rep = made["Report"]
    html = rep._repr_html_()
    assert html.startswith('<div class="accord-report">')
    assert "<body" not in html and "<html" not in html and "<footer" not in html
    assert escape(rep.headline) in html
    css = html.split("<style>", 1)[1].split("</style>", 1)[0]
    selectors = re.findall(r"(?:^|})\s*([^{}@]+)\{", css)
    assert selectors
    for group in selectors:
        for sel in group.split(","):
            assert sel.strip().startswith(".accord-report"), sel
    assert "--fg: currentColor" in css
    assert rep._repr_markdown_() == rep.to_markdown()
    assert "\n" not in pretty(rep)


@pytest.mark.parametrize("name,columns", [
    ("Evaluation", {"name", "precision", "precision_ci_low", "precision_ci_high", "support"}),
    ("PairwiseResult", {"raters", "estimate", "se", "n_units"}),
    ("BenchmarkResult", {"label", "membership", "cumulative"}),
    ("MultilabelAgreement", {"estimate"}),
    ("Consensus", {"unit", "label", "posterior"}),
    ("BoxConsensus", {"image", "label", "x", "y", "w", "h", "support", "spread"}),
    ("PolygonConsensus", {"image", "label", "polygon", "wkt", "area", "support", "spread"}),
    ("KeypointConsensus", {"image", "label", "keypoints", "area", "support", "spread"}),
    ("ScoreConsensus", {"unit", "score", "ci_low", "ci_high"}),
    ("Annotators", {"annotator", "accuracy", "flag"}),
    ("GroupedResult", {"estimate"}),
    ("BradleyTerryResult", {"name", "estimate", "se"}),
    ("AltTestResult", {"human", "advantage_probability", "pvalue"}),
])
def test_table_results_become_pandas_and_polars_frames(made: dict[str, Any], name: str,
                                                       columns: set[str]) -> None:
    obj = made[name]
    assert isinstance(obj, Tabular)
    pdf = obj.to_frame()
    plf = obj.to_frame(backend="polars")
    assert type(pdf).__module__.startswith("pandas")
    assert type(plf).__module__.startswith("polars")
    assert columns <= set(pdf.columns), list(pdf.columns)
    assert list(pdf.columns) == list(plf.columns)
    assert len(pdf) == len(plf) > 0


def test_a_card_table_writes_counts_whole_and_rates_with_four_decimals(
        made: dict[str, Any]) -> None:
    card = made["MultilabelEvaluation"]._card()
    row = dict(zip(card.head, card.rows[0]))
    assert row["tp"] == "2" and row["fp"] == "1" and row["fn"] == "0"
    assert row["precision"] == "0.6667" and row["recall"] == "1.0000"
    panel = made["JudgePanel"]._card()
    assert "per_human" not in panel.head  # a list of mappings: in the frame, not the card
    assert "per_human" in made["JudgePanel"].to_frame().columns


def test_frame_columns_are_the_json_keys() -> None:
    ev = accord.evaluate(A, B)
    row = ev.to_dict()["per_class"]["ok"]
    frame = ev.to_frame()
    ok = frame[frame["name"] == "ok"].iloc[0]
    assert ok["support"] == row["support"]
    assert ok["precision"] == row["precision"]["estimate"]
    assert ok["precision_ci_low"] == row["precision"]["confidence_interval"]["low"]


def test_a_frame_backend_is_checked() -> None:
    with pytest.raises(InvalidParameterError, match="backend"):
        accord.evaluate(A, B).to_frame(backend="arrow")  # type: ignore[arg-type]
