"""Regenerate the synthetic LLM-judge data set in this folder (judge.csv).

The data are invented: no real texts, annotators or models are involved. A
"true" sentiment is drawn for each of 80 reviews; three human annotators
reproduce it with accuracies 85 %, 80 % and 75 %, and the judge ``gpt4`` with
90 %, otherwise picking another label at random. The judge's output could not
be parsed for three reviews, written ``ERROR`` as such pipelines do, and each
judge label comes with a free-text rationale.

Run from the repository root: ``python examples/make_judge.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

SEED = 20250714
N_ITEMS = 80
LABELS = ("negative", "neutral", "positive")
RATERS = {"ann_a": 0.85, "ann_b": 0.80, "ann_c": 0.75, "gpt4": 0.90}
PARSE_FAILURES = 3


def main() -> None:
    rng = np.random.default_rng(SEED)
    truth = rng.choice(len(LABELS), N_ITEMS, p=(0.3, 0.2, 0.5))
    columns: dict[str, list[str]] = {}
    for rater, accuracy in RATERS.items():
        wrong = (truth + rng.integers(1, len(LABELS), N_ITEMS)) % len(LABELS)
        right = rng.random(N_ITEMS) < accuracy
        columns[rater] = [LABELS[t if ok else w] for t, w, ok in zip(truth, wrong, right)]
    for i in rng.choice(N_ITEMS, PARSE_FAILURES, replace=False):
        columns["gpt4"][i] = "ERROR"
    path = Path(__file__).with_name("judge.csv")
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["item", *RATERS, "gpt4_rationale"])
        for i in range(N_ITEMS):
            label = columns["gpt4"][i]
            why = ("the model output could not be parsed" if label == "ERROR"
                   else f"the review reads as {label} overall")
            out.writerow([f"r{i + 1:03d}", *(columns[r][i] for r in RATERS), why])


if __name__ == "__main__":
    main()
