"""The judge lab against the packages that answer the same questions, on the same data.

Each row times accord and its peer on one synthetic data set and checks that the
shared figure agrees (the largest absolute difference is printed):

* length and self-preference bias of a pairwise judge shown each pair in both orders,
  against judgemetry 0.1.0 (``verbosity_bias``, ``self_preference``: judge share minus
  human share with a 2,000-resample pairs bootstrap); accord computes the same
  difference with its linearised SE and, to compare like with like, a 2,000-resample
  bootstrap by pair as well;
* the logistic length slope, against statsmodels ``Logit`` (model-based SEs);
* Bradley-Terry strengths, against choix ``ilsr_pairwise`` (tol 1e-10);
* repeat-run consistency (flip rates, ICC(1,1), within-item variance), against
  rater-agreement 0.1.0 (``raters.intra``), which has no interval for them;
* Brier score, ECE and an isotonic recalibration, against judgemetry (pure Python)
  and scikit-learn (``brier_score_loss``, ``IsotonicRegression``);
* the prediction-powered mean, against ppi_python (``ppi_mean_ci``, ``lam=1``).

judge-kappa is not on the package index: with ``--judge-kappa-src DIR`` (the ``src/``
folder of a checkout of github.com/williamcaban/judge-kappa-eval) a second table
compares its ICC(2,k) (with a 300-set simulation of missing scores), mean pairwise
kappa, ordinal alpha with its bootstrap, Elo, position bias and panel mean, and notes
what each convention does differently (see ``benchmarks/_judge_kappa.py``); without
it those rows are skipped with the reason.

Usage: ``python benchmarks/bench_judge_lab.py [--scale S] [--repeat R]
[--judge-kappa-src DIR] [--judge-kappa-only]`` (sizes are multiplied by ``--scale``;
the default takes about a minute on one core).
"""

from __future__ import annotations

import argparse
import platform
import sys
import warnings
from collections.abc import Callable
from typing import Any

import _judge_kappa as jk
import numpy as np
from _timing import best_of

import accord

# benchmarks/coverage.py would shadow the coverage package that numba (under ppi_python)
# imports; the helpers above are loaded, so this folder can leave the path
sys.path[:] = [p for p in sys.path if not p.rstrip("/").endswith("benchmarks")]


