"""Roles decide the job, in every command and in the library.

One ordinary file (unit ids, a free comment, a reference, a model's labels and the
model's confidence, a probability) is read by every command that takes DATA: the
declared roles (``--gold``/``--predicted``, ``--raters``, ``--unit``, ``kinds=``) are
never overridden by a guess, and what is guessed follows one set of column rules
(:mod:`accord.data._columns`), the same for files and in-memory tables: the
confidence column, many distinct non-integer values, is left out of a nominal analysis
and said ("looks like scores or probabilities").
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import accord
from accord.data._columns import looks_like_scores, score_columns
from accord.errors import LayoutWarning
from tests.conftest import run_cli as run

SAID = "looks like scores or probabilities"


def mixed_csv(tmp_path: Path, n: int = 200) -> Path:
    """item_id, comment, gold, predicted, confidence (floats 0.4-0.99, 3 decimals)."""
    rng = np.random.default_rng(3)
    labels = np.array(["neg", "neu", "pos"])
    gold = rng.choice(labels, n)
    predicted = np.where(rng.random(n) < 0.75, gold, rng.choice(labels, n))
    confidence = np.round(rng.uniform(0.4, 0.99, n), 3)
    rows = ["item_id,comment,gold,predicted,confidence"]
    for i in range(n):
        comment = "looks fine" if i % 3 else "unsure: check the guideline again"
        rows.append(f"i{i},{comment},{gold[i]},{predicted[i]},{confidence[i]}")
    path = tmp_path / "preds.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _json(*args: str) -> dict:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


# ------------------------------------------------------------------ every command
def test_every_command_reads_the_roles_of_one_file(tmp_path: Path) -> None:
    """The raters are gold and predicted in every command; the confidence column is said."""
    f = str(mixed_csv(tmp_path))
    two = ["gold", "predicted"]
    computed = _json("compute", f)["results"][0]
    assert computed["n_raters"] == 2
    assert any(SAID in c and "'confidence'" in c for c in computed["caveats"])
    assert [r["name"] for r in _json("inspect", f)["results"][0]["raters"]] == two
    table = _json("table", f)
    assert table["results"][0]["raters"] == two and any(SAID in c for c in table["caveats"])
    assert sorted(_json("disagreements", f)["results"][0]["ratings"]) == two
    assert [a["name"] for a in _json("annotators", f)["results"]] == two
    assert _json("consensus", f)["n_units"] == 200
    assert _json("multilabel", f)["labels"] == ["neg", "neu", "pos"]
    (ev,) = _json("evaluate", f, "--gold", "gold", "--predicted", "predicted")["results"]
    assert (ev["reference"], ev["system"], ev["n_units"]) == ("gold", "predicted", 200)
    plain = _json("report", f)
    assert plain["job"]["kind"] == "raters" and plain["data"]["raters"] == two
    named = _json("report", f, "--gold", "gold", "--predicted", "predicted")
    assert named["job"]["kind"] == "reference"
    assert named["data"]["raters"] == two and named["data"]["kinds"] == ["gold", "model"]
    assert any(SAID in n for n in named["data"]["notes"])
    checked = _json("check", f, "--gold", "gold", "--predicted", "predicted",
                    "--coefficient", "cohen_kappa", "--min", "0.3")
    assert checked["raters"] == two and checked["results"][0]["status"] == "accepted"


def test_report_with_roles_is_a_model_card_not_three_raters(tmp_path: Path) -> None:
    """Before: 'Agreement between raters / 3 raters', confidence a rater of ~200
    categories and --predicted ignored."""
    f = mixed_csv(tmp_path)
    out = tmp_path / "card.md"
    code, _, err = run("report", str(f), "--gold", "gold", "--predicted", "predicted",
                       "-q", "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Model against reference")
    assert "3 raters" not in text and "'confidence' left out" in text


def test_a_declared_rater_is_never_left_out(tmp_path: Path) -> None:
    """A score column named as a rater (or given a kind) stays a rater."""
    f = mixed_csv(tmp_path)
    ann = accord.read(f, raters=["gold", "confidence"])
    assert ann.raters == ("gold", "confidence")
    ann = accord.read(f, kinds={"gold": "gold", "confidence": "model"})
    assert ann.raters == ("gold", "predicted", "confidence")


# ------------------------------------------------------------------ the library
def test_read_with_kinds_leaves_the_probabilities_out(tmp_path: Path) -> None:
    ann = accord.read(mixed_csv(tmp_path), kinds={"gold": "gold", "predicted": "model"})
    assert ann.raters == ("gold", "predicted")
    assert ann.kinds == {"gold": "gold", "predicted": "model"}
    assert any(SAID in c and "'confidence'" in c for c in ann.audit.caveats)


def test_a_frame_follows_the_same_rule_with_a_layout_warning(tmp_path: Path) -> None:
    import polars as pl

    frame = pl.read_csv(mixed_csv(tmp_path))
    with pytest.warns(LayoutWarning, match="'confidence' left out: looks like scores"):
        ann = accord.Annotations.from_wide(frame)
    assert ann.raters == ("gold", "predicted")


def test_a_table_of_scores_only_stays_a_table_of_scores(tmp_path: Path) -> None:
    """Every column fine scores (an ICC's data): none is left out."""
    rng = np.random.default_rng(0)
    x = np.round(rng.normal(5, 1, (30, 3)), 2)
    rows = ["item,r1,r2,r3", *(f"u{i},{a},{b},{c}" for i, (a, b, c) in enumerate(x))]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert accord.read(path, level="interval").raters == ("r1", "r2", "r3")
    assert accord.read(path).raters == ("r1", "r2", "r3")
    # with a stray column of batch numbers the scores are still the raters (the batch
    # column is taken too, and the layout is said to be guessed, as before)
    rows = ["item,week,r1,r2,r3", *(f"u{i},{i % 3},{a},{b},{c}"
                                    for i, (a, b, c) in enumerate(x))]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    ann = accord.read(path)
    assert ann.raters == ("week", "r1", "r2", "r3") and ann.audit.guessed_layout


def test_the_rule_counts() -> None:
    """Hand cases: 343 distinct fractions of 500 are scores; 9 half-point ratings (a 1-5
    scale) or 480 distinct integers are not; a table of scores alone keeps them."""
    assert looks_like_scores(500, 343, 500)
    assert not looks_like_scores(500, 9, 250)
    assert not looks_like_scores(500, 480, 0)
    assert score_columns({"p": (500, 343, 500)}, ["a", "p"], level="interval") == []
    assert score_columns({"p": (500, 343, 500)}, ["a", "p"]) == ["p"]


# ------------------------------------------------------------------ --unit with --raters
def _wide_with_batch(tmp_path: Path) -> Path:
    rng = np.random.default_rng(1)
    labels = np.array(["neg", "neu", "pos"])
    a = rng.choice(labels, 60)
    b = np.where(rng.random(60) < 0.7, a, rng.choice(labels, 60))
    rows = ["item,batch,ann1,ann2", *(f"u{i},{i % 3},{a[i]},{b[i]}" for i in range(60))]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_unit_and_raters_named_mean_a_wide_table_and_no_guess(tmp_path: Path) -> None:
    """Before: compute read 'batch' as a rater and said 'guessed layout ... name the
    rater columns with --raters A B' (they were named)."""
    f = str(_wide_with_batch(tmp_path))
    row = _json("compute", f, "--unit", "item", "--raters", "ann1", "ann2")["results"][0]
    assert row["caveats"] == [] and (row["n_raters"], row["n_units"]) == (2, 60)
    code, out, err = run("compute", f, "--unit", "item", "--raters", "ann1", "ann2")
    assert code == 0 and "guessed" not in out + err and "3 categories" in out
    code, out, err = run("check", f, "--unit", "item", "--raters", "ann1", "ann2",
                         "--coefficient", "cohen_kappa", "--min", "0.1")
    assert code == 0, err
    ann = accord.read(f, unit="item", raters=["ann1", "ann2"])
    assert ann.raters == ("ann1", "ann2") and not ann.audit.caveats


def test_unit_and_raters_on_a_long_table_select_raters(tmp_path: Path) -> None:
    """A long table (rater column found by its name): --raters selects among its raters."""
    path = tmp_path / "long.csv"
    path.write_text("unit,rater,value\n1,a,x\n1,b,x\n1,c,y\n2,a,y\n2,b,y\n2,c,y\n"
                    "3,a,x\n3,b,y\n", encoding="utf-8")
    ann = accord.read(path, unit="unit", raters=["a", "b"])
    assert ann.raters == ("a", "b") and ann.n_units == 3
    doc = _json("compute", str(path), "--unit", "unit", "--raters", "a", "b")
    assert doc["results"][0]["n_raters"] == 2


# ------------------------------------------------------------------ --judge
def judged_csv(tmp_path: Path, n: int = 120) -> Path:
    """item_id, comment, three humans, an LLM judge (gpt4) and the judge's confidence."""
    rng = np.random.default_rng(5)
    labels = np.array(["neg", "neu", "pos"])
    truth = rng.choice(labels, n)

    def rater(p: float) -> np.ndarray:
        return np.where(rng.random(n) < p, truth, rng.choice(labels, n))

    cols = {"ann_a": rater(0.8), "ann_b": rater(0.75), "ann_c": rater(0.8),
            "gpt4": rater(0.7)}
    confidence = np.round(rng.uniform(0.4, 0.99, n), 3)
    rows = ["item_id,comment,ann_a,ann_b,ann_c,gpt4,gpt4_confidence"]
    for i in range(n):
        comment = "fine" if i % 4 else "unsure: see the guideline"
        rows.append(f"i{i},{comment},{','.join(c[i] for c in cols.values())},{confidence[i]}")
    path = tmp_path / "judged.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_every_command_reads_the_judge_file_and_judge_is_a_declared_role(
        tmp_path: Path) -> None:
    """The four label columns are the raters everywhere; with --judge the job is the
    judge against the humans, and the judge is read as a rater of kind llm."""
    f = str(judged_csv(tmp_path))
    four = ["ann_a", "ann_b", "ann_c", "gpt4"]
    computed = _json("compute", f)["results"][0]
    assert computed["n_raters"] == 4
    assert any(SAID in c and "'gpt4_confidence'" in c for c in computed["caveats"])
    assert [r["name"] for r in _json("inspect", f)["results"][0]["raters"]] == four
    assert [a["name"] for a in _json("annotators", f)["results"]] == four
    judged = _json("report", f, "--judge", "gpt4")
    assert judged["job"]["kind"] == "judge" and judged["judge"]["judge"] == "gpt4"
    assert judged["data"]["raters"] == ["ann_a", "ann_b", "ann_c"]
    assert any(SAID in n for n in judged["data"]["notes"] + judged["caveats"])
    alt = _json("judge", "alt", f, "--judge", "gpt4")
    assert alt["alt_test"]["judge"] == "gpt4"
    assert alt["alt_test"]["humans"] == ["ann_a", "ann_b", "ann_c"]
    # the declared kind is the role: --kind gpt4=llm asks the same question as --judge
    kind = _json("report", f, "--kind", "gpt4=llm")
    assert kind["job"]["kind"] == "judge" and kind["judge"]["judge"] == "gpt4"


