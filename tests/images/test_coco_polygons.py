"""COCO segmentation polygons into outlined objects: what is read, what is counted as not read.

The fixtures in data/polygons/ have the shape of CVAT's "COCO 1.0" export
(``attributes``, ``area``, ``bbox`` beside ``segmentation``): two annotators outline
roofs and trees on two images. ``ann`` has a tree in two parts (two polygons) and a
crowd region; ``bob`` outlines his tree as an RLE mask and has a box with no polygon.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import accord
from accord.errors import DataError, DegenerateDataWarning
from accord.readers.coco_polygons import read_coco_polygons
from tests.test_bad_input import refused

DATA = Path(__file__).parent / "data" / "polygons"
FILES = [DATA / "ann.json", DATA / "bob.json"]


def test_reads_the_outlines_and_counts_what_it_does_not_read() -> None:
    t = read_coco_polygons(FILES)
    assert t.raters == ("ann", "bob") and t.labels == ("roof", "tree")
    assert dict(t.audit) == {
        "rows": 5, "objects": 5, "no-object rows": 0, "files": 2,
        "skipped: crowd region (iscrowd)": 1,
        "skipped: RLE segmentation (a mask, not polygons)": 1,
        "skipped: no segmentation polygon": 1,
    }
    tree = next(k for k in range(len(t)) if t.labels[t.label[k]] == "tree")
    assert len(t.rings[tree]) == 2 and t.area[tree] == pytest.approx(1600.0, abs=1e-12)


def test_agreement_on_the_export_by_hand() -> None:
    """roofs_0001: ann's 100 x 80 rectangle and bob's 99 x 80 one shifted by (2, 1):
    intersection 98 x 79 = 7742, IoU 7742 / (8000 + 7920 - 7742); ann's L (7500) inside
    bob's square (10000): IoU 0.75. roofs_0002: only ann's tree (bob's is a mask, not
    read). F1 = 2 * 2 / (3 + 2) = 0.8; alpha on {roof, roof} x 2 and {tree, none}:
    1 - 5 * 2 / (36 - 18) = 4/9."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.polygon_agreement([str(f) for f in FILES], n_resamples=199)
    assert res.f1.estimate == pytest.approx(0.8, abs=1e-15)
    first = 7742 / (8000 + 7920 - 7742)
    assert res.mean_iou.estimate == pytest.approx((first + 0.75) / 2, abs=1e-12)
    assert res.alpha.estimate == pytest.approx(4 / 9, abs=1e-15)
    dropped = {d["reason"]: d["count"] for d in res.to_dict()["audit"]["dropped"]}
    assert dropped["RLE segmentation (a mask, not polygons)"] == 1


def test_bad_files_are_one_sentence(tmp_path: Path) -> None:
    data = {"images": [{"id": 1, "file_name": "a.jpg"}],
            "categories": [{"id": 1, "name": "roof"}],
            "annotations": [{"id": 7, "image_id": 1, "category_id": 1,
                             "segmentation": [[0, 0, 4, 4, 4, 0, 0, 4]]}]}
    bow = tmp_path / "bow.json"
    bow.write_text(json.dumps(data), encoding="utf-8")
    refused(DataError, "not a simple polygon", read_coco_polygons, [FILES[0], bow])
    refused(DataError, "one COCO file holds one annotator", read_coco_polygons, bow)
