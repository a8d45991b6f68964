"""``accord judge`` and the judge-output options shared by every command (--kind, --missing).

The figures printed are those of accord.alt_test and accord.judge_agreement on the
same data (checked against their oracles in test_alt_test.py and
test_judge_agreement.py); here the CLI must pass the options through and say the
result in words.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]
JUDGE_CSV = ROOT / "examples" / "judge.csv"
BASE = ("judge", str(JUDGE_CSV), "--judge", "gpt4", "--humans", "ann_a", "ann_b", "ann_c",
        "--missing", "ERROR", "--seed", "3", "--n-resamples", "300")


def test_json_matches_the_library() -> None:
    code, out, err = run(*BASE, "--json")
    assert code == 0, err
    got = json.loads(out)
    ann = accord.read(JUDGE_CSV, raters=["gpt4", "ann_a", "ann_b", "ann_c"], missing=["ERROR"])
    lib = accord.alt_test(ann, judge="gpt4")
    assert got["alt_test"]["winning_rate"] == lib.winning_rate
    assert got["alt_test"]["advantage_probability"] == lib.advantage_probability
    assert [h["pvalue"] for h in got["alt_test"]["per_human"]] == [
        h.pvalue for h in lib.per_human.values()]
    assert got["audit"]["dropped"] == [{"reason": "missing value", "count": 3}]
    assert got["agreement"]["coefficient"] == "krippendorff_alpha"


def test_console_says_the_decision_in_words() -> None:
    code, out, err = run(*BASE)
    assert code == 0, err
    assert "gpt4 may replace a human annotator here: it won against 3 of 3 humans" in out
    assert "Alternative annotator test" in out and "the ceiling" in out
    assert "dropped 3: missing value" in out


def test_help_examples_run() -> None:
    code, out, _ = run("judge", "--help")
    assert code == 0
    examples = [x.strip() for x in out.splitlines() if x.strip().startswith("accord judge")]
    assert len(examples) >= 3
    for line in examples:
        args = shlex.split(line)[1:]
        args = [str(ROOT / a) if a.startswith("examples/") else a for a in args]
        code, _, err = run(*args, "--n-resamples", "100")
        assert code == 0, (line, err)


def test_kind_marks_the_judge_and_kinds_still_selects() -> None:
    code, out, err = run(*BASE[:2], "--judge", "gpt4", "--kind", "gpt4=llm", "--missing",
                         "ERROR", "--raters", "ann_a", "ann_b", "ann_c", "gpt4",
                         "--n-resamples", "100", "--json")
    assert code == 0, err
    assert json.loads(out)["alt_test"]["humans"] == ["ann_a", "ann_b", "ann_c"]
    # compute: --kind makes gpt4 an llm, which --kinds (default human) leaves out
    code, out, err = run("compute", str(JUDGE_CSV), "--raters", "ann_a", "ann_b", "gpt4",
                         "--kind", "gpt4=llm", "--missing", "ERROR", "--coefficient",
                         "fleiss_kappa", "--json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["n_raters"] == 3  # --raters names them: all three compared


def test_kind_left_out_by_default_kinds_in_inspect_free_commands(tmp_path: Path) -> None:
    path = tmp_path / "j.csv"
    path.write_text("item,a,b,gpt4\n1,x,x,x\n2,y,x,y\n3,y,y,-1\n")
    code, out, err = run("compute", str(path), "--kind", "gpt4=llm", "--missing", "-1",
                         "--coefficient", "fleiss_kappa", "--json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["n_raters"] == 2
    code, out, err = run("compute", str(path), "--kind", "gpt4=llm", "--kinds", "human", "llm",
                         "--missing", "-1", "--coefficient", "fleiss_kappa", "--json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["n_raters"] == 3


@pytest.mark.parametrize(("args", "message"), [
    (("--kind", "gpt4"), "expected RATER=KIND"),
    (("--kind", "gpt4=robot"), "must be one of human, model, llm, gold"),
])
def test_bad_kind_is_bad_usage(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*BASE, *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_kind_for_an_unknown_rater_is_one_line() -> None:
    code, _, err = run(*BASE, "--kind", "gtp4=llm")
    assert code == 1 and "kinds for ['gtp4'], which are not among the raters" in err
    assert len(err.strip().splitlines()) == 1


def test_bad_data_is_one_line_exit_1(tmp_path: Path) -> None:
    code, _, err = run(*BASE[:2], "--judge", "gpt4", "--humans", "ann_a", "--missing", "ERROR")
    assert code == 1 and "at least 2 humans" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(*BASE[:2], "--judge", "gpt4", "--humans", "ann_a", "ann_b")
    assert code == 0, err  # "ERROR" undeclared is a category of its own: the judge loses
    code, _, err = run(*BASE[:2], "--judge", "gpt4", "--humans", "ann_a", "ann_b",
                       "--missing", "ERROR", "--epsilon", "3")
    assert code == 2 and "'epsilon' parameter" in err
