"""``accord multilabel``, ``--separator`` and ``--multilabel`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.errors import DuplicateRatingError
from tests.conftest import run_cli as run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "toxicity_multilabel.csv"


def test_json_matches_the_library() -> None:
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--json")
    assert code == 0, err
    doc = json.loads(out)
    got = {(r["figure"], r.get("label")): r for r in doc["results"]}
    ann = accord.read(EXAMPLE, label_separator=";")
    want = accord.multilabel_agreement(ann)
    assert doc["labels"] == list(want.labels)
    for label, r in want.per_label.items():
        assert got["label", label]["estimate"] == r.estimate
        assert got["label", label]["confidence_interval"]["low"] == r.confidence_interval().low
    assert got["masi_alpha", None]["estimate"] == want.masi_alpha.estimate  # type: ignore[union-attr]
    assert got["max_percentage", None]["estimate"] == want.max_percentage.estimate
    assert got["mean_jaccard", None]["confidence_interval"]["low"] == \
        want.mean_jaccard.confidence_interval().low


def test_console_table_and_summaries() -> None:
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--raters",
                         "annotator_a", "annotator_b", "--coefficient", "cohen_kappa")
    assert code == 0, err
    assert "per label: cohen_kappa" in out and "toxic" in out
    assert "masi alpha on the sets" in out and "maximum-percentage agreement" in out


def test_long_multilabel_file(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text("item,annotator,label\n1,A,toxic\n1,A,spam\n1,B,spam\n2,A,ok\n2,B,ok\n"
                    "3,A,spam\n3,B,toxic\n3,B,spam\n4,A,ok\n4,B,toxic\n")
    code, out, err = run("multilabel", str(path), "--multilabel", "--json")
    assert code == 0, err
    assert json.loads(out)["labels"] == ["ok", "spam", "toxic"]
    code, out, err = run("compute", str(path), "--multilabel")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "accord multilabel" in err


def test_compute_refuses_separated_cells_in_one_line() -> None:
    code, _, err = run("compute", str(EXAMPLE), "--separator", ";")
    assert code == 1
    assert err.startswith("accord: error: ") and "these ratings are sets of labels" in err


def test_two_rater_coefficient_with_three_raters_is_one_line() -> None:
    code, _, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--coefficient",
                       "cohen_kappa")
    assert code == 1 and "compares two raters" in err and err.count("\n") == 1


def test_wide_separated_and_long_multilabel_files_give_the_same_figures() -> None:
    long_path = EXAMPLE.with_name("toxicity_multilabel_long.csv")
    wide = accord.multilabel_agreement(accord.read(EXAMPLE, label_separator=";"))
    long = accord.multilabel_agreement(accord.read(long_path, multilabel=True))
    assert wide.to_dict() == long.to_dict()


def test_table_and_evaluate_point_to_accord_multilabel() -> None:
    for args in (("table", str(EXAMPLE), "--raters", "annotator_a", "annotator_b"),
                 ("evaluate", str(EXAMPLE), "--gold", "annotator_a", "--predicted",
                  "annotator_b")):
        code, _, err = run(*args, "--separator", ";")
        assert code == 1 and err.count("\n") == 1
        assert f"`accord {args[0]}` needs one label per rating" in err


def test_reference_scores_the_other_raters() -> None:
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--reference",
                         "annotator_a", "--json")
    assert code == 0, err
    got = {r.pop("rater"): r for r in json.loads(out)["results"]}
    assert set(got) == {"annotator_b", "annotator_c"}
    ann = accord.read(EXAMPLE, label_separator=";")
    codes = ann.wide()
    cats = [*ann.categories, None]
    ref = [cats[c] for c in codes[:, 0]]
    want = accord.evaluate_multilabel(ref, [cats[c] for c in codes[:, 2]], labels=ann.labels)
    assert got["annotator_c"] == json.loads(json.dumps(want.to_dict()))
    assert want.n_units == 40 and want.n_left_out == 20
    code, _, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--reference", "nobody")
    assert code == 1 and "reference rater 'nobody' not found" in err


def test_long_multilabel_file_read_without_multilabel_names_the_option() -> None:
    """A rater giving a unit several labels, one row each, read without --multilabel: every
    command says to read the rows as sets, never to keep the last row."""
    long_path = EXAMPLE.with_name("toxicity_multilabel_long.csv")
    for command in ("compute", "report", "multilabel", "evaluate", "table"):
        code, _, err = run(command, str(long_path))
        assert code == 1 and err.count("\n") == 1, (command, err)
        assert "--multilabel" in err and "looks like multilabel data" in err, command
        assert "--duplicates" not in err and "last" not in err, command
    with pytest.raises(DuplicateRatingError, match="multilabel=True") as info:
        accord.read(long_path)
    assert "duplicates='last'" not in str(info.value)
    assert "52 of 160 (unit, rater) pairs hold several different labels" in str(info.value)


def test_guessed_layout_is_said_first_and_in_the_json() -> None:
    """The wide layout of the example is guessed: the caveat leads the console output
    (also against a reference) and is the first key of the JSON."""
    for extra in ((), ("--reference", "annotator_a")):
        code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", *extra)
        assert code == 0, err
        assert out.splitlines()[0].startswith("caveat: guessed layout"), out[:200]
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--json")
    got = json.loads(out)
    assert list(got)[:4] == ["schema_version", "command", "results", "caveats"]
    assert got["caveats"][0].startswith("guessed layout")
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--raters",
                         "annotator_a", "annotator_b", "annotator_c", "--json")
    assert code == 0, err
    # the layout is named; what is said is how empty cells were read (annotator_c's 20)
    assert json.loads(out)["caveats"] == [
        "20 empty cell(s) read as missing ratings, not as the empty set: to score 'no label "
        "applies', pass --empty-label '' (an empty cell) or write a marker such as none and "
        "pass --empty-label none"]


def test_macro_mean_has_the_unit_bootstrap_interval() -> None:
    """The macro mean's interval is MultilabelAgreement.macro_interval with the report's
    default bootstrap (1,999 resamples, seed 0), or the --ci bootstrap when given."""
    res = accord.multilabel_agreement(accord.read(EXAMPLE, label_separator=";"))
    want = res.macro_interval(method=accord.Bootstrap(n_resamples=1999, rng=0))
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--json")
    assert code == 0, err
    (macro,) = (r for r in json.loads(out)["results"] if r["figure"] == "macro")
    got = macro["confidence_interval"]
    assert (got["low"], got["high"]) == (want.low, want.high)
    assert want.low < res.macro < want.high
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";")
    line = next(x for x in out.splitlines() if x.startswith("macro mean over labels"))
    assert f"[{want.low:.3f}, {want.high:.3f}]" in line and "bootstrap over units" in line
    own = res.macro_interval(method=accord.Bootstrap(n_resamples=499, rng=3))
    code, out, err = run("multilabel", str(EXAMPLE), "--separator", ";", "--json", "--ci",
                         "bootstrap", "--n-resamples", "499", "--seed", "3")
    assert code == 0, err
    (macro,) = (r for r in json.loads(out)["results"] if r["figure"] == "macro")
    assert macro["confidence_interval"]["low"] == own.low
