"""``accord consensus`` and ``accord annotators``: the CLI passes the options through
to accord.consensus / accord.annotators (checked in test_annotators*.py) and says the
result in words; the CSV is written atomically."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import accord
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]
CROWD = ROOT / "examples" / "crowd.csv"
LONG = ("--unit", "image", "--rater", "worker", "--value", "label")


def test_consensus_writes_the_csv_of_the_library(tmp_path: Path) -> None:
    out = tmp_path / "labels.csv"
    code, text, err = run("consensus", str(CROWD), *LONG, "--method", "dawid_skene",
                          "-o", str(out))
    assert code == 0, err
    assert "dawid_skene: 150 units labelled" in text
    with out.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["image", "label", "posterior", "n_ratings"]  # the --unit name
    lib = accord.consensus(accord.read(CROWD, unit="image", rater="worker", value="label"))
    assert [(r["image"], r["label"], float(r["posterior"]), int(r["n_ratings"]))
            for r in rows] == [(r["unit"], r["label"], r["posterior"], r["n_ratings"])
                               for r in lib.rows()]


def test_consensus_json() -> None:
    code, text, err = run("consensus", str(CROWD), *LONG, "--method", "majority", "--json")
    assert code == 0, err
    got = json.loads(text)
    assert got["method"] == "majority" and got["n_units"] == 150


def test_annotators_flags_the_careless_workers() -> None:
    code, text, err = run("annotators", str(CROWD), *LONG, "--gold", "expert")
    assert code == 0, err
    assert "Accuracy against the reference" in text
    assert "check: w08 matches the reference" in text and "check: w07" in text
    code, text, err = run("annotators", str(CROWD), *LONG, "--gold", "expert", "--json")
    got = json.loads(text)
    assert sorted(got["flagged"]) == ["w07", "w08"] and got["against"] == "reference"


def test_a_flag_s_bootstrap_interval_is_the_accuracy_s_interval_in_the_json() -> None:
    """With --interval bootstrap the console says the flagged annotators' accuracy
    interval in their sentence: the JSON has the same interval, the others Wilson's."""
    args = ("annotators", str(CROWD), *LONG, "--interval", "bootstrap", "--n-resamples",
            "200", "--seed", "1")
    code, text, err = run(*args, "--json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(text)["results"]}
    lib = accord.annotators(accord.read(CROWD, unit="image", rater="worker", value="label"),
                            n_resamples=200, rng=1)
    boot = lib["w08"].accuracy.confidence_interval(method=accord.Bootstrap(n_resamples=200,
                                                                           rng=1))
    ci = rows["w08"]["accuracy"]["confidence_interval"]
    assert (ci["low"], ci["high"], ci["method"]) == (boot.low, boot.high, "bootstrap-percentile")
    assert rows["w01"]["accuracy"]["confidence_interval"]["method"] == "wilson"
    code, text, _ = run(*args)
    assert f"bootstrap CI {boot.low:.0%}-{boot.high:.0%}" in text


def test_bad_usage_and_bad_data() -> None:
    code, _, err = run("consensus", str(CROWD), *LONG, "--method", "em")
    assert code == 2
    code, _, err = run("annotators", str(CROWD), *LONG, "--gold", "nobody")
    assert code == 1 and "nobody" in err and "Traceback" not in err
    code, _, err = run("consensus", str(ROOT / "examples" / "scores.csv"), "--level", "interval")
    assert code == 1 and "numeric scores" in err


def test_consensus_of_numeric_scores_writes_the_library_s_scores(tmp_path: Path) -> None:
    data = str(ROOT / "examples" / "scores.csv")
    out = tmp_path / "scores.csv"
    code, stdout, err = run("consensus", data, "--unit", "item_id", "--method", "gaussian",
                            "-o", str(out))
    assert code == 0, err
    lib = accord.score_consensus(accord.read(data, unit="item_id"), method="gaussian",
                                 tol=1e-7)
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["item_id"] for r in rows] == list(lib.units)
    assert [float(r["score"]) for r in rows] == lib.estimates.tolist()
    assert [float(r["se"]) for r in rows] == lib.se.tolist()
    assert lib.sentence() in " ".join(stdout.split())
    code, stdout, err = run("consensus", data, "--unit", "item_id", "--method", "median",
                            "--json")
    assert code == 0, err
    got = json.loads(stdout)
    assert got["method"] == "median" and len(got["annotators"]) == 3
    code, _, err = run("consensus", str(ROOT / "examples" / "crowd.csv"), "--unit", "image",
                       "--rater", "worker", "--value", "label", "--method", "mean")
    assert code == 1 and "needs numeric scores" in err and "Traceback" not in err
    assert "--method mean needs" in err and "--method majority" in err  # the CLI's words


