"""One grade per figure: each family on its own scale, the same in every output.

An ICC is graded on Koo & Li's (2016) scale, on its confidence interval as Koo and Li
ask ("Poor to Good" for an interval from 0.41 to 0.84), and named in both namings
(``ICC2 = ICC(A,1)``), in the console, the JSON, Markdown and HTML; a coefficient
computed unweighted (nominal) on ordered data says so in its row.
"""

from __future__ import annotations

import json
from pathlib import Path

import accord
from accord.interpret.interpretation import interpret
from tests.conftest import run_cli as run

SCORES = Path(__file__).resolve().parent.parent / "examples" / "scores.csv"
RATERS = ("--raters", "grader_1", "grader_2", "grader_3")


def _koo_li(x: float) -> str:
    """Koo & Li (2016, p. 158): below 0.5 poor, 0.5-0.75 moderate, 0.75-0.9 good,
    above 0.9 excellent."""
    return "Poor" if x < 0.5 else "Moderate" if x < 0.75 else "Good" if x < 0.9 else "Excellent"


def _icc2() -> accord.AgreementResult:
    ann = accord.read(SCORES, raters=["grader_1", "grader_2", "grader_3"], level="interval")
    return accord.icc(ann, form="ICC2")


def test_koo_and_li_grade_the_interval() -> None:
    res = _icc2()
    ci = res.confidence_interval()
    expected = f"{_koo_li(ci.low)} to {_koo_li(ci.high)}"
    assert expected == "Poor to Good"  # [0.4108, 0.8365]
    it = interpret(res, "koo_li")
    assert it.band == "Moderate" and it.grade == expected
    assert it.to_dict()["grade"] == expected
    assert str(it).startswith("Poor to Good (Koo & Li (2016), graded on the 95% interval)")
    kappa = accord.cohen_kappa([1, 2, 2, 1, 3, 3, 1, 2], [1, 2, 3, 1, 3, 2, 1, 2])
    assert interpret(kappa).grade == interpret(kappa).band  # Landis & Koch grade estimates


def test_the_console_and_json_of_compute_give_the_same_grade_and_name() -> None:
    """Before: 'ICC2 ... Moderate' (graded on the estimate) beside a note that Koo and Li
    grade the interval."""
    code, out, err = run("compute", str(SCORES), *RATERS, "--level", "interval")
    assert code == 0, err
    words = " ".join(out.split())
    assert "ICC2 = ICC(A,1)" in words and "Poor to Good" in words and "Moderate" not in words
    code, out, _ = run("compute", str(SCORES), *RATERS, "--level", "interval", "--json")
    icc = next(r for r in json.loads(out)["results"] if r["coefficient"] == "icc")
    assert icc["interpretation"] == {"scale": "koo_li", "band": "Moderate",
                                     "grade": "Poor to Good"}


def test_the_report_grades_the_icc_on_koo_and_li_beside_alpha() -> None:
    """Before: the report graded the ICC 'Tentative conclusions only' on Krippendorff's
    scale, its primary's."""
    ann = accord.read(SCORES, raters=["grader_1", "grader_2", "grader_3"], level="interval")
    rep = accord.report(ann)
    icc = next(r for r in rep.coefficients if r.coefficient == "icc")
    alpha = next(r for r in rep.coefficients if r.coefficient == "krippendorff_alpha")
    assert icc.interpretation.scale == "koo_li"  # type: ignore[union-attr]
    assert alpha.interpretation.scale == "krippendorff"  # type: ignore[union-attr]
    md, html = rep.to_markdown(), rep.to_html()
    line = next(x for x in md.splitlines() if x.startswith("| Intraclass"))
    assert "ICC(A,1)" in line and "Poor to Good (the interval)" in line
    assert "Poor to Good (the interval)" in html
    assert "interpretation (Krippendorff (2004) / Koo &amp; Li (2016))" in html


def test_a_nominal_figure_on_ordered_data_says_so() -> None:
    """Before: Fleiss' kappa (computed unweighted) sat unlabelled beside ordinal alpha."""
    code, out, err = run("compute", str(SCORES), *RATERS, "--level", "ordinal")
    assert code == 0, err
    words = " ".join(out.split())
    assert "Fleiss' kappa (unweighted)" in words and "alpha (ordinal)" in words


def test_compute_and_the_report_label_a_figure_alike() -> None:
    """Before: compute said 'Gwet's AC1 / AC2 (ordinal)' where the report said '(ordinal
    weights)', and 'Intraclass correlation (ICC) ICC2 = ICC(A,1)' beside the report's
    '(ICC, ICC2 = ICC(A,1))'. Both now label a row with the result's own variant."""
    seen = []
    for level in ("ordinal", "interval"):
        ann = accord.read(SCORES, raters=list(RATERS[1:]), level=level)
        labels = [r.label for r in accord.report(ann).coefficients]
        code, out, err = run("compute", str(SCORES), *RATERS, "--level", level)
        assert code == 0, err
        words = " ".join(out.split())  # 120 columns: each label on one line
        assert [label for label in labels if label not in words] == []
        seen += labels
    assert "Gwet's AC1 / AC2 (ordinal weights)" in seen
    assert "Intraclass correlation (ICC, ICC2 = ICC(A,1))" in seen
