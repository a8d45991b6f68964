"""kalphacv's two published examples, as boxes (annotator, label, x, y, w, h).

Copied from the bounding boxes of ``src/fruits.json`` and
``src/landscape_annotations.json`` of github.com/Madave94/kalphacv (commit
48b95db), whose tests expect Krippendorff's alpha 0.0222 and 0.4889 (rounded to
four decimals, as kalphacv prints them).
"""

from __future__ import annotations

from typing import Any

Box = tuple[str, str, float, float, float, float]

FRUITS: list[Box] = [
    ("Ann1", "Banana", 57.0, 40.0, 353.0, 217.84),
    ("Ann1", "Apple", 228.0, 169.0, 153.0, 159.0),
    ("Ann1", "Apple", 136.0, 173.0, 127.0, 147.0),
    ("Ann2", "Apple", 135.0, 176.0, 146.0, 141.0),
    ("Ann2", "Apple", 229.0, 171.0, 152.0, 159.0),
    ("Ann2", "Banana", 56.0, 42.0, 352.0, 253.0),
    ("ann3", "Apple", 113.0, 163.0, 272.0, 181.0),
    ("ann3", "Banana", 138.0, 173.0, 151.0, 146.0),
    ("ann3", "Apple", 56.0, 38.0, 353.0, 246.0),
]

LANDSCAPE: list[Box] = [
    ("Ann1", "River", 17.1, 39.85, 39.3, 13.0),
    ("Ann1", "Sky", 0.0, 0.05, 64.0, 35.6),
    ("Ann1", "Grass", 0.0, 40.95, 33.5, 8.2),
    ("Ann1", "Rocks", 43.9, 32.95, 20.1, 15.3),
    ("Ann1", "Grass", 17.2, 46.55, 46.8, 9.5),
    ("Ann1", "Grass", 0.0, 15.75, 28.0, 8.1),
    ("Ann1", "Tree", 41.5, 19.05, 13.2, 12.9),
    ("Ann1", "Rocks", 0.0, 19.85, 22.4, 25.8),
    ("Ann1", "Waterfall", 6.9, 23.25, 22.2, 37.8),
    ("Ann2", "Rocks", 0.0, 23.55, 21.8, 14.4),
    ("Ann2", "Sky", 0.0, 0.15, 64.0, 18.1),
    ("Ann2", "Rocks", 19.1, 33.55, 44.9, 30.45),
    ("Ann2", "Grass", 0.0, 16.85, 17.8, 7.0),
    ("Ann2", "Tree", 41.1, 19.75, 13.4, 12.5),
    ("Ann2", "River", 15.9, 39.75, 41.1, 15.1),
    ("Ann2", "Grass", 0.0, 37.85, 32.7, 11.28),
    ("Ann2", "River", 0.1, 59.85, 45.52, 4.15),
    ("Ann2", "Grass", 29.4, 25.62, 34.6, 17.91),
    ("Ann2", "Waterfall", 6.1, 20.25, 22.5, 41.5),
    ("Ann3", "Grass", 31.9, 26.25, 32.1, 13.9),
    ("Ann3", "Grass", 0.1, 15.45, 17.9, 9.4),
    ("Ann3", "Grass", 17.0, 48.35, 46.9, 7.9),
    ("Ann3", "River", 9.2, 38.05, 46.9, 14.6),
    ("Ann3", "Waterfall", 8.2, 51.65, 8.8, 8.8),
    ("Ann3", "River", 0.0, 59.65, 41.64, 4.35),
    ("Ann3", "Tree", 41.6, 19.25, 13.3, 12.8),
    ("Ann3", "Rocks", 0.2, 24.15, 20.1, 21.8),
    ("Ann3", "Waterfall", 18.2, 19.35, 9.8, 21.1),
    ("Ann3", "Rocks", 44.8, 33.65, 19.2, 15.5),
    ("Ann3", "Sky", 0.1, 0.05, 63.9, 35.2),
]


def columns(images: dict[str, list[Box]]) -> dict[str, list[Any]]:
    """A long table (image, annotator, label, x, y, w, h) of several images."""
    rows = [(image, *box) for image, boxes in images.items() for box in boxes]
    names = ("image", "annotator", "label", "x", "y", "w", "h")
    return {name: [row[k] for row in rows] for k, name in enumerate(names)}


def kalphacv_alpha(images: dict[str, list[Box]], iou: float = 0.5) -> float:
    """kalphacv 1.5's figure: its alpha per image (rounded to 4 decimals), averaged."""
    from kalphacv.calculate_iaa import calculate_iaa

    imgs, anns = [], []
    for k, (name, boxes) in enumerate(images.items()):
        raters = sorted({b[0] for b in boxes})
        imgs.append({"file_name": name, "height": 1000, "width": 1000, "id": k,
                     "rater_list": raters})
        anns += [{"image_id": k, "category_id": b[1], "bbox": list(b[2:]), "rater": b[0]}
                 for b in boxes]
    out = calculate_iaa("bbox", {"images": imgs, "annotations": anns}, "rater_list", "rater",
                        [iou], 0.6, silent=True)
    return float(out[iou])


def kalphacv_reliability(boxes: list[Box], iou: float = 0.5) -> list[list[Any]]:
    """kalphacv's matched groups on one image: annotators x groups of labels (None: no box)."""
    from kalphacv.reliability_data import EmptyEntry, ReliabilityData

    anns = [{"category_id": b[1], "bbox": list(b[2:]), "rater": b[0]} for b in boxes]
    raters = sorted({b[0] for b in boxes})
    matrix = ReliabilityData("i", anns, raters, (1000, 1000)).run("bbox", iou)
    by_id = {k: b[1] for k, b in enumerate(boxes)}
    return [[None if isinstance(e, EmptyEntry) else by_id[e.id] for e in row] for row in matrix]
