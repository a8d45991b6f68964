"""The alternative annotator test and judge_agreement: accord vs the unit-by-unit procedure.

Part 1 times ``accord.alt_test`` on 10 humans x 10^5 units (target: under 1 s;
the Annotations are built once beforehand and that time is printed separately)
for ``scoring="accuracy"`` and ``"neg_rmse"``, against

* the peer: the procedure as the authors' reference implementation runs it
  (github.com/nitaytech/AltTest, ``alt_test_example.ipynb``): dictionaries of
  annotations, a Python loop over humans and units, scipy's ``ttest_1samp`` and
  the Benjamini-Yekutieli step-up. This script carries its own transcription of
  that procedure (not the authors' code), the same one ``tests/test_alt_test.py``
  matches to 1e-12; it is timed on ``--peer-units`` units (default 10^4) and
  the ratio is taken per unit.

Part 2 times ``accord.judge_agreement`` (Krippendorff's alpha, 2,000 paired
bootstrap resamples per difference) on 5 humans x 10^3 units.

Usage: ``python benchmarks/bench_judge.py [--units N] [--humans H] [--peer-units N]
[--repeat R]``. Timings are the best of ``--repeat`` runs (wall clock); peak memory
is the ``tracemalloc`` peak of one more call (untimed), for accord and the peer alike.
The memory ratio compares the two on the same ``--peer-units`` units.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys

import numpy as np
from _timing import measured
from scipy import stats


def make_panel(n: int, humans: int, seed: int = 0) -> dict[str, np.ndarray]:
    """A judge right 80 % of the time and humans right 70 % of the time, 4 labels."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n)
    cols = {}
    for name, right in [("judge", 0.8)] + [(f"h{j}", 0.7) for j in range(humans)]:
        cols[name] = np.where(rng.random(n) < right, truth, rng.integers(0, 4, n))
    return cols


def reference_procedure(cols: dict[str, np.ndarray], scoring: str, eps: float = 0.2,
                        q: float = 0.05) -> tuple[float, float]:
    """The unit-by-unit alt-test over dictionaries: winning rate and rho."""
    judge = {i: int(x) for i, x in enumerate(cols["judge"])}
    humans = {h: {i: int(x) for i, x in enumerate(c)} for h, c in cols.items() if h != "judge"}

    def score(pred: int, others: list[int]) -> float:
        if scoring == "accuracy":
            return float(np.mean([pred == o for o in others]))
        return -float(np.sqrt(np.mean([(pred - o) ** 2 for o in others])))

    pvalues, rhos = [], []
    for h, ratings in humans.items():
        d, w = [], []
        for unit, x in ratings.items():
            others = [humans[k][unit] for k in humans if k != h]
            s_j, s_h = score(judge[unit], others), score(x, others)
            w.append(int(s_j >= s_h))
            d.append(int(s_h >= s_j) - int(s_j >= s_h))
        pvalues.append(float(stats.ttest_1samp(d, eps, alternative="less").pvalue))
        rhos.append(float(np.mean(w)))
    m = len(pvalues)
    h_m = sum(1.0 / k for k in range(1, m + 1))
    order = sorted(range(m), key=lambda i: pvalues[i])
    last = max((r for r, i in enumerate(order, 1) if pvalues[i] <= r / m * q / h_m), default=0)
    return last / m, float(np.mean(rhos))


def part1(args: argparse.Namespace) -> None:
    import accord

    cols = make_panel(args.units, args.humans)
    build, m_build, ann = measured(1, lambda: accord.Annotations.from_wide(cols))
    print(f"Annotations.from_wide ({args.humans} humans + judge x {args.units:,} units): "
          f"{build:.3f} s, peak {m_build:.1f} MiB (once, not in the figures below); "
          "peak = tracemalloc peak of one call")
    small = {k: v[: args.peer_units] for k, v in cols.items()}
    for scoring in ("accuracy", "neg_rmse"):
        t_ours, m_ours, res = measured(args.repeat, lambda s=scoring: accord.alt_test(
            ann, judge="judge", scoring=s))
        t_small, m_small, res_small = measured(args.repeat, lambda s=scoring: accord.alt_test(
            small, judge="judge", scoring=s))
        t_peer, m_peer, (rate, rho) = measured(1, lambda s=scoring: reference_procedure(
            small, s))
        same = rate == res_small.winning_rate and math.isclose(
            rho, res_small.advantage_probability, abs_tol=1e-12)
        per_unit = (t_peer / args.peer_units) / (t_ours / args.units)
        print(f"  {scoring:9s} accord {args.units:,} units: {t_ours:.3f} s, peak "
              f"{m_ours:.1f} MiB (winning rate {res.winning_rate:.2f}, rho "
              f"{res.advantage_probability:.4f}); target < 1 s: "
              f"{'met' if t_ours < 1.0 else 'NOT met'}")
        print(f"  {scoring:9s} reference procedure {args.peer_units:,} units: {t_peer:.3f} s, "
              f"peak {m_peer:.1f} MiB; accord on the same: {t_small:.4f} s, peak "
              f"{m_small:.1f} MiB (incl. building Annotations); same answer: {same}")
        print(f"  {scoring:9s} per-unit speed-up {per_unit:.0f}x; peak memory, reference / "
              f"accord on the same units: {m_peer / m_small:.1f}x")


def part2(args: argparse.Namespace) -> None:
    import accord

    cols = make_panel(1000, 5, seed=1)
    t, m, res = measured(args.repeat, lambda: accord.judge_agreement(
        cols, judge="judge", method=accord.Bootstrap(n_resamples=2000, rng=0)))
    print(f"judge_agreement, alpha, 5 humans x 1,000 units, 6 paired bootstraps of 2,000: "
          f"{t:.3f} s, peak {m:.1f} MiB (judge {res.judge_level:.3f} vs ceiling "
          f"{res.ceiling:.3f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=100_000)
    parser.add_argument("--humans", type=int, default=10)
    parser.add_argument("--peer-units", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"scipy {__import__('scipy').__version__}, {sys.platform}")
    part1(args)
    part2(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
