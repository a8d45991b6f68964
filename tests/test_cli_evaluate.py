"""``accord evaluate`` and the classifier options of ``check`` and ``compute``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
PREDS = str(ROOT / "examples" / "preds.csv")
LS_EXPORT = str(Path(__file__).resolve().parent / "readers" / "data" / "label_studio_export.json")


def test_json_is_the_evaluation_to_dict() -> None:
    code, out, err = run("evaluate", PREDS, "--gold", "gold", "--predicted", "model", "--json")
    assert code == 0, err
    ann = accord.read(PREDS, raters=["gold", "model"])
    ev = accord.evaluate(ann, reference="gold", systems="model")
    expected = ev.to_dict(bootstrap=accord.Bootstrap(n_resamples=9999, rng=0))
    got = json.loads(out)
    assert (got.pop("schema_version"), got.pop("command")) == (3, "evaluate")
    assert got.pop("seed") == 0  # the bootstrap's seed, the default
    assert got == {"results": [json.loads(json.dumps(expected))]}
    assert got["results"][0]["n_unreferenced"] == 3


def test_several_systems_with_the_human_ceiling_and_mcnemar() -> None:
    code, out, err = run("evaluate", PREDS, "--gold", "gold", "--predicted", "model", "llm",
                         "--humans", "ann_a", "ann_b", "--n-resamples", "500")
    assert code == 0, err
    assert "confusion matrix (rows = reference, columns = predicted)" in out
    assert "model against gold: 397 units, 3 classes" in out
    assert "near the human ceiling on these 397 units" in out
    assert "clearly below the human annotators" in out
    assert "McNemar's exact test, model vs llm" in out
    assert "3 unit(s) without a reference label (from gold) were not evaluated" in out


def test_json_of_several_systems_has_mcnemar() -> None:
    code, out, err = run("evaluate", PREDS, "--gold", "gold", "--predicted", "model", "llm",
                         "--json", "--ci", "asymptotic")
    assert code == 0, err
    data = json.loads(out)
    assert [s["system"] for s in data["results"]] == ["model", "llm"]
    assert data["mcnemar"][0]["system_a"] == "model"
    assert data["results"][1]["macro"]["f1"]["confidence_interval"]["method"] == "asymptotic"


def test_an_export_uses_the_rater_kinds() -> None:
    """The Label Studio export marks ground truth (gold) and predictions (model); in this
    file they label different tasks, which is said in one line (exit 1)."""
    code, _, err = run("evaluate", LS_EXPORT, "--field", "sentiment")
    assert code == 1
    assert err.strip() == ("accord: error: no unit has both a label from the reference "
                           "'ground_truth' and one from 'sentiment-v2', so there is nothing "
                           "to evaluate.")


@pytest.mark.parametrize(("args", "code", "match"), [
    (("--gold", "nope", "--predicted", "model"), 1, "['nope'] not found"),
    (("--predicted", "model"), 2, "--predicted and --humans need --gold"),
    (("--gold", "gold"), 2, "--gold needs --predicted"),
    (("--gold", "gold", "--predicted", "model", "--raters", "ann_a"), 2, "not both"),
    ((), 2, "name the reference column with --gold"),
    (("--gold", "gold", "--predicted", "model", "--ceiling-figure", "f9",
      "--humans", "ann_a"), 2, "ceiling_figure"),
])
def test_bad_input_is_one_line(args: tuple[str, ...], code: int, match: str) -> None:
    got, _, err = run("evaluate", PREDS, *args)
    assert got == code
    assert match in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("minimum", "expected"), [("0.8", 1), ("0.7", 0)])
def test_check_f1_macro_on_the_lower_limit(minimum: str, expected: int) -> None:
    code, out, err = run("check", PREDS, "--gold", "gold", "--predicted", "model",
                         "--coefficient", "f1", "--average", "macro", "--min", minimum,
                         "--on", "lower-ci")
    assert code == expected, err
    assert out.startswith("REJECTED" if expected else "ACCEPTED")
    ann = accord.read(PREDS, raters=["gold", "model"])
    low = accord.f1(ann, average="macro").confidence_interval(0.95).low
    assert f"{low:.4f}" in out


def test_check_binary_f1_with_a_positive_class() -> None:
    code, out, _ = run("check", PREDS, "--gold", "gold", "--predicted", "model",
                       "--coefficient", "f1", "--positive", "spam", "--min", "0.5")
    assert code == 0 and "f1" in out


def test_compute_classifier_metrics_and_refused_options() -> None:
    code, out, err = run("compute", PREDS, "--gold", "gold", "--predicted", "model",
                         "--coefficient", "accuracy", "mcc", "--json")
    assert code == 0, err
    rows = {r["coefficient"]: r for r in json.loads(out)["results"]}
    ann = accord.read(PREDS, raters=["gold", "model"])
    assert rows["mcc"]["estimate"] == accord.mcc(ann).estimate
    code, _, err = run("compute", PREDS, "--gold", "gold", "--predicted", "model",
                       "--coefficient", "mcc", "--positive", "spam")
    assert code == 2 and "mcc does not take positive" in err


def test_a_study_declares_a_classifier_metric(tmp_path: Path) -> None:
    study = tmp_path / "study.toml"
    study.write_text('''title = "Spam classifier against the adjudicated labels"

[annotators]
names = ["gold", "model"]

[metric]
coefficient = "f1"
average = "macro"
positive = "spam"

[acceptance]
rule = "f1 >= 0.7"
''', encoding="utf-8")
    code, _, err = run("check", PREDS, "--raters", "gold", "model", "--study", str(study))
    assert code == 2 and "average" in err  # macro with a positive class is contradictory
    study.write_text(study.read_text(encoding="utf-8").replace('positive = "spam"\n', ""),
                     encoding="utf-8")
    code, out, err = run("check", PREDS, "--raters", "gold", "model", "--study", str(study))
    assert code == 0, err
    assert out.startswith("ACCEPTED: f1")
    loaded = accord.load_study(study)
    assert loaded.metric.average == "macro"
    assert "average macro" in loaded.metric.describe()
    bad = tmp_path / "bad.toml"
    bad.write_text(study.read_text(encoding="utf-8").replace('"macro"', '"mean"'),
                   encoding="utf-8")
    code, _, err = run("check", PREDS, "--raters", "gold", "model", "--study", str(bad))
    assert code == 2 and "[metric].average must be one of" in err


def test_kinds_select_the_raters_of_an_export_when_given() -> None:
    code, _, err = run("evaluate", LS_EXPORT, "--field", "sentiment", "--kinds", "human")
    assert code == 2 and "no rater is of kind gold" in err  # the gold rater was not read


def test_long_data_with_gold_and_predicted_raters(tmp_path: Path) -> None:
    import csv

    long = tmp_path / "long.csv"
    with open(PREDS, encoding="utf-8") as src, open(long, "w", newline="",
                                                     encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["item", "coder", "label"])
        for row in csv.DictReader(src):
            writer.writerows((row["item_id"], k, row[k]) for k in ("gold", "ann_a", "model"))
    code, out_text, err = run("evaluate", str(long), "--unit", "item", "--rater", "coder",
                              "--value", "label", "--gold", "gold", "--predicted", "model",
                              "--json", "--ci", "asymptotic")
    assert code == 0, err
    wide = accord.evaluate(accord.read(PREDS, raters=["gold", "model"]), reference="gold",
                           systems="model")
    (got,) = json.loads(out_text)["results"]
    assert got["macro"]["f1"]["estimate"] == wide.macro.f1.estimate
