"""Agreement among any number of raters on a categorical scale.

Fleiss' kappa, Conger's kappa, Light's kappa, and the many-rater forms of
Gwet's AC1/AC2, Brennan-Prediger (Randolph's free-marginal kappa) and percent
agreement. ``data`` is a units x raters table (``None``/``NaN`` = not rated),
an :class:`~accord.Annotations` object or, for the coefficients that ignore
which rater gave which rating, :class:`~accord.RaterCounts`.

Missing ratings are handled as in Gwet (2014, ch. 5) and R's irrCAC: units
with fewer than two ratings leave the observed agreement ``p_a`` but their
ratings count in the chance terms. Standard errors are Gwet's (2014)
design-based variances over units (irrCAC ``*.raw`` / ``*.dist``, without a
finite-population correction). Notation: :mod:`accord.coefficients._count_based`
and :mod:`accord.coefficients._rater_based`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.coefficients import _count_based as cb
from accord.coefficients import _many_data as md
from accord.coefficients import _rater_based as rb
from accord.coefficients._many_data import LongCodes, RatingCodes, long_codes, rater_counts
from accord.coefficients._registry import register
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.data.weights import agreement_weights, is_identity, require_order
from accord.inference._normal import norm_sf
from accord.inference.results import AgreementResult
from accord.tables.contingency import DENSE_LIMIT
from accord.tables.rater_counts import RaterCounts

Arr = NDArray[np.float64]
Definition = Literal["pairwise", "unanimous"]

__all__ = [
    "brennan_prediger",
    "conger_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "light_kappa",
    "percent_agreement",
]

_LEVELS = ("nominal", "ordinal", "interval", "ratio")
_ONE_CATEGORY = ("every rating is in a single category, so chance agreement p_e = 1 and the "
                 "coefficient is 0/0")


# --------------------------------------------------------------------------- helpers
def _weights(weights: Any, scale: RaterCounts | RatingCodes | LongCodes, func: str) -> Arr | None:
    """The agreement-weight matrix, or None for unweighted agreement."""
    if weights is None or (isinstance(weights, str) and weights == "identity"):
        return None
    require_order(weights, scale.categories, scale.ordered, func)
    q = len(scale.categories)
    if q > DENSE_LIMIT:
        raise v.fail("weights", func, f"None with more than {DENSE_LIMIT} categories", weights)
    w = agreement_weights(weights, q, func=func)
    return None if is_identity(w) else w


def _weights_label(weights: Any) -> str:
    if weights is None:
        return "identity"
    return weights if isinstance(weights, str) else "custom"


def _counts(data: Any, categories: Sequence[Any] | None, func: str) -> tuple[RaterCounts, int]:
    """RaterCounts and the number of raters who rated (for RaterCounts: most ratings of a unit)."""
    if isinstance(data, RaterCounts):
        rc = rater_counts(data, categories=categories, func=func)
        return rc, rc.n_raters
    if isinstance(data, Annotations):
        rc = rater_counts(data, categories=categories, func=func)
        raters = data.codes[1]  # raters who rated: one count per rater code, no sort
        return rc, int(np.count_nonzero(np.bincount(raters, minlength=data.n_raters)))
    if isinstance(data, np.ndarray) and data.ndim == 2 and data.dtype.kind in "iuf":
        codes = md.rating_codes(data, categories=categories, func=func)  # dense input
        return codes.counts(), codes.n_raters
    lc = long_codes(data, categories=categories, func=func)  # no units x raters matrix
    return lc.counts(), lc.n_raters


def _undefined_reason(kind: str, t: cb.CountTerms) -> str:
    if kind == "gwet" and t.q < 2:
        return "Gwet's chance agreement needs at least two categories; only one is declared"
    if kind == "bp" and t.q < 2:
        return ("only one category is declared, so chance agreement p_e = 1/q = 1 and the "
                "coefficient is 0/0")
    if np.count_nonzero(t.x.sum(axis=0)) <= 1:
        return _ONE_CATEGORY
    return "chance agreement p_e = 1, so the coefficient is 0/0"


def _count_result(name: str, kind: cb.CountChance, rc: RaterCounts, n_raters: int,
                  w: Arr | None, weights: Any, bounds: tuple[float, float] = (-1.0, 1.0),
                  t: cb.CountTerms | None = None) -> AgreementResult:
    """The result of a count-based coefficient, with Gwet's SE and its resampling."""
    t = cb.terms(rc.matrix, w) if t is None else t
    est, pa, pe = cb.estimate(kind, t)
    reason = None if math.isfinite(est) else _undefined_reason(kind, t)
    se = math.nan
    if reason:
        v.warn_undefined(name, reason)
    else:
        se = cb.gwet_se(kind, t, est, pe)
    details = {"weights": _weights_label(weights), "n_units_p_a": t.n2, "missing": "gwet_2014"}

    def make() -> Any:
        return cb.resampling(rc, w, kind)

    return AgreementResult(
        coefficient=name, estimate=est, observed=pa, expected=pe, se=se, n_units=t.n,
        n_raters=n_raters, undefined_reason=reason, details=details,
        bounds=bounds if kind == "none" else _bounds(pe), resampling=make,
    )


