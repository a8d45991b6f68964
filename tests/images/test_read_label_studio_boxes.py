"""``accord.read`` of a Label Studio export with rectangles: the boxes, as for COCO.

The rectangles' percent coordinates are converted with ``original_width`` and
``original_height`` by :func:`accord.readers.label_studio_boxes.read_label_studio_boxes`;
``accord.read`` gives the same table in ``meta["boxes"]`` (as it does for COCO, CVAT and
YOLO), with what it did not read counted in the audit, so that ``box_agreement`` and
``accord report`` take the file as it comes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import accord
from accord.readers.label_studio_boxes import read_label_studio_boxes
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "boxes_label_studio.json"
SHAPES = Path(__file__).parent / "data" / "label_studio_shapes.json"


def test_read_gives_the_box_readers_table() -> None:
    ann = accord.read(EXAMPLE)
    boxes, direct = ann.meta["boxes"], read_label_studio_boxes(EXAMPLE)
    assert ann.meta["format"] == "label_studio_boxes"
    assert boxes.units == direct.units and boxes.raters == direct.raters
    assert np.array_equal(boxes.xywh, direct.xywh) and len(boxes) == len(direct) > 0
    assert ann.n_ratings == 0 and ann.audit.rows_read == len(direct)


def test_what_was_not_read_is_counted() -> None:
    dropped = {d["reason"]: d["count"]
               for d in accord.read(SHAPES, shapes="boxes").audit.to_dict()["dropped"]}
    assert dropped == {"cancelled annotation (Skip)": 1,
                       "choices region (only rectanglelabels are compared)": 1,
                       "keypointlabels region (only rectanglelabels are compared)": 7,
                       "polygonlabels region (only rectanglelabels are compared)": 2}


def test_agreement_and_the_report_take_the_read(tmp_path: Path) -> None:
    via_read = accord.box_agreement(accord.read(EXAMPLE), n_resamples=99)
    direct = accord.box_agreement(EXAMPLE, n_resamples=99)
    assert via_read.f1.estimate == direct.f1.estimate
    assert via_read.alpha.estimate == direct.alpha.estimate
    code, _, err = run_cli("report", str(EXAMPLE), "-o", str(tmp_path / "r.md"))
    assert code == 0, err
    text = (tmp_path / "r.md").read_text()
    assert "Agreement on boxes" in text and f"{direct.f1.estimate:.3f}" in text


def test_a_classification_export_is_still_read_as_labels() -> None:
    ls = ROOT / "examples" / "export.json"
    ann = accord.read(ls, field="sentiment")
    assert ann.n_ratings > 0 and "boxes" not in (ann.meta or {})
