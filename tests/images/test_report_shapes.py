"""The report of polygon and keypoint data: the jobs "Agreement on polygons" and
"Agreement on keypoints", their figures the library's (:func:`accord.polygon_agreement`,
:func:`accord.keypoint_agreement`), what was guessed said first, the JSON valid against
the report's schema, and the pictures of the most disputed images."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import accord
from accord.readers.keypoints import keypoint_table
from accord.readers.polygons import polygon_table
from accord.report.json import schema
from accord.report.shapes_report import DEFAULT_RESAMPLES, MOST_DISPUTED
from tests.conftest import run_cli

pytest.importorskip("shapely")

EX = Path(__file__).resolve().parents[2] / "examples"
POLYGONS = EX / "polygons.csv"
KEYPOINTS = EX / "keypoints.csv"
POLYGONS_COCO = [EX / "polygons_coco" / f"{n}.json" for n in ("ann", "bob")]
KEYPOINTS_COCO = [EX / "keypoints_coco" / f"{n}.json" for n in ("ann", "bob")]
SIGMAS = {"wrist": 0.062, "tip": 0.05}
KP = ("--names", "wrist", "tip", "--sigmas", "wrist=0.062", "tip=0.05")
EVIL = "<img src=x onerror=alert(1)>"


def _console(rep: accord.Report) -> str:
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    console.print(rep)
    return console.export_text()


def _valid(doc: dict[str, object]) -> None:
    jsonschema.Draft202012Validator(schema()).validate(
        {k: v for k, v in doc.items() if k != "command"})


@pytest.fixture(scope="module")
def polygons() -> accord.Report:
    return accord.report(polygon_table(POLYGONS), seed=3)


@pytest.fixture(scope="module")
def keypoints() -> accord.Report:
    return accord.report(keypoint_table(KEYPOINTS, names=["wrist", "tip"]), seed=3,
                         sigmas=SIGMAS)


def _same(fig: object, res: accord.AgreementResult, boot: object, level: float) -> None:
    if not res.defined:
        assert fig.undefined_reason == res.undefined_reason  # type: ignore[attr-defined]
        return
    assert fig.estimate == res.estimate  # type: ignore[attr-defined]
    ci = res.confidence_interval(level, method=boot)  # type: ignore[arg-type]
    assert (fig.ci_low, fig.ci_high) == pytest.approx((ci.low, ci.high), abs=1e-12)  # type: ignore[attr-defined]


def _check_figures(rep: accord.Report, res: object, mean: str) -> None:
    s = rep.shapes
    assert s is not None
    boot, level = res.bootstrap, rep.settings.confidence_level  # type: ignore[attr-defined]
    for name in ("f1", mean, "alpha"):
        _same(s.figure(name), getattr(res, name), boot, level)
    assert [r.label for r in s.per_label] == list(res.per_label)  # type: ignore[attr-defined]
    for row in s.per_label:
        f = res.per_label[row.label]  # type: ignore[attr-defined]
        _same(row.f1, f.f1, boot, level)
        _same(row.mean, f.mean, boot, level)
    assert [p.annotators for p in s.pairs] == list(res.pairs)  # type: ignore[attr-defined]
    for p in s.pairs:
        _same(p.f1, res.pairs[p.annotators].f1, boot, level)  # type: ignore[attr-defined]
        _same(p.mean, res.pairs[p.annotators].mean, boot, level)  # type: ignore[attr-defined]
    got = [x for r in s.sweep for x in (r.threshold, r.f1, r.mean)]
    want = [x for f in res.sweep for x in (f.threshold, f.f1.estimate, f.mean.estimate)]  # type: ignore[attr-defined]
    assert got == pytest.approx(want, rel=0, abs=0, nan_ok=True)


def test_the_polygon_section_s_figures_are_polygon_agreement_s(polygons: accord.Report) -> None:
    res = accord.polygon_agreement(POLYGONS, n_resamples=DEFAULT_RESAMPLES, rng=3)
    _check_figures(polygons, res, "mean_iou")
    s = polygons.shapes
    assert s is not None and s.kind.name == "polygons" and s.threshold == 0.5
    assert polygons.job is not None and polygons.job.kind == "polygons"
    assert polygons.job.title == "Agreement on polygons"
    assert s.n_shapes == res.audit["objects"] and s.n_images == res.audit["images"]


def test_the_keypoint_section_s_figures_are_keypoint_agreement_s(
        keypoints: accord.Report) -> None:
    res = accord.keypoint_agreement(KEYPOINTS, names=["wrist", "tip"], sigmas=SIGMAS,
                                    n_resamples=DEFAULT_RESAMPLES, rng=3)
    _check_figures(keypoints, res, "mean_oks")
    assert keypoints.job is not None and keypoints.job.kind == "keypoints"
    assert keypoints.job.title == "Agreement on keypoints"
    assert "OKS >= 0.5" in keypoints.headline and "mean OKS" in keypoints.headline


def test_the_thresholds_and_sigmas_reach_the_figures() -> None:
    rep = accord.report(polygon_table(POLYGONS), seed=3, iou_threshold=0.9)
    res = accord.polygon_agreement(POLYGONS, iou_threshold=0.9, n_resamples=DEFAULT_RESAMPLES,
                                   rng=3)
    assert rep.shapes is not None and rep.shapes.figure("f1").estimate == res.f1.estimate
    table = keypoint_table(KEYPOINTS, names=["wrist", "tip"])
    rep = accord.report(table, seed=3, oks_threshold=0.8, sigmas={"wrist": 0.2, "tip": 0.2})
    res = accord.keypoint_agreement(table, oks_threshold=0.8, sigmas={"wrist": 0.2, "tip": 0.2},
                                    n_resamples=DEFAULT_RESAMPLES, rng=3)
    assert rep.shapes is not None and rep.shapes.figure("mean_oks").estimate == res.mean.estimate
    from accord.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="'oks_threshold' parameter of report"):
        accord.report(polygon_table(POLYGONS), oks_threshold=0.7)
    with pytest.raises(InvalidParameterError, match="'iou_threshold' parameter of report"):
        accord.report(table, iou_threshold=0.7, sigmas=SIGMAS)


def test_the_cli_says_what_it_guessed_on_its_first_lines() -> None:
    code, out, err = run_cli("report", str(POLYGONS), "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Agreement on polygons"
    assert lines[1].startswith("caveat: read as polygons") and "--polygon COL" in lines[1]
    assert lines[2].startswith("3 annotators' polygons matched at IoU >= 0.5: pairwise F1")
    code, out, err = run_cli("report", str(KEYPOINTS), "--keypoints", "keypoints", *KP)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Agreement on keypoints"
    assert lines[1].startswith("caveat: read as keypoints") and "--keypoints COL" not in lines[1]
    code, out, err = run_cli("report", *map(str, POLYGONS_COCO))
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "Agreement on polygons", "caveat: read as polygons (agreement on polygons): the "
        "export holds polygons; it also holds boxes: compare those with accord boxes"]


def test_the_cli_s_figures_are_the_library_s() -> None:
    code, out, err = run_cli("report", str(POLYGONS), "--iou", "0.75", "--json")
    assert code == 0, err
    doc = json.loads(out)
    _valid(doc)
    res = accord.polygon_agreement(POLYGONS, iou_threshold=0.75,
                                   n_resamples=DEFAULT_RESAMPLES, rng=0)
    part = doc["polygons"]
    assert part["iou_threshold"] == 0.75 and "boxes" not in doc
    assert [r["estimate"] for r in part["results"]] == [
        res.f1.estimate, res.mean_iou.estimate, res.alpha.estimate]
    code, out, err = run_cli("report", *map(str, KEYPOINTS_COCO), "--oks", "0.6", "--json")
    assert code == 0, err
    doc = json.loads(out)
    _valid(doc)
    res = accord.keypoint_agreement([str(p) for p in KEYPOINTS_COCO], oks_threshold=0.6,
                                    n_resamples=DEFAULT_RESAMPLES, rng=0)
    assert doc["job"]["kind"] == "keypoints"
    assert doc["keypoints"]["results"][1]["estimate"] == res.mean_oks.estimate


def test_shape_options_are_refused_where_they_do_not_apply() -> None:
    code, _, err = run_cli("report", str(POLYGONS), "--oks", "0.7")
    assert code == 2 and err.strip().endswith(
        f"--oks applies to keypoint data, and {POLYGONS} holds no keypoints: leave --oks out.")
    code, _, err = run_cli("report", str(POLYGONS), "--polygon", "polygon", "--keypoints", "k")
    assert code == 2 and "give one" in err


@pytest.mark.parametrize("name", ["polygons", "keypoints"])
def test_the_json_validates_and_names_the_shape(name: str, polygons: accord.Report,
                                                keypoints: accord.Report) -> None:
    rep = polygons if name == "polygons" else keypoints
    doc = json.loads(rep.to_json())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    part = doc[name]
    measure = "iou" if name == "polygons" else "oks"
    assert [r["figure"] for r in part["results"]] == ["f1", f"mean_{measure}", "alpha"]
    for r in part["results"] + [row[k] for row in part["per_label"] + part["pairs"]
                                for k in ("f1", f"mean_{measure}")]:
        assert r[f"{measure}_threshold"] == 0.5
        assert (r["confidence_interval"] is None) == (r["estimate"] is None)
    assert 1 <= len(part["disputed_images"]) <= MOST_DISPUTED
    drawn = part["disputed_images"][0]["objects"][0]
    assert set(drawn) == {"annotator", "label", "rings" if name == "polygons" else "points"}


@pytest.mark.parametrize("name", ["polygons", "keypoints"])
def test_every_medium_opens_with_the_job(name: str, polygons: accord.Report,
                                         keypoints: accord.Report) -> None:
    rep = polygons if name == "polygons" else keypoints
    title = f"Agreement on {name}"
    assert rep.to_markdown().splitlines()[0] == f"# {title}"
    assert _console(rep).splitlines()[0] == title
    page = rep.to_html()
    assert f'<section id="{name}"><h2>{title}</h2>' in page


def test_the_html_draws_each_annotator_s_shapes(polygons: accord.Report,
                                               keypoints: accord.Report) -> None:
    page = polygons.to_html()
    pictures = re.findall(r'<svg[^>]*data-plot="box-image-\d+".*?</svg>', page, re.S)
    assert len(pictures) == len(polygons.shapes.disputed) >= 1  # type: ignore[union-attr]
    assert all('<path d="M ' in svg for svg in pictures)
    styles = {m for svg in pictures for m in re.findall(r'stroke-dasharray="([^"]+)"', svg)}
    assert {"8,4", "2,3"} <= styles  # bob dashed, cleo dotted, ann solid
    for svg in pictures:  # scaled to the page's width, no text under 11 units
        assert 'viewBox="0 0 345.6 ' in svg
        sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]
        assert sizes and min(sizes) >= 11
    kp = keypoints.to_html()
    pictures = re.findall(r'<svg[^>]*data-plot="box-image-\d+".*?</svg>', kp, re.S)
    assert pictures and all("<path" not in svg for svg in pictures)
    assert all("<circle" in svg and "<rect" in svg for svg in pictures)  # ann's, bob's markers


def test_hostile_labels_stay_text(tmp_path: Path) -> None:
    path = tmp_path / "evil.csv"
    path.write_text("image,annotator,label,polygon\n"
                    f'{EVIL},ann,{EVIL},"[0, 0, 4, 0, 4, 4]"\n'
                    f'{EVIL},bob,{EVIL},"[0, 0, 4, 0, 4, 3]"\n')
    code, out, err = run_cli("report", str(path), "--polygon", "polygon", "-q", "-o",
                             str(tmp_path / "r.html"))
    assert code == 0, err
    page = (tmp_path / "r.html").read_text()
    assert EVIL not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
