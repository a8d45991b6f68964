"""The report of box data: the job "Agreement on boxes", its figures the library's
(:func:`accord.box_agreement`), its JSON valid against the report's schema, every medium
opening with the verdict, and hostile labels kept as text."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import accord
from accord.errors import DataError
from accord.readers.boxes import box_table
from accord.report.json import schema
from accord.report.shapes_report import DEFAULT_RESAMPLES, MOST_DISPUTED, disputed, quiet_counts
from accord.report.shapes_section import BOXES as BOX_KIND
from tests.conftest import run_cli

EX = Path(__file__).resolve().parents[2] / "examples"
BOXES = EX / "boxes.csv"
COCO = [EX / "boxes_coco" / f"{n}.json" for n in ("ann", "bob", "cleo")]
EVIL = "<img src=x onerror=alert(1)>"


def _console(rep: accord.Report) -> str:
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    console.print(rep)
    return console.export_text()


@pytest.fixture(scope="module")
def report() -> accord.Report:
    return accord.report(accord.read(BOXES), seed=3)


def _same(fig: object, res: accord.AgreementResult, boot: object, level: float) -> None:
    assert fig.estimate == res.estimate  # type: ignore[attr-defined]
    ci = res.confidence_interval(level, method=boot)  # type: ignore[arg-type]
    # the same resamples; the percentile of the report's copy may differ in the last bit
    # (the sums of a resample run in another order on some CPUs)
    assert (fig.ci_low, fig.ci_high) == pytest.approx(  # type: ignore[attr-defined]
        (ci.low, ci.high), rel=1e-13, abs=0)


def test_the_section_s_figures_are_box_agreement_s(report: accord.Report) -> None:
    s = report.shapes
    assert s is not None and report.job is not None and report.job.kind == "boxes"
    res = accord.box_agreement(BOXES, n_resamples=DEFAULT_RESAMPLES, rng=3)
    level = report.settings.confidence_level
    for name in ("f1", "mean_iou", "alpha"):
        _same(s.figure(name), getattr(res, name), res.bootstrap, level)
    assert [r.label for r in s.per_label] == list(res.per_label)
    for row in s.per_label:
        _same(row.f1, res.per_label[row.label].f1, res.bootstrap, level)
        _same(row.mean, res.per_label[row.label].mean_iou, res.bootstrap, level)
    assert [p.annotators for p in s.pairs] == list(res.pairs)
    for p in s.pairs:
        _same(p.f1, res.pairs[p.annotators].f1, res.bootstrap, level)
    assert [(r.threshold, r.f1, r.mean, r.alpha) for r in s.sweep] == [
        (f.iou_threshold, f.f1.estimate, f.mean_iou.estimate, f.alpha.estimate)
        for f in res.sweep if f.alpha is not None]
    assert s.annotators == tuple(res.audit["annotators"]) and s.n_images == res.audit["images"]
    assert s.n_shapes == res.audit["boxes"]
    f1 = s.figure("f1")
    assert report.job.figure == f"{f1.estimate:.3f}"
    assert f"pairwise F1 {f1.estimate:.3f} (95% CI {f1.ci_low:.3f} to {f1.ci_high:.3f})" \
        in report.job.verdict
    assert report.settings.n_resamples == DEFAULT_RESAMPLES and report.settings.seed == 3


def test_a_coco_export_and_a_box_table_give_the_same_section() -> None:
    rep = accord.report(accord.read(COCO))
    res = accord.box_agreement([str(p) for p in COCO], n_resamples=DEFAULT_RESAMPLES)
    assert rep.shapes is not None and rep.shapes.figure("alpha").estimate == res.alpha.estimate
    assert rep.data.caveats == ()  # nothing guessed: the export says it holds boxes
    table = accord.read(BOXES).meta["boxes"]
    again = accord.report(table, seed=3)
    assert again.shapes is not None and again.job is not None and again.job.kind == "boxes"
    assert again.shapes.figures == accord.report(accord.read(BOXES), seed=3).shapes.figures


def test_the_guess_is_said_first_in_every_medium(report: accord.Report) -> None:
    caveat = report.data.caveats[0]
    assert caveat.startswith("read as boxes") and "x, y, w, h" in caveat
    md = report.to_markdown().splitlines()
    assert md[0] == "# Agreement on boxes" and "read as boxes" in md[2]
    page = report.to_html()
    assert page.index("read as boxes") < page.index('id="verdict"')
    assert _console(report).splitlines()[1].startswith("caveat: read as boxes")


def test_the_json_validates_and_uses_the_shared_vocabulary(report: accord.Report) -> None:
    doc = json.loads(report.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert doc["job"]["kind"] == "boxes" and doc["results"] == []
    part = doc["boxes"]
    assert [r["figure"] for r in part["results"]] == ["f1", "mean_iou", "alpha"]
    f1 = part["results"][0]
    assert f1["estimate"] == report.shapes.figure("f1").estimate  # type: ignore[union-attr]
    assert set(f1["confidence_interval"]) == {"low", "high", "confidence_level", "method"}
    assert f1["confidence_interval"]["method"] == "bootstrap-percentile"
    assert len(part["sweep"]) == 10 and 1 <= len(part["disputed_images"]) <= MOST_DISPUTED
    code, out, err = run_cli("report", str(BOXES), "--json")
    assert code == 0, err
    jsonschema.Draft202012Validator(schema()).validate(
        {k: v for k, v in json.loads(out).items() if k != "command"})


def test_the_most_disputed_image_is_the_one_with_the_lowest_f1() -> None:
    # i1: both annotators agree (F1 1); i2: one cat matches, bob's dog is his alone and
    # ann's bird has the wrong label: M = 1, N = 2 + 3, F1 = 2/5
    data = {"image": ["i1", "i1", "i2", "i2", "i2", "i2", "i2"],
            "annotator": ["ann", "bob", "ann", "ann", "bob", "bob", "bob"],
            "label": ["cat", "cat", "cat", "bird", "cat", "dog", "cat"],
            "x": [0, 0, 0, 50, 1, 90, 50], "y": [0, 0, 0, 50, 0, 90, 50],
            "w": [10, 10, 10, 8, 10, 5, 8], "h": [10, 10, 10, 8, 10, 5, 8]}
    rep = accord.report(box_table(data))
    assert rep.shapes is not None
    first, second = rep.shapes.disputed
    assert (first.image, first.f1, first.n_shapes, first.n_matched) == ("i2", 0.4, 5, 1)
    assert (second.image, second.f1) == ("i1", 1.0)
    assert {(b.annotator, b.label) for b in first.shapes} == {
        ("ann", "cat"), ("ann", "bird"), ("bob", "cat"), ("bob", "dog")}
    table = accord.read(BOXES).meta["boxes"]
    assert disputed(table, BOX_KIND, quiet_counts(table, "boxes", 0.5), top=2)[0].f1 <= 1.0


def test_hostile_labels_stay_text_in_every_medium(tmp_path: Path) -> None:
    path = tmp_path / "evil.csv"
    path.write_text(f"image,annotator,label,x,y,w,h\n{EVIL},ann,{EVIL},0,0,10,10\n"
                    f"{EVIL},bob,[bold]x[/bold],1,0,10,10\ni2,bob,{EVIL},5,5,4,4\n")
    rep = accord.report(accord.read(path))
    page = rep.to_html()
    assert EVIL not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<img" not in page
    assert EVIL not in rep.to_markdown()
    text = _console(rep)
    assert EVIL in text and "[bold]x[/bold]" in text
    assert any(r.label == EVIL for r in rep.shapes.per_label)  # type: ignore[union-attr]


def test_a_study_or_a_judge_is_refused_in_one_sentence() -> None:
    ann = accord.read(BOXES)
    with pytest.raises(DataError, match="the data hold boxes only, and a judge is checked"):
        accord.report(ann, judge="ann")
    with pytest.raises(DataError, match="compare boxes with accord boxes"):
        accord.report(ann, study=EX / "study.toml")


def test_undefined_figures_say_why() -> None:
    # nothing matches: F1 is 0, mean IoU undefined, and the verdict says why
    data = {"image": ["i1", "i1"], "annotator": ["a", "b"], "label": ["cat", "cat"],
            "x": [0, 50], "y": [0, 50], "w": [10, 10], "h": [10, 10]}
    rep = accord.report(box_table(data))
    assert rep.shapes is not None
    iou = rep.shapes.figure("mean_iou")
    assert math.isnan(iou.estimate) and iou.undefined_reason
    assert f"mean IoU undefined ({iou.undefined_reason})" in rep.shapes.sentence
    doc = json.loads(rep.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert doc["boxes"]["results"][1]["confidence_interval"] is None
    assert any("mean_iou" in n for n in rep.notes)


def test_raters_selects_the_annotators_whose_boxes_are_compared() -> None:
    rep = accord.report(accord.read(BOXES), raters=["ann", "bob"], seed=3)
    assert rep.shapes is not None and rep.shapes.annotators == ("ann", "bob")
    table = accord.read(BOXES).meta["boxes"]
    two = {k: [x for x, r in zip(v, table.rater.tolist()) if table.raters[r] != "cleo"]
           for k, v in {"image": [table.units[u] for u in table.unit.tolist()],
                        "annotator": [table.raters[r] for r in table.rater.tolist()],
                        "label": [table.labels[k] for k in table.label.tolist()],
                        **{c: table.xywh[:, i].tolist() for i, c in enumerate("xywh")}}.items()}
    res = accord.box_agreement(two, n_resamples=DEFAULT_RESAMPLES, rng=3)
    assert rep.shapes.figure("f1").estimate == res.f1.estimate
    assert rep.shapes.figure("alpha").estimate == res.alpha.estimate
    assert [p.annotators for p in rep.shapes.pairs] == [("ann", "bob")]


def test_a_long_table_with_width_and_height_columns_is_read_as_boxes(tmp_path: Path) -> None:
    path = tmp_path / "b.csv"
    path.write_text("photo,coder,class,X,Y,Width,Height\np1,a,cat,0,0,10,10\n"
                    "p1,b,cat,1,0,10,10\np2,a,dog,5,5,4,4\n")
    ann = accord.read(path, unit="photo", rater="coder", value="class")
    table = ann.meta["boxes"]
    assert (table.units, table.raters, table.labels) == (("p1", "p2"), ("a", "b"),
                                                         ("cat", "dog"))
    assert table.xywh.tolist()[0] == [0.0, 0.0, 10.0, 10.0]
    assert ann.audit.caveats[0].startswith("read as boxes") and "X, Y, Width, Height" \
        in ann.audit.caveats[0]
    assert len(ann.audit.caveats) == 1  # the columns were named: nothing else guessed
    code, _, err = run_cli("compute", str(path), "--unit", "photo", "--rater", "coder",
                           "--value", "class")
    assert code == 1 and "accord boxes" in err


def test_iou_sets_the_threshold_of_the_box_section() -> None:
    rep = accord.report(accord.read(BOXES), seed=3, iou_threshold=0.75)
    s = rep.shapes
    assert s is not None and s.iou_threshold == 0.75 and "IoU >= 0.75" in s.sentence
    res = accord.box_agreement(BOXES, iou_threshold=0.75, n_resamples=DEFAULT_RESAMPLES, rng=3)
    level = rep.settings.confidence_level
    for name in ("f1", "mean_iou", "alpha"):
        _same(s.figure(name), getattr(res, name), res.bootstrap, level)
    at_half = accord.report(accord.read(BOXES), seed=3).shapes
    assert at_half is not None and at_half.figure("f1").estimate != s.figure("f1").estimate
    table = accord.read(BOXES).meta["boxes"]
    assert s.disputed == disputed(table, BOX_KIND, quiet_counts(table, "boxes", 0.75))
    code, out, err = run_cli("report", str(BOXES), "--iou", "0.75", "--seed", "3", "--json")
    assert code == 0, err
    doc = json.loads(out)["boxes"]
    assert doc["iou_threshold"] == 0.75
    assert doc["results"][0]["estimate"] == res.f1.estimate


def test_iou_is_refused_for_data_without_boxes() -> None:
    from accord.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="'iou_threshold' parameter of report must "
                       "be None for data without boxes or polygons"):
        accord.report(accord.read(EX / "pilot.csv"), iou_threshold=0.7)
    code, _, err = run_cli("report", str(EX / "pilot.csv"), "--iou", "0.7")
    assert code == 2 and "None for data without boxes" in err
