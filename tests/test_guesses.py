"""Nothing is guessed silently into a number.

Each case builds a file of a shape that was once read wrong with exit 0 (free
text taken as raters; a long JSON Lines file unpivoted as wide; continuous
scores read as 100+ nominal categories; span, multilabel and pairwise tables
"fixed" with ``--duplicates last``) and checks that accord now reads it right,
refuses it naming the options, or states its guess on the first lines of every
output.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import DataError, DuplicateRatingError, InsufficientDataError
from tests.conftest import run_cli as run

READERS_DATA = Path(__file__).resolve().parent / "readers" / "data"


# ------------------------------------------------------------------ offending files
def free_text_csv(tmp_path: Path) -> Path:
    """An LLM-evaluation sheet: a question, a response, and two raters' verdicts."""
    rng = np.random.default_rng(7)
    rows = ["id,question,response,rater_1,rater_2"]
    for i in range(40):
        a = rng.choice(["good", "bad"])
        b = a if rng.random() < 0.8 else ("bad" if a == "good" else "good")
        rows.append(f"q{i},What is the capital of country number {i} in the list?,"
                    f"The capital of country {i} is a city with {i * 7} bridges,{a},{b}")
    path = tmp_path / "eval.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def long_jsonl(tmp_path: Path) -> Path:
    """Trace annotations: one JSON object per (span, annotator), as tracing tools export."""
    lines = []
    for i in range(12):
        for who, kind in (("alice", "HUMAN"), ("bob", "HUMAN"), ("gpt-judge", "LLM")):
            verdict = "correct" if (i + len(who)) % 3 else "incorrect"
            lines.append(json.dumps({"span_id": f"s{i:02d}", "name": "correctness",
                                     "annotator_kind": kind, "annotator": who,
                                     "result": verdict}))
    path = tmp_path / "spans.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def scores_csv(tmp_path: Path) -> Path:
    """Continuous quality scores of two raters: numbers, not categories."""
    rng = np.random.default_rng(3)
    truth = rng.uniform(0, 10, 60)
    rows = ["item,judge_a,judge_b"]
    rows += [f"{i},{t + rng.normal(0, .5):.2f},{t + rng.normal(0, .5):.2f}"
             for i, t in enumerate(truth)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


SPAN_TABLE = ("doc,annotator,start,end,label\n"
              "d1,ann,0,5,PER\nd1,ann,10,15,LOC\nd1,bob,0,5,PER\nd1,bob,10,14,LOC\n"
              "d2,ann,3,8,ORG\nd2,bob,3,8,ORG\n")
MULTILABEL = ("item,annotator,label\n"
              "1,ann,price\n1,ann,quality\n1,bob,price\n1,bob,quality\n"
              "2,ann,service\n2,ann,price\n2,bob,service\n"
              "3,ann,quality\n3,bob,quality\n3,bob,delivery\n")
PAIRWISE = ("prompt,judge,model_a,model_b,winner\n"
            "p1,j1,gpt,llama,model_a\np1,j1,gpt,mistral,model_b\np1,j2,gpt,llama,model_a\n"
            "p1,j2,gpt,mistral,model_a\np2,j1,llama,mistral,tie\np2,j2,llama,mistral,model_b\n")


# ------------------------------------------------------------------ free text
def test_free_text_columns_are_never_raters(tmp_path: Path) -> None:
    ann = accord.read(free_text_csv(tmp_path))
    assert ann.raters == ("rater_1", "rater_2")
    assert ann.categories == ("bad", "good")
    (caveat,) = ann.audit.caveats
    assert caveat.startswith("guessed layout: a wide table")
    assert "free-text columns left out: 'question', 'response'" in caveat
    assert "raters=[...]" in caveat


def test_short_distinct_labels_in_a_small_table_stay_raters(tmp_path: Path) -> None:
    path = write(tmp_path, "tiny.csv", "item,a,b\n1,yes,yes\n2,no,maybe\n3,maybe,no\n")
    assert accord.read(path).raters == ("a", "b")


def test_named_raters_are_taken_even_when_they_hold_text(tmp_path: Path) -> None:
    ann = accord.read(free_text_csv(tmp_path), raters=["rater_1", "response"])
    assert ann.raters == ("rater_1", "response") and ann.audit.caveats == ()


# ------------------------------------------------------------------ long-looking files
def test_a_long_json_lines_file_is_refused_with_the_options_to_name(tmp_path: Path) -> None:
    path = long_jsonl(tmp_path)
    with pytest.raises(DataError, match="looks long .*column 'annotator' holds rater ids"):
        accord.read(path)
    code, out, err = run("compute", str(path))
    assert code == 1 and out == ""
    assert "--unit COL, --rater COL and --value COL" in err and "--raters A B" in err
    assert "=..." not in err


def test_the_long_file_reads_once_its_columns_are_named(tmp_path: Path) -> None:
    ann = accord.read(long_jsonl(tmp_path), unit="span_id", rater="annotator", value="result")
    assert ann.raters == ("alice", "bob", "gpt-judge") and ann.n_units == 12
    assert ann.audit.caveats == ()


def test_repeated_unit_ids_are_not_read_as_wide(tmp_path: Path) -> None:
    path = write(tmp_path, "long.csv", "item,person,answer\n1,ann,x\n1,bob,y\n2,ann,x\n")
    with pytest.raises(DataError, match="unit ids in column 'item' repeat across rows"):
        accord.read(path)


def test_long_columns_found_by_name_are_a_stated_guess() -> None:
    ann = accord.read(READERS_DATA / "long_scores.csv")
    (caveat,) = ann.audit.caveats
    assert caveat.startswith("guessed layout: a long table")
    assert accord.read(READERS_DATA / "long_scores.csv", unit="item_id", rater="annotator",
                       value="rating").audit.caveats == ()


# ------------------------------------------------------------------ level
def test_many_numeric_values_read_as_nominal_say_so(tmp_path: Path) -> None:
    ann = accord.read(scores_csv(tmp_path))
    assert len(ann.categories) > 100
    assert any(c.startswith("guessed level: ") and "level='interval'" in c
               for c in ann.audit.caveats)
    assert not accord.read(scores_csv(tmp_path), level="interval").audit.guessed_level
    assert not accord.read(scores_csv(tmp_path), level="nominal").audit.guessed_level


def test_a_few_numeric_categories_are_not_a_caveat() -> None:
    ann = accord.Annotations.from_wide([[1, 2], [2, 2], [3, 3], [5, 4]])
    assert ann.audit.caveats == ()


def test_label_sets_name_the_file_and_the_route() -> None:
    path = READERS_DATA / "doccano_textcat"
    assert accord.read(path).set_valued
    with pytest.raises(DataError, match=f"^{path}: fleiss_kappa needs one label per rating"
                                        ".*multilabel_agreement"):
        accord.fleiss_kappa(accord.read(path))
    code, _, err = run("compute", str(path))
    assert code == 1 and str(path) in err and "accord multilabel" in err
    assert "accord.multilabel_agreement" not in err


# ------------------------------------------------------------------ duplicate shapes
def test_a_span_table_is_not_told_to_keep_the_last_row(tmp_path: Path) -> None:
    path = write(tmp_path, "spans.csv", SPAN_TABLE)
    with pytest.raises(DuplicateRatingError) as info:
        accord.read(path, unit="doc", rater="annotator", value="label")
    assert "span table" in str(info.value) and "accord.span_agreement" in str(info.value)
    assert "duplicates='last'" not in str(info.value)
    code, _, err = run("compute", str(path), "--unit", "doc", "--rater", "annotator",
                       "--value", "label")
    assert code == 1 and "accord spans" in err and "--duplicates" not in err


def test_multilabel_rows_are_not_told_to_keep_the_last_row(tmp_path: Path) -> None:
    path = write(tmp_path, "multi.csv", MULTILABEL)
    with pytest.raises(DuplicateRatingError, match="multilabel=True") as info:
        accord.read(path)
    assert "duplicates='last'" not in str(info.value)
    code, _, err = run("compute", str(path))
    assert code == 1 and "--multilabel" in err and "--duplicates" not in err


def test_pairwise_comparisons_are_not_told_to_keep_the_last_row(tmp_path: Path) -> None:
    path = write(tmp_path, "pairs.csv", PAIRWISE)
    with pytest.raises(DuplicateRatingError, match="pairwise comparisons .*'winner'"):
        accord.read(path, unit="prompt", rater="judge", value="winner")
    code, _, err = run("compute", str(path), "--unit", "prompt", "--rater", "judge",
                       "--value", "winner")
    assert code == 1 and "accord judge" in err and "--duplicates" not in err


def test_pairwise_labels_are_recognised_without_column_names() -> None:
    data = {"unit": [1, 1, 1, 2, 2], "rater": ["j", "j", "k", "j", "k"],
            "value": ["A", "B", "A", "tie", "B"]}
    with pytest.raises(DuplicateRatingError, match="judge_agreement"):
        accord.Annotations.from_long(data)


def test_a_single_correction_still_offers_duplicates_last() -> None:
    units = list(range(10)) * 2 + [0]
    raters = ["a"] * 10 + ["b"] * 10 + ["a"]
    values = ["x"] * 20 + ["y"]
    with pytest.raises(DuplicateRatingError, match="duplicates='last'"):
        accord.Annotations.from_long({"unit": units, "rater": raters, "value": values})


def test_duplicates_last_says_how_many_ratings_it_dropped() -> None:
    data = {"unit": [1, 1, 1, 2, 2, 3, 3], "rater": ["a", "a", "a", "a", "b", "a", "b"],
            "value": ["x", "y", "y", "x", "x", "z", "z"]}
    ann = accord.Annotations.from_long(data, duplicates="last")
    assert ann.audit.dropped["replaced by a later rating of the same unit and rater"] == 1
    assert ann.audit.caveats[0].startswith("dropped 1 rating(s)")
    assert ann.n_ratings == 5 and ann.audit.ratings_used == 5


# ------------------------------------------------------------------ spans only
def test_spans_only_names_the_file_and_the_command() -> None:
    path = READERS_DATA / "brat_project"
    with pytest.raises(InsufficientDataError) as info:
        accord.read(path).require_pairable()
    assert str(info.value).startswith(f"{path}: the data hold spans only")
    assert "accord.span_agreement" in str(info.value)
    code, _, err = run("compute", str(path))
    assert str(path) in err and "accord spans" in err and "accord.span_agreement" not in err


def test_no_ratings_names_the_source(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.csv", "item,a,b\n1,,\n2,NA,\n")
    with pytest.raises(InsufficientDataError, match=f"^{path}: the data hold no ratings"):
        accord.read(path).require_pairable()


# ------------------------------------------------------------------ first lines
FIRST_LINE = "caveat: guessed layout: a wide table, one column per rater: 'rater_1', 'rater_2'"


@pytest.mark.parametrize("command", [["compute"], ["table"], ["report"], ["inspect"]])
def test_the_guess_is_the_first_line_of_the_console(tmp_path: Path, command: list[str]) -> None:
    code, out, err = run(*command, str(free_text_csv(tmp_path)))
    assert code == 0, err
    title = command in (["inspect"], ["report"])  # after the file's format / the title
    first = out.splitlines()[1 if title else 0]
    assert first.startswith(FIRST_LINE)
    assert "--raters A B" in " ".join(out.split()) and "raters=[...]" not in out


@pytest.mark.parametrize("suffix", [".md", ".html", ".json"])
def test_the_guess_opens_every_report_file(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"report{suffix}"
    code, _, err = run("report", str(free_text_csv(tmp_path)), "-q", "-o", str(target))
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    if suffix == ".json":
        doc = json.loads(text)
        assert list(doc)[:3] == ["$schema", "schema_version", "caveats"]
        assert doc["caveats"][0].startswith(FIRST_LINE.removeprefix("caveat: "))
        assert doc["data"]["caveats"] == doc["caveats"]
    elif suffix == ".md":
        assert text.splitlines()[2].startswith("> " + FIRST_LINE)
    else:
        header = text[text.index("<header>"):text.index("</header>")]
        assert header.index('class="caveat"') < header.index('class="headline"')
        assert "free-text columns left out" in header


def test_json_outputs_carry_the_caveats(tmp_path: Path) -> None:
    path = str(free_text_csv(tmp_path))
    code, out, _ = run("compute", path, "--json")
    assert code == 0 and json.loads(out)["results"][0]["caveats"][0].startswith(FIRST_LINE[8:])
    code, out, _ = run("table", path, "--json")
    assert code == 0 and json.loads(out)["caveats"][0].startswith(FIRST_LINE[8:])
    code, out, _ = run("inspect", path, "--json")
    assert code == 0 and json.loads(out)["caveats"][0].startswith(FIRST_LINE[8:])


def test_dropped_duplicates_open_the_console_output(tmp_path: Path) -> None:
    path = write(tmp_path, "dups.csv", "item,coder,label\n1,a,x\n1,a,y\n1,b,y\n2,a,x\n2,b,x\n")
    args = ["--unit", "item", "--rater", "coder", "--value", "label", "--duplicates", "last"]
    for command in ("compute", "report", "table"):
        code, out, err = run(command, str(path), *args)
        assert code == 0, err
        assert out.splitlines()[1 if command == "report" else 0].startswith(
            "caveat: dropped 1 rating(s)"), out
        assert "--duplicates last" in out and "duplicates='last'" not in out


#: The columns of ``readers/data/long_scores.csv``, named.
LONG_OK = ["--unit", "item_id", "--rater", "annotator", "--value", "rating"]


def test_a_free_text_column_named_like_labels_is_not_the_labels(tmp_path: Path) -> None:
    rows = ["item,annotator,response,verdict"]
    rows += [f"{i},{who},The model wrote answer number {i} for {who} at length,{v}"
             for i in range(10) for who, v in (("ann", "ok"), ("bob", "bad"))]
    path = write(tmp_path, "responses.csv", "\n".join(rows) + "\n")
    with pytest.raises(DataError, match="column 'response' was taken as the labels .* free "
                                         "text"):
        accord.read(path)
    assert accord.read(path, value="verdict").categories == ("bad", "ok")
    code, _, err = run("compute", str(path))
    assert code == 1 and "--value COL" in err


def test_from_wide_leaves_free_text_out_and_says_so() -> None:
    question = [f"Is statement number {i} about the weather true?" for i in range(8)]
    data = {"question": question, "a": list("xyxyxyxy"), "b": list("xyxyxxxy")}
    with pytest.warns(accord.LayoutWarning, match=r"columns \['question'\] were left out"):
        ann = accord.Annotations.from_wide(data)
    assert ann.raters == ("a", "b")
    assert ann.audit.caveats[0].startswith("guessed layout: columns left out of the raters: "
                                           "'question'")
    assert accord.Annotations.from_wide(data, raters=["a", "b"]).audit.caveats == ()


def test_one_repeated_row_of_a_wide_table_is_a_duplicate_not_a_long_table(
        tmp_path: Path) -> None:
    path = write(tmp_path, "wide.csv", "item,a,b\n1,x,x\n2,y,y\n3,x,y\n4,y,y\n1,y,x\n")
    with pytest.raises(DuplicateRatingError, match="duplicates='last'"):
        accord.read(path)


def test_repeated_rows_of_a_wide_table_are_never_called_multilabel(tmp_path: Path) -> None:
    rows = "item,r1,r2\n" + "".join(f"{i},x,y\n" for i in range(8)) + "0,y,x\n1,y,x\n"
    with pytest.raises(DuplicateRatingError, match="duplicates='last'") as info:
        accord.read(write(tmp_path, "wide.csv", rows))
    assert "multilabel" not in str(info.value)


def test_a_tool_export_says_it_kept_the_latest_of_different_answers() -> None:
    ann = accord.read(READERS_DATA / "label_studio_export.json", field="sentiment")
    assert ann.audit.caveats == ("dropped the earlier answers of 1 (unit, rater) pair(s) "
                                 "answered differently more than once: the tool's latest "
                                 "answer was kept",)


def test_raters_left_out_by_kind_open_the_output() -> None:
    code, out, err = run("compute", str(READERS_DATA / "label_studio_export.json"),
                         "--field", "sentiment")
    assert code == 0, err
    first, second = out.splitlines()[:2]
    assert first.startswith("caveat: dropped the earlier answers of 1")
    assert second.startswith("caveat: left out raters 'sentiment-v2' (model), "
                             "'ground_truth' (gold)")


def test_disagreements_state_the_guess_beside_the_csv(tmp_path: Path) -> None:
    path = str(free_text_csv(tmp_path))
    code, out, err = run("disagreements", path)
    assert code == 0 and out.startswith("unit,rater_1,rater_2")
    assert err.startswith(FIRST_LINE)
    code, out, err = run("disagreements", path, "-o", str(tmp_path / "review.csv"))
    assert code == 0 and out.startswith(FIRST_LINE)


def test_free_text_with_missing_cells_is_still_free_text(tmp_path: Path) -> None:
    rows = ["item,free_answer,a,b"]
    rows += [f"{i},{'NA' if i % 2 else f'A long free answer written for item {i}'},x,y"
             for i in range(20)]
    ann = accord.read(write(tmp_path, "t.csv", "\n".join(rows) + "\n"))
    assert ann.raters == ("a", "b")


@given(st.lists(st.tuples(st.sampled_from(["yes", "no", "strongly agree", "n/a-ish", "1"]),
                          st.sampled_from(["yes", "no", "strongly agree", "maybe"])),
                min_size=2, max_size=40))
def test_short_categorical_labels_are_never_free_text(rows: list[tuple[str, str]]) -> None:
    data = {"a": [r[0] for r in rows], "b": [r[1] for r in rows]}
    ann = accord.Annotations.from_wide(data)
    assert ann.raters == ("a", "b") and ann.audit.caveats == ()


def test_no_rater_left_says_what_was_left_out(tmp_path: Path) -> None:
    path = write(tmp_path, "all_text.csv", "item,comment,answer_given\n"
                 "1,a long comment on the first item here,the first long free answer given\n"
                 "2,another long comment on the second,a second and different long answer\n")
    with pytest.raises(DataError, match=r"no rater columns \(left out as not ratings: "
                                         r"\['comment', 'answer_given'\]\)"):
        accord.read(path)
    code, _, err = run("compute", str(path))
    assert code == 1 and "--raters A B" in err


@pytest.mark.parametrize("unit", ["image", "image_id", "hit_id", "sentence_id", "record_id"])
def test_a_crowd_export_names_its_unit_column_by_what_it_rates(tmp_path: Path,
                                                                 unit: str) -> None:
    # image crowds (examples/crowd.csv), MTurk's HIT ids, sentence and record ids: the
    # unit column is found by its name and said on the first line, as every guess is
    path = write(tmp_path, "crowd.csv", f"{unit},worker,label\n1,w1,x\n1,w2,x\n2,w1,y\n"
                                        "2,w2,x\n")
    code, out, err = run("consensus", str(path), "--method", "majority")
    assert code == 0, err
    assert out.splitlines()[0].startswith("caveat: guessed layout: a long table, columns "
                                          f"taken from their names: --unit {unit}, ")
    ann = accord.read(path)
    assert ann.units == ("1", "2") and ann.raters == ("w1", "w2")


def test_the_one_column_left_of_a_long_table_names_the_units(tmp_path: Path) -> None:
    # Zheng et al.'s truth-inference files: question, worker, answer
    path = write(tmp_path, "answer.csv", "question,worker,answer\nq1,w1,0\nq1,w2,1\n"
                                         "q2,w1,1\nq2,w2,1\n")
    ann = accord.read(path)
    assert ann.units == ("q1", "q2") and ann.raters == ("w1", "w2")
    assert ann.audit.caveats[0].startswith(
        "guessed layout: a long table, columns taken from their names and the one column "
        "left: unit='question' (the one other column), rater='worker', value='answer'")
    # two columns left: which names the units is not guessed
    two = write(tmp_path, "two.csv", "question,comment,worker,answer\nq1,c,w1,0\nq1,c,w2,1\n")
    with pytest.raises(DataError, match=r"no unit column; name it with unit="):
        accord.read(two)
