"""Regenerate the synthetic crowd data set in this folder (crowd.csv, crowd_model.csv).

The data are invented: no real items or workers are involved. A "true" label
(``cat``, ``dog`` or ``other``) is drawn for each of 150 images; each image is
labelled by five of eight crowd workers. Six workers are right 75-92 % of the
time, ``w07`` confuses cats with dogs (it says ``dog`` for most cats) and ``w08``
answers at random. An ``expert`` gave the true label for the first 50 images.
One row per rating: ``image,worker,label`` (long data).

``crowd_model.csv`` holds an invented classifier's probabilities for every image
(``unit,cat,dog,other``): its top label is the true one for 80 % of the images
(else another label, uniformly), its probabilities a Dirichlet draw with 6 added on
that label (drawn with its own seed, so crowd.csv does not depend on it).

Run from the repository root: ``python examples/make_crowd.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

SEED = 20261205
N_ITEMS = 150
PER_ITEM = 5
N_GOLD = 50
LABELS = ("cat", "dog", "other")
ACCURACY = {"w01": 0.92, "w02": 0.9, "w03": 0.88, "w04": 0.85, "w05": 0.8, "w06": 0.75}


def confusion(worker: str) -> np.ndarray:
    """P(label | true label), rows = true label."""
    if worker == "w08":
        return np.full((3, 3), 1 / 3)
    if worker == "w07":
        return np.array([[0.2, 0.75, 0.05], [0.05, 0.9, 0.05], [0.05, 0.05, 0.9]])
    a = ACCURACY[worker]
    m = np.full((3, 3), (1 - a) / 2)
    np.fill_diagonal(m, a)
    return m


def main() -> None:
    rng = np.random.default_rng(SEED)
    workers = [*ACCURACY, "w07", "w08"]
    truth = rng.choice(3, N_ITEMS, p=(0.45, 0.35, 0.2))
    rows = []
    for i in range(N_ITEMS):
        image = f"img{i + 1:03d}"
        for w in sorted(rng.choice(len(workers), PER_ITEM, replace=False)):
            label = rng.choice(3, p=confusion(workers[w])[truth[i]])
            rows.append((image, workers[w], LABELS[label]))
        if i < N_GOLD:
            rows.append((image, "expert", LABELS[truth[i]]))
    path = Path(__file__).parent / "crowd.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["image", "worker", "label"])
        out.writerows(rows)
    write_model(truth, path.with_name("crowd_model.csv"))


def write_model(truth: np.ndarray, path: Path, accuracy: float = 0.8) -> None:
    """An invented classifier's probabilities, its top label right ``accuracy`` of the time."""
    rng = np.random.default_rng(SEED + 1)
    n = truth.shape[0]
    label = np.where(rng.random(n) < accuracy, truth, (truth + rng.integers(1, 3, n)) % 3)
    alpha = np.ones((n, 3))
    alpha[np.arange(n), label] += 6.0
    probs = np.array([rng.dirichlet(a) for a in alpha])
    top = probs.argmax(axis=1)
    rows = np.arange(n)
    probs[rows, top], probs[rows, label] = probs[rows, label], probs[rows, top]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["unit", *LABELS])
        for i in range(n):
            p = np.round(probs[i], 4)
            p[p.argmax()] += 1.0 - p.sum()  # rounded, each row still sums to 1
            out.writerow([f"img{i + 1:03d}", *(f"{x:.4f}" for x in p)])


if __name__ == "__main__":
    main()