def _bounds(pe: float) -> tuple[float, float]:
    """The range of a chance-corrected coefficient given p_e: ``p_a = 0`` gives ``-p_e/(1-p_e)``.

    Below -1 when p_e > 1/2, which weights, or chance terms taken over units with a
    single rating, allow; -1 otherwise (used to clip confidence intervals).
    """
    if not math.isfinite(pe) or pe >= 1.0:
        return (-1.0, 1.0)
    return (min(-1.0, -pe / (1.0 - pe)), 1.0)


def _with(res: AgreementResult, **changes: Any) -> AgreementResult:
    from dataclasses import replace

    return replace(res, **changes)


# --------------------------------------------------------------------------- Fleiss
_CITE_FLEISS = (
    "Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological "
    "Bulletin 76(5), 378-382; null SE: Fleiss, Nee & Landis (1979), Psychological Bulletin "
    "86(5), 974-977; SE and missing data: Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed."
)


@register("fleiss_kappa", title="Fleiss' kappa", family="many_raters", raters="many",
          citation=_CITE_FLEISS, weighted=True, levels=_LEVELS)
def fleiss_kappa(data: Any, *, weights: Any = None,
                 categories: Sequence[Any] | None = None) -> AgreementResult:
    r"""Fleiss' kappa for any number of raters (Scott's pi generalised).

    .. math:: \kappa = \frac{p_a - p_e}{1 - p_e}, \quad
              p_a = \frac{1}{n'} \sum_{i: r_i \ge 2} \sum_k \frac{x_{ik} (x^*_{ik} - 1)}
              {r_i (r_i - 1)}, \quad
              p_e = \sum_{kl} w_{kl} \pi_k \pi_l, \quad
              \pi_k = \frac{1}{n} \sum_i \frac{x_{ik}}{r_i}

    with ``x_ik`` raters putting unit i in category k, ``r_i`` ratings of unit i,
    ``x*_ik = sum_l w_kl x_il`` and ``n'`` units rated at least twice. Units rated
    by different numbers of raters are handled as Gwet (2014) and R irrCAC do:
    units with one rating leave ``p_a`` and count in ``pi_k``.

    Parameters
    ----------
    data : units x raters table, Annotations or RaterCounts
        ``None``/``NaN`` = not rated.
    weights : None, str or (q, q) array
        Agreement weights on category positions (``"linear"``, ``"quadratic"``, ...,
        as in :func:`accord.data.weights.agreement_weights`); ``None`` is unweighted.
    categories : sequence, optional
        Category order (and unused categories to keep).

    Returns
    -------
    AgreementResult
        ``se`` is Gwet's design-based SE (irrCAC ``fleiss.kappa.raw``/``.dist``).
        Unweighted, ``details`` has ``se0`` (Fleiss, Nee & Landis 1979, the SE under
        kappa = 0), ``z = kappa / se0`` and the two-sided ``pvalue``; these need the
        same number of ratings on every unit (else ``nan``). ``per_category`` maps
        each category to Fleiss' (1971) kappa of that category against the rest
        (``kappa``), its null SE ``se0``, ``z`` and Gwet's ``se``.

    Notes
    -----
    With ``m`` ratings on every unit, unweighted kappa >= -1/(m - 1). With weights, or
    with units rated once (they enter ``pi_k`` but not ``p_a``), the estimate can fall
    below -1 (its floor is ``-p_e / (1 - p_e)``, recorded in ``bounds``).

    Undefined (``nan``, with a ``DegenerateDataWarning``) when every rating is in
    one category (p_e = 1). R irr ``kappam.fleiss`` then returns NaN and
    statsmodels ``fleiss_kappa`` nan; R irrCAC returns 1 when only one category is
    observed (it sets p_e = 1e-15) and NaN when more are declared.

    Examples
    --------
    Fleiss (1971), 30 patients x 6 psychiatrists: kappa = .430, z = 17.65.

    >>> import accord
    >>> counts = [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6],
    ...           [0, 3, 0, 3, 0], [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0],
    ...           [2, 0, 0, 4, 0], [0, 0, 0, 0, 6], [1, 0, 0, 5, 0], [1, 1, 0, 4, 0],
    ...           [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1], [0, 0, 5, 0, 1],
    ...           [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
    ...           [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0],
    ...           [1, 0, 0, 4, 1], [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0],
    ...           [1, 0, 5, 0, 0], [0, 0, 0, 0, 6]]
    >>> res = accord.fleiss_kappa(accord.RaterCounts(counts, categories=[1, 2, 3, 4, 5]))
    >>> round(res.estimate, 4), round(res.details["z"], 2), round(res.se, 4)
    (0.4302, 17.65, 0.0542)
    >>> round(res.per_category[3]["kappa"], 3)
    0.52
    """
    func = "fleiss_kappa"
    rc, n_raters = _counts(data, categories, func)
    w = _weights(weights, rc, func)
    t = cb.terms(rc.matrix, w)
    res = _count_result(func, "fleiss", rc, n_raters, w, weights, t=t)
    if w is not None:
        return res
    se0 = cb.fleiss_null_se(t) if res.defined else math.nan
    z = res.estimate / se0 if se0 > 0 else math.nan
    pvalue = float(2.0 * norm_sf(abs(z))) if math.isfinite(z) else math.nan
    details = {**res.details, "se0": se0, "z": z, "pvalue": pvalue}
    if res.defined and cb.constant_m(t) is None:
        details["se0_note"] = (
            "no null SE, z or p-value: the Fleiss, Nee & Landis (1979) formula needs the "
            "same number of ratings on every unit; se (Gwet 2014) and the intervals hold"
        )
    per_cat = None
    if rc.n_categories <= 200:
        per_cat = {rc.categories[j]: row for j, row in cb.fleiss_per_category(t).items()}
    return _with(res, details=details, per_category=per_cat)


