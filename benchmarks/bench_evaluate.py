"""Speed of ``accord.evaluate`` against the counting floor and scikit-learn.

Run by hand::

    .venv/bin/python benchmarks/bench_evaluate.py [--quick] [--repeat 3]

1. 10^7 (reference, prediction) pairs of int64 labels, 20 classes, a system
   that copies the reference 70 % of the time. accord's time covers coercing
   the two arrays, counting the confusion matrix, and every figure of the
   ``Evaluation``: accuracy, balanced accuracy, Gorodkin's MCC, Cohen's kappa
   with its Fleiss-Cohen-Everitt SE, per class precision, recall, F1 and
   specificity with their SEs (Wald, or the jackknife over units from the
   cells), the macro, micro and weighted averages and the baselines. The floor
   is the bare ``np.bincount(gold * 20 + pred, minlength=400)``; the peer is
   scikit-learn's ``classification_report(output_dict=True)`` (precision,
   recall, F1 and support per class and averaged, no interval), run once.
   Targets: at most 2x the floor and at least 20x faster than scikit-learn.
2. The 9999-resample percentile interval of macro-F1 on 10^6 units, 20 classes
   (a multinomial draw over the 400 cells per resample); target < 1 s. Also the
   whole ``Evaluation.intervals()`` (Wilson for proportions, one shared
   bootstrap for the other ~70 figures).

Every estimate is compared with scikit-learn's (macro-F1 and accuracy, to 1e-12).
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
from _timing import measured, peak_mib

import accord

K = 20


def _labels(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, K, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, K, n))
    return gold, pred


def part1(n: int, repeat: int) -> None:
    from sklearn.metrics import classification_report

    gold, pred = _labels(n, 1)
    floor, m_floor, _ = measured(repeat, lambda: np.bincount(gold * K + pred, minlength=K * K))
    ours, m_ours, ev = measured(repeat, lambda: accord.evaluate(gold, pred))
    t0 = time.perf_counter()
    report = classification_report(gold, pred, output_dict=True, digits=6)
    sk = time.perf_counter() - t0
    m_sk = peak_mib(lambda: classification_report(gold, pred, output_dict=True, digits=6))
    assert isinstance(ev, accord.Evaluation) and isinstance(report, dict)
    diff = max(abs(ev.macro.f1.estimate - report["macro avg"]["f1-score"]),
               abs(ev.accuracy.estimate - report["accuracy"]))
    print(f"1. {n:.0e} pairs, {K} classes (best of {repeat}; scikit-learn once); peak = "
          f"tracemalloc peak of one call, input {(gold.nbytes + pred.nbytes) / 2**20:.0f} MiB")
    print(f"  floor np.bincount(gold * {K} + pred)  {floor:8.3f} s  peak {m_floor:7.1f} MiB")
    print(f"  accord.evaluate (every figure)        {ours:8.3f} s  peak {m_ours:7.1f} MiB  "
          f"{ours / floor:5.2f}x the floor")
    print(f"  scikit-learn classification_report    {sk:8.3f} s  peak {m_sk:7.1f} MiB  "
          f"accord {sk / ours:5.1f}x faster")
    print(f"  largest difference from scikit-learn  {diff:.1e}")


def part2(n: int, repeat: int) -> None:
    gold, pred = _labels(n, 2)
    ev = accord.evaluate(gold, pred)
    boot = accord.Bootstrap(n_resamples=9999, rng=0)
    t, m, ci = measured(repeat, lambda: ev.macro.f1.confidence_interval(0.95, method=boot))
    t_all, m_all, cis = measured(1, lambda: ev.intervals())
    assert isinstance(ci, accord.ConfidenceInterval) and isinstance(cis, dict)
    print(f"2. {n:.0e} units, {K} classes, 9999 resamples (best of {repeat})")
    print(f"  macro-F1 percentile interval          {t:8.3f} s  peak {m:7.1f} MiB  "
          f"[{ci.low:.4f}, {ci.high:.4f}] around {ev.macro.f1.estimate:.4f}")
    print(f"  Evaluation.intervals() ({len(cis)} figures)  {t_all:8.3f} s  peak {m_all:7.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller data")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}")
    part1(10_000_000 // scale, args.repeat)
    part2(1_000_000 // scale, args.repeat)


if __name__ == "__main__":
    main()
