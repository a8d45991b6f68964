"""COCO keypoint JSON into keypointed objects: what is read, what is counted as not read.

The fixtures in data/keypoints/ have the shape of CVAT's "COCO Keypoints 1.0" export
(``attributes``, ``segmentation``, ``skeleton``, ``num_keypoints``): two annotators on
two street images; ``ann`` also has a person with no labelled point and a crowd
region (an RLE), ``bob`` a polygon with no keypoints.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import accord
from accord.errors import DataError, DegenerateDataWarning
from accord.readers.coco_keypoints import read_coco_keypoints
from accord.readers.keypoints import COCO_KEYPOINTS
from tests.test_bad_input import refused

DATA = Path(__file__).parent / "data" / "keypoints"
FILES = [DATA / "ann.json", DATA / "bob.json"]


def test_reads_the_objects_and_counts_what_it_does_not_read() -> None:
    t = read_coco_keypoints(FILES)
    assert t.raters == ("ann", "bob") and t.units == ("street_0001.jpg", "street_0002.jpg")
    assert t.names == COCO_KEYPOINTS and t.points.shape == (5, 17, 3)
    assert dict(t.audit) == {
        "rows": 6, "objects": 5, "no-object rows": 1, "files": 2,
        "skipped: crowd region (iscrowd)": 1,
        "skipped: no labelled keypoint (num_keypoints 0)": 1,
        "skipped: no keypoints": 1,
    }
    # ann's third person: the ankles unlabelled (v = 0), so no coordinates
    third = t.points[(t.rater == 0) & (t.unit == 1)][0]
    assert third[15:, 2].tolist() == [0.0, 0.0] and third[:15, 2].min() == 2.0


def test_agreement_on_the_export() -> None:
    """Image 1: both annotators place the same two people; image 2: only ann places one.
    F1 = 2 * 2 / (3 + 2) = 0.8; the groups {p, p}, {p, p}, {p, no box} give alpha 0
    (1 - 5 * 2 / (36 - 26), as for boxes)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.keypoint_agreement([str(f) for f in FILES], n_resamples=199)
    assert res.f1.estimate == pytest.approx(0.8, abs=1e-15)
    assert res.alpha.estimate == pytest.approx(0.0, abs=1e-15)
    assert 0.5 <= res.mean_oks.estimate < 1.0
    dropped = {d["reason"]: d["count"] for d in res.to_dict()["audit"]["dropped"]}
    assert dropped == {"crowd region (iscrowd)": 1, "no keypoints": 1,
                       "no labelled keypoint (num_keypoints 0)": 1}


def _file(tmp_path: Path, name: str, annotations: list[dict[str, Any]],
          keypoints: list[str]) -> Path:
    data = {"images": [{"id": 1, "file_name": "a.jpg"}],
            "categories": [{"id": 1, "name": "hand", "keypoints": keypoints}],
            "annotations": annotations}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_one_file_with_the_annotator_in_an_attribute(tmp_path: Path) -> None:
    anns = [{"id": k, "image_id": 1, "category_id": 1, "area": 100, "keypoints": [0, 0, 2, x, 0, 2],
             "attributes": {"annotator": who}} for k, (who, x) in enumerate((("r1", 5), ("r2", 6)))]
    path = _file(tmp_path, "all", anns, ["wrist", "tip"])
    t = read_coco_keypoints(path, rater_key="annotator")
    assert t.raters == ("r1", "r2") and t.names == ("wrist", "tip")
    with pytest.warns(DegenerateDataWarning, match="keypoint_alpha"):  # one label, all matched
        res = accord.keypoint_agreement(t, sigmas={"wrist": 0.1, "tip": 0.1}, n_resamples=9)
    assert res.f1.estimate == 1.0 and res.alpha.undefined_reason is not None


def test_bad_files_are_one_sentence(tmp_path: Path) -> None:
    one = {"id": 1, "image_id": 1, "category_id": 1, "area": 100, "keypoints": [0, 0, 2, 5, 0, 2]}
    a = _file(tmp_path, "a", [one], ["wrist", "tip"])
    b = _file(tmp_path, "b", [one], ["wrist", "thumb"])
    refused(DataError, "different keypoint lists", read_coco_keypoints, [a, b])
    c = _file(tmp_path, "c", [{**one, "category_id": 9}], ["wrist", "tip"])
    refused(DataError, "category id 9", read_coco_keypoints, [a, c])
    d = _file(tmp_path, "d", [{**one, "keypoints": [0, 0, 2]}], ["wrist", "tip"])
    refused(DataError, "expected a list of 6 numbers", read_coco_keypoints, [a, d])
    refused(DataError, "one COCO file holds one annotator", read_coco_keypoints, a)