# --------------------------------------------------------------------------- Gwet, BP
def gwet_ac1(data: Any, *, weights: Any = None,
             categories: Sequence[Any] | None = None) -> AgreementResult:
    """Gwet's AC1 (AC2 with ``weights``) for any number of raters.

    ``p_e = T_w / (q (q - 1)) sum_k pi_k (1 - pi_k)`` with ``T_w = sum_kl w_kl``, ``p_a``
    and ``pi_k`` as in :func:`fleiss_kappa`; ``se`` is Gwet's (2014) SE (irrCAC
    ``gwet.ac1.raw``). Reached through :func:`accord.gwet_ac1` for more than two raters.

    Undefined when fewer than two categories are declared; irrCAC then reports 1
    (it sets p_e = 1e-15). With one category used out of several declared, p_e = 0
    and AC1 = p_a = 1.

    Examples
    --------
    R irrCAC vignette, ``gwet.ac1.dist(distrib.6raters)``: 0.4448007, SE 0.08418757.

    >>> import accord
    >>> counts = [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6],
    ...           [0, 3, 0, 3, 0], [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0],
    ...           [2, 0, 0, 4, 0], [0, 0, 0, 0, 6], [1, 0, 0, 5, 0], [1, 1, 0, 4, 0],
    ...           [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1]]
    >>> res = accord.gwet_ac1(accord.RaterCounts(counts))
    >>> round(res.estimate, 7), round(res.se, 8)
    (0.4448007, 0.08418757)
    """
    func = "gwet_ac1"
    rc, n_raters = _counts(data, categories, func)
    w = _weights(weights, rc, func)
    return _count_result(func, "gwet", rc, n_raters, w, weights)


