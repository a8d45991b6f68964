"""A model as one more voice in the consensus: accuracy with and without it.

On the public truth-inference data of Zheng et al. (2017, PVLDB 10(5);
github.com/zhydhkcws/crowd_truth_infer, ``datasets/*/answer.csv`` with columns
question, worker, answer and ``truth.csv`` with question, truth; not shipped here),
one folder per data set under ``--zheng DIR``, this runs majority vote, one-coin,
Dawid-Skene and MACE alone and with ``model=`` a simulated model of 60% and 80% top-1 accuracy
on the units with a gold label: the model's label is the gold one with that
probability (else another class, uniformly), its probabilities a Dirichlet draw with
``--concentration`` added on that label's parameter (1 on the others), the largest
moved onto the label so that it is the model's top-1. Each figure is the mean over
``--seeds`` seeds (the crowd is the same; the model is redrawn), with the lowest
difference from the method alone in brackets, and the model's measured top-1
accuracy and its estimated accuracy (``Consensus.model.accuracy``, the expected
probability it puts on the true class). The rows ``top-1`` give the same models'
top labels as probabilities 0 and 1: the soft likelihood is then Dawid-Skene's
confusion matrix over the model's top label (an annotator like the others).

Usage: ``python benchmarks/bench_model_voice.py --zheng DIR [--seeds S]
[--concentration A]``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

import accord

METHODS = ("majority", "one_coin", "dawid_skene", "mace")
LEVELS = (0.6, 0.8)


Model = dict[Any, dict[int, float]]


def simulated_model(gold: dict[Any, int], classes: list[int], accuracy: float,
                    concentration: float, seed: int, hard: bool = False
                    ) -> tuple[Model, float]:
    """A model's probabilities for the gold units, and its top-1 accuracy."""
    rng = np.random.default_rng(seed)
    k, units = len(classes), list(gold)
    truth = np.array([classes.index(gold[u]) for u in units])
    wrong = (truth + rng.integers(1, k, truth.shape[0])) % k
    label = np.where(rng.random(truth.shape[0]) < accuracy, truth, wrong)
    alpha = np.ones((truth.shape[0], k))
    alpha[np.arange(truth.shape[0]), label] += concentration
    probs = np.array([rng.dirichlet(a) for a in alpha])
    top = probs.argmax(axis=1)
    rows = np.arange(truth.shape[0])
    probs[rows, top], probs[rows, label] = probs[rows, label], probs[rows, top]
    if hard:
        probs = np.eye(k)[label]
    model = {u: dict(zip(classes, p.tolist())) for u, p in zip(units, probs)}
    return model, float(np.mean(label == truth))


def accuracy(c: accord.Consensus, gold: dict[Any, int]) -> float:
    return float(np.mean([c.labels[u] == gold[u] for u in c.units if u in gold]))


def run(ann: accord.Annotations, method: str, model: Any = None) -> accord.Consensus:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return accord.consensus(ann, method=method, model=model)  # type: ignore[arg-type]


def one_data_set(folder: Path, args: argparse.Namespace) -> None:
    import pandas as pd

    answers = pd.read_csv(folder / "answer.csv")
    truth = pd.read_csv(folder / "truth.csv")
    ann = accord.Annotations.from_long(answers, unit="question", rater="worker",
                                       value="answer")
    gold = {u: int(t) for u, t in zip(truth["question"], truth["truth"]) if u in ann.units}
    classes = sorted(int(c) for c in ann.categories)
    alone = {m: accuracy(run(ann, m), gold) for m in METHODS}
    print(f"{folder.name:<30} {len(answers):>7,} {'alone':>12} "
          + " ".join(f"{alone[m]:>16.3f}" for m in METHODS))
    for level, hard in [(x, h) for h in (False, True) for x in LEVELS]:
        got: dict[str, list[float]] = {m: [] for m in METHODS}
        top1, est, seconds = [], [], []
        for seed in range(args.seeds):
            model, measured = simulated_model(gold, classes, level, args.concentration, seed,
                                             hard)
            top1.append(measured)
            for m in METHODS:
                start = time.perf_counter()
                c = run(ann, m, model)
                seconds.append(time.perf_counter() - start)
                got[m].append(accuracy(c, gold))
                if m == "dawid_skene" and c.model is not None:
                    est.append(c.model.accuracy.estimate)
        cells = [f"{np.mean(got[m]):.3f} ({min(got[m]) - alone[m]:+.3f})" for m in METHODS]
        label = f"{'top-1' if hard else 'model'} {np.mean(top1):.2f}/{np.mean(est):.2f}"
        print(f"{'':<30} {'':>7} {label:>12} " + " ".join(f"{x:>16}" for x in cells))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--zheng", required=True, metavar="DIR")
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--concentration", type=float, default=4.0)
    args = p.parse_args()
    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}, {platform.machine()}")
    print("accuracy against gold; with a model: the mean over seeds (the lowest minus the "
          "method alone); model = measured top-1 / Dawid-Skene's estimate")
    print(f"{'data':<30} {'answers':>7} {'':>12} " + " ".join(f"{m:>16}" for m in METHODS))
    for folder in sorted(Path(args.zheng).iterdir()):
        if (folder / "answer.csv").exists():
            one_data_set(folder, args)


if __name__ == "__main__":
    main()
