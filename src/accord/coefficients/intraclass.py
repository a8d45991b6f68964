"""Intraclass correlations: the six forms of Shrout & Fleiss (1979) and McGraw & Wong (1996).

With ``MSR`` (targets), ``MSC`` (raters), ``MSE`` (error) and ``MSW`` (within
targets) from :mod:`accord.tables.rating_matrix`, ``n`` targets and ``k`` raters:

=======  ========  =====================================================
form     M & W     single-rater estimate (complete design)
=======  ========  =====================================================
ICC1     ICC(1,1)  (MSR - MSW) / (MSR + (k - 1) MSW)       one-way random
ICC2     ICC(A,1)  (MSR - MSE) / (MSR + (k - 1) MSE + k (MSC - MSE) / n)
ICC3     ICC(C,1)  (MSR - MSE) / (MSR + (k - 1) MSE)       consistency
=======  ========  =====================================================

The ``k`` forms (ICC1k, ICC2k, ICC3k = ICC(1,k), ICC(A,k), ICC(C,k)) are the
reliability of the mean of the k raters, the Spearman-Brown step-up
``k rho / (1 + (k - 1) rho)`` of the single form (for complete designs this is
exactly ``(MSR - MSW) / MSR`` etc.).

Registry: one entry, ``"icc"``, with the form as an option (``form=``; the CLI's
``--form``), so every coefficient name in :data:`~accord.REGISTRY` is a function and
the form travels in ``details["form"]`` (and ``details["mcgraw_wong"]``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._registry import register
from accord.data import _validation as v
from accord.data._frames import check_numeric_array
from accord.data.annotations import Annotations
from accord.errors import DataError, InvalidParameterError
from accord.inference._distributions import f_ppf, f_sf
from accord.inference.resampling import Resampling
from accord.inference.results import AgreementResult
from accord.tables._henderson import DISCONNECTED
from accord.tables.rating_matrix import (
    Design,
    MeanSquares,
    RatingMatrix,
    mean_squares,
    one_way_mean_squares,
    require_design,
)

__all__ = ["FORMS", "icc"]

FloatArray = NDArray[np.float64]
_FUNC = "icc"
FEATURE_BUDGET = 2**27  # per-unit feature numbers a bootstrap may hold (1 GiB)


@dataclass(frozen=True)
class Form:
    """One ICC form: its Shrout-Fleiss and McGraw-Wong names, model and unit."""

    name: str
    mcgraw_wong: str
    model: str  # "one_way" | "agreement" | "consistency"
    average: bool


FORMS: dict[str, Form] = {f.name: f for f in (
    Form("ICC1", "ICC(1,1)", "one_way", False),
    Form("ICC2", "ICC(A,1)", "agreement", False),
    Form("ICC3", "ICC(C,1)", "consistency", False),
    Form("ICC1k", "ICC(1,k)", "one_way", True),
    Form("ICC2k", "ICC(A,k)", "agreement", True),
    Form("ICC3k", "ICC(C,k)", "consistency", True),
)}
_NAMES = {key.upper(): f for f in FORMS.values() for key in (f.name, f.mcgraw_wong)}


def form_of(form: Any) -> Form:
    """The :class:`Form` named by ``form`` ("ICC2", "ICC(A,1)", case-insensitive)."""
    key = str(form).replace(" ", "").upper() if isinstance(form, str) else None
    if key is None or key not in _NAMES:
        names = [f.name for f in FORMS.values()] + [f.mcgraw_wong for f in FORMS.values()]
        v.choice(form, names, param="form", func=_FUNC)
    return _NAMES[str(key)]


@register("icc", title="Intraclass correlation (ICC)", family="intraclass", raters="many",
          chance_corrected=False, bounds=(-math.inf, 1.0), levels=("interval", "ratio"),
          citation="Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in "
          "assessing rater reliability. Psychological Bulletin 86(2), 420-428; McGraw, K. O. & "
          "Wong, S. P. (1996). Forming inferences about some intraclass correlation "
          "coefficients. Psychological Methods 1(1), 30-46.")
def icc(data: Any, /, *, form: str = "ICC2") -> AgreementResult:
    """An intraclass correlation of numeric ratings, in any of the six forms.

    Parameters
    ----------
    data : units x raters numbers, Annotations or RatingMatrix
        ``None``/``NaN`` = not rated.
    form : str
        ``"ICC1"``, ``"ICC2"``, ``"ICC3"``, ``"ICC1k"``, ``"ICC2k"``, ``"ICC3k"``
        (Shrout & Fleiss 1979) or ``"ICC(1,1)"``, ``"ICC(A,1)"``, ``"ICC(C,1)"``,
        ``"ICC(1,k)"``, ``"ICC(A,k)"``, ``"ICC(C,k)"`` (McGraw & Wong 1996).

    Returns
    -------
    AgreementResult
        ``coefficient`` is ``"icc"``; ``details`` has ``form``, ``mcgraw_wong``,
        ``F``, ``df1``, ``df2``, ``pvalue`` (H0: ICC = 0), the mean squares
        (``ms_rows``, ``ms_cols``, ``ms_error``, ``ms_within``), ``design``,
        ``ci_method``, on incomplete designs of the two-way forms ``solver`` (how
        the rater effects were solved) and, for the agreement forms, R irr's
        differing figures (``irr_df2``, ``irr_pvalue``; for ICC(A,k) also
        ``irr_interval``, its 95% interval).
        ``confidence_interval(level)`` is the F-based interval (Shrout & Fleiss
        1979; McGraw & Wong 1996, Satterthwaite df for the agreement forms), with
        the average forms as the Spearman-Brown step-up of the single-form limits,
        as in R's psych. ``observed``, ``expected`` and ``se`` are ``nan``.

    Notes
    -----
    The figure accord reproduces is ``psych::ICC(x, lmer = FALSE)``: the ANOVA
    estimates and F intervals of Shrout & Fleiss (1979) and McGraw & Wong (1996).
    psych's default (``lmer = TRUE``) estimates the variance components by lme4's REML
    and truncates negative components at 0, which can give other values; ``irr::icc``
    and pingouin's ``intraclass_corr`` give the same estimates on complete data.
    Where psych and irr differ, accord follows psych: the agreement F test uses
    ``F = MSR / MSE`` on ``(n - 1, (n - 1)(k - 1))`` degrees of freedom (irr 0.84.1
    uses the Satterthwaite df of the interval), and the ICC(A,k) interval is the
    step-up of the ICC(A,1) limits (irr has its own formula).

    Incomplete designs (not every rater scores every unit) are analysed with all
    available scores, not listwise deletion (which psych, irr and pingouin do):
    ICC1 by the one-way ANOVA with unequal group sizes (mean group size ``n0``);
    ICC2 and ICC3 by Henderson's Method III variance components (the type II sums of
    squares of the additive two-way model), ``rho = s2_t / (s2_t + s2_r + s2_e)`` and
    ``s2_t / (s2_t + s2_e)``; their F intervals use the matching coefficients of the
    expected mean squares in place of ``k`` and ``n``. Units with fewer than two
    scores are left out (``details["n_units_dropped"]``); the k forms use the
    number of raters (as psych does), which on a sparse design is a mean no unit
    had: they give ``details["ratings_per_unit"]`` and, when that is below 80 % of
    the raters, a ``details["note"]`` with the step-up to the mean ratings per unit.

    Undefined: when every score is the same (all mean squares 0) the estimate is
    ``nan`` with a reason and a :class:`~accord.DegenerateDataWarning`; R's psych
    and irr return ``NaN`` from 0/0 without a reason, and pingouin (0.7.0) ``nan``.

    Several forms of the same data share one ANOVA when given one
    :class:`~accord.RatingMatrix` (``rm = accord.RatingMatrix(x)``, then ``icc(rm, form=...)``).

    Scale: from :class:`~accord.Annotations` the scores stay long arrays and every sum
    is taken in ``O(ratings)``, never a units x raters matrix, so a crowd of thousands
    of raters costs memory in proportion to its ratings. On incomplete designs the
    rater reduction ``C b = q`` is solved directly up to 200 raters and by
    conjugate gradients beyond, forming ``C`` when they converge slowly
    (``details["solver"]``; see :mod:`accord.tables._henderson`). The F intervals
    need nothing more. A bootstrap
    or jackknife of the two-way forms resamples ``6 + k`` (complete) or
    ``6 + 3k + k^2`` (incomplete) numbers per unit and is refused, with that
    reason, beyond ``2**27`` numbers in all; ICC1 and ICC1k resample six per unit.

    Examples
    --------
    Shrout & Fleiss (1979), Table 2: ICC(2,1) = 0.29, ICC(3,1) = 0.71.

    >>> import accord
    >>> data = accord.datasets.load("shrout_fleiss_1979").data
    >>> res = accord.icc(data, form="ICC2")
    >>> round(res.estimate, 4), round(res.details["F"], 2), res.details["df2"]
    (0.2898, 11.03, 15.0)
    >>> ci = res.confidence_interval(0.95)
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.019, 0.761)
    >>> round(accord.icc(data, form="ICC(C,1)").estimate, 4)
    0.7148
    """
    chosen = form_of(form)
    full = _ratings(data)
    design = full.design()  # cached on the RatingMatrix: several forms share one pass
    require_design(design)
    k = design.n_raters
    complete = design.complete
    ms = design.mean_squares
    if chosen.model != "one_way" and not np.isfinite(ms.ms_cols[0]):
        reason = design.sums.why or DISCONNECTED
        hint = "; use form='ICC1' or 'ICC1k'" if reason == DISCONNECTED else ""
        raise DataError(f"{reason}{hint}.")
    est = float(_estimate(ms, chosen, k)[0])
    why = _undefined_reason(ms, est, chosen)
    if why:
        v.warn_undefined(_FUNC, why)
        est = math.nan
    details = _details(ms, chosen, k, est, complete, design.dropped)
    if chosen.average and not complete:
        details.update(_average_note(design, chosen, k, est))
    if not complete and chosen.model != "one_way":
        details["solver"] = design.sums.solver
    if design.scale != 1.0:
        details["ratings_scaled_by"] = design.scale  # the mean squares are of the scaled ratings
    interval = None if why else partial(_interval, ms=ms, form=chosen, k=k, est=est)
    return AgreementResult(
        coefficient=_FUNC, estimate=est, observed=math.nan, expected=math.nan, se=math.nan,
        n_units=design.n_units, n_raters=k, undefined_reason=why, details=details,
        bounds=(-math.inf, 1.0), resampling=_resampler(design, chosen, full.units),
        analytic_interval=interval,
    )


def _ratings(data: Any) -> RatingMatrix:
    if isinstance(data, RatingMatrix):
        return data
    if isinstance(data, Annotations):
        return RatingMatrix.from_annotations(data)
    if isinstance(data, np.ndarray) and data.dtype.kind in "iuf":
        check_numeric_array(data, "icc")
        return RatingMatrix(data)
    summary = type(data).__name__
    if summary in {"ContingencyTable", "RaterCounts", "CoincidenceMatrix"}:
        raise DataError(
            f"icc needs each unit's scores by rater (a units x raters table, Annotations or "
            f"RatingMatrix); a {summary} does not keep them."
        )
    return RatingMatrix.from_annotations(Annotations.from_wide(data, level="interval"))


# --------------------------------------------------------------------- estimates
def _parts(ms: MeanSquares, model: str) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Numerator, denominator and the denominator's scale of the single-rater ICC."""
    terms: tuple[FloatArray, ...]
    if model == "one_way":
        num = ms.ms_between - ms.ms_within
        terms = (ms.ms_between, (ms.n0 - 1.0) * ms.ms_within)
    elif model == "consistency":
        num = ms.ms_rows - ms.ms_error
        terms = (ms.ms_rows, (ms.k_rows - 1.0) * ms.ms_error)
    else:
        ratio = ms.k_rows / ms.k_cols
        num = ms.ms_rows - ms.ms_error
        terms = (ms.ms_rows, (ms.k_rows - 1.0) * ms.ms_error, ratio * ms.ms_cols,
                 -ratio * ms.ms_error)
    den = np.sum(terms, axis=0)
    scale = np.sum(np.abs(terms), axis=0)
    return (np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64),
            np.asarray(scale, dtype=np.float64))


