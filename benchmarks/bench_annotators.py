"""Consensus labels: accord vs crowd-kit per method, and Dawid-Skene on a large crowd.

Part 1 runs ``accord.consensus`` and crowd-kit 1.4 (``MajorityVote``, ``Wawa``,
``OneCoinDawidSkene``, ``DawidSkene``, ``GLAD``, ``MACE``, default options) on a
simulated crowd with known confusion matrices (``--units`` units, ``--per-unit``
ratings each from ``--workers`` workers, 3 classes, worker accuracies 0.35-0.95,
seeded) and prints, per method, the time (best of ``--repeat``), the
``tracemalloc`` peak of one more call (untimed) and the accuracy against the
simulated truth. crowd-kit's ``Wawa.predict_proba`` fails with scikit-learn
1.6+, so its Wawa is timed as its own two steps (``Wawa.fit``, then
``MajorityVote(skills=...)``). Both stop by their own rules (accord: the
log-likelihood moves less than 1e-7 per rating; crowd-kit: its loss moves less
than 1e-5), so the accuracies may differ slightly.

Part 2 times ``accord.consensus(method="dawid_skene")`` on the crowd of
``benchmarks/_crowd_data.py`` (``--large-units`` comments, about 24 ratings each
from 9,000 workers, labels 0-4), Annotations built from the code arrays
beforehand (timed separately), and reports the time per iteration, the peak
memory and the accuracy against the generator's truth is not available there
(the generator keeps no truth), so the agreement with majority vote is shown.

Part 2 runs plain EM (the default) and SQUAREM (``accelerate=True``) on the same
crowd and prints, for each, the passes over the ratings (``n_iter``), the time, the
log-likelihood and the share of labels the two agree on.

Part 4 (``--crowd-file [PATH]``) is issue 22's measurement: Dawid-Skene on the
45.6 M-rating crowd file of ``bench_crowd.py`` (``_crowd_data.crowd_file(1_900_000)``,
1.9 M comments, 9,000 workers, about 24 ratings each; made once under
``benchmarks/_data/``, git-ignored) unless ``PATH`` names another file with the columns
``comment_id``, ``worker_id``, ``toxicity``. Each of plain EM and SQUAREM runs in a fresh
process (``_timing.child_run``): ``accord.read`` and ``accord.consensus`` timed
separately, the peak RSS of the whole process, the iterations, and the labels of both
compared. The load average is printed before and after each run (the machine is shared).

Part 3 (``--zheng DIR``) runs every method on the public truth-inference data
sets of Zheng et al. (2017, PVLDB 10(5); github.com/zhydhkcws/crowd_truth_infer,
``datasets/*/answer.csv`` and ``truth.csv``, not shipped here): one folder per
data set under ``DIR`` holding those two files; accuracy against the gold
labels of the units that have one, and the time (best of ``--repeat``).

Usage: ``python benchmarks/bench_annotators.py [--units N] [--per-unit R]
[--workers W] [--repeat R] [--large-units N] [--skip-peer] [--zheng DIR]
[--crowd-file [PATH]]``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import warnings
from typing import Any

import numpy as np
from _crowd_data import crowd_arrays
from _timing import measured

import accord

METHODS = ["majority", "wawa", "one_coin", "dawid_skene", "glad", "mace"]


def simulated(units: int, per_unit: int, workers: int, k: int = 3, seed: int = 0
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(unit, worker, label, truth) codes of a crowd with known confusion matrices."""
    rng = np.random.default_rng(seed)
    truth = rng.choice(k, units, p=np.linspace(1, 2, k) / np.linspace(1, 2, k).sum())
    acc = rng.uniform(0.35, 0.95, workers)
    conf = rng.dirichlet(np.ones(k), size=(workers, k))
    for c in range(k):
        conf[:, c, c] = 0.0
    conf /= conf.sum(axis=2, keepdims=True)
    conf *= (1 - acc)[:, None, None]
    idx = np.arange(k)
    conf[:, idx, idx] = acc[:, None]
    unit = np.repeat(np.arange(units), per_unit)
    worker = np.concatenate([rng.choice(workers, per_unit, replace=False) for _ in range(units)])
    cum = conf[worker, truth[unit]].cumsum(axis=1)
    label = (rng.random(unit.shape[0])[:, None] > cum).sum(axis=1)
    return unit, worker, np.minimum(label, k - 1), truth


