"""COCO JSON into boxes: one file per annotator, or the annotator in an attribute."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import accord
from accord.errors import DataError, FormatError
from accord.readers.coco import read_coco, sniff
from tests.images._examples import FRUITS, kalphacv_alpha
from tests.test_bad_input import refused

CATS = [{"id": 1, "name": "car", "supercategory": ""}, {"id": 2, "name": "person"}]


def coco(annotations: list[dict[str, Any]], images: list[dict[str, Any]] | None = None,
         **extra: Any) -> dict[str, Any]:
    imgs = images or [{"id": 1, "file_name": "a.jpg", "width": 100, "height": 80},
                      {"id": 2, "file_name": "b.jpg", "width": 100, "height": 80}]
    return {"info": {}, "licenses": [], "images": imgs, "categories": CATS,
            "annotations": annotations, **extra}


def box(i: int, image: int, cat: int, bbox: list[float], **kw: Any) -> dict[str, Any]:
    # the shape CVAT's "COCO 1.0" export writes: area, iscrowd, segmentation, attributes
    return {"id": i, "image_id": image, "category_id": cat, "bbox": bbox,
            "area": bbox[2] * bbox[3], "iscrowd": 0, "segmentation": [],
            "attributes": {"occluded": False}, **kw}


def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_one_file_per_annotator(tmp_path: Path) -> None:
    """ann: a car on a.jpg; bob: the same car (IoU 90/100) and a person on b.jpg.
    Image ids differ between the files: images are joined by file_name."""
    ann = write(tmp_path / "ann.json", coco([box(1, 1, 1, [0, 0, 10, 10])]))
    bob_images = [{"id": 7, "file_name": "a.jpg"}, {"id": 9, "file_name": "b.jpg"}]
    bob = write(tmp_path / "bob.json", coco([box(1, 7, 1, [0, 0, 10, 9]),
                                             box(2, 9, 2, [5, 5, 4, 4])], bob_images))
    t = read_coco([ann, bob])
    assert t.raters == ("ann", "bob") and t.units == ("a.jpg", "b.jpg")
    assert t.labels == ("car", "person")
    # ann saw b.jpg and drew nothing there: one no-box row
    assert dict(t.audit) == {"rows": 4, "boxes": 3, "no-box rows": 1, "files": 2}
    res = accord.box_agreement([ann, bob], n_resamples=99)
    # F1 = 2 * 1 / (1 + 2); mean IoU 0.9
    assert res.f1.estimate == pytest.approx(2 / 3, abs=1e-15)
    assert res.mean_iou.estimate == pytest.approx(0.9, abs=1e-15)


def test_crowd_regions_and_boxless_annotations_are_counted_not_dropped(tmp_path: Path) -> None:
    ann = write(tmp_path / "ann.json", coco([
        box(1, 1, 1, [0, 0, 10, 10]), box(2, 1, 2, [0, 0, 50, 50], iscrowd=1),
        {"id": 3, "image_id": 2, "category_id": 2, "segmentation": [[0, 0, 1, 0, 1, 1]]}]))
    bob = write(tmp_path / "bob.json", coco([box(1, 1, 1, [0, 0, 10, 10])]))
    audit = dict(read_coco([ann, bob]).audit)
    assert audit["skipped: crowd region (iscrowd)"] == 1 and audit["skipped: no bbox"] == 1
    assert audit["boxes"] == 2


def test_kalphacv_layout_annotator_on_the_image_record(tmp_path: Path) -> None:
    """kalphacv's fruits.json: one image record per annotator (same file_name), the
    annotator on the image; alpha 0.0222 as kalphacv gives it."""
    raters = sorted({b[0] for b in FRUITS})
    names = sorted({b[1] for b in FRUITS})
    images = [{"id": k + 1, "file_name": "apple_banana.jpg", "annotator": r}
              for k, r in enumerate(raters)]
    anns = [{"id": k + 1, "image_id": raters.index(b[0]) + 1,
             "category_id": names.index(b[1]) + 1, "bbox": list(b[2:]), "iscrowd": 0}
            for k, b in enumerate(FRUITS)]
    data = {"images": images, "annotations": anns,
            "categories": [{"id": k + 1, "name": n} for k, n in enumerate(names)]}
    path = write(tmp_path / "fruits.json", data)
    assert sniff(path, path.read_bytes()) > 0.5
    res = accord.box_agreement(path, rater="annotator", n_resamples=99)
    assert round(res.alpha.estimate, 4) == kalphacv_alpha({"img": FRUITS}) == 0.0222


def test_annotator_in_the_attributes(tmp_path: Path) -> None:
    path = write(tmp_path / "all.json", coco([
        box(1, 1, 1, [0, 0, 10, 10], attributes={"annotator": "ann"}),
        box(2, 1, 1, [0, 0, 10, 10], attributes={"annotator": "bob"}),
        box(3, 2, 2, [0, 0, 10, 10], attributes={"annotator": "bob"})]))
    t = read_coco(path, rater_key="annotator")
    assert t.raters == ("ann", "bob") and dict(t.audit)["no-box rows"] == 1


def test_bad_coco_is_one_sentence(tmp_path: Path) -> None:
    good = write(tmp_path / "good.json", coco([box(1, 1, 1, [0, 0, 10, 10])]))
    unknown = write(tmp_path / "u.json", coco([box(1, 1, 5, [0, 0, 10, 10])]))
    refused(DataError, "category id 5, which the file's 'categories' does not list",
            read_coco, [good, unknown])
    zero = write(tmp_path / "z.json", coco([box(1, 1, 1, [0, 0, 0, 10])]))
    refused(DataError, "positive width and height", read_coco, [good, zero])
    nan = write(tmp_path / "n.json", coco([box(1, 1, 1, [0, 0, "wide", 10])]))
    refused(DataError, "finite numbers", read_coco, [good, nan])
    lost = write(tmp_path / "l.json", coco([box(1, 3, 1, [0, 0, 1, 1])]))
    refused(DataError, "image id 3", read_coco, [good, lost])
    refused(DataError, "unless rater_key=", read_coco, good)
    refused(DataError, "has no 'annotator'", read_coco, good, rater_key="annotator")
    (tmp_path / "d").mkdir()
    twin = write(tmp_path / "d" / "good.json", coco([]))
    refused(DataError, "same name", read_coco, [good, twin])
    other = write(tmp_path / "o.json", {"images": []})
    refused(FormatError, "not a COCO file", read_coco, [good, other])
