"""The warning bridge: every warning a command meets is one line of the command line's
own, with its option names, never Python's ``file:line: Category: text`` form."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]
CROWD = str(ROOT / "examples" / "crowd.csv")
LONG = ("--unit", "image", "--rater", "worker", "--value", "label")


def _python_form(err: str) -> bool:
    return any(s in err for s in ("Warning:", ".py:", "click/core", "warnings.warn"))


def test_non_convergence_is_said_with_the_command_s_options() -> None:
    code, _, err = run("consensus", CROWD, *LONG, "--max-iter", "2")
    assert code == 0 and not _python_form(err)
    assert err.startswith("accord: warning: dawid_skene did not converge in 2 iterations")
    assert err.endswith("(raise --max-iter N or --tol X).\n") and "max_iter=" not in err


def test_the_alt_test_s_small_sample_note_names_the_option(tmp_path: Path) -> None:
    path = tmp_path / "jury.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["item", "judge_a", "judge_b", "human_1", "human_2", "human_3"])
        for i in range(12):
            w.writerow([i, i % 2, (i // 2) % 2, i % 2, (i // 3) % 2, i % 3 % 2])
    code, _, err = run("judge", "panel", str(path), "--judges", "judge_a", "judge_b")
    assert code == 0 and not _python_form(err)
    assert "use --test wilcoxon" in err and "test='wilcoxon'" not in err


def test_numeric_overflow_is_one_sentence_without_a_source_path(tmp_path: Path) -> None:
    path = tmp_path / "runs.csv"
    path.write_text("item,run1,run2,run3\na,1e308,-1e308,1e308\nb,1,2,3\nc,1e307,5,1e308\n"
                    "d,2,2,2\n")
    code, _, err = run("judge", "consistency", str(path), "--raters", "run1", "run2", "run3")
    assert code == 0 and not _python_form(err)
    assert ("accord: warning: overflow encountered in multiply: some values are too extreme "
            "to compute with exactly") in err


def test_a_judge_named_twice_is_refused() -> None:
    code, _, err = run("judge", "panel", str(ROOT / "examples" / "jury.csv"), "--judges",
                       "judge_a", "judge_a")
    assert code == 1
    assert err == ("accord: error: judge_panel names the judge(s) 'judge_a' more than once "
                   "(--judges COL...); expected distinct judges.\n")
    ann = accord.read(ROOT / "examples" / "jury.csv")
    with pytest.raises(accord.DataError, match="more than once"):
        accord.judge_panel(ann, judges=["judge_a", "judge_b", "judge_a"])
