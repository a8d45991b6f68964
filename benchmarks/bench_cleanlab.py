"""accord's consensus with a model against cleanlab's CROWDLAB: accuracy, calibration, time.

On the public truth-inference data of Zheng et al. (2017, PVLDB 10(5);
github.com/zhydhkcws/crowd_truth_infer, ``answer.csv`` with question, worker, answer
and ``truth.csv`` with question, truth; not shipped here; every unit has gold), one
folder per data set under ``--zheng DIR``, with simulated models of 60% and 80% top-1
accuracy (``bench_model_voice.simulated_model``: the model's label is the gold one with
that probability, its probabilities a Dirichlet draw with 4 added on that label), this
runs, for each of ``--seeds`` seeds:

* cleanlab ``get_label_quality_multiannotator(labels, pred_probs)`` with its defaults
  (CROWDLAB: ``consensus_method="best_quality"``, ``quality_method="crowdlab"``);
* accord ``consensus(method="crowdlab", model=P)`` (the same method: its labels should
  be cleanlab's, the ``same`` column), ``consensus(method="dawid_skene", model=P)`` and
  ``consensus(method="majority", model=P, tie_break="quality")``, the model given as a
  pandas frame (units as its index) built before the clock starts;

and reports the accuracy of the consensus labels against gold, the expected calibration
error of the consensus quality scores (10 equal-width bins; cleanlab's
``consensus_quality_score``, accord's ``Consensus.quality``), and the CPU and wall time
of each call in milliseconds (the best of ``--repeats`` calls per seed, as in
``_timing.best_of``, so that other work on a shared machine counts less; then the mean over
seeds; accord's time includes computing its quality scores).

Usage: ``python benchmarks/bench_cleanlab.py --zheng DIR [--seeds S] [--repeats R]``.
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
from accord.annotators.label_quality import expected_calibration_error

sys.path.insert(0, str(Path(__file__).parent))
from bench_model_voice import simulated_model  # noqa: E402

LEVELS = (0.6, 0.8)


def timed(func: Any, repeats: int = 1) -> tuple[float, float, Any]:
    """CPU and wall milliseconds of a call (each the best of ``repeats`` calls) and the
    result of the last."""
    best_cpu = best_wall = float("inf")
    for _ in range(max(repeats, 1)):
        cpu, wall = time.process_time(), time.perf_counter()
        out = func()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu * 1e3, best_wall * 1e3, out


def cleanlab_run(labels: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    from cleanlab.multiannotator import get_label_quality_multiannotator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = get_label_quality_multiannotator(labels, probs, verbose=False,
                                               return_detailed_quality=False,
                                               return_annotator_stats=False)
    lq = got["label_quality"]
    return lq["consensus_label"].to_numpy(), lq["consensus_quality_score"].to_numpy()


def accord_run(ann: accord.Annotations, model: Any, **kw: Any) -> tuple[np.ndarray,
                                                                         np.ndarray]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = accord.consensus(ann, model=model, **kw)
        return c.label_codes, c.quality.consensus


def one_data_set(folder: Path, seeds: int, repeats: int) -> None:
    import pandas as pd

    answers = pd.read_csv(folder / "answer.csv")
    truth = pd.read_csv(folder / "truth.csv")
    ann = accord.Annotations.from_long(answers, unit="question", rater="worker",
                                       value="answer")
    gold = {u: int(t) for u, t in zip(truth["question"], truth["truth"]) if u in ann.units}
    classes = sorted(int(c) for c in ann.categories)
    cats = list(ann.categories)
    unit, rater, value = ann.codes
    wide = np.full((len(ann.units), len(ann.raters)), np.nan)
    wide[unit, rater] = value
    true_code = np.array([cats.index(gold[u]) for u in ann.units])
    runs = {"cleanlab CROWDLAB": None, "accord crowdlab": {"method": "crowdlab"},
            "accord dawid_skene": {"method": "dawid_skene"},
            "accord majority/quality": {"method": "majority", "tie_break": "quality"}}
    for level in LEVELS:
        figures: dict[str, list[tuple[float, ...]]] = {n: [] for n in runs}
        for seed in range(seeds):
            model, _ = simulated_model(gold, classes, level, 4.0, seed)
            probs = np.array([[model[u][c] for c in cats] for u in ann.units])
            frame = pd.DataFrame(probs, index=list(ann.units), columns=cats)
            reference = None
            for name, kw in runs.items():
                if kw is None:
                    cpu, wall, (lab, q) = timed(lambda p=probs: cleanlab_run(wide, p), repeats)
                    reference = lab
                else:
                    cpu, wall, (lab, q) = timed(
                        lambda kw=kw, m=frame: accord_run(ann, m, **kw), repeats)
                right = lab == true_code
                figures[name].append((float(right.mean()),
                                      expected_calibration_error(q, right), cpu, wall,
                                      float(np.mean(lab == reference))))
        for name, rows in figures.items():
            a, e, cpu, wall, same = np.mean(rows, axis=0)
            print(f"{folder.name:<30} {level:>5.1f} {name:<24} {a:>8.3f} {e:>6.3f} "
                  f"{cpu:>8.2f} {wall:>8.2f} {same:>6.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--zheng", required=True, metavar="DIR")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--repeats", type=int, default=1,
                   help="timed calls per seed (the best is kept)")
    args = p.parse_args()
    import cleanlab

    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}, cleanlab "
          f"{cleanlab.__version__}, {platform.machine()}")
    print(f"{'data':<30} {'model':>5} {'method':<24} {'accuracy':>8} {'ECE':>6} "
          f"{'CPU ms':>8} {'wall ms':>8} {'same':>6}")
    for folder in sorted(Path(args.zheng).iterdir()):
        if (folder / "answer.csv").exists():
            one_data_set(folder, args.seeds, args.repeats)


if __name__ == "__main__":
    main()
