"""accord report, check and disagreements: outputs and exit codes.

Figures: Cohen (1960, p. 45) table, kappa 0.4915 (SE 0.0510, Fleiss, Cohen &
Everitt 1969), so the 95% lower limit is 0.3916 (cases.json ``cohen_1960_p45``).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import COHEN_1960, run_cli, write_table_csv

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture()
def cohen_csv(tmp_path: Path) -> Path:
    return write_table_csv(tmp_path / "cohen.csv", COHEN_1960, "item,ann,bob", "")


run = run_cli


def study(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "study.toml"
    path.write_text(body, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- report
def test_report_console_summary(cohen_csv: Path) -> None:
    code, out, err = run("report", str(cohen_csv))
    assert code == 0, err
    assert "agree on 70.0% of the 200 units both rated" in out
    assert "Cohen's kappa = 0.4915 (95% CI 0.3916 to 0.5915)" in " ".join(out.split())
    assert "p_o = 0.7000   p_e = 0.4100   kappa = 0.4915" in out


@pytest.mark.parametrize(("suffix", "start"), [(".html", "<!DOCTYPE html>"), (".md", "# "),
                                               (".json", "{")])
def test_report_writes_each_format(cohen_csv: Path, tmp_path: Path, suffix: str,
                                   start: str) -> None:
    target = tmp_path / f"out{suffix}"
    code, out, err = run("report", str(cohen_csv), "-o", str(target), "-q")
    assert code == 0, err
    assert out == f"report written to {target.resolve()}\n"
    assert target.read_text(encoding="utf-8").startswith(start)


def test_report_to_stdout_needs_a_format(cohen_csv: Path) -> None:
    code, out, err = run("report", str(cohen_csv), "-o", "-", "--to", "json")
    assert code == 0, err
    doc = json.loads(out)
    kappa = next(r for r in doc["results"] if r["coefficient"] == "cohen_kappa")
    assert kappa["estimate"] == pytest.approx(0.4915254237, abs=1e-9)
    code, _, err = run("report", str(cohen_csv), "-o", "-")
    assert code == 2 and "--to" in err


def test_report_unknown_suffix_is_bad_usage(cohen_csv: Path, tmp_path: Path) -> None:
    code, _, err = run("report", str(cohen_csv), "-q", "-o", str(tmp_path / "r.pdf"))
    assert code == 2 and ".html, .md or .json" in err


def test_report_bootstrap_is_reproducible(cohen_csv: Path) -> None:
    args = ["report", str(cohen_csv), "--ci", "bootstrap", "--n-resamples", "300", "--seed", "9",
            "-o", "-", "--to", "json"]
    first, second = run(*args), run(*args)
    assert first[0] == 0 and first[1] == second[1]
    assert json.loads(first[1])["bootstrap"]["seed"] == 9


def test_report_with_the_bundled_study(tmp_path: Path) -> None:
    target = tmp_path / "demo.html"
    code, out, err = run("report", str(EXAMPLES / "pilot.csv"), "--raters", "annotator_a",
                         "annotator_b", "--study", str(EXAMPLES / "study.toml"), "-o",
                         str(target))
    assert code == 0, err
    assert "Decision: REJECTED" in out
    assert "lower 95% limit (asymptotic) 0.5946 < 0.6" in out
    assert out.rstrip().endswith(f"report written to {target.resolve()}")
    page = target.read_text(encoding="utf-8")
    assert "evidence register" in page and 'class="decision rejected"' in page


def test_report_pair_option(tmp_path: Path) -> None:
    code, out, err = run("report", str(EXAMPLES / "pilot.csv"), "--pair", "annotator_c",
                         "annotator_a", "-o", "-", "--to", "json")
    assert code == 0, err
    assert [p["raters"] for p in json.loads(out)["pairs"]] == [["annotator_c", "annotator_a"]]


def test_invalid_study_is_bad_usage(cohen_csv: Path, tmp_path: Path) -> None:
    path = study(tmp_path, "[acceptance]\nrule = 'kappa => 1'\n")
    for command in ("report", "check"):
        code, _, err = run(command, str(cohen_csv), "--study", str(path))
        assert code == 2 and "[acceptance].rule" in err


def _crowd_with_model_columns(tmp_path: Path) -> tuple[Path, Path]:
    """The example crowd with the example model's top label and confidence per unit: as a
    unit,label,confidence file, and as two more columns of the crowd's own rows."""
    probs = (EXAMPLES / "crowd_model.csv").read_text(encoding="utf-8").splitlines()
    top = {}
    for row in csv.DictReader(probs):
        label = max(("cat", "dog", "other"), key=lambda c: float(row[c]))
        top[row["unit"]] = (label, row[label])
    model = tmp_path / "top.csv"
    model.write_text("unit,label,confidence\n" + "".join(
        f"{u},{lab},{c}\n" for u, (lab, c) in top.items()), encoding="utf-8")
    rows = list(csv.reader((EXAMPLES / "crowd.csv").read_text(encoding="utf-8").splitlines()))
    data = tmp_path / "crowd_with_model.csv"
    with data.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow([*rows[0], "model_label", "model_conf"])
        w.writerows([*r, *top[r[0]]] for r in rows[1:])
    return model, data


