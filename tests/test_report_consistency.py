"""The report never contradicts itself: a figure shown twice is the same number.

Each report below is built once and rendered to Markdown, the console and HTML;
the figures are read back from the rendered text (not from the model), so a
renderer that labels, rounds or picks a figure differently is caught. The
cases are those where the report once disagreed with itself: units rated by one
rater (AC1 over 120 units in the table, over the 115 units both rated in the
kappa box), weights (a weighted headline over an unweighted worksheet), an
ordinal level (a nominal headline), raters left out after reading (ratings
used vs the reader's audit), and a decision on the lower confidence limit next
to Gwet's benchmark.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

import accord
from accord.report.model import Report

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DATA = ROOT / "tests" / "readers" / "data"
NUM = r"-?\d+\.\d{4}"


def pilot() -> Report:
    ann = accord.read(EXAMPLES / "pilot.csv", raters=["annotator_a", "annotator_b"])
    return accord.report(ann, EXAMPLES / "study.toml")


def severity() -> Report:
    ann = accord.read(EXAMPLES / "severity.csv", raters=["nurse_a", "nurse_b"],
                      categories=["mild", "moderate", "severe"])
    return accord.report(ann, weights="quadratic")


def ordinal() -> Report:
    return accord.report(accord.read(DATA / "long_scores.csv", level="ordinal"))


def humans_only() -> Report:
    ann = accord.read(DATA / "label_studio_export.json", field="sentiment")
    return accord.report(ann.humans())


CASES = {"pilot": pilot, "severity": severity, "ordinal": ordinal, "humans": humans_only}


@pytest.fixture(scope="module", params=sorted(CASES))
def rendered(request: pytest.FixtureRequest) -> tuple[Report, dict[str, str]]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        rep = CASES[request.param]()
    console = Console(width=240, record=True, color_system=None, file=io.StringIO())
    console.print(rep)
    page = re.sub(r"<(svg|style)\b.*?</\1>", "", rep.to_html(), flags=re.S)
    page = html.unescape(re.sub(r"<[^>]+>", " ", page))
    markdown = html.unescape(rep.to_markdown().replace("\\", ""))
    texts = {"markdown": markdown, "console": console.export_text(),
             "html": " ".join(page.split())}
    return rep, texts


def _table_rows(markdown: str) -> dict[str, tuple[str, str, str, str]]:
    """Coefficient table of the Markdown: label -> (units, estimate, low, high)."""
    section = markdown.split("## Coefficients", 1)[1].split("\n\n", 2)[1]
    out = {}
    for line in section.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        low, _, high = cells[4].partition(" to ")
        out[cells[0]] = (cells[1], cells[2], low, high)
    return out


#: The start of a headline, after any caveat lines: "3 raters rated 4 units (...)" or
#: "ana and ben agree on 82.0% of the 100 units both rated".
HEADLINE = r"(?:rated \d+ units|units both rated)[^;]*"


def test_headline_figure_is_the_table_figure(rendered: tuple[Report, dict[str, str]]) -> None:
    rep, texts = rendered
    rows = _table_rows(texts["markdown"])
    for name, text in texts.items():
        undefined = re.search(rf"{HEADLINE}; ([^;]+?) is undefined: ", text)
        if undefined is not None:
            assert rows[undefined.group(1)][1] == "undefined", name
            continue
        m = re.search(rf"{HEADLINE}; (.+?) = ({NUM}) \(95% CI ({NUM}) to ({NUM})\)", text)
        assert m is not None, name
        label, est, low, high = m.groups()
        assert label in rows, f"{name}: headline names {label!r}, the table has {list(rows)}"
        assert rows[label][1:] == (est, low, high), name


def test_headline_names_the_scale_the_data_declare(
        rendered: tuple[Report, dict[str, str]]) -> None:
    rep, texts = rendered
    md = texts["markdown"]
    level = re.search(r"categories: \d+, level (\w+)(, (\w+) weights)?", md)
    assert level is not None
    rows = _table_rows(md)
    headline = next(x for x in md.splitlines() if re.search(r"rated \d+ units|units both rated", x))
    if level.group(1) == "nominal":
        assert not any("weights" in k or "ordinal" in k for k in rows)
    else:  # an ordered scale: the headline coefficient says how it used the order
        assert "(unweighted)" not in headline
        assert re.search(r"\((\w+ weights|ordinal|interval|ratio)\) = ", headline), headline
    if level.group(3):
        assert f"{level.group(3)} weights" in headline
    html_level = re.search(r"categories \d+ \((level [^)]*)\)", texts["html"])
    assert html_level is not None and html_level.group(1).startswith(f"level {level.group(1)}")


def test_worksheet_and_kappa_box_match_the_table(
        rendered: tuple[Report, dict[str, str]]) -> None:
    rep, texts = rendered
    rows = _table_rows(texts["markdown"])
    by_units = {(label.split(" (")[0], units.split(" / ")[0]): est
                for label, (units, est, _, _) in rows.items()}
    for name, text in texts.items():
        for m in re.finditer(rf"n = (\d+) +(?:(\w+) weights: p_o = {NUM} +p_e = {NUM} +kappa = "
                             rf"({NUM});)? .*?kappa = ({NUM}|undefined)", text):
            n, weights, weighted, plain = m.groups()
            if weights and (f"Cohen's kappa ({weights} weights)") in rows:
                units, est = rows[f"Cohen's kappa ({weights} weights)"][:2]
                if units == n:
                    assert weighted == est, name
            if not weights and "Cohen's kappa" in rows and rows["Cohen's kappa"][0] == n:
                assert plain == rows["Cohen's kappa"][1], name
            # the kappa box of the same pair repeats the unweighted kappa
            box = re.search(rf"Cohen's kappa(?: \(unweighted\))?\s*\|?\s*({NUM})",
                            text[m.end():])
            if box is not None and plain != "undefined":
                assert box.group(1) == plain, name
        for m in re.finditer(rf"Gwet's AC1( \(unweighted\))?( \((\d+) units both rated|"
                             rf" \(this pair)?\)?\s*\|?\s*({NUM})", text):
            unweighted, labelled, units, value = m.groups()
            table = next(((u, e) for (lbl, u), e in by_units.items() if lbl == "Gwet's AC1 / AC2"),
                         None)
            if table is None or unweighted or (labelled and units is None):
                continue  # unweighted or another pair's AC1, and labelled so
            if units is None:  # unlabelled: the same units as the table, so the same number
                assert value == table[1], f"{name}: AC1 {value} vs {table[1]} unlabelled"
            else:
                assert units != rows[next(k for k in rows if k.startswith("Gwet"))][0], name


def test_decision_line_repeats_the_table() -> None:
    rep = pilot()  # the case with a study, hence a decision
    markdown = html.unescape(rep.to_markdown().replace("\\", ""))
    console = Console(width=240, record=True, color_system=None, file=io.StringIO())
    console.print(rep)
    rows = _table_rows(markdown)
    primary = next(r for r in rep.coefficients if r.coefficient == rep.primary)
    units, est, low, _ = rows[primary.label]
    for name, text in (("markdown", markdown), ("console", console.export_text()),
                       ("html", html.unescape(rep.to_html()))):
        m = re.search(rf"lower 95% limit \(\w+\) ({NUM}) [<>]=? [\d.]+ \(n = (\d+) units, "
                      rf"estimate ({NUM})\)", text)
        assert m is not None and m.groups() == (low, units, est), name


def test_benchmark_never_grades_above_the_lower_limit(
        rendered: tuple[Report, dict[str, str]]) -> None:
    rep, _ = rendered
    for row in rep.coefficients:
        b = row.benchmark
        if b is None or b.undefined_reason is not None or row.method != "asymptotic":
            continue
        lower = next(r["lower"] for r in b.rows() if r["label"] == b.band)
        assert lower <= row.ci_low, (row.coefficient, b.band, row.ci_low)
    if rep.study is not None and rep.decision is not None and rep.decision.status == "rejected":
        row = next(r for r in rep.coefficients if r.coefficient == rep.primary)
        assert row.benchmark is not None
        lower = next(r["lower"] for r in row.benchmark.rows() if r["label"] == row.benchmark.band)
        assert lower < 0.6  # the study's bar: a rejected pilot is not graded Substantial


def test_ratings_used_agree_with_the_audit(rendered: tuple[Report, dict[str, str]]) -> None:
    rep, texts = rendered
    for name, text in texts.items():
        # the reader's audit: in the HTML's "What was read", else the model's first line
        audit = re.search(r": (\d+) read, (\d+) used", text) or re.search(
            r": (\d+) read, (\d+) used", "\n".join(rep.data.audit))
        assert audit is not None, name
        read, used = audit.groups()
        plain = re.search(r"(\d+) used of (\d+) read", text)
        if plain is not None:
            assert plain.groups() == (used, read), name
        else:
            m = re.search(r"(\d+) analysed of the (\d+) used \((\d+) read", text)
            assert m is not None and m.group(2, 3) == (used, read), name
            assert int(m.group(1)) == rep.data.n_ratings < int(used)


def test_console_figures_are_figures_of_the_markdown(
        rendered: tuple[Report, dict[str, str]]) -> None:
    _, texts = rendered
    md = set(re.findall(NUM, texts["markdown"]))
    assert set(re.findall(NUM, texts["console"])) <= md
    assert set(re.findall(NUM, texts["html"])) == md


def test_krippendorff_lowest_band_is_a_state_not_an_instruction() -> None:
    res = accord.AgreementResult("krippendorff_alpha", 0.5, 0.8, 0.6, 0.05, 100, 2,
                                 bounds=(-1, 1))
    assert accord.interpret(res, "krippendorff").band == "Unreliable"


def test_compute_console_worksheet_gives_the_weighted_kappa_of_the_table() -> None:
    from click.testing import CliRunner

    from accord.cli import main

    out = CliRunner().invoke(main, [
        "compute", str(EXAMPLES / "severity.csv"), "--raters", "nurse_a", "nurse_b",
        "--weights", "quadratic", "--categories", "mild", "moderate", "severe"]).output
    header = out.splitlines()[0]
    assert "(nominal)" not in header and "quadratic weights" in header
    row = re.search(rf"Cohen's kappa\s*│\s*({NUM})", out)
    worksheet = re.search(rf"quadratic weights: p_o = {NUM}\s+p_e = {NUM}\s+kappa = ({NUM})", out)
    assert row is not None and worksheet is not None
    assert worksheet.group(1) == row.group(1)
    assert re.search(r"unweighted: p_o = .* kappa = 0\.4179", out)  # labelled, not a headline


def test_cli_report_headline_follows_level_ordinal() -> None:
    from click.testing import CliRunner

    from accord.cli import main

    out = CliRunner().invoke(main, ["report", str(DATA / "long_scores.csv"), "--level",
                                    "ordinal"], env={"COLUMNS": "160"}).output
    headline = next(x for x in out.splitlines() if re.search(HEADLINE, x))
    assert "Krippendorff's alpha (ordinal) = " in headline and "Fleiss" not in headline
    assert "Fleiss' kappa" in out and "(unweighted)" in out  # still shown, and labelled
