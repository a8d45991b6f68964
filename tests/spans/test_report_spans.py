"""The report on span-only data: every figure checked against bratiaa (pairwise strict F1,
mean and per label) and nervaluate (each pair's F1 in the four modes, one rater taken as
reference, since F1 is symmetric), the JSON schema, escaping and the CLI."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import accord
from accord.errors import DataError
from accord.report.json import schema
from accord.spans import MODES
from tests.conftest import run_cli

from ._oracle import bratiaa_figures
from .test_agreement import _brat_project

ROOT = Path(__file__).resolve().parents[2]
BRAT = ROOT / "tests" / "readers" / "data" / "brat_project"
NER = ROOT / "examples" / "ner_spans.csv"
NERVALUATE_MODE = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
SPAN_OPTS = ["--unit", "doc", "--rater", "annotator", "--label", "label", "--start", "start",
             "--end", "end"]


def _mode(rep: accord.Report, mode: str):  # type: ignore[no-untyped-def]
    assert rep.spans is not None
    return next(m for m in rep.spans.modes if m.mode == mode)


@pytest.mark.parametrize("seed", range(3))
def test_strict_figures_match_bratiaa(tmp_path: Path, seed: int) -> None:
    bratiaa = pytest.importorskip("bratiaa")
    root = _brat_project(tmp_path, seed)
    theirs = bratiaa_figures(bratiaa, root)
    rep = accord.report(accord.read(root), seed=1)
    strict = _mode(rep, "strict")
    assert strict.f1.estimate == pytest.approx(theirs.total, abs=1e-12)
    assert strict.f1.ci_low <= strict.f1.estimate <= strict.f1.ci_high
    assert rep.spans is not None
    for pair in rep.spans.pairs:
        assert pair.f1[0] == pytest.approx(theirs.pair(*pair.raters), abs=1e-12)
    ours = {r.name: r.estimate for r in strict.labels}
    checked = 0
    for label, value in theirs.by_label.items():
        if math.isfinite(value):  # bratiaa: nan when some pair has no span of the label
            assert ours[label] == pytest.approx(value, abs=1e-12)
            checked += 1
    assert checked


def _write(path: Path, rows: list[tuple[str, str, int, int, str]]) -> Path:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["doc", "annotator", "start", "end", "label"])
        w.writerows(rows)
    return path


def _random_rows(seed: int) -> list[tuple[str, str, int, int, str]]:
    rng = random.Random(seed)
    rows = []
    for d in range(6):
        for r in ("ann", "bob", "cy"):
            rows.append((f"d{d}", r, 0, 3, "A"))  # every rater annotated every document
            for slot in range(1, 5):
                if rng.random() < 0.7:
                    start = 20 * slot + rng.randint(0, 4)
                    rows.append((f"d{d}", r, start, start + rng.randint(1, 6), rng.choice("AB")))
    return rows


@pytest.mark.parametrize("seed", range(3))
def test_pair_f1_in_every_mode_matches_nervaluate(tmp_path: Path, seed: int) -> None:
    nervaluate = pytest.importorskip("nervaluate")
    rows = _random_rows(seed)
    path = _write(tmp_path / "spans.csv", rows)
    ann = accord.read(path, unit="doc", rater="annotator", value="label", start="start",
                      end="end")
    rep = accord.report(ann, seed=2)
    docs = sorted({r[0] for r in rows})

    def side(rater: str) -> list[list[dict[str, object]]]:
        return [[{"label": lab, "start": s, "end": e - 1} for d, r, s, e, lab in rows
                 if d == doc and r == rater] for doc in docs]  # nervaluate: inclusive ends

    assert rep.spans is not None
    for k, mode in enumerate(MODES):
        f1s = []
        for pair in rep.spans.pairs:
            a, b = pair.raters
            out = nervaluate.Evaluator(side(a), side(b), tags=["A", "B"], loader="dict")
            theirs = out.evaluate()["overall"][NERVALUATE_MODE[mode]].f1
            assert pair.f1[k] == pytest.approx(theirs, abs=1e-12)
            f1s.append(theirs)
        assert _mode(rep, mode).f1.estimate == pytest.approx(sum(f1s) / len(f1s), abs=1e-12)


def test_confusion_and_disagreements_are_the_library_s() -> None:
    ann = accord.read(NER, unit="doc", rater="annotator", value="label", start="start",
                      end="end")
    rep = accord.report(ann, seed=1, top_units=3)
    assert rep.spans is not None
    conf = accord.spans.label_confusion(ann, mode="exact")
    assert {(a, b, x, y): n for a, b, x, y, n in rep.spans.confusion} == {
        (a, b, x, y): n for (a, b), c in conf.items() for (x, y), n in c.items()}
    dis = accord.spans.span_disagreements(ann, mode="strict")
    assert rep.spans.n_disagreements == len(dis) and len(rep.spans.disagreements) == 3
    first = rep.spans.disagreements[0]
    assert (first.unit, first.raters, first.kind) == (str(dis[0].unit), dis[0].raters, dis[0].kind)
    # d02: ana marked 4-18 as ORG, cleo as PER (examples/ner_spans.csv)
    assert ("ana", "cleo", "ORG", "PER", 1) in rep.spans.confusion


def test_json_validates_and_key_absent_without_spans() -> None:
    rep = accord.report(accord.read(BRAT), seed=1)
    doc = json.loads(rep.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert [m["mode"] for m in doc["spans"]["modes"]] == list(MODES)
    assert doc["results"] == [] and doc["data"]["n_units"] == 2
    labels = accord.Annotations.from_pairs(list("aab"), list("abb"))
    plain = json.loads(accord.report(labels).to_json())
    assert "spans" not in plain


def test_every_format_escapes_hostile_text(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    rows = [("d1", "ann", 0, 5, evil), ("d1", "bob", 0, 5, "[bold]x[/bold]"),
            ("d1", evil, 8, 9, "PER")]
    ann = accord.read(_write(tmp_path / "evil.csv", rows), unit="doc", rater="annotator",
                      value="label", start="start", end="end")
    rep = accord.report(ann, seed=1)
    html = rep.to_html()
    assert evil not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = rep.to_markdown()
    assert evil not in md and "&lt;script&gt;" in md and "\\[bold\\]x\\[/bold\\]" in md
    console = Console(record=True, width=200)
    console.print(rep)
    assert "[bold]x[/bold]" in console.export_text()  # markup shown as text, not applied


def test_a_study_or_judge_on_span_data_is_refused() -> None:
    with pytest.raises(DataError, match="spans only.*accord check --coefficient span_f1"):
        accord.report(accord.read(BRAT), judge="Max")


def test_cli_report_on_a_brat_project_and_a_span_table(tmp_path: Path) -> None:
    code, out_text, err = run_cli("report", str(BRAT), "--seed", "1")
    assert code == 0, err
    assert "Agreement on spans" in out_text and "spans only" not in out_text + err
    out = tmp_path / "spans.json"
    code, _, err = run_cli("report", str(NER), *SPAN_OPTS, "--seed", "1", "-q", "-o", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text())
    ann = accord.read(NER, unit="doc", rater="annotator", value="label", start="start",
                      end="end")
    for m in doc["spans"]["modes"]:
        assert m["f1"]["estimate"] == accord.span_agreement(ann, mode=m["mode"]).f1.estimate


def test_a_span_table_and_selected_raters() -> None:
    ann = accord.read(BRAT)
    whole = accord.report(ann.spans, seed=1)
    assert whole.spans is not None and whole.spans.modes == accord.report(ann, seed=1).spans.modes
    two = accord.report(ann, raters=["Maria", "Max"], seed=1)
    assert two.spans is not None and two.spans.raters == ("Maria", "Max")
    assert (two.spans.n_spans, two.spans.n_units) == (7, 2)  # Maria 5, Max 2; Peter's 1 left out
    # one pair: the mean is that pair's F1, 2 M / (n_A + n_B) = 2 * 2 / (5 + 2)
    assert two.spans.modes[0].f1.estimate == pytest.approx(4 / 7, abs=1e-12)
    assert two.headline.startswith("2 raters marked 7 spans in 2 units.")
