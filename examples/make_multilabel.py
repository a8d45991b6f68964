"""Regenerate toxicity_multilabel.csv and toxicity_multilabel_long.csv: a synthetic
multi-label pilot (numpy, seed 20240302).

Sixty invented comments, three annotators, labels toxic, insult, threat, spam and
off_topic ("none" when no label applies). The wide file lists every label an
annotator chose in one cell, joined by ';' (an empty cell: not annotated); the long
file has one row per (comment, annotator, label). Nothing here is real data.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

LABELS = ["insult", "off_topic", "spam", "threat", "toxic"]
PREVALENCE = [0.20, 0.10, 0.12, 0.05, 0.30]
ACCURACY = {"annotator_a": 0.95, "annotator_b": 0.90, "annotator_c": 0.85}


def main() -> None:
    rng = np.random.default_rng(20240302)
    truth = rng.random((60, len(LABELS))) < PREVALENCE
    rows = []
    for i in range(60):
        row = {"item_id": f"c-{i + 1:03d}"}
        for name, acc in ACCURACY.items():
            if name == "annotator_c" and i < 20:
                row[name] = ""  # joined late: first 20 comments not annotated
                continue
            keep = truth[i] ^ (rng.random(len(LABELS)) > acc)
            chosen = [x for x, k in zip(LABELS, keep) if k]
            row[name] = ";".join(chosen) if chosen else "none"
        rows.append(row)
    path = Path(__file__).with_name("toxicity_multilabel.csv")
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    long_path = path.with_name("toxicity_multilabel_long.csv")
    with long_path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["item_id", "annotator", "label"])
        for row in rows:
            for name in ACCURACY:
                for label in filter(None, row[name].split(";")):
                    out.writerow([row["item_id"], name, label])


if __name__ == "__main__":
    main()