def peer(method: str, df: Any) -> Any:
    import crowdkit.aggregation as ck

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "wawa":
            skills = ck.Wawa().fit(df).skills_
            return ck.MajorityVote().fit(df, skills=skills).labels_
        model = {"majority": ck.MajorityVote, "one_coin": ck.OneCoinDawidSkene,
                 "dawid_skene": ck.DawidSkene, "glad": ck.GLAD, "mace": ck.MACE}[method]
        return model().fit_predict(df)


def part1(args: argparse.Namespace) -> None:
    import pandas as pd

    unit, worker, label, truth = simulated(args.units, args.per_unit, args.workers)
    ann = accord.Annotations(unit, worker, label, units=range(args.units),
                             raters=range(args.workers), categories=range(3))
    df = pd.DataFrame({"task": unit, "worker": worker, "label": label})
    print(f"Part 1: {args.units:,} units x {args.per_unit} ratings ({unit.shape[0]:,}), "
          f"{args.workers} workers, 3 classes")
    print(f"{'method':<12} {'accord s':>9} {'MiB':>7} {'acc':>6} | "
          f"{'crowd-kit s':>11} {'MiB':>7} {'acc':>6} | {'speed-up':>8}")
    for method in METHODS:
        t, mem, c = measured(args.repeat, lambda m=method: accord.consensus(ann, method=m))
        acc = float((c.label_codes == truth).mean())
        if args.skip_peer:
            print(f"{method:<12} {t:9.4f} {mem:7.1f} {acc:6.3f}")
            continue
        tp, memp, lab = measured(1, lambda m=method: peer(m, df))
        accp = float((lab.reindex(range(args.units)).to_numpy() == truth).mean())
        print(f"{method:<12} {t:9.4f} {mem:7.1f} {acc:6.3f} | {tp:11.3f} {memp:7.1f} "
              f"{accp:6.3f} | {tp / t:7.0f}x")