MODEL = ROOT / "examples" / "crowd_model.csv"


def test_consensus_with_a_model_is_the_library_s(tmp_path: Path) -> None:
    import polars as pl

    code, text, err = run("consensus", str(CROWD), *LONG, "--model", str(MODEL), "--json")
    assert code == 0, err
    got = json.loads(text)
    ann = accord.read(CROWD, unit="image", rater="worker", value="label")
    lib = accord.consensus(ann, model=pl.read_csv(MODEL))
    assert lib.model is not None
    assert got["model"]["accuracy"]["estimate"] == lib.model.accuracy.estimate
    assert (got["model"]["weight"], got["model"]["crowd_weight"]) == (
        lib.model.weight, lib.model.crowd_weight)
    assert [r["label"] for r in got["results"]] == [r["label"] for r in lib.rows()]
    code, text, err = run("consensus", str(CROWD), *LONG, "--model", str(MODEL))
    assert code == 0, err
    assert (f"model: one more annotator (soft vote) on 150 units, the weight of its vote "
            f"{lib.model.weight:.3f} (the median annotator's {lib.model.crowd_weight:.3f}); "
            "estimated accuracy") in text
    # the unit column may carry the --unit name or come first under any name
    renamed = tmp_path / "model.csv"
    renamed.write_text(MODEL.read_text(encoding="utf-8").replace("unit,", "image,", 1),
                       encoding="utf-8")
    code, again, err = run("consensus", str(CROWD), *LONG, "--model", str(renamed))
    assert code == 0, err
    assert again.splitlines()[0] == (f"model: {renamed} holds class probabilities, one "
                                     "column per label (3 columns).")
    assert again.splitlines()[1:] == text.splitlines()[1:]


def test_consensus_model_errors_are_one_line() -> None:
    code, _, err = run("consensus", str(CROWD), *LONG, "--model", str(MODEL), "--method", "glad")
    assert code == 2 and "--method glad takes no model" in err
    code, _, err = run("consensus", str(CROWD), *LONG, "--model", str(CROWD))
    assert code == 1
    assert "the model's columns 'worker', 'label' are not among the crowd's categories" in err
    code, _, err = run("consensus", str(CROWD), *LONG, "--model", str(MODEL), "--method", "mean")
    assert code == 2 and "--model takes class probabilities" in err


def _top_label_model(tmp_path: Path) -> tuple[Path, dict[str, tuple[str, float]]]:
    """The example model's top label and its top probability per unit, as a file."""
    import polars as pl

    probs = pl.read_csv(MODEL)
    labels = ["cat", "dog", "other"]
    pairs = {}
    for row in probs.iter_rows(named=True):
        best = max(labels, key=lambda c: row[c])
        pairs[row["unit"]] = (best, float(row[best]))
    path = tmp_path / "top.csv"
    path.write_text("unit,label,confidence\n" + "".join(
        f"{u},{lab},{c!r}\n" for u, (lab, c) in pairs.items()), encoding="utf-8")
    return path, pairs


