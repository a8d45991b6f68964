"""Regenerate the synthetic judge-lab data in this folder.

The data are invented: no real texts, annotators or models are involved.

* ``judge_runs.csv``: one judge scoring 120 answers from 1 to 5, five times each
  (``run_1`` .. ``run_5``); each answer has a hidden quality and each run adds noise.
* ``judge_scores.csv``: 1,500 answers; the judge's probability that an answer
  passes (``judge_prob``, over-confident: too close to 0 and 1), its pass/fail
  (``judge_pass``, probability at least 0.5) and, for a random 200 of them, a
  human's pass/fail (``human``; blank for the others).
* ``jury.csv``: 150 answers labelled pass/fail by three judges that share some
  of their errors (``judge_a``, ``judge_b``, ``judge_c``) and by three humans
  (``human_1`` .. ``human_3``).

Run from the repository root: ``python examples/make_judge_lab.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

SEED = 20251205
HERE = Path(__file__).resolve().parent


def _write(name: str, header: list[str], rows: list[list[object]]) -> None:
    with open(HERE / name, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def runs(rng: np.random.Generator) -> None:
    quality = rng.normal(3.0, 1.0, 120)
    scores = np.clip(np.rint(quality[:, None] + rng.normal(0, 0.7, (120, 5))), 1, 5)
    _write("judge_runs.csv", ["item"] + [f"run_{k + 1}" for k in range(5)],
           [[f"a{i + 1:03d}", *map(int, row)] for i, row in enumerate(scores)])


def scores(rng: np.random.Generator) -> None:
    n, labelled = 1500, 200
    p_true = rng.beta(2, 2, n)
    human = (rng.random(n) < p_true).astype(int)
    logit = np.log(p_true / (1 - p_true))
    prob = 1 / (1 + np.exp(-2.2 * logit - 0.4))  # over-confident and leaning to pass
    chosen = set(rng.choice(n, labelled, replace=False).tolist())
    _write("judge_scores.csv", ["item", "judge_prob", "judge_pass", "human"],
           [[f"q{i + 1:04d}", round(float(prob[i]), 4), int(prob[i] >= 0.5),
             int(human[i]) if i in chosen else ""] for i in range(n)])


def jury(rng: np.random.Generator) -> None:
    n = 150
    truth = (rng.random(n) < 0.6).astype(int)
    shared = rng.random(n) < 0.12
    cols = {}
    for name, err in (("judge_a", 0.10), ("judge_b", 0.14), ("judge_c", 0.12),
                      ("human_1", 0.06), ("human_2", 0.08), ("human_3", 0.07)):
        wrong = rng.random(n) < err
        if name.startswith("judge"):
            wrong |= shared
        cols[name] = np.where(wrong, 1 - truth, truth)
    _write("jury.csv", ["item", *cols],
           [[f"j{i + 1:03d}", *(int(c[i]) for c in cols.values())] for i in range(n)])


def main() -> None:
    rng = np.random.default_rng(SEED)
    runs(rng)
    scores(rng)
    jury(rng)


if __name__ == "__main__":
    main()
