"""The command line for batches and history: compare, compute --by, check --record, history.

Figures are checked against the library (itself checked against scikit-learn,
statsmodels and by hand in test_batches_compare.py and test_history_*.py): the
CLI must show the same numbers, say what it decided, and fail in one line.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
BATCHES = ROOT / "examples" / "batches"
RATERS = ("--raters", "annotator_a", "annotator_b")


def _kappa(path: Path) -> accord.AgreementResult:
    return accord.cohen_kappa(accord.read(path, raters=["annotator_a", "annotator_b"]))


def test_compare_two_batches_is_the_library_comparison() -> None:
    code, out, err = run_cli("compare", str(BATCHES / "pilot.csv"), str(BATCHES / "batch2.csv"),
                             *RATERS, "--json")
    assert code == 0, err
    got = json.loads(out)
    lib = accord.compare(_kappa(BATCHES / "batch2.csv"), _kappa(BATCHES / "pilot.csv"),
                         method="asymptotic")
    (cmp,) = got["results"]
    assert cmp["difference"]["estimate"] == lib.difference and cmp["design"] == "independent"
    assert cmp["difference"]["confidence_interval"]["low"] == lib.interval.low
    # each side as a figure, with the interval the sentence shows
    assert cmp["first"]["estimate"] == lib.estimate_a
    assert cmp["second"]["confidence_interval"]["high"] == lib.interval_b.high
    assert cmp["sentence"] == lib.sentence("batch2", "pilot")
    assert got["homogeneity"] is None


def test_compare_three_batches_says_the_design_and_tests_homogeneity() -> None:
    code, out, _ = run_cli("compare", *(str(BATCHES / f) for f in
                                        ("pilot.csv", "batch2.csv", "batch3.csv")), *RATERS)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("3 batches (no shared unit: independent samples)")
    # the batches' figures, their chart and whether they are equal come first, then each
    # batch against the first
    assert lines[1] == "Cohen's kappa by file" and lines[3].split()[:2] == ["pilot", "60"]
    said = next(i for i, x in enumerate(lines) if x.startswith("groups equal? chi-square"))
    assert lines[said + 1].startswith("batch2 (kappa 0.76, 95% CI")
    assert "higher than pilot" in lines[said + 1]
    test = accord.homogeneity([_kappa(BATCHES / f) for f in
                               ("pilot.csv", "batch2.csv", "batch3.csv")])
    assert f"chi2 = {test.statistic:.4f}, df = 2" in out


def test_compare_needs_two_files() -> None:
    code, _, err = run_cli("compare", str(BATCHES / "pilot.csv"), *RATERS)
    assert code == 2 and "two or more files" in err


def test_compare_by_column_equals_compare_of_the_files() -> None:
    """One table with a batch column (examples/batches.csv is the three batch files
    stacked): compare --by batch gives the files' comparison (before: refused, "compare
    takes two or more files")."""
    files = [str(BATCHES / f) for f in ("pilot.csv", "batch2.csv", "batch3.csv")]
    code, out, err = run_cli("compare", *files, *RATERS, "--json")
    assert code == 0, err
    by_files = json.loads(out)
    code, out, err = run_cli("compare", str(ROOT / "examples" / "batches.csv"), "--by", "batch",
                             *RATERS, "--json")
    assert code == 0, err
    by_column = json.loads(out)
    assert [b["batch"] for b in by_column["batches"]] == ["pilot", "batch2", "batch3"]
    assert by_column["batches"][1]["source"].endswith("batches.csv (batch = batch2)")
    for key in ("estimate", "se", "n_units"):
        assert [b[key] for b in by_column["batches"]] == [b[key] for b in by_files["batches"]]
    assert by_column["results"] == by_files["results"]
    assert by_column["homogeneity"] == by_files["homogeneity"]


def test_compute_by_column_equals_by_file() -> None:
    code, out, err = run_cli("compute", str(ROOT / "examples" / "batches.csv"), *RATERS,
                             "--by", "batch", "--coefficient", "cohen_kappa", "--json")
    assert code == 0, err
    rows = json.loads(out)["results"]
    assert [r["group"] for r in rows] == ["pilot", "batch2", "batch3", None]
    assert rows[-1]["pooled"] is True and rows[-1]["n_units"] == 240
    for row in rows[:-1]:
        lib = _kappa(BATCHES / f"{row['group']}.csv")
        assert row["estimate"] == pytest.approx(lib.estimate, abs=1e-15)
        assert row["confidence_interval"]["low"] == pytest.approx(
            lib.confidence_interval().low, abs=1e-15)
    code, out, _ = run_cli("compute", str(BATCHES), *RATERS, "--by", "file", "--coefficient",
                           "cohen_kappa", "--json")
    by_file = {r["group"]: r["estimate"] for r in json.loads(out)["results"]}
    assert by_file["pilot.csv"] == pytest.approx(rows[0]["estimate"], abs=1e-15)


