"""Regenerate boxes.csv and boxes_coco/: a synthetic box-annotation pilot (numpy, seed
20240303).

Thirty invented street images (no pixels: only boxes), three annotators (ann, bob,
cleo) and the labels car, person and bicycle. Each image holds two to five objects;
each annotator draws each object with a small jitter of its corners, misses it now
and then (ann 5 %, bob 10 %, cleo 15 %), calls a bicycle a person now and then, and
sometimes draws a box where there is no object. boxes.csv is the long table (one row
per box); boxes_coco/ holds the first ten images as COCO JSON, one file per
annotator. Nothing here is real data.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

LABELS = ["bicycle", "car", "person"]
MISS = {"ann": 0.05, "bob": 0.10, "cleo": 0.15}
HERE = Path(__file__).parent


def main() -> None:
    rng = np.random.default_rng(20240303)
    rows = []
    for i in range(30):
        image = f"street-{i + 1:03d}.jpg"
        n = int(rng.integers(2, 6))
        objects = [(LABELS[int(rng.integers(0, 3))], float(rng.uniform(0, 500)),
                    float(rng.uniform(0, 300)), float(rng.uniform(30, 120)),
                    float(rng.uniform(30, 160))) for _ in range(n)]
        for name, miss in MISS.items():
            for label, x, y, w, h in objects:
                if rng.random() < miss:
                    continue
                if label == "bicycle" and rng.random() < 0.2:
                    label = "person"
                jx, jy, jw, jh = rng.normal(0, 0.03, 4) * (w, h, w, h)
                rows.append([image, name, label, round(x + jx, 1), round(y + jy, 1),
                             round(max(w + jw, 5.0), 1), round(max(h + jh, 5.0), 1)])
            if rng.random() < 0.1:
                rows.append([image, name, LABELS[int(rng.integers(0, 3))],
                             round(float(rng.uniform(0, 500)), 1),
                             round(float(rng.uniform(0, 300)), 1), 40.0, 60.0])
    with (HERE / "boxes.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["image", "annotator", "label", "x", "y", "w", "h"])
        writer.writerows(rows)
    _coco(rows)


def _coco(rows: list[list]) -> None:
    folder = HERE / "boxes_coco"
    folder.mkdir(exist_ok=True)
    images = sorted({r[0] for r in rows})[:10]
    ids = {name: k + 1 for k, name in enumerate(images)}
    categories = [{"id": k + 1, "name": n, "supercategory": ""} for k, n in enumerate(LABELS)]
    for name in MISS:
        mine = [r for r in rows if r[1] == name and r[0] in ids]
        doc = {
            "info": {"description": f"synthetic boxes of {name}"}, "licenses": [],
            "images": [{"id": ids[im], "file_name": im, "width": 640, "height": 480}
                       for im in images],
            "categories": categories,
            "annotations": [
                {"id": k + 1, "image_id": ids[r[0]], "category_id": LABELS.index(r[2]) + 1,
                 "bbox": r[3:7], "area": round(r[5] * r[6], 2), "iscrowd": 0,
                 "segmentation": [], "attributes": {"occluded": False}}
                for k, r in enumerate(mine)
            ],
        }
        (folder / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
