"""Codes of float arrays with NaN (labels stored as floats): the table-of-values path
codes in place, and must give the codes and labels of the sorting path
(:func:`accord.data._encoding.factorize` on the rated cells)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.coefficients._many_data import _numeric_array_codes, _whole_number_codes
from accord.data import _encoding as enc


def _sorting_path(x: np.ndarray) -> tuple[np.ndarray, tuple[float, ...]]:
    rated = ~np.isnan(x)
    codes = np.full(x.shape, -1, dtype=np.int64)
    inner, cats = enc.factorize(x[rated])
    codes[rated] = inner
    return codes, tuple(cats)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), lo=st.sampled_from([-7.0, -0.0, 0.0, 3.0, 40_000.0]),
       span=st.sampled_from([1, 2, 5, 300]), missing=st.sampled_from([0.05, 0.5, 0.9]))
def test_nan_grid_codes_equal_the_sorting_path(seed: int, lo: float, span: int,
                                              missing: float) -> None:
    rng = np.random.default_rng(seed)
    x = lo + rng.integers(0, span, (50, 4)).astype(np.float64)  # some values absent
    x[rng.random(x.shape) < missing] = np.nan
    if np.isnan(x).all():
        return
    got = _whole_number_codes(x)
    assert got is not None
    codes, cats = _sorting_path(x)
    assert np.array_equal(got[0], codes) and got[1] == cats
    assert all(type(c) is float and str(c) != "-0.0" for c in got[1])


def test_non_whole_or_huge_values_fall_back_to_sorting() -> None:
    for x in (np.array([[0.5, np.nan], [1.0, 2.0]]), np.array([[2.0**60, np.nan], [2.0**60, 1.0]]),
              np.array([[0.0, np.nan], [1e9, 1.0]])):
        assert _whole_number_codes(x) is None
        rc = _numeric_array_codes(x, None)
        assert rc is not None
        codes, cats = _sorting_path(x)
        assert np.array_equal(rc.codes, codes) and rc.categories == cats


def test_units_nobody_rated_are_dropped_with_their_ids() -> None:
    x = np.array([[1.0, 2.0], [np.nan, np.nan], [2.0, np.nan], [np.nan, np.nan], [3.0, 1.0]])
    rc = _numeric_array_codes(x, None)
    assert rc is not None and rc.unit_ids == (0, 2, 4)
    assert rc.codes.tolist() == [[0, 1], [1, -1], [2, 0]]
    assert accord.fleiss_kappa(x).estimate == pytest.approx(
        accord.fleiss_kappa(x[[0, 2, 4]]).estimate, abs=1e-15)
