"""The report's JSON speaks the current schema version, the vocabulary of every
command's ``--json`` and of ``AgreementResult.to_dict()``; the history store reads runs
recorded with the older keys under the new ones."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import accord
from accord.history.legacy_keys import upgrade_register
from accord.history.store import Store
from accord.report.json import schema
from tests.conftest import run_cli
from tests.test_cli_json import RETIRED, _keys

EX = Path(__file__).resolve().parents[1] / "examples"
def _cli_schema(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        files("accord.cli").joinpath("schemas", f"{name}.json").read_text(encoding="utf-8"))
    return doc


def _validate(doc: Any, against: dict[str, Any]) -> None:
    jsonschema.validate(doc, against, cls=jsonschema.Draft202012Validator)


#: Report runs that fill each optional section: study and bootstrap, a reference, spans,
#: label sets, the judge lab (a pairwise-preference file).
REPORTS: dict[str, tuple[str, ...]] = {
    "study": (f"{EX}/pilot.csv", "--study", f"{EX}/study.toml", "--ci", "bootstrap",
              "--n-resamples", "200", "--seed", "1"),
    "reference": (f"{EX}/preds.csv", "--gold", "gold", "--predicted", "model",
                  "--n-resamples", "200", "--seed", "1"),
    "spans": (f"{EX}/ner_spans.csv", "--unit", "doc", "--rater", "annotator", "--label",
              "label", "--start", "start", "--end", "end", "--n-resamples", "200",
              "--seed", "1"),
    "multilabel": (f"{EX}/toxicity_multilabel.csv", "--separator", ";"),
    "judge_lab": (f"{EX}/alpaca_eval_slice.json", "--family", "gpt4"),
}


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_report_json_and_to_json_validate_and_speak_the_schema_version(name: str) -> None:
    code, out, err = run_cli("report", *REPORTS[name], "--json")
    assert code == 0, err
    doc = json.loads(out)
    _validate(doc, _cli_schema("report"))
    assert (doc["schema_version"], doc["command"]) == (3, "report")
    assert doc[name if name != "study" else "bootstrap"] is not None
    code, out, err = run_cli("report", *REPORTS[name], "-o", "-", "--to", "json")
    assert code == 0, err
    written = json.loads(out)
    _validate(written, schema())
    assert written["schema_version"] == 3
    assert written == {k: v for k, v in doc.items() if k != "command"}
    assert not RETIRED & _keys(doc), sorted(RETIRED & _keys(doc))


def test_the_judge_section_keeps_to_the_shared_keys() -> None:
    ann = accord.read(EX / "judge.csv", raters=["gpt4", "ann_a", "ann_b", "ann_c"],
                      missing=["ERROR"], kinds={"gpt4": "llm"})
    doc = json.loads(accord.report(ann, judge="gpt4", seed=1).to_json())
    _validate(doc, schema())
    assert "judge" in doc and not RETIRED & _keys(doc)


def test_report_rows_use_the_keys_and_figures_of_to_dict() -> None:
    import krippendorff
    import numpy as np
    import polars as pl
    from sklearn.metrics import cohen_kappa_score

    ann = accord.read(EX / "pilot.csv")
    rows = {r["coefficient"]: r for r in json.loads(accord.report(ann).to_json())
            ["results"]}
    for name in ("fleiss_kappa", "krippendorff_alpha"):
        lib = getattr(accord, name)(ann).to_dict()
        shared = {k: v for k, v in lib.items() if k.startswith(("observed_", "expected_"))}
        assert shared and {k: rows[name][k] for k in shared} == shared, name
        assert rows[name]["estimate"] == lib["estimate"]
    kappa, alpha = rows["fleiss_kappa"], rows["krippendorff_alpha"]
    assert "observed_disagreement" not in kappa and "observed_agreement" not in alpha
    # kappa = (p_o - p_e) / (1 - p_e), alpha = 1 - D_o / D_e; alpha against the
    # krippendorff package on the same data
    po, pe = kappa["observed_agreement"], kappa["expected_agreement"]
    assert kappa["estimate"] == pytest.approx((po - pe) / (1 - pe), abs=1e-12)
    assert alpha["estimate"] == pytest.approx(
        1 - alpha["observed_disagreement"] / alpha["expected_disagreement"], abs=1e-12)
    df = pl.read_csv(EX / "pilot.csv", null_values=["NA"])
    cols = ["annotator_a", "annotator_b", "annotator_c"]
    codes = {c: i for i, c in enumerate(sorted({x for c in cols for x in df[c].drop_nulls()}))}
    data = np.array([[np.nan if x is None else codes[x] for x in df[c]] for c in cols])
    assert alpha["estimate"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"), abs=1e-12)
    # two raters: Cohen's kappa row against scikit-learn, p_o and p_e under their names
    pair = json.loads(accord.report(accord.read(EX / "pilot.csv", raters=cols[:2]))
                      .to_json())
    cohen = next(r for r in pair["results"] if r["coefficient"] == "cohen_kappa")
    both = df.drop_nulls(cols[:2])
    assert cohen["estimate"] == pytest.approx(cohen_kappa_score(
        both[cols[0]].to_list(), both[cols[1]].to_list()), abs=1e-12)
    po, pe = cohen["observed_agreement"], cohen["expected_agreement"]
    assert cohen["estimate"] == pytest.approx((po - pe) / (1 - pe), abs=1e-12)


def test_interpretation_names_its_limits_confidence_interval() -> None:
    res = accord.cohen_kappa(list("aabbabab"), list("aabbbbab"))
    ci = res.confidence_interval(0.9)
    doc = accord.interpret(res, confidence_level=0.9, interval=ci).to_dict()
    assert "interval" not in doc
    assert doc["confidence_interval"] == {"low": ci.low, "high": ci.high,
                                          "confidence_level": 0.9, "method": ci.method}
    assert ci.method == "asymptotic"
    assert accord.interpret(0.5).to_dict()["confidence_interval"] is None


def test_a_store_recorded_with_the_old_keys_is_read_with_the_new_ones(tmp_path: Path) -> None:
    store = tmp_path / "history.db"
    shutil.copy(EX / "history.db", store)  # recorded before schema version 2
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    with sqlite3.connect(store) as con:
        raw = [json.loads(r[0]) for r in con.execute("SELECT register FROM runs ORDER BY id")]
    assert all({"observed", "expected"} <= set(r["result"]) for r in raw)
    runs = sorted(Store(store).runs(), key=lambda r: r.id or 0)
    assert len(runs) == len(raw) == 8
    for run, old in zip(runs, raw):
        new = run.register["result"]
        assert new["coefficient"] == "cohen_kappa" and not RETIRED & _keys(run.register)
        assert (new["observed_agreement"], new["expected_agreement"]) == (
            old["result"]["observed"], old["result"]["expected"])
        assert new["estimate"] == old["result"]["estimate"]
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before  # never rewritten
    code, out, err = run_cli("history", str(store), "--json")
    assert code == 0, err
    doc = json.loads(out)
    _validate(doc, _cli_schema("history"))
    assert not RETIRED & _keys(doc)


def test_old_register_keys_are_renamed_by_family_and_new_ones_kept() -> None:
    old = {"decision": {"status": "accepted", "interval": {
               "low": 0.5, "high": 0.7, "confidence_level": 0.95, "method": "asymptotic"}},
           "result": {"coefficient": "krippendorff_alpha", "estimate": 0.6, "observed": 0.2,
                      "expected": 0.5, "details": {}},
           "interpretation": {"band": "moderate", "interval": [0.5, 0.7],
                              "confidence_level": 0.95}}
    new = upgrade_register(old)
    assert new["decision"]["confidence_interval"] == old["decision"]["interval"]
    assert (new["result"]["observed_disagreement"], new["result"]["expected_disagreement"]) \
        == (0.2, 0.5)
    assert new["interpretation"]["confidence_interval"] == {
        "low": 0.5, "high": 0.7, "confidence_level": 0.95}
    assert not RETIRED & _keys(new)
    assert upgrade_register(new) == new
    # a run recorded today round-trips unchanged; a register sentence is left alone
    today = {"result": accord.cohen_kappa(list("aabb"), list("abab")).to_dict(),
             "caveats": ["observed"], "per_annotator": None}
    assert upgrade_register(today) == today


def test_history_records_and_reads_the_report_with_the_new_keys(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    code, _, err = run_cli("report", f"{EX}/pilot.csv", "--study", f"{EX}/study.toml",
                           "--record", str(store), "-o", str(tmp_path / "r.json"))
    assert code == 0, err
    (run,) = Store(store).runs()
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    primary = next(c for c in report["results"]
                   if c["coefficient"] == run.register["decision"]["rule"]["coefficient"])
    assert run.register["decision"]["confidence_interval"]["low"] == \
        primary["confidence_interval"]["low"]
    assert not RETIRED & _keys(run.register)


def test_labels_named_like_the_old_keys_stay_labels() -> None:
    a, b = ["p_o", "observed", "ci_low", "ci_high"] * 3, ["p_o", "observed", "ci_high",
                                                          "ci_low"] * 3
    doc = json.loads(accord.report(accord.Annotations.from_pairs(a, b)).to_json())
    _validate(doc, schema())
    assert [c["category"] for c in doc["pairs"][0]["categories"]] == sorted(set(a))
    assert doc["pairs"][0]["worksheet"]["categories"] == sorted(set(a))
    assert not RETIRED & _keys(doc)