def brennan_prediger(data: Any, *, weights: Any = None,
                     categories: Sequence[Any] | None = None) -> AgreementResult:
    """Brennan-Prediger coefficient (Randolph's free-marginal kappa) for any number of raters.

    ``p_e = T_w / q^2`` (``1/q`` unweighted), ``p_a`` as in :func:`fleiss_kappa`;
    ``se`` is Gwet's (2014) SE (irrCAC ``bp.coeff.raw``). Undefined with a single
    declared category (irrCAC then reports 1).

    Examples
    --------
    R irrCAC vignette, ``bp.coeff.raw(cac.raw4raters)``: 0.77273, SE 0.14472.

    >>> import accord
    >>> raw = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...        [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...        [None, None, 1, 1], [None, None, 3, None]]
    >>> res = accord.brennan_prediger(raw)
    >>> round(res.estimate, 5), round(res.se, 5)
    (0.77273, 0.14472)
    """
    func = "brennan_prediger"
    rc, n_raters = _counts(data, categories, func)
    w = _weights(weights, rc, func)
    return _count_result(func, "bp", rc, n_raters, w, weights)


# --------------------------------------------------------------------------- percent agreement
def percent_agreement(data: Any, *, weights: Any = None, categories: Sequence[Any] | None = None,
                      definition: Definition = "pairwise", tolerance: float = 0) -> AgreementResult:
    """Percent agreement among any number of raters.

    ``definition="pairwise"``: ``p_a`` of :func:`fleiss_kappa`, the share of agreeing
    pairs of ratings on a unit averaged over units rated at least twice (weighted
    with ``weights``; ``tolerance`` counts ratings within that many category
    positions as agreeing); ``se`` is Gwet's (2014) SE (irrCAC ``pa.coeff.raw``).

    ``definition="unanimous"``: the share of units, among those rated at least
    twice, on which all ratings lie within ``tolerance`` category positions
    (R ``irr::agree``, which however drops every unit with a missing rating and
    measures the tolerance on numeric values, not positions); ``se`` is
    ``sqrt(p (1 - p) / (n - 1))``, the same design-based variance for a share of units.

    Examples
    --------
    R ``irr::agree(video)`` = 35 %, ``agree(video, 1)`` = 90 % (20 units, 4 raters).

    >>> import accord
    >>> video = [[4, 4, 3, 4], [4, 4, 4, 5], [4, 4, 5, 5], [4, 4, 4, 4], [4, 3, 2, 4],
    ...          [4, 4, 3, 4], [4, 3, 2, 5], [4, 4, 3, 4], [4, 3, 3, 4], [4, 3, 3, 4],
    ...          [4, 4, 3, 4], [4, 3, 3, 4], [4, 4, 4, 4], [4, 4, 4, 4], [4, 4, 3, 4],
    ...          [4, 4, 4, 4], [4, 4, 4, 4], [4, 4, 4, 4], [4, 4, 4, 4], [4, 5, 5, 4]]
    >>> accord.percent_agreement(video, definition="unanimous").estimate
    0.35
    >>> accord.percent_agreement(video, definition="unanimous", tolerance=1).estimate
    0.9
    """
    func = "percent_agreement"
    v.choice(definition, ("pairwise", "unanimous"), param="definition", func=func)
    tol = _tolerance(tolerance, func)
    rc, n_raters = _counts(data, categories, func)
    if definition == "unanimous":
        if weights is not None:
            raise v.fail("weights", func, "None when definition='unanimous'", weights)
        return _unanimous(rc, n_raters, tol)
    if tol > 0:
        if weights is not None:
            raise v.fail("tolerance", func, "0 when weights are given", tolerance)
        pos = np.arange(rc.n_categories)
        w: Arr | None = (np.abs(pos[:, None] - pos[None, :]) <= tol).astype(np.float64)
    else:
        w = _weights(weights, rc, func)
    res = _count_result(func, "none", rc, n_raters, w, weights, bounds=(0.0, 1.0))
    return _with(res, details={**res.details, "definition": "pairwise", "tolerance": tol})


