"""Janson & Olsson's (2001) iota: agreement on one or several variables at once.

For variables ``v`` (quantitative scores, or for nominal data one indicator
``[x = c] / sqrt(2)`` per category), ``n`` units rated by all ``m`` raters, with the
total, within-unit and rater sums of squares ``SS_t``, ``SS_w`` and ``SS_c`` of each:

    iota = 1 - m sum_v SS_w / sum_v ((m - 1) SS_t + SS_c),

the notation of R's ``irr::iota``. With one nominal variable iota is Conger's (1980)
kappa (irr: "iota reduces to the Fleiss exact kappa"); with two raters and one
variable it is Cohen's kappa (nominal) or Berry & Mielke's (1988) measure
(quantitative). Units missing a rating on any variable are left out, as in irr
(``details["n_units_dropped"]``). Every sum of squares is a sum over units of
per-unit features, which is also what resampling needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import set_valued_error
from accord.coefficients._registry import register
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError, InsufficientDataError
from accord.inference.resampling import Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.tables.rating_matrix import RatingMatrix

__all__ = ["janson_olsson_iota"]

Arr = NDArray[np.float64]
_FUNC = "janson_olsson_iota"
_SUMMARIES = {"ContingencyTable", "RaterCounts", "CoincidenceMatrix", "RatingMatrix"}


@register(_FUNC, title="Janson & Olsson's iota", family="many_raters", raters="many",
          bounds=(-math.inf, 1.0), levels=("nominal", "interval", "ratio"),
          citation="Janson, H. & Olsson, U. (2001). A measure of agreement for interval or "
          "nominal multivariate observations. Educational and Psychological Measurement "
          "61(2), 277-289.")
def janson_olsson_iota(data: Any, /, *more_variables: Any, level: str = "nominal",
                       standardize: bool = False) -> AgreementResult:
    """Janson & Olsson's iota for one or several variables rated by the same raters.

    Parameters
    ----------
    data : units x raters table or Annotations
        The ratings of the first (or only) variable.
    *more_variables : units x raters tables or Annotations
        Further variables, with the same units (rows) and raters (columns).
    level : {"nominal", "interval", "ratio"}
        Nominal: one indicator per category (R irr's ``scaledata = "nominal"``); interval
        and ratio: the scores themselves (``"quantitative"``).
    standardize : bool
        Quantitative data only: z-standardise each variable over all its scores first
        (irr's ``standardize = TRUE``), so that variables on different scales weigh alike.
        A variable with one score throughout cannot be standardised: iota is then
        undefined (``nan`` with the reason; irr gives ``NaN``).

    Returns
    -------
    AgreementResult
        ``observed`` and ``expected`` are the disagreements ``m sum SS_w`` and
        ``sum ((m - 1) SS_t + SS_c)``; no analytic SE (jackknife or bootstrap).
        Undefined when every rating is the same.

    Examples
    --------
    Janson & Olsson (2001), Table 1 (R irr's ``photo``: 5 photographs, 3 raters, weight
    and height):

    >>> import accord
    >>> weight = [[71, 74, 76], [73, 80, 80], [86, 101, 93], [59, 62, 66], [71, 83, 77]]
    >>> height = [[166, 171, 171], [160, 170, 165], [187, 174, 185], [161, 163, 162],
    ...           [172, 182, 181]]
    >>> round(accord.janson_olsson_iota(weight, height, level="interval").estimate, 4)
    0.755
    """
    level = v.choice(level, ("nominal", "interval", "ratio"), param="level", func=_FUNC)
    if not isinstance(standardize, bool):
        raise v.fail("standardize", _FUNC, "True or False", standardize)
    if standardize and level == "nominal":
        raise v.fail("standardize", _FUNC, "False for nominal data (it z-standardises scores)",
                     standardize)
    tables = [data, *more_variables]
    columns, m, dropped = _variables(tables, level, standardize)
    patterns, counts, inverse = pattern_index(columns)
    feats = _features(np.asarray(patterns, dtype=np.float64), m)
    do_arr, de_arr = _disagreements(counts.astype(np.float64) @ feats, m)
    do, de = float(do_arr), float(de_arr)
    why = _constant(columns, m) if standardize else None
    if why is None and not de > 0:
        why = "every rating is the same, so iota is 0/0"
    est = math.nan
    if why:
        v.warn_undefined(_FUNC, why)
    else:
        est = 1.0 - do / de
    return AgreementResult(
        coefficient=_FUNC, estimate=est, observed=do, expected=de, se=math.nan,
        n_units=int(counts.sum()), n_raters=m, undefined_reason=why,
        details={"level": level, "n_variables": len(tables),
                 "standardized": standardize, "n_units_dropped": dropped},
        bounds=(-math.inf, 1.0), resampling=_resampler(feats, counts, inverse, m))


# --------------------------------------------------------------------------- input
def _variables(tables: list[Any], level: str, standardize: bool) -> tuple[Arr, int, int]:
    """The (units x (columns)) float matrix of every variable (indicators for nominal)."""
    mats = []
    for table in tables:
        if type(table).__name__ in _SUMMARIES:
            raise DataError(f"{_FUNC} cannot be computed from a {type(table).__name__}; pass "
                            "the units x raters ratings (a table or Annotations).")
        ann = table if isinstance(table, Annotations) else Annotations.from_wide(
            table, level=None if level == "nominal" else "interval")
        if ann.set_valued:
            raise set_valued_error(_FUNC, ann.audit.source)
        mats.append(ann)
    shapes = {(a.n_units, a.n_raters) for a in mats}
    if len(shapes) != 1:
        raise DataError(f"{_FUNC}: every variable needs the same units and raters; got "
                        f"(units, raters) {sorted(shapes)}.")
    rated = np.stack([a.wide() >= 0 for a in mats])  # (variables, units, raters)
    raters = np.asarray(rated.any(axis=(0, 1)), dtype=bool)
    if raters.sum() < 2:
        raise InsufficientDataError(f"{_FUNC} needs at least two raters; the data have "
                                    f"{int(raters.sum())} with ratings.")
    keep = np.asarray(rated[:, :, raters].all(axis=(0, 2)), dtype=bool)
    if keep.sum() < 2:
        raise InsufficientDataError(f"{_FUNC} needs at least two units rated by every rater; "
                                    f"the data have {int(keep.sum())}.")
    blocks = [_block(a, keep, raters, level, standardize) for a in mats]
    return np.hstack(blocks), int(raters.sum()), int((~keep).sum())


def _block(ann: Annotations, keep: NDArray[np.bool_], raters: NDArray[np.bool_], level: str,
           standardize: bool) -> Arr:
    codes = ann.wide()[np.ix_(keep, raters)]
    if level == "nominal":
        k = len(ann.categories)
        return np.hstack([(codes == c) / math.sqrt(2.0) for c in range(k)]).astype(np.float64)
    x = np.array(RatingMatrix.from_annotations(ann).values[np.ix_(keep, raters)], dtype=float)
    if standardize:
        sd = float(np.std(x, ddof=1))
        x = (x - x.mean()) / sd if sd > 0 else x - x.mean()
    return x


def _constant(columns: Arr, m: int) -> str | None:
    """Why standardising leaves iota undefined: a variable with one score throughout."""
    for j in range(columns.shape[1] // m):
        if not np.any(columns[:, j * m:(j + 1) * m]):  # centred, and nothing left
            return (f"variable {j + 1} has the same score throughout, so standardising it "
                    "divides by a standard deviation of 0 (R irr's iota gives NaN)")
    return None


# --------------------------------------------------------------------------- statistic
def _features(columns: Arr, m: int) -> Arr:
    """Per pattern: 1, then for each (m-column) variable: sum x^2, (sum x)^2, the m x's."""
    n_var = columns.shape[1] // m
    parts = [np.ones((columns.shape[0], 1))]
    for j in range(n_var):
        x = columns[:, j * m:(j + 1) * m]
        parts += [np.sum(x * x, axis=1, keepdims=True), x.sum(axis=1, keepdims=True) ** 2, x]
    return np.hstack(parts)


def _disagreements(s: Arr, m: int) -> tuple[Arr, Arr]:
    """``m sum SS_w`` and ``sum ((m - 1) SS_t + SS_c)`` from summed features (any shape
    (..., p))."""
    n = s[..., 0]
    do = np.zeros_like(n)
    de = np.zeros_like(n)
    width = m + 2
    for j in range((s.shape[-1] - 1) // width):
        blk = s[..., 1 + j * width: 1 + (j + 1) * width]
        sumsq, rowsq, cols = blk[..., 0], blk[..., 1], blk[..., 2:]
        grand = cols.sum(axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            ss_t = sumsq - grand**2 / (n * m)
            ss_w = sumsq - rowsq / m
            ss_c = np.sum(cols**2, axis=-1) / n - grand**2 / (n * m)
        do = do + m * ss_w
        de = de + (m - 1) * ss_t + ss_c
    scale = np.maximum(np.abs(de), 1.0)
    de = np.where(np.abs(de) <= 1e-12 * scale, 0.0, de)
    do = np.where(np.abs(do) <= 1e-12 * scale, 0.0, do)
    return do, de


def _resampler(feats: Arr, counts: NDArray[np.int64], inverse: NDArray[np.int64],
               m: int) -> Callable[[], Resampling]:
    def make() -> Resampling:
        def statistic(s: Arr) -> Arr:
            do, de = _disagreements(s, m)
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.where(de > 0, 1.0 - do / de, np.nan)

        return Resampling(features=feats, counts=counts, statistic=statistic,
                          unit_patterns=inverse)

    return make
