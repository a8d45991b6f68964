"""accord.consensus against crowd-kit 1.4 (Toloka), run here as a differential oracle.

Inputs are simulated crowds with known confusion matrices (seeded), built in the
test: crowd-kit's dataset loaders download at run time.

Where the algorithm is the same the posteriors are compared to 1e-6:

* majority vote and Wawa: vote shares and weighted vote shares (crowd-kit's
  ``Wawa.predict_proba`` is replaced by its own two steps, ``Wawa.fit`` for the
  skills and ``MajorityVote(skills=...)``, because its fitted-check fails with
  scikit-learn 1.6+). On binary crowds with an odd number of ratings per unit,
  so that no majority is tied (crowd-kit breaks ties by column order, accord by
  category order and reports them);
* Dawid-Skene and one-coin: both start from the vote shares, alternate E and M
  steps and floor probabilities at 1e-10; compared after the same number of
  iterations (``tol=0`` here, ``tol=-inf`` there);
* GLAD: the same objective, priors, start and conjugate-gradient M step
  (scipy CG, 25 steps, gradient tolerance 0.01); compared after 3 iterations,
  because CG's line search amplifies rounding differences over many iterations
  (after 10 iterations the posteriors differ by about 1e-4), so at convergence
  only the accuracy is compared.

MACE differs by design: crowd-kit starts from a seeded random draw (10 restarts
with one seed), accord from the majority vote; the accuracy against the truth
is compared (within 0.01).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import accord
from accord.errors import ConvergenceWarning

pd = pytest.importorskip("pandas")
ck = pytest.importorskip("crowdkit.aggregation")


def simulated_crowd(n_units: int = 300, n_raters: int = 12, k: int = 3, per_unit: int = 5,
                    seed: int = 0) -> tuple[Any, np.ndarray]:
    """A crowd with known per-annotator confusion matrices (accuracies 0.35-0.95)."""
    rng = np.random.default_rng(seed)
    prior = np.linspace(1, 2, k) / np.linspace(1, 2, k).sum()
    truth = rng.choice(k, n_units, p=prior)
    acc = rng.uniform(0.35, 0.95, n_raters)
    conf = np.empty((n_raters, k, k))
    for r in range(n_raters):
        for c in range(k):
            row = rng.dirichlet(np.ones(k))
            row[c] = 0.0
            conf[r, c] = row / row.sum() * (1 - acc[r])
            conf[r, c, c] = acc[r]
    rows = []
    for u in range(n_units):
        for r in rng.choice(n_raters, per_unit, replace=False):
            rows.append((f"u{u}", f"w{r}", int(rng.choice(k, p=conf[r, truth[u]]))))
    return pd.DataFrame(rows, columns=["task", "worker", "label"]), truth


def oracle(model: Any, df: Any, *, skills: Any = None) -> Any:
    """crowd-kit's posteriors (its pandas deprecation warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if skills is not None:
            return ck.MajorityVote().fit(df, skills=skills).probas_
        return model.fit_predict_proba(df)


def ours(df: Any, method: str, **options: Any) -> accord.Consensus:
    ann = accord.Annotations.from_long(df, unit="task", rater="worker", value="label")
    return accord.consensus(ann, method=method, **options)  # type: ignore[arg-type]


def aligned(probas: Any, c: accord.Consensus) -> np.ndarray:
    return np.asarray(probas.reindex(index=list(c.units), columns=list(c.categories))
                      .fillna(0.0).to_numpy(), dtype=float)


def truth_of(c: accord.Consensus, truth: np.ndarray) -> np.ndarray:
    return truth[[int(u[1:]) for u in c.units]]


@pytest.mark.parametrize("seed", [0, 1])
def test_majority_and_wawa_match_crowdkit(seed: int) -> None:
    df, _ = simulated_crowd(k=2, per_unit=5, seed=seed)
    c = ours(df, "majority")
    assert c.tied == ()
    np.testing.assert_allclose(c.posterior, aligned(oracle(ck.MajorityVote(), df), c),
                               atol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        skills = ck.Wawa().fit(df).skills_
    w = ours(df, "wawa")
    np.testing.assert_allclose(w.posterior, aligned(oracle(None, df, skills=skills), w),
                               atol=1e-12)
    got = dict(zip(w.raters, w.parameters["skill"]))
    for name, skill in skills.items():
        assert got[name] == pytest.approx(skill, abs=1e-12)


@pytest.mark.parametrize(("method", "model"), [
    ("dawid_skene", ck.DawidSkene), ("one_coin", ck.OneCoinDawidSkene)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dawid_skene_and_one_coin_match_crowdkit(method: str, model: Any, seed: int) -> None:
    df, truth = simulated_crowd(seed=seed, k=2 + seed)
    n = 40
    theirs = model(n_iter=n, tol=-np.inf)
    with pytest.warns(ConvergenceWarning, match="did not converge in 40 iterations"):
        c = ours(df, method, tol=0, max_iter=n)
    expected = aligned(oracle(theirs, df), c)
    np.testing.assert_allclose(c.posterior, expected, atol=1e-6)
    assert c.n_iter == n and not c.converged
    prior = theirs.priors_.reindex(list(c.categories)).to_numpy()
    np.testing.assert_allclose(c.parameters["prior"], prior, atol=1e-6)
    if method == "dawid_skene":  # errors_[worker, given][true] = confusion[worker][true, given]
        errors = theirs.errors_
        for r, name in enumerate(c.raters):
            for given in errors.loc[name].index:
                g = c.categories.index(given)
                row = errors.loc[(name, given)].reindex(list(c.categories)).to_numpy()
                np.testing.assert_allclose(c.parameters["confusion"][r, :, g], row, atol=1e-6)
    else:
        skills = dict(zip(c.raters, c.parameters["accuracy"]))
        for name, s in theirs.skills_.items():
            assert skills[name] == pytest.approx(s, abs=1e-6)
    assert (c.label_codes == truth_of(c, truth)).mean() > 0.85


@pytest.mark.parametrize("seed", [0, 1])
def test_glad_matches_crowdkit(seed: int) -> None:
    df, truth = simulated_crowd(n_units=150, seed=seed)
    theirs = ck.GLAD(n_iter=3, tol=-np.inf)
    with pytest.warns(ConvergenceWarning):
        c = ours(df, "glad", tol=0, max_iter=3)
    np.testing.assert_allclose(c.posterior, aligned(oracle(theirs, df), c), atol=1e-6)
    alphas = dict(zip(c.raters, c.parameters["alpha"]))
    for name, a in theirs.alphas_.items():
        assert alphas[name] == pytest.approx(a, abs=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_glad_accuracy_at_convergence(seed: int) -> None:
    # each with its own stopping rule: at least crowd-kit's accuracy
    df, truth = simulated_crowd(n_units=150, seed=seed)
    full = ours(df, "glad")
    ref = aligned(oracle(ck.GLAD(), df), full).argmax(axis=1)
    t = truth_of(full, truth)
    assert (full.label_codes == t).mean() >= (ref == t).mean() - 0.005


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mace_accuracy_matches_crowdkit(seed: int) -> None:
    df, truth = simulated_crowd(n_units=400, seed=seed)
    c = ours(df, "mace")
    ref = aligned(oracle(ck.MACE(), df), c).argmax(axis=1)
    t = truth_of(c, truth)
    assert c.converged
    assert (c.label_codes == t).mean() >= (ref == t).mean() - 0.01