def test_compute_by_text_output_and_pooling_is_said_first() -> None:
    code, out, _ = run_cli("compute", str(ROOT / "examples" / "batches.csv"), *RATERS,
                           "--by", "batch", "--coefficient", "cohen_kappa")
    assert code == 0
    assert out.splitlines()[0].endswith("3 groups (one per value of 'batch') and the pooled "
                                        "data")
    assert "(pooled)" in out and "chi-square test of homogeneity" in out
    code, out, _ = run_cli("compute", str(BATCHES), *RATERS, "--coefficient", "cohen_kappa")
    assert code == 0
    assert out.splitlines()[0] == ("caveat: pooled: 3 files analysed as one data set "
                                   "(--by file analyses each on its own)")


def test_compute_by_missing_values_and_lonely_groups(tmp_path: Path) -> None:
    src = tmp_path / "b.csv"
    lines = ["batch,item,a,b"] + [f"{'' if i < 4 else 'x' if i < 20 else 'y'},{i},"
                                  f"{'pos' if i % 3 else 'neg'},{'pos' if i % 4 else 'neg'}"
                                  for i in range(40)] + ["z,99,pos,neg"]
    src.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli("compute", str(src), "--raters", "a", "b", "--by", "batch",
                             "--coefficient", "cohen_kappa")
    assert code == 0, err
    assert "note: 4 row(s) have no value in 'batch'; they are analysed together as the group " \
           "'(missing)'" in out
    assert "cohen_kappa, z: undefined: group 'z' has 1 unit" in out
    code, _, err = run_cli("compute", str(src), "--raters", "a", "b", "--by", "nope")
    assert code == 1 and err.count("\n") == 1 and "group column 'nope' not found" in err


def _check(*extra: str, data: str = "batch2.csv") -> tuple[int, str, str]:
    return run_cli("check", str(BATCHES / data), *RATERS, "--coefficient", "cohen_kappa",
                   "--min", "0.6", *extra)


def test_check_record_and_against_history(tmp_path: Path) -> None:
    store = tmp_path / "project.db"
    for data in ("batch2.csv", "batch3.csv", "batch2.csv", "batch3.csv"):
        code, out, _ = _check("--record", str(store), "--against-history", data=data)
        assert code == 0, out
    assert "within the control limit from the first 3 batches" in out
    code, out, _ = _check("--record", str(store), "--against-history", "--json",
                          data="pilot.csv")
    got = json.loads(out)
    assert code == 1 and got["history"]["flagged"] is True and got["exit_status"] == 1
    assert "below the lower control limit" in got["history"]["reason"]
    runs = accord.history.store.Store(store).runs()
    assert len(runs) == 5 and runs[-1].decision == "rejected"
    assert runs[-1].figures[0].estimate == _kappa(BATCHES / "pilot.csv").estimate
    import hashlib

    assert runs[0].checksum == hashlib.sha256((BATCHES / "batch2.csv").read_bytes()).hexdigest()


def test_a_drift_alarm_has_its_own_word_and_exit_status(tmp_path: Path) -> None:
    """Accepted by the rule and flagged by the history: the line says DRIFT ALARM and the
    exit status is 3 (it once said ACCEPTED and exited 1)."""
    store = tmp_path / "project.db"
    for data in ("batch2.csv", "batch3.csv", "batch2.csv", "batch3.csv"):
        code, out, _ = _check("--record", str(store), "--against-history", data=data)
        assert code == 0, out
    lenient = ("--coefficient", "cohen_kappa", "--min", "0.0")
    code, out, _ = run_cli("check", str(BATCHES / "pilot.csv"), *RATERS, *lenient,
                           "--record", str(store), "--against-history")
    assert code == 3 and out.startswith("DRIFT ALARM: the rule accepts the batch")
    assert "ACCEPTED" not in out and "FLAGGED against history" in out
    code, out, _ = run_cli("check", str(BATCHES / "pilot.csv"), *RATERS, *lenient,
                           "--record", str(store), "--against-history", "--json")
    got = json.loads(out)
    assert code == 3 and got["exit_status"] == 3 and got["accepted"] is True
    assert got["results"][0]["line"].startswith("DRIFT ALARM")
    assert got["history"]["flagged"] is True