CROWD_COLUMNS = ("--unit", "image", "--rater", "worker", "--value", "label")


def test_report_model_from_a_file_or_from_columns_of_data(tmp_path: Path) -> None:
    """``report --model`` takes what ``consensus --model`` takes: a file, or DATA's label
    and confidence columns, the same model either way."""
    import accord

    model, data = _crowd_with_model_columns(tmp_path)
    code, from_file, err = run("report", str(data), *CROWD_COLUMNS, "--model", str(model),
                               "--seed", "1", "--json")
    assert code == 0, err
    code, from_columns, err = run("report", str(data), *CROWD_COLUMNS, "--model",
                                  "model_label,model_conf", "--seed", "1", "--json")
    assert code == 0, err
    got = json.loads(from_columns)["annotators"]
    assert got == json.loads(from_file)["annotators"]
    pairs = {r["unit"]: (r["label"], float(r["confidence"]))
             for r in csv.DictReader(model.read_text(encoding="utf-8").splitlines())}
    ann = accord.read(EXAMPLES / "crowd.csv", unit="image", rater="worker", value="label")
    lib = accord.report(ann, seed=1, annotators_model=pairs).to_dict()["annotators"]
    assert got["model"] == lib["model"] and got["model"]["n_units"] == len(pairs)


def test_report_model_bad_input_says_what_consensus_says(tmp_path: Path) -> None:
    _, data = _crowd_with_model_columns(tmp_path)
    for value, words in [("no_such_file.csv", "no such file; to take the model from DATA's "
                          "own columns give two, its label column and its confidence column"),
                         ("model_label,nope", "DATA has no column 'nope'"),
                         ("a,b,c", "no such file")]:
        said = []
        for command in ("consensus", "report"):
            code, out, err = run(command, str(data), *CROWD_COLUMNS, "--model", value)
            assert code == 1 and out == "" and "Traceback" not in err, err
            said.append(err.strip().splitlines()[-1])
        assert said[0] == said[1] and said[0].startswith(f"accord: error: --model {value}: ")
        assert words in said[1]


# --------------------------------------------------------------------------- check
@pytest.mark.parametrize(("args", "code", "line"), [
    (["--min", "0.45"], 0, "ACCEPTED: cohen_kappa estimate 0.4915 >= 0.45 (n = 200 units)"),
    (["--min", "0.5"], 1, "REJECTED: cohen_kappa estimate 0.4915 < 0.5 (n = 200 units)"),
    (["--min", "0.39", "--on", "lower-ci"], 0,
     "ACCEPTED: cohen_kappa lower 95% limit (asymptotic) 0.3916 >= 0.39"),
    (["--min", "0.4", "--on", "lower-ci"], 1,
     "REJECTED: cohen_kappa lower 95% limit (asymptotic) 0.3916 < 0.4"),
])
def test_check_exit_codes(cohen_csv: Path, args: list[str], code: int, line: str) -> None:
    got, out, err = run("check", str(cohen_csv), "--raters", "ann", "bob",
                        "--coefficient", "cohen_kappa", *args)
    assert got == code, err
    assert out.startswith(line) and out.count("\n") == 1


def test_check_undefined_is_not_accepted(tmp_path: Path) -> None:
    path = tmp_path / "same.csv"
    path.write_text("item,a,b\n1,x,x\n2,x,x\n3,x,x\n", encoding="utf-8")
    code, out, err = run("check", str(path), "--raters", "a", "b", "--coefficient", "cohen_kappa",
                         "--min", "-1")
    assert code == 1, err
    assert out.startswith("UNDEFINED (not accepted): cohen_kappa is undefined")


def test_check_with_a_study(cohen_csv: Path, tmp_path: Path) -> None:
    named = "[annotators]\nnames = ['ann', 'bob']\n"
    accept = study(tmp_path, named + "[acceptance]\nrule = 'cohen_kappa >= 0.45'\n")
    code, out, _ = run("check", str(cohen_csv), "--study", str(accept))
    assert code == 0 and out.startswith("ACCEPTED")
    deviating = study(tmp_path, named + "[task]\ncategories = ['c0', 'c1']\n"
                      "[acceptance]\nrule = 'cohen_kappa >= 0.45'\n")
    code, out, _ = run("check", str(cohen_csv), "--study", str(deviating))
    assert code == 0 and out.rstrip().endswith("[1 protocol deviation(s): see accord report]")
    code, out, _ = run("check", str(EXAMPLES / "pilot.csv"), "--study",
                       str(EXAMPLES / "study.toml"))
    assert code == 1 and out.startswith("REJECTED: cohen_kappa lower 95% limit")