def test_judge_names_a_rater_and_holds_one_role(tmp_path: Path) -> None:
    """Before: an unknown --judge was bad data (exit 1) in report and judge alt, said by
    the alternative annotator test; a judge also named a human went through."""
    f = str(judged_csv(tmp_path))
    for command in (["report"], ["judge", "alt"]):
        code, _, err = run(*command, f, "--judge", "gpt5")
        assert code == 2 and "rater 'gpt5' not found; the raters are" in err
    code, _, err = run("judge", "alt", f, "--judge", "gpt4", "--humans", "gpt4", "ann_a")
    assert code == 2 and "named by both --judge and --humans" in err


def test_the_library_reads_the_judge_role_from_the_kinds(tmp_path: Path) -> None:
    """kinds={"gpt4": "llm"} declares the judge: accord.report answers the judge's job
    (before: agreement between four raters, the judge one of them)."""
    ann = accord.read(judged_csv(tmp_path), kinds={"gpt4": "llm"})
    assert ann.kinds["gpt4"] == "llm" and ann.raters == ("ann_a", "ann_b", "ann_c", "gpt4")
    rep = accord.report(ann, seed=1)
    assert rep.job is not None and rep.job.kind == "judge"
    assert rep.judge is not None and rep.judge.judge == "gpt4"
    assert rep.data.raters == ("ann_a", "ann_b", "ann_c")
    from accord.data._roles import resolve

    roles = resolve(judge="gpt4", humans=["ann_a", "ann_b"], kinds={"ann_c": "human"})
    assert roles.job == "judge" and roles.declared() == {
        "ann_c": "human", "gpt4": "llm", "ann_a": "human", "ann_b": "human"}
    assert resolve(gold="g", predicted=["m"]).job == "reference"