def test_check_record_refusals(tmp_path: Path) -> None:
    code, _, err = _check("--against-history")
    assert code == 2 and "--against-history needs --record" in err
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite" * 100)
    code, _, err = _check("--record", str(junk))
    assert code == 2 and err.count("\n") == 1 and "not an accord history store" in err
    assert junk.read_bytes() == b"not sqlite" * 100
    newer = tmp_path / "newer.db"
    _check("--record", str(newer))
    with sqlite3.connect(newer) as con:
        con.execute("UPDATE schema_version SET version = 99")
    code, _, err = run_cli("history", str(newer))
    assert code == 1 and "written by a newer accord" in err


def test_history_table_json_and_page(tmp_path: Path) -> None:
    store = ROOT / "examples" / "history.db"
    code, out, _ = run_cli("history", str(store))
    assert code == 0
    assert "support-triage: cohen_kappa, threshold 0.6" in out
    assert "flagged: run 8: cohen_kappa 0.6035 is below the lower control limit" in out
    code, out, _ = run_cli("history", str(store), "--json")
    got = json.loads(out)
    assert len(got["results"]) == 8 and got["charts"][0]["points"][-1]["flagged"] is True
    page = tmp_path / "h.html"
    code, _, _ = run_cli("history", str(store), "-o", str(page))
    text = page.read_text()
    assert code == 0 and "<svg" in text and "http" not in text.replace(
        "http-equiv", "").replace("http://www.w3.org", "")


def test_history_page_escapes_the_store(tmp_path: Path) -> None:
    from accord.history.store import Figure, Run, Store

    store = Store(tmp_path / "h.db")
    for t in range(5):
        store.record(Run(f"2026-01-0{t + 1}", "<script>alert(1)</script>",
                         (Figure("cohen_kappa", 0.8 - 0.2 * (t == 4), 0.03),),
                         source='"><img src=x onerror=alert(1)>', threshold=0.6))
    page = tmp_path / "h.html"
    code, _, _ = run_cli("history", str(tmp_path / "h.db"), "-o", str(page))
    text = page.read_text()
    assert code == 0 and "<script>" not in text and "<img" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and 'class="flagged"' in text


def test_history_study_filter() -> None:
    code, _, err = run_cli("history", str(ROOT / "examples" / "history.db"), "--study", "x")
    assert code == 2 and "no run of study 'x'" in err


def test_check_by_decides_each_group_and_records_each(tmp_path: Path) -> None:
    store = tmp_path / "p.db"
    code, out, err = run_cli("check", str(ROOT / "examples" / "batches.csv"), *RATERS,
                             "--coefficient", "cohen_kappa", "--min", "0.6", "--by", "batch",
                             "--record", str(store))
    assert code == 1, err  # the pilot is rejected
    lines = out.splitlines()
    assert lines[0].endswith("3 groups (one per value of 'batch'), each decided, and the "
                             "pooled data")
    assert lines[1].startswith("pilot: REJECTED: cohen_kappa estimate 0.4845 < 0.6")
    assert any(x.startswith("(pooled): ACCEPTED") for x in lines)
    runs = accord.history.store.Store(store).runs("")
    assert [r.source for r in runs] == [f"{ROOT / 'examples' / 'batches.csv'} (batch = {b})"
                                        for b in ("pilot", "batch2", "batch3")]
    assert runs[1].figures[0].estimate == pytest.approx(
        _kappa(BATCHES / "batch2.csv").estimate, abs=1e-15)
    code, out, _ = run_cli("check", str(BATCHES), *RATERS, "--coefficient", "cohen_kappa",
                           "--min", "0.4", "--by", "file", "--json")
    got = json.loads(out)
    assert code == 0 and got["accepted"] is True
    assert [g["group"] for g in got["results"]] == ["batch2.csv", "batch3.csv", "pilot.csv",
                                                    "(pooled)"]


def test_report_record_keeps_every_figure_and_the_decision(tmp_path: Path) -> None:
    store = tmp_path / "r.db"
    code, out, _ = run_cli("report", str(ROOT / "examples" / "pilot.csv"), "--study",
                           str(ROOT / "examples" / "study.toml"), "-q", "--record", str(store))
    assert code == 0 and out.strip() == f"recorded as run 1 in {store}"
    (run,) = accord.history.store.Store(store).runs()
    assert run.study == "Review spam pilot, batch 1" and run.decision == "rejected"
    kappa = run.figure("cohen_kappa")
    assert kappa is not None and kappa.low == pytest.approx(0.5946, abs=5e-5)
    assert len(run.figures) >= 3
    from accord.history.drift import charts

    assert [c.threshold for c in charts([run])].count(0.6) == 1  # the rule's coefficient only