def test_consensus_reads_a_top_label_and_confidence_file(tmp_path: Path) -> None:
    path, pairs = _top_label_model(tmp_path)
    ann = accord.read(CROWD, unit="image", rater="worker", value="label")
    for method in ("dawid_skene", "majority"):
        code, text, err = run("consensus", str(CROWD), *LONG, "--model", str(path),
                              "--method", method, "--json")
        assert code == 0, err
        got = json.loads(text)
        lib = accord.consensus(ann, method=method, model=pairs)  # type: ignore[arg-type]
        assert [r["label"] for r in got["results"]] == [r["label"] for r in lib.rows()]
        assert got["notes"] == list(lib.notes)
        assert any(n.startswith("The model gave a top label and its confidence c per unit")
                   for n in got["notes"])
    code, text, err = run("consensus", str(CROWD), *LONG, "--model", str(path))
    assert code == 0, err
    assert text.splitlines()[0] == (
        f"model: {path} holds a top label and its confidence c per unit, read as c on the "
        "label and (1 - c) / (k - 1) on each of the k - 1 other categories (an assumption).")
    code, text, err = run("consensus", str(CROWD), *LONG, "--model", str(MODEL))
    assert text.splitlines()[0] == (f"model: {MODEL} holds class probabilities, one column "
                                    "per label (3 columns).")
    code, text, err = run("annotators", str(CROWD), *LONG, "--model", str(path))
    assert code == 0 and text.splitlines()[0].startswith(f"model: {path} holds a top label")


def test_consensus_takes_the_model_from_columns_of_data(tmp_path: Path) -> None:
    path, pairs = _top_label_model(tmp_path)
    rows = list(csv.reader(CROWD.read_text(encoding="utf-8").splitlines()))
    data = tmp_path / "crowd_with_model.csv"
    with data.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow([*rows[0], "model_label", "model_conf"])
        for r in rows[1:]:
            w.writerow([*r, *pairs[r[0]]])
    code, text, err = run("consensus", str(data), *LONG, "--model", "model_label,model_conf",
                          "--json")
    assert code == 0, err
    code2, from_file, err2 = run("consensus", str(CROWD), *LONG, "--model", str(path),
                                 "--json")
    assert code2 == 0, err2
    got, want = json.loads(text), json.loads(from_file)
    assert got["results"] == want["results"] and got["model"] == want["model"]
    code, text, err = run("consensus", str(data), *LONG, "--model", "model_label,model_conf")
    assert code == 0 and text.splitlines()[0] == (
        "model: DATA's columns 'model_label' and 'model_conf' hold a top label and its "
        "confidence c per unit, read as c on the label and (1 - c) / (k - 1) on each of the "
        "k - 1 other categories (an assumption).")
    # one unit's rows disagree
    lines = data.read_text(encoding="utf-8").splitlines()
    first = next(i for i, x in enumerate(lines) if x.startswith("img001,"))
    lines[first] = lines[first].rsplit(",", 1)[0] + ",0.123"
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run("consensus", str(bad), *LONG, "--model", "model_label,model_conf")
    assert code == 1 and "Traceback" not in err
    assert ("the rows of unit 'img001' give different model outputs; give each unit one "
            "label and one confidence") in err
    code, _, err = run("consensus", str(data), *LONG, "--model", "model_label,nope")
    assert code == 1 and "DATA has no column 'nope'" in err
    code, _, err = run("consensus", str(data), *LONG, "--model", "no_such_file.csv")
    assert code == 1 and ("--model no_such_file.csv: no such file; to take the model from "
                          "DATA's own columns give two") in err


def test_consensus_top_label_file_errors_are_one_line(tmp_path: Path) -> None:
    for body, message in [
        ("unit,label,confidence\nimg001,dog,1.5\n",
         "the model's confidence of unit 'img001' is 1.5; a confidence is the probability of "
         "its label, a number from 0 to 1."),
        ("unit,label,confidence\nimg001,dog,\n", "the model's confidence of unit 'img001' is"),
        ("unit,label,confidence\nimg001,horse,0.8\n",
         "the model's label 'horse' of unit 'img001' is not among the crowd's categories"),
        ("unit,label,confidence\nimg001,dog,0.8\nimg001,cat,0.7\n",
         "the model scores the unit 'img001' twice"),
    ]:
        path = tmp_path / "m.csv"
        path.write_text(body, encoding="utf-8")
        code, out, err = run("consensus", str(CROWD), *LONG, "--model", str(path))
        assert code == 1 and out == "" and "Traceback" not in err
        assert message in err, err