def row(name: str, ours: Callable[[], Any], peer: Callable[[], Any], peer_name: str,
        repeat: int, diff: Callable[[Any, Any], float]) -> None:
    t_ours, a = best_of(repeat, ours)
    t_peer, b = best_of(max(1, repeat // 2), peer)
    print(f"| {name} | {t_ours:.4f} s | {peer_name} {t_peer:.4f} s | "
          f"{_ratio(t_peer / t_ours)} | {diff(a, b):.1e} |", flush=True)


def _ratio(x: float) -> str:
    return f"{x:,.0f}x" if x >= 10 else f"{x:.1f}x"


def pairs_data(n: int, seed: int = 0) -> tuple[list[Any], dict[str, list[Any]]]:
    from judgemetry.records import JudgedPair, PairRecord, Verdict

    rng = np.random.default_rng(seed)
    judged, rows = [], {k: [] for k in ("unit", "rater", "first", "second", "verdict",
                                        "len_first", "len_second", "gen_first", "gen_second")}
    for u in range(n):
        la, lb = (int(x) for x in rng.integers(20, 2000, 2))
        ma, mb = ("self", "other") if u % 3 == 0 else ("other", "third")
        human = "A" if rng.random() < 0.5 else "B"
        fwd, bwd = ("A" if rng.random() < 0.6 else "B" for _ in range(2))
        rec = PairRecord(f"p{u}", "q", "a" * la, "b" * lb, ma, mb, human)
        judged.append(JudgedPair(rec, Verdict(fwd, 0.5, ""), Verdict(bwd, 0.5, ""), "j"))
        lens, gens = {"a": la, "b": lb}, {"a": ma, "b": mb}
        for first, second, win, rater in (("a", "b", fwd, "judge"), ("b", "a", bwd, "judge"),
                                          ("a", "b", human, "human")):
            verdict = "A" if {"A": "a", "B": "b"}[win] == first else "B"
            for key, val in zip(rows, (f"p{u}", rater, first, second, verdict, lens[first],
                                       lens[second], gens[first], gens[second])):
                rows[key].append(val)
    return judged, rows


def bench_biases(n: int, repeat: int) -> None:
    from judgemetry.metrics import self_preference, verbosity_bias

    judged, rows = pairs_data(n)
    boot = accord.Bootstrap(n_resamples=2000, rng=7)

    def ours() -> tuple[float, float]:
        res = accord.preferences(rows, judge="judge", lengths=("len_first", "len_second"),
                                 generators=("gen_first", "gen_second"), family="self")
        lb, sp = res.length_bias_excess, res.self_preference_excess
        assert lb is not None and sp is not None
        lb.confidence_interval(method=boot)
        sp.confidence_interval(method=boot)
        return lb.estimate, sp.estimate

    def peer() -> tuple[float, float]:
        a = verbosity_bias(judged)
        b = self_preference(judged, "self")
        assert b is not None
        return a.value, b.value

    row(f"length + self-preference excess, {n:,} pairs x 2 orders + humans, bootstrap 2,000",
        ours, peer, "judgemetry", repeat, lambda a, b: max(abs(x - y) for x, y in zip(a, b)))

    import statsmodels.api as sm

    def ours_slope() -> float:
        res = accord.preferences(rows, judge="judge", lengths=("len_first", "len_second"))
        assert res.length_slope is not None
        return res.length_slope.estimate

    def peer_slope() -> float:
        judge = [i for i, r in enumerate(rows["rater"]) if r == "judge"]
        d = np.array([(rows["len_first"][i] - rows["len_second"][i]) / 100 for i in judge])
        y = np.array([rows["verdict"][i] == "A" for i in judge], dtype=float)
        return float(sm.Logit(y, sm.add_constant(d)).fit(disp=0).params[1])

    row(f"preferences() with lengths: every figure, vs the slope alone, {n:,} pairs",
        ours_slope, peer_slope, "statsmodels Logit", repeat, lambda a, b: abs(a - b))


def bench_bradley_terry(k: int, n: int, repeat: int) -> None:
    import choix

    rng = np.random.default_rng(1)
    theta = rng.normal(0, 1, k)
    i = rng.integers(0, k, n)
    j = (i + rng.integers(1, k, n)) % k
    win = rng.random(n) < 1 / (1 + np.exp(-(theta[i] - theta[j])))
    data = [(int(a), int(b), int(a) if w else int(b)) for a, b, w in zip(i, j, win)]
    choix_data = [(w, b if w == a else a) for a, b, w in data]

    def ours() -> np.ndarray:
        bt = accord.bradley_terry(data)
        return np.array([bt.strength[m].estimate for m in range(k)])

    row(f"Bradley-Terry, {k} items x {n:,} comparisons", ours,
        lambda: choix.ilsr_pairwise(k, choix_data, tol=1e-10, max_iter=1000), "choix",
        repeat, lambda a, b: float(np.max(np.abs(a - b))))


def bench_consistency(n: int, repeat: int) -> None:
    from raters import intra

    rng = np.random.default_rng(2)
    x = np.clip(np.rint(rng.normal(3, 1, n)[:, None] + rng.normal(0, 0.7, (n, 5))), 1, 5)

    def ours() -> list[float]:
        c = accord.judge_consistency(x, threshold=3.5)
        assert c.threshold_flip_rate is not None
        return [c.flip_rate.estimate, c.threshold_flip_rate.estimate, c.icc.estimate,
                c.within_item_variance.estimate]

    def peer() -> list[float]:
        return [intra.flip_rate(x), intra.flip_rate(x, threshold=3.5), intra.icc_1_1(x),
                intra.within_item_variance(x)]

    row(f"consistency (flip rates, ICC(1,1), variance), {n:,} items x 5 runs", ours, peer,
        "rater-agreement", repeat, lambda a, b: max(abs(p - q) for p, q in zip(a, b)))


def bench_calibration(n: int, repeat: int) -> None:
    from judgemetry.calibrate import fit_isotonic
    from judgemetry.metrics import brier_score, expected_calibration_error
    from sklearn.isotonic import IsotonicRegression
    from sklearn.metrics import brier_score_loss

    rng = np.random.default_rng(3)
    s = rng.random(n)
    y = (rng.random(n) < s**1.5).astype(int)
    outcomes = [(float(a), bool(b)) for a, b in zip(s, y)]

    def ours() -> list[float]:
        cal = accord.judge_calibration(s, y, recalibrate=None)
        return [cal.brier.estimate, cal.ece.estimate]

    row(f"Brier + ECE with intervals, {n:,} scores", ours,
        lambda: [brier_score(outcomes), expected_calibration_error(outcomes)],
        "judgemetry (no interval)", repeat,
        lambda a, b: max(abs(p - q) for p, q in zip(a, b)))
    row(f"judge_calibration (Brier, ECE, bins, SEs) vs Brier alone, {n:,} scores",
        lambda: accord.judge_calibration(s, y, recalibrate=None).brier.estimate,
        lambda: brier_score_loss(y, s), "scikit-learn", repeat, lambda a, b: abs(a - b))

    from accord.judge.calibration import apply_map, isotonic_knots

    def ours_iso() -> np.ndarray:
        return apply_map("isotonic", isotonic_knots(s, y.astype(float)), s)

    def sk_iso() -> np.ndarray:
        return np.asarray(IsotonicRegression(out_of_bounds="clip").fit(s, y).predict(s))

    row(f"isotonic fit + predict, {n:,} scores", ours_iso, sk_iso, "scikit-learn", repeat,
        lambda a, b: float(np.max(np.abs(a - b))))
    row(f"isotonic fit + predict, {n:,} scores", ours_iso,
        lambda: np.array([m.predict(v) for m in [fit_isotonic(s.tolist(), y.tolist())]
                          for v in s]), "judgemetry", repeat,
        lambda a, b: float(np.max(np.abs(a - b))))


def bench_ppi(n: int, big_n: int, repeat: int) -> None:
    from ppi_py import ppi_mean_ci

    rng = np.random.default_rng(4)
    y_all = (rng.random(n + big_n) < 0.3).astype(float)
    judge = np.where(rng.random(n + big_n) < 0.15, 1.0, y_all)
    f_unl, f_lab, y = judge[n:], judge[:n], y_all[:n]

    def ours() -> float:
        return accord.ppi_mean(f_unl, f_lab, y).confidence_interval(0.9).low

    row(f"PPI mean + interval, {n:,} labelled, {big_n:,} unlabelled", ours,
        lambda: float(np.ravel(ppi_mean_ci(y, f_lab, f_unl, alpha=0.1, lam=1)[0])[0]),
        "ppi_python", repeat, lambda a, b: abs(a - b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--judge-kappa-src", metavar="DIR",
                        help="the src/ folder of a judge-kappa checkout")
    parser.add_argument("--judge-kappa-only", action="store_true",
                        help="run only the judge-kappa rows")
    args = parser.parse_args()
    s, r = args.scale, args.repeat
    print(f"python {platform.python_version()}, numpy {np.__version__}, {sys.platform}")
    if not args.judge_kappa_only:
        peers(s, r)
    bench_judge_kappa(args.judge_kappa_src, s, r)


def peers(s: float, r: int) -> None:
    print("| task | accord | peer | speed-up | largest difference |")
    print("|---|---|---|---|---|")
    warnings.simplefilter("ignore")  # the peers' own deprecation warnings
    bench_biases(int(2000 * s), r)
    bench_bradley_terry(20, int(100_000 * s), r)
    bench_consistency(int(20_000 * s), r)
    bench_calibration(int(50_000 * s), r)
    bench_ppi(int(1_000 * s), int(1_000_000 * s), r)


def bench_judge_kappa(src: str | None, s: float, r: int) -> None:
    reason = jk.load(src)
    if reason is not None:
        print(f"\njudge-kappa rows skipped: {reason}.")
        return
    print("\n| task (judge-kappa) | accord | peer | speed-up | largest difference |")
    print("|---|---|---|---|---|")
    warnings.simplefilter("ignore")
    jk.bench_icc(int(2_000 * s), r)
    jk.bench_icc_missing(300, 40, 4, 0.3)
    jk.bench_kappa(int(2_000 * s), r)
    jk.bench_alpha(int(200 * s), r)
    jk.bench_elo(6, int(200 * s), r)
    jk.bench_position(int(2_000 * s), r)
    jk.bench_panel(int(500 * s), r)
    jk.verbosity_note(int(1_000 * s))
    print()
    for note in jk.NOTES:
        print(f"* {note}")


if __name__ == "__main__":
    main()
