"""Regenerate polygons.csv and keypoints.csv: two small long tables of shapes, written
by hand (no randomness).

polygons.csv: three annotators (ann, bob, cleo) outline roofs and trees on three
invented aerial images (no pixels). On roofs_01.jpg all three outline a rectangular
roof (bob a pixel or two off, cleo five), ann and cleo an L-shaped roof that bob
outlines as its square, and ann and cleo a tree that bob missed; on roofs_02.jpg all
three outline a roof, and ann and cleo call a round shape a tree where bob calls it a
bush; on roofs_03.jpg ann and bob outline a roof that cleo draws elsewhere.

keypoints.csv: the same three annotators place two keypoints (wrist, tip) on hands
in three invented images, with the hand's area (the OKS scale): a few pixels of
jitter, a hand cleo missed, a tip bob left unlabelled (v 0) or marked hidden (v 1),
and a hand bob placed far from the others'. Nothing here is real data.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

HERE = Path(__file__).parent


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[float]:
    return [x0, y0, x1, y0, x1, y1, x0, y1]


_L = [300, 100, 400, 100, 400, 150, 350, 150, 350, 200, 300, 200]
_TREE = [500, 300, 540, 300, 520, 340]
_ROUND = [100, 300, 130, 290, 150, 310, 140, 340, 110, 340]

POLYGONS = [
    ("roofs_01.jpg", "ann", "roof", _rect(100, 100, 200, 180)),
    ("roofs_01.jpg", "bob", "roof", _rect(101, 102, 201, 181)),
    ("roofs_01.jpg", "cleo", "roof", _rect(105, 104, 204, 185)),
    ("roofs_01.jpg", "ann", "roof", _L),
    ("roofs_01.jpg", "bob", "roof", _rect(300, 100, 400, 200)),
    ("roofs_01.jpg", "cleo", "roof", [x + 1 for x in _L]),
    ("roofs_01.jpg", "ann", "tree", _TREE),
    ("roofs_01.jpg", "cleo", "tree", [x - 1 for x in _TREE]),
    ("roofs_02.jpg", "ann", "roof", _rect(200, 50, 320, 140)),
    ("roofs_02.jpg", "bob", "roof", _rect(198, 52, 318, 141)),
    ("roofs_02.jpg", "cleo", "roof", _rect(202, 48, 322, 138)),
    ("roofs_02.jpg", "ann", "tree", _ROUND),
    ("roofs_02.jpg", "bob", "bush", [x + 2 for x in _ROUND]),
    ("roofs_02.jpg", "cleo", "tree", [x - 1 for x in _ROUND]),
    ("roofs_03.jpg", "ann", "roof", _rect(400, 400, 480, 460)),
    ("roofs_03.jpg", "bob", "roof", _rect(402, 401, 481, 462)),
    ("roofs_03.jpg", "cleo", "roof", _rect(100, 100, 160, 150)),
]

KEYPOINTS = [
    ("hand_01.jpg", "ann", [100, 100, 2, 140, 60, 2], 1600),
    ("hand_01.jpg", "bob", [101, 101, 2, 141, 62, 2], 1600),
    ("hand_01.jpg", "cleo", [99, 100, 2, 138, 61, 2], 1500),
    ("hand_01.jpg", "ann", [300, 300, 2, 330, 260, 2], 1200),
    ("hand_01.jpg", "bob", [302, 299, 2, 331, 262, 1], 1200),
    ("hand_02.jpg", "ann", [50, 50, 2, 90, 20, 2], 1400),
    ("hand_02.jpg", "bob", [52, 50, 2, 0, 0, 0], 1400),
    ("hand_02.jpg", "cleo", [51, 49, 2, 89, 22, 2], 1300),
    ("hand_03.jpg", "ann", [200, 200, 2, 240, 170, 2], 1600),
    ("hand_03.jpg", "bob", [260, 230, 2, 300, 200, 2], 1600),
    ("hand_03.jpg", "cleo", [201, 201, 2, 241, 171, 2], 1600),
]


def _write(path: Path, header: list[str], rows: list[list[object]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(header)
        out.writerows(rows)


def main() -> None:
    _write(HERE / "polygons.csv", ["image", "annotator", "label", "polygon"],
           [[i, a, lab, json.dumps(p)] for i, a, lab, p in POLYGONS])
    _write(HERE / "keypoints.csv", ["image", "annotator", "label", "keypoints", "area"],
           [[i, a, "hand", json.dumps(k), area] for i, a, k, area in KEYPOINTS])


if __name__ == "__main__":
    main()
