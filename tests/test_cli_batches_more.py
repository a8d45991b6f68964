"""Batches on the command line, second part: the homogeneity test in ``compute --by``,
the pooling caveat on ``check`` and ``report``, per-annotator trends and ``--by`` on
``report`` and ``evaluate``.

Figures are checked against statsmodels (Cochran's Q of ``combine_effects``, the
fixed-effect chi-square test of homogeneity of Fleiss 1981) and against the library,
itself checked against scikit-learn and statsmodels in test_batches_compare.py.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.meta_analysis import combine_effects

import accord
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
BATCHES = ROOT / "examples" / "batches"
RATERS = ("--raters", "annotator_a", "annotator_b")
POOLING = "caveat: pooled: 3 files analysed as one data set (--by file analyses each on its own)"


def _kappa(path: Path) -> accord.AgreementResult:
    return accord.cohen_kappa(accord.read(path, raters=["annotator_a", "annotator_b"]))


def test_compute_by_json_carries_the_homogeneity_test_on_the_pooled_row() -> None:
    code, out, err = run_cli("compute", str(ROOT / "examples" / "batches.csv"), *RATERS,
                             "--by", "batch", "--coefficient", "cohen_kappa", "--json")
    assert code == 0, err
    rows = json.loads(out)["results"]
    assert all("homogeneity" not in r for r in rows[:-1])
    hom = rows[-1]["homogeneity"]
    assert hom["groups"] == ["pilot", "batch2", "batch3"] and hom["left_out"] == []
    results = [_kappa(BATCHES / f"{g}.csv") for g in hom["groups"]]
    ref = combine_effects(np.array([r.estimate for r in results]),
                          np.array([r.se**2 for r in results]))  # statsmodels, Cochran's Q
    assert hom["test"]["statistic"] == pytest.approx(ref.q, rel=1e-12)
    assert hom["test"]["pooled"] == pytest.approx(ref.mean_effect_fe, rel=1e-12)
    assert hom["test"]["df"] == 2
    assert hom["test"]["pvalue"] == pytest.approx(stats.chi2.sf(ref.q, 2), rel=1e-12)


def test_compute_by_says_when_homogeneity_cannot_be_tested(tmp_path: Path) -> None:
    src = tmp_path / "b.csv"
    rows = [f"x,{i},{'pos' if i % 3 else 'neg'},{'pos' if i % 4 else 'neg'}" for i in range(30)]
    src.write_text("\n".join(["batch,item,a,b", *rows, "z,99,pos,neg"]) + "\n")
    code, out, err = run_cli("compute", str(src), "--raters", "a", "b", "--by", "batch",
                             "--coefficient", "cohen_kappa")
    assert code == 0, err
    assert ("groups equal? not tested: 1 group(s) have an estimate with a positive standard "
            "error, two needed (1 group(s) left out, without an estimate or a positive SE: "
            "z)") in out
    code, out, err = run_cli("compute", str(src), "--raters", "a", "b", "--by", "batch",
                             "--coefficient", "cohen_kappa", "--json")
    hom = json.loads(out)["results"][-1]["homogeneity"]
    assert hom["test"] is None and hom["left_out"] == ["z"] and "needs two" in hom["reason"]


def test_check_and_report_say_pooling_on_their_first_line() -> None:
    code, out, err = run_cli("check", str(BATCHES), *RATERS, "--coefficient", "cohen_kappa",
                             "--min", "0.6")
    assert code == 0, err
    assert out.splitlines()[0] == POOLING
    code, out, err = run_cli("check", str(BATCHES), *RATERS, "--coefficient", "cohen_kappa",
                             "--min", "0.6", "--json")
    assert POOLING.removeprefix("caveat: ") in json.loads(out)["caveats"]
    code, out, err = run_cli("report", str(BATCHES), *RATERS)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Agreement between raters" and lines[1] == POOLING
    code, out, _ = run_cli("check", str(BATCHES / "pilot.csv"), *RATERS, "--coefficient",
                           "cohen_kappa", "--min", "0.4")
    assert code == 0 and "pooled" not in out


def _batch_file(path: Path, seed: int, accuracy: dict[str, float], n: int = 150) -> Path:
    """Three annotators who each give the true label (of four) with their accuracy."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n)
    cols = {}
    for name, acc in accuracy.items():
        wrong = (truth + rng.integers(1, 4, n)) % 4
        cols[name] = np.where(rng.random(n) < acc, truth, wrong)
    lines = ["item," + ",".join(cols)] + [
        f"{path.stem}-{i}," + ",".join("abcd"[int(c[i])] for c in cols.values())
        for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return path


TEAM = ("--raters", "ann", "bob", "cy")


def test_per_annotator_trends_flag_the_drifting_annotator(tmp_path: Path) -> None:
    store = tmp_path / "project.db"
    good = {"ann": 0.9, "bob": 0.9, "cy": 0.9}
    for week in range(5):
        data = _batch_file(tmp_path / f"week{week}.csv", week, good)
        code, out, err = run_cli("check", str(data), *TEAM, "--coefficient", "fleiss_kappa",
                                 "--min", "0.5", "--record", str(store), "--against-history")
        assert code == 0, out + err
        assert "annotator drifting" not in out
    drift = _batch_file(tmp_path / "week5.csv", 5, {**good, "cy": 0.45})
    code, out, err = run_cli("check", str(drift), *TEAM, "--coefficient", "fleiss_kappa",
                             "--min", "0.3", "--record", str(store), "--against-history",
                             "--json")
    got = json.loads(out)["history"]
    flagged = got["annotators_flagged"]
    assert [f["annotator"] for f in flagged] == ["cy"]
    assert flagged[0]["reason"].startswith("annotator 'cy': majority_agreement ")
    assert "below the lower control limit" in flagged[0]["reason"]

    # the recorded figures are the library's, and the limit is the drift module's formula
    code, out, err = run_cli("history", str(store), "--json")
    assert code == 0, err
    hist = json.loads(out)
    charts = {c["annotator"]: c for c in hist["charts"]}
    assert set(charts) == {None, "ann", "bob", "cy"}
    cy = charts["cy"]["points"]
    lib = [accord.annotators(accord.read(tmp_path / f"week{w}.csv", raters=["ann", "bob", "cy"]),
                             method="majority")["cy"].accuracy for w in range(6)]
    assert [p["estimate"] for p in cy] == pytest.approx([r.estimate for r in lib], abs=1e-15)
    rows = [line.split(",")[1:] for line in drift.read_text().splitlines()[1:]]
    tops = [Counter(r).most_common(2) for r in rows]  # by hand: the majority of three
    hits = [r[2] == t[0][0] for r, t in zip(rows, tops) if len(t) == 1 or t[0][1] > t[1][1]]
    assert cy[5]["estimate"] == sum(hits) / len(hits)
    z = stats.norm.ppf(0.975)
    ses = [p["se"] for p in cy]  # the binomial SE (the interval is Wilson's, asymmetric)
    assert all(p["confidence_interval"]["low"] < p["estimate"] - z * p["se"] for p in cy[:5])
    w = [1 / s**2 for s in ses[:5]]
    base = sum(wi * p["estimate"] for wi, p in zip(w, cy[:5])) / sum(w)
    limit = base - stats.norm.ppf(0.95) * (ses[5] ** 2 + 1 / sum(w)) ** 0.5
    assert cy[5]["baseline"] == pytest.approx(base, rel=1e-12)
    assert cy[5]["lower_limit"] == pytest.approx(limit, rel=1e-12)
    assert cy[5]["flagged"] and not any(p["flagged"] for p in charts["ann"]["points"])

    code, out, _ = run_cli("history", str(store), "-o", str(tmp_path / "h.html"))
    assert code == 0
    assert "week: fleiss_kappa" not in out and ": majority_agreement, annotator cy" in out
    assert "flagged: run 6: annotator 'cy': majority_agreement" in out
    page = (tmp_path / "h.html").read_text()
    assert page.count("majority_agreement, annotator ") == 3
    assert 'aria-label="majority_agreement of annotator cy over 6 batches' in page


def test_per_annotator_figures_are_skipped_with_a_reason_on_scores(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    code, out, err = run_cli("check", str(ROOT / "examples" / "scores.csv"), "--level",
                             "interval", "--raters", "grader_1", "grader_2", "grader_3",
                             "--coefficient", "icc", "--form", "ICC2", "--min", "0.1",
                             "--record", str(store))
    assert code in (0, 1), err
    (run,) = accord.history.Store(store).runs()
    assert all(not f.rater for f in run.figures)
    assert run.register["per_annotator"] == ("no per-annotator figures: agreement with the "
                                             "majority needs categories; the data are "
                                             "interval scores")


# ---------------------------------------------------------------- issue 23's bad input
def _lonely(tmp_path: Path) -> Path:
    """Rows without a batch, and a batch 'z' of one unit."""
    src = tmp_path / "b.csv"
    rows = [f"{'' if i < 4 else 'x'},{i},{'pos' if i % 3 else 'neg'},{'pos' if i % 4 else 'neg'}"
            for i in range(40)]
    src.write_text("\n".join(["batch,item,a,b", *rows, "z,99,pos,neg"]) + "\n")
    return src


def test_check_by_says_missing_group_values_and_refuses_a_one_unit_group(
        tmp_path: Path) -> None:
    code, out, err = run_cli("check", str(_lonely(tmp_path)), "--raters", "a", "b",
                             "--coefficient", "cohen_kappa", "--min", "0.0", "--by", "batch")
    assert code == 1, err  # a group that cannot be decided is not accepted
    lines = out.splitlines()
    assert ("note: 4 row(s) have no value in 'batch'; they are analysed together as the "
            "group '(missing)'") in lines
    (z,) = [x for x in lines if x.startswith("z: ")]
    assert z == ("z: UNDEFINED (not accepted): group 'z' has 1 unit; agreement needs at least "
                 "two units")
    assert lines[-1] == "not every group accepted: exit 1"


def test_check_record_on_a_newer_or_read_only_store_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import sqlite3

    store = tmp_path / "p.db"
    args = ("check", str(BATCHES / "batch2.csv"), *RATERS, "--coefficient", "cohen_kappa",
            "--min", "0.6", "--record", str(store))
    assert run_cli(*args)[0] == 0
    with sqlite3.connect(store) as con:
        con.execute("UPDATE schema_version SET version = 99")
    before = store.read_bytes()
    code, out, err = run_cli(*args)
    assert code == 2 and out == "" and err.count("\n") == 1  # check: exit 1 means rejected
    assert "written by a newer accord (store schema 99" in err and "left as it is" in err
    assert store.read_bytes() == before
    with sqlite3.connect(store) as con:
        con.execute("UPDATE schema_version SET version = 1")
    before = store.read_bytes()
    real, write = os.access, os.W_OK  # root ignores permissions: a read-only disk is faked
    monkeypatch.setattr(os, "access", lambda p, mode, **k: mode != write and real(p, mode))
    code, out, err = run_cli(*args)
    monkeypatch.undo()
    assert code == 2 and err.count("\n") == 1
    assert "cannot be written here (read-only file or folder); nothing was recorded" in err
    assert store.read_bytes() == before


def test_history_keeps_two_studies_apart(tmp_path: Path) -> None:
    from accord.history.store import Figure, Run, Store

    store = Store(tmp_path / "two.db")
    for t in range(6):  # interleaved: the toxicity study drops at its 6th batch only
        store.record(Run(f"2026-02-0{t + 1}T00:00:00+00:00", "toxicity",
                         (Figure("cohen_kappa", 0.8 - 0.3 * (t == 5), 0.03),)))
        store.record(Run(f"2026-02-0{t + 1}T00:00:01+00:00", "sentiment",
                         (Figure("cohen_kappa", 0.5 + 0.3 * (t == 5), 0.03),)))
    code, out, err = run_cli("history", str(tmp_path / "two.db"), "--json")
    assert code == 0, err
    got = json.loads(out)["charts"]
    assert [(c["study"], len(c["points"])) for c in got] == [("toxicity", 6),
                                                             ("sentiment", 6)]
    assert [p["flagged"] for p in got[0]["points"]] == [False] * 5 + [True]
    assert not any(p["flagged"] for p in got[1]["points"])
    assert got[1]["points"][5]["baseline"] == pytest.approx(0.5, abs=1e-15)
    code, out, _ = run_cli("history", str(tmp_path / "two.db"), "--study", "sentiment")
    assert code == 0 and "toxicity" not in out and "sentiment: cohen_kappa" in out


# ---------------------------------------------------------------- evaluate --by
def test_evaluate_by_file_gives_each_batch_and_the_pooled_figures() -> None:
    import pandas as pd
    from sklearn.metrics import accuracy_score, cohen_kappa_score, f1_score, matthews_corrcoef

    code, out, err = run_cli("evaluate", str(BATCHES), "--gold", "annotator_a", "--predicted",
                             "annotator_b", "--by", "file", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert [g["group"] for g in got["results"]] == ["batch2.csv", "batch3.csv", "pilot.csv",
                                                    None]
    frames = {}
    for g in got["results"]:
        ev = g["evaluation"]["systems"]["annotator_b"]
        if g["pooled"]:
            frame = pd.concat(frames.values())
        else:
            frame = frames[g["group"]] = pd.read_csv(BATCHES / g["group"])
        y, p = frame["annotator_a"], frame["annotator_b"]  # scikit-learn as the oracle
        assert ev["n_units"] == len(frame)
        assert ev["accuracy"]["estimate"] == pytest.approx(accuracy_score(y, p), abs=1e-15)
        assert ev["macro"]["f1"]["estimate"] == pytest.approx(
            f1_score(y, p, average="macro"), abs=1e-12)
        assert ev["kappa"]["estimate"] == pytest.approx(cohen_kappa_score(y, p), abs=1e-12)
        assert ev["mcc"]["estimate"] == pytest.approx(matthews_corrcoef(y, p), abs=1e-12)
        assert ev["accuracy"]["confidence_interval"]["method"] == "wilson"
    code, out, err = run_cli("evaluate", str(BATCHES), "--gold", "annotator_a", "--predicted",
                             "annotator_b", "--by", "file")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"{BATCHES}: 3 groups (one per file) and the pooled data"
    assert lines[1] == "annotator_b against annotator_a"
    assert any(x.startswith("pilot.csv ") and "0.617" in x for x in lines)


def test_evaluate_by_column_says_a_one_unit_group_and_needs_gold(tmp_path: Path) -> None:
    src = tmp_path / "b.csv"
    rows = [f"x,{i},{'pos' if i % 3 else 'neg'},{'pos' if i % 4 else 'neg'}" for i in range(30)]
    src.write_text("\n".join(["batch,item,gold,model", *rows, "z,99,pos,neg"]) + "\n")
    code, out, err = run_cli("evaluate", str(src), "--gold", "gold", "--predicted", "model",
                             "--by", "batch", "--json")
    assert code == 0, err
    groups = json.loads(out)["results"]
    assert [g["group"] for g in groups] == ["x", "z", None]
    assert groups[1]["undefined_reason"] == ("group 'z' has 1 unit; an evaluation needs at "
                                             "least two units")
    assert groups[2]["evaluation"]["systems"]["model"]["n_units"] == 31
    code, out, err = run_cli("evaluate", str(src), "--gold", "gold", "--predicted", "model",
                             "--by", "batch")
    assert "z: undefined: group 'z' has 1 unit; an evaluation needs at least two units" in out
    code, _, err = run_cli("evaluate", str(src), "--by", "batch")
    assert code == 2 and "--by needs the reference column named with --gold" in err


# ---------------------------------------------------------------- report --by
def test_report_by_adds_each_groups_rows_and_the_homogeneity_test(tmp_path: Path) -> None:
    import pandas as pd
    from sklearn.metrics import cohen_kappa_score

    code, out, err = run_cli("report", str(ROOT / "examples" / "batches.csv"), *RATERS,
                             "--by", "batch", "--coefficient", "cohen_kappa", "-o", "-",
                             "--to", "json")
    assert code == 0, err
    got = json.loads(out)
    rows = [(c["variant"], c["estimate"], c["n_units"]) for c in got["results"]]
    assert [r[0] for r in rows] == ["pooled", "batch = pilot", "batch = batch2",
                                    "batch = batch3"]
    table = pd.read_csv(ROOT / "examples" / "batches.csv")
    for variant, estimate, n in rows:  # scikit-learn as the oracle
        part = table if variant == "pooled" else table[table["batch"] == variant[8:]]
        assert n == len(part)
        assert estimate == pytest.approx(cohen_kappa_score(part["annotator_a"],
                                                           part["annotator_b"]), abs=1e-12)
    results = [_kappa(BATCHES / f"{b}.csv") for b in ("pilot", "batch2", "batch3")]
    ref = combine_effects(np.array([r.estimate for r in results]),
                          np.array([r.se**2 for r in results]))  # statsmodels, Cochran's Q
    assert (f"groups equal? cohen_kappa: chi-square test of homogeneity (Fleiss 1981): chi2 = "
            f"{ref.q:.4f}, df = 2, p = {stats.chi2.sf(ref.q, 2):.4g}") in got["notes"]
    # the report answers the groups' question first (before: the pooled figure alone, and
    # 'batch' listed among the ignored columns)
    first = "; ".join(f"{b} {r.estimate:.4f}" for b, r in zip(("pilot", "batch2", "batch3"),
                                                              results))
    assert got["headline"].startswith("Cohen's kappa by batch: pilot 0.4845 (95% CI ")
    assert [x.split(" (")[0] for x in got["headline"].split(": ", 1)[1].split("; ")[:3]] \
        == first.split("; ")
    assert f"chi2 = {ref.q:.2f}, df = 2, p = {stats.chi2.sf(ref.q, 2):.4g}. Pooled: " \
        in got["headline"]
    assert got["job"]["verdict"] == got["headline"]
    assert any("group column: 'batch'" in n for n in got["data"]["notes"])
    assert not any("ignored columns" in n for n in got["data"]["notes"])
    page = tmp_path / "r.html"
    code, out, err = run_cli("report", str(BATCHES), *RATERS, "--by", "file", "-o", str(page))
    assert code == 0, err
    html = page.read_text()
    assert "Cohen&#x27;s kappa (file = pilot.csv)" in html or \
        "Cohen's kappa (file = pilot.csv)" in html
    assert "pooled" not in out.splitlines()[1]  # --by file: the files are not pooled silently


def test_report_by_refuses_what_it_cannot_group(tmp_path: Path) -> None:
    code, _, err = run_cli("report", str(BATCHES), *RATERS, "--by", "file", "--record",
                           str(tmp_path / "s.db"))
    assert code == 2 and "use check --by --record" in err
    assert not (tmp_path / "s.db").exists()


def test_per_annotator_figures_are_skipped_for_a_crowd(monkeypatch: pytest.MonkeyPatch) -> None:
    from accord.history import annotator_figures as af

    ann = accord.read(ROOT / "examples" / "crowd.csv", unit="image", rater="worker",
                      value="label")
    figures, note = af.annotator_figures(ann)
    assert len(figures) == ann.n_raters == 9 and note is None
    monkeypatch.setattr(af, "MAX_ANNOTATORS", 8)
    assert af.annotator_figures(ann) == ((), "no per-annotator figures: 9 annotators, more "
                                         "than the 8 a run charts one by one (accord "
                                         "annotators rates a crowd)")
