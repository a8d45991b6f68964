"""Kappa on relation types over argument pairs, and the most disputed pairs.

An *item* is an argument pair some rater linked, in a document every rater
annotated: (argument cluster of the head, of the tail), unordered for a
symmetric relation. Each rater gives it a type, or "no relation" (the last
category). Two raters: Cohen's kappa on the k x k table; more: Fleiss' kappa on
the items x categories counts (Fleiss 1971). The per-document table (or, for
Fleiss, the per-document sum of squared counts, item count and category totals)
is what a bootstrap over documents sums.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np

from accord.data import _validation as v
from accord.errors import DegenerateDataWarning
from accord.inference.resampling import FloatArray, IntArray, Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.spans._inputs import Encoded
from accord.spans._relinputs import RelArrays

NO_RELATION = "(no relation)"


@dataclass(frozen=True)
class Items:
    """The argument pairs: their document, one relation that names them, every rater's label."""

    unit: IntArray  # (n_items,)
    labels: IntArray  # (n_items, n_raters); n_types = no relation
    first: IntArray  # (n_items, 2): rater index and relation index of a relation on the item
    units: IntArray  # the documents every rater annotated
    notes: tuple[str, ...]


def items_of(enc: Encoded, rels: dict[str, RelArrays], cluster: dict[str, IntArray],
             n_types: int) -> Items:  # fmt: skip
    """The items of the documents every rater annotated."""
    every = np.logical_and.reduce([enc.annotated[r] for r in enc.raters])
    n_spans = 1 + max((int(c.max()) for c in cluster.values() if c.shape[0]), default=0)
    keys, who, idx, typ, unit = [], [], [], [], []
    outside = 0
    for k, r in enumerate(enc.raters):
        rel, c = rels[r], cluster[r]
        keep = np.flatnonzero(every[rel.unit])
        outside += len(rel) - keep.shape[0]
        ch, ct = c[rel.head[keep]], c[rel.tail[keep]]
        und = rel.undirected[keep]
        keys.append(np.where(und, np.minimum(ch, ct), ch) * n_spans
                    + np.where(und, np.maximum(ch, ct), ct))  # fmt: skip
        who.append(np.full(keep.shape[0], k, dtype=np.int64))
        idx.append(keep)
        typ.append(rel.type[keep])
        unit.append(rel.unit[keep])
    key, rater, rid, t, u = (np.concatenate(x) for x in (keys, who, idx, typ, unit))
    distinct, first, item = np.unique(key, return_index=True, return_inverse=True)
    labels = np.full((distinct.shape[0], len(enc.raters)), n_types, dtype=np.int64)
    labels[item, rater] = t
    notes = []
    twice = item.shape[0] - np.unique(item * len(enc.raters) + rater).shape[0]
    if twice:
        notes.append(f"{twice} relation(s) on an argument pair the same rater had linked "
                     "already (with another type, or through spans other raters' matches "
                     "joined): one type per rater and pair kept for kappa")
    if outside:
        notes.append(f"{outside} relation(s) in documents not every rater annotated: "
                     "left out of kappa (kept in the pairwise F1)")
    first_of = np.stack([rater[first], rid[first]], axis=1)
    return Items(u[first], labels, first_of, np.flatnonzero(every), tuple(notes))


