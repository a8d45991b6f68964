"""plan_sample_size: units for a target interval width.

Sources: Bloch & Kraemer (1989, Biometrics 45, eq. for the variance of the 2 x 2
intraclass kappa), ``V = (1 - k) [(1 - k)(1 - 2k) + k (2 - k) / (2 pi (1 - pi))]``,
which the Fleiss, Cohen & Everitt (1969) variance reduces to for two raters
with equal marginals; and Monte-Carlo: at the planned n, multinomial tables
drawn from the anticipated cell probabilities give kappas whose spread
``2 z sd`` is the target width.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import accord
from accord.errors import InvalidParameterError
from accord.study.planning import _simulated_n, _simulator


def _bloch_kraemer(k: float, pi: float) -> float:
    return (1 - k) * ((1 - k) * (1 - 2 * k) + k * (2 - k) / (2 * pi * (1 - pi)))


def _simulated_kappa_sd(n: int, kappa: float, p: np.ndarray, reps: int, seed: int) -> float:
    """SD of Cohen's kappa over multinomial tables of n units (vectorised, no accord)."""
    cells = ((1 - kappa) * np.outer(p, p) + kappa * np.diag(p)).ravel()
    k = p.shape[0]
    tables = np.random.default_rng(seed).multinomial(n, cells, size=reps).reshape(reps, k, k) / n
    po = np.trace(tables, axis1=1, axis2=2)
    pe = np.einsum("bi,bi->b", tables.sum(axis=2), tables.sum(axis=1))
    return float(np.std((po - pe) / (1 - pe), ddof=1))


@pytest.mark.parametrize("kappa", [0.0, 0.2, 0.4, 0.6, 0.8, 0.95])
@pytest.mark.parametrize("pi", [0.1, 0.3, 0.5])
def test_binary_variance_is_bloch_kraemer(kappa: float, pi: float) -> None:
    plan = accord.plan_sample_size(expected=kappa, ci_width=0.2, prevalence=pi)
    assert plan.method == "formula"
    var = _bloch_kraemer(kappa, pi)
    assert plan.details["variance_per_unit"] == pytest.approx(var, rel=1e-10)
    z = 1.959963984540054
    assert plan.n_units == math.ceil(var * (2 * z / 0.2) ** 2 - 1e-9)


@pytest.mark.parametrize(
    ("kappa", "prevalence", "width"),
    [(0.6, 0.3, 0.2), (0.4, [0.5, 0.3, 0.2], 0.15), (0.8, 0.1, 0.25)],
)
def test_planned_n_gives_the_target_width_by_monte_carlo(
    kappa: float, prevalence: float | list[float], width: float
) -> None:
    plan = accord.plan_sample_size(expected=kappa, ci_width=width, prevalence=prevalence,
                                   n_categories=3 if isinstance(prevalence, list) else 2)
    p = np.array(plan.details["prevalence"])
    reps = 20_000
    sd = _simulated_kappa_sd(plan.n_units, kappa, p, reps, seed=1)
    # the sd of 20,000 draws is within 4 * sd / sqrt(2 * reps) = 2% (+ O(1/n) bias of kappa)
    assert 2 * plan.details["z"] * sd == pytest.approx(width, rel=0.04)


def test_simulation_agrees_with_the_formula_for_cohen_kappa() -> None:
    formula = accord.plan_sample_size(expected=0.6, ci_width=0.2, prevalence=0.3)
    simulate = _simulator("cohen_kappa", 0.6, np.array([0.3, 0.7]), 2, "t")
    n, info = _simulated_n(simulate, formula.details["z"], 0.2, 400, np.random.default_rng(0))
    # sd from 400 data sets: relative error ~ 1/sqrt(800) = 3.5 %, so n within ~15 %
    assert n == pytest.approx(formula.n_units, rel=0.15)
    assert info["n_undefined"] == 0


