"""Integer labels that look like a scale, read as nominal by default, are said on the
first line of compute, check, report and judge (console and JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from accord.interpret.levels import ordered_look
from tests.conftest import run_cli

CAVEAT = "level nominal: the values 1..5 look ordered; pass --level ordinal or --level interval"

# five raters' 1-5 scores on 12 units
SCORES = [
    [1, 1, 2, 1, 1], [2, 2, 2, 3, 2], [3, 3, 4, 3, 3], [4, 5, 4, 4, 4], [5, 5, 5, 4, 5],
    [1, 2, 1, 1, 2], [3, 2, 3, 3, 4], [4, 4, 4, 5, 4], [2, 1, 2, 2, 2], [5, 4, 5, 5, 5],
    [3, 3, 3, 2, 3], [1, 1, 1, 1, 2],
]
RATERS = ("r1", "r2", "r3", "r4", "r5")


@pytest.fixture()
def likert(tmp_path: Path) -> Path:
    rows = ["item," + ",".join(RATERS)]
    rows += [f"u{i}," + ",".join(map(str, r)) for i, r in enumerate(SCORES)]
    path = tmp_path / "likert.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_ordered_look_finds_small_integer_scales() -> None:
    assert ordered_look(np.array([1, 2, 3, 4, 5]), None) == (
        "level nominal: the values 1..5 look ordered; pass level='ordinal' or level='interval'")
    assert ordered_look([0.0, 1.0, 2.0], None) is not None  # integral floats
    assert ordered_look([1, 2, 3], "nominal") is None  # declared: no caveat
    assert ordered_look([0, 1], None) is None  # two values: every level agrees
    assert ordered_look([True, False, True], None) is None
    assert ordered_look([1, 2, 1000], None) is None  # ids or counts, not a scale
    assert ordered_look([1.5, 2, 3], None) is None
    assert ordered_look(["a", "b", "c"], None) is None


def test_compute_says_the_level_on_its_first_line(likert: Path) -> None:
    code, out, err = run_cli("compute", str(likert), "--raters", *RATERS)
    assert code == 0, err
    assert out.splitlines()[0] == f"caveat: {CAVEAT}"


def test_compute_json_carries_the_level_caveat(likert: Path) -> None:
    code, out, err = run_cli("compute", str(likert), "--raters", *RATERS, "--json")
    assert code == 0, err
    rows = json.loads(out)
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert all(CAVEAT in row["caveats"] for row in rows)


@pytest.mark.parametrize("extra", [("--level", "ordinal"), ("--level", "nominal"),
                                   ("--weights", "quadratic")])
def test_a_declared_level_or_weights_silence_the_caveat(likert: Path,
                                                        extra: tuple[str, ...]) -> None:
    code, out, err = run_cli("compute", str(likert), "--raters", *RATERS, *extra)
    assert code == 0, err
    assert "level nominal" not in out


def test_check_report_and_judge_say_it_too(likert: Path) -> None:
    code, out, err = run_cli("check", str(likert), "--raters", *RATERS, "--coefficient",
                             "krippendorff_alpha", "--min", "0.5")
    assert code in (0, 1), err
    assert out.splitlines()[0] == f"caveat: {CAVEAT}"
    code, out, err = run_cli("report", str(likert), "--raters", *RATERS)
    assert code == 0, err
    assert f"caveat: {CAVEAT}" in out.splitlines()[:3]
    code, out, err = run_cli("judge", str(likert), "--judge", "r5", "--humans", "r1", "r2",
                             "r3", "r4", "--test", "wilcoxon", "--n-resamples", "200",
                             "--seed", "1")
    assert code == 0, err
    assert out.splitlines()[0] == f"caveat: {CAVEAT}"


def test_report_and_judge_json_carry_the_level_caveat(likert: Path) -> None:
    code, out, err = run_cli("report", str(likert), "--raters", *RATERS, "--json")
    assert code == 0, err
    assert CAVEAT in json.loads(out)["caveats"]
    code, out, err = run_cli("judge", str(likert), "--judge", "r5", "--humans", "r1", "r2",
                             "r3", "r4", "--test", "wilcoxon", "--n-resamples", "200",
                             "--seed", "1", "--json")
    assert code == 0, err
    assert CAVEAT in json.loads(out)["caveats"]
