"""Why kappa can be low when agreement is high: the figures and the sentences.

Cohen's kappa is ``(p_o - p_e) / (1 - p_e)``. Two effects make it small while
the raters agree on most units (Feinstein & Cicchetti 1990; Byrt, Bishop &
Carlin 1993):

- **prevalence**: when one category dominates both raters' labels, chance
  agreement ``p_e`` is high, so a high ``p_o`` leaves little above chance. The
  table ``[[82, 9], [9, 0]]`` has ``p_o = 0.82`` and ``p_e = 0.8362``, so kappa is
  -0.099: the raters never agree on the rare category. PABAK (which assumes
  balanced categories) and Gwet's AC1 are far less affected.
- **bias**: when the raters use the categories at different rates, part of the
  disagreement is systematic and the marginals alone cap kappa at ``kappa_max``.

The effect is named when it is present, by these documented rules:

- prevalence when kappa is at least 0.10 below PABAK, the value the same
  observed agreement gives when chance agreement is that of balanced
  categories (``1/k``), or when kappa is undefined because ``p_e = 1``;
- bias when half the summed absolute difference of the raters' marginal
  proportions is at least 0.10 (for a 2 x 2 table, ``|bias index| >= 0.10``).

Feinstein & Cicchetti's balanced table ``[[40, 9], [6, 45]]`` (p_o = .85,
kappa = .70 = PABAK) shows neither; their skewed table ``[[80, 10], [5, 5]]``
(p_o = .85, kappa = .32, PABAK = .70) shows the prevalence effect.

References
----------
Feinstein, A. R. & Cicchetti, D. V. (1990). High agreement but low kappa: I. The
problems of two paradoxes. Journal of Clinical Epidemiology 43(6), 543-549.
Byrt, T., Bishop, J. & Carlin, J. B. (1993). Bias, prevalence and kappa. Journal of
Clinical Epidemiology 46(5), 423-429.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from accord.errors import DegenerateDataWarning
from accord.interpret.marginal import MarginalTest, marginal_tests
from accord.report.model import KappaContext
from accord.tables.contingency import ContingencyTable
from accord.tables.rater_counts import RaterCounts

PREVALENCE_COST = 0.10
KAPPA_GAP = 0.15
BIAS = 0.10
RARE_SPECIFIC = 0.5

__all__ = ["kappa_context", "many_rater_prevalence"]


@dataclass(frozen=True)
class _Figures:
    n: float
    p_o: float
    p_e: float
    kappa: float
    kappa_reason: str | None
    pabak: float
    ac1: float
    kappa_max: float
    prevalence_index: float
    bias_index: float
    rows: np.ndarray
    cols: np.ndarray
    pooled: np.ndarray
    diagonal: np.ndarray


def kappa_context(table: ContingencyTable, raters: tuple[str, str]) -> KappaContext:
    """The figures next to kappa, and the sentences that explain them.

    Examples
    --------
    >>> from accord import ContingencyTable
    >>> ctx = kappa_context(ContingencyTable([[82, 9], [9, 0]], ["no", "yes"]), ("A", "B"))
    >>> round(ctx.p_o, 2), round(ctx.kappa, 4), ctx.effects
    (0.82, -0.0989, ('prevalence',))
    >>> print(ctx.explanation[0])
    A and B agree on 82.0% of the 100 units both rated, yet Cohen's kappa is -0.10.
    """
    f = _figures(table)
    cats = [str(c) for c in table.categories]
    dominant = int(np.argmax(f.pooled)) if f.n > 0 else None
    share = float(f.pooled[dominant]) if dominant is not None else math.nan
    diff = float(np.abs(f.rows - f.cols).sum() / 2.0) if f.n > 0 else math.nan
    effects = [name for name, present in (("prevalence", _prevalence(f)), ("bias", diff >= BIAS))
               if present]
    text = [_opening(f, raters, bool(effects))]
    if "prevalence" in effects:
        text += _prevalence_text(f, cats, dominant)
    if "bias" in effects:
        text.append(_bias_text(f, cats, raters))
    if not effects and f.kappa_reason is None and f.n > 0:
        text.append(
            f"Chance agreement is {_pct(f.p_e)} and the raters use the categories at similar "
            "rates, so kappa and the raw agreement tell the same story: there is no prevalence "
            "or bias effect to explain."
        )
    return KappaContext(
        p_o=f.p_o, p_e=f.p_e, kappa=f.kappa, pabak=f.pabak, ac1=f.ac1, kappa_max=f.kappa_max,
        prevalence_index=f.prevalence_index, bias_index=f.bias_index,
        dominant_category=None if dominant is None else cats[dominant], dominant_share=share,
        marginal_difference=diff, effects=tuple(effects), explanation=tuple(text), n=f.n,
        bias_tests=_bias_tests(table),
    )


def _bias_tests(table: ContingencyTable) -> tuple[MarginalTest, ...]:
    """McNemar (2 x 2) or Stuart-Maxwell, Bhapkar and Bowker, when the table is small
    enough to be dense and has units; undefined tests are kept (they say why)."""
    from accord.tables.contingency import DENSE_LIMIT

    if table.n <= 0 or table.k < 2 or table.k > DENSE_LIMIT:
        return ()
    return marginal_tests(table)


def _figures(table: ContingencyTable) -> _Figures:
    from accord.coefficients import cohen_kappa, gwet_ac1, kappa_max, pabak

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        kap = cohen_kappa(table)
        pab = pabak(table)
        ac1 = gwet_ac1(table)
        kmax = kappa_max(table)
    n = table.n
    rows = table.row_totals / n if n > 0 else table.row_totals
    cols = table.col_totals / n if n > 0 else table.col_totals
    return _Figures(
        n=n, p_o=table.p_o, p_e=table.p_e, kappa=kap.estimate, kappa_reason=kap.undefined_reason,
        pabak=pab.estimate, ac1=ac1.estimate, kappa_max=kmax.estimate,
        prevalence_index=float(pab.details.get("prevalence_index", math.nan)),
        bias_index=float(pab.details.get("bias_index", math.nan)),
        rows=rows, cols=cols, pooled=(rows + cols) / 2.0,
        diagonal=table.diagonal,
    )


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}%"


def _num(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.2f}"


def _opening(f: _Figures, raters: tuple[str, str], effect: bool) -> str:
    who = f"{raters[0]} and {raters[1]}"
    if f.n <= 0:
        return f"{who} rated no unit in common, so there is nothing to compare."
    head = f"{who} agree on {_pct(f.p_o)} of the {f.n:g} units both rated"
    if f.kappa_reason is not None:
        return f"{head}, but Cohen's kappa is undefined: {f.kappa_reason}."
    joint = "yet" if effect and f.p_o - f.kappa >= KAPPA_GAP else "and"
    return f"{head}, {joint} Cohen's kappa is {f.kappa:.2f}."


def _prevalence(f: _Figures) -> bool:
    if f.n <= 0 or not math.isfinite(f.p_e):
        return False
    if f.kappa_reason is not None:
        return f.p_e >= 1.0 - 1e-12
    return math.isfinite(f.pabak) and f.pabak - f.kappa >= PREVALENCE_COST


def _prevalence_text(f: _Figures, cats: list[str], dominant: int | None) -> list[str]:
    d = 0 if dominant is None else dominant
    out = [
        f"'{cats[d]}' makes up {_pct(f.pooled[d])} of all labels, "
        f"so two raters labelling at random at these rates would already agree on "
        f"{_pct(f.p_e)} of units (chance agreement p_e)."
    ]
    if f.kappa_reason is None:
        out.append(_relation(f))
    pi = "" if not math.isfinite(f.prevalence_index) else (
        f"; prevalence index {f.prevalence_index:+.2f}")
    out.append(
        f"This is the prevalence effect (Feinstein & Cicchetti 1990; Byrt, Bishop & Carlin "
        f"1993{pi}): with balanced categories the same agreement would give "
        f"PABAK = {_num(f.pabak)}, and Gwet's AC1, which is less affected by prevalence, "
        f"is {_num(f.ac1)}."
    )
    rare = _rare_text(f, cats, d)
    return out + ([rare] if rare else [])


def _relation(f: _Figures) -> str:
    if f.kappa < -0.05:
        return ("The observed agreement is below that, so kappa is negative: the raters agree "
                "less often than chance alone would predict.")
    if f.kappa <= 0.05:
        return ("The observed agreement is no better than that, so kappa is about 0: beyond "
                "chance, the raters show no agreement.")
    return ("Kappa counts only the agreement beyond that chance level, so it is much lower "
            "than the raw agreement.")


def _rare_text(f: _Figures, cats: list[str], dominant: int) -> str | None:
    """Specific agreement on the least common category used (other than the dominant one)."""
    either = (f.rows + f.cols) * f.n
    used = [i for i in range(len(cats)) if either[i] > 0 and i != dominant]
    if not used:
        return None
    rare = min(used, key=lambda i: (either[i], i))
    both = float(f.diagonal[rare])
    specific = 2.0 * both / either[rare]
    if specific >= RARE_SPECIFIC:
        return None
    units_either = either[rare] - both
    return (
        f"On the less common category '{cats[rare]}' the raters agree on {both:g} of the "
        f"{units_either:g} units either of them gave it (specific agreement {specific:.2f}): "
        "that is where kappa looks, and where the disagreement is."
    )


def _bias_text(f: _Figures, cats: list[str], raters: tuple[str, str]) -> str:
    k = int(np.argmax(np.abs(f.rows - f.cols)))
    bi = "" if not math.isfinite(f.bias_index) else f" (bias index {f.bias_index:+.2f})"
    return (
        f"The raters use the categories at different rates{bi}: {raters[0]} gives "
        f"'{cats[k]}' to {_pct(f.rows[k])} of units and {raters[1]} to {_pct(f.cols[k])}. "
        "Disagreement of this kind is systematic, and the marginals alone cap kappa at "
        f"kappa max = {_num(f.kappa_max)}."
    )


def many_rater_prevalence(counts: RaterCounts) -> tuple[str, ...]:
    """The prevalence effect on Fleiss' kappa, said when present (empty otherwise).

    The rule of :func:`kappa_context` for many raters: Fleiss' kappa at least 0.10
    below Brennan-Prediger's coefficient, the value the same observed agreement gives
    when chance agreement is that of balanced categories (``1/k``), or Fleiss' kappa
    undefined because its chance agreement is 1.

    Examples
    --------
    >>> from accord import RaterCounts
    >>> rc = RaterCounts([[3, 0]] * 17 + [[2, 1]] * 3)
    >>> first, second, last = many_rater_prevalence(rc)
    >>> first.startswith("'0' makes up 95.0% of all labels")
    True
    >>> print(second)
    The raters agree on 90.0% of pairs, less often than that, so Fleiss' kappa is negative (-0.05).
    >>> last.endswith("Gwet's AC1, which is less affected by prevalence, is 0.89.")
    True
    """
    from accord.coefficients import brennan_prediger, fleiss_kappa, gwet_ac1

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        fk, bp, ac1 = fleiss_kappa(counts), brennan_prediger(counts), gwet_ac1(counts)
    if not (math.isfinite(bp.estimate) and math.isfinite(fk.expected)):
        return ()
    if fk.defined and bp.estimate - fk.estimate < PREVALENCE_COST:
        return ()
    if not fk.defined and fk.expected < 1.0 - 1e-12:
        return ()
    totals = counts.category_totals
    d = int(np.argmax(totals))
    share = float(totals[d] / totals.sum())
    out = [f"'{counts.categories[d]}' makes up {_pct(share)} of all labels, so raters "
           f"labelling at random at these rates would already agree on {_pct(fk.expected)} "
           "of pairs (Fleiss' chance agreement p_e)."]
    if fk.defined:
        head = f"The raters agree on {_pct(fk.observed)} of pairs"
        out.append(
            f"{head}, less often than that, so Fleiss' kappa is negative ({fk.estimate:.2f})."
            if fk.estimate < -0.05 else
            f"{head}, no better than that, so Fleiss' kappa is about 0 ({fk.estimate:.2f})."
            if fk.estimate <= 0.05 else
            f"{head}; Fleiss' kappa ({fk.estimate:.2f}) counts only the agreement beyond that "
            "level, so it is much lower.")
    out.append(f"This is the prevalence effect (Feinstein & Cicchetti 1990): with balanced "
               f"categories the same agreement would give Brennan-Prediger = "
               f"{_num(bp.estimate)}, and Gwet's AC1, which is less affected by prevalence, "
               f"is {_num(ac1.estimate)}.")
    return tuple(out)
