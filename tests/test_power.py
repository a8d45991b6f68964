"""Power-based sample sizes for Cohen's kappa, and planning for a lower limit.

Sources: R irr 0.84.1 manual example output: ``N.cohen.kappa(0.5, 0.5, 0.7, 0.85)`` 96;
``N2.cohen.kappa(c(0.2, 0.25, 0.55), k1=0.6, k0=0.4)`` 101 (power 0.9: 136);
``N2.cohen.kappa(c(0.2, 0.05, 0.2, 0.05, 0.2, 0.3), k1=0.5, k0=0.1)`` 18. Independent
checks: Cantor's (1996) variance with equal rates equals Bloch & Kraemer's (1989) closed
form of the Fleiss-Cohen-Everitt variance; Flack's linear programme with two categories
(where the table is fixed) equals Cantor's; the lower-limit plan is checked by simulation.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import accord
from accord.cli import main
from accord.errors import DegenerateDataWarning, InvalidParameterError
from accord.study.power import _cantor_q, _flack_tau


def test_irr_published_sample_sizes() -> None:
    assert accord.plan_power(0.7, 0.85, rater_rates=(0.5, 0.5)).n_units == 96
    assert accord.plan_power(0.6, 0.4, prevalence=[0.2, 0.25, 0.55]).n_units == 101
    assert accord.plan_power(0.6, 0.4, prevalence=[0.2, 0.25, 0.55], power=0.9).n_units == 136
    six = [0.2, 0.05, 0.2, 0.05, 0.2, 0.3]
    assert accord.plan_power(0.5, 0.1, prevalence=six).n_units == 18


@pytest.mark.parametrize(("kappa", "pi"), [(0.6, 0.3), (0.2, 0.5), (0.85, 0.1)])
def test_cantor_variance_is_bloch_kraemer_with_equal_rates(kappa: float, pi: float) -> None:
    bloch_kraemer = (1 - kappa) * ((1 - kappa) * (1 - 2 * kappa)
                                   + kappa * (2 - kappa) / (2 * pi * (1 - pi)))
    assert _cantor_q(pi, pi, kappa) == pytest.approx(bloch_kraemer, rel=1e-12)
    flack = _flack_tau(np.array([pi, 1 - pi]), kappa, "test")
    assert flack**2 == pytest.approx(bloch_kraemer, rel=1e-9)


def test_two_sided_halves_the_level() -> None:
    one = accord.plan_power(0.8, 0.6, prevalence=0.4, significance_level=0.025)
    two = accord.plan_power(0.8, 0.6, prevalence=0.4, alternative="two-sided")
    assert one.n_units == two.n_units and two.significance_level == 0.025


def test_lower_limit_plan_reaches_its_assurance_by_simulation() -> None:
    plan = accord.plan_lower_limit(0.8, 0.6, prevalence=0.3)
    assert plan.n_units == 100
    # Table with prevalence 0.3 and kappa 0.8: p_kl = (1 - k) p_k p_l + k p_k [k = l]
    p = np.array([0.3, 0.7])
    cells = (0.2 * np.outer(p, p) + 0.8 * np.diag(p)).ravel()
    rng = np.random.default_rng(11)
    hits = 0
    draws = 1500
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        for counts in rng.multinomial(plan.n_units, cells, size=draws):
            res = accord.cohen_kappa(accord.ContingencyTable(counts.reshape(2, 2)))
            hits += res.defined and res.confidence_interval(0.95).low >= 0.6
    assert hits / draws == pytest.approx(0.8, abs=0.04)


def test_bad_plans() -> None:
    with pytest.raises(InvalidParameterError, match="one of prevalence"):
        accord.plan_power(0.6, 0.4)
    with pytest.raises(InvalidParameterError, match="'null' parameter of plan_power"):
        accord.plan_power(0.6, 0.6, prevalence=0.3)
    with pytest.raises(InvalidParameterError, match="'threshold' parameter"):
        accord.plan_lower_limit(0.5, 0.6, prevalence=0.3)
    with pytest.raises(InvalidParameterError, match="'power' parameter"):
        accord.plan_power(0.6, 0.4, prevalence=0.3, power=1.0)
    with pytest.raises(InvalidParameterError, match="'rater_rates' parameter"):
        accord.plan_power(0.6, 0.4, rater_rates=(0.2, 1.2))


def test_plan_to_dict_and_str() -> None:
    plan = accord.plan_power(0.6, 0.4, prevalence=[0.2, 0.25, 0.55])
    out = json.loads(json.dumps(plan.to_dict()))
    assert out["n_units"] == 101 and out["method"] == "flack_1988"
    assert "101 units to reject kappa = 0.4" in str(plan)
    assert math.isfinite(out["details"]["tau_null"])


# --------------------------------------------------------------------------- CLI
def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_cli_plan_goals() -> None:
    code, out, err = run("plan", "--expected", "0.8", "--prevalence", "0.3", "--lower-limit",
                         "0.6")
    assert code == 0, err
    assert "100 units" in out and "lower 95% limit clears 0.6" in out
    code, out, err = run("plan", "--expected", "0.6", "--null", "0.4", "--prevalence", "0.2",
                         "0.25", "0.55", "--json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["n_units"] == 101
    code, out, err = run("plan", "--expected", "0.6", "--prevalence", "0.3", "--width", "0.2")
    assert code == 0 and "296 units" in out
    code, out, err = run("plan", "--expected", "0.7", "--null", "0.85", "--rater-rates", "0.5",
                         "0.5")
    assert code == 0 and out.startswith("cohen_kappa: 96 units")


def test_cli_plan_bad_usage_exits_2() -> None:
    code, _, err = run("plan", "--expected", "0.6", "--prevalence", "0.3")
    assert code == 2 and "exactly one goal" in err
    code, _, err = run("plan", "--expected", "0.6", "--prevalence", "1.3", "--width", "0.2")
    assert code == 2 and "prevalence" in err
