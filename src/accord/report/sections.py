"""The report's detail sections: worksheets, per category, per rater, per unit, bootstrap."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from accord.data._sets import label_text
from accord.data.annotations import Annotations
from accord.errors import BudgetError, DataError, DegenerateDataWarning
from accord.inference.results import AgreementResult, ConfidenceInterval
from accord.report._text import RATERS_SHOWN
from accord.report.explain import kappa_context
from accord.report.model import (
    BootstrapSummary,
    CategoryRow,
    PairAnalysis,
    RaterMatrix,
    RaterRow,
    Settings,
    UnitRow,
    UnitsSection,
    Worksheet,
)
from accord.tables.contingency import ContingencyTable

MAX_SHOWN = 30
MAX_RATERS = 30  # beyond this many raters: the crowd's pairs (crowd_pairs), no leave-one-out
CROWD_MIN_SHARED = 30  # a crowd's pairs are shown when they share at least this many units
PAIR_BUDGET = 100_000_000  # within-unit pairs of ratings joined for a crowd's pairs, at most
HISTOGRAM_BINS = 40

__all__ = ["bootstrap_summary", "crowd_pairs", "pair_analyses", "rater_matrix", "rater_rows",
           "units_section"]


# --------------------------------------------------------------------------- pairs
def pairwise_kappa(ann: Annotations) -> Any:
    """Pairwise Cohen's kappa (``accord.pairwise``) for 3 to 30 raters, else None."""
    if not 3 <= ann.n_raters <= MAX_RATERS or ann.level in ("interval", "ratio"):
        return None
    from accord.coefficients.pairwise import pairwise

    return pairwise(ann, "cohen_kappa")


def few_pairs(ann: Annotations) -> CrowdPairs:
    """:func:`pairwise_kappa`, or None with the sentence why when its tables are past
    their budget (thousands of categories: a k x k table per pair)."""
    try:
        return CrowdPairs(pairwise_kappa(ann), "")
    except BudgetError as exc:
        return CrowdPairs(None, _no_matrix(ann.n_raters, exc) + ".", True)


def _no_matrix(n_raters: int, exc: BudgetError) -> str:
    return (f"With {n_raters:,} raters the rater x rater matrix and the worksheets of the "
            f"least and most agreeing pairs are left out: {str(exc).rstrip('.')}")


@dataclass(frozen=True)
class CrowdPairs:
    """The pairs a crowd's report shows (None: none) and the sentence that says which."""

    result: Any
    note: str
    over_budget: bool = False  # the note says a part was left out past its budget


