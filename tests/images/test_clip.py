"""Shapes outside their image: clipped to it and counted, or not read when wholly outside.

The figures are worked by hand on one 100 x 80 image (see each test); the properties
(idempotent, never enlarges, leaves a shape inside untouched) are checked on random
boxes, outlines and points.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DegenerateDataWarning
from accord.readers._clip import CLIPPED, OUTSIDE, clip_boxes, clip_keypoints, clip_polygons
from accord.readers.boxes import box_table
from accord.readers.cvat_shapes import read_cvat_polygons
from accord.readers.keypoints import keypoint_table
from accord.readers.polygons import polygon_table
from tests.conftest import run_cli

SIZE = {"a.jpg": (100.0, 80.0)}


def _coco(d: Path, name: str, boxes: list[list[float]]) -> Path:
    path = d / f"{name}.json"
    path.write_text(json.dumps({
        "images": [{"id": 1, "file_name": "a.jpg", "width": 100, "height": 80}],
        "categories": [{"id": 1, "name": "car"}, {"id": 2, "name": "sign"}],
        "annotations": [{"id": k + 1, "image_id": 1, "category_id": 1 if k < 2 else 2,
                         "bbox": b, "iscrowd": 0} for k, b in enumerate(boxes)]}))
    return path


def test_coco_boxes_are_clipped_and_counted(tmp_path: Path) -> None:
    # ann: [-10, 10, 30, 20] keeps x in [0, 20]: [0, 10, 20, 20]; [90, 70, 20, 20] keeps
    # [90, 100] x [70, 80]: [90, 70, 10, 10]; the sign at x 120 lies wholly outside.
    ann = _coco(tmp_path, "ann", [[-10, 10, 30, 20], [90, 70, 20, 20], [120, 0, 10, 10]])
    bob = _coco(tmp_path, "bob", [[0, 10, 20, 20], [90, 70, 10, 10]])
    t = accord.read([ann, bob]).meta["boxes"]
    rows = sorted(zip(np.array(t.raters)[t.rater], t.xywh.tolist()))
    assert rows == [("ann", [0.0, 10.0, 20.0, 20.0]), ("ann", [90.0, 70.0, 10.0, 10.0]),
                    ("bob", [0.0, 10.0, 20.0, 20.0]), ("bob", [90.0, 70.0, 10.0, 10.0])]
    assert t.labels == ("car",)  # the sign, wholly outside, is not read
    assert t.audit[f"note: {CLIPPED}"] == 2 and t.audit[f"skipped: {OUTSIDE}"] == 1
    assert t.audit["boxes"] == 4
    with pytest.warns(DegenerateDataWarning, match="box_alpha"):  # one label, no variation
        res = accord.box_agreement([ann, bob], n_resamples=20)
    assert res.f1.estimate == 1.0  # clipped, the two annotators drew the same boxes
    code, out, err = run_cli("boxes", str(ann), str(bob), "--n-resamples", "20")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == f"note: skipped: {OUTSIDE}: 1"
    assert lines[2] == f"note: {CLIPPED}: 2"


def test_cvat_polygon_is_cut_at_the_border(tmp_path: Path) -> None:
    # the triangle (0,0) (200,0) (0,80) on a 100 x 80 image: its hypotenuse crosses x = 100
    # at y = 40, so the part inside is (0,0) (100,0) (100,40) (0,80), of area
    # (80 + 40) / 2 * 100 = 6000 (the triangle's is 8000).
    files = []
    for who, pts in (("ann", "0,0;200,0;0,80"), ("bob", "0,0;100,0;100,40;0,80")):
        f = tmp_path / f"{who}.xml"
        f.write_text("<annotations><meta><job><assignee><username>"
                     f"{who}</username></assignee></job></meta>"
                     '<image id="0" name="a.jpg" width="100" height="80">'
                     f'<polygon label="roof" points="{pts}"/></image></annotations>')
        files.append(f)
    t = read_cvat_polygons(files)
    assert t.area.tolist() == [6000.0, 6000.0]
    assert t.audit[f"note: {CLIPPED}"] == 1
    with pytest.warns(DegenerateDataWarning):  # one object each: alpha is undefined
        res = accord.polygon_agreement(files, n_resamples=20)
    assert res.mean_iou.estimate == pytest.approx(1.0, abs=1e-12)


def test_label_studio_keypoints_are_moved_into_the_image(tmp_path: Path) -> None:
    def point(rid: str, name: str, x: float, y: float) -> dict[str, Any]:
        return {"id": rid, "type": "keypointlabels", "from_name": "kp", "to_name": "image",
                "original_width": 200, "original_height": 100,
                "value": {"x": x, "y": y, "keypointlabels": [name]}}

    # ann's tip at x = 105 % of a 200 px wide image (210 px) is moved to the border, 200 px;
    task = {"id": 1, "data": {"image": "/data/a.jpg"}, "annotations": [
        {"completed_by": 1, "result": [point("1", "wrist", 50, 40), point("2", "tip", 105, 60)]},
        {"completed_by": 2, "result": [point("3", "wrist", 50, 40), point("4", "tip", 100, 60)]},
    ]}
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([task]))
    t = accord.read(path, shapes="keypoints").meta["keypoints"]
    assert t.points[:, 1, 0].tolist() == [200.0, 200.0]
    assert t.audit[f"note: {CLIPPED}"] == 1


def test_wholly_outside_keypoints_and_polygons_are_not_read() -> None:
    kp = keypoint_table({"image": ["a.jpg", "a.jpg"], "annotator": ["r", "r"],
                         "label": ["hand", "hand"], "area": [10, 10],
                         "keypoints": [[5, 5, 2, 0, 0, 0], [-5, 5, 2, 120, 5, 1]]},
                        names=["wrist", "tip"])
    c = clip_keypoints(kp, SIZE)
    assert len(c) == 1 and c.audit[f"skipped: {OUTSIDE}"] == 1 and c.audit["objects"] == 1
    poly = polygon_table({"image": ["a.jpg"], "annotator": ["r"], "label": ["roof"],
                          "polygon": [[100, 0, 140, 0, 140, 30]]})  # touches x = 100 only
    c = clip_polygons(poly, SIZE)
    assert len(c) == 0 and c.labels == () and c.audit[f"skipped: {OUTSIDE}"] == 1


def test_a_table_is_read_as_it_is() -> None:
    t = box_table({"image": ["a"], "annotator": ["r"], "label": ["c"], "x": [-5], "y": [0],
                   "w": [10], "h": [10]})
    assert t.xywh.tolist() == [[-5.0, 0.0, 10.0, 10.0]]


coord = st.floats(-200, 300, allow_nan=False)
side = st.floats(0.5, 200, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coord, coord, side, side), min_size=1, max_size=6))
def test_clipping_boxes_is_idempotent_and_never_enlarges(boxes: list[tuple[float, ...]]) -> None:
    n = len(boxes)
    t = box_table({"image": ["a.jpg"] * n, "annotator": [f"r{k}" for k in range(n)],
                   "label": ["c"] * n, "x": [b[0] for b in boxes], "y": [b[1] for b in boxes],
                   "w": [b[2] for b in boxes], "h": [b[3] for b in boxes]})
    c = clip_boxes(t, SIZE)
    again = clip_boxes(c, SIZE)
    assert again.xywh.tolist() == c.xywh.tolist() and dict(again.audit) == dict(c.audit)
    x, y, w, h = c.xywh.T
    assert (x >= 0).all() and (y >= 0).all() and (x + w <= 100).all() and (y + h <= 80).all()
    assert (w > 0).all() and (h > 0).all()
    assert (w * h).sum() <= (t.xywh[:, 2] * t.xywh[:, 3]).sum() + 1e-9
    inside = [b for b in boxes if b[0] >= 0 and b[1] >= 0 and b[0] + b[2] <= 100
              and b[1] + b[3] <= 80]
    kept = [tuple(b) for b in c.xywh.tolist()]
    assert all(b in kept for b in inside)  # a box inside the image is left as it is
    assert len(c) + c.audit.get(f"skipped: {OUTSIDE}", 0) == n


@settings(max_examples=60, deadline=None)
@given(coord, coord, side, side)
def test_clipping_an_outline_is_idempotent_and_never_enlarges(
        x: float, y: float, w: float, h: float) -> None:
    # a triangle with a right angle at (x, y): never self-crossing
    t = polygon_table({"image": ["a.jpg"], "annotator": ["r"], "label": ["roof"],
                       "polygon": [[x, y, x + w, y, x, y + h]]})
    c = clip_polygons(t, SIZE)
    again = clip_polygons(c, SIZE)
    assert again.area.tolist() == c.area.tolist() and dict(again.audit) == dict(c.audit)
    assert (c.area <= t.area + 1e-9).all()
    for rings in c.rings:
        pts = np.vstack(rings)
        assert (pts >= -1e-9).all() and (pts[:, 0] <= 100 + 1e-9).all()
        assert (pts[:, 1] <= 80 + 1e-9).all()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coord, coord), min_size=2, max_size=2))
def test_clipping_points_is_idempotent(points: list[tuple[float, float]]) -> None:
    flat = [c for p in points for c in (*p, 2)]
    t = keypoint_table({"image": ["a.jpg"], "annotator": ["r"], "label": ["hand"],
                        "keypoints": [flat], "area": [10]}, names=["wrist", "tip"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateDataWarning)
        c = clip_keypoints(t, SIZE)
    again = clip_keypoints(c, SIZE)
    assert np.array_equal(again.points, c.points, equal_nan=True)
    inside = [0 <= px <= 100 and 0 <= py <= 80 for px, py in points]
    assert len(c) == (1 if any(inside) else 0)
    if len(c):
        assert np.array_equal(c.points[0, inside, :2], t.points[0, inside, :2])


def test_yolo_cvat_and_label_studio_boxes_are_clipped(tmp_path: Path) -> None:
    # YOLO: centre 0.95, width 0.2 spans 0.85 to 1.05 of the image: clipped to 0.85..1,
    # a width of 0.15 (96 px of a 640 px image); in fractions without sizes.
    root = tmp_path / "yolo"
    for who in ("ann", "bob"):
        (root / who).mkdir(parents=True)
        (root / who / "a.txt").write_text("0 0.95 0.5 0.2 0.1\n")
    (root / "classes.txt").write_text("car\n")
    frac = accord.read(root).meta["boxes"]
    assert frac.xywh[:, 2] == pytest.approx([0.15, 0.15], abs=1e-12)
    assert frac.audit[f"note: {CLIPPED}"] == 2
    px = accord.read(root, sizes={"a.jpg": (640, 480)}).meta["boxes"]
    assert px.xywh[:, 0] + px.xywh[:, 2] == pytest.approx([640.0, 640.0])
    assert px.xywh[:, 2] == pytest.approx([96.0, 96.0])
    # CVAT: xbr 130 on a 100 px wide image: x 80..100
    files = []
    for who in ("ann", "bob"):
        f = tmp_path / f"{who}.xml"
        f.write_text("<annotations><meta><job><assignee><username>"
                     f"{who}</username></assignee></job></meta>"
                     '<image id="0" name="a.jpg" width="100" height="80">'
                     '<box label="car" xtl="80" ytl="10" xbr="130" ybr="30"/></image>'
                     "</annotations>")
        files.append(f)
    cvat = accord.read(files).meta["boxes"]
    assert cvat.xywh.tolist() == [[80.0, 10.0, 20.0, 20.0]] * 2
    # Label Studio: x 90 %, width 20 % of a 200 px image: 180..200 px
    result = {"type": "rectanglelabels", "original_width": 200, "original_height": 100,
              "value": {"x": 90, "y": 10, "width": 20, "height": 20,
                        "rectanglelabels": ["car"]}}
    task = {"id": 1, "data": {"image": "/data/a.jpg"},
            "annotations": [{"completed_by": k, "result": [result]} for k in (1, 2)]}
    (tmp_path / "ls.json").write_text(json.dumps([task]))
    ls = accord.read(tmp_path / "ls.json").meta["boxes"]
    assert ls.xywh.tolist() == [[180.0, 10.0, 20.0, 20.0]] * 2
    assert ls.audit[f"note: {CLIPPED}"] == 2
