"""Cohen's kappa on 10^7 label pairs: accord vs a bare bincount vs scikit-learn.

Part 1 times ``accord.cohen_kappa(a, b)`` on 10^7 pairs of int labels (k = 5),
which returns the estimate, the Fleiss-Cohen-Everitt SE and null SE, z, p and
the per-category agreement, against

* the floor: ``np.bincount(a * 5 + b, minlength=25)``, the bare count of the
  same codes with nothing else (target: accord within 2x of it);
* scikit-learn's ``cohen_kappa_score(a, b)`` (estimate only).

Part 2 runs unweighted kappa on 10^6 pairs with 10^5 distinct labels, which
must not build a dense k x k matrix (80 GB at float64): it reports the peak
memory traced by ``tracemalloc`` during the call and the process's peak
resident size (``resource.getrusage``), against a 1 GiB budget (a call on a small
sparse table first imports the code, so neither figure counts the imports), and checks the
estimate against one computed directly from the diagonal and the marginals.

Usage: ``python benchmarks/bench_cohen.py [--pairs N] [--k K] [--sparse-pairs N]
[--sparse-labels L] [--repeat R] [--skip-sklearn]``. Timings are the best of
``--repeat`` runs (wall clock); in part 1 each is printed with the ``tracemalloc``
peak of one more, untimed call, for the floor, accord and scikit-learn alike.
"""

from __future__ import annotations

import argparse
import platform
import resource
import sys
import time
import tracemalloc

import numpy as np
from _timing import measured

GIB = 1024**3


def make_pairs(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two raters who each copy a true label 70 % of the time (int64 labels 0..k-1)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, size=n)
    a = np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, size=n))
    b = np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, size=n))
    return a, b


def peak_rss_bytes() -> int:
    """The process's peak resident set size (ru_maxrss is KiB on Linux, bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(rss if sys.platform == "darwin" else rss * 1024)


def dense_speed(args: argparse.Namespace) -> None:
    import accord

    a, b = make_pairs(args.pairs, args.k)
    k = args.k
    print(f"part 1: {args.pairs:,} pairs, k = {k}, int64 labels")
    t_floor, m_floor, counts = measured(args.repeat, lambda: np.bincount(a * k + b,
                                                                         minlength=k * k))
    t_acc, m_acc, res = measured(args.repeat, lambda: accord.cohen_kappa(a, b))
    p = counts.reshape(k, k) / args.pairs
    po, pe = float(np.trace(p)), float(p.sum(1) @ p.sum(0))
    direct = (po - pe) / (1 - pe)
    if abs(res.estimate - direct) > 1e-12:
        raise SystemExit(f"estimates differ: accord {res.estimate!r}, bincount {direct!r}")
    print(f"  kappa {res.estimate:.15f} (SE {res.se:.3e}); from the bincount {direct:.15f}")
    print(f"  input {(a.nbytes + b.nbytes) / 2**20:.0f} MiB; peak = tracemalloc peak of one call")
    print(f"  floor np.bincount(a * {k} + b):  {t_floor:8.3f} s, peak {m_floor:7.1f} MiB")
    print(f"  accord cohen_kappa (+ SEs, z, p, per category): {t_acc:8.3f} s, "
          f"peak {m_acc:7.1f} MiB")
    print(f"  ratio accord / floor: {t_acc / t_floor:5.2f}x time (target <= 2x), "
          f"{m_acc / m_floor:5.2f}x memory")
    if args.skip_sklearn:
        return
    import sklearn
    from sklearn.metrics import cohen_kappa_score

    t_sk, m_sk, peer = measured(args.repeat, lambda: cohen_kappa_score(a, b))
    if abs(res.estimate - peer) > 1e-10:
        raise SystemExit(f"estimates differ: accord {res.estimate!r}, scikit-learn {peer!r}")
    print(f"  scikit-learn {sklearn.__version__} cohen_kappa_score: {t_sk:8.3f} s, "
          f"peak {m_sk:7.1f} MiB (kappa {peer:.15f})")
    print(f"  ratio scikit-learn / accord: {t_sk / t_acc:5.1f}x time, {m_sk / m_acc:5.1f}x memory")


def sparse_memory(args: argparse.Namespace) -> None:
    import accord

    n, labels = args.sparse_pairs, args.sparse_labels
    rng = np.random.default_rng(1)
    a = rng.integers(0, labels, size=n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, labels, size=n))
    dense_gb = labels**2 * 8 / 1e9
    print(f"part 2: {n:,} pairs, {labels:,} distinct labels "
          f"(a dense table would need {dense_gb:,.0f} GB)")
    # The first call imports scipy.sparse and the table code; do that on a small sparse
    # table first, so that the figures below are the call's, not the imports'.
    warm = np.arange(3000)
    accord.cohen_kappa(warm, warm[::-1])
    rss_before = peak_rss_bytes()
    tracemalloc.start()
    start = time.perf_counter()
    res = accord.cohen_kappa(a, b)
    elapsed = time.perf_counter() - start
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_after = peak_rss_bytes()
    rows = np.bincount(a, minlength=labels) / n
    cols = np.bincount(b, minlength=labels) / n
    po, pe = float(np.mean(a == b)), float(rows @ cols)
    direct = (po - pe) / (1 - pe)
    if abs(res.estimate - direct) > 1e-12:
        raise SystemExit(f"estimates differ: accord {res.estimate!r}, direct {direct!r}")
    print(f"  kappa {res.estimate:.15f} (SE {res.se:.3e}); direct {direct:.15f}; "
          f"{elapsed:.3f} s")
    print(f"  peak memory traced during the call: {traced_peak / 2**20:8.1f} MiB")
    print(f"  process peak RSS: {rss_after / 2**20:8.1f} MiB "
          f"(before the call {rss_before / 2**20:.1f} MiB)")
    verdict = "within" if max(traced_peak, rss_after) < GIB else "OVER"
    print(f"  {verdict} the 1 GiB budget")


def main() -> None:
    import accord

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000_000)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--sparse-pairs", type=int, default=1_000_000)
    parser.add_argument("--sparse-labels", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-sklearn", action="store_true")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"accord {accord.__version__}")
    sparse_memory(args)  # first, so the process peak RSS is not the dense part's
    dense_speed(args)


if __name__ == "__main__":
    main()
