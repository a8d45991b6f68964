"""``accord evaluate`` on a box table: the figures, their intervals and the human ceiling."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
MODEL = str(ROOT / "examples" / "boxes_model.csv")
FAST = ("--n-resamples", "199")


def _without(tmp_path: Path, *who: str) -> str:
    """examples/boxes_model.csv without the rows of ``who``."""
    with open(MODEL, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    path = tmp_path / "boxes.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([rows[0], *(r for r in rows[1:] if r[1] not in who)])
    return str(path)


def test_console_shows_the_figures_the_intervals_and_the_ceiling() -> None:
    code, out, err = run("evaluate", MODEL, "--gold", "gold", "--predicted", "detector",
                         "--score", "score", *FAST)
    assert code == 0, err
    assert "detector against gold: 20 images, IoU 0.5" in out
    for text in ("precision", "recall", "AP50", "AP75", "95% CI", "per label", "bicycle",
                 "human ceiling: f1 against the same reference, on 20 images",
                 "system - human (95% CI)", "humans pairwise (F1)",
                 "detector's f1 (0.71, 95% CI", "clearly below the human annotators"):
        assert text in out, text
    res = accord.evaluate_boxes(MODEL, reference="gold", system="detector", score="score",
                                n_resamples=199)
    assert f"{res.f1.estimate:.4f}" in out and f"{res.ap50.estimate:.4f}" in out
    assert res.ceiling is not None
    assert f"{res.ceiling.humans['ann'].estimate:.4f}" in out


def test_json_is_evaluate_boxes_to_dict() -> None:
    code, out, err = run("evaluate", MODEL, "--gold", "gold", "--predicted", "detector",
                         "--score", "score", "--iou", "0.6", "--json", *FAST, "--seed", "4")
    assert code == 0, err
    got = json.loads(out)
    res = accord.evaluate_boxes(MODEL, reference="gold", system="detector", score="score",
                                iou_threshold=0.6, n_resamples=199, rng=4)
    assert got["results"] == [json.loads(json.dumps(res.to_dict()))]
    assert (got["command"], got["reference"], got["humans"], got["seed"]) == (
        "evaluate", "gold", ["ann", "bob"], 4)
    assert got["results"][0]["f1"]["iou_threshold"] == 0.6
    ceiling = got["results"][0]["ceiling"]
    assert ceiling["figure"] == "f1" and set(ceiling["humans"]) == {"ann", "bob"}
    import jsonschema

    from tests.test_cli_json import _schema

    jsonschema.validate(got, _schema("evaluate"))


def test_box_tables_are_recognised_by_their_columns_and_take_the_ceiling_options() -> None:
    code, out, err = run("evaluate", MODEL, "--gold", "gold", "--predicted", "detector",
                         "--humans", "bob", "--ceiling-figure", "recall", "--json", *FAST)
    assert code == 0, err
    res = json.loads(out)["results"][0]
    assert res["ap"] is None  # no --score: no AP
    assert res["ceiling"]["figure"] == "recall" and list(res["ceiling"]["humans"]) == ["bob"]
    assert res["ceiling"]["system_result"] == {k: x for k, x in res["recall"].items()
                                               if k not in ("confidence_interval",
                                                            "iou_threshold")}
    # two systems: an annotator evaluated as a system is not its own human
    code, out, err = run("evaluate", MODEL, "--gold", "gold", "--predicted", "detector", "bob",
                         "--json", *FAST)
    assert code == 0, err
    rows = json.loads(out)["results"]
    assert [r["system"] for r in rows] == ["detector", "bob"]
    assert [list(r["ceiling"]["humans"]) for r in rows] == [["ann"], ["ann"]]


def test_no_human_is_said_not_an_error(tmp_path: Path) -> None:
    path = _without(tmp_path, "ann", "bob")
    code, out, err = run("evaluate", path, "--gold", "gold", "--predicted", "detector",
                         "--score", "score", *FAST)
    assert code == 0, err
    assert "no human ceiling: the table holds no human annotator besides the reference" in out
    code, out, err = run("evaluate", path, "--gold", "gold", "--predicted", "detector",
                         "--json", *FAST)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["results"][0]["ceiling"] is None and doc["humans"] == []
    assert doc["notes"][0].startswith("no human ceiling")
    # asked for (--ceiling-figure), it is an error that says why
    code, out, err = run("evaluate", path, "--gold", "gold", "--predicted", "detector",
                         "--ceiling-figure", "f1", *FAST)
    assert code == 2 and "asks for a human ceiling" in err and "--humans" in err


def test_a_scored_annotator_is_a_model_not_a_human(tmp_path: Path) -> None:
    with open(MODEL, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    twin = [[r[0], "detector2", *r[2:]] for r in rows[1:] if r[1] == "detector"]
    path = tmp_path / "two_models.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([*rows, *twin])
    code, out, err = run("evaluate", str(path), "--gold", "gold", "--predicted", "detector",
                         "--score", "score", *FAST)
    assert code == 0, err
    assert "human ceiling: ann, bob (detector2 drew scored boxes, taken as a model, left out)" \
        in out


@pytest.mark.parametrize(("args", "words", "status"), [
    (("--gold", "carl", "--predicted", "detector"), "--gold: ['carl'] not in the 'annotator' "
     "column", 1),
    (("--gold", "gold", "--predicted", "robot"), "--predicted: ['robot'] not in", 1),
    (("--gold", "gold", "--predicted", "detector", "--humans", "zoe"), "--humans: ['zoe']", 1),
    (("--gold", "gold", "--predicted", "bob", "--score", "score"), "has no score", 1),
    (("--gold", "gold", "--predicted", "detector", "--humans", "detector"), "also named by", 2),
    (("--gold", "gold", "--predicted", "gold"), "is the reference", 2),
    (("--gold", "gold", "--predicted", "detector", "--positive", "car"),
     "--positive do(es) not apply to a box table", 2),
    (("--gold", "gold", "--predicted", "detector", "--ci", "asymptotic"),
     "--ci asymptotic do(es) not apply", 2),
    (("--gold", "gold", "--predicted", "detector", "--ceiling-figure", "ap"),
     "--ceiling-figure for boxes is one of f1, precision, recall", 2),
    (("--predicted", "detector"), "needs the reference annotator named with --gold", 2),
])
def test_bad_box_input_is_one_sentence(args: tuple[str, ...], words: str, status: int) -> None:
    """A name the table does not hold is bad data (exit 1), as for labels; a role named
    twice or an option that does not apply is bad usage (exit 2)."""
    code, out, err = run("evaluate", MODEL, *args, *FAST)
    assert "Traceback" not in out + err
    assert (code, words in err) == (status, True), err


def test_box_options_on_a_label_table_say_what_is_missing() -> None:
    code, out, err = run("evaluate", str(ROOT / "examples" / "preds.csv"), "--gold", "gold",
                         "--predicted", "model", "--iou", "0.5")
    assert code != 0 and "Traceback" not in out + err
    assert code == 1 and "read as a box table" in err and "column 'image' not found" in err


def test_label_tables_are_untouched() -> None:
    code, out, err = run("evaluate", str(ROOT / "examples" / "preds.csv"), "--gold", "gold",
                         "--predicted", "model", "--json")
    assert code == 0, err
    assert "confusion_matrix" in json.loads(out)["results"][0]


def test_what_was_read_is_said(tmp_path: Path) -> None:
    path = tmp_path / "seen.csv"
    path.write_text("image,annotator,label,x,y,w,h\n"
                    "a,gold,cat,0,0,10,10\na,model,cat,1,0,10,10\nb,gold,,,,,\n"
                    "b,model,dog,5,5,4,4\n", encoding="utf-8")
    code, out, err = run("evaluate", str(path), "--gold", "gold", "--predicted", "model",
                         *FAST)
    assert code == 0, err
    assert ("read 4 rows: 3 boxes on 2 images, 1 rows saying an image was seen with no box"
            in out)
    assert "model against gold: 2 images" in out and "no human ceiling" in out