def _single(ms: MeanSquares, model: str) -> FloatArray:
    """The single-rater ICC of ``model`` for each row of mean squares.

    nan when its denominator (the estimated variance of one score) is 0 within rounding
    (relative 1e-12 of its terms): 0/0, or a negative numerator over 0, which the dense
    and the long algebra would otherwise give as -inf or nan depending on rounding.
    """
    num, den, scale = _parts(ms, model)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(np.abs(den) > 1e-12 * scale, num / den, np.nan)
    return np.asarray(out, dtype=np.float64)


def step_up(rho: FloatArray | float, k: int) -> FloatArray:
    """Spearman-Brown: the reliability of the mean of ``k`` raters, nan if not positive.

    A denominator ``1 + (k - 1) rho`` within rounding of 0 (relative 1e-12) counts as 0:
    otherwise a design whose exact denominator is 0 returns about -1e15, or nan,
    depending on the order of the units.
    """
    r = np.asarray(rho, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = (k - 1.0) * r
        den = 1.0 + spread
        out = np.where(den > 1e-12 * (1.0 + np.abs(spread)), k * r / den, np.nan)
    return np.asarray(np.where(np.isposinf(r), 1.0, out), dtype=np.float64)


def _estimate(ms: MeanSquares, form: Form, k: int) -> FloatArray:
    rho = _single(ms, form.model)
    return step_up(rho, k) if form.average else rho


def _undefined_reason(ms: MeanSquares, est: float, form: Form) -> str | None:
    if math.isfinite(est):
        return None
    total = float(ms.ms_between[0] * ms.df_rows[0] + ms.ms_within[0] * ms.df_within[0])
    if total == 0:
        return "every score is the same, so every mean square is 0 and the ICC is 0/0"
    if not math.isfinite(float(_single(ms, form.model)[0])):
        num = float(_parts(ms, form.model)[0][0])
        if num == 0:
            return ("the targets do not differ and the scores hold no residual error (each "
                    "rater only adds a constant), so the ICC is 0/0")
        return ("the estimated variance of a single score (the ICC's denominator) is 0 while "
                "the targets vary less than the residual error, so the ICC is undefined")
    return ("the estimated variance of the mean of the raters' scores is not positive, so the "
            "average-measure ICC is undefined")


# --------------------------------------------------------------------- inference
def _f_test(ms: MeanSquares, form: Form) -> tuple[float, float, float]:
    if form.model == "one_way":
        num, den, df2 = ms.ms_between[0], ms.ms_within[0], ms.df_within[0]
    else:
        num, den, df2 = ms.ms_rows[0], ms.ms_error[0], ms.df_error[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        f = float(num / den) if den > 0 else (math.inf if num > 0 else math.nan)
    return f, float(ms.df_rows[0]), float(df2)


def _bound(f: float, kk: float) -> float:
    """rho from an F bound: (F - 1) / (F - 1 + kk); 1 when F is infinite."""
    if math.isinf(f):
        return 1.0
    return (f - 1.0) / (f - 1.0 + kk)


def _interval(level: float, *, ms: MeanSquares, form: Form, k: int,
              est: float) -> tuple[float, float]:
    """The F-based interval of Shrout & Fleiss (1979) / McGraw & Wong (1996)."""
    q = 0.5 + level / 2.0
    f, df1, df2 = _f_test(ms, form)
    if form.model == "agreement":
        rho = est if not form.average else float(_single(ms, "agreement")[0])
        low, high = _agreement_limits(ms, rho, q)
    else:
        kk = float(ms.n0[0] if form.model == "one_way" else ms.k_rows[0])
        low = _bound(f / f_ppf(q, df1, df2), kk)
        high = _bound(f * f_ppf(q, df2, df1), kk)
    if form.average:
        low, high = float(step_up(low, k)), float(step_up(high, k))
    return low, high


def _agreement_limits(ms: MeanSquares, rho: float, q: float) -> tuple[float, float]:
    """Satterthwaite limits for ICC(A,1) (McGraw & Wong 1996, Table 7; psych's ICC)."""
    if rho >= 1.0:  # no rater or error variance (MSC = MSE = 0): 1, as _bound gives for F = inf
        return 1.0, 1.0
    r, c, e = float(ms.ms_rows[0]), float(ms.ms_cols[0]), float(ms.ms_error[0])
    kr, kc = float(ms.k_rows[0]), float(ms.k_cols[0])
    v_df = _satterthwaite(ms, rho)
    f_low = f_ppf(q, ms.df_rows[0], v_df)
    f_high = f_ppf(q, v_df, ms.df_rows[0])
    scale = c / kc + e * (1.0 - 1.0 / kc)
    with np.errstate(divide="ignore", invalid="ignore"):
        c_low = (r - f_low * e) / (f_low * scale)
        c_high = (f_high * r - e) / scale
    return _from_ratio(c_low, kr), _from_ratio(c_high, kr)


def _from_ratio(c0: float, kr: float) -> float:
    """rho = c0 / (kr + c0) where c0 = kr s2_t / (s2_r + s2_e); 1 when c0 is infinite."""
    return 1.0 if math.isinf(c0) and c0 > 0 else float(c0 / (kr + c0))


def _satterthwaite(ms: MeanSquares, rho: float) -> float:
    """df of a MSC + b MSE with a = c0 / kc, b = 1 + c0 - c0 / kc, c0 = kr rho / (1 - rho)."""
    c, e = float(ms.ms_cols[0]), float(ms.ms_error[0])
    kr, kc = float(ms.k_rows[0]), float(ms.k_cols[0])
    c0 = kr * rho / (1.0 - rho)
    a, b = c0 / kc, 1.0 + c0 - c0 / kc
    den = (a * c) ** 2 / ms.df_cols[0] + (b * e) ** 2 / ms.df_error[0]
    return float((a * c + b * e) ** 2 / den) if den > 0 else math.inf


def _irr_figures(ms: MeanSquares, form: Form, est: float, k: int) -> dict[str, Any]:
    """What R irr 0.84.1 reports for the agreement forms (complete designs)."""
    if not math.isfinite(est):
        out_nan: dict[str, Any] = {"irr_df2": math.nan, "irr_pvalue": math.nan}
        if form.average:
            out_nan["irr_interval"] = (math.nan, math.nan)
        return out_nan
    n = float(ms.df_rows[0] + 1.0)
    r, c, e = (np.float64(m[0]) for m in (ms.ms_rows, ms.ms_cols, ms.ms_error))
    a = k * est / (n * (1.0 - est))
    b = 1.0 + k * est * (n - 1.0) / (n * (1.0 - est))
    with np.errstate(divide="ignore", invalid="ignore"):
        v_df = (a * c + b * e) ** 2 / ((a * c) ** 2 / (k - 1.0) + (b * e) ** 2 / ms.df_error[0])
    out: dict[str, Any] = {"irr_df2": float(v_df),
                           "irr_pvalue": float(f_sf(_f_test(ms, form)[0], n - 1.0, v_df))}
    if form.average:
        f_low, f_high = f_ppf(0.975, n - 1.0, v_df), f_ppf(0.975, v_df, n - 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):  # inf / inf: NaN, as in R
            out["irr_interval"] = (float(n * (r - f_low * e) / (f_low * (c - e) + n * r)),
                               float(n * (f_high * r - e) / (c - e + n * f_high * r)))
    return out


def _average_note(design: Design, form: Form, k: int, est: float) -> dict[str, Any]:
    """On incomplete designs the k forms are the reliability of the mean of all ``k``
    raters, which no unit may have had: give the mean ratings per unit and, when it is
    well below ``k``, the step-up to it in a note."""
    per_unit = design.z.size / design.n_units if design.n_units else math.nan
    out: dict[str, Any] = {"ratings_per_unit": per_unit}
    if math.isfinite(est) and per_unit < 0.8 * k:
        single = {"ICC1k": "ICC1", "ICC2k": "ICC2", "ICC3k": "ICC3"}[form.name]
        rho = float(_estimate(design.mean_squares, form_of(single), k)[0])
        at_m = float(step_up(rho, per_unit))  # type: ignore[arg-type]
        out["note"] = (f"{form.name} is the reliability of the mean of all {k} raters, but "
                       f"units had {per_unit:.1f} ratings on average; the mean of that many "
                       f"ratings has reliability {at_m:.4f} (the Spearman-Brown step-up of "
                       f"{single} = {rho:.4f} to {per_unit:.1f} ratings)")
    return out


def _details(ms: MeanSquares, form: Form, k: int, est: float, complete: bool,
             dropped: int) -> dict[str, Any]:
    f, df1, df2 = _f_test(ms, form)
    out: dict[str, Any] = {
        "form": form.name, "mcgraw_wong": form.mcgraw_wong, "model": form.model,
        "F": f, "df1": df1, "df2": df2,
        "pvalue": float(f_sf(f, df1, df2)) if not math.isnan(f) else math.nan,
        "ms_rows": float(ms.ms_rows[0]), "ms_cols": float(ms.ms_cols[0]),
        "ms_error": float(ms.ms_error[0]), "ms_within": float(ms.ms_within[0]),
        "design": "complete" if complete else "incomplete",
        "ci_method": "F-satterthwaite" if form.model == "agreement" else "F",
        "n_units_dropped": dropped,
    }
    if not complete:
        out.update(ms_between=float(ms.ms_between[0]), n0=float(ms.n0[0]),
                   k_rows=float(ms.k_rows[0]), k_cols=float(ms.k_cols[0]),
                   method="one-way ANOVA, unequal groups" if form.model == "one_way"
                   else "Henderson method III")
    elif form.model == "agreement" and math.isfinite(est) and est < 1.0:
        out.update(_irr_figures(ms, form, est, k))
    return out


def _resampler(design: Design, form: Form,
               units: tuple[Any, ...] | None) -> Callable[[], Resampling]:
    k, complete, one_way = design.n_raters, design.complete, form.model == "one_way"

    def statistic(s: FloatArray) -> FloatArray:
        if one_way:
            return _estimate(one_way_mean_squares(s), form, k)
        return _estimate(mean_squares(s, k, complete), form, k)

    def make() -> Resampling:
        _check_feature_budget(design, form)
        feats = design.features(one_way)
        n = feats.shape[0]
        kept = design.kept_units
        ids = units if units is None or kept is None else tuple(units[i] for i in kept)
        return Resampling(features=feats, counts=np.ones(n, dtype=np.int64),
                          statistic=statistic, unit_patterns=np.arange(n, dtype=np.int64),
                          unit_ids=ids)

    return make


def _check_feature_budget(design: Design, form: Form) -> None:
    """Refuse a resampling whose per-unit features would exceed :data:`FEATURE_BUDGET`."""
    width = design.feature_width(form.model == "one_way")
    size = design.n_units * width
    if size <= FEATURE_BUDGET:
        return
    what = ("each rater's score" if design.complete else
            "each rater's score, which raters scored it and their raters x raters products")
    raise InvalidParameterError(
        f"a bootstrap or jackknife of {form.mcgraw_wong} resamples units with {width:,} "
        f"numbers each ({what}; {design.n_raters:,} raters), {size * 8 / 2**30:.1f} GiB for "
        f"{design.n_units:,} units; use the F interval (method='asymptotic', the default), "
        "or ICC1 / ICC1k, whose resampling needs six numbers per unit."
    )
