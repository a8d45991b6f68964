"""Two-rater agreement coefficients computed from the contingency table.

Notation (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed., ch. 2-3;
Fleiss, Levin & Paik 2003, ch. 18): ``p_kl = n_kl / n``, marginals ``p_k+``
(first rater) and ``p_+l``, agreement weights ``w_kl``, weighted observed
agreement ``p_o = sum_kl w_kl p_kl`` and a coefficient-specific chance
agreement ``p_e``; every chance-corrected coefficient is
``(p_o - p_e) / (1 - p_e)`` and is undefined (``nan``) when ``p_e = 1``.

Standard errors: Fleiss, Cohen & Everitt (1969) for Cohen's kappa (with the
null SE for the z test); Gwet (2014) design-based variances, as in R's irrCAC
``*.table`` functions, for Scott's pi, Gwet's AC1/AC2, Brennan-Prediger and
percent agreement.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from accord.coefficients._chance import Chance
from accord.coefficients._data import (
    as_annotations,
    as_table,
    is_two_rater,
    restrict_labels,
    reusable,
)
from accord.coefficients._registry import register
from accord.coefficients._two_rater_core import (
    _coefficient,
    _result,
    _se_cohen,
    _se_gwet,
    _weights,
)
from accord.data import _encoding as enc
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.inference._normal import norm_sf
from accord.inference.results import AgreementResult
from accord.tables.contingency import ContingencyTable

# --------------------------------------------------------------------------- public
_CITE_COHEN = (
    "Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and "
    "Psychological Measurement 20(1), 37-46; weighted: Cohen, J. (1968), Psychological "
    "Bulletin 70(4), 213-220; SE: Fleiss, Cohen & Everitt (1969), Psychological Bulletin "
    "72(5), 323-327."
)


@register(
    "cohen_kappa",
    title="Cohen's kappa",
    family="two_raters",
    citation=_CITE_COHEN,
    weighted=True,
    levels=("nominal", "ordinal", "interval", "ratio"),
)
def cohen_kappa(
    data: Any,
    y2: Any = None,
    /,
    *,
    weights: Any = None,
    categories: Sequence[Any] | None = None,
    sample_weight: Any = None,
    raters: Sequence[Any] | None = None,
    labels: Sequence[Any] | None = None,
) -> AgreementResult:
    r"""Cohen's kappa, unweighted or weighted, for two raters.

    .. math:: \kappa = \frac{p_o - p_e}{1 - p_e}, \quad
              p_o = \sum_{kl} w_{kl} p_{kl}, \quad p_e = \sum_{kl} w_{kl} p_{k+} p_{+l}

    Parameters
    ----------
    data, y2 : label sequences, or a two-rater table
        ``cohen_kappa(y1, y2)`` as in scikit-learn, a units x 2 table, an
        :class:`~accord.Annotations` object (name two raters with ``raters=``
        when there are more) or a :class:`~accord.ContingencyTable`.
    weights : None, str or (k, k) array
        ``None``/``"identity"`` (unweighted), ``"linear"``, ``"quadratic"``,
        ``"ordinal"``, ``"radical"``, ``"ratio"``, ``"circular"``, ``"bipolar"``
        (Gwet 2014, on category positions), or an agreement-weight matrix.
    categories : sequence, optional
        Category order for the weights; unused categories are kept.
    sample_weight : sequence of float, optional
        One weight per unit, as in scikit-learn: frequency weights, so a unit of
        weight w counts as w units in the estimate, the SE and ``n_units`` (their
        sum). Jackknife and bootstrap intervals need whole-number weights.
    labels : sequence, optional
        As scikit-learn's ``cohen_kappa_score(labels=...)``: kappa on these labels only,
        in this order (the order the weights use). Units where either rater used
        another label are left out and counted in ``details["n_units_outside_labels"]``.

    Returns
    -------
    AgreementResult
        ``se`` is the Fleiss, Cohen & Everitt (1969) large-sample SE (used for
        intervals); ``details`` has ``se0`` (SE under kappa = 0), ``z = kappa / se0``
        and the two-sided ``pvalue``. ``per_category`` holds one-vs-rest kappa and
        specific agreement for each category (unweighted tables up to 200 categories).
        The estimate is ``nan`` (with a reason) when ``p_e = 1``.

    Notes
    -----
    Which published figure each number reproduces: the estimate is R's
    ``irr::kappa2``, ``psych::cohen.kappa``, irrCAC's ``kappa2.table``, SAS PROC FREQ,
    statsmodels' ``cohens_kappa`` and scikit-learn's ``cohen_kappa_score``. ``se`` is the
    large-sample SE of SAS, statsmodels and ``psych::cohen.kappa`` from psych 2.3.3 on
    (earlier psych versions compute the weighted-kappa variance wrongly; accord agrees
    with the corrected psych and with statsmodels). ``z`` and ``pvalue`` use the null SE
    ``se0``, as ``irr::kappa2`` does for unweighted kappa (for weighted kappa irr puts the
    unweighted ``p_e`` in its variance, so its z differs).

    Examples
    --------
    Cohen (1960, p. 45): kappa = 0.4915, SE (Fleiss, Cohen & Everitt 1969) 0.0510.

    >>> import accord
    >>> t = accord.ContingencyTable([[88, 14, 18], [10, 40, 10], [2, 6, 12]])
    >>> res = accord.cohen_kappa(t)
    >>> round(res.estimate, 4), round(res.se, 4), round(res.details["se0"], 4)
    (0.4915, 0.051, 0.052)
    >>> accord.cohen_kappa(["a", "b", "a", "a"], ["a", "b", "b", "a"]).estimate
    0.5
    """
    func = "cohen_kappa"
    table = as_table(
        data, y2, categories=categories, sample_weight=sample_weight, raters=raters, func=func
    )
    details: dict[str, Any] = {"weights": _weights_label(weights)}
    if labels is not None:
        table, outside = restrict_labels(table, labels, func)
        details["n_units_outside_labels"] = outside
    w = _weights(weights, table, func)
    est, po, pe, cells, why = _coefficient(func, table, w, "cohen")
    se = math.nan
    if cells is not None and not why:
        se, se0 = _se_cohen(cells, w, est, pe)
        z = est / se0 if se0 > 0 else math.nan
        details.update(
            se0=se0,
            z=z,
            pvalue=float(2.0 * norm_sf(abs(z))) if math.isfinite(z) else math.nan,
        )
    res = _result(func, table, w, "cohen", se, details)
    if w is None and not why and table.k <= 200:
        res = _with_per_category(res, table)
    return res


def _weights_label(weights: Any) -> str:
    if weights is None:
        return "identity"
    return weights if isinstance(weights, str) else "custom"


def _with_per_category(res: AgreementResult, table: ContingencyTable) -> AgreementResult:
    from dataclasses import replace

    from accord.coefficients.paradoxes import category_agreement

    return replace(res, per_category=category_agreement(table))


def _raw_two(
    data: Any, y2: Any, categories: Sequence[Any] | None, raters: Sequence[Any] | None, func: str
) -> tuple[bool, Any, Sequence[Any] | None, Sequence[Any] | None]:
    """Whether some unit of raw two-rater input was rated by one rater only.

    A contingency table holds only the units rated by both raters; Gwet's (2014)
    raw-data coefficients (irrCAC ``gwet.ac1.raw``, ``bp.coeff.raw``, ``pa.coeff.raw``)
    also use the units rated once, in the chance term and in the SE. Returns the flag
    and ``(data, categories, raters)`` to go on with: tables and label pairs as given,
    other input converted once to :class:`~accord.Annotations`.
    """
    if isinstance(data, ContingencyTable):
        return False, data, categories, raters
    if y2 is not None:
        a, b = enc.to_array(data, name="y1"), enc.to_array(y2, name="y2")
        if a.shape != b.shape or not (enc.missing_mask(a) != enc.missing_mask(b)).any():
            return False, data, categories, raters
        return True, Annotations.from_pairs(a, b, categories=categories), None, None
    ann = as_annotations(data, categories=categories, raters=raters, func=func)
    counts = np.bincount(ann.codes[0], minlength=ann.n_units)
    return bool((counts == 1).any()), ann, None, None


def _simple(
    func: str,
    chance: Chance,
    data: Any,
    y2: Any,
    weights: Any,
    categories: Sequence[Any] | None,
    raters: Sequence[Any] | None,
    bounds: tuple[float, float] = (-1.0, 1.0),
    *,
    from_ratings: bool = False,
) -> AgreementResult:
    """A table-based two-rater coefficient with Gwet's (2014) SE.

    ``from_ratings``: the input was the ratings, every unit rated by both raters.
    The SE is then Gwet's raw-data variance (irrCAC ``*.raw``, divisor ``n (n - 1)``),
    which on complete data is the table variance (``*.table``, divisor ``n^2``) times
    ``n / (n - 1)``; so ratings give the same SE whether or not some unit lacks a rating.
    """
    table = as_table(data, y2, categories=categories, raters=raters, func=func)
    w = _weights(weights, table, func)
    est, po, pe, cells, why = _coefficient(func, table, w, chance)
    se = math.nan if (cells is None or why) else _se_gwet(chance, cells, w, est, po, pe)
    if from_ratings and table.n > 1:
        se *= math.sqrt(table.n / (table.n - 1.0))
    return _result(func, table, w, chance, se, {"weights": _weights_label(weights)}, bounds=bounds)


def _gwet_family(
    name: str,
    chance: Chance,
    data: Any,
    y2: Any,
    weights: Any,
    categories: Sequence[Any] | None,
    raters: Sequence[Any] | None,
) -> AgreementResult:
    """AC1/AC2 or Brennan-Prediger: many raters, ratings with units rated once (irrCAC
    ``*.raw``), complete ratings (the table, with the raw SE) or a table (``*.table``)."""
    data = reusable(data)
    if not is_two_rater(data, y2, raters):
        return _many(name, data, raters, weights=weights, categories=categories)
    ratings = not isinstance(data, ContingencyTable)
    once, data, categories, raters = _raw_two(data, y2, categories, raters, name)
    if once:
        return _many(name, data, None, weights=weights, categories=None)
    return _simple(name, chance, data, y2, weights, categories, raters, from_ratings=ratings)


def _many(name: str, data: Any, raters: Sequence[Any] | None, **options: Any) -> AgreementResult:
    """Hand many-rater input to the many-rater implementation, keeping ``raters=``."""
    from accord.coefficients import many_raters

    if raters is not None:
        data = as_annotations(data, raters=raters, categories=options.pop("categories"), func=name)
        options["categories"] = None
    result: AgreementResult = getattr(many_raters, name)(data, **options)
    return result


@register(
    "scott_pi",
    title="Scott's pi",
    family="two_raters",
    weighted=True,
    citation="Scott, W. A. (1955). Reliability of content analysis: the case of nominal "
    "scale coding. Public Opinion Quarterly 19(3), 321-325.",
    levels=("nominal", "ordinal", "interval", "ratio"),
)
def scott_pi(
    data: Any,
    y2: Any = None,
    /,
    *,
    weights: Any = None,
    categories: Sequence[Any] | None = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    """Scott's pi for two raters: chance from the pooled marginals ``pi_k``.

    ``p_e = sum_kl w_kl pi_k pi_l`` with ``pi_k = (p_k+ + p_+k) / 2``; SE from Gwet (2014),
    the delta method on the cell proportions:

        var = (sum_kl p_kl (w_kl - (1 - pi) (G_k + G_l))^2 - (p_o - 2 (1 - pi) p_e)^2)
              / (n (1 - p_e)^2),   G = (W + W^T) pi / 2,

    where ``G_k + G_l`` is the derivative of ``p_e`` with respect to ``p_kl``. With
    symmetric weights this is R irrCAC's ``scott2.table``; with weights that are not
    symmetric irrCAC uses ``(W p_+. + W^T p_.+) / 2`` in place of ``G``, which is not
    the derivative, and accord's SE differs from it (and equals a finite-difference
    delta method). For more raters use :func:`fleiss_kappa` (its multi-rater
    generalisation).

    Examples
    --------
    Artstein & Poesio (2008), Table 1: pi = 0.3407.

    >>> import accord
    >>> t = accord.ContingencyTable([[20, 10], [20, 50]], ["STAT", "IReq"])
    >>> round(accord.scott_pi(t).estimate, 4)
    0.3407
    """
    return _simple("scott_pi", "scott", data, y2, weights, categories, raters)


@register(
    "brennan_prediger",
    title="Brennan-Prediger coefficient (Bennett's S)",
    family="two_raters",
    raters="many",
    weighted=True,
    citation="Brennan, R. L. & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, "
    "and alternatives. Educational and Psychological Measurement 41, 687-699; Bennett, Alpert "
    "& Goldstein (1954).",
    levels=("nominal", "ordinal", "interval", "ratio"),
)
def brennan_prediger(
    data: Any,
    y2: Any = None,
    /,
    *,
    weights: Any = None,
    categories: Sequence[Any] | None = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    """Brennan-Prediger coefficient (Bennett's S, Randolph's free-marginal kappa).

    Chance agreement assumes the q categories equally likely:
    ``p_e = sum_kl w_kl / q^2`` (``1/q`` unweighted); SE from Gwet (2014).
    With more than two raters this is Randolph's (2005) free-marginal kappa.

    Examples
    --------
    Artstein & Poesio (2008), Table 1: Bennett et al.'s S = 0.4.

    >>> import accord
    >>> t = accord.ContingencyTable([[20, 10], [20, 50]], ["STAT", "IReq"])
    >>> round(accord.brennan_prediger(t).estimate, 4)
    0.4
    """
    return _gwet_family("brennan_prediger", "bp", data, y2, weights, categories, raters)


@register(
    "gwet_ac1",
    title="Gwet's AC1 / AC2",
    family="two_raters",
    raters="many",
    weighted=True,
    citation="Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the "
    "presence of high agreement. British Journal of Mathematical and Statistical Psychology "
    "61, 29-48; Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed.",
    levels=("nominal", "ordinal", "interval", "ratio"),
)
def gwet_ac1(
    data: Any,
    y2: Any = None,
    /,
    *,
    weights: Any = None,
    categories: Sequence[Any] | None = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    """Gwet's AC1 (unweighted) or AC2 (with ``weights``).

    ``p_e = T_w / (q (q - 1)) * sum_k pi_k (1 - pi_k)`` with ``T_w = sum_kl w_kl``;
    SE from Gwet (2014). Less sensitive than kappa to skewed prevalence; undefined
    when fewer than two categories are declared. Any number of raters.

    From a contingency table, as R irrCAC ``gwet.ac1.table``; from the ratings, as
    ``gwet.ac1.raw``, whose SE divides by ``n (n - 1)`` instead of ``n^2`` and which
    also uses units rated by one rater only (in ``pi_k`` and the SE). The same holds
    for :func:`brennan_prediger` and :func:`percent_agreement`.

    Examples
    --------
    Gwet (2008) paradox table: p_o = 0.85 but kappa is low; AC1 = 0.808.

    >>> import accord
    >>> round(accord.gwet_ac1(accord.ContingencyTable([[80, 10], [5, 5]])).estimate, 4)
    0.808
    """
    return _gwet_family("gwet_ac1", "gwet", data, y2, weights, categories, raters)


@register(
    "percent_agreement",
    title="Percent agreement",
    family="two_raters",
    raters="many",
    chance_corrected=False,
    weighted=True,
    bounds=(0.0, 1.0),
    citation="Observed (raw) agreement; SE from Gwet (2014), Handbook of Inter-Rater "
    "Reliability, 4th ed.",
    levels=("nominal", "ordinal", "interval", "ratio"),
)
def percent_agreement(
    data: Any,
    y2: Any = None,
    /,
    *,
    weights: Any = None,
    categories: Sequence[Any] | None = None,
    raters: Sequence[Any] | None = None,
    definition: str = "pairwise",
    tolerance: float = 0,
) -> AgreementResult:
    """The share of agreeing ratings (weighted: ``sum_kl w_kl p_kl``); no chance correction.

    For two raters this is ``p_o``. With more raters, ``definition="pairwise"``
    averages the agreeing share of rater pairs and ``"unanimous"`` counts units on
    which all raters agree within ``tolerance`` category positions (R's ``irr::agree``).
    Agreement is not accuracy, and high agreement on a skewed scale can be chance.

    Examples
    --------
    >>> import accord
    >>> accord.percent_agreement([1, 2, 3, 3], [1, 2, 3, 1]).estimate
    0.75
    """
    v.choice(definition, ("pairwise", "unanimous"), param="definition", func="percent_agreement")
    data = reusable(data)
    once = False
    if is_two_rater(data, y2, raters) and tolerance == 0 and definition == "pairwise":
        once, data, categories, raters = _raw_two(
            data, y2, categories, raters, "percent_agreement"
        )
        if once:
            y2 = None
    if once or not is_two_rater(data, y2, raters) or tolerance != 0 or definition != "pairwise":
        if y2 is not None:
            data = {"rater_1": data, "rater_2": y2}
        return _many(
            "percent_agreement",
            data,
            raters,
            weights=weights,
            categories=categories,
            definition=definition,
            tolerance=tolerance,
        )
    return _simple(
        "percent_agreement", "none", data, y2, weights, categories, raters, bounds=(0.0, 1.0),
        from_ratings=not isinstance(data, ContingencyTable),
    )
