"""The report model: its figures against published tables and against the library.

Sources: Cohen (1960, p. 45) table with Fleiss, Cohen & Everitt (1969) SE
(cases.json ``cohen_1960_p45``: kappa 0.4915254237, p_o .70, p_e .41,
SE 0.05100181558, 95% CI 0.3915637021 to 0.5914871454); Feinstein & Cicchetti
(1990) paradox tables (p_o .85, kappa .70 and .32); Byrt, Bishop & Carlin (1993)
PABAK and indices; scikit-learn's ``cohen_kappa_score`` (1.8, run here) for the
kappa of the high-agreement tables.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import accord
from accord.report.explain import kappa_context

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def pairs(table: list[list[int]], cats: list[str],
          raters: tuple[str, str] = ("ann", "bob")) -> tuple[list[str], list[str]]:
    a, b = [], []
    for i, row in enumerate(table):
        for j, n in enumerate(row):
            a += [cats[i]] * n
            b += [cats[j]] * n
    return a, b


def annotations(table: list[list[int]], cats: list[str]) -> accord.Annotations:
    a, b = pairs(table, cats)
    return accord.Annotations.from_pairs(a, b, raters=("ann", "bob"), categories=cats)


COHEN = annotations([[88, 14, 18], [10, 40, 10], [2, 6, 12]], ["1", "2", "3"])


def row(rep: accord.Report, name: str) -> accord.report.model.CoefficientRow:  # type: ignore[name-defined]
    return next(r for r in rep.coefficients if r.coefficient == name)


# --------------------------------------------------------------------------- figures
def test_cohen_1960_worksheet_and_kappa_row() -> None:
    rep = accord.report(COHEN)
    ws = rep.pairs[0].worksheet
    assert ws.counts == ((88, 14, 18), (10, 40, 10), (2, 6, 12))
    assert ws.row_totals == (120, 60, 20) and ws.col_totals == (100, 60, 40) and ws.n == 200
    assert ws.p_o == pytest.approx(0.70, abs=1e-12) and ws.p_e == pytest.approx(0.41, abs=1e-12)
    assert ws.kappa == pytest.approx(0.4915254237, abs=1e-9)
    kappa = row(rep, "cohen_kappa")
    assert kappa.estimate == pytest.approx(0.4915254237, abs=1e-9)
    assert kappa.se == pytest.approx(0.05100181558, abs=1e-9)
    assert (kappa.ci_low, kappa.ci_high) == pytest.approx((0.3915637021, 0.5914871454), abs=1e-9)
    assert kappa.method == "asymptotic" and kappa.confidence_level == 0.95
    assert rep.primary == "cohen_kappa"
    assert rep.headline == (
        "ann and bob agree on 70.0% of the 200 units both rated; Cohen's kappa = 0.4915 "
        "(95% CI 0.3916 to 0.5915), Moderate on Landis & Koch (1977).")


def test_rows_equal_the_library_at_full_precision() -> None:
    rep = accord.report(COHEN, confidence_level=0.9)
    for r, res in zip(rep.coefficients, rep.results):
        assert r.coefficient == res.coefficient
        assert r.estimate == res.estimate and (r.se == res.se or math.isnan(res.se))
        ci = res.confidence_interval(0.9)
        assert (r.ci_low, r.ci_high) == (ci.low, ci.high)
        if r.interpretation is not None:
            assert r.interpretation == accord.interpret(res, interval=ci)
    names = [r.coefficient for r in rep.coefficients]
    from accord.interpret.selection import default_coefficients

    assert names == default_coefficients(COHEN)


def test_benchmark_is_gwets_on_the_row() -> None:
    # at the one-sided level of the lower limit of the two-sided 95% interval (0.975), so
    # that the band never grades above that limit (and a decision taken on it)
    rep = accord.report(COHEN)
    kappa = row(rep, "cohen_kappa")
    assert kappa.benchmark == accord.benchmark(accord.cohen_kappa(COHEN), "landis_koch", 0.975)
    assert kappa.interpretation is not None and kappa.interpretation.band == "Moderate"
    assert row(rep, "percent_agreement").benchmark is None  # not chance-corrected


def test_per_category_rows_match_category_agreement() -> None:
    rep = accord.report(COHEN)
    table = accord.ContingencyTable([[88, 14, 18], [10, 40, 10], [2, 6, 12]], ["1", "2", "3"])
    expected = accord.category_agreement(table)
    for c in rep.pairs[0].categories:
        e = expected[c.category]
        assert (c.kappa, c.positive_agreement, c.negative_agreement) == (
            e["kappa"], e["positive_agreement"], e["negative_agreement"])
        a, r1, r2 = e["n_both"], e["n_rater1"], e["n_rater2"]
        collapsed = [[a, r1 - a], [r2 - a, 200 - r1 - r2 + a]]
        two = accord.cohen_kappa(accord.ContingencyTable(collapsed))
        assert c.kappa == pytest.approx(two.estimate, abs=1e-14)
        ci = two.confidence_interval()
        assert (c.ci_low, c.ci_high) == (ci.low, ci.high)


def test_rater_rows_count_labels() -> None:
    rep = accord.report(COHEN)
    assert [(r.rater, r.n_rated, r.distribution) for r in rep.raters] == [
        ("ann", 200, (120, 60, 20)), ("bob", 200, (100, 60, 40))]
    assert rep.loo_coefficient is None and rep.matrix is None


# --------------------------------------------------------------------------- why kappa
def test_high_agreement_kappa_below_zero_reads_correctly() -> None:
    a, b = pairs([[82, 9], [9, 0]], ["no", "yes"])
    expected = cohen_kappa_score(a, b)  # scikit-learn
    ctx = kappa_context(accord.ContingencyTable([[82, 9], [9, 0]], ["no", "yes"]), ("A", "B"))
    assert ctx.p_o == pytest.approx(0.82, abs=1e-12) and ctx.p_e == pytest.approx(0.8362, abs=1e-12)
    assert ctx.kappa == pytest.approx(expected, abs=1e-12)
    assert ctx.kappa == pytest.approx((0.82 - 0.8362) / (1 - 0.8362), abs=1e-12)
    assert ctx.pabak == pytest.approx(0.64, abs=1e-12)  # Byrt et al.: 2 p_o - 1
    assert ctx.prevalence_index == pytest.approx(0.82, abs=1e-12)  # (a - d) / n
    assert ctx.bias_index == 0.0 and ctx.kappa_max == pytest.approx(1.0, abs=1e-12)
    assert ctx.effects == ("prevalence",)
    text = " ".join(ctx.explanation)
    assert "agree on 82.0% of the 100 units both rated, yet Cohen's kappa is -0.10" in text
    assert "'no' makes up 91.0% of all labels" in text
    assert "would already agree on 83.6% of units" in text
    assert "kappa is negative" in text and "less often than chance" in text
    assert "prevalence effect" in text and "PABAK = 0.64" in text
    assert "agree on 0 of the 18 units either of them gave it" in text


@pytest.mark.parametrize(
    ("table", "kappa_text", "relation"),
    [([[81, 9], [9, 1]], "0.00", "no better than that, so kappa is about 0"),
     ([[90, 5], [5, 0]], "-0.05", "below that, so kappa is negative"),
     ([[88, 4], [5, 3]], "0.35", "much lower than the raw agreement")],
)
def test_kappa_near_zero_with_high_agreement(table: list[list[int]], kappa_text: str,
                                             relation: str) -> None:
    ctx = kappa_context(accord.ContingencyTable(table, ["neg", "pos"]), ("A", "B"))
    a, b = pairs(table, ["neg", "pos"])
    assert ctx.kappa == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    assert ctx.p_o >= 0.8 and "prevalence" in ctx.effects
    text = " ".join(ctx.explanation)
    assert f"yet Cohen's kappa is {kappa_text}" in text and relation in text


def test_feinstein_cicchetti_tables() -> None:
    balanced = accord.datasets.load("feinstein_cicchetti_1990_a").as_table()
    skewed = accord.datasets.load("feinstein_cicchetti_1990_b").as_table()
    a = kappa_context(balanced, ("A", "B"))
    b = kappa_context(skewed, ("A", "B"))
    assert a.p_o == pytest.approx(0.85) and b.p_o == pytest.approx(0.85)
    assert round(a.kappa, 2) == 0.70 and round(b.kappa, 2) == 0.32  # as published
    assert a.effects == () and "no prevalence or bias effect" in a.explanation[-1]
    assert b.effects == ("prevalence",) and "yet" in b.explanation[0]
    assert b.pabak == pytest.approx(0.70) and b.ac1 == pytest.approx(
        accord.gwet_ac1(skewed).estimate, abs=1e-15)


def test_bias_effect_names_the_category_and_kappa_max() -> None:
    table = accord.ContingencyTable([[40, 30], [5, 25]], ["no", "yes"])
    ctx = kappa_context(table, ("A", "B"))
    assert ctx.effects == ("bias",)
    assert ctx.bias_index == pytest.approx(0.25) and ctx.marginal_difference == pytest.approx(0.25)
    assert ctx.kappa_max == pytest.approx(accord.kappa_max(table).estimate, abs=1e-15)
    text = " ".join(ctx.explanation)
    assert "A gives 'yes' to 30.0% of units and B to 55.0%" in text
    assert f"kappa max = {ctx.kappa_max:.2f}" in text


def test_undefined_kappa_is_explained_not_hidden() -> None:
    ann = accord.Annotations.from_pairs(["pos"] * 5, ["pos"] * 5)
    rep = accord.report(ann)
    ctx = rep.pairs[0].context
    assert math.isnan(ctx.kappa) and "undefined" in ctx.explanation[0]
    kappa = row(rep, "cohen_kappa")
    assert not kappa.defined and math.isnan(kappa.ci_low)
    assert kappa.interpretation is not None and kappa.interpretation.band == "undefined"
    assert "Cohen's kappa is undefined" in rep.headline
    assert any("cohen_kappa is undefined" in n for n in rep.notes)
    assert json.loads(rep.to_json())["results"][1]["estimate"] is None


# --------------------------------------------------------------------------- many raters
def three_raters() -> accord.Annotations:
    return accord.read(EXAMPLES / "pilot.csv")


def test_three_raters_every_pair_matrix_and_leave_one_out() -> None:
    ann = three_raters()
    rep = accord.report(ann)
    assert [p.raters for p in rep.pairs] == [("annotator_a", "annotator_b"),
                                             ("annotator_a", "annotator_c"),
                                             ("annotator_b", "annotator_c")]
    pw = accord.pairwise(ann, "cohen_kappa")
    assert rep.matrix is not None
    np.testing.assert_array_equal(np.array(rep.matrix.values), pw.estimates)
    np.testing.assert_array_equal(np.array(rep.matrix.n), pw.n)
    assert rep.primary == "fleiss_kappa" and rep.loo_coefficient == "fleiss_kappa"
    loo = accord.leave_one_rater_out(ann, "fleiss_kappa")
    assert {r.rater: r.leave_one_out for r in rep.raters} == loo.estimates
    for pair in rep.pairs:
        sub = ann.select(list(pair.raters))
        assert pair.worksheet.kappa == accord.cohen_kappa(sub).estimate


def test_units_with_most_disagreement_come_first() -> None:
    ann = three_raters()
    rep = accord.report(ann, top_units=5)
    found = accord.disagreements(ann, order="disagreement")
    assert rep.units.n_disagreements == found.n_disagreements
    assert [r.unit for r in rep.units.rows] == [str(u.unit) for u in found.units[:5]]
    assert rep.units.rows[0].labels == ("spam", "genuine", "off_topic")
    assert rep.units.rows[0].agreement == 0.0


def test_more_raters_show_least_and_most_agreeing_pairs() -> None:
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 3, 80)
    noise = [0.05, 0.15, 0.3, 0.45, 0.6]
    cols = {f"r{i}": np.where(rng.random(80) < p, rng.integers(0, 3, 80), truth)
            for i, p in enumerate(noise)}
    ann = accord.Annotations.from_wide(cols)
    rep = accord.report(ann)
    pw = accord.pairwise(ann, "cohen_kappa")
    est = {pair: r.estimate for pair, r in pw.results.items()}
    low, high = min(est, key=est.__getitem__), max(est, key=est.__getitem__)
    assert [p.raters for p in rep.pairs] == [low, high]
    assert "least agreeing" in rep.pairs[0].reason and "most agreeing" in rep.pairs[1].reason
    chosen = accord.report(ann, pairs=[("r4", "r0")])
    assert [p.raters for p in chosen.pairs] == [("r4", "r0")]
    with pytest.raises(accord.DataError, match="two different raters"):
        accord.report(ann, pairs=[("r0", "r0")])


def test_interval_data_have_no_worksheet() -> None:
    data = accord.datasets.load("shrout_fleiss_1979").data
    ann = accord.Annotations.from_wide([list(r) for r in data], level="interval")
    rep = accord.report(ann)
    assert rep.pairs == () and rep.matrix is None
    assert rep.primary is not None


# --------------------------------------------------------------------------- settings
def test_bootstrap_is_reproducible_and_summarised() -> None:
    first = accord.report(COHEN, method="bootstrap", n_resamples=600, seed=4)
    second = accord.report(COHEN, method="bootstrap", n_resamples=600, seed=4)
    other = accord.report(COHEN, method="bootstrap", n_resamples=600, seed=5)
    assert first.to_json() == second.to_json() and first.to_markdown() == second.to_markdown()
    assert first.to_json() != other.to_json()
    b = first.bootstrap
    assert b is not None and b.coefficient == "cohen_kappa" and b.seed == 4
    assert sum(b.counts) + b.n_excluded == 600 and len(b.edges) == len(b.counts) + 1
    direct = accord.cohen_kappa(COHEN).confidence_interval(
        0.95, method=accord.Bootstrap(n_resamples=600, rng=4))
    assert (b.ci_low, b.ci_high) == (direct.low, direct.high)
    assert row(first, "cohen_kappa").ci_low == direct.low
    assert first.settings.method == "bootstrap-percentile" and first.settings.n_resamples == 600


def test_jackknife_and_bad_settings() -> None:
    rep = accord.report(COHEN, method="jackknife")
    res = accord.cohen_kappa(COHEN)
    ci = res.confidence_interval(method="jackknife")
    assert (row(rep, "cohen_kappa").ci_low, row(rep, "cohen_kappa").ci_high) == (ci.low, ci.high)
    for bad in ({"method": "exact"}, {"confidence_level": 95}, {"scale": "nope"},
                {"top_units": 0}):
        with pytest.raises(accord.AccordError, match="parameter of report"):
            accord.report(COHEN, **bad)  # type: ignore[arg-type]


def test_a_wide_table_is_accepted_and_raters_selected() -> None:
    rep = accord.report({"a": ["x", "y", "y"], "b": ["x", "y", "x"], "c": ["y", "y", "x"]},
                        raters=["a", "b"])
    assert rep.data.raters == ("a", "b") and rep.data.n_units == 3


# --------------------------------------------------------------------------- study
def study_dict(**sections: dict[str, object]) -> dict[str, object]:
    base: dict[str, object] = {"acceptance": {"rule": "cohen_kappa >= 0.4"}}
    base.update(sections)
    return base


def register(rep: accord.Report) -> dict[str, accord.report.model.RegisterRow]:  # type: ignore[name-defined]
    assert rep.study is not None
    return {r.item: r for r in rep.study.register}


def test_pilot_study_register_and_decision() -> None:
    ann = accord.read(EXAMPLES / "pilot.csv")
    rep = accord.report(ann, EXAMPLES / "study.toml")
    st = rep.study
    assert st is not None and rep.decision is not None
    reg = register(rep)
    assert reg["items"].status == "ok"
    assert reg["items"].observed == "120 of the 120 declared items found"
    assert reg["names"].status == "ok" and "not used: annotator_c" in reg["names"].observed
    assert reg["categories (in order)"].declared == "genuine, spam, off_topic"
    assert reg["missing labels"].status == "ok"
    assert reg["independent labels"].status == "declared"
    assert reg["rule"].status == rep.decision.status == "rejected"
    assert st.deviations == ()
    assert dict(st.disposition) == {"disagreement_review": "", "reference": "", "decided_by": "",
                                    "date": ""}
    expected = accord.cohen_kappa(ann.select(["annotator_a", "annotator_b"]))
    assert rep.decision.value == expected.confidence_interval().low
    assert rep.data.categories == ("genuine", "spam", "off_topic")  # the declared order


def test_register_mismatches_are_deviations() -> None:
    study = accord.Study.from_dict(study_dict(
        population={"items": ["0", "1", "99"]},
        annotators={"names": ["ann", "carl"], "independent": False},
        task={"categories": ["1", "2"], "missing": "not-allowed"},
    ))
    ann = accord.Annotations.from_wide({"ann": ["1", "2", "3", None], "bob": ["1", "2", "3", "1"]})
    rep = accord.report(ann, study)
    reg = register(rep)
    assert reg["items"].status == "mismatch"
    assert "declared but not in the data: 99" in reg["items"].observed
    assert "2 units not declared: 2, 3" in reg["items"].observed
    assert reg["names"].status == "mismatch" and "not in the data: carl" in reg["names"].observed
    assert reg["independent labels"].status == "warning"
    assert reg["categories (in order)"].status == "mismatch"
    assert "not declared: 3" in reg["categories (in order)"].observed
    assert reg["missing labels"].status == "mismatch"
    assert rep.study is not None and len(rep.study.deviations) == 4
    assert any("fewer than two declared annotators" in n for n in rep.study.notes)


def test_study_decision_undefined_when_kappa_is() -> None:
    ann = accord.Annotations.from_pairs(["pos"] * 6, ["pos"] * 6)
    rep = accord.report(ann, accord.Study.from_dict(study_dict()))
    assert rep.decision is not None and rep.decision.status == "undefined"
    assert not rep.decision.accepted
    assert register(rep)["rule"].status == "undefined"


def test_study_settings_are_the_defaults() -> None:
    study = accord.Study.from_dict(study_dict(metric={
        "coefficient": "cohen_kappa", "confidence_level": 0.9, "interval": "bootstrap",
        "n_resamples": 300, "seed": 2}))
    rep = accord.report(COHEN, study)
    assert rep.settings.confidence_level == 0.9 and rep.settings.method == "bootstrap-percentile"
    assert rep.settings.seed == 2 and rep.bootstrap is not None
    explicit = accord.report(COHEN, study, method="asymptotic", confidence_level=0.95)
    assert explicit.settings.method == "asymptotic" and explicit.bootstrap is None
    # the decision follows the protocol, whatever the report shows
    assert explicit.decision == rep.decision
    assert explicit.decision is not None and explicit.decision.interval is not None
    assert explicit.decision.interval.method == "bootstrap-percentile"


def test_report_is_frozen() -> None:
    rep = accord.report(COHEN)
    with pytest.raises(AttributeError):
        rep.title = "x"  # type: ignore[misc]
    assert replace(rep, title="x").title == "x"


def test_weighted_report_shows_the_weighted_worksheet_next_to_the_unweighted() -> None:
    rep = accord.report(COHEN, weights="quadratic")
    kappa = row(rep, "cohen_kappa")
    weighted = accord.cohen_kappa(COHEN, weights="quadratic")
    assert kappa.estimate == weighted.estimate
    ws = rep.pairs[0].worksheet
    assert ws.kappa == pytest.approx(0.4915254237, abs=1e-9)  # Cohen (1960), unweighted
    assert (ws.weighted_p_o, ws.weighted_p_e, ws.weighted_kappa) == (
        weighted.observed, weighted.expected, weighted.estimate)
    assert kappa.variant == "quadratic weights" and rep.data.level == "ordinal"
    assert any("quadratic-weighted p_o" in n for n in rep.notes)


def test_many_raters_skip_the_quadratic_sections() -> None:
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 2, 40)
    cols = {f"w{i:02d}": np.where(rng.random(40) < 0.8, truth, 1 - truth) for i in range(31)}
    rep = accord.report(accord.Annotations.from_wide(cols), coefficients=["fleiss_kappa"])
    # beyond 30 raters: the 30 raters of the pairs sharing most units (all share 40 here)
    assert rep.matrix is not None and len(rep.matrix.raters) == 30 and len(rep.pairs) == 2
    assert rep.loo_coefficient is None
    assert any(n.startswith("With 31 raters the rater x rater matrix shows the 30 raters")
               and "leave-one-out is left out" in n for n in rep.notes)
    chosen = accord.report(accord.Annotations.from_wide(cols), coefficients=["fleiss_kappa"],
                           pairs=[("w00", "w01")])
    assert [p.raters for p in chosen.pairs] == [("w00", "w01")]


def test_two_raters_with_units_rated_once_say_which_units_each_figure_uses() -> None:
    a = ["x", "x", "y", "y", None, "x", "y", "x", "y", "x"]
    b = ["x", "y", "y", "y", "x", None, "y", "x", "y", "x"]
    rep = accord.report(accord.Annotations.from_pairs(a, b))
    # 8 units both rated, 7 agreements: the headline counts the units both rated
    assert rep.headline.startswith("rater_1 and rater_2 agree on 87.5% of the 8 units both rated")
    note = next(n for n in rep.notes if "rated by one rater only" in n)
    assert note.startswith("2 unit(s)") and "the 8 units both rated" in note
    rows = {r.coefficient: r for r in rep.results}
    assert rows["gwet_ac1"].estimate == accord.gwet_ac1(a, b).estimate
    assert rows["cohen_kappa"].n_units == 8 and rows["gwet_ac1"].n_units == 10


def test_scores_are_summarised_by_their_range(tmp_path: Path) -> None:
    """Interval or ratio data with many distinct values: their number and range (lowest
    and highest of the file), not a list of "categories"."""
    rows = ["id,a,b"] + [f"u{i},{(i * 7) % 23 + 0.5},{(i * 5) % 19 + 1.25}" for i in range(40)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(rows) + "\n")
    ann = accord.read(path, raters=["a", "b"], level="interval")
    values = sorted({float(r.split(",")[k]) for r in rows[1:] for k in (1, 2)})
    rep = accord.report(ann)
    md = rep.to_markdown()
    assert (f"values: {len(values)} distinct, level interval, from {values[0]:g} to "
            f"{values[-1]:g}") in md
    assert "categories:" not in md
    assert f"{len(values)} distinct (level interval), from" in rep.to_html()