def crowd_pairs(ann: Annotations) -> CrowdPairs:
    """For more than 30 raters: the rater x rater matrix of the 30 raters of the pairs
    that share most units, Cohen's kappa where a pair shares at least
    :data:`CROWD_MIN_SHARED` units.

    The shared units of every pair come from one sparse join on units, whose cost is
    the number of within-unit pairs of ratings; above :data:`PAIR_BUDGET` (a few seconds
    on one core) the pairs are left out, with the reason. Pairs are taken by shared
    units (most first, ties in rater order) until they name 30 raters.
    """
    from accord.coefficients._pair_join import codes_by_unit, shared_units, within_unit_pairs
    from accord.coefficients.pairwise import pairwise

    r = ann.n_raters
    loo = f"leave-one-out is left out (more than {MAX_RATERS} raters)"
    if ann.level in ("interval", "ratio"):
        return CrowdPairs(None, f"With {r:,} raters {loo}.")
    units, raters, _ = codes_by_unit(ann)
    joined = within_unit_pairs(units, ann.n_units)
    if joined > PAIR_BUDGET:
        return CrowdPairs(None, (
            f"With {r:,} raters the rater x rater matrix and the worksheets of the least and "
            f"most agreeing pairs are left out: finding the pairs that share units means "
            f"joining {joined:,} pairs of ratings within units, more than the report's "
            f"budget of {PAIR_BUDGET:,} (accord.pairwise(annotations, min_shared="
            f"{CROWD_MIN_SHARED}) computes them); {loo}; name pairs with pairs=."))
    a, b, n = shared_units(units, raters, ann.n_units, r)
    enough = np.flatnonzero(n >= CROWD_MIN_SHARED)
    order = enough[np.argsort(-n[enough], kind="stable")]
    chosen: dict[int, None] = {}
    for k in order.tolist():
        new = [g for g in (int(a[k]), int(b[k])) if g not in chosen]
        if len(chosen) + len(new) > MAX_RATERS:
            break
        chosen.update(dict.fromkeys(new))
    if not chosen:
        return CrowdPairs(None, (
            f"With {r:,} raters no pair of raters shares {CROWD_MIN_SHARED} units or more, "
            "so the rater x rater matrix and the worksheets of the least and most agreeing "
            f"pairs are left out; {loo}; name pairs with pairs=."))
    names = [ann.raters[g] for g in sorted(chosen)]
    with warnings.catch_warnings():  # pairs left out are said below, not one by one
        warnings.simplefilter("ignore", DegenerateDataWarning)
        try:
            res = pairwise(ann.select(names), "cohen_kappa", min_shared=CROWD_MIN_SHARED)
        except BudgetError as exc:  # thousands of labels: k x k tables per pair
            return CrowdPairs(None, _no_matrix(r, exc) + f"; {loo}.", True)
    undefined = int(np.count_nonzero(np.isnan(res.pair_estimates[res.pair_n >= CROWD_MIN_SHARED])))
    if undefined:
        warnings.warn(f"cohen_kappa is undefined (p_e = 1) for {undefined} of the "
                      f"{res.n_pairs} pairs in the rater x rater matrix.",
                      DegenerateDataWarning, stacklevel=2)
    total = r * (r - 1) // 2
    return CrowdPairs(res, (
        f"With {r:,} raters the rater x rater matrix shows the {len(names)} raters of the "
        f"pairs that share most units: {res.n_pairs} pairs among them share at least "
        f"{CROWD_MIN_SHARED} units (Cohen's kappa), of {enough.size:,} such pairs in all; "
        f"{total - enough.size:,} of the {total:,} pairs share fewer units or none and are "
        f"left out; {loo}."))


def choose_pairs(ann: Annotations, pairs: Sequence[tuple[Any, Any]] | None,
                 pw: Any = None) -> list[tuple[Any, Any, str]]:
    """The rater pairs whose worksheet is shown, each with why it was chosen."""
    if pairs is not None:
        out = []
        for pair in pairs:
            if len(pair) != 2 or any(r not in ann.raters for r in pair) or pair[0] == pair[1]:
                raise DataError(f"pair {tuple(pair)!r} must name two different raters of "
                                f"{list(ann.raters)!r}.")
            out.append((pair[0], pair[1], "chosen"))
        return out
    if ann.n_raters == 2:
        return [(ann.raters[0], ann.raters[1], "the two raters")]
    if ann.n_raters == 3:
        return [(a, b, "every pair of the three raters") for a, b in combinations(ann.raters, 2)]
    return _extreme_pairs(ann, pw if pw is not None else few_pairs(ann).result)


def _extreme_pairs(ann: Annotations, res: Any) -> list[tuple[Any, Any, str]]:
    if res is None:
        return []
    scored = [(r.estimate, pair) for pair, r in res.results.items() if math.isfinite(r.estimate)]
    if not scored:
        a, b = ann.raters[0], ann.raters[1]
        return [(a, b, "the first two raters (no pair has a defined kappa)")]
    low = min(scored, key=lambda t: t[0])[1]
    high = max(scored, key=lambda t: t[0])[1]
    out = [(low[0], low[1], "the least agreeing pair (lowest Cohen's kappa)")]
    if high != low:
        out.append((high[0], high[1], "the most agreeing pair (highest Cohen's kappa)"))
    return out


