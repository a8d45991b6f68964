"""Regenerate the small example files the README's commands name (synthetic data).

- ``severity.csv``: two triage nurses grade 80 patients ``mild``, ``moderate`` or
  ``severe`` (wide: ``subject_id``, ``nurse_a``, ``nurse_b``); most disagreements are
  between neighbouring grades, so weighted kappa is well above unweighted kappa.
- ``long.csv``: three coders label 40 comments ``pos``, ``neg`` or ``neu`` (long:
  ``item``, ``coder``, ``label``, one row per rating); ``coder_3`` skipped a few.

The data are invented. ``export.json`` (a small Label Studio JSON export) is a
copy of ``tests/readers/data/label_studio_export.json`` and is not generated here.

Run from the repository root: ``python examples/make_more.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

SEED = 20240302
GRADES = ("mild", "moderate", "severe")
LABELS = ("pos", "neg", "neu")


def _grade(rng: np.random.Generator, true: int, accuracy: float) -> str:
    """The true grade with probability ``accuracy``, else a neighbouring one."""
    if rng.random() < accuracy:
        return GRADES[true]
    step = -1 if true == 2 or (true == 1 and rng.random() < 0.5) else 1
    return GRADES[true + step]


def severity(rng: np.random.Generator, path: Path) -> None:
    truth = rng.choice(3, size=80, p=(0.45, 0.35, 0.20))
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["subject_id", "nurse_a", "nurse_b"])
        for i, t in enumerate(truth):
            w.writerow([f"p{i + 1:03d}", _grade(rng, int(t), 0.85), _grade(rng, int(t), 0.75)])


def long_table(rng: np.random.Generator, path: Path) -> None:
    truth = rng.choice(3, size=40, p=(0.5, 0.3, 0.2))
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["item", "coder", "label"])
        for i, t in enumerate(truth):
            for coder, accuracy in (("coder_1", 0.9), ("coder_2", 0.8), ("coder_3", 0.7)):
                if coder == "coder_3" and i % 9 == 4:
                    continue  # not rated
                label = LABELS[t] if rng.random() < accuracy else LABELS[(t + 1 + i % 2) % 3]
                w.writerow([f"c{i + 1:02d}", coder, label])


def main() -> None:
    rng = np.random.default_rng(SEED)
    here = Path(__file__).resolve().parent
    severity(rng, here / "severity.csv")
    long_table(rng, here / "long.csv")


if __name__ == "__main__":
    main()