def test_simulation_is_seeded_and_reported() -> None:
    args = {"expected": 0.5, "ci_width": 0.2, "n_raters": 3, "n_categories": 3}
    plan = accord.plan_sample_size("gwet_ac1", n_simulations=100, rng=4, **args)
    again = accord.plan_sample_size("gwet_ac1", n_simulations=100, rng=4, **args)
    assert plan == again and plan.method == "simulation" and plan.details["seed"] == 4
    assert "Kraemer" in plan.citation and plan.to_dict()["n_units"] == plan.n_units
    assert str(plan).startswith("gwet_ac1: ")


def test_fleiss_kappa_by_simulation_gives_the_target_width() -> None:
    if "fleiss_kappa" not in accord.REGISTRY:
        pytest.skip("fleiss_kappa is not in this tree yet")
    plan = accord.plan_sample_size("fleiss_kappa", expected=0.5, ci_width=0.2, n_raters=4,
                                   n_categories=3, n_simulations=200, rng=1)
    simulate = _simulator("fleiss_kappa", 0.5, np.full(3, 1 / 3), 4, "t")
    rng = np.random.default_rng(2)
    values = np.array([simulate(plan.n_units, rng) for _ in range(400)])
    # sd from 400 data sets has ~3.5 % relative error; the plan's from 200, ~5 %
    assert 2 * plan.details["z"] * values.std(ddof=1) == pytest.approx(0.2, rel=0.2)


@pytest.mark.parametrize(
    ("kwargs", "param"),
    [({"expected": 1.0, "ci_width": 0.2}, "expected"),
     ({"expected": 0.5, "ci_width": 0.0}, "ci_width"),
     ({"expected": 0.5, "ci_width": 0.2, "prevalence": 1.2}, "prevalence"),
     ({"expected": 0.5, "ci_width": 0.2, "prevalence": [0.5, 0.6]}, "prevalence"),
     ({"expected": 0.5, "ci_width": 0.2, "n_raters": 1}, "n_raters"),
     ({"expected": 0.5, "ci_width": 0.2, "confidence_level": 1.5}, "confidence_level"),
     ({"expected": -0.9, "ci_width": 0.2, "prevalence": 0.2}, "expected"),
     ({"expected": 0.5, "ci_width": 0.2, "n_raters": 3, "coefficient": "scott_pi"}, "n_raters"),
     ({"expected": 0.5, "ci_width": 0.2, "coefficient": "no_such"}, "coefficient")],
)
def test_bad_arguments_name_the_parameter(kwargs: dict[str, object], param: str) -> None:
    with pytest.raises(InvalidParameterError, match=f"'{param}' parameter of plan_sample_size"):
        accord.plan_sample_size(**kwargs)  # type: ignore[arg-type]


def test_lowest_reachable_kappa_is_named() -> None:
    with pytest.raises(InvalidParameterError, match="at least -0.25"):
        accord.plan_sample_size(expected=-0.3, ci_width=0.2, prevalence=0.2)


@pytest.mark.parametrize(("name", "raters"), [("krippendorff_alpha", 3), ("icc", 3)])
def test_other_families_are_planned_by_simulation(name: str, raters: int) -> None:
    if name not in accord.REGISTRY:
        pytest.skip(f"{name} is not in this tree yet")
    plan = accord.plan_sample_size(name, expected=0.6, ci_width=0.2, n_raters=raters,
                                   n_categories=3, n_simulations=150, rng=3)
    assert plan.method == "simulation" and plan.n_units > 10
    simulate = _simulator(name, 0.6, np.full(3, 1 / 3), raters, "t")
    rng = np.random.default_rng(5)
    values = np.array([simulate(plan.n_units, rng) for _ in range(300)])
    # sd from 300 data sets (~4 % error) against the plan's from 150 (~6 %)
    assert 2 * plan.details["z"] * values.std(ddof=1) == pytest.approx(0.2, rel=0.25)
    assert abs(values.mean() - 0.6) < 0.05  # the simulated population value
