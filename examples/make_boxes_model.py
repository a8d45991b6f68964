"""Regenerate boxes_model.csv: a synthetic detector against reference boxes, with two
human annotators beside it (numpy, seed 20240305).

Twenty invented street images (no pixels: only boxes) with two to five objects each
(car, person, bicycle). ``gold`` is the adjudicated reference: every object, exactly.
Two annotators, ``ann`` and ``bob``, draw each object with a small jitter of its
corners and miss it now and then (5 % and 12 %); ``detector`` is a model that finds
an object 85 % of the time with a larger jitter, calls a bicycle a person now and
then, adds low-scored boxes where there is nothing, and gives every box a confidence
``score`` (the humans' and the reference's score cells are empty). Nothing here is
real data.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

LABELS = ["bicycle", "car", "person"]
HERE = Path(__file__).parent


def main() -> None:
    rng = np.random.default_rng(20240305)
    rows: list[list[object]] = []
    for i in range(20):
        image = f"street-{i + 1:03d}.jpg"
        objects = [(LABELS[int(rng.integers(0, 3))], float(rng.uniform(0, 500)),
                    float(rng.uniform(0, 300)), float(rng.uniform(30, 120)),
                    float(rng.uniform(30, 160))) for _ in range(int(rng.integers(2, 6)))]
        for label, x, y, w, h in objects:
            rows.append([image, "gold", label, round(x, 1), round(y, 1), round(w, 1),
                         round(h, 1), ""])
        for name, miss, jitter in (("ann", 0.05, 0.03), ("bob", 0.12, 0.05)):
            for label, x, y, w, h in objects:
                if rng.random() < miss:
                    continue
                rows.append([image, name, label, *_jittered(rng, x, y, w, h, jitter), ""])
        for label, x, y, w, h in objects:
            if rng.random() < 0.15:
                continue
            if label == "bicycle" and rng.random() < 0.25:
                label = "person"
            score = round(float(rng.uniform(0.5, 0.99)), 3)
            rows.append([image, "detector", label, *_jittered(rng, x, y, w, h, 0.08), score])
        for _ in range(int(rng.integers(0, 3))):
            rows.append([image, "detector", LABELS[int(rng.integers(0, 3))],
                         round(float(rng.uniform(0, 500)), 1),
                         round(float(rng.uniform(0, 300)), 1), 40.0, 60.0,
                         round(float(rng.uniform(0.05, 0.6)), 3)])
    with (HERE / "boxes_model.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["image", "annotator", "label", "x", "y", "w", "h", "score"])
        writer.writerows(rows)


def _jittered(rng: np.random.Generator, x: float, y: float, w: float, h: float,
              scale: float) -> list[float]:
    jx, jy, jw, jh = rng.normal(0, scale, 4) * (w, h, w, h)
    return [round(x + jx, 1), round(y + jy, 1), round(max(w + jw, 5.0), 1),
            round(max(h + jh, 5.0), 1)]


if __name__ == "__main__":
    main()
