"""``accord judge bias | rank | consistency | calibration | ppi | panel`` and the reader of
pairwise judge annotations (AlpacaEval's annotations.json, JSONL, CSV).

The CLI's figures are those of the library on the same data (each checked against its
oracle in test_judge_*.py); here: every --help example runs, the JSON equals the
library's, the classic ``accord judge DATA`` still works, and bad input is one line.
"""

from __future__ import annotations

import csv
import json
import math
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import accord
from accord.cli import main
from accord.errors import FormatError
from accord.judge.pairs_io import read_pairwise
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]
SLICE = ROOT / "examples" / "alpaca_eval_slice.json"
LAB = ("bias", "rank", "consistency", "calibration", "ppi", "panel", "alt")


def _examples(command: str) -> list[str]:
    out = CliRunner().invoke(main, ["judge", command, "--help"])
    assert out.exit_code == 0, out.output
    lines: list[str] = []
    for raw in out.output.splitlines():
        line = raw.strip()
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1].rstrip() + " " + line
        elif line.startswith("accord judge"):
            lines.append(line)
    return lines


@pytest.mark.parametrize("line", [x for c in LAB for x in _examples(c)])
def test_every_subcommand_help_example_runs(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err = run(*shlex.split(line)[1:])
    assert code == 0, (line, err)


def test_each_subcommand_shows_examples() -> None:
    assert all(len(_examples(c)) >= 2 for c in LAB)


def _figures(doc: dict[str, Any], *params: str) -> dict[Any, dict[str, Any]]:
    """The document's results by figure name (and parameter), without those fields: each
    the library's ``to_dict()``."""
    out = {}
    for row in doc["results"]:
        key = (row["figure"], *(row[p] for p in params if p in row))
        out[key if len(key) > 1 else key[0]] = {
            k: v for k, v in row.items() if k not in ("figure", *params)}
    return out


def test_bias_json_matches_the_library() -> None:
    code, out, err = run("judge", "bias", str(SLICE), "--family", "gpt4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    got = {**_figures(doc, "rater"), "notes": doc["notes"]}
    table = read_pairwise(SLICE)
    lib = accord.preferences(table.columns, judge="alpaca_eval_gpt4",
                             lengths=("len_first", "len_second"),
                             generators=("first", "second"), family="gpt4")
    assert lib.length_bias is not None and lib.self_preference is not None
    assert got["length_bias"] == lib.length_bias.to_dict()
    assert got["self_preference"]["estimate"] == lib.self_preference.estimate
    assert "no pair in both orders" in got["notes"][0]


def test_rank_json_matches_the_library() -> None:
    code, out, err = run("judge", "rank", str(SLICE), "--json")
    assert code == 0, err
    lib = accord.bradley_terry(read_pairwise(SLICE).comparisons())
    assert _figures(json.loads(out), "item")["strength", "gpt4"] == \
        lib.strength["gpt4"].to_dict()


def test_rank_bootstrap_intervals_are_the_library_s_and_say_what_was_dropped() -> None:
    code, out, err = run("judge", "rank", str(SLICE), "--bootstrap", "200", "--seed", "4",
                         "--json")
    assert code == 0, err
    lib = accord.bradley_terry(read_pairwise(SLICE).comparisons())
    ci = lib.strength["gpt4"].confidence_interval(method=accord.Bootstrap(n_resamples=200,
                                                                          rng=4))
    got = _figures(json.loads(out), "item")
    assert got["strength", "gpt4"]["confidence_interval"] == ci.to_dict()
    # Elo is linear in the log-strength: its interval is the strength's, rescaled
    elo = lib.elo()["gpt4"]
    scale = elo.details["scale"] / math.log(10.0)
    assert got["elo", "gpt4"]["confidence_interval"]["low"] == pytest.approx(
        elo.details["base"] + scale * ci.low, rel=1e-12)
    assert ci.n_excluded > 0  # the slice is sparse: some resamples leave an item unbeaten
    code, out, err = run("judge", "rank", str(SLICE), "--bootstrap", "200", "--seed", "4")
    assert code == 0, err
    assert f"{ci.n_excluded} left out because some strength was infinite" in out


def test_the_classic_invocation_still_runs_the_alt_test() -> None:
    code, out, err = run("judge", str(ROOT / "examples" / "judge.csv"), "--judge", "gpt4",
                         "--missing", "ERROR", "--n-resamples", "100", "--json")
    assert code == 0, err
    assert "alt_test" in json.loads(out)


def test_the_reader_gives_the_same_table_from_json_jsonl_and_csv(tmp_path: Path) -> None:
    records = json.loads(SLICE.read_text(encoding="utf-8"))[:40]
    (tmp_path / "a.jsonl").write_text("\n".join(json.dumps(r) for r in records), "utf-8")
    with open(tmp_path / "a.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(records[0]))
        w.writeheader()
        w.writerows(records)
    a, b, c = read_pairwise(records), read_pairwise(tmp_path / "a.jsonl"), \
        read_pairwise(tmp_path / "a.csv")
    assert a.columns == b.columns == c.columns
    assert a.columns["len_first"][0] == len(records[0]["output_1"])


def test_alpaca_eval_preferences_are_read_by_its_convention() -> None:
    base = {"instruction": "q", "output_1": "aa", "output_2": "b", "generator_1": "x",
            "generator_2": "y"}
    prefs = [1, 2, 1.5, 0, None, 1.8, "2.0"]
    t = read_pairwise([{**base, "instruction": f"q{i}", "preference": p}
                       for i, p in enumerate(prefs)])
    assert t.columns["verdict"] == ["A", "B", "tie", "tie", None, "B", "B"]
    assert (t.n_no_verdict, t.n_weighted) == (1, 1)


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="record 1 has no generator_2"):
        read_pairwise([{"instruction": "q", "output_1": "a", "output_2": "b",
                        "generator_1": "x", "preference": 1}])
    with pytest.raises(FormatError, match="expected a value from 1"):
        read_pairwise([{"instruction": "q", "output_1": "a", "output_2": "b",
                        "generator_1": "x", "generator_2": "y", "preference": 3}])
    bad = tmp_path / "scores.csv"
    bad.write_text("item,p,h\n1,0.4,1\n2,1.3,0\n3,0.2,0\n")
    code, _, err = run("judge", "calibration", str(bad), "--score", "p", "--label", "h")
    assert code == 1 and "outside [0, 1]" in err and len(err.strip().splitlines()) == 1
    code, _, err = run("judge", "bias", str(SLICE), "--judge", "someone")
    assert code == 1 and err.count("\n") == 1


def test_bias_with_humans_and_both_orders_from_a_csv(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    rows = ["item,output_1,output_2,generator_1,generator_2,annotator,preference"]
    for i in range(12):
        long_first = i % 2 == 0
        a, b = ("x" * 40, "y" * 10) if long_first else ("x" * 10, "y" * 40)
        rows += [f"q{i},{a},{b},m1,m2,judge,1", f"q{i},{b},{a},m2,m1,judge,{1 + i % 3 // 2}",
                 f"q{i},{a},{b},m1,m2,human,{1 if i % 3 else 2}"]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = run("judge", "bias", str(path), "--judge", "judge", "--family", "m1",
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    got = _figures(doc, "rater")
    table = read_pairwise(path)
    lib = accord.preferences(table.columns, judge="judge", lengths=("len_first", "len_second"),
                             generators=("first", "second"), family="m1")
    assert lib.length_bias_humans is not None and lib.position["judge"].n_units == 12
    assert got["length_bias_humans"] == lib.length_bias_humans.to_dict()
    assert got["position", "judge"] == lib.position["judge"].to_dict()
    assert got["self_preference_excess"]["estimate"] == lib.self_preference_excess.estimate
