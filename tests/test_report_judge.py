"""The report's LLM-judge section: the same figures as alt_test and judge_agreement, in words."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest

import accord
from accord.report.json import schema
from tests.conftest import run_cli

JUDGE_CSV = Path(__file__).resolve().parents[1] / "examples" / "judge.csv"


@pytest.fixture(scope="module")
def ann() -> accord.Annotations:
    return accord.read(JUDGE_CSV, raters=["gpt4", "ann_a", "ann_b", "ann_c"],
                       missing=["ERROR"], kinds={"gpt4": "llm"})


@pytest.fixture(scope="module")
def rep(ann: accord.Annotations) -> accord.Report:
    return accord.report(ann, judge="gpt4", seed=1)


def test_section_holds_the_library_figures(ann: accord.Annotations, rep: accord.Report) -> None:
    assert rep.judge is not None
    alt = accord.alt_test(ann, judge="gpt4")
    assert rep.judge.alt.winning_rate == alt.winning_rate
    assert rep.judge.alt.advantage_probability == alt.advantage_probability
    assert rep.data.raters == ("ann_a", "ann_b", "ann_c")  # the rest is about the humans
    assert rep.judge.sentence.startswith("gpt4 may replace a human annotator")
    assert "winning rate 1.00, where 0.50 passes" in rep.judge.sentence


def test_json_validates_and_is_absent_without_a_judge(ann: accord.Annotations,
                                                      rep: accord.Report) -> None:
    doc = json.loads(rep.to_json())
    jsonschema.validate(doc, schema())
    assert doc["judge"]["alt_test"]["passed"] is True
    plain = json.loads(accord.report(ann.select(["ann_a", "ann_b", "ann_c"])).to_json())
    assert "judge" not in plain


def test_markdown_and_html_show_the_section(rep: accord.Report) -> None:
    md = rep.to_markdown()
    assert "## LLM judge: gpt4" in md and "| ann_b | 77 |" in md
    html = rep.to_html()
    assert 'id="judge"' in html and 'href="#judge"' in html


def test_a_judge_that_loses_is_said_so_and_labels_are_escaped() -> None:
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 60)
    cols = {f"h{j}": np.where(rng.random(60) < 0.8, truth, rng.integers(0, 3, 60))
            for j in range(3)}
    cols["<b>llm</b>"] = rng.integers(0, 3, 60)
    rep = accord.report(accord.Annotations.from_wide(cols), judge="<b>llm</b>", seed=0)
    assert rep.judge is not None and not rep.judge.alt.passed
    assert "should not replace a human annotator yet" in rep.judge.sentence
    assert "<b>llm</b>" not in rep.to_html() and "&lt;b&gt;llm&lt;/b&gt;" in rep.to_html()
    assert "<b>" not in rep.to_markdown()


def test_cli_report_with_judge(tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    code, _, err = run_cli("report", str(JUDGE_CSV), "--judge", "gpt4", "--missing", "ERROR",
                           "--seed", "1", "-q", "-o", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["judge"]["judge"] == "gpt4" and doc["data"]["n_raters"] == 3
    code, _, err = run_cli("report", str(JUDGE_CSV), "--judge", "gpt5", "-q")
    # a declared role that names no rater is bad usage, as for --gold
    assert code == 2 and "rater 'gpt5' not found; the raters are" in err
