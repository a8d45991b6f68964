"""CVAT XML and Label Studio JSON into polygons and keypoints: what is read, what is not.

Fixtures: data/cvat_shapes/ holds two CVAT for images 1.1 job exports (assignees
``ann`` and ``bob``) with a three-point cat skeleton, a roof polygon and a box each,
and an empty second image; data/label_studio_shapes.json is a Label Studio export
of two tasks: annotators 7 and 8 place a cat rectangle with keypoints parented to it
and a roof polygon, annotator 9 skipped; on the second image 8 places two points with
no rectangle and 7 nothing.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import accord
from accord.errors import DataError, DegenerateDataWarning, FormatError
from accord.readers.cvat_shapes import read_cvat_keypoints, read_cvat_polygons
from accord.readers.label_studio_shapes import (
    read_label_studio_keypoints,
    read_label_studio_polygons,
)
from accord.readers.shape_formats import shape_format
from tests.test_bad_input import refused

DATA = Path(__file__).parent / "data"
CVAT = [DATA / "cvat_shapes" / "job_ann.xml", DATA / "cvat_shapes" / "job_bob.xml"]
LS = DATA / "label_studio_shapes.json"
SIGMAS = {"head": 0.05, "back": 0.08, "tail": 0.1}
NOTE = "note: area taken as the box around the labelled points (the export has none)"


def _quiet(func, *args, **kw):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return func(*args, **kw)


def test_cvat_skeletons() -> None:
    t = read_cvat_keypoints(CVAT)
    assert t.raters == ("ann", "bob") and t.names == ("head", "back", "tail")
    # ann's tail is occluded (v 1); bob's is outside the image (v 0, no coordinates)
    assert t.points[0, 2].tolist() == [260.0, 150.0, 1.0]
    assert t.points[1, 2, 2] == 0.0 and math.isnan(t.points[1, 2, 0])
    assert t.area.tolist() == [60.0 * 50.0, 28.0 * 22.0]  # boxes around the labelled points
    assert t.audit[NOTE] == 2 and t.audit["skipped: polygon (not keypoints)"] == 2
    assert t.audit["skipped: box (not keypoints)"] == 2 and t.audit["no-object rows"] == 2
    res = _quiet(accord.keypoint_agreement, [str(f) for f in CVAT], sigmas=SIGMAS,
                 n_resamples=99)
    # one pair; s^2 = (3000 + 616) / 2; head 2 px apart, back 2 px, tail labelled by ann only
    s2, k = (3000 + 616) / 2, np.array([0.1, 0.16])
    oks = (np.exp(-np.array([4.0, 4.0]) / (2 * s2 * k**2)).sum() + 0) / 3
    assert oks > 0.5 and res.f1.estimate == 1.0
    assert res.mean_oks.estimate == pytest.approx(oks, abs=1e-12)


def test_cvat_polygons() -> None:
    t = read_cvat_polygons(CVAT)
    assert t.area.tolist() == [120.0 * 60.0, 120.0 * (60.0 + 62.0) / 2]  # bob's: a trapezoid
    assert t.audit["skipped: skeleton (not a polygon)"] == 2
    res = _quiet(accord.polygon_agreement, [str(f) for f in CVAT], n_resamples=99)
    assert res.f1.estimate == 1.0
    assert res.mean_iou.estimate == pytest.approx(7200 / 7320, abs=1e-12)


def test_label_studio_keypoints_grouped_by_their_rectangle() -> None:
    t = read_label_studio_keypoints(LS)
    assert t.labels == ("cat", "kp") and t.names == ("head", "back", "tail")
    # percent to pixels: 25 % of 800 = 200, 25 % of 600 = 150
    assert t.points[0, 0].tolist() == [200.0, 150.0, 2.0]
    # the area of a cat is its rectangle's: 25 % x 30 % of 800 x 600
    assert t.area[0] == pytest.approx(200 * 180, abs=1e-9)
    assert t.audit["skipped: cancelled or ground truth annotation"] == 1
    assert t.audit["skipped: choices region (not keypoints)"] == 1 and t.audit[NOTE] == 1
    res = _quiet(accord.keypoint_agreement, LS, sigmas=SIGMAS, n_resamples=99)
    assert res.pairs[("7", "8")].f1.estimate == pytest.approx(2 / 3, abs=1e-15)


def test_label_studio_polygons() -> None:
    t = read_label_studio_polygons(LS)
    assert t.area.tolist() == [160.0 * 120.0, 160.0 * 90.0]
    res = _quiet(accord.polygon_agreement, LS, n_resamples=99)
    assert res.mean_iou.estimate == pytest.approx(0.75, abs=1e-12)


def test_format_detection_and_bad_files(tmp_path: Path) -> None:
    assert shape_format(CVAT, "f") == "cvat" and shape_format([LS], "f") == "label_studio"
    coco = DATA / "keypoints" / "ann.json"
    assert shape_format([coco], "f") == "coco"
    refused(FormatError, "different formats", accord.keypoint_agreement, [str(CVAT[0]), str(coco)])
    refused(DataError, "one CVAT job export per annotator", read_cvat_polygons, CVAT[:1])
    bad = tmp_path / "ls.json"
    bad.write_text(LS.read_text().replace('"original_width": 800,', ""), encoding="utf-8")
    refused(DataError, "without original_width/original_height", read_label_studio_polygons, bad)
