"""Agreement on relations between spans: pairwise F1 and kappa on the relation type.

A relation is (document, head argument, tail argument, type). Its arguments are
spans of the rater who drew it; two raters' relations can be the same only when
their arguments are the same spans, found by the span matching of
:mod:`accord.spans.matching` in the chosen mode (strict: same offsets and
label). A relation is directed unless its type is declared symmetric (or the
tool drew it both ways: a brat ``*`` equivalence, a Label Studio ``bi`` arrow).

For two raters A (reference) and B, the SemEval-style counts are

* correct: both linked the same argument pair with the same type;
* incorrect: both linked it, with different types (a *type* disagreement);
* missed: A linked a pair B did not; spurious: B linked a pair A did not; each
  split into those whose arguments B (or A) also marked, and those whose
  arguments have no partner on the other side (``missed_unmatched_arguments``,
  ``spurious_unmatched_arguments``: a *span* disagreement behind the relation);

and ``F1 = 2 C / (n_A + n_B)`` (Hripcsak & Rothschild 2005), the mean over pairs
for more raters. Kappa is Cohen's (two raters) or Fleiss' (more) on the type of
every argument pair some rater linked, in the documents every rater annotated,
with "no relation" for a rater who did not link it; the argument pairs of
several raters are the same when their spans are joined by matches (argument
clusters). The per-document counts are the sufficient statistic: a bootstrap
draws documents and sums them, never matching again.

References: Hripcsak & Rothschild (2005), *JAMIA* 12(3), 296-298; Segura-Bedmar,
Martinez & Herrero-Zazo (2013), SemEval-2013 task 9; Cohen (1960); Fleiss (1971).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.errors import InsufficientDataError
from accord.inference.display import Tabular
from accord.inference.resampling import FloatArray, IntArray, Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.spans._inputs import Encoded, encode_cached, table_of
from accord.spans._relinputs import (
    RelArrays,
    argument_matches,
    clusters,
    encode_relations,
    relation_rows,
)
from accord.spans._relkappa import NO_RELATION, disputes_of, items_of, kappa_of
from accord.spans.agreement import _finite_mean
from accord.spans.matching import MODES, Mode

__all__ = ["RelationAgreement", "RelationCounts", "RelationDispute", "relation_agreement"]

FUNC = "relation_agreement"
#: columns of the per-document counts
COUNTS = ("correct", "incorrect", "missed", "spurious",
          "missed_unmatched_arguments", "spurious_unmatched_arguments")  # fmt: skip


@dataclass(frozen=True)
class RelationCounts:
    """How the relations of two raters compared (the first rater is the reference).

    ``missed_unmatched_arguments`` (part of ``missed``) are the first rater's relations
    whose arguments the second did not mark as spans (in the mode);
    ``spurious_unmatched_arguments`` the same the other way round.
    """

    correct: int
    incorrect: int
    missed: int
    spurious: int
    missed_unmatched_arguments: int
    spurious_unmatched_arguments: int

    def to_dict(self) -> dict[str, int]:
        """The six counts."""
        return {k: int(getattr(self, k)) for k in COUNTS}


@dataclass(frozen=True)
class RelationDispute:
    """One argument pair the raters did not all give the same type (or link at all)."""

    unit: Any
    head: str
    tail: str
    types: Mapping[str, str]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"unit": self.unit, "head": self.head, "tail": self.tail, "types": dict(self.types)}


@dataclass(frozen=True)
class RelationAgreement(Tabular):
    """Agreement on relations (see :func:`relation_agreement`).

    Attributes
    ----------
    mode : str
        The span matching mode that identified the arguments.
    f1 : AgreementResult
        Pairwise relation F1, the mean over rater pairs.
    kappa : AgreementResult
        Cohen's (two raters) or Fleiss' (more) kappa on the relation type, "no
        relation" included, over the argument pairs some rater linked.
    per_type : mapping of type to AgreementResult
        F1 of each relation type (each type's relations compared on their own).
    pairs : mapping of (rater, rater) to RelationCounts
        The counts of each pair.
    disputes : tuple of RelationDispute
        The argument pairs the raters disagree on, most disputed first.
    notes : tuple of str
        Choices made on the data.
    """

    mode: str
    f1: AgreementResult
    kappa: AgreementResult
    per_type: Mapping[str, AgreementResult]
    pairs: Mapping[tuple[str, str], RelationCounts]
    disputes: tuple[RelationDispute, ...] = ()
    notes: tuple[str, ...] = ()
    counts: RelationCounts = field(default_factory=lambda: RelationCounts(0, 0, 0, 0, 0, 0))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision."""
        return {
            "mode": self.mode,
            "f1": self.f1.to_dict(),
            "kappa": self.kappa.to_dict(),
            "per_type": {k: r.to_dict() for k, r in self.per_type.items()},
            "counts": self.counts.to_dict(),
            "pairs": [{"raters": list(k), "counts": c.to_dict()} for k, c in self.pairs.items()],
            "disputes": [d.to_dict() for d in self.disputes],
            "notes": list(self.notes),
        }

    def _display_dict(self) -> dict[str, Any]:
        """The card: F1, then kappa and each type's F1 as the table's rows."""
        out = self.to_dict()
        kappa = out.pop("kappa")
        out["per_type"] = {"kappa on the type": kappa, **out["per_type"]}
        for key in ("pairs", "disputes", "counts"):
            out.pop(key)
        return out


def relation_agreement(
    spans: Any,
    relations: Any = None,
    *,
    mode: Mode = "strict",
    symmetric: Collection[str] = (),
    raters: Sequence[str] | None = None,
    n_disputes: int = 10,
) -> RelationAgreement:
    """Agreement between raters on relations between spans: pairwise F1 and kappa on the type.

    Parameters
    ----------
    spans : Annotations or SpanTable
        The spans the relations link, each with its id (``Span.id``), as read from
        brat, INCEpTION/WebAnno TSV, Label Studio or doccano.
    relations : RelationTable or list of Relation, optional
        The relations (default: those read with the spans).
    mode : {"strict", "exact", "partial", "type"}
        When two spans are the same argument (SemEval-2013 task 9.1 modes; strict =
        same offsets and label, partial = overlapping counts too).
    symmetric : collection of str
        Relation types whose two arguments may be swapped.
    raters : sequence of str, optional
        The raters to compare (default: all).
    n_disputes : int
        How many disputed argument pairs to keep in ``disputes``.

    Returns
    -------
    RelationAgreement
        ``f1`` (with the SemEval counts in ``details`` and ``counts``), ``kappa``,
        ``per_type`` F1 and ``pairs``; intervals from
        ``res.f1.confidence_interval(method=accord.Bootstrap(...))`` resample documents.

    Notes
    -----
    A relation whose arguments have no partner among the other rater's spans
    counts as missed (or spurious) and is counted apart in
    ``missed_unmatched_arguments`` / ``spurious_unmatched_arguments``; two
    relations on the same arguments with different types count as incorrect. F1
    is undefined (``nan``) when no pair drew a relation; kappa when every linked
    pair got one type from everyone (``p_e = 1``). A relation naming a span that
    does not exist, a span of another document or its own head twice, and a
    relation given twice are errors (:class:`~accord.errors.DataError`).

    References
    ----------
    Hripcsak & Rothschild (2005). Agreement, the F-measure, and reliability in
    information retrieval. *JAMIA* 12(3), 296-298.
    Segura-Bedmar, Martinez & Herrero-Zazo (2013). SemEval-2013 task 9:
    extraction of drug-drug interactions. *SemEval 2013*, 341-350.

    Examples
    --------
    Two raters mark the same two entities; one links them as ``works_for``, the
    other as ``located_in``; both link a second pair the same way.

    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> from accord.readers.relations import Relation
    >>> marks = [(0, 5, "PER", "T1"), (15, 20, "ORG", "T2"), (30, 35, "LOC", "T3")]
    >>> spans = SpanTable(tuple(Span("d1", r, s, e, lab, id=i)
    ...                         for r in ("ann", "bob") for s, e, lab, i in marks))
    >>> rels = [Relation("d1", "ann", "R1", "T1", "T2", "works_for"),
    ...         Relation("d1", "bob", "R1", "T1", "T2", "located_in"),
    ...         Relation("d1", "ann", "R2", "T2", "T3", "located_in"),
    ...         Relation("d1", "bob", "R2", "T2", "T3", "located_in")]
    >>> res = accord.relation_agreement(spans, rels)
    >>> res.f1.estimate, res.counts.correct, res.counts.incorrect
    (0.5, 1, 1)
    """
    v.choice(mode, MODES, param="mode", func=FUNC)
    table = table_of(spans, FUNC, "spans")
    rel_table = relation_rows(relations, table.relations, FUNC)
    enc = encode_cached(table, raters, None, FUNC)
    if len(enc.raters) < 2:
        raise InsufficientDataError(
            f"{FUNC}: relation agreement needs two raters or more; found {list(enc.raters)!r}."
        )
    rels, types, notes = encode_relations(rel_table, enc, symmetric, FUNC)
    matches = {(a, b): argument_matches(enc, a, b, mode) for a, b in combinations(enc.raters, 2)}
    pair_counts = {k: _pair_counts(enc, rels, k, matches[k], len(types)) for k in matches}
    f1 = _f1(pair_counts, enc, mode, None, "relation_f1")
    per_type = {
        t: _f1(pair_counts, enc, mode, c, f"relation_f1 (type {t!r})", t)
        for c, t in enumerate(types)
    }
    items = items_of(enc, rels, clusters(enc, matches), len(types))
    kappa = kappa_of(items, enc, mode, (*types, NO_RELATION))
    totals = np.sum([p.per_unit.sum(axis=0) for p in pair_counts.values()], axis=0)
    counts = RelationCounts(*(int(x) for x in totals))
    pairs = {k: RelationCounts(*(int(x) for x in p.per_unit.sum(axis=0)))
             for k, p in pair_counts.items()}  # fmt: skip
    disputes = tuple(RelationDispute(*d) for d in disputes_of(
        items, enc, rels, (*types, NO_RELATION), n_disputes))
    f1 = replace(f1, details={**f1.details, **counts.to_dict()})
    return RelationAgreement(mode, f1, kappa, per_type, pairs, disputes,
                             (*notes, *items.notes), counts)  # fmt: skip


@dataclass(frozen=True)
class _PairCounts:
    per_unit: IntArray  # (n_units, 6) counts, all units of the data
    per_type: IntArray  # (n_units, n_types, 2): correct and n_A + n_B of each type
    compared: np.ndarray[Any, np.dtype[np.bool_]]


def _pair_counts(
    enc: Encoded, rels: dict[str, RelArrays], pair: tuple[str, str],
    match: tuple[IntArray, IntArray], n_types: int,
) -> _PairCounts:  # fmt: skip
    a, b = pair
    both = enc.annotated[a] & enc.annotated[b]
    ra, rb = _keep(rels[a], both), _keep(rels[b], both)
    to_a = np.full(len(enc.sets[b]), -1, dtype=np.int64)
    to_a[match[1]] = match[0]
    to_b = np.full(len(enc.sets[a]), -1, dtype=np.int64)
    to_b[match[0]] = match[1]
    n = len(enc.sets[a]) + 1
    ka = _keys(ra.head, ra.tail, ra.undirected, n)
    hb, tb = to_a[rb.head], to_a[rb.tail]
    ok_b = (hb >= 0) & (tb >= 0)
    kb = np.where(ok_b, _keys(hb, tb, rb.undirected, n), -1 - np.arange(len(rb)))  # unique
    args_a = (to_b[ra.head] >= 0) & (to_b[ra.tail] >= 0)
    correct_a = _paired(ka * n_types + ra.type, kb * n_types + rb.type)
    correct_b = _paired(kb * n_types + rb.type, ka * n_types + ra.type)
    # the pairs already correct take keys no other entry has, so they pair no more
    left_a = np.where(correct_a, -(2**40) - np.arange(len(ra)), ka)
    left_b = np.where(correct_b, -(2**41) - np.arange(len(rb)), kb)
    wrong_a, wrong_b = _paired(left_a, left_b), _paired(left_b, left_a)
    miss, spur = ~(correct_a | wrong_a), ~(correct_b | wrong_b)
    cols = [(ra.unit, correct_a), (ra.unit, wrong_a), (ra.unit, miss), (rb.unit, spur),
            (ra.unit, miss & ~args_a), (rb.unit, spur & ~ok_b)]  # fmt: skip
    m = both.shape[0]
    per_unit = np.stack([np.bincount(u[f], minlength=m) for u, f in cols], axis=1)
    size = m * max(n_types, 1)
    cell_a, cell_b = ra.unit * n_types + ra.type, rb.unit * n_types + rb.type
    per_type = np.stack([
        np.bincount(cell_a[correct_a], minlength=size),
        np.bincount(cell_a, minlength=size) + np.bincount(cell_b, minlength=size),
    ], axis=1).reshape(m, max(n_types, 1), 2).astype(np.int64)  # fmt: skip
    return _PairCounts(per_unit.astype(np.int64), per_type, both)


def _keep(r: RelArrays, units: np.ndarray[Any, np.dtype[np.bool_]]) -> RelArrays:
    k = units[r.unit]
    ids = tuple(i for i, x in zip(r.ids, k.tolist()) if x)
    return RelArrays(r.unit[k], r.head[k], r.tail[k], r.type[k], r.undirected[k], ids)


def _keys(h: IntArray, t: IntArray, undirected: Any, n: int) -> IntArray:
    lo, hi = np.minimum(h, t), np.maximum(h, t)
    return np.where(undirected, lo, h) * n + np.where(undirected, hi, t)


def _paired(x: IntArray, y: IntArray) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which entries of ``x`` have a partner in ``y``: the j-th copy of a value in ``x``
    pairs with the j-th copy in ``y``."""
    if x.shape[0] == 0 or y.shape[0] == 0:
        return np.zeros(x.shape[0], dtype=bool)
    _, code = np.unique(np.concatenate([x, y]), return_inverse=True)
    cx, cy = code[: x.shape[0]], code[x.shape[0]:]
    rx, ry = _rank(cx), _rank(cy)
    width = int(max(rx.max(), ry.max())) + 1
    return np.isin(cx * width + rx, cy * width + ry)


def _rank(x: IntArray) -> IntArray:
    """For each entry, how many equal entries come before it."""
    order = np.argsort(x, kind="stable")
    s = x[order]
    first = np.r_[0, np.flatnonzero(np.diff(s)) + 1]
    start = np.repeat(first, np.diff(np.r_[first, s.shape[0]]))
    rank = np.empty_like(x)
    rank[order] = np.arange(s.shape[0]) - start
    return rank


def _f1(
    pairs: dict[tuple[str, str], _PairCounts], enc: Encoded, mode: str, code: int | None,
    what: str, typ: str | None = None,
) -> AgreementResult:  # fmt: skip
    """The mean over pairs of ``2 C / (n_A + n_B)``, resampling documents."""
    compared = np.zeros(len(enc.units), dtype=bool)
    for p in pairs.values():
        compared |= p.compared
    units = np.flatnonzero(compared)
    blocks = []
    for p in pairs.values():
        if code is None:  # n_A + n_B = 2 C + 2 I + M + S
            c = p.per_unit[:, 0]
            t = 2 * p.per_unit[:, 0] + 2 * p.per_unit[:, 1] + p.per_unit[:, 2] + p.per_unit[:, 3]
        else:
            c, t = p.per_type[:, code, 0], p.per_type[:, code, 1]
        blocks.append(np.where(p.compared[:, None], np.stack([c, t], axis=1), 0)[units])
    x = np.concatenate(blocks, axis=1).astype(np.float64)
    stat = _mean_f1
    with np.errstate(divide="ignore", invalid="ignore"):
        est = float(stat(x.sum(axis=0)[None, :])[0])
    reason = None if math.isfinite(est) else "no rater drew a relation in the documents compared"
    if reason is not None:
        v.warn_undefined(f"{what} ({mode})", reason)
    ids = tuple(enc.units[i] for i in units.tolist())
    return AgreementResult(
        coefficient="relation_f1", estimate=est, observed=math.nan, expected=math.nan,
        se=math.nan, n_units=int(units.shape[0]), n_raters=len(enc.raters),
        undefined_reason=reason,
        details={"mode": mode, "n_pairs": len(pairs)} | ({} if typ is None else {"type": typ}),
        bounds=(0.0, 1.0), resampling=lambda: _resampling(x, stat, ids),
    )  # fmt: skip


def _mean_f1(s: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return _finite_mean(2.0 * s[:, 0::2] / s[:, 1::2])


def _resampling(x: FloatArray, stat: Any, ids: tuple[Any, ...]) -> Resampling:
    patterns, counts, inverse = pattern_index(x)
    return Resampling(np.asarray(patterns, dtype=np.float64), counts, stat, inverse, ids)

