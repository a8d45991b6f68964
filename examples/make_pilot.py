"""Regenerate the synthetic pilot data set in this folder (pilot.csv, pilot_items.txt).

The data are invented: no real reviews or annotators are involved. A "true"
label is drawn for each sampled review (genuine 75 %, spam 17 %, off_topic 8 %);
each annotator then reproduces it with a fixed accuracy and otherwise picks
another label with a tendency of their own. annotator_c joined after the first
half of the batch. A few labels are left blank or written NA, as happens in
real exports.

Run from the repository root: ``python examples/make_pilot.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

SEED = 20240301
N_ITEMS = 120
POPULATION = 48_210
CATEGORIES = ("genuine", "spam", "off_topic")
TRUTH = (0.75, 0.17, 0.08)
# accuracy, and the probabilities of the wrong labels (in CATEGORIES order, own label excluded)
ANNOTATORS = {
    "annotator_a": (0.95, {"genuine": (0.6, 0.4), "spam": (0.8, 0.2), "off_topic": (0.7, 0.3)}),
    "annotator_b": (0.90, {"genuine": (0.8, 0.2), "spam": (0.6, 0.4), "off_topic": (0.3, 0.7)}),
    "annotator_c": (0.85, {"genuine": (0.5, 0.5), "spam": (0.7, 0.3), "off_topic": (0.6, 0.4)}),
}
MISSING = {"annotator_a": (17, 88), "annotator_b": (5, 61, 102)}


def main() -> None:
    rng = np.random.default_rng(SEED)
    here = Path(__file__).resolve().parent
    ids = np.sort(rng.choice(np.arange(1, POPULATION + 1), size=N_ITEMS, replace=False))
    items = [f"rev-{i:05d}" for i in ids]
    truth = rng.choice(len(CATEGORIES), size=N_ITEMS, p=TRUTH)
    labels: dict[str, list[str]] = {}
    for name, (accuracy, wrong) in ANNOTATORS.items():
        out = []
        for t in truth:
            true = CATEGORIES[t]
            if rng.random() < accuracy:
                out.append(true)
            else:
                others = [c for c in CATEGORIES if c != true]
                out.append(others[rng.choice(2, p=wrong[true])])
        labels[name] = out
    for name, rows in MISSING.items():
        for i, row in enumerate(rows):
            labels[name][row] = "" if i % 2 == 0 else "NA"
    labels["annotator_c"] = [x if i >= N_ITEMS // 2 else "" for i, x in
                             enumerate(labels["annotator_c"])]
    with open(here / "pilot.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["item_id", *ANNOTATORS])
        for i, item in enumerate(items):
            writer.writerow([item, *(labels[name][i] for name in ANNOTATORS)])
    (here / "pilot_items.txt").write_text(
        "# the 120 reviews sampled for the pilot (simple random sample, seed 20240301)\n"
        + "\n".join(items) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
