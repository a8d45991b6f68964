"""A model's boxes against a reference: P/R/F1 by hand, COCO AP against pycocotools."""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

import numpy as np
import pytest

from accord.errors import DataError, DegenerateDataWarning
from accord.images.detection import evaluate_boxes
from tests.test_bad_input import refused


def _case(seed: int, n_images: int = 12) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Reference boxes and scored detections (jittered, missed, spurious, relabelled)."""
    rng = np.random.default_rng(seed)
    gts, dts = [], []
    for i in range(n_images):
        for _ in range(int(rng.integers(0, 6))):
            cat = int(rng.integers(1, 4))
            x, y = rng.uniform(0, 200, 2).round(1)
            w, h = rng.uniform(10, 80, 2).round(1)
            gts.append({"image_id": i + 1, "category_id": cat,
                        "bbox": [float(x), float(y), float(w), float(h)]})
            if rng.random() < 0.8:
                j = rng.normal(0, 0.12, 4) * [w, h, w, h]
                c = cat if rng.random() < 0.9 else int(rng.integers(1, 4))
                dts.append({"image_id": i + 1, "category_id": c,
                            "bbox": [float(x + j[0]), float(y + j[1]), float(max(w + j[2], 2)),
                                     float(max(h + j[3], 2))],
                            "score": round(float(rng.uniform(0.3, 1)), 3)})
        for _ in range(int(rng.integers(0, 3))):
            x, y = rng.uniform(0, 200, 2)
            dts.append({"image_id": i + 1, "category_id": int(rng.integers(1, 4)),
                        "bbox": [float(x), float(y), 30.0, 30.0],
                        "score": round(float(rng.uniform(0, 0.6)), 3)})
    return gts, dts


def _pycocotools(gts: list[dict[str, Any]], dts: list[dict[str, Any]], n_images: int) -> Any:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    gt = COCO()
    gt.dataset = {
        "images": [{"id": i + 1} for i in range(n_images)],
        "categories": [{"id": c, "name": f"c{c}"} for c in (1, 2, 3)],
        "annotations": [{**g, "id": k + 1, "area": g["bbox"][2] * g["bbox"][3], "iscrowd": 0}
                        for k, g in enumerate(gts)],
    }
    with contextlib.redirect_stdout(io.StringIO()):
        gt.createIndex()
        dt = gt.loadRes([dict(d) for d in dts])
        ev = COCOeval(gt, dt, "bbox")
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    return ev.stats


def _table(gts: list[dict[str, Any]], dts: list[dict[str, Any]]) -> dict[str, list[Any]]:
    rows = [(g, "gold", None) for g in gts] + [(d, "model", d["score"]) for d in dts]
    return {"image": [f"img-{r[0]['image_id']:03d}" for r in rows],
            "annotator": [r[1] for r in rows],
            "label": [f"c{r[0]['category_id']}" for r in rows],
            "x": [r[0]["bbox"][0] for r in rows], "y": [r[0]["bbox"][1] for r in rows],
            "w": [r[0]["bbox"][2] for r in rows], "h": [r[0]["bbox"][3] for r in rows],
            "score": [r[2] for r in rows]}


def _evaluate(data: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return evaluate_boxes(data, reference="gold", system="model", score="score",
                              n_resamples=99, **kw)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_ap_ap50_ap75_equal_pycocotools(seed: int) -> None:
    gts, dts = _case(seed)
    stats = _pycocotools(gts, dts, 12)  # computed here: pycocotools' COCOeval, bbox
    res = _evaluate(_table(gts, dts))
    assert res.ap.estimate == pytest.approx(stats[0], abs=1e-9)
    assert res.ap50.estimate == pytest.approx(stats[1], abs=1e-9)
    assert res.ap75.estimate == pytest.approx(stats[2], abs=1e-9)


def test_ap_bootstrap_weights_are_images_drawn_twice() -> None:
    """Weight 2 on the first image = the AP of the data with that image copied."""
    gts, dts = _case(7, 6)
    copy_g = [{**g, "image_id": 99} for g in gts if g["image_id"] == 1]
    copy_d = [{**d, "image_id": 99} for d in dts if d["image_id"] == 1]
    res = _evaluate(_table(gts, dts))
    twice = _evaluate(_table(gts + copy_g, dts + copy_d))
    assert twice.ap.estimate == pytest.approx(_pycocotools(gts + copy_g, dts + copy_d, 99)[0],
                                              abs=1e-9)
    r = res.ap.resampling()
    w = np.zeros((1, r.features.shape[0]))
    for unit, pattern in zip(r.unit_ids, r.unit_patterns):
        w[0, pattern] += 2 if unit == "img-001" else 1
    assert r.evaluate(w)[0] == pytest.approx(twice.ap.estimate, abs=1e-12)
    ci = res.ap.confidence_interval(method=res.bootstrap)
    assert ci.low <= res.ap.estimate <= ci.high


def test_precision_recall_f1_by_hand() -> None:
    """gold: cat (0,0,10,10), dog (50,50,10,10); model: cat (1,0,10,10) (IoU 90/110),
    dog on the gold cat (wrong label), cat far away. TP = 1 (the cats), so
    precision 1/3, recall 1/2, F1 = 2 * 1 / (2 + 3) = 0.4."""
    data = {"image": ["i"] * 5, "annotator": ["gold", "gold", "model", "model", "model"],
            "label": ["cat", "dog", "cat", "dog", "cat"], "x": [0, 50, 1, 0, 100],
            "y": [0, 50, 0, 0, 100], "w": [10] * 5, "h": [10] * 5}
    res = evaluate_boxes(data, reference="gold", system="model", n_resamples=99)
    assert res.precision.estimate == pytest.approx(1 / 3, abs=1e-15)
    assert res.recall.estimate == pytest.approx(1 / 2, abs=1e-15)
    assert res.f1.estimate == pytest.approx(0.4, abs=1e-15)
    assert res.per_label["cat"]["recall"].estimate == 1.0
    assert res.per_label["dog"]["precision"].estimate == 0.0
    assert res.ap is None
    out = res.to_dict()
    assert out["f1"]["confidence_interval"]["method"] == "bootstrap-percentile"
    assert out["ap"] is None and out["f1"]["iou_threshold"] == 0.5


def test_bad_detection_input() -> None:
    data = {"image": ["i", "i"], "annotator": ["gold", "model"], "label": ["cat", "cat"],
            "x": [0, 0], "y": [0, 0], "w": [5, 5], "h": [5, 5], "score": [None, None]}
    refused(DataError, "system='robot' is not an annotator", evaluate_boxes, data,
            reference="gold", system="robot")
    refused(DataError, "has no score", evaluate_boxes, data, reference="gold",
            system="model", score="score")
