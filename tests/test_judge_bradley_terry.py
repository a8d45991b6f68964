"""Bradley-Terry strengths, the order effect and Davidson ties.

Oracles, run here: choix 0.4 ``ilsr_pairwise`` (maximum likelihood by iterative Luce
spectral ranking, driven to tol=1e-14) for the plain model's strengths; statsmodels
``Logit`` on the design [1, e_first - e_second] for the model with an order effect
(the intercept is h; its standard errors from the same Fisher information); Davidson's
(1970) log-likelihood written out from the paper's eq. (2.1) and maximised by scipy for
ties, with standard errors from statsmodels' numerical Hessian (``approx_hess``) of it.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError, DegenerateDataWarning, InsufficientDataError


def _comparisons(seed: int, k: int = 7, n: int = 500, order: float = 0.0, ties: float = 0.0
                 ) -> list[tuple[int, int, object]]:
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, k)
    out: list[tuple[int, int, object]] = []
    for _ in range(n):
        i, j = (int(x) for x in rng.choice(k, 2, replace=False))
        a, b, t = math.exp(theta[i] + order), math.exp(theta[j]), ties * math.exp(
            (theta[i] + order + theta[j]) / 2)
        u = rng.random() * (a + b + t)
        out.append((i, j, i if u < a else j if u < a + b else "tie"))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_strengths_match_choix(seed: int) -> None:
    import choix

    data = _comparisons(seed)
    bt = accord.bradley_terry(data)
    ref = choix.ilsr_pairwise(7, [(w, j if w == i else i) for i, j, w in data],
                              tol=1e-14, max_iter=100_000)
    ours = np.array([bt.strength[i].estimate for i in range(7)])
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)
    assert bt.order_effect is None and bt.tie_parameter is None


@pytest.mark.parametrize("seed", [3, 4])
def test_order_effect_matches_statsmodels_logit(seed: int) -> None:
    import statsmodels.api as sm

    k = 6
    data = _comparisons(seed, k=k, n=600, order=0.4)
    bt = accord.bradley_terry(data, order_effect=True)
    d = np.zeros((len(data), k))
    for n, (i, j, _) in enumerate(data):
        d[n, i], d[n, j] = 1.0, -1.0
    order = [i for i, _ in sorted(enumerate(_first_seen(data)), key=lambda t: t[1])]
    ref_item = _first_seen(data)[0]
    X = np.column_stack([np.ones(len(data)), np.delete(d, ref_item, axis=1)])
    y = np.array([w == i for i, _, w in data], dtype=float)
    fit = sm.Logit(y, X).fit(disp=0, tol=1e-14, maxiter=200)
    assert bt.order_effect is not None
    assert bt.order_effect.estimate == pytest.approx(fit.params[0], abs=1e-10)
    assert bt.order_effect.se == pytest.approx(fit.bse[0], rel=1e-9)
    theta = np.insert(fit.params[1:], ref_item, 0.0)
    lin = np.eye(k) - 1.0 / k
    full = np.insert(np.insert(np.asarray(fit.cov_params())[1:, 1:], ref_item, 0.0, axis=0),
                     ref_item, 0.0, axis=1)
    se = np.sqrt(np.diag(lin @ full @ lin.T))
    for i in range(k):
        assert bt.strength[i].estimate == pytest.approx(theta[i] - theta.mean(), abs=1e-10)
        assert bt.strength[i].se == pytest.approx(se[i], rel=1e-9)
    assert order  # every item appears


def _first_seen(data: list[tuple[int, int, object]]) -> list[int]:
    seen: dict[int, None] = {}
    for i, j, _ in data:
        seen.setdefault(i)
        seen.setdefault(j)
    return list(seen)


def _davidson_negloglik(params: np.ndarray, data: list[tuple[int, int, object]], k: int
                        ) -> float:
    theta = np.concatenate([[0.0], params[: k - 1]])
    h, log_nu = params[k - 1], params[k]
    total = 0.0
    for i, j, w in data:
        a, b = theta[i] + h, theta[j]
        c = log_nu + (a + b) / 2
        log_d = np.logaddexp(np.logaddexp(a, b), c)
        total += (a if w == i else b if w == j else c) - log_d
    return -total


def test_davidson_ties_maximise_the_papers_likelihood() -> None:
    from scipy.optimize import minimize
    from statsmodels.tools.numdiff import approx_hess

    k = 5
    data = _comparisons(5, k=k, n=400, order=0.3, ties=0.6)
    ordered = _first_seen(data)
    relabel = {it: n for n, it in enumerate(ordered)}
    mapped = [(relabel[i], relabel[j], relabel[w] if w != "tie" else "tie") for i, j, w in data]
    bt = accord.bradley_terry(data, order_effect=True)
    opt = minimize(_davidson_negloglik, np.zeros(k + 1), args=(mapped, k), method="BFGS",
                   options={"gtol": 1e-10})
    theta = np.concatenate([[0.0], opt.x[: k - 1]])
    for it, n in relabel.items():
        assert bt.strength[it].estimate == pytest.approx(theta[n] - theta.mean(), abs=1e-5)
    assert bt.tie_parameter is not None and bt.order_effect is not None
    assert bt.tie_parameter.details["log_nu"] == pytest.approx(opt.x[k], abs=1e-5)
    assert bt.log_likelihood == pytest.approx(-opt.fun, abs=1e-9)

    hess = approx_hess(opt.x, _davidson_negloglik, args=(mapped, k))
    se = np.sqrt(np.diag(np.linalg.inv(hess)))
    assert bt.order_effect.se == pytest.approx(se[k - 1], rel=1e-4)
    assert bt.tie_parameter.details["log_nu_se"] == pytest.approx(se[k], rel=1e-4)
    assert bt.n_ties == sum(w == "tie" for *_, w in data)


def test_elo_is_a_view_of_the_strengths() -> None:
    bt = accord.bradley_terry(_comparisons(6))
    elo = bt.elo()
    for it, r in bt.strength.items():
        assert elo[it].estimate == pytest.approx(1000 + 400 * r.estimate / math.log(10), abs=1e-9)
        assert elo[it].se == pytest.approx(400 * r.se / math.log(10), rel=1e-12)
    ci = elo[0].confidence_interval()
    assert ci.low < elo[0].estimate < ci.high


@given(st.integers(0, 10_000))
@settings(max_examples=20, deadline=None)
def test_item_names_and_comparison_order_do_not_matter(seed: int) -> None:
    data = _comparisons(seed, k=4, n=80)
    rng = np.random.default_rng(seed)
    shuffled = [data[i] for i in rng.permutation(len(data))]
    named = [(f"m{i}", f"m{j}", w if w == "tie" else f"m{w}") for i, j, w in shuffled]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        a, b = accord.bradley_terry(data), accord.bradley_terry(named)
    for i in range(4):
        if i in a.strength:
            assert a.strength[i].estimate == pytest.approx(
                b.strength[f"m{i}"].estimate, abs=1e-9, nan_ok=True)


def test_an_item_that_never_lost_is_undefined() -> None:
    with pytest.warns(DegenerateDataWarning, match="Ford 1957"):
        bt = accord.bradley_terry([("a", "b", "a"), ("b", "c", "b"), ("c", "b", "c")])
    assert all(math.isnan(r.estimate) for r in bt.strength.values())
    assert bt.strength["a"].undefined_reason


def test_bad_input() -> None:
    with pytest.raises(DataError, match="neither item nor the tie value"):
        accord.bradley_terry([("a", "b", "c")])
    with pytest.raises(DataError, match="against itself"):
        accord.bradley_terry([("a", "a", "a")])
    with pytest.raises(InsufficientDataError, match="at least two items"):
        accord.bradley_terry({"first": [], "second": [], "winner": []})


def test_equal_records_tie_in_the_order_first_seen() -> None:
    # a and b each beat c twice and lose to it once: by symmetry their MLE strengths are
    # equal, and the fit may order them either way in the last bits; ranking() keeps
    # the order in which they were first seen and the sentence names the tie
    def record(x: str) -> list[tuple[str, str, str]]:
        return [(x, "c", x), ("c", x, x), (x, "c", "c")]

    ab = accord.bradley_terry(record("a") + record("b"))
    ba = accord.bradley_terry(record("b") + record("a"))
    assert abs(ab.strength["a"].estimate - ab.strength["b"].estimate) < 1e-9
    assert ab.ranking() == ["a", "b", "c"]
    assert ba.ranking() == ["b", "a", "c"]
    assert ab.sentence().startswith("a and b tie for first of 3 with log-strength")
    assert ", then c (" in ab.sentence()


def test_a_clear_order_is_not_a_tie() -> None:
    bt = accord.bradley_terry([("a", "b", "a"), ("b", "a", "a"), ("a", "b", "b")])
    assert bt.ranking() == ["a", "b"]
    assert bt.sentence().startswith("a ranks first of 2")