def kappa_of(items: Items, enc: Encoded, mode: str, categories: tuple[str, ...]) -> AgreementResult:
    """Cohen's (two raters) or Fleiss' (more) kappa on the items' labels, resampling documents."""
    from accord.coefficients import cohen_kappa, fleiss_kappa
    from accord.tables import ContingencyTable, RaterCounts

    k, m = len(categories), items.labels.shape[1]
    slot = np.full(len(enc.units), -1, dtype=np.int64)
    slot[items.units] = np.arange(items.units.shape[0])
    doc = slot[items.unit]
    n_docs = items.units.shape[0]
    if m == 2:
        cell = items.labels[:, 0] * k + items.labels[:, 1]
        table = np.bincount(cell, minlength=k * k).reshape(k, k)
        res = _quiet(cohen_kappa, ContingencyTable(table, categories))
        x = np.bincount(doc * k * k + cell, minlength=n_docs * k * k).reshape(n_docs, k * k)
        stat = _cohen_stat(k)
        kind = "cohen_kappa"
    else:
        counts = np.zeros((items.labels.shape[0], k), dtype=np.int64)
        for j in range(m):
            counts[np.arange(counts.shape[0]), items.labels[:, j]] += 1
        res = _quiet(fleiss_kappa, RaterCounts(counts, categories))
        per_doc = [np.bincount(doc, weights=(counts**2).sum(axis=1), minlength=n_docs),
                   np.bincount(doc, minlength=n_docs)]  # fmt: skip
        totals = [np.bincount(doc, weights=counts[:, c], minlength=n_docs) for c in range(k)]
        x = np.stack(per_doc + totals, axis=1)
        stat = _fleiss_stat(m)
        kind = "fleiss_kappa"
    if res.undefined_reason is not None:
        v.warn_undefined(f"relation_kappa ({mode})", res.undefined_reason)
    xf: FloatArray = np.asarray(x, dtype=np.float64)
    ids = tuple(enc.units[i] for i in items.units.tolist())
    return replace(
        res, coefficient="relation_kappa",
        details={**res.details, "kind": kind, "mode": mode, "n_items": int(items.unit.shape[0]),
                 "n_documents": n_docs, "categories": list(categories)},
        resampling=lambda: _resampling(xf, stat, ids),
    )  # fmt: skip


def _quiet(func: Any, table: Any) -> AgreementResult:
    """The coefficient, its warning withheld (it is given again under this figure's name)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return cast(AgreementResult, func(table))


def _cohen_stat(k: int) -> Any:
    def stat(s: FloatArray) -> FloatArray:
        t = s.reshape(s.shape[0], k, k)
        n = t.sum(axis=(1, 2))
        p_o = np.trace(t, axis1=1, axis2=2) / n
        p_e = (t.sum(axis=2) * t.sum(axis=1)).sum(axis=1) / n**2
        return np.asarray((p_o - p_e) / (1.0 - p_e), dtype=np.float64)

    return stat


def _fleiss_stat(m: int) -> Any:
    def stat(s: FloatArray) -> FloatArray:
        sq, n = s[:, 0], s[:, 1]
        p_o = (sq - n * m) / (n * m * (m - 1))
        p = s[:, 2:] / (n * m)[:, None]
        p_e = (p**2).sum(axis=1)
        return np.asarray((p_o - p_e) / (1.0 - p_e), dtype=np.float64)

    return stat


def _resampling(x: FloatArray, stat: Any, ids: tuple[Any, ...]) -> Resampling:
    patterns, counts, inverse = pattern_index(x)
    return Resampling(np.asarray(patterns, dtype=np.float64), counts, stat, inverse, ids)


def disputes_of(items: Items, enc: Encoded, rels: dict[str, RelArrays],
                categories: tuple[str, ...], n: int) -> list[tuple[Any, ...]]:  # fmt: skip
    """``(unit, head text, tail text, {rater: type})`` of the ``n`` most disputed items."""
    lab = items.labels
    if lab.shape[0] == 0 or n <= 0:
        return []
    top = np.zeros(lab.shape[0], dtype=np.int64)
    for c in np.unique(lab):
        top = np.maximum(top, (lab == c).sum(axis=1))
    spread = lab.shape[1] - top
    order = np.lexsort((np.arange(lab.shape[0]), -spread))
    order = order[spread[order] > 0][:n]
    out = []
    for i in order.tolist():
        k, j = items.first[i]
        r = enc.raters[int(k)]
        rel = rels[r]
        head, tail = (_text(enc, r, int(p[j])) for p in (rel.head, rel.tail))
        types = {enc.raters[c]: categories[int(lab[i, c])] for c in range(lab.shape[1])}
        out.append((enc.units[int(items.unit[i])], head, tail, types))
    return out


def _text(enc: Encoded, rater: str, pos: int) -> str:
    s = enc.sets[rater]
    row = int(s.origin[pos]) if s.origin is not None else pos
    sp = enc.rows[rater][row]
    shown = sp.text if sp.text is not None else f"{sp.start}-{sp.end}"
    return f"{shown} [{sp.label}]"
