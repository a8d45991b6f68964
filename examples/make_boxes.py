"""Regenerate boxes.csv and boxes_coco/: a synthetic box-annotation pilot (numpy, seed
20240303).

Thirty invented street images (no pixels: only boxes), three annotators (ann, bob,
cleo) and the labels car, person and bicycle. Each image holds two to five objects;
each annotator draws each object with a small jitter of its corners, misses it now
and then (ann 5 %, bob 10 %, cleo 15 %), calls a bicycle a person now and then, and
sometimes draws a box where there is no object. boxes.csv is the long table (one row
per box); the first ten images are also written as each tool exports them:
boxes_coco/ (COCO JSON, one file per annotator), boxes_cvat/ (CVAT for images 1.1
XML, one job export per annotator, the annotator its assignee), boxes_label_studio.json
(Label Studio JSON, rectangles in percent, the annotator completed_by) and boxes_yolo/
(one folder of YOLO label files per annotator, classes.txt, and sizes.csv for the
pixels). Nothing here is real data.
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
    first = sorted({r[0] for r in rows})[:10]
    _cvat(rows, first)
    _label_studio(rows, first)
    _yolo(rows, first)


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


def _cvat(rows: list[list], images: list[str]) -> None:
    folder = HERE / "boxes_cvat"
    folder.mkdir(exist_ok=True)
    for job, name in enumerate(MISS, start=41):
        lines = ['<?xml version="1.0" encoding="utf-8"?>', "<annotations>",
                 "  <version>1.1</version>", "  <meta>", "    <job>", f"      <id>{job}</id>",
                 f"      <size>{len(images)}</size>", "      <mode>annotation</mode>",
                 "      <assignee>", f"        <username>{name}</username>",
                 f"        <email>{name}@example.com</email>", "      </assignee>",
                 "    </job>", "  </meta>"]
        for k, im in enumerate(images):
            lines.append(f'  <image id="{k}" name="{im}" width="640" height="480">')
            for r in (r for r in rows if r[0] == im and r[1] == name):
                x, y, w, h = r[3:7]
                lines.append(f'    <box label="{r[2]}" source="manual" occluded="0" '
                             f'xtl="{x:.2f}" ytl="{y:.2f}" xbr="{x + w:.2f}" '
                             f'ybr="{y + h:.2f}" z_order="0">\n    </box>')
            lines.append("  </image>")
        lines.append("</annotations>")
        (folder / f"job_{job}.xml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _label_studio(rows: list[list], images: list[str]) -> None:
    tasks = []
    for t, im in enumerate(images, start=1):
        annotations = []
        for u, name in enumerate(MISS, start=1):
            result = [
                {"id": f"{t}-{u}-{k}", "type": "rectanglelabels", "from_name": "label",
                 "to_name": "image", "original_width": 640, "original_height": 480,
                 "image_rotation": 0, "origin": "manual",
                 "value": {"x": r[3] / 6.4, "y": r[4] / 4.8, "width": r[5] / 6.4,
                           "height": r[6] / 4.8, "rotation": 0, "rectanglelabels": [r[2]]}}
                for k, r in enumerate(r for r in rows if r[0] == im and r[1] == name)]
            annotations.append({"id": 100 * t + u, "completed_by": {"id": u, "email": name},
                                "result": result, "was_cancelled": False,
                                "ground_truth": False, "task": t})
        tasks.append({"id": t, "data": {"image": f"/data/upload/1/{im}"},
                      "annotations": annotations, "predictions": []})
    (HERE / "boxes_label_studio.json").write_text(json.dumps(tasks, indent=1) + "\n",
                                                  encoding="utf-8")


def _yolo(rows: list[list], images: list[str]) -> None:
    folder = HERE / "boxes_yolo"
    folder.mkdir(exist_ok=True)
    (folder / "classes.txt").write_text("\n".join(LABELS) + "\n", encoding="utf-8")
    (folder / "sizes.csv").write_text(
        "image,width,height\n" + "".join(f"{im},640,480\n" for im in images), encoding="utf-8")
    for name in MISS:
        (folder / name).mkdir(exist_ok=True)
        for im in images:
            lines = [f"{LABELS.index(r[2])} {(r[3] + r[5] / 2) / 640:.6f} "
                     f"{(r[4] + r[6] / 2) / 480:.6f} {r[5] / 640:.6f} {r[6] / 480:.6f}"
                     for r in rows if r[0] == im and r[1] == name]
            text = "".join(line + "\n" for line in lines)
            (folder / name / f"{Path(im).stem}.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