def pair_analyses(ann: Annotations, pairs: Sequence[tuple[Any, Any]] | None,
                  confidence_level: float, pw: Any = None,
                  weights: str | None = None) -> tuple[PairAnalysis, ...]:
    """Worksheet, kappa context and per-category agreement for the pairs that matter.

    Empty for interval and ratio data, where a contingency table of values is not
    the evidence a reader needs.
    """
    if ann.level in ("interval", "ratio"):
        return ()
    out = []
    for a, b, why in choose_pairs(ann, pairs, pw):
        try:
            table = ContingencyTable.from_annotations(ann, [a, b])
        except DataError:
            continue
        names = (str(a), str(b))
        out.append(PairAnalysis(names, why, worksheet(table, names, weights),
                                kappa_context(table, names),
                                category_rows(table, confidence_level)))
    return tuple(out)


def worksheet(table: ContingencyTable, names: tuple[str, str],
              weights: str | None = None) -> Worksheet:
    """The worksheet model of a table (counts left out beyond 30 categories).

    With ``weights`` (other than ``"identity"``) the weighted p_o, p_e and kappa of
    the same table are given too, so the worksheet shows the figures the weighted
    coefficients report.
    """
    from accord.coefficients import cohen_kappa

    weighted = weights not in (None, "identity")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        kap = cohen_kappa(table)
        wk = cohen_kappa(table, weights=weights) if weighted else None
    nan = math.nan
    shown = table.k <= MAX_SHOWN
    counts = tuple(tuple(float(x) for x in row) for row in table.counts) if shown else ()
    return Worksheet(
        raters=names, categories=tuple(str(c) for c in table.categories) if shown else (),
        counts=counts,
        row_totals=tuple(float(x) for x in table.row_totals) if shown else (),
        col_totals=tuple(float(x) for x in table.col_totals) if shown else (),
        n=table.n, p_o=table.p_o, p_e=table.p_e, kappa=kap.estimate,
        kappa_undefined_reason=kap.undefined_reason, shown=shown,
        weights=weights if weighted else None,
        weighted_p_o=wk.observed if wk is not None else nan,
        weighted_p_e=wk.expected if wk is not None else nan,
        weighted_kappa=wk.estimate if wk is not None else nan,
    )


def category_rows(table: ContingencyTable, confidence_level: float) -> tuple[CategoryRow, ...]:
    """One-vs-rest kappa with its asymptotic interval, and specific agreement, per category.

    Beyond 30 categories only the 30 most used are kept.
    """
    from accord.coefficients import category_agreement, cohen_kappa

    per = category_agreement(table)
    keys = list(per)
    if len(keys) > MAX_SHOWN:
        used = table.row_totals + table.col_totals
        keep = sorted(np.argsort(-used, kind="stable")[:MAX_SHOWN])
        keys = [keys[i] for i in keep]
    rows = []
    for cat in keys:
        f = per[cat]
        a, r1, r2 = f["n_both"], f["n_rater1"], f["n_rater2"]
        two = ContingencyTable([[a, r1 - a], [r2 - a, table.n - r1 - r2 + a]])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            ci = cohen_kappa(two).confidence_interval(confidence_level)
        rows.append(CategoryRow(str(cat), f["kappa"], ci.low, ci.high, f["positive_agreement"],
                                f["negative_agreement"], r1, r2, a, ci.method))
    return tuple(rows)


# --------------------------------------------------------------------------- raters
def rater_rows(ann: Annotations, primary: str | None, settings: Settings,
               form: str | None) -> tuple[str | None, tuple[RaterRow, ...]]:
    """Each rater's label distribution and the primary coefficient without them."""
    from accord.interpret.diagnostics import label_distribution

    dist = label_distribution(ann)
    loo_name, loo = _leave_one_out(ann, primary, settings, form)
    rows = []
    for g, rater in enumerate(ann.raters):
        counts = dist.counts[g]
        shown = tuple(int(x) for x in counts) if len(ann.categories) <= MAX_SHOWN else ()
        rows.append(RaterRow(str(rater), str(ann.kinds.get(rater, "human")), int(counts.sum()),
                             shown, loo.get(rater, math.nan)))
    return loo_name, tuple(rows)


