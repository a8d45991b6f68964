"""Regenerate the synthetic model-evaluation data set in this folder (preds.csv).

The data are invented: no real reviews, annotators or models are involved. A
"true" label is drawn for each of 400 reviews (genuine 70 %, spam 20 %,
off_topic 10 %). ``gold`` is the adjudicated reference (it equals the true
label); two annotators (ann_a, ann_b), a fine-tuned classifier (``model``) and an LLM
(``llm``) reproduce it with fixed accuracies and otherwise pick another label
at random. Three reviews have no adjudicated label yet and the LLM's output
could not be parsed for two, so those cells are blank, as in real exports.

Run from the repository root: ``python examples/make_preds.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

SEED = 20240417
N_ITEMS = 400
CATEGORIES = ("genuine", "spam", "off_topic")
TRUTH = (0.70, 0.20, 0.10)
SOURCES = {"ann_a": 0.88, "ann_b": 0.82, "model": 0.85, "llm": 0.70}


def main() -> None:
    rng = np.random.default_rng(SEED)
    truth = rng.choice(len(CATEGORIES), size=N_ITEMS, p=TRUTH)
    columns: dict[str, list[str]] = {"gold": [CATEGORIES[t] for t in truth]}
    for name, accuracy in SOURCES.items():
        right = rng.random(N_ITEMS) < accuracy
        other = (truth + rng.integers(1, len(CATEGORIES), N_ITEMS)) % len(CATEGORIES)
        columns[name] = [CATEGORIES[t if r else o] for t, r, o in zip(truth, right, other)]
    for i in rng.choice(N_ITEMS, 3, replace=False):
        columns["gold"][i] = ""
    for i in rng.choice(N_ITEMS, 2, replace=False):
        columns["llm"][i] = ""
    ids = [f"rev-{i:05d}" for i in sorted(rng.choice(48_210, N_ITEMS, replace=False))]
    path = Path(__file__).with_name("preds.csv")
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["item_id", *columns])
        for i, item in enumerate(ids):
            writer.writerow([item, *(col[i] for col in columns.values())])


if __name__ == "__main__":
    main()
