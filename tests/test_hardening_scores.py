"""Score coefficients and the judge test on degenerate input: undefined stays undefined.

Oracles: R irr 0.84.1 (``meancor``, ``meanrho``, ``iota``) as documented there; exact
rational arithmetic (``fractions``) for the alternative annotator test's ties.
"""

from __future__ import annotations

import numpy as np
import pytest

import accord
from accord.errors import DegenerateDataWarning


# R irr 0.84.1 meancor: a constant rater makes cor() NA and the mean NA.
@pytest.mark.parametrize("average", ["fisher", "mean"])
@pytest.mark.parametrize("func", [accord.mean_pearson, accord.mean_spearman])
def test_mean_correlation_with_a_constant_rater_is_undefined(func: object,
                                                             average: str) -> None:
    data = [[3, 3], [4, 3], [5, 3], [1, 3], [1, 3]]
    with pytest.warns(DegenerateDataWarning, match="same score"):
        res = func(data, average=average)  # type: ignore[operator]
    assert np.isnan(res.estimate) and "same score" in res.undefined_reason


def test_iota_standardising_a_constant_variable_is_undefined() -> None:
    # R irr 0.84.1: iota(list(weight, const), scaledata="quantitative", standardize=TRUE)
    # is NaN (scale() divides by sd 0).
    weight = [[71, 74, 76], [73, 80, 80], [86, 101, 93], [59, 62, 66], [71, 83, 77]]
    const = [[5, 5, 5]] * 5
    with pytest.warns(DegenerateDataWarning, match="variable 2 has the same score"):
        res = accord.janson_olsson_iota(weight, const, level="interval", standardize=True)
    assert np.isnan(res.estimate)
    plain = accord.janson_olsson_iota(weight, const, level="interval")
    assert np.isfinite(plain.estimate)  # unstandardised, a constant variable is just data


def _exact_advantage(data: dict[str, list[float]], humans: list[str]) -> dict[str, float]:
    """rho_h of Calderon et al. (2025) with abs_error scoring, in exact rationals."""
    from fractions import Fraction

    out = {}
    for h in humans:
        others = [k for k in humans if k != h]
        wins = 0
        for i, judge in enumerate(data["judge"]):
            j, y = Fraction(str(judge)), Fraction(str(data[h][i]))
            s_j = -sum(abs(j - Fraction(str(data[k][i]))) for k in others)
            s_h = -sum(abs(y - Fraction(str(data[k][i]))) for k in others)
            wins += s_j >= s_h
        out[h] = wins / len(data["judge"])
    return out


def test_alt_test_decides_exact_ties_as_exact_arithmetic_does() -> None:
    rng = np.random.default_rng(0)  # nine humans, one-decimal scores: a tie rounding broke
    humans = [f"h{i}" for i in range(9)]
    data = {h: [round(float(x), 1) for x in rng.integers(0, 10, 6) / 10] for h in humans}
    data["judge"] = [round(float(x), 1) for x in rng.integers(0, 10, 6) / 10]
    with pytest.warns(UserWarning, match="30"):
        res = accord.alt_test(data, judge="judge", humans=humans, scoring="abs_error",
                              epsilon=0.1)
    for h, rho in _exact_advantage(data, humans).items():
        assert res.per_human[h].advantage_probability == pytest.approx(rho, abs=1e-15)
