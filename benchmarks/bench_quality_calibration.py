"""Does Dawid-Skene's consensus quality become calibrated once parameter uncertainty is in?

``accord.consensus(..., method="dawid_skene").quality`` is the fitted posterior of the
consensus label, ``P(T_u = l_u | ratings, theta_hat, pi_hat)``, with the confusion
matrices and class prior at their EM point estimates. On the "hard one-coin crowd" of
``tests/test_annotators_quality.py`` (2,000 units, 20 annotators right 35-80% of the
time, 3 ratings a unit: about 300 ratings per nine-cell confusion matrix) its expected
calibration error (10 equal-width bins) is 0.07-0.11 against the goal of 0.05. This
script scores the same labels (the EM fit's, never changed) with the probability of
being right under other readings of the same fit; the Bayesian ones (``bma``, ``vb``,
``gibbs``) put a uniform Dirichlet(1) prior on every confusion row and on the class prior:

* ``em``: the fitted posterior (what accord ships).
* ``loo``: each unit's posterior under the parameters of one M step without it (its own
  expected counts taken out).
* ``smooth +a``: ``a`` pseudo-counts added to every cell of the fit's expected counts
  (one M step); ``, refit``: EM run on with them to its fixed point (the posterior mode
  under a ``Dirichlet(1 + a)`` prior).
* ``bma``: Bayesian model averaging around the fit: ``draws`` draws of each confusion
  row from ``Dirichlet(1 + expected counts of the fit)`` and of the prior from
  ``Dirichlet(1 + expected class counts)``, the unit's posterior under each draw
  averaged (Hoeting et al. 1999).
* ``vb``: the variational-Bayes posterior of the same Bayesian model (IBCC-VB, Simpson
  et al. 2013): ``E[log theta] = psi(1 + N) - psi(k + sum N)`` in place of
  ``log theta_hat``, iterated from the fit to its fixed point.
* ``cvb0``: zero-order collapsed variational Bayes (Asuncion et al. 2009): the
  parameters integrated out, each unit's class probabilities updated from the others'
  expected counts plus the prior's, ``(N^-u[r, c, v] + 1) / (N^-u[r, c, .] + k)`` per
  rating and ``n^-u_c + 1`` for the class, iterated from the fit to its fixed point.
* ``gibbs``: the full Bayesian posterior of Bayesian classifier combination (IBCC, Kim
  & Ghahramani 2012) by blocked Gibbs sampling: true classes given parameters, then
  parameters given true classes from their Dirichlet posteriors, started at the fit;
  ``chains`` chains of ``burn`` + ``keep`` sweeps, the unit's posterior given each kept
  draw averaged (Rao-Blackwellised), at four lengths.

Crowds: the three hard one-coin crowds (seeds 0-2), the three Dawid-Skene crowds
(``ds_crowd``, seeds 0-2: the quality is calibrated there already and must stay so),
and the Dawid-Skene crowd of seed 4 with a model of 80% accuracy as one more, soft,
annotator (its probabilities are fractional ratings in every method here, as in the
fit). A sampled score's ECE is the range over ``--reps`` runs of different seeds, and
``unit sd`` the mean over units of one unit's standard deviation across those runs (the
Monte Carlo error of a score). Times: CPU seconds of the quality, and its ratio to the
fit's. ``--scale UNITS`` also times the fit and one Gibbs sweep on the crowd of
``_crowd_data.py`` (24 ratings a unit, 9,000 workers, 5 labels), and what each sampled
option's passes over the ratings would cost there.

Usage::

    python benchmarks/bench_quality_calibration.py                 # about a minute
    python benchmarks/bench_quality_calibration.py --reps 2 --scale 120000

References
----------
Asuncion, A., Welling, M., Smyth, P. & Teh, Y. W. (2009). On smoothing and inference for
topic models. *UAI*, 27-34.
Hoeting, J. A., Madigan, D., Raftery, A. E. & Volinsky, C. T. (1999). Bayesian model
averaging: a tutorial. *Statistical Science* 14(4), 382-417.
Kim, H.-C. & Ghahramani, Z. (2012). Bayesian classifier combination. *AISTATS*, 619-627.
Simpson, E., Roberts, S., Psorakis, I. & Smith, A. (2013). Dynamic Bayesian combination
of multiple imperfect classifiers. In *Decision Making and Imperfection*, 1-35. Springer.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.special import digamma

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_annotators_model import model_probs, simulated  # noqa: E402
from tests.test_annotators_quality import ds_crowd  # noqa: E402

import accord  # noqa: E402
from accord.annotators._crowd import crowd_of  # noqa: E402
from accord.annotators.label_quality import expected_calibration_error  # noqa: E402

A = 1.0  # the uniform Dirichlet prior on every confusion row and on the class prior


class Model:
    """The fitted crowd as the Bayesian model sees it: the units x (rater, label) count
    matrix (the model's probabilities as fractional ratings of one more rater)."""

    def __init__(self, ann: Any, probs: Any = None) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.process_time()
            self.fit = accord.consensus(ann, method="dawid_skene", model=probs)
            self.fit_seconds = time.process_time() - t0
        crowd = crowd_of(ann, func="bench")
        self.k, self.n = crowd.k, crowd.n_units
        counts = crowd.rating_matrix()
        if probs is not None:
            soft = np.zeros((self.n, self.k))
            index = {u: i for i, u in enumerate(crowd.unit_ids)}
            for u, row in probs.items():
                for c, p in row.items():
                    soft[index[u], crowd.categories.index(c)] = p
            counts = sp.hstack([counts, sp.csr_matrix(soft)], format="csr")
        self.counts = counts
        self.counts_t = counts.T.tocsr()
        self.r = counts.shape[1] // self.k
        self.post = np.asarray(self.fit.posterior)
        self.labels = self.fit.label_codes

    def posterior(self, log_theta: np.ndarray, log_prior: np.ndarray) -> np.ndarray:
        """Units x classes posterior; ``log_theta`` is raters x true x given."""
        x = log_theta.transpose(0, 2, 1).reshape(self.r * self.k, self.k)
        lp = self.counts @ x + log_prior
        lp -= lp.max(axis=1, keepdims=True)
        np.exp(lp, out=lp)
        lp /= lp.sum(axis=1, keepdims=True)
        return lp

    def tallies(self, weights: np.ndarray) -> np.ndarray:
        """Raters x true x given counts (expected counts for a soft ``weights``)."""
        return np.asarray(self.counts_t @ weights).reshape(self.r, self.k, self.k).transpose(
            0, 2, 1)

    def at_label(self, post: np.ndarray) -> np.ndarray:
        return post[np.arange(self.n), self.labels]


def dirichlet(rng: np.random.Generator, alpha: np.ndarray) -> np.ndarray:
    g = rng.standard_gamma(alpha)
    return g / g.sum(axis=-1, keepdims=True)


def em(m: Model, _: np.random.Generator) -> np.ndarray:
    return m.at_label(m.post)


def left_out(m: Model, post: np.ndarray, a: float) -> np.ndarray:
    """Units x classes posterior under the expected counts of ``post`` with each unit's
    own taken out, plus ``a`` on every confusion cell and class count."""
    counts, classes = m.tallies(post), post.sum(axis=0)
    coo = m.counts.tocoo()
    rater, given = coo.col // m.k, coo.col % m.k
    own = coo.data[:, None] * post[coo.row]  # ratings x true classes
    cell = counts[rater, :, given] - own + a
    # the unit's ratings by the same rater, over all labels (a model's: its probabilities)
    by_rater = (m.counts @ sp.kron(sp.identity(m.r), np.ones((m.k, 1)))).tocsr()
    mine = np.asarray(by_rater[coo.row, rater]).ravel()
    row = counts.sum(axis=2)[rater] - mine[:, None] * post[coo.row] + m.k * a
    lt = coo.data[:, None] * (np.log(np.maximum(cell, 1e-300))
                              - np.log(np.maximum(row, 1e-300)))
    lp = np.zeros((m.n, m.k))
    for c in range(m.k):
        lp[:, c] = np.bincount(coo.row, lt[:, c], minlength=m.n)
    lp += np.log(np.maximum(classes - post + a, 1e-300))
    lp -= lp.max(axis=1, keepdims=True)
    out = np.exp(lp)
    return out / out.sum(axis=1, keepdims=True)


def loo(m: Model, _: np.random.Generator) -> np.ndarray:
    """Each unit's posterior under the parameters of one M step without it."""
    return m.at_label(left_out(m, m.post, 0.0))


def cvb0(m: Model, _: np.random.Generator, max_iter: int = 3000) -> np.ndarray:
    """Zero-order collapsed variational Bayes: the leave-one-out update with the
    Dirichlet(1) prior's counts, iterated from the fit to its fixed point."""
    post = m.post
    for _ in range(max_iter):
        new = left_out(m, post, A)
        done = np.abs(new - post).max() < 1e-9
        post = new
        if done:
            break
    return m.at_label(post)


def smoothed(m: Model, _: np.random.Generator, pseudo: float = 1.0, refit: bool = False,
             max_iter: int = 2000) -> np.ndarray:
    """The posterior with ``pseudo`` counts added to every confusion cell of the fit's
    expected counts (Laplace smoothing); ``refit``: EM run on with them from the fit to
    its fixed point (the posterior mode under a ``Dirichlet(1 + pseudo)`` prior)."""
    post = m.post
    for _ in range(max_iter if refit else 1):
        counts = m.tallies(post) + pseudo
        new = m.posterior(np.log(counts / counts.sum(axis=2, keepdims=True)),
                          np.log(np.maximum(post.mean(axis=0), 1e-10)))
        done = np.abs(new - post).max() < 1e-9
        post = new
        if done:
            break
    return m.at_label(post)


def bma(m: Model, rng: np.random.Generator, draws: int = 64) -> np.ndarray:
    counts, classes = m.tallies(m.post) + A, m.post.sum(axis=0) + A
    total = np.zeros(m.n)
    for _ in range(draws):
        total += m.at_label(m.posterior(np.log(dirichlet(rng, counts)),
                                        np.log(dirichlet(rng, classes))))
    return total / draws


def vb(m: Model, _: np.random.Generator, max_iter: int = 1000) -> np.ndarray:
    post = m.post
    for _ in range(max_iter):
        counts, classes = m.tallies(post) + A, post.sum(axis=0) + A
        new = m.posterior(digamma(counts) - digamma(counts.sum(axis=2, keepdims=True)),
                          digamma(classes) - digamma(classes.sum()))
        done = np.abs(new - post).max() < 1e-9
        post = new
        if done:
            break
    return m.at_label(post)


def gibbs(m: Model, rng: np.random.Generator, chains: int, burn: int, keep: int
          ) -> np.ndarray:
    total = np.zeros(m.n)
    rows = np.arange(m.n)
    for _ in range(chains):
        post = m.post
        for sweep in range(burn + keep):
            truth = np.minimum((rng.random(m.n)[:, None] > post.cumsum(axis=1)).sum(axis=1),
                               m.k - 1)
            hard = np.zeros((m.n, m.k))
            hard[rows, truth] = 1.0
            theta = dirichlet(rng, m.tallies(hard) + A)
            prior = dirichlet(rng, hard.sum(axis=0) + A)
            post = m.posterior(np.log(theta), np.log(prior))
            if sweep >= burn:
                total += m.at_label(post)
    return total / (chains * keep)


OPTIONS: dict[str, tuple[Callable[..., np.ndarray], dict[str, int], int]] = {
    # name: (function, its options, passes over the ratings per call)
    "em": (em, {}, 0),
    "loo": (loo, {}, 0),
    "smooth +1": (smoothed, {"pseudo": 1}, 0),
    "smooth +10": (smoothed, {"pseudo": 10}, 0),
    "smooth +1, refit": (smoothed, {"pseudo": 1, "refit": True}, 0),
    "bma x64": (bma, {"draws": 64}, 64),
    "vb": (vb, {}, 0),
    "cvb0": (cvb0, {}, 0),
    "gibbs 1x(20+64)": (gibbs, {"chains": 1, "burn": 20, "keep": 64}, 84),
    "gibbs 2x(50+50)": (gibbs, {"chains": 2, "burn": 50, "keep": 50}, 200),
    "gibbs 1x(100+100)": (gibbs, {"chains": 1, "burn": 100, "keep": 100}, 200),
    "gibbs 4x(100+100)": (gibbs, {"chains": 4, "burn": 100, "keep": 100}, 800),
}


def crowds(model_seed: int = 4) -> list[tuple[str, np.ndarray, Any, Any]]:
    out = []
    for seed in range(3):
        truth, ann = simulated(seed, n_units=2000, n_raters=20, per_unit=3)
        out.append((f"hard one-coin, seed {seed}", truth, ann, None))
    for seed in range(3):
        truth, ann = ds_crowd(seed)
        out.append((f"Dawid-Skene, seed {seed}", truth, ann, None))
    truth, ann = ds_crowd(model_seed)
    out.append((f"Dawid-Skene + model, seed {model_seed}", truth, ann,
                model_probs(truth, 0.8, model_seed)))
    return out


def table(reps: int) -> None:
    """One line per crowd and option: ECE (min-max over ``reps`` seeds), per-unit Monte
    Carlo sd, CPU seconds of the quality and its ratio to the fit's."""
    print(f"{'crowd':34} {'option':18} {'ECE':>11} {'unit sd':>8} {'CPU s':>7} {'x fit':>6}")
    for label, truth, ann, probs in crowds():
        m = Model(ann, probs)
        right = (m.labels == truth).astype(float)
        print(f"{label:34} {'(fit)':18} {'':>11} {'':>8} {m.fit_seconds:7.3f} "
              f"{'':>6}  {m.fit.n_iter} EM iterations")
        for name, (f, kw, passes) in OPTIONS.items():
            n = 1 if passes == 0 else reps
            t0 = time.process_time()
            runs = [f(m, np.random.default_rng(seed), **kw) for seed in range(n)]
            took = (time.process_time() - t0) / n
            eces = [expected_calibration_error(x, right) for x in runs]
            ece = f"{min(eces):.3f}" if n == 1 else f"{min(eces):.3f}-{max(eces):.3f}"
            sd = "" if n == 1 else f"{np.std(runs, axis=0).mean():.3f}"
            print(f"{'':34} {name:18} {ece:>11} {sd:>8} {took:7.3f} "
                  f"{took / m.fit_seconds:6.1f}")


def scale(units: int) -> None:
    """The fit and one Gibbs sweep on the crowd of ``_crowd_data.py`` (24 ratings a unit,
    9,000 workers, 5 labels), and what each option's passes would cost there."""
    sys.path.insert(0, str(Path(__file__).parent))
    from _crowd_data import crowd_arrays

    unit, worker, label = crowd_arrays(units)
    ann = accord.Annotations.from_long({"unit": unit, "rater": worker, "value": label})
    m = Model(ann)
    t0 = time.process_time()
    gibbs(m, np.random.default_rng(0), chains=1, burn=0, keep=5)
    sweep = (time.process_time() - t0) / 5
    print(f"{units:,} units, {unit.shape[0]:,} ratings: fit {m.fit_seconds:.2f} s CPU "
          f"({m.fit.n_iter} iterations, {m.fit_seconds / m.fit.n_iter:.3f} s each); one "
          f"Gibbs sweep {sweep:.3f} s")
    for name, (_, _, passes) in OPTIONS.items():
        if passes:
            print(f"  {name}: {passes} passes, about {passes * sweep:.1f} s "
                  f"({passes * sweep / m.fit_seconds:.1f}x the fit)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3,
                        help="runs (seeds 0..reps-1) of each sampled score")
    parser.add_argument("--scale", type=int, default=0, metavar="UNITS",
                        help="also time the fit and a Gibbs sweep on a crowd of UNITS units")
    args = parser.parse_args()
    table(args.reps)
    if args.scale:
        print()
        scale(args.scale)


if __name__ == "__main__":
    main()
