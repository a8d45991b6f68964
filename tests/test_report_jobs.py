"""Each job's report opens with its answer: the job's title, one verdict sentence, one figure.

For every job (raters, a model against a reference, a judge against humans, a pilot with
a study, spans, boxes, label sets, and the judge lab's pairwise judge, ranking, calibration,
consistency, PPI and panel of judges) the first heading and the verdict are checked in HTML,
Markdown and on the console, and the figures of the verdict against the library result
they come from or a peer library (scikit-learn for macro F1 and accuracy).
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import accord
from accord.report.job import TITLES
from accord.report.markdown import escape
from tests.test_report_golden import skewed_report

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
KINDS = {"gold": "gold", "model": "model", "llm": "llm"}


def _raters() -> accord.Report:
    a = ["spam", "ok", "ok", "ok", "spam", "ok", "ok", "ok"]
    b = ["spam", "ok", "ok", "spam", "spam", "ok", "ok", "ok"]
    return accord.report(accord.Annotations.from_pairs(a, b))


def _reference() -> accord.Report:
    return accord.report(accord.read(EXAMPLES / "preds.csv", kinds=KINDS))


def _judge() -> accord.Report:
    ann = accord.read(EXAMPLES / "judge.csv", raters=["gpt4", "ann_a", "ann_b", "ann_c"],
                      missing=["ERROR"], kinds={"gpt4": "llm"})
    return accord.report(ann, judge="gpt4", seed=1)


def _spans() -> accord.Report:
    ann = accord.read(EXAMPLES / "ner_spans.csv", unit="doc", rater="annotator",
                      value="label", start="start", end="end")
    return accord.report(ann, seed=1, top_units=3)


def _boxes() -> accord.Report:
    return accord.report(accord.read(EXAMPLES / "boxes.csv"), seed=1)


def _label_sets() -> accord.Report:
    return accord.report(accord.read(EXAMPLES / "toxicity_multilabel.csv",
                                     label_separator=";"))


def _pairwise_judge() -> accord.Report:
    from tests.test_report_judge_lab import slice_report

    return slice_report()


def _judge_lab(which: str) -> Callable[[], accord.Report]:
    def build() -> accord.Report:
        from tests import test_report_judge_lab as lab

        if which == "ranking":
            return accord.report(None, judge_lab=lab._slice()[1])
        if which == "panel":
            from tests.test_report_judge_panel import jury

            return accord.report(None, judge_lab=jury())
        return accord.report(None, judge_lab=getattr(lab, which)())

    return build


JOBS: dict[str, Callable[[], accord.Report]] = {
    "raters": _raters, "reference": _reference, "judge": _judge, "study": skewed_report,
    "spans": _spans, "boxes": _boxes, "label_sets": _label_sets,
    "pairwise_judge": _pairwise_judge,
    "judge_ranking": _judge_lab("ranking"), "judge_calibration": _judge_lab("calibration"),
    "judge_consistency": _judge_lab("consistency"), "judge_ppi": _judge_lab("ppi"),
    "judge_panel": _judge_lab("panel"),
}


@pytest.fixture(scope="module", params=list(JOBS))
def job_report(request: pytest.FixtureRequest) -> tuple[str, accord.Report]:
    return request.param, JOBS[request.param]()


def _console(report: accord.Report) -> str:
    console = Console(width=4000, record=True, color_system=None, file=io.StringIO())
    console.print(report)
    return console.export_text()


def _expected_title(kind: str, report: accord.Report) -> str:
    if kind == "study":
        assert report.study is not None and report.study.title is not None
        return f"{TITLES['study']}: {report.study.title}"
    return TITLES[kind]


def test_each_job_opens_with_its_title_verdict_and_figure(
        job_report: tuple[str, accord.Report]) -> None:
    kind, rep = job_report
    job = rep.job
    assert job is not None and job.kind == kind
    title = _expected_title(kind, rep)
    # HTML: the first heading, then the verdict inside the header (the first screen)
    page = rep.to_html()
    assert re.findall(r"<h1>(.*?)</h1>", page)[0] == html.escape(title)
    header = page[page.index("<header>"):page.index("</header>")]
    assert html.escape(job.verdict, quote=True) in header
    assert f"<strong>{html.escape(job.figure)}</strong>" in header
    # Markdown: the first line is the heading, the verdict before any other section
    md = rep.to_markdown()
    assert md.splitlines()[0] == f"# {title}"
    before = md.split("\n## ", 1)[0]
    assert escape(job.verdict) in before, (kind, before)
    assert f"**{escape(job.figure_name)}: {escape(job.figure)}**" in before
    # console: the title first, the verdict in the lines before the first blank line
    lines = _console(rep).splitlines()
    assert lines[0] == title
    top = "\n".join(lines[:lines.index("")])
    assert job.verdict in top and f"{job.figure_name}: {job.figure}" in top


def test_the_job_s_own_section_comes_first(job_report: tuple[str, accord.Report]) -> None:
    kind, rep = job_report
    first = {"reference": "reference", "judge": "judge", "label_sets": "multilabel",
             "spans": "summary", "boxes": "summary", "raters": "summary",
             "study": "summary",
             "pairwise_judge": "lab-position", "judge_ranking": "lab-ranking",
             "judge_calibration": "lab-calibration", "judge_consistency": "lab-consistency",
             "judge_ppi": "lab-ppi", "judge_panel": "lab-panel"}[kind]
    page = rep.to_html()
    main = page[page.index("<main>"):]
    assert re.findall(r'<section id="([^"]+)"', main)[0] == first


def test_reference_verdict_matches_sklearn() -> None:
    from sklearn.metrics import accuracy_score, f1_score

    rep = _reference()
    assert rep.job is not None and rep.reference is not None
    rows = accord.read(EXAMPLES / "preds.csv", kinds=KINDS)
    wide = rows.wide()
    cats = rows.categories
    ref, sys = wide[:, rows.raters.index("gold")], wide[:, rows.raters.index("model")]
    both = (ref >= 0) & (sys >= 0)
    y, p = [cats[i] for i in ref[both]], [cats[i] for i in sys[both]]
    # scikit-learn 1.x: f1_score(average="macro") and accuracy_score, at the verdict's 4 places
    assert f"macro F1 {f1_score(y, p, average='macro'):.4f}" in rep.job.verdict
    assert f"accuracy {accuracy_score(y, p):.4f} vs " in rep.job.verdict
    majority = max(set(y), key=y.count)
    assert f"{y.count(majority) / len(y):.4f} for always predicting the majority class " \
           f"{majority!r}" in rep.job.verdict
    # the ceiling: accuracy 0.8514 lies between the humans' 0.8161 and 0.8690
    assert "within the human annotators' range (0.8161 to 0.8690, accuracy)" in rep.job.verdict
    assert rep.job.figure == f"{f1_score(y, p, average='macro'):.4f}"


def test_reference_error_analysis_lists_the_most_confused_pairs() -> None:
    rep = _reference()
    assert rep.reference is not None
    model = rep.reference.systems[0]
    counts = model.confusion.counts
    cats = model.confusion.categories
    off = sorted(((counts[i][j], cats[i], cats[j]) for i in range(len(cats))
                  for j in range(len(cats)) if i != j), key=lambda x: -x[0])
    got = [(c.count, c.reference, c.predicted) for c in model.confused]
    assert got == [(int(n), a, b) for n, a, b in off[:3]]
    ann = accord.read(EXAMPLES / "preds.csv", kinds=KINDS)
    labels = {(u, r): v for u, r, v in ann.records()}
    for c in model.confused:
        assert len(c.examples) == 3
        for unit in c.examples:
            assert (labels[(unit, "gold")], labels[(unit, "model")]) == (c.reference,
                                                                         c.predicted)
    assert "Error analysis: the most confused class pairs" in rep.to_markdown()


def test_judge_verdict_says_pass_or_fail_at_epsilon() -> None:
    rep = _judge()
    assert rep.job is not None and rep.judge is not None
    alt = rep.judge.alt
    assert rep.job.verdict.startswith(
        f"gpt4 {'passes' if alt.passed else 'does not pass'} the alternative annotator test "
        f"at epsilon = 0.2: winning rate {alt.winning_rate:.2f}")
    assert f"advantage probability {alt.advantage_probability:.3f}" in rep.job.verdict


def test_a_given_title_wins_and_the_cli_drops_the_layout_caveat_when_roles_are_named(
        tmp_path: Path) -> None:
    from tests.conftest import run_cli

    a, b = ["x", "y", "x"], ["x", "y", "y"]
    rep = accord.report(accord.Annotations.from_pairs(a, b), title="My pilot")
    assert rep.title == "My pilot" and rep.job is not None
    assert rep.job.title == TITLES["raters"]
    out = tmp_path / "r.md"
    code, stdout, stderr = run_cli("report", str(EXAMPLES / "preds.csv"), "--gold", "gold",
                                   "--predicted", "model", "llm", "-q", "-o", str(out))
    assert code == 0, stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Model against reference\n") and "caveat" not in text
    assert "rater 'gold' was named; the rater columns are 'gold', 'ann_a', 'ann_b', 'model', " \
           "'llm' (every column left" in text


def test_span_and_label_set_verdicts_carry_their_section_s_figures() -> None:
    spans = _spans()
    assert spans.job is not None and spans.spans is not None
    strict = spans.spans.modes[0].f1.estimate
    assert spans.job.verdict == spans.spans.sentence
    assert spans.job.figure == f"{strict:.3f}" and f"= {strict:.3f}" in spans.job.verdict
    sets = _label_sets()
    assert sets.job is not None and sets.multilabel is not None
    macro = sets.multilabel.macro
    alpha = next(r for r in sets.coefficients if r.coefficient == sets.primary)
    # the figure is the coefficient on the sets; the same line says the per-label one differs
    assert sets.job.figure == f"{alpha.estimate:.4f}"
    assert sets.job.verdict.startswith(sets.headline.rstrip("."))
    assert (f"per label, Krippendorff's alpha is {macro.estimate:.4f} (95% CI "
            f"{macro.ci_low:.4f} to {macro.ci_high:.4f}) (macro mean over labels, "
            f"{len(sets.multilabel.labels)} labels)") in sets.job.verdict


def test_a_heatmap_of_many_categories_numbers_its_axes_and_says_so() -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    a = [f"category {i}" for i in rng.integers(0, 14, size=300)]
    b = [x if rng.random() < 0.7 else f"category {rng.integers(0, 14)}" for x in a]
    page = accord.report(accord.Annotations.from_pairs(a, b)).to_html()
    assert "The axes number the categories 1 to 14 in the table&#x27;s order." in page
    few = accord.report(accord.Annotations.from_pairs(["x", "y", "x"], ["x", "y", "y"]))
    assert "The axes number" not in few.to_html()


def _pairwise_rows() -> dict[str, list[str]]:
    """30 pairs, each shown in both orders to a judge leaning to the first answer and
    three humans who do not."""
    import numpy as np

    rng = np.random.default_rng(0)
    rows: dict[str, list[str]] = {"unit": [], "rater": [], "first": [], "second": [],
                                  "verdict": []}
    for q in range(30):
        for rater in ("gpt4", "ann_a", "ann_b", "ann_c"):
            for first, second in (("m1", "m2"), ("m2", "m1")):
                p = [0.6, 0.3, 0.1] if rater == "gpt4" else [0.45, 0.45, 0.1]
                rows["unit"].append(f"q{q}")
                rows["rater"].append(rater)
                rows["first"].append(first)
                rows["second"].append(second)
                rows["verdict"].append(str(rng.choice(["A", "B", "tie"], p=p)))
    return rows


def test_judge_report_on_preferences_shows_position_bias_and_says_the_verdict_once() -> None:
    rows = _pairwise_rows()
    pref = accord.preferences(rows, judge="gpt4")
    rep = accord.report(pref, seed=1)
    assert rep.job is not None and rep.job.kind == "judge" and rep.judge is not None
    md, page, text = rep.to_markdown(), rep.to_html(), _console(rep)
    for rater in ("gpt4", "ann_a", "ann_b", "ann_c"):
        res = pref.position[rater]
        # the formula: decisive verdicts for the answer shown first over decisive verdicts
        mine = [v for r, v in zip(rows["rater"], rows["verdict"]) if r == rater]
        first, decisive = mine.count("A"), len(mine) - mine.count("tie")
        assert res.estimate == pytest.approx(first / decisive, abs=1e-12)
        ci = res.confidence_interval()
        row = f"| {rater} | 30 | {res.estimate:.3f} | {ci.low:.3f} to {ci.high:.3f} |"
        assert row in md
        assert f"{ci.low:.3f} to {ci.high:.3f}</td>" in page
        assert f"{ci.low:.3f} to {ci.high:.3f}" in text
    assert "Position bias" in md and "Position bias" in page and "Position bias" in text
    # the verdict opens the page and is not repeated in longer words in the section
    for out in (md, text):
        assert out.count("should not replace a human annotator") == 1, out
    assert page.count("should not replace a human annotator") == 1
    # no lengths and no generators: no length or self-preference figure, nothing said
    assert "longer output" not in md and "own family" not in md


def test_judge_report_without_preferences_has_no_position_table() -> None:
    rep = _judge()
    md = rep.to_markdown()
    assert "Position bias" not in md
    assert md.count("should not replace a human annotator") + md.count(
        "may replace a human annotator") == 1


def _crowd_with_a_random_rater() -> accord.Annotations:
    """80 units, four annotators right 90% of the time and one answering at random."""
    import numpy as np

    rng = np.random.default_rng(7)
    cats = ["a", "b", "c"]
    truth = rng.integers(0, 3, 80)
    table = {r: [cats[t] if rng.random() < 0.9 else cats[rng.integers(0, 3)] for t in truth]
             for r in ("r1", "r2", "r3", "r4")}
    table["rand"] = [cats[i] for i in rng.integers(0, 3, 80)]
    return accord.Annotations.from_wide(table)


def test_raters_report_names_the_random_annotator_with_the_library_s_figures() -> None:
    ann = _crowd_with_a_random_rater()
    rep = accord.report(ann, seed=3)
    section = rep.annotators
    assert section is not None and section.method == "dawid_skene"
    assert section.n_annotators == 5 and section.n_flagged == 1
    first = section.rows[0]
    assert first.name == "rand" and first.flag is not None
    # the library's own figures (accord.annotators, the same Wilson interval) at full precision
    lib = accord.annotators(ann)
    assert [r.name for r in lib.flagged] == ["rand"]
    acc = lib["rand"].accuracy
    ci = acc.confidence_interval(0.95)
    assert first.consensus == acc.estimate and (first.ci_low, first.ci_high) == (ci.low,
                                                                                ci.high)
    assert first.kappa == lib["rand"].agreement.estimate and first.flag == lib["rand"].flag
    # its figure by hand: the share of its units given the consensus label
    labels = lib.consensus.labels
    wide = ann.wide()
    mine = wide[:, ann.raters.index("rand")]
    same = [ann.categories[c] == labels[u] for u, c in zip(ann.units, mine)]
    assert acc.estimate == sum(same) / len(same)
    # named, with its sentence, in every rendering, after the coefficients
    md, page, text = rep.to_markdown(), rep.to_html(), _console(rep)
    assert "Dawid-Skene (1979) consensus" in md
    assert f"- **flagged:** {escape(first.flag)}" in md
    assert md.index("## Coefficients") < md.index("## Annotators") < md.index("## Worksheet")
    assert f'<p class="flag">{html.escape(first.flag)}</p>' in page
    assert '<section id="annotators">' in page and 'href="#annotators"' in page
    assert f"flagged: {first.flag}" in text
    assert f"| rand | 80 | {100 * acc.estimate:.1f}% | {100 * ci.low:.1f}% to " \
           f"{100 * ci.high:.1f}% |" in md
    # reproducible: the same seed gives the same page
    assert accord.report(ann, seed=3).to_markdown() == md


def test_annotators_section_only_for_three_or_more_raters_without_a_reference() -> None:
    assert _raters().annotators is None  # two raters
    assert _reference().annotators is None and _judge().annotators is None
    assert skewed_report().annotators is None  # a study decides


def test_a_crowd_shows_the_flagged_and_the_most_and_least_reliable_few() -> None:
    import numpy as np

    from accord.report import annotators_section as a

    rng = np.random.default_rng(11)
    truth = rng.integers(0, 2, 60)
    table = {f"w{i:02d}": [str(t) if rng.random() < 0.6 + i / 100 else str(1 - t)
                           for t in truth] for i in range(36)}
    table["spam"] = [str(x) for x in rng.integers(0, 2, 60)]
    section = a.annotators_section(accord.Annotations.from_wide(table), 0.95)
    names = [r.name for r in section.rows]
    flagged = [r.name for r in section.rows if r.flag]
    assert section.n_annotators == 37 and len(names) == len(flagged) + 2 * a.FEW
    lib = accord.annotators(accord.Annotations.from_wide(table), rng=1)
    assert flagged == [str(r.name) for r in lib.flagged] and "spam" in flagged
    rest = sorted((r for r in lib if not r.flag), key=lambda r: -r.accuracy.estimate)
    assert names[len(flagged):] == [str(r.name) for r in (*rest[:3], *rest[-3:])]
    assert f"Shown: {len(names)} of 37 annotators" in a.cells(section)["lead"]


def test_no_consensus_to_infer_leaves_a_note_instead_of_the_section() -> None:
    constant = accord.Annotations.from_wide({"a": ["x"] * 5, "b": ["x"] * 5, "c": ["x"] * 5})
    with pytest.warns(accord.DegenerateDataWarning):
        accord.fleiss_kappa(constant)  # undefined: the report keeps its reason in notes
    rep = accord.report(constant)
    assert rep.annotators is None
    note = "No Annotators section: consensus: every rating is 'x'"
    assert any(n.startswith(note) for n in rep.notes)
    assert note in rep.to_markdown()