def _tolerance(tolerance: Any, func: str) -> float:
    ok = isinstance(tolerance, (int, float, np.integer, np.floating)) and not isinstance(
        tolerance, bool)
    if not ok or not math.isfinite(float(tolerance)) or float(tolerance) < 0:
        raise v.fail("tolerance", func, "a non-negative number of category positions", tolerance)
    return float(tolerance)


def _unanimous(rc: RaterCounts, n_raters: int, tol: float) -> AgreementResult:
    two, agree = cb.unanimous(rc.counts, tol)
    n2 = int(two.sum())
    est = float(agree.sum()) / n2
    se = math.sqrt(est * (1.0 - est) / (n2 - 1.0)) if n2 > 1 else math.nan

    def make() -> Any:
        return cb.unanimous_resampling(rc, tol)

    return AgreementResult(
        coefficient="percent_agreement", estimate=est, observed=est, expected=math.nan, se=se,
        n_units=n2, n_raters=n_raters, details={"definition": "unanimous", "tolerance": tol},
        bounds=(0.0, 1.0), resampling=make,
    )


# --------------------------------------------------------------------------- Conger
@register("conger_kappa", title="Conger's kappa", family="many_raters", raters="many",
          weighted=True, levels=_LEVELS,
          citation="Conger, A. J. (1980). Integration and generalization of kappas for multiple "
          "raters. Psychological Bulletin 88(2), 322-328; SE: Gwet (2014), Handbook of "
          "Inter-Rater Reliability, 4th ed.")
def conger_kappa(data: Any, *, weights: Any = None,
                 categories: Sequence[Any] | None = None) -> AgreementResult:
    r"""Conger's kappa ("exact" Fleiss' kappa): chance from each rater's own marginals.

    .. math:: p_e = \sum_{kl} w_{kl} \left(\bar p_k \bar p_l - \frac{s^2_{kl}}{r}\right)

    the mean over pairs of raters of Cohen's chance agreement, with ``p_gk`` rater
    g's share of category k over the units g rated, ``pbar_k`` their mean and
    ``s2_kl`` their covariance across the ``r`` raters; ``p_a`` as in
    :func:`fleiss_kappa`. With two raters and no missing rating it is Cohen's kappa.
    ``se`` is Gwet's (2014) SE (irrCAC ``conger.kappa.raw``).

    Needs rater identity, so a :class:`~accord.RaterCounts` is refused. The estimate
    and SE come from per-unit and per-rater category counts and one sum over the
    ratings, so memory is O(ratings), not units x raters; intervals by resampling
    (jackknife, bootstrap) resample each unit's row of ratings by rater and are
    refused on a crowd, where that matrix would be too large. Undefined
    when every rating is in one category; R irr ``kappam.fleiss(exact=TRUE)`` then
    returns NaN and irrCAC 1 (p_e = 1e-15 with one observed category).

    Examples
    --------
    R irrCAC vignette, ``conger.kappa.raw(cac.raw4raters)`` (12 units, 4 raters, missing
    ratings): 0.76282, p_e 0.2334252, SE 0.14917.

    >>> import accord
    >>> raw = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...        [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...        [None, None, 1, 1], [None, None, 3, None]]
    >>> res = accord.conger_kappa(raw)
    >>> round(res.estimate, 5), round(res.expected, 7), round(res.se, 5)
    (0.76282, 0.2334252, 0.14917)
    """
    func = "conger_kappa"
    lc = long_codes(data, categories=categories, func=func)
    w = _weights(weights, lc, func)
    t = cb.terms(lc.counts().counts, w)
    est, pa, pe = rb.conger_estimate(lc, t)
    reason = None if math.isfinite(est) else _undefined_reason("conger", t)
    se = math.nan
    if reason:
        v.warn_undefined(func, reason)
    else:
        se = rb.conger_se(lc, t, est, pe)

    def make() -> Any:
        codes = lc.wide(func, "resamples units through each unit's row of ratings by rater")
        return rb.conger_resampling(codes, lc.q, w, lc.unit_ids)

    return AgreementResult(
        coefficient=func, estimate=est, observed=pa, expected=pe, se=se, n_units=t.n,
        n_raters=lc.n_raters, undefined_reason=reason,
        details={"weights": _weights_label(weights), "n_units_p_a": t.n2, "missing": "gwet_2014"},
        bounds=_bounds(pe), resampling=make,
    )


