"""``score_consensus``: a score per unit from numeric ratings, annotators' bias and noise.

Oracles, run here:
- statsmodels ``MixedLM`` (maximum likelihood by BFGS, ``reml=False``) of ``value ~ C(rater, Sum)``
  with a random intercept per unit is the ``noise="shared"`` model: its intercept is
  mu, its sum-to-zero rater effects the biases, ``scale`` sigma^2, ``Group Var * scale``
  tau^2, ``llf`` the marginal log-likelihood and intercept + the predicted random
  effects the posterior means (BLUPs);
- scipy ``multivariate_normal.logpdf`` of each unit's ratings under
  N(mu + b, tau^2 11' + diag(sigma_j^2)) for the per-annotator log-likelihood;
- pandas ``groupby`` means and medians for the summaries;
- a simulation with known truth (Piech et al. 2013's PG1 model without priors) for
  recovery of bias and noise, and for the claim that weighting by precision beats the
  plain mean when annotators differ in noise (Raykar et al. 2010, sec. 3).
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import accord
from accord.errors import DataError, InsufficientDataError
from accord.inference.bootstrap import draw_weights


def _simulate(seed: int, n: int = 400, raters: int = 6, per_unit: int = 3,
              shared: float | None = None) -> tuple[pd.DataFrame, dict[str, float],
                                                    dict[str, float], dict[str, float]]:
    rng = np.random.default_rng(seed)
    truth = rng.normal(3.0, 1.0, n)
    bias = rng.normal(0.0, 0.5, raters)
    bias -= bias.mean()
    noise = np.full(raters, shared) if shared else rng.uniform(0.2, 1.5, raters)
    rows = []
    for i in range(n):
        for j in rng.choice(raters, per_unit, replace=False):
            rows.append((f"u{i:04d}", f"r{j}", truth[i] + bias[j] + rng.normal(0, noise[j])))
    df = pd.DataFrame(rows, columns=["unit", "rater", "value"])
    names = [f"r{j}" for j in range(raters)]
    return (df, dict(zip(names, bias)), dict(zip(names, noise)),
            {f"u{i:04d}": t for i, t in enumerate(truth)})


def _ann(df: pd.DataFrame) -> accord.Annotations:
    return accord.Annotations.from_long(df, unit="unit", rater="rater", value="value")


@pytest.mark.parametrize("seed", [1, 2])
def test_shared_noise_is_statsmodels_mixedlm(seed: int) -> None:
    import statsmodels.formula.api as smf

    df, _, _, _ = _simulate(seed, n=150, raters=5, shared=0.7)
    sc = accord.score_consensus(_ann(df), noise="shared", tol=1e-14, max_iter=100_000)
    assert sc.converged
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # statsmodels' own optimiser notes
        m = smf.mixedlm("value ~ C(rater, Sum)", df, groups=df["unit"]).fit(
            reml=False, method=["bfgs"], gtol=1e-12)
    names = sorted(df["rater"].unique())
    effects = [m.params[f"C(rater, Sum)[S.{r}]"] for r in names[:-1]]
    effects.append(-sum(effects))
    assert sc.mu == pytest.approx(m.params["Intercept"], abs=1e-6)
    for r, b in zip(names, effects):
        assert sc.bias[r].estimate == pytest.approx(b, abs=1e-6)
        assert sc.noise[r].estimate ** 2 == pytest.approx(m.scale, rel=1e-6)
    assert sc.tau ** 2 == pytest.approx(m.params["Group Var"] * m.scale, rel=1e-6)
    assert sc.log_likelihood == pytest.approx(m.llf, rel=1e-10)
    blup = np.array([m.params["Intercept"] + m.random_effects[u].iloc[0] for u in sc.units])
    np.testing.assert_allclose(sc.estimates, blup, rtol=0, atol=1e-5)


def test_log_likelihood_is_the_multivariate_normal_density() -> None:
    df, _, _, _ = _simulate(3, n=60, raters=4)
    sc = accord.score_consensus(_ann(df))
    total = 0.0
    for _, g in df.groupby("unit"):
        b = np.array([sc.bias[r].estimate for r in g["rater"]])
        s2 = np.array([sc.noise[r].estimate ** 2 for r in g["rater"]])
        cov = sc.tau ** 2 * np.ones((len(g), len(g))) + np.diag(s2)
        total += stats.multivariate_normal.logpdf(g["value"].to_numpy(), sc.mu + b, cov)
    assert sc.log_likelihood == pytest.approx(total, rel=1e-12)


def test_em_is_a_fixed_point_of_the_posterior_mean() -> None:
    df, _, _, _ = _simulate(4, n=80, raters=4)
    sc = accord.score_consensus(_ann(df), tol=1e-14, max_iter=100_000)
    for u, g in df.groupby("unit"):
        prec = np.array([1 / sc.noise[r].estimate ** 2 for r in g["rater"]])
        b = np.array([sc.bias[r].estimate for r in g["rater"]])
        post = (sc.mu / sc.tau ** 2 + (prec * (g["value"].to_numpy() - b)).sum()) / (
            1 / sc.tau ** 2 + prec.sum())
        assert sc.labels[u] == pytest.approx(post, abs=1e-12)
    assert sum(sc.bias[r].estimate for r in sc.raters) == pytest.approx(0.0, abs=1e-12)


def test_simulation_recovers_bias_and_noise_and_beats_the_mean() -> None:
    df, bias, noise, truth = _simulate(0, n=3000, raters=6)
    ann = _ann(df)
    sc = accord.score_consensus(ann)
    for r in sc.raters:
        n_r = sc.bias[r].details["n_ratings"]  # about 1500: SE of b about noise / 39
        assert sc.bias[r].estimate == pytest.approx(bias[r], abs=4 * noise[r] / math.sqrt(n_r)
                                                    + 0.03)
        assert sc.noise[r].estimate == pytest.approx(noise[r], rel=0.1)
    t = np.array([truth[u] for u in sc.units])
    mean = accord.score_consensus(ann, method="mean")
    rmse = np.sqrt(np.mean((sc.estimates - t) ** 2))
    assert rmse < 0.8 * np.sqrt(np.mean((mean.estimates - t) ** 2))
    # the posterior SD is the error's SD: about 95% of units fall in their 95% interval
    low, high = sc.intervals(0.95)
    assert 0.93 < np.mean((low <= t) & (t <= high)) < 0.97


def test_mean_and_median_are_pandas_summaries() -> None:
    df, _, _, _ = _simulate(5, n=50, raters=5, per_unit=4)
    df.loc[df.index[:7], "value"] = df["value"].iloc[:7].round()  # some ties
    ann = _ann(df)
    for method in ("mean", "median"):
        sc = accord.score_consensus(ann, method=method)
        ref = getattr(df.groupby("unit")["value"], method)()
        np.testing.assert_allclose(sc.estimates, ref.loc[list(sc.units)].to_numpy(),
                                   rtol=0, atol=1e-12)
        resid = df["value"] - df["unit"].map(ref)
        by = resid.groupby(df["rater"])
        for r in sc.raters:
            assert sc.bias[r].estimate == pytest.approx(by.mean()[r], abs=1e-12)
            assert sc.noise[r].estimate == pytest.approx(by.std(ddof=0)[r], abs=1e-12)
    sc = accord.score_consensus(ann, method="mean")
    sem = df.groupby("unit")["value"].sem().loc[list(sc.units)].to_numpy()
    np.testing.assert_allclose(sc.se, sem, rtol=1e-12)


def test_bootstrap_refits_on_resampled_units() -> None:
    df, _, _, _ = _simulate(6, n=40, raters=4)
    ann = _ann(df)
    sc = accord.score_consensus(ann, method="mean")
    ref = df.groupby("unit")["value"].mean()
    units = list(sc.units)
    weights = draw_weights(np.ones(len(units), dtype=np.int64), 300,
                           np.random.default_rng(8), units=np.arange(len(units)))
    reps = []
    for w in weights:
        keep = pd.Series(w, index=units)
        sub = df.loc[df.index.repeat(df["unit"].map(keep))]
        r0 = sub[sub["rater"] == "r0"]
        reps.append((r0["value"] - r0["unit"].map(ref)).mean())
    low, high = np.quantile(reps, [0.025, 0.975])
    ci = sc.bias["r0"].confidence_interval(method=accord.Bootstrap(n_resamples=300, rng=8))
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)
    gauss = accord.score_consensus(ann)
    boot = accord.Bootstrap(n_resamples=60, rng=2)
    for fig in (gauss.bias["r1"], gauss.noise["r1"]):
        ci = fig.confidence_interval(method=boot)
        jack = fig.confidence_interval(method="jackknife")
        assert ci.low < fig.estimate < ci.high and jack.low < fig.estimate < jack.high


def test_bad_input_is_one_sentence_and_nothing_is_hidden() -> None:
    with pytest.raises(DataError, match="needs numeric scores"):
        accord.score_consensus([["a", "b"], ["b", "b"]])
    with pytest.raises(InsufficientDataError, match="every rating is 3"):
        accord.score_consensus([[3, 3], [3, 3]])
    with pytest.raises(accord.AccordError, match="method"):
        accord.score_consensus([[1, 2], [2, 3]], method="mode")  # type: ignore[arg-type]
    ratings = [[1.0, 1.5, None], [2.0, 2.5, 3.0], [4.0, None, None], [3.0, 3.5, None]]
    sc = accord.score_consensus(ratings)
    assert sc.single_rated == (2,)
    assert any("one annotator only" in n for n in sc.notes)
    assert any("one rating only" in n and "rater_3" in n for n in sc.notes)
    out = json.loads(json.dumps(sc.to_dict(), allow_nan=False))
    assert out["results"][2]["n_ratings"] == 1
    assert [a["name"] for a in out["annotators"]] == ["rater_1", "rater_2", "rater_3"]
    assert "most biased" in sc.sentence()
