"""Counts -> figures: each figure a statistic of per image counts summed over images.

Every function here takes the (images x features) block of one figure and returns
an :class:`~accord.inference.results.AgreementResult` whose resampling draws images
with replacement and sums their rows (never matching again).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.inference.resampling import FloatArray, Resampling, pattern_index
from accord.inference.results import AgreementResult

Stat = Callable[[FloatArray], FloatArray]

#: Below this many images the bootstrap's intervals are noted as not to be trusted. The
#: percentile interval is too narrow in small samples (by about ``sqrt((n - 1) / n)``
#: and more for skewed statistics; Hesterberg 2015, "What teachers should know about
#: the bootstrap", *The American Statistician* 69(4), sec. 3-4), and 30 is the size
#: below which accord already leaves large-sample approximations (``MIN_UNITS_T`` of
#: the judge's alt-test, after Calderon et al. 2025).
MIN_BOOTSTRAP_IMAGES = 30


def few_images(audit: dict[str, Any]) -> dict[str, Any]:
    """``audit`` (with ``images``) and, below :data:`MIN_BOOTSTRAP_IMAGES` images, the note
    that the bootstrap's intervals are too rough to trust."""
    n = int(audit["images"])
    if n >= MIN_BOOTSTRAP_IMAGES:
        return audit
    note = (f"note: the intervals come from a bootstrap over {n} image{'s' * (n != 1)}, "
            f"fewer than {MIN_BOOTSTRAP_IMAGES}: too few for them to be trusted (a "
            "bootstrap interval over so few comes out too narrow); read them as rough, or "
            "annotate more images")
    return {**audit, note: None}


def _finite_mean(x: FloatArray) -> FloatArray:
    ok = np.isfinite(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(ok, x, 0.0).sum(axis=-1) / ok.sum(axis=-1), dtype=np.float64)


def f1_stat(n_pairs: int) -> Stat:
    """Mean over pairs (where defined) of ``2 M_p / N_p``; columns ``M_1..M_P, N_1..N_P``."""

    def stat(s: FloatArray) -> FloatArray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return _finite_mean(2.0 * s[:, :n_pairs] / s[:, n_pairs:])

    return stat


def ratio_stat(s: FloatArray) -> FloatArray:
    """``S / M``: the mean IoU of the matched pairs; columns ``S, M``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(s[:, 0] / s[:, 1], dtype=np.float64)


def alpha_stat(n_cat: int) -> Stat:
    """Nominal alpha from a flattened coincidence matrix (Krippendorff 2019, eq. 12.3).

    ``alpha = 1 - (n - 1) (n - sum_c o_cc) / (n^2 - sum_c n_c^2)``.
    """

    def stat(s: FloatArray) -> FloatArray:
        o = s.reshape(-1, n_cat, n_cat)
        n_c = o.sum(axis=2)
        n = n_c.sum(axis=1)
        d_o = n - np.trace(o, axis1=1, axis2=2)
        d_e = n**2 - (n_c**2).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(
                np.where(d_e > 0, 1.0 - (n - 1.0) * d_o / d_e, np.nan), dtype=np.float64
            )

    return stat


def alpha_margins(o: FloatArray) -> FloatArray:
    """Per image coincidences ``(U, C, C)`` -> ``(U, C + 1)``: the margins ``n_c`` and the
    trace, all that :func:`alpha_margin_stat` needs (``C + 1`` columns, not ``C^2``)."""
    return np.concatenate([o.sum(axis=2), np.trace(o, axis1=1, axis2=2)[:, None]], axis=1)


def alpha_margin_stat(s: FloatArray) -> FloatArray:
    """Nominal alpha from summed :func:`alpha_margins`: as :func:`alpha_stat`, with
    ``n = sum_c n_c``, ``D_o ~ n - sum_c o_cc`` and ``D_e ~ n^2 - sum_c n_c^2``."""
    n_c, trace = s[:, :-1], s[:, -1]
    n = n_c.sum(axis=1)
    d_o = n - trace
    d_e = n**2 - (n_c**2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(d_e > 0, 1.0 - (n - 1.0) * d_o / d_e, np.nan),
                          dtype=np.float64)  # fmt: skip


def alpha_terms(summed: FloatArray, n_cat: int) -> tuple[float, float]:
    """D_o and D_e (nominal) of a summed, flattened coincidence matrix; ``nan`` if empty.

    ``D_o = sum_{c != k} o_ck / n``, ``D_e = sum_{c != k} n_c n_k / (n (n - 1))``.
    """
    o = summed.reshape(n_cat, n_cat)
    n_c = o.sum(axis=1)
    n = float(n_c.sum())
    if n < 2:
        return math.nan, math.nan
    return (n - float(np.trace(o))) / n, (n**2 - float((n_c**2).sum())) / (n * (n - 1.0))


def figure(
    name: str,
    x: FloatArray,
    stat: Stat,
    *,
    images: tuple[Any, ...],
    n_raters: int,
    what: str,
    why_undefined: str,
    details: dict[str, Any],
    bounds: tuple[float, float] = (0.0, 1.0),
    warn: bool = True,
    by_image: tuple[FloatArray, Stat] | None = None,
) -> AgreementResult:
    """One figure: ``stat`` of the column sums of ``x`` (one row per image).

    ``by_image``: the features and statistic to resample instead (the same figure from
    fewer columns), each image its own pattern in image order, so that every figure of
    a result resamples the same images from the same draw (:mod:`accord.images._joint`).
    """
    est = float(stat(x.sum(axis=0)[None, :])[0]) if x.shape[1] else math.nan
    reason = None if math.isfinite(est) else why_undefined
    if reason is not None and warn:
        v.warn_undefined(what, reason)

    def resampling() -> Resampling:
        if by_image is not None:
            n = by_image[0].shape[0]
            return Resampling(by_image[0], np.ones(n, dtype=np.int64), by_image[1],
                              np.arange(n, dtype=np.int64), images)  # fmt: skip
        patterns, counts, inverse = pattern_index(x)
        return Resampling(np.asarray(patterns, dtype=np.float64), counts, stat, inverse, images)

    return AgreementResult(
        coefficient=name, estimate=est, observed=math.nan, expected=math.nan, se=math.nan,
        n_units=int(x.shape[0]), n_raters=n_raters, undefined_reason=reason,
        details=details, bounds=bounds, resampling=resampling,
    )  # fmt: skip
