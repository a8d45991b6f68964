"""The CLI gate a pipeline can trust, and errors in the CLI's own words.

``accord check`` exits 0 accepted, 1 rejected or undefined, and 2 for anything
that is not a decision. Figures: Cohen (1960, p. 45) table, kappa 0.4915
(cases.json ``cohen_1960_p45``), lower 95% limit 0.3916.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.cli._errors import OPTIONS, cli_text
from tests.conftest import COHEN_1960, run_cli, write_table_csv
from tests.test_guesses import LONG_OK, free_text_csv, long_jsonl, scores_csv, write

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
READERS_DATA = Path(__file__).resolve().parent / "readers" / "data"
RULE = ["--coefficient", "cohen_kappa", "--min"]


@pytest.fixture()
def cohen_csv(tmp_path: Path) -> Path:
    return write_table_csv(tmp_path / "cohen.csv", COHEN_1960, "item,ann,bob", "")


def check(*args: str) -> tuple[int, str, str]:
    return run_cli("check", *args)


# --------------------------------------------------------------------------- exit codes
def test_decisions_exit_0_and_1(cohen_csv: Path) -> None:
    named = ["--raters", "ann", "bob"]
    assert check(str(cohen_csv), *named, *RULE, "0.45")[0] == 0
    assert check(str(cohen_csv), *named, *RULE, "0.5")[0] == 1
    same = write(cohen_csv.parent, "same.csv", "item,a,b\n1,x,x\n2,x,x\n")
    code, out, _ = check(str(same), "--raters", "a", "b", *RULE, "0")
    assert code == 1 and out.startswith("UNDEFINED")


NOT_DECISIONS = [  # (file maker, args): nothing was decided, exit 2
    ("cohen", ["--raters", "ann", "nobody", *RULE, "0.5"]),           # a rater column not there
    ("three", ["--raters", "a", "b", "c", *RULE, "0.5"]),             # three raters, kappa needs 2
    ("three", ["--raters", "a", *RULE, "0.5"]),                       # one rater
    ("cohen", ["--format", "nope", "--raters", "ann", "bob", *RULE, "0.5"]),  # unknown format
    ("garbage", ["--raters", "a", "b", *RULE, "0.5"]),                # unreadable data
    ("cohen", [*RULE, "0.5"]),                                        # layout guessed
    ("long", [*RULE, "0.5"]),                                         # long file read as wide
    ("scores", ["--raters", "judge_a", "judge_b", *RULE, "0.5"]),     # level guessed
    ("cohen", ["--raters", "ann", "bob", "--coefficient", "cohen_kappa"]),  # no threshold
    ("cohen", ["--raters", "ann", "bob", *RULE, "0.5", "--confidence-level", "2"]),
    ("cohen", ["--raters", "ann", "bob", *RULE, "0.5", "--ci", "bootstrap", "--n-resamples",
               "0"]),
    ("cohen", ["--raters", "ann", "bob", *RULE, "0.5", "--ci", "bootstrap", "--seed", "-1"]),
    ("cohen", ["--raters", "ann", "bob", "--level", "interval", "--coefficient", "icc",
               "--form", "ICC9", "--min", "0.5"]),
]


def _file(kind: str, tmp_path: Path, cohen: Path) -> Path:
    if kind == "cohen":
        return cohen
    if kind == "three":
        return write(tmp_path, "three.csv", "item,a,b,c\n1,x,x,y\n2,y,y,y\n3,x,y,x\n")
    if kind == "garbage":
        return write(tmp_path, "garbage.json", '{"not": "closed"')
    if kind == "long":
        return long_jsonl(tmp_path)
    return scores_csv(tmp_path)


@pytest.mark.parametrize(("kind", "args"), NOT_DECISIONS,
                         ids=[f"{k}:{' '.join(a)}" for k, a in NOT_DECISIONS])
def test_anything_that_is_not_a_decision_exits_2(
    tmp_path: Path, cohen_csv: Path, kind: str, args: list[str]
) -> None:
    code, out, err = check(str(_file(kind, tmp_path, cohen_csv)), *args)
    assert code == 2, (out, err)
    assert out == "" and "Traceback" not in err and err.strip()


def test_a_guessed_layout_is_refused_with_the_options_to_pass(tmp_path: Path) -> None:
    code, _, err = check(str(free_text_csv(tmp_path)), *RULE, "0.5")
    assert code == 2
    assert "--raters A B" in err and "--unit COL --rater COL --value COL" in err
    assert "study protocol" in err
    code, out, _ = check(str(free_text_csv(tmp_path)), "--raters", "rater_1", "rater_2",
                         *RULE, "0.1")
    assert code == 0 and out.startswith("ACCEPTED")


def test_named_long_columns_are_accepted() -> None:
    code, out, err = check(str(READERS_DATA / "long_scores.csv"), *LONG_OK,
                           "--raters", "coder_a", "coder_b", *RULE, "-1")
    assert code == 0, err
    caveat, decision = out.splitlines()  # scores 1..5 read as nominal: said first
    assert caveat.startswith("caveat: level nominal: the values") and "--level ordinal" in caveat
    assert decision.startswith("ACCEPTED")


def test_a_guessed_level_is_refused_until_named(tmp_path: Path) -> None:
    path = str(scores_csv(tmp_path))
    code, _, err = check(path, "--raters", "judge_a", "judge_b", *RULE, "0.5")
    assert code == 2 and "--level LEVEL" in err and "--level interval" in err
    code, out, err = check(path, "--raters", "judge_a", "judge_b", "--level", "interval",
                           "--coefficient", "icc", "--form", "ICC2", "--min", "0.5")
    assert code == 0, err


def test_a_study_that_names_the_annotators_confirms_the_layout() -> None:
    code, out, err = check(str(EXAMPLES / "pilot.csv"), "--study", str(EXAMPLES / "study.toml"))
    assert code == 1, err  # the example's rule fails on the lower limit
    assert out.startswith("REJECTED") and "caveat" not in out


# --------------------------------------------------------------------------- --json
def test_check_json_prints_the_decision_with_its_figures(cohen_csv: Path) -> None:
    code, out, err = check(str(cohen_csv), "--raters", "ann", "bob", *RULE, "0.4",
                           "--on", "lower-ci", "--json")
    assert code == 1, err
    doc = json.loads(out)
    (row,) = doc["results"]
    assert row["status"] == "rejected" and doc["accepted"] is False and doc["exit_status"] == 1
    assert row["coefficient"] == "cohen_kappa" and row["accepted"] is False
    assert row["estimate"] == pytest.approx(0.4915, abs=5e-5)
    assert row["value"] == row["confidence_interval"]["low"] == pytest.approx(0.3916, abs=5e-5)
    assert row["rule"] == {"coefficient": "cohen_kappa", "operator": ">=", "threshold": 0.4,
                           "on": "lower-ci",
                           "text": "cohen_kappa >= 0.4 on the lower confidence limit"}
    assert row["n_units"] == 200 and doc["raters"] == ["ann", "bob"] and doc["caveats"] == []


def test_check_json_undefined_is_null(tmp_path: Path) -> None:
    same = write(tmp_path, "same.csv", "item,a,b\n1,x,x\n2,x,x\n")
    code, out, _ = check(str(same), "--raters", "a", "b", *RULE, "0", "--json")
    (row,) = json.loads(out)["results"]
    assert code == 1 and row["status"] == "undefined" and row["estimate"] is None
    assert row["reason"]


def test_check_json_carries_the_caveats(tmp_path: Path) -> None:
    path = write(tmp_path, "dups.csv", "item,coder,label\n1,a,x\n1,a,y\n1,b,y\n2,a,x\n2,b,x\n"
                 "3,a,y\n3,b,y\n")
    args = ["--unit", "item", "--rater", "coder", "--value", "label", "--duplicates", "last"]
    code, out, _ = check(str(path), *args, *RULE, "0.5", "--json")
    assert code == 0 and json.loads(out)["caveats"][0].startswith("dropped 1 rating(s)")
    code, out, _ = check(str(path), *args, *RULE, "0.5")
    assert out.splitlines()[0].startswith("caveat: dropped 1 rating(s)")
    assert out.splitlines()[-1].startswith("ACCEPTED")


# --------------------------------------------------------------------------- CLI spelling
#: A library spelling: name=..., name=[...], name='x', or "The 'x' parameter of f".
LIBRARY_SPELLING = re.compile(r"\b[a-z_]+=(\.\.\.|\[|'|\"|,|\s)|parameter of|accord\.[a-z_]+\(?")


def _error_paths(tmp_path: Path, cohen: Path) -> list[list[str]]:
    three = str(_file("three", tmp_path, cohen))
    spans = str(write(tmp_path, "spans.csv", "doc,annotator,start,end,label\n"
                      "d1,a,0,5,PER\nd1,a,6,9,LOC\nd1,b,0,5,PER\n"))
    multi = str(write(tmp_path, "multi.csv", "item,annotator,label\n1,a,x\n1,a,y\n1,b,x\n"
                      "2,a,y\n2,a,x\n2,b,y\n"))
    text = str(write(tmp_path, "text.csv", "item,a,b\n1,x,y\n2,y,y\n"))
    c = str(cohen)
    return [
        ["compute", c, "--format", "nope"],
        ["compute", c, "--field", "x"],
        ["compute", str(write(tmp_path, "odd.bin", "\x00\x01\x02"))],
        ["compute", c, "--raters", "ann", "nobody"],
        ["compute", three, "--unit", "nope", "--rater", "a", "--value", "b"],
        ["compute", text, "--raters", "a", "b", "--level", "interval"],
        ["compute", three, "--raters", "a", "b", "c", "--coefficient", "cohen_kappa"],
        ["table", three],
        ["compute", spans, "--unit", "doc", "--rater", "annotator", "--value", "label"],
        ["compute", multi],
        ["compute", str(long_jsonl(tmp_path))],
        ["compute", str(READERS_DATA / "label_studio_export.json")],
        ["compute", str(READERS_DATA / "brat_project")],
        ["compute", c, "--confidence-level", "2"],
        ["compute", c, "--ci", "bootstrap", "--seed", "-1"],
        ["compute", c, "--ci", "bootstrap", "--n-resamples", "0"],
        ["compute", c, "--level", "interval", "--coefficient", "icc", "--form", "ICC9"],
        ["compute", c, "--population-size", "0"],
        ["compute", three, "--raters", "a", "b", "--weights", "linear", "--coefficient",
         "light_kappa"],
        ["report", c, "--pair", "ann", "nobody"],
        ["check", c, *RULE, "0.5"],
        ["check", str(scores_csv(tmp_path)), "--raters", "judge_a", "judge_b", *RULE, "0.5"],
        ["compute", text, "--raters", "a", "b", "--weights", "linear"],
        ["compute", str(write(tmp_path, "inf.csv", "item,a,b\n1,inf,1\n2,2,3\n")),
         "--raters", "a", "b"],
        ["compute", str(READERS_DATA / "doccano_textcat")],
        ["evaluate", str(EXAMPLES / "pilot.csv")],
    ]


def test_no_cli_error_speaks_the_library_spelling(tmp_path: Path, cohen_csv: Path) -> None:
    for args in _error_paths(tmp_path, cohen_csv):
        code, _, err = run_cli(*args)
        assert err.strip(), args
        found = LIBRARY_SPELLING.search(err)
        assert found is None, f"{args}: {found.group(0)!r} in {err!r}"


def test_the_translation_names_the_options() -> None:
    cases = {
        "name two with raters=[...].": "name two with --raters A B.",
        "choose one with field=....": "choose one with --field NAME.",
        "name it with unit=... (the columns are ['a'])": "name it with --unit COL (the columns "
                                                         "are ['a'])",
        "level='interval' needs numbers": "--level interval needs numbers",
        "keep categories=['a', 'b']": "keep --categories a b",
        "use method='jackknife' or method=accord.Bootstrap(...).": "use --ci jackknife or "
                                                                   "--ci bootstrap.",
        "The 'weights' parameter of accord compute must be one of {'linear'}.":
            "--weights must be one of {'linear'}.",
        "with accord.span_agreement (accord CLI: accord spans).": "with accord spans.",
        "name pairs with pairs=.": "name pairs with --pair A B.",
        "an expected value=3 here": "an expected --value 3 here",
    }
    for library, cli in cases.items():
        assert cli_text(library) == cli


def test_a_crash_inside_check_is_not_a_rejection(cohen_csv: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import accord.study.protocol

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("something nobody foresaw")

    monkeypatch.setattr(accord.study.protocol, "evaluate", boom)
    code, out, err = check(str(cohen_csv), "--raters", "ann", "bob", *RULE, "0.5")
    assert code == 2 and out == ""
    assert err.startswith("accord: error: unexpected RuntimeError: something nobody foresaw")
    assert "Traceback" not in err and err.count("\n") == 1


def test_report_notes_name_cli_options(tmp_path: Path) -> None:
    raters = [f"r{j}" for j in range(31)]
    rows = ["item," + ",".join(raters)]
    rows += [f"{i}," + ",".join("xy"[(i + j) % 2 if j % 3 else 0] for j in range(31))
             for i in range(6)]
    path = write(tmp_path, "many.csv", "\n".join(rows) + "\n")
    code, out, err = run_cli("report", str(path), "--raters", *raters, "-q", "-o", "-",
                             "--to", "json")
    assert code == 0, err
    notes = " ".join(json.loads(out)["notes"])
    assert "--pair A B" in notes and "pairs=" not in notes


def test_the_check_help_examples_run_and_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex

    monkeypatch.chdir(EXAMPLES.parent)
    code, out, _ = run_cli("check", "--help")
    examples = [line.strip() for line in out.split("Examples:")[1].splitlines()
                if line.strip().startswith("accord check")]
    assert len(examples) >= 3
    for example in examples:
        got, stdout, err = run_cli(*shlex.split(example)[1:])
        assert got in (0, 1), (example, err)  # a decision, whichever it is
        assert stdout.strip()


# --------------------------------------------------------------------------- properties
_FRAGMENTS = st.sampled_from([
    *[f"{name}=..." for name in OPTIONS], *[f"{name}=[...]" for name in OPTIONS],
    *[f"{name}='x'" for name in OPTIONS], "the columns are ['a', 'b']", "; ", "pass",
    "accord.span_agreement (accord CLI: accord spans)", "value 3", "(e.g. ('a', 'b'))",
])


@given(st.lists(_FRAGMENTS, min_size=1, max_size=8))
def test_translation_leaves_no_library_spelling_and_is_idempotent(parts: list[str]) -> None:
    message = " ".join(parts)
    once = cli_text(message)
    assert cli_text(once) == once
    assert not re.search(rf"\b({'|'.join(OPTIONS)})=", once)
    assert "accord CLI:" not in once


def test_check_json_with_a_study() -> None:
    code, out, err = check(str(EXAMPLES / "pilot.csv"), "--study", str(EXAMPLES / "study.toml"),
                           "--json")
    assert code == 1, err
    doc = json.loads(out)
    (row,) = doc["results"]
    assert row["status"] == "rejected" and row["rule"]["on"] == "lower-ci"
    assert doc["raters"] == ["annotator_a", "annotator_b"]  # the study's, as compared
    assert row["n_raters"] == 2 and doc["protocol_deviations"] == 0 and doc["caveats"] == []
    assert row["value"] == pytest.approx(0.5946, abs=5e-5)


@pytest.mark.parametrize("command", [["compute"], ["report", "-o", "-", "--to", "json"]])
def test_a_two_rater_coefficient_on_three_raters_is_bad_usage(command: list[str]) -> None:
    """Not a result and not bad data: the request does not fit the data (exit 2), before
    any work, with the options that make it fit."""
    from click.testing import CliRunner

    from accord.cli import main

    args = [command[0], str(EXAMPLES / "pilot.csv"), "--raters", "annotator_a", "annotator_b",
            "annotator_c", "--coefficient", "cohen_kappa", *command[1:]]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "cohen_kappa compares two raters and the data have 3" in result.output
    assert "--raters annotator_a annotator_b" in result.output
    assert "Traceback" not in result.output
