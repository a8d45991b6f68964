"""Boxes as each tool exports them (COCO, CVAT, Label Studio, YOLO) give one table.

``data/streets/`` holds the same four boxes of two annotators on two 640 x 512
images in the four exports, each as the tool writes it (CVAT job exports with an
assignee, Label Studio rectangles in percent with ``original_width``, YOLO
fractions with ``classes.txt``), plus a shape of another kind where the tool has
one. By hand, at IoU >= 0.5: the cars match with IoU 190 * 100 / (200 * 100) =
0.95; ann's person on street_01 and bob's person on street_02 are drawn once.
F1 = 2 * 1 / (2 + 2) = 0.5, mean IoU 0.95; alpha on the objects {car, car},
{person, no box}, {no box, person}: D_o = 4/6, D_e = (36 - 12) / 30, alpha = 1/6.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import accord
from accord.errors import DataError, FormatError, InsufficientDataError
from accord.readers.box_formats import read_boxes
from tests.test_bad_input import refused

HERE = Path(__file__).parent
STREETS = HERE / "data" / "streets"
EXAMPLES = HERE.parents[1] / "examples"
EXPORTS = {
    "coco": [STREETS / "coco" / "ann.json", STREETS / "coco" / "bob.json"],
    "cvat": [STREETS / "cvat" / "ann.xml", STREETS / "cvat" / "bob.xml"],
    "label_studio_boxes": [STREETS / "label_studio.json"],
    "yolo": [STREETS / "yolo"],
}
BOXES = [[100.0, 120.0, 200.0, 100.0], [400.0, 200.0, 50.0, 120.0],
         [110.0, 120.0, 190.0, 100.0], [300.0, 100.0, 40.0, 100.0]]


def figures(res: accord.BoxAgreement) -> dict[str, Any]:
    """Every figure of ``to_dict()`` but the audit and the annotators' names."""
    doc = res.to_dict()
    return {k: doc[k] for k in ("f1", "mean_iou", "alpha", "per_label", "sweep")}


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_each_export_reads_to_the_same_boxes(name: str) -> None:
    t = read_boxes(EXPORTS[name], sizes=STREETS / "yolo" / "sizes.csv")
    assert t.units == ("street_01.jpg", "street_02.jpg") and t.labels == ("car", "person")
    assert t.xywh.tolist() == BOXES  # exactly: the fractions and percents are dyadic
    assert t.unit.tolist() == [0, 0, 0, 1] and t.label.tolist() == [0, 1, 0, 1]
    assert dict(t.audit)["no-box rows"] == 1  # ann saw street_02 and drew nothing


def test_the_four_exports_give_identical_figures() -> None:
    results = [accord.box_agreement(EXPORTS["coco"], n_resamples=199),
               accord.box_agreement(EXPORTS["cvat"], n_resamples=199),
               accord.box_agreement(EXPORTS["label_studio_boxes"][0], n_resamples=199),
               accord.box_agreement(accord.read(STREETS / "yolo",
                                                sizes=STREETS / "yolo" / "sizes.csv"),
                                    n_resamples=199)]
    first = results[0]
    assert first.f1.estimate == 0.5 and first.mean_iou.estimate == pytest.approx(0.95, abs=1e-15)
    assert first.alpha.estimate == pytest.approx(1 / 6, abs=1e-15)
    for res in results[1:]:
        assert figures(res) == figures(first)


def test_the_example_exports_agree_with_the_coco_example() -> None:
    coco = accord.box_agreement(sorted((EXAMPLES / "boxes_coco").glob("*.json")), n_resamples=99)
    others = [accord.box_agreement(sorted((EXAMPLES / "boxes_cvat").glob("*.xml")),
                                   n_resamples=99),
              accord.box_agreement(EXAMPLES / "boxes_label_studio.json", n_resamples=99),
              accord.box_agreement(accord.read(EXAMPLES / "boxes_yolo",
                                               sizes=EXAMPLES / "boxes_yolo" / "sizes.csv"),
                                   n_resamples=99)]
    for res in others:  # YOLO keeps six decimals of a fraction: a few 1e-4 pixels off
        for name in ("f1", "mean_iou", "alpha"):
            assert getattr(res, name).estimate == pytest.approx(
                getattr(coco, name).estimate, abs=1e-5)