def _leave_one_out(ann: Annotations, primary: str | None, settings: Settings,
                   form: str | None) -> tuple[str | None, dict[Any, float]]:
    from accord.interpret.diagnostics import leave_one_rater_out
    from accord.interpret.selection import accepted_options
    from accord.study import REGISTRY

    if not 3 <= ann.n_raters <= MAX_RATERS or primary is None:
        return None, {}
    name = primary if REGISTRY[primary].raters == "many" else "fleiss_kappa"
    if name not in REGISTRY:
        return None, {}
    given = {"weights": settings.weights, "level": settings.level or ann.level, "form": form}
    accepted = accepted_options(name)
    options = {k: x for k, x in given.items() if x is not None and k in accepted}
    loo = leave_one_rater_out(ann, name, **options)
    return name, dict(loo.estimates)


def rater_matrix(res: Any) -> RaterMatrix | None:
    """The matrix of a :func:`pairwise_kappa` result (None for two raters)."""
    if res is None:
        return None
    return RaterMatrix(
        "cohen_kappa", tuple(str(r) for r in res.raters),
        tuple(tuple(float(x) for x in row) for row in res.estimates),
        tuple(tuple(int(x) for x in row) for row in res.n),
    )


# --------------------------------------------------------------------------- units
def units_section(ann: Annotations, top: int,
                  context: Mapping[str, Mapping[Any, str]] | None = None) -> UnitsSection:
    """The ``top`` units with most disagreement, with every label and the ``context``."""
    from accord.interpret.disagreements import disagreements

    d = disagreements(ann, order="disagreement", limit=top, context=context)
    units = list(d.units)
    given = [dict(zip(u.raters, u.labels)) if u.raters is not None
             else {r: x for r, x in zip(d.raters, u.labels) if x is not None} for u in units]
    cols = list(d.raters)
    if len(cols) > RATERS_SHOWN:  # a crowd: only the raters who rated a listed unit
        cols = [r for r in cols if any(r in g for g in given)]
    rows = tuple(
        UnitRow(str(u.unit),
                tuple(None if g.get(r) is None else label_text(g[r]) for r in cols),
                u.n_ratings, u.agreement, d.context_of(u.unit))
        for u, g in zip(units, given)
    )
    raters = tuple(str(r) for r in cols)
    return UnitsSection(raters, rows, d.n_disagreements, d.n_compared, tuple(d.context))


# --------------------------------------------------------------------------- bootstrap
def bootstrap_summary(results: Sequence[AgreementResult],
                      intervals: Sequence[ConfidenceInterval | None], primary: str | None,
                      method: Any) -> BootstrapSummary | None:
    """A histogram of the primary coefficient's bootstrap replicates, when a bootstrap ran."""
    from accord.inference import Bootstrap

    if not isinstance(method, Bootstrap):
        return None
    for res, ci in zip(results, intervals):
        if res.coefficient != primary or ci is None or ci.replicates is None:
            continue
        reps = ci.replicates
        if reps.size == 0:
            return None
        counts, edges = np.histogram(reps, bins=HISTOGRAM_BINS)
        return BootstrapSummary(
            coefficient=res.coefficient, kind=method.kind, n_resamples=method.n_resamples,
            n_excluded=ci.n_excluded, seed=method.rng if isinstance(method.rng, int) else None,
            estimate=res.estimate, ci_low=ci.low, ci_high=ci.high,
            confidence_level=ci.confidence_level, edges=tuple(float(x) for x in edges),
            counts=tuple(int(x) for x in counts), method=ci.method,
        )
    return None
