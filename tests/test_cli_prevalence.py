"""``accord compute`` names the prevalence effect beside the figures it bears on.

Feinstein & Cicchetti (1990, J Clin Epidemiol 43(6), 543-549) give two tables with the
same observed agreement p_o = 0.85: balanced ``[[40, 9], [6, 45]]`` (kappa 0.70, as
PABAK) and skewed ``[[80, 10], [5, 5]]`` (kappa 0.32, PABAK 0.70). Only the second shows
the effect, by the rule of :mod:`accord.report.explain` (kappa at least 0.10 below the
balanced-chance form); many raters use Fleiss' kappa and Brennan-Prediger.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.report.explain import many_rater_prevalence
from tests.conftest import run_cli as run
from tests.conftest import write_table_csv

SKEWED = [[80, 10], [5, 5]]
BALANCED = [[40, 9], [6, 45]]


def test_the_skewed_table_is_explained_next_to_its_kappa(tmp_path: Path) -> None:
    path = write_table_csv(tmp_path / "skewed.csv", SKEWED, "unit,a,b")
    code, out, err = run("compute", str(path), "--unit", "unit", "--raters", "a", "b")
    assert code == 0, err
    text = " ".join(out.split())  # the console wraps at 120 columns
    start = text.index("prevalence: ")
    said = text[start:text.index("intervals:", start)]
    table = accord.ContingencyTable(SKEWED, ["c0", "c1"])
    kappa = accord.cohen_kappa(table).estimate
    assert kappa == pytest.approx(7 / 22, abs=1e-12)  # (0.85 - 0.78) / (1 - 0.78); F&C: .32
    assert f"yet Cohen's kappa is {kappa:.2f}" in said
    assert "'c0' makes up 87.5% of all labels" in said  # (90 + 85) / 200
    assert accord.pabak(table).estimate == pytest.approx(0.70, abs=1e-12)
    assert "PABAK = 0.70" in said
    assert "Feinstein & Cicchetti 1990" in said


def test_the_balanced_table_has_no_prevalence_line(tmp_path: Path) -> None:
    path = write_table_csv(tmp_path / "balanced.csv", BALANCED, "unit,a,b")
    code, out, err = run("compute", str(path), "--unit", "unit", "--raters", "a", "b")
    assert code == 0, err
    assert "prevalence:" not in out


def test_the_json_carries_it_on_the_kappas_only(tmp_path: Path) -> None:
    path = write_table_csv(tmp_path / "skewed.csv", SKEWED, "unit,a,b")
    code, out, err = run("compute", str(path), "--unit", "unit", "--raters", "a", "b",
                         "--json")
    assert code == 0, err
    rows = {r["coefficient"]: r for r in json.loads(out)["results"]}
    assert {c for c, r in rows.items() if "prevalence_effect" in r} == {"cohen_kappa",
                                                                         "scott_pi"}
    said = rows["cohen_kappa"]["prevalence_effect"]
    assert said[0].startswith("a and b agree on 85.0% of the 100 units both rated, yet")
    code, out, _ = run("compute", str(write_table_csv(tmp_path / "b.csv", BALANCED,
                                                      "unit,a,b")),
                       "--unit", "unit", "--raters", "a", "b", "--json")
    assert all("prevalence_effect" not in r for r in json.loads(out)["results"])


def test_many_raters_name_fleiss_brennan_prediger_and_ac1(tmp_path: Path) -> None:
    # 3 raters, 40 units: 30 all 'no', 8 with one 'yes', 2 all 'yes'
    rows = ["unit,r1,r2,r3"]
    rows += [f"u{i},no,no,no" for i in range(30)]
    rows += [f"u{30 + i},{'yes' if i % 3 == 0 else 'no'},{'yes' if i % 3 == 1 else 'no'},"
             f"{'yes' if i % 3 == 2 else 'no'}" for i in range(8)]
    rows += ["u38,yes,yes,yes", "u39,yes,yes,yes"]
    path = tmp_path / "crowd.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = run("compute", str(path), "--unit", "unit", "--raters", "r1", "r2", "r3")
    assert code == 0, err
    text = " ".join(out.split())
    counts = accord.RaterCounts([[0, 3]] * 30 + [[1, 2]] * 8 + [[3, 0]] * 2, ["yes", "no"])
    fk, bp = accord.fleiss_kappa(counts), accord.brennan_prediger(counts)
    ac1 = accord.gwet_ac1(counts)
    assert bp.estimate - fk.estimate >= 0.10
    assert f"Fleiss' kappa ({fk.estimate:.2f})" in text
    assert f"Brennan-Prediger = {bp.estimate:.2f}" in text
    assert f"is {ac1.estimate:.2f}." in text
    assert " ".join(many_rater_prevalence(counts)) in text


def test_weights_and_scores_are_left_alone(tmp_path: Path) -> None:
    path = write_table_csv(tmp_path / "skewed.csv", SKEWED, "unit,a,b")
    code, out, _ = run("compute", str(path), "--unit", "unit", "--raters", "a", "b",
                       "--weights", "linear", "--categories", "c0", "c1")
    assert code == 0 and "prevalence:" not in out


def test_the_bundled_example_is_their_skewed_table() -> None:
    ann = accord.read(Path(__file__).resolve().parents[1] / "examples" / "skewed.csv",
                      unit="unit", raters=["a", "b"])
    table = accord.ContingencyTable.from_annotations(ann)
    assert table.counts.tolist() == SKEWED and list(table.categories) == ["neg", "pos"]
