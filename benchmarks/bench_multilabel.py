"""Multilabel agreement speed: per-label agreement at scale, MASI alpha against NLTK.

Run by hand::

    .venv/bin/python benchmarks/bench_multilabel.py [--quick]

1. ``multilabel_agreement`` (per-label Krippendorff's alpha with SEs, pooled and
   macro summaries, mean Jaccard and Dice, maximum-percentage agreement) on 10^6
   units x 3 raters x 50 labels (``--quick``: 10^5). Synthetic sets: every unit has
   1-3 true labels drawn with Zipf-like prevalence, and each rater changes one
   label with probability 0.3. Peers, per label and extrapolated to 50 labels: the
   ``krippendorff`` package's ``alpha`` on the units x raters 0/1 matrix, and
   accord's ``krippendorff_alpha`` on the same matrix (the route without the
   indicator bits).
2. Krippendorff's alpha with the MASI distance on random sets (5 labels, 3 raters,
   10 % missing): accord (coincidences over the distinct sets) against NLTK's
   ``AnnotationTask(distance=masi_distance).alpha()``, for growing numbers of units;
   the estimates must agree to 1e-12.
3. Intervals: ``evaluate_multilabel(...).intervals()`` (Wilson and a shared
   9,999-resample unit bootstrap for every figure) against a naive bootstrap that
   reruns scikit-learn's ``f1_score`` on resampled rows (one figure); the macro
   mean's ``macro_interval()`` (999 resamples) against rerunning
   ``multilabel_agreement`` on every resample (extrapolated).

Wall-clock on the machine at hand, best of ``--repeat`` runs for accord.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import accord
from accord.annotations import Annotations


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def synthetic_sets(n_units: int, n_raters: int, n_labels: int,
                   seed: int = 0) -> tuple[Annotations, np.ndarray]:
    """Set-valued annotations and the units x raters x labels indicator they come from."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, n_labels + 1)
    p /= p.sum()
    truth = np.zeros((n_units, n_labels), dtype=bool)
    size = rng.integers(1, 4, n_units)
    for s in range(3):
        pick = rng.choice(n_labels, size=n_units, p=p)
        truth[np.flatnonzero(size > s), pick[size > s]] = True
    bits = np.repeat(truth[:, None, :], n_raters, axis=1)
    uu, rr = np.nonzero(rng.random((n_units, n_raters)) < 0.3)
    bits[uu, rr, rng.choice(n_labels, size=uu.shape[0], p=p)] ^= True
    packed = np.packbits(bits.reshape(n_units * n_raters, n_labels), axis=1)
    distinct, inverse = np.unique(packed, axis=0, return_inverse=True)
    member = np.unpackbits(distinct, axis=1)[:, :n_labels].astype(bool)
    labels = [f"label_{j:02d}" for j in range(n_labels)]
    sets = [tuple(labels[j] for j in np.flatnonzero(row)) for row in member]
    ann = Annotations(np.repeat(np.arange(n_units), n_raters),
                      np.tile(np.arange(n_raters), n_units), inverse.reshape(-1),
                      units=range(n_units), raters=[f"r{j}" for j in range(n_raters)],
                      categories=sets, set_valued=True)
    return ann, bits


def per_label(n_units: int, repeat: int) -> None:
    n_raters, n_labels = 3, 50
    t0 = time.perf_counter()
    ann, bits = synthetic_sets(n_units, n_raters, n_labels)
    print(f"\n1. per-label agreement, {n_units:,} units x {n_raters} raters x {n_labels} labels "
          f"({len(ann.categories):,} distinct sets; data built in "
          f"{time.perf_counter() - t0:.1f} s)")
    t, res = _best(lambda: accord.multilabel_agreement(ann), repeat)
    print(f"  accord.multilabel_agreement (all 50 labels + summaries)  {t:8.2f} s")
    print(f"    macro alpha {res.macro:.6f}, pooled {res.pooled.estimate:.6f}, "
          f"mean Jaccard {res.mean_jaccard.estimate:.6f}, "
          f"max-percentage {res.max_percentage.estimate:.6f}")
    x = bits[:, :, 0].astype(np.int64)
    t_acc, direct = _best(lambda: accord.krippendorff_alpha(x), 1)
    assert abs(direct.estimate - res.per_label["label_00"].estimate) < 1e-12
    print(f"  accord.krippendorff_alpha on one label's 0/1 matrix x 50   {50 * t_acc:8.2f} s "
          f"({50 * t_acc / t:.1f}x)")
    try:
        import krippendorff
    except ImportError:
        print("  krippendorff package not installed: peer skipped")
        return
    t_k, k_alpha = _best(lambda: krippendorff.alpha(reliability_data=x.T,
                                                    level_of_measurement="nominal"), 1)
    print(f"  krippendorff.alpha on one label x 50 (extrapolated)        {50 * t_k:8.2f} s "
          f"({50 * t_k / t:.1f}x); |difference| {abs(k_alpha - direct.estimate):.1e}")