# --------------------------------------------------------------------------- Light
@register("light_kappa", title="Light's kappa", family="many_raters", raters="many",
          citation="Light, R. J. (1971). Measures of response agreement for qualitative data: "
          "some generalizations and alternatives. Psychological Bulletin 76(5), 365-377.")
def light_kappa(data: Any, *, categories: Sequence[Any] | None = None,
                min_shared: int = 1) -> AgreementResult:
    """Light's kappa: the mean of the unweighted Cohen's kappas of all pairs of raters.

    Each pair uses the units both raters rated (as R ``psy::lkappa``; R
    ``irr::kappam.light`` drops every unit with a missing rating first). Light (1971)
    averages every pair; pairs sharing fewer than ``min_shared`` units (default 1:
    every pair with a unit in common) are left out, counted in
    ``details["n_pairs_left_out"]`` and said in ``details["note"]``, so on a sparse
    design (a crowd) the estimate is the mean over the pairs with enough shared units.
    Per-pair tables come from a sparse join on units (no units x raters matrix).
    ``observed``/``expected`` are the mean pairwise p_o and p_e; ``details["pairs"]``
    holds each pair's kappa (up to 10,000 pairs). No analytic SE: use the jackknife
    or a bootstrap (refused on a crowd, where each unit's row by rater is too large).
    ``details["irr_z"]``/``["irr_pvalue"]``: R ``irr::kappam.light``'s z test on the
    units every rater rated, for comparison with irr, not a recommended test.

    Undefined when the kappa of any pair is (that pair used one category
    throughout); irr then returns NaN too.

    Examples
    --------
    Three raters whose pairwise kappas are 1/2, 1/2 and -1/3 (scikit-learn's
    ``cohen_kappa_score`` on each pair gives the same):

    >>> import accord
    >>> res = accord.light_kappa([[1, 1, 2], [2, 2, 2], [1, 2, 1], [2, 2, 2]])
    >>> round(res.estimate, 4), res.details["n_pairs"]
    (0.2222, 3)
    """
    func = "light_kappa"
    min_shared = v.positive_int(min_shared, param="min_shared", func=func)
    lc = long_codes(data, categories=categories, func=func)
    pc = rb.pair_cohen(lc, min_shared)
    reason = rb.light_undefined(pc, lc.rater_labels)
    if reason:
        v.warn_undefined(func, reason)
    kept = int(pc.a.shape[0])
    est = math.nan if reason else float(np.mean(pc.kappa))
    details = rb.light_details(pc, lc.rater_labels)
    details["irr_z"], details["irr_pvalue"] = rb.light_irr_z(rb.complete_codes(lc), lc.q)
    pair_idx = list(zip(pc.a.tolist(), pc.b.tolist()))

    def make() -> Any:
        from accord.coefficients._pairwise_intervals import pairwise_resampling

        codes = lc.wide(func, "resamples units through each unit's row of ratings by rater")
        return pairwise_resampling(codes, lc.q, pairs=pair_idx, unit_ids=lc.unit_ids)

    sizes = np.bincount(lc.units, minlength=lc.n_units)
    return AgreementResult(
        coefficient=func, estimate=est,
        observed=float(np.mean(pc.p_o)) if kept else math.nan,
        expected=float(np.mean(pc.p_e)) if kept else math.nan, se=math.nan,
        n_units=int(np.count_nonzero(sizes >= 2)), n_raters=lc.n_raters,
        undefined_reason=reason, details=details, bounds=(-1.0, 1.0), resampling=make,
    )