def test_accord_read_detects_box_exports_and_points_to_box_agreement() -> None:
    for name, paths, shapes in (("coco", EXPORTS["coco"], None),
                                ("cvat", EXPORTS["cvat"], "boxes"),
                                ("yolo", EXPORTS["yolo"], None)):
        ann = accord.read(paths, **({} if shapes is None else {"shapes": shapes}))
        assert ann.meta["format"] == name and ann.raters == ("ann", "bob")
        assert len(ann.meta["boxes"]) == 4
        refused(InsufficientDataError, "boxes only.*accord.box_agreement", ann.require_pairable)
    boxes = accord.read(EXPORTS["cvat"], shapes="boxes")
    assert boxes.audit.dropped == {"polygon (only boxes are compared)": 1}
    assert boxes.audit.caveats == ("read as boxes: the export also holds polygons (read them "
                                   "with shapes='polygons')",)
    # the CVAT jobs hold a box here and a polygon there: which to read is asked
    refused(FormatError, r"^2 files hold boxes and polygons; read one of them with "
            r"shapes='boxes' \(or 'polygons'; accord CLI: accord boxes or accord polygons\)\.$",
            accord.read, EXPORTS["cvat"])


def test_what_is_not_a_box_is_counted_by_name() -> None:
    cvat = dict(read_boxes(EXPORTS["cvat"]).audit)
    assert cvat["skipped: polygon (only boxes are compared)"] == 1
    ls = dict(read_boxes(EXPORTS["label_studio_boxes"]).audit)
    assert ls["skipped: polygonlabels region (only rectanglelabels are compared)"] == 1
    yolo = dict(read_boxes(EXPORTS["yolo"]).audit)  # no sizes: fractions, said so
    assert yolo["note: boxes kept in fractions of the image (no image size)"] == 4


# CVAT ------------------------------------------------------------------------------

def cvat(boxes: str, who: str | None = "ann", image: str = 'name="a.jpg"') -> str:
    meta = (f"<meta><job><assignee><username>{who}</username></assignee></job></meta>"
            if who else "")
    return (f'<?xml version="1.0" encoding="utf-8"?><annotations><version>1.1</version>'
            f'{meta}<image id="0" {image} width="100" height="80">{boxes}</image>'
            "</annotations>")


def test_cvat_annotator_in_a_box_attribute(tmp_path: Path) -> None:
    boxes = ('<box label="car" xtl="0" ytl="0" xbr="10" ybr="10"><attribute name="annotator">'
             'ann</attribute></box><box label="car" xtl="1" ytl="0" xbr="10" ybr="10">'
             '<attribute name="annotator">bob</attribute></box>'
             '<box label="car" xtl="1" ytl="0" xbr="10" ybr="10" rotation="30">'
             '<attribute name="annotator">bob</attribute></box>'
             '<box label="person" xtl="50" ytl="50" xbr="60" ybr="70">'
             '<attribute name="annotator">ann</attribute></box>')
    (tmp_path / "task.xml").write_text(cvat(boxes, who=None))
    t = read_boxes(tmp_path / "task.xml", rater_key="annotator")
    assert t.raters == ("ann", "bob")
    assert t.xywh.tolist() == [[0, 0, 10, 10], [1, 0, 9, 10], [50, 50, 10, 20]]
    assert dict(t.audit)["skipped: rotated box"] == 1
    res = accord.box_agreement(tmp_path / "task.xml", n_resamples=99)  # rater="annotator"
    assert res.mean_iou.estimate == pytest.approx(0.9, abs=1e-15)


def test_cvat_refuses_bad_boxes_and_nameless_images(tmp_path: Path) -> None:
    ok = tmp_path / "bob.xml"
    ok.write_text(cvat('<box label="car" xtl="0" ytl="0" xbr="10" ybr="10"/>', who="bob"))
    cases = {
        "xbr > xtl": cvat('<box label="car" xtl="20" ytl="0" xbr="10" ybr="10"/>'),
        "has no name": cvat("", image='name=""'),
        "with no label": cvat('<box xtl="0" ytl="0" xbr="10" ybr="10"/>'),
        "expected a number": cvat('<box label="car" xtl="a" ytl="0" xbr="10" ybr="10"/>'),
    }
    for match, text in cases.items():
        (tmp_path / "ann.xml").write_text(text)
        refused(DataError, match, read_boxes, [tmp_path / "ann.xml", ok], format="cvat")
    (tmp_path / "ann.xml").write_text(cvat("", who="bob"))
    refused(DataError, "both hold the boxes of 'bob'", read_boxes, [tmp_path / "ann.xml", ok],
            format="cvat")
    refused(DataError, "one CVAT file holds one annotator", read_boxes, ok, format="cvat")


# Label Studio ----------------------------------------------------------------------