def test_consensus_majority_with_a_model_breaks_ties_only() -> None:
    code, text, err = run("consensus", str(CROWD), *LONG, "--model", str(MODEL),
                          "--method", "majority", "--json")
    assert code == 0, err
    got = json.loads(text)
    alone = json.loads(run("consensus", str(CROWD), *LONG, "--method", "majority",
                           "--json")[1])
    mine = {r["unit"]: r for r in alone["results"]}
    assert got["model"]["vote"] == "tie-break" and got["model"]["weight"] is None
    assert got["n_tied"] == alone["n_tied"] > 0
    for r in got["results"]:
        if not r["tied"]:
            assert r["label"] == mine[r["unit"]]["label"]
    code, text, err = run("consensus", str(CROWD), *LONG, "--model", str(MODEL),
                          "--method", "majority")
    assert "model: breaks the crowd's ties only on the 150 units it scored" in text


def test_consensus_relabel_and_quality_are_the_library_s() -> None:
    code, text, err = run("consensus", str(CROWD), *LONG, "--method", "majority",
                          "--tie-break", "quality", "--relabel", "3", "--json")
    assert code == 0, err
    got = json.loads(text)
    ann = accord.read(CROWD, unit="image", rater="worker", value="label")
    lib = accord.consensus(ann, method="majority", tie_break="quality")
    scores = dict(zip(lib.quality.units, lib.quality.consensus.tolist()))
    assert got["quality_estimate"] == "one-coin posterior of the majority label"
    assert all(r["quality"] == scores[r["unit"]] for r in got["results"])
    assert [r["label"] for r in got["results"]] == [r["label"] for r in lib.rows()]
    assert got["relabel"]["score"] == lib.relabel(3).score == (
        "vote change probability (tied units first), then expected information gain")
    assert [r["unit"] for r in got["relabel"]["results"]] == list(lib.relabel(3).units)
    assert [r["p_change"] for r in got["relabel"]["results"]] == list(lib.relabel(3).p_change)
    code, text, err = run("consensus", str(CROWD), *LONG, "--relabel", "2")
    assert code == 0, err
    assert "Relabel these first (by expected information gain" in text
    assert "quality: the fitted posterior of the consensus label" in text
    code, _, err = run("consensus", str(CROWD), *LONG, "--tie-break", "quality")
    assert code == 2 and ("--tie-break quality applies to 'majority' and 'wawa'; "
                          "--method dawid_skene breaks no tie") in err
    code, _, err = run("consensus", str(CROWD), *LONG, "--relabel", "0")
    assert code == 2


def test_annotators_lists_the_model_with_its_estimated_accuracy() -> None:
    import polars as pl

    code, text, err = run("annotators", str(CROWD), *LONG, "--model", str(MODEL), "--json")
    assert code == 0, err
    got = json.loads(text)
    ann = accord.read(CROWD, unit="image", rater="worker", value="label")
    lib = accord.annotators(ann, model=pl.read_csv(MODEL))
    voice = lib.consensus.model
    assert voice is not None and voice.n_units == 150
    assert got["model"]["accuracy"]["estimate"] == voice.accuracy.estimate
    ci = voice.accuracy.confidence_interval()
    assert got["model"]["accuracy"]["confidence_interval"]["low"] == ci.low
    # the model is the consensus's: the same as accord.consensus(..., model=)
    alone = accord.consensus(ann, model=pl.read_csv(MODEL))
    assert alone.model is not None and alone.model.accuracy.estimate == voice.accuracy.estimate
    code, text, err = run("annotators", str(CROWD), *LONG, "--model", str(MODEL))
    assert code == 0, err
    assert "(model)" in text and "one more annotator of the consensus (soft vote)" in text
    code, _, err = run("annotators", str(CROWD), *LONG, "--model", str(MODEL),
                       "--method", "glad")
    assert code == 2 and "takes no model" in err