def part2(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    unit, worker, label = crowd_arrays(args.large_units)
    made = time.perf_counter() - start
    ann = accord.Annotations(unit, worker, label, units=range(args.large_units),
                             raters=range(int(worker.max()) + 1), categories=range(5))
    print(f"\nPart 2: Dawid-Skene on {unit.shape[0]:,} ratings ({args.large_units:,} units, "
          f"9,000 workers, 5 labels; arrays made in {made:.1f} s)")
    mv = accord.consensus(ann, method="majority")
    fits = {}
    for accelerate in (False, True):
        print(f"  load average {_load()}")
        t, mem, c = measured(1, lambda a=accelerate: accord.consensus(
            ann, method="dawid_skene", accelerate=a))
        fits[accelerate] = c
        same = float((c.label_codes == mv.label_codes).mean())
        per_m = t / unit.shape[0] * 1e6
        print(f"dawid_skene accelerate={accelerate}: {t:.1f} s for {c.n_iter} passes "
              f"({t / c.n_iter:.3f} s each), peak {mem:,.0f} MiB, converged={c.converged}, "
              f"log-likelihood {c.log_likelihood:.3f}, same label as majority on {same:.1%}")
        print(f"  extrapolated to 45 million ratings at the same number of passes: "
              f"{per_m * 45:.0f} s")
    agree = (fits[False].label_codes == fits[True].label_codes).mean()
    print(f"plain EM and SQUAREM give the same label on {agree:.4%} of units")


CHILD = """
import resource, sys, time
import numpy as np
import accord
start = time.perf_counter()
ann = accord.read(sys.argv[1], unit="comment_id", rater="worker_id", value="toxicity")
read = time.perf_counter() - start
start = time.perf_counter()
c = accord.consensus(ann, method="dawid_skene", accelerate=sys.argv[2] == "1")
fit = time.perf_counter() - start
np.save(sys.argv[3], c.label_codes.astype(np.int8))
print(ann.n_ratings, ann.n_units, ann.n_raters, read, fit, c.n_iter, c.converged,
      repr(c.log_likelihood), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def part4(args: argparse.Namespace) -> None:
    import os
    import tempfile
    from pathlib import Path

    from _crowd_data import crowd_file
    from _timing import child_run, rss_mib

    path = Path(args.crowd_file) if args.crowd_file != "default" else crowd_file(1_900_000)
    print(f"\nPart 4: Dawid-Skene on {path.name}, each run in a fresh process")
    labels = {}
    with tempfile.TemporaryDirectory() as tmp:
        for accelerate in (False, True):
            out = os.path.join(tmp, f"labels_{accelerate}.npy")
            before = _load()
            _, _, stdout = child_run([sys.executable, "-c", CHILD, str(path),
                                      "1" if accelerate else "0", out])
            n, units, raters, read, fit, n_iter, conv, ll, rss = stdout.split()
            labels[accelerate] = np.load(out)
            print(f"accelerate={accelerate}: {int(n):,} ratings, {int(units):,} units, "
                  f"{int(raters):,} workers; read {float(read):.1f} s, consensus "
                  f"{float(fit):.1f} s for {n_iter} passes ({float(fit) / int(n_iter):.3f} s "
                  f"each), converged={conv}, log-likelihood {float(ll):.3f}, peak RSS "
                  f"{rss_mib(int(rss)) / 1024:.2f} GiB; load average {before} -> {_load()}")
    agree = (labels[False] == labels[True]).mean()
    print(f"plain EM and SQUAREM give the same label on {agree:.5%} of units "
          f"({int((labels[False] != labels[True]).sum()):,} differ)")


def _load() -> str:
    import os

    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def part3(args: argparse.Namespace) -> None:
    from pathlib import Path

    import pandas as pd

    print("\nPart 3: Zheng et al. (2017) data sets, accuracy against gold (seconds)")
    print(f"{'data':<36} {'answers':>8} " + " ".join(f"{m:>16}" for m in METHODS))
    for folder in sorted(Path(args.zheng).iterdir()):
        answers = pd.read_csv(folder / "answer.csv")
        truth = pd.read_csv(folder / "truth.csv")
        ann = accord.Annotations.from_long(answers, unit="question", rater="worker",
                                           value="answer")
        gold = dict(zip(truth["question"], truth["truth"]))
        cells = []
        for method in METHODS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t, c = best_of_quiet(args.repeat, ann, method)
            pairs = [(c.labels[u], gold[u]) for u in c.units if u in gold]
            acc = sum(a == b for a, b in pairs) / len(pairs)
            cells.append(f"{acc:.3f} ({t:.3f} s)")
        print(f"{folder.name:<36} {len(answers):>8,} " + " ".join(f"{x:>16}" for x in cells))


def best_of_quiet(repeat: int, ann: Any, method: str) -> tuple[float, Any]:
    times, c = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        c = accord.consensus(ann, method=method)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    return min(times), c


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--units", type=int, default=1000)
    p.add_argument("--per-unit", type=int, default=5)
    p.add_argument("--workers", type=int, default=40)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--large-units", type=int, default=120_000)
    p.add_argument("--skip-peer", action="store_true")
    p.add_argument("--zheng", default=None, metavar="DIR")
    p.add_argument("--crowd-file", nargs="?", const="default", default=None, metavar="PATH")
    args = p.parse_args()
    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}, {platform.machine()}")
    if args.zheng:
        part3(args)
        return
    if args.crowd_file:
        part4(args)
        return
    part1(args)
    if args.large_units:
        part2(args)


if __name__ == "__main__":
    main()
