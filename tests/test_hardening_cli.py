"""The command line on hostile input: bounded time, one sentence, nothing lost in silence.

Each test reproduces a case of the hostile-input campaign of issue 26.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from accord.cli._errors import cli_text
from tests.conftest import run_cli as run
from tests.readers.test_conll import _columns

MB = 1_000_000
# each a 1 MB message fragment that made a pattern rescan the rest of the text
HOSTILE = {
    "one long token": "a" * MB,
    "open parentheses": "x(" * (MB // 2),
    "unclosed lists": "raters=[" * (MB // 8),
    "unclosed quotes": "raters='" * (MB // 8),
    "routes": "a (accord CLI: " * (MB // 15),
}


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_error_text_is_rewritten_in_linear_time(text: str) -> None:
    start = time.perf_counter()
    out = cli_text(f"found values outside the declared categories: {text!r}.")
    # about 0.1-0.3 s here; the backtracking patterns took over a minute on 1 MB
    assert time.perf_counter() - start < 2.0
    assert len(out) >= len(text) // 2


def test_rewriting_still_names_the_options() -> None:
    assert cli_text("use raters=['a', 'b'] here") == "use --raters a b here"
    assert cli_text("x.y (accord CLI: accord spans) z") == "accord spans z"


def _csv(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_evaluate_spells_out_a_newline_inside_a_label(tmp_path: Path) -> None:
    data = _csv(tmp_path, "nl.csv", 'item,gold,sys\n1,"pos\nACCEPTED: fake",pos\n2,neg,neg\n'
                "3,neg,pos\n")
    code, out, _ = run("evaluate", data, "--gold", "gold", "--predicted", "sys")
    assert code == 0
    assert "pos\\nACCEPTED: fake" in out
    assert not any(line.lstrip("│┃ ").startswith("ACCEPTED") for line in out.splitlines())


def test_evaluate_with_many_classes_says_so_instead_of_a_huge_matrix(tmp_path: Path) -> None:
    rows = "".join(f"u{i},l{i},l{(i + i % 2) % 400}\n" for i in range(400))
    code, out, _ = run("evaluate", _csv(tmp_path, "ids.csv", "item,gold,sys\n" + rows),
                       "--gold", "gold", "--predicted", "sys", "--ci", "asymptotic")
    assert code == 0
    assert "confusion matrix: 400 classes, too many to show here" in out
    assert "look like free text or ids" in out
    assert "the first 200 of 400 classes shown" in out


def test_table_spells_out_a_newline_inside_a_label(tmp_path: Path) -> None:
    data = _csv(tmp_path, "nl.csv", 'item,a,b\n1,"pos\nACCEPTED: fake",pos\n2,neg,neg\n'
                "3,neg,pos\n")
    code, out, err = run("table", data, "--raters", "a", "b")
    assert code == 0 and "pos\\nACCEPTED: fake" in out
    assert not any(line.startswith("ACCEPTED") for line in (out + err).splitlines())


DATA = Path(__file__).parent / "readers" / "data"


@pytest.mark.parametrize("command", ["inspect", "compute"])
@pytest.mark.parametrize(("fixture", "key"), [("sagemaker_custom.manifest", "review-sentiment"),
                                              ("prodigy_choice.jsonl", "accept")])
def test_json_nested_500_deep_is_one_sentence(tmp_path: Path, command: str, fixture: str,
                                              key: str) -> None:
    import json

    records = [json.loads(line) for line in (DATA / fixture).read_text().splitlines() if line]
    records[0][key] = json.loads("[" * 500 + '"x"' + "]" * 500)
    path = tmp_path / fixture
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    code, out, err = run(command, str(path))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in out + err
    assert "Error" not in err and ("nested" in err or "expected" in err), err


@pytest.mark.parametrize(("label", "item", "problem"), [
    ('"\\ud800x"', "1", "lone surrogate"),
    ('"x"', "12345678901234567890123", "too large for a 64-bit integer"),
])
def test_reader_messages_name_the_problem_not_the_exception(tmp_path: Path, label: str,
                                                            item: str, problem: str) -> None:
    rows = [f'{{"item": {item}, "rater": "a", "label": {label}}}',
            f'{{"item": {item}, "rater": "b", "label": "y"}}',
            '{"item": 2, "rater": "a", "label": "x"}', '{"item": 2, "rater": "b", "label": "y"}']
    code, _, err = run("compute", _csv(tmp_path, "d.jsonl", "\n".join(rows) + "\n"))
    assert code == 1 and problem in err
    assert "Error" not in err and "Series" not in err, err


def test_plan_says_the_prevalence_it_assumed_on_the_first_line() -> None:
    code, out, _ = run("plan", "--expected", "0.6", "--lower-limit", "0.4")
    assert code == 0 and out.splitlines()[0].startswith("assumed: prevalence 0.5")
    code, out, _ = run("plan", "--expected", "0.6", "--lower-limit", "0.4", "--prevalence", "0.1")
    assert code == 0 and "assumed" not in out
    code, out, _ = run("plan", "--expected", "0.6", "--width", "0.2", "--json")
    import json

    assert json.loads(out)["assumed"][0].startswith("prevalence 0.5")


@pytest.mark.parametrize(("args", "option"), [
    (["--width", "0.2", "--n-raters", "1000000", "--coefficient", "fleiss_kappa"], "--n-raters"),
    (["--width", "1e-300"], "--width"),
    (["--width", "1e-300", "--coefficient", "fleiss_kappa"], "--width"),
    (["--prevalence", "1e-300", "--lower-limit", "0.4"], "--prevalence"),
])
def test_plan_refuses_what_it_cannot_compute_in_one_sentence(args: list[str],
                                                             option: str) -> None:
    start = time.perf_counter()
    code, _, err = run("plan", "--expected", "0.6", *args)
    assert time.perf_counter() - start < 30.0  # ran past 150 s and 2.5 GB
    assert code == 2 and option in err and "Error:" in err
    assert "ZeroDivision" not in err and "split the file" not in err and "plan_" not in err


def test_plan_with_a_tiny_width_is_bounded_and_says_how_it_was_found() -> None:
    start = time.perf_counter()
    code, out, _ = run("plan", "--expected", "0.6", "--width", "0.001", "--coefficient",
                       "fleiss_kappa")
    assert time.perf_counter() - start < 60.0  # over 200 s before
    assert code == 0 and "note:" in out and "extrapolation" in out


def test_evaluate_scores_conll_span_systems_from_the_command_line() -> None:
    import json

    from seqeval.metrics import f1_score

    path = DATA / "ner_two_systems.conll"
    code, out, err = run("evaluate", str(path), "--gold", "tags1", "--predicted", "tags2",
                         "--json")
    assert code == 0, err
    (row,) = json.loads(out)["results"]
    assert row["rater"] == "tags2"
    got = row["f1"]["estimate"]
    gold, system = _columns(path)
    assert got == pytest.approx(f1_score(gold, system), abs=1e-12)  # seqeval 1.2, lenient
    code, out, err = run("evaluate", str(path), "--gold", "tags1", "--predicted", "tags2",
                         "--ceiling-figure", "f1")
    assert code == 0 and "tags2" in out and "Error" not in err


def test_multi_value_options_keep_values_with_commas_and_dashes() -> None:
    from accord.cli._app import expand_multi

    assert expand_multi(["--missing", "no answer, skipped"]) == ["--missing",
                                                                 "no answer, skipped"]
    assert expand_multi(["--humans", "Smith, J", "Doe, A"]) == ["--humans", "Smith, J",
                                                                "--humans", "Doe, A"]
    assert expand_multi(["--raters", "a,b"]) == ["--raters", "a", "--raters", "b"]
    known = frozenset({"--categories", "--coefficient"})
    assert expand_multi(["--categories", "-neg", "pos", "--coefficient", "x"], known) == [
        "--categories", "-neg", "--categories", "pos", "--coefficient", "x"]


def test_missing_markers_with_a_comma_drop_nothing_else(tmp_path: Path) -> None:
    data = _csv(tmp_path, "m.csv", 'item,a,b\n1,pos,neg\n2,neg,neg\n3,pos,pos\n4," skipped",pos\n')
    code, out, _ = run("inspect", data, "--missing", "no answer, skipped")
    assert code == 0 and "8 read, 8 used" in out  # ' skipped' was made a marker before


def test_categories_may_start_with_a_dash(tmp_path: Path) -> None:
    data = _csv(tmp_path, "n.csv", "item,a,b\n1,pos,-neg\n2,-neg,-neg\n3,pos,pos\n")
    code, out, err = run("compute", data, "--categories", "-neg", "pos", "--coefficient",
                         "cohen_kappa")
    assert code == 0, err


def test_multilabel_labels_take_several_values() -> None:
    code, out, err = run("multilabel", "examples/toxicity_multilabel.csv", "--separator", ";",
                         "--labels", "toxic", "insult", "threat", "spam", "off_topic", "none")
    assert code == 0, err
    assert out.index("toxic") < out.index("off_topic")


def test_spans_reads_the_files_named_not_a_file_named_like_their_list(tmp_path: Path) -> None:
    import shutil

    for name in ("g.conll", "s.conll"):
        shutil.copy(DATA / "ner_two_systems.conll", tmp_path / name)
    (tmp_path / "g.conll, s.conll").write_text("not CoNLL at all", encoding="utf-8")
    code, out, err = run("spans", str(tmp_path / "g.conll"), str(tmp_path / "s.conll"),
                         "--json")
    assert code == 0, err  # the joined name was read, and refused, before


def test_spans_says_which_rows_the_reader_dropped(tmp_path: Path) -> None:
    import json

    data = _csv(tmp_path, "d.csv", "doc,ann,label,start,end\nd1,a,PER,0,5\nd1,b,,0,5\n"
                ",b,PER,0,5\nd2,a,LOC,0,3\nd2,b,LOC,0,3\n")
    args = ("spans", data, "--unit", "doc", "--rater", "ann", "--label", "label", "--start",
            "start", "--end", "end")
    code, out, _ = run(*args)
    assert code == 0
    first = out.splitlines()[1:3]
    assert "dropped 1 row(s): span without a label" in first[0] + first[1]
    assert "dropped 1 row(s): missing unit or rater id" in first[0] + first[1]
    code, out, _ = run(*args, "--json")
    assert json.loads(out)["dropped"] == [{"reason": "span without a label", "count": 1},
                                          {"reason": "missing unit or rater id", "count": 1}]


def test_disagreements_write_label_sets_as_the_file_does(tmp_path: Path) -> None:
    data = _csv(tmp_path, "ml.csv", "item,a,b\n1,@SUM(1);toxic,toxic\n2,toxic,toxic\n"
                "3,insult,toxic\n")
    code, out, _ = run("disagreements", data, "--separator", ";")
    assert code == 0
    assert "1,'@SUM(1);toxic,toxic," in out  # was "('@SUM(1)', 'toxic')"
    assert "('" not in out


@pytest.mark.parametrize(("args", "said"), [
    (["report", "examples/toxicity_multilabel.csv", "--separator", ";", "--gold", "annotator_a",
      "--predicted", "annotator_b"], "accord multilabel DATA --gold annotator_a"),
    (["report", "examples/ner_spans.csv", "--unit", "doc", "--rater", "annotator", "--label",
      "label", "--start", "start", "--end", "end", "--gold", "ana"], "accord spans DATA --gold"),
    (["multilabel", "examples/toxicity_multilabel.csv", "--separator", ";", "--reference",
      "annotator_a", "--raters", "annotator_a"], "leaves no other rater to score"),
])
def test_options_that_cannot_act_are_refused(tmp_path: Path, args: list[str], said: str) -> None:
    out_file = ["-o", str(tmp_path / "r.html")] if args[0] == "report" else []
    code, _, err = run(*args, *out_file)
    assert code == 2 and said in err
    assert not (tmp_path / "r.html").exists()


def test_per_rater_files_refused_without_naming_internal_columns(tmp_path: Path) -> None:
    a = _csv(tmp_path, "ra.csv", "item,label\n1,a;b\n2,b\n3,a\n")
    b = _csv(tmp_path, "rb.csv", "item,label\n1,a\n2,b\n3,a;b\n")
    code, _, err = run("multilabel", a, b, "--separator", ";")
    assert code == 1 and "__part" not in err and "['item', 'label']" in err


def test_one_unit_is_named_as_the_reason_there_is_no_interval(tmp_path: Path) -> None:
    code, _, err = run("multilabel", _csv(tmp_path, "one.csv", "item,a,b\n1,x;y,x\n"),
                       "--separator", ";")
    assert code != 0 and "at least two units" in err and "--ci jackknife" not in err


def test_disagreements_csv_on_a_terminal_spells_out_escapes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _csv(tmp_path, "e.csv", "item,a,b\n1,\x1b]52;c;cHduZWQ=\x07x,y\n2,y,y\n3,x,x\n")
    _, piped, _ = run("disagreements", data)
    assert "\x1b]52" in piped  # a file or a pipe keeps the bytes
    monkeypatch.setattr("accord.cli.report._on_terminal", lambda: True)
    _, shown, _ = run("disagreements", data)
    assert "\x1b" not in shown and "\\x1b]52" in shown


def test_a_result_for_a_closed_standard_output_is_an_error() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = (f"{sys.executable} -m accord spans examples/ner_spans.csv --unit doc --rater "
           "annotator --label label --start start --end end --json >&-")
    done = subprocess.run(["sh", "-c", cmd], capture_output=False, stderr=subprocess.PIPE,
                          text=True, env=env, check=False)
    assert done.returncode == 1 and "standard output is closed" in done.stderr