def random_sets(n_units: int, seed: int) -> list[list[Any]]:
    rng = random.Random(seed)
    labels = "abcde"
    rows = []
    for _ in range(n_units):
        truth = set(rng.sample(labels, rng.randint(1, 3)))
        row: list[Any] = []
        for _ in range(3):
            if rng.random() < 0.1:
                row.append(None)
                continue
            s = set(truth)
            if rng.random() < 0.5:
                s ^= {rng.choice(labels)}
            row.append(frozenset(s or {rng.choice(labels)}))  # NLTK fails on two empty sets
        rows.append(row)
    return rows


def masi_vs_nltk(sizes: list[int], repeat: int) -> None:
    print("\n2. Krippendorff's alpha, MASI distance, 3 raters, 5 labels, 10 % missing")
    try:
        from nltk.metrics.agreement import AnnotationTask
        from nltk.metrics.distance import masi_distance
    except ImportError:
        AnnotationTask = None  # noqa: N806
    print("  accord: from the Python rows (reading included) and from Annotations read once")
    print(f"  {'units':>9} {'accord':>10} {'(read)':>10} {'NLTK':>10} {'ratio':>8}  |difference|")
    for n in sizes:
        rows = random_sets(n, seed=n)
        t_a, res = _best(lambda rows=rows: accord.krippendorff_alpha(rows, level="masi"), repeat)
        ann = Annotations.from_wide(rows)
        t_r, _ = _best(lambda ann=ann: accord.krippendorff_alpha(ann, level="masi"), repeat)
        if AnnotationTask is None or n > 200_000:
            print(f"  {n:>9,} {t_a:>9.3f}s {t_r:>9.3f}s {'-':>10}")
            continue
        data = [(f"r{j}", f"u{i}", c) for i, row in enumerate(rows) for j, c in enumerate(row)
                if c is not None]
        t0 = time.perf_counter()
        nltk_alpha = AnnotationTask(data=data, distance=masi_distance).alpha()
        t_n = time.perf_counter() - t0
        print(f"  {n:>9,} {t_a:>9.3f}s {t_r:>9.3f}s {t_n:>9.3f}s {t_n / t_a:>7.1f}x  "
              f"{abs(nltk_alpha - res.estimate):.1e}")


def intervals(n_units: int, repeat: int) -> None:
    """Intervals: evaluate_multilabel's (Wilson + a shared unit bootstrap) and the macro mean's."""
    n_labels = 50
    ann, bits = synthetic_sets(n_units, 3, n_labels)
    t_ref, pred = bits[:, 0, :], bits[:, 1, :]
    print(f"\n3. intervals, {n_units:,} units x {n_labels} labels")
    t_ev, ev = _best(lambda: accord.evaluate_multilabel(t_ref, pred), repeat)
    t_ci, cis = _best(lambda: ev.intervals(), repeat)
    n_pat = ev.units.counts.shape[0] if ev.units is not None else 0
    print(f"  evaluate_multilabel (indicator arrays)                     {t_ev:8.2f} s")
    print(f"  .intervals(): {len(cis)} figures, Wilson + 9,999 unit resamples over "
          f"{n_pat:,} distinct (T, P) pairs  {t_ci:8.2f} s")
    try:
        from sklearn.metrics import f1_score
    except ImportError:
        print("  scikit-learn not installed: naive bootstrap peer skipped")
    else:
        rng = np.random.default_rng(0)
        t0 = time.perf_counter()
        for _ in range(5):
            idx = rng.integers(0, n_units, n_units)
            f1_score(t_ref[idx], pred[idx], average="macro", zero_division=np.nan)
        t_sk = (time.perf_counter() - t0) / 5 * 9999
        print(f"  naive: scikit-learn f1_score(average='macro') on each of 9,999 resampled "
              f"index sets (one figure; extrapolated from 5)  {t_sk:8.1f} s "
              f"({t_sk / t_ci:.0f}x the {len(cis)} figures)")
    res = accord.multilabel_agreement(ann)
    boot = accord.Bootstrap(n_resamples=999, rng=0)
    t_m, ci = _best(lambda: res.macro_interval(method=boot), 1)
    print(f"  multilabel_agreement(...).macro_interval(), 999 resamples, 50 labels together "
          f"{t_m:8.2f} s  ({ci.low:.4f} to {ci.high:.4f})")
    t_once, _ = _best(lambda: accord.multilabel_agreement(ann), 1)
    print(f"  naive: multilabel_agreement on each of 999 resampled unit sets (extrapolated "
          f"from one run on the data)  {999 * t_once:8.1f} s ({999 * t_once / t_m:.0f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^5 units instead of 10^6")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--masi-only", action="store_true", help="run part 2 only")
    parser.add_argument("--intervals-only", action="store_true", help="run part 3 only")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    n = 10**5 if args.quick else 10**6
    if args.intervals_only:
        intervals(n, args.repeat)
        return
    if not args.masi_only:
        per_label(n, args.repeat)
    intervals(n, args.repeat)
    masi_vs_nltk([1_000, 10_000] if args.quick else [1_000, 10_000, 100_000, 1_000_000],
                 args.repeat)


if __name__ == "__main__":
    main()
