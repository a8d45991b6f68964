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

Wall-clock on the machine at hand, best of ``--repeat`` runs for accord. Peak memory
is the ``tracemalloc`` peak of one more, untimed call, for accord and the peers alike
(a loop of per-label or per-resample calls peaks at one call's peak, so the peers'
peaks are those of one call and are not extrapolated).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from typing import Any

import numpy as np
from _timing import measured, peak_mib

import accord
from accord.data.annotations import Annotations


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
    t, m, res = measured(repeat, lambda: accord.multilabel_agreement(ann))
    print(f"  {'':58}{'time':>9} {'peak MiB':>9}")
    print(f"  accord.multilabel_agreement (all 50 labels + summaries)  {t:8.2f} s {m:9.1f}")
    print(f"    macro alpha {res.macro:.6f}, pooled {res.pooled.estimate:.6f}, "
          f"mean Jaccard {res.mean_jaccard.estimate:.6f}, "
          f"max-percentage {res.max_percentage.estimate:.6f}")
    x = bits[:, :, 0].astype(np.int64)
    t_acc, m_acc, direct = measured(1, lambda: accord.krippendorff_alpha(x))
    assert abs(direct.estimate - res.per_label["label_00"].estimate) < 1e-12
    print(f"  accord.krippendorff_alpha on one label's 0/1 matrix x 50   {50 * t_acc:8.2f} s "
          f"{m_acc:9.1f}  ({50 * t_acc / t:.1f}x time, {m_acc / m:.2f}x memory; "
          f"the {x.nbytes / 2**20:.0f} MiB matrix given)")
    try:
        import krippendorff
    except ImportError:
        print("  krippendorff package not installed: peer skipped")
        return
    t_k, m_k, k_alpha = measured(1, lambda: krippendorff.alpha(
        reliability_data=x.T, level_of_measurement="nominal"))
    print(f"  krippendorff.alpha on one label x 50 (extrapolated)        {50 * t_k:8.2f} s "
          f"{m_k:9.1f}  ({50 * t_k / t:.1f}x time, {m_k / m:.2f}x memory); "
          f"|difference| {abs(k_alpha - direct.estimate):.1e}")


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
    print("  accord: from the Python rows (reading included) and from Annotations read once; "
          "peak = tracemalloc peak of one call (MiB)")
    print(f"  {'units':>9} {'accord':>10} {'(read)':>10} {'NLTK':>10} {'ratio':>8}  "
          f"{'peak':>7} {'(read)':>7} {'NLTK':>7} {'ratio':>7}  |difference|")
    for n in sizes:
        rows = random_sets(n, seed=n)
        t_a, m_a, res = measured(repeat, lambda rows=rows: accord.krippendorff_alpha(
            rows, level="masi"))
        ann = Annotations.from_wide(rows)
        t_r, m_r, _ = measured(repeat, lambda ann=ann: accord.krippendorff_alpha(
            ann, level="masi"))
        if AnnotationTask is None or n > 200_000:
            print(f"  {n:>9,} {t_a:>9.3f}s {t_r:>9.3f}s {'-':>10} {'-':>8}  "
                  f"{m_a:>7.1f} {m_r:>7.2f}")
            continue
        data = [(f"r{j}", f"u{i}", c) for i, row in enumerate(rows) for j, c in enumerate(row)
                if c is not None]
        t_n, m_n, nltk_alpha = measured(1, lambda data=data: AnnotationTask(
            data=data, distance=masi_distance).alpha())
        print(f"  {n:>9,} {t_a:>9.3f}s {t_r:>9.3f}s {t_n:>9.3f}s {t_n / t_a:>7.1f}x  "
              f"{m_a:>7.1f} {m_r:>7.2f} {m_n:>7.1f} {m_n / m_a:>6.1f}x  "
              f"{abs(nltk_alpha - res.estimate):.1e}")


def intervals(n_units: int, repeat: int) -> None:
    """Intervals: evaluate_multilabel's (Wilson + a shared unit bootstrap) and the macro mean's."""
    n_labels = 50
    ann, bits = synthetic_sets(n_units, 3, n_labels)
    t_ref, pred = bits[:, 0, :], bits[:, 1, :]
    print(f"\n3. intervals, {n_units:,} units x {n_labels} labels")
    t_ev, m_ev, ev = measured(repeat, lambda: accord.evaluate_multilabel(t_ref, pred))
    t_ci, m_ci, cis = measured(repeat, lambda: ev.intervals())
    n_pat = ev.units.counts.shape[0] if ev.units is not None else 0
    print(f"  {'':58}{'time':>9} {'peak MiB':>9}")
    print(f"  evaluate_multilabel (indicator arrays)                     {t_ev:8.2f} s "
          f"{m_ev:9.1f}")
    print(f"  .intervals(): {len(cis)} figures, Wilson + 9,999 unit resamples over "
          f"{n_pat:,} distinct (T, P) pairs  {t_ci:8.2f} s {m_ci:9.1f}")
    try:
        from sklearn.metrics import f1_score
    except ImportError:
        print("  scikit-learn not installed: naive bootstrap peer skipped")
    else:
        rng = np.random.default_rng(0)

        def resample() -> None:
            idx = rng.integers(0, n_units, n_units)
            f1_score(t_ref[idx], pred[idx], average="macro", zero_division=np.nan)

        t0 = time.perf_counter()
        for _ in range(5):
            resample()
        t_sk = (time.perf_counter() - t0) / 5 * 9999
        m_sk = peak_mib(resample)
        print(f"  naive: scikit-learn f1_score(average='macro') on each of 9,999 resampled "
              f"index sets (one figure; extrapolated from 5)  {t_sk:8.1f} s {m_sk:9.1f} "
              f"({t_sk / t_ci:.0f}x the {len(cis)} figures' time, {m_sk / m_ci:.2f}x memory)")
    res = accord.multilabel_agreement(ann)
    boot = accord.Bootstrap(n_resamples=999, rng=0)
    t_m, m_m, ci = measured(1, lambda: res.macro_interval(method=boot))
    print(f"  multilabel_agreement(...).macro_interval(), 999 resamples, 50 labels together "
          f"{t_m:8.2f} s {m_m:9.1f}  ({ci.low:.4f} to {ci.high:.4f})")
    t_once, m_once, _ = measured(1, lambda: accord.multilabel_agreement(ann))
    print(f"  naive: multilabel_agreement on each of 999 resampled unit sets (extrapolated "
          f"from one run on the data)  {999 * t_once:8.1f} s {m_once:9.1f} "
          f"({999 * t_once / t_m:.0f}x time, {m_once / m_m:.2f}x memory)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^5 units instead of 10^6")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--per-label-only", action="store_true", help="run part 1 only")
    parser.add_argument("--masi-only", action="store_true", help="run part 2 only")
    parser.add_argument("--intervals-only", action="store_true", help="run part 3 only")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    n = 10**5 if args.quick else 10**6
    only = {1: args.per_label_only, 2: args.masi_only, 3: args.intervals_only}
    parts = {p for p, chosen in only.items() if chosen} or set(only)
    if 1 in parts:
        per_label(n, args.repeat)
    if 3 in parts:
        intervals(n, args.repeat)
    if 2 in parts:
        masi_vs_nltk([1_000, 10_000] if args.quick else [1_000, 10_000, 100_000, 1_000_000],
                     args.repeat)


if __name__ == "__main__":
    main()
