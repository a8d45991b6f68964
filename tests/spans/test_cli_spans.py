"""``accord spans``: the figures of span_agreement / evaluate_spans, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ner_spans.csv"
COLS = ("--unit", "doc", "--rater", "annotator", "--label", "label", "--start", "start",
        "--end", "end")  # fmt: skip


def _read() -> accord.Annotations:
    return accord.read(EXAMPLE, unit="doc", rater="annotator", value="label", start="start",
                       end="end")  # fmt: skip


@pytest.mark.parametrize("mode", ["strict", "partial"])
def test_json_gives_the_library_figures(mode: str) -> None:
    code, out, err = run_cli("spans", str(EXAMPLE), *COLS, "--mode", mode, "--json",
                             "--n-resamples", "100", "--seed", "4")  # fmt: skip
    assert code == 0, err
    doc = json.loads(out)
    got = {(r["figure"], r.get("label")): r for r in doc["results"]}
    want = accord.span_agreement(_read(), mode=mode)  # type: ignore[arg-type]
    assert got["f1", None]["estimate"] == want.f1.estimate
    ci = want.f1.confidence_interval(0.95, method=accord.Bootstrap(n_resamples=100, rng=4))
    assert got["f1", None]["confidence_interval"]["low"] == ci.low
    assert [p["raters"] for p in doc["pairs"]] == [list(k) for k in want.pairs]
    assert got["label_f1", "PER"]["estimate"] == want.per_label["PER"].estimate


def test_gold_scores_every_other_rater() -> None:
    code, out, err = run_cli("spans", str(EXAMPLE), *COLS, "--gold", "ana", "--json",
                             "--n-resamples", "0")  # fmt: skip
    assert code == 0, err
    got = {r.pop("rater"): r for r in json.loads(out)["results"]}
    assert sorted(got) == ["ben", "cleo"]
    ann = _read()
    want = accord.evaluate_spans(ann, ann, reference_rater="ana", predicted_rater="cleo")
    assert got["cleo"]["f1"]["estimate"] == want.f1.estimate
    assert got["cleo"]["f1"]["confidence_interval"] is None
    assert got["cleo"]["left_out"] == {"skipped": 0, "not_seen": 1}


def test_console_names_pairs_and_units_left_out() -> None:
    code, out, err = run_cli("spans", str(EXAMPLE), *COLS, "--n-resamples", "50", "--seed", "1")
    assert code == 0, err
    assert "mean pairwise F1 0.6148" in out
    assert "ana / cleo: units annotated by only one of them left out (1 not seen)" in out


@pytest.mark.parametrize(
    ("args", "status", "needle"),
    [
        (("--mode", "loose"), 2, "Invalid value for '--mode'"),
        (("--gold", "zed"), 1, "--gold 'zed' is not a rater here"),
        (("--confidence-level", "2"), 2, "--confidence-level"),
    ],
)
def test_errors_are_one_line(args: tuple[str, ...], status: int, needle: str) -> None:
    code, _, err = run_cli("spans", str(EXAMPLE), *COLS, *args)
    assert code == status
    assert needle in err
    assert "Traceback" not in err


def test_data_without_spans_says_how_to_read_a_span_table() -> None:
    pilot = EXAMPLE.parent / "pilot.csv"
    code, _, err = run_cli("spans", str(pilot))
    assert code == 1
    assert err.strip() == (
        f"accord: error: {pilot}: no spans were read; accord spans needs a span export (brat, "
        "INCEpTION, Label Studio, doccano, Prodigy, CoNLL, ...) or a span table read with "
        "--start and --end (with --unit, --rater and --label)."
    )


@pytest.mark.parametrize("suffix", ["parquet", "jsonl"])
def test_span_tables_in_parquet_and_jsonl(tmp_path: Path, suffix: str) -> None:
    import polars as pl

    frame = pl.read_csv(EXAMPLE)  # integer offsets, empty cells for "annotated, no span"
    path = tmp_path / f"spans.{suffix}"
    frame.write_parquet(path) if suffix == "parquet" else frame.write_ndjson(path)
    code, out, err = run_cli("spans", str(path), *COLS, "--json", "--n-resamples", "0")
    assert code == 0, err
    (f1,) = (r for r in json.loads(out)["results"] if r["figure"] == "f1")
    assert f1["estimate"] == accord.span_agreement(_read()).f1.estimate


def test_disagreements_are_listed_with_their_text_escaped(tmp_path: Path) -> None:
    brat = EXAMPLE.parents[1] / "tests" / "readers" / "data" / "brat_project"
    code, out, err = run_cli("spans", str(brat), "--n-resamples", "0", "--disagreements", "2")
    assert code == 0, err
    assert "disagreements (first 2 of 9)" in out
    assert "PER 18-21 'Zoë'" in out
    code, out, err = run_cli("spans", str(brat), "--n-resamples", "0", "--disagreements", "50",
                             "--gold", "Maria", "--json")  # fmt: skip
    got = json.loads(out)
    assert got["n_disagreements"] == len(got["disagreements"]) == 6
    assert {tuple(d["raters"]) for d in got["disagreements"]} == {("Maria", "Max"),
                                                                   ("Maria", "Peter")}


def test_span_text_is_shown_escaped() -> None:
    from accord.cli._spans_view import _span
    from accord.readers.spans import Span

    shown = _span(Span("d", "a", 0, 9, "X", text="\x1b[31mred\nline"))
    assert shown == "X 0-9 '\\x1b[31mred\\nline'"
    assert "\x1b" not in shown and "\n" not in shown


def test_gold_gives_the_human_ceiling_of_systems() -> None:
    """--kind cleo=model makes cleo a system: its F1 is set against ben's (the one other
    human) on cleo's documents, with the library's paired bootstrap (same resamples)."""
    code, out, err = run_cli("spans", str(EXAMPLE), *COLS, "--gold", "ana", "--kind",
                             "cleo=model", "--json", "--n-resamples", "500", "--seed", "2")
    assert code == 0, err
    got = {r["rater"]: r for r in json.loads(out)["results"]}
    ann = accord.read(EXAMPLE, unit="doc", rater="annotator", value="label", start="start",
                      end="end", kinds={"cleo": "model"})
    want = accord.evaluate(ann, reference="ana", systems="cleo",
                           method=accord.Bootstrap(n_resamples=500, rng=2)).ceiling
    assert want is not None and got["ben"]["ceiling"] is None
    assert got["cleo"]["ceiling"]["sentence"] == want.sentence
    assert got["cleo"]["ceiling"]["humans"]["ben"]["estimate"] == want.humans["ben"].estimate
    assert got["cleo"]["ceiling"]["comparisons"]["ben"]["difference"]["confidence_interval"][
        "low"] == want.comparisons["ben"].interval.low
    code, out, err = run_cli("spans", str(EXAMPLE), *COLS, "--gold", "ana", "--kind",
                             "cleo=model")
    assert code == 0, err
    assert "human ceiling: cleo's f1" in out
    code, out, err = run_cli("spans", str(EXAMPLE), *COLS, "--gold", "ana", "--kind",
                             "cleo=model", "--n-resamples", "0")
    assert code == 0 and "human ceiling left out" in out