@pytest.mark.parametrize("args", [
    [],
    ["--coefficient", "cohen_kappa"],
    ["--min", "0.5"],
    ["--coefficient", "cohen_kappa", "scott_pi", "--min", "0.5"],
    ["--coefficient", "cohen_kappa", "--min", "0.5", "--on", "upper"],
    ["--coefficient", "nope", "--min", "0.5"],
])
def test_check_bad_usage_exits_2(cohen_csv: Path, args: list[str]) -> None:
    code, _, _ = run("check", str(cohen_csv), *args)
    assert code == 2


def test_check_study_and_rule_together_is_bad_usage(cohen_csv: Path, tmp_path: Path) -> None:
    path = study(tmp_path, "[acceptance]\nrule = 'cohen_kappa >= 0.45'\n")
    code, _, err = run("check", str(cohen_csv), "--study", str(path), "--min", "0.3")
    assert code == 2 and "not both" in err


@pytest.mark.parametrize("command", [["check", "--coefficient", "cohen_kappa", "--min", "0.6"],
                                     ["report", "-q", "-o", "-", "--to", "json"]])
def test_weights_on_undeclared_text_labels_warn_once(command: list[str]) -> None:
    """The sorted order is used (as documented) and a warning line or a note says so."""
    name, *rest = command
    pilot = str(EXAMPLES / "pilot.csv")
    raters = ["--raters", "annotator_a", "annotator_b"]
    code, out, err = run(name, pilot, *raters, *rest, "--weights", "linear")
    assert code == 0, err
    if name == "report":  # the report keeps it among its notes
        assert any("declare the order" in n for n in json.loads(out)["notes"])
    else:
        assert err.count("accord: warning:") == 1 and "declare the order" in err
    code, out, err = run(name, pilot, *raters, *rest, "--weights", "linear",
                         "--categories", "genuine", "spam", "off_topic")
    assert code == 0 and "declare the order" not in err


def test_check_data_it_cannot_decide_on_exits_2(tmp_path: Path) -> None:
    """Exit 1 means rejected or undefined, nothing else: data without a decision exit 2."""
    path = tmp_path / "one.csv"
    path.write_text("item,a\n1,x\n", encoding="utf-8")
    code, out, err = run("check", str(path), "--raters", "a", "--coefficient", "cohen_kappa",
                         "--min", "0.5")
    assert code == 2 and out == "" and err.startswith("accord: error:")


# --------------------------------------------------------------------------- disagreements
def test_disagreements_csv(cohen_csv: Path, tmp_path: Path) -> None:
    code, out, err = run("disagreements", str(cohen_csv))
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["unit", "ann", "bob", "n_ratings", "agreement", "adjudicated", "comment"]
    assert len(rows) - 1 == 200 - (88 + 40 + 12)  # every off-diagonal unit of Cohen's table
    target = tmp_path / "review.csv"
    code, out, _ = run("disagreements", str(cohen_csv), "--raters", "ann", "bob", "-o",
                       str(target), "--limit", "5", "--sort", "disagreement")
    assert code == 0
    assert out == f"60 of 200 compared units have a disagreement; 5 written to {target.resolve()}\n"
    assert len(target.read_text(encoding="utf-8").splitlines()) == 6


def test_disagreements_neutralise_formulas(tmp_path: Path) -> None:
    path = tmp_path / "evil.csv"
    path.write_text('item,a,b\n1,"=cmd|\' /C calc\'!A0",ok\n2,ok,ok\n', encoding="utf-8")
    code, out, err = run("disagreements", str(path))
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[1][1] == "'=cmd|' /C calc'!A0" and len(rows) == 2


@pytest.mark.parametrize("command", [["check", "--coefficient", "cohen_kappa", "--min", "0.1"],
                                     ["report", "-q"]])
def test_an_invalid_confidence_level_is_bad_usage_even_when_unused(cohen_csv: Path,
                                                                   command: list[str]) -> None:
    """check --on estimate never builds an interval; the typo must still be caught."""
    name, *rest = command
    code, _, err = run(name, str(cohen_csv), "--raters", "ann_a", "ann_b", *rest,
                       "--confidence-level", "1.5")
    assert code == 2 and "--confidence-level" in err


@pytest.mark.parametrize(("output", "to", "message"), [
    ("r.md", "json", "names a markdown file but --to is json"),
    ("r.txt", None, "name a .html, .md or .json file"),
])
def test_output_name_and_to_must_agree_before_any_work(cohen_csv: Path, tmp_path: Path,
                                                       output: str, to: str | None,
                                                       message: str) -> None:
    target = tmp_path / output
    code, _, err = run("report", str(cohen_csv), "--raters", "ann_a", "ann_b", "-q",
                       "-o", str(target), *(["--to", to] if to else []))
    assert code == 2 and message in err and not target.exists()