def rect(x: float, w: float, *, size: bool = True, label: str = "car") -> dict[str, Any]:
    out: dict[str, Any] = {"type": "rectanglelabels", "from_name": "label", "to_name": "image",
                           "value": {"x": x, "y": 0, "width": w, "height": 50,
                                     "rotation": 0, "rectanglelabels": [label]}}
    if size:
        out.update(original_width=200, original_height=100)
    return out


def ls(tmp_path: Path, annotations: list[dict[str, Any]]) -> Path:
    path = tmp_path / "export.json"
    task = {"id": 1, "data": {"image": "s3://bucket/frames/a%20b.jpg"}, "annotations": annotations}
    path.write_text(json.dumps([task]))
    return path


def test_label_studio_without_sizes_keeps_percent_and_says_so(tmp_path: Path) -> None:
    path = ls(tmp_path, [
        {"completed_by": 1, "result": [rect(10, 20, size=False)]},
        {"completed_by": {"id": 2, "email": "bob@x.org"}, "result": [rect(12, 20, size=False)]},
        {"completed_by": 3, "was_cancelled": True, "result": []},
        {"completed_by": 4, "ground_truth": True, "result": [rect(10, 20)]},
    ])
    t = read_boxes(path)
    assert t.units == ("a b.jpg",) and t.raters == ("1", "bob@x.org")
    assert t.xywh.tolist() == [[10, 0, 20, 50], [12, 0, 20, 50]]  # percent, as written
    audit = dict(t.audit)
    assert audit["note: boxes kept in percent of the image (no original_width/"
                 "original_height)"] == 2
    assert audit["skipped: cancelled annotation (Skip)"] == 1
    assert audit["skipped: ground truth annotation (a reference, not an annotator)"] == 1


def test_label_studio_refuses_bad_rectangles(tmp_path: Path) -> None:
    bob = {"completed_by": 2, "result": [rect(10, 20)]}
    refused(DataError, "positive width and height", read_boxes,
            ls(tmp_path, [{"completed_by": 1, "result": [rect(10, -5)]}, bob]))
    refused(DataError, "no 'completed_by'", read_boxes, ls(tmp_path, [{"result": []}, bob]))
    bad = rect(10, 20)
    bad["value"]["rectanglelabels"] = []
    refused(DataError, "exactly one label", read_boxes,
            ls(tmp_path, [{"completed_by": 1, "result": [bad]}, bob]))


# YOLO --------------------------------------------------------------------------------

def yolo(tmp_path: Path, ann: str, bob: str = "0 0.5 0.5 0.2 0.2\n") -> Path:
    for who, text in (("ann", ann), ("bob", bob)):
        (tmp_path / who).mkdir(exist_ok=True)
        (tmp_path / who / "a.txt").write_text(text)
    return tmp_path


def test_yolo_names_from_data_yaml_and_segments_skipped(tmp_path: Path) -> None:
    root = yolo(tmp_path, "1 0.5 0.5 0.2 0.2\n0 0.1 0.1 0.2 0.1 0.3 0.3\n")
    (root / "data.yaml").write_text("path: .\nnames:\n  0: car\n  1: 'person'\n")
    t = read_boxes(root)
    assert t.labels == ("car", "person") and t.units == ("a",)
    assert t.xywh.ravel().tolist() == pytest.approx([0.4, 0.4, 0.2, 0.2] * 2)
    assert dict(t.audit)["skipped: segmentation polygon (only boxes are compared)"] == 1
    (root / "data.yaml").write_text("names: [car, person]\n")
    assert read_boxes(root).labels == ("car", "person")


def test_yolo_without_names_uses_class_indices_and_refuses_unknown_ones(tmp_path: Path) -> None:
    root = yolo(tmp_path, "3 0.5 0.5 0.2 0.2\n")
    t = read_boxes(root)
    assert t.labels == ("0", "3")
    assert dict(t.audit)["note: labels are class indices (no classes.txt or data.yaml)"] == 2
    (root / "classes.txt").write_text("car\nperson\n")
    refused(DataError, "class 3, which the class names do not list", read_boxes, root)
    refused(DataError, "expected 'class cx cy w h'", read_boxes, yolo(tmp_path, "0 0.5 0.5\n"))
    refused(DataError, "positive width", read_boxes, yolo(tmp_path, "0 0.5 0.5 0 0.1\n"))
    refused(DataError, "two positive numbers", read_boxes, root, sizes={"a.jpg": (0, 10)})


def test_a_box_export_of_no_known_kind_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{}")
    refused(FormatError, "not a box export accord knows", read_boxes, tmp_path / "x.json")
    refused(FormatError, "different formats", read_boxes,
            [EXPORTS["coco"][0], EXPORTS["cvat"][0]])
