"""Relation agreement speed: ``accord.relation_agreement`` at 10^4 documents x 3 raters.

Run by hand::

    .venv/bin/python benchmarks/bench_relations.py [--docs 10000] [--relations 50]

Data: ``--docs`` documents, 3 raters, 30 spans per document and rater (5 labels)
and ``--relations`` relations per document and rater (6 types) between distinct
spans. Rater 1 is the base; raters 2 and 3 copy its spans, moving a boundary by one
character with probability 0.05 and changing a label with probability 0.05, and copy
its relations, changing the type with probability 0.1, dropping one with
probability 0.1 and adding a new one with probability 0.1.

Timed (CPU time of this process, best of ``--repeat``): ``relation_agreement`` in
the strict mode (the first call encodes the spans), then in the type mode (the
span encoding reused). Each call matches the spans of the 3 rater pairs, checks
every relation's ids, counts F1 per pair and per type, builds the argument
clusters and Fleiss' kappa. Peak memory: the ``tracemalloc`` peak of one more,
untimed call (encoding again). Building the Span and Relation objects (the
readers' work) is timed apart, in wall time.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
from _timing import best_of, peak_mib

import accord
from accord.readers.relations import Relation, RelationTable
from accord.readers.spans import Span, SpanTable
from accord.spans import _inputs

LABELS = ("PER", "LOC", "ORG", "MISC", "DATE")
TYPES = ("works_for", "located_in", "part_of", "born_in", "member_of", "near")
SPANS_PER_DOC = 30


def _data(n_docs: int, per_doc: int, seed: int = 0) -> tuple[SpanTable, RelationTable]:
    rng = np.random.default_rng(seed)
    gaps = rng.integers(1, 30, size=(n_docs, SPANS_PER_DOC))
    lengths = rng.integers(1, 12, size=(n_docs, SPANS_PER_DOC))
    starts = np.cumsum(gaps + lengths, axis=1) - lengths
    labels = rng.integers(0, len(LABELS), size=(n_docs, SPANS_PER_DOC))
    heads = rng.integers(0, SPANS_PER_DOC, size=(n_docs, per_doc))
    tails = (heads + rng.integers(1, SPANS_PER_DOC, size=(n_docs, per_doc))) % SPANS_PER_DOC
    types = rng.integers(0, len(TYPES), size=(n_docs, per_doc))
    spans: list[Span] = []
    rels: list[Relation] = []
    for r, rater in enumerate(("r1", "r2", "r3")):
        s, e, lab = starts.copy(), starts + lengths, labels.copy()
        h, t, ty = heads.copy(), tails.copy(), types.copy()
        if r:
            shift = rng.random(s.shape) < 0.05
            e = np.where(shift, e + 1, e)
            lab = np.where(rng.random(s.shape) < 0.05, rng.integers(0, len(LABELS), s.shape), lab)
            ty = np.where(rng.random(ty.shape) < 0.1, rng.integers(0, len(TYPES), ty.shape), ty)
            new = rng.random(ty.shape) < 0.1  # dropped, another pair drawn in its place
            h = np.where(new, rng.integers(0, SPANS_PER_DOC, h.shape), h)
            t = np.where(new, (h + rng.integers(1, SPANS_PER_DOC, h.shape)) % SPANS_PER_DOC, t)
        for d in range(n_docs):
            unit = f"doc{d}"
            spans += [Span(unit, rater, int(a), int(b), LABELS[c], id=f"T{k}")
                      for k, (a, b, c) in enumerate(zip(s[d], e[d], lab[d]))]
            seen = set()
            for k, (a, b, c) in enumerate(zip(h[d], t[d], ty[d])):
                if (a, b, c) in seen:
                    continue  # a duplicate relation is an error: draw each once
                seen.add((a, b, c))
                rels.append(Relation(unit, rater, f"R{k}", f"T{a}", f"T{b}", TYPES[c]))
    return SpanTable(tuple(spans)), RelationTable(tuple(rels))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--relations", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    spans, rels = _data(args.docs, args.relations)
    built = time.perf_counter() - t0
    print(f"{args.docs} documents x 3 raters: {len(spans):,} spans, {len(rels):,} relations "
          f"(built in {built:.1f} s wall)")

    def strict() -> accord.RelationAgreement:
        _inputs._CACHE.clear()
        return accord.relation_agreement(spans, rels, mode="strict")

    t_strict, res = best_of(args.repeat, strict, time.process_time)
    t_type, lenient = best_of(args.repeat,
                              lambda: accord.relation_agreement(spans, rels, mode="type"),
                              time.process_time)
    peak = peak_mib(strict)
    print(f"strict (encodes the spans): {t_strict:.2f} s CPU, peak {peak:.0f} MiB; "
          f"F1 {res.f1.estimate:.4f}, Fleiss' kappa {res.kappa.estimate:.4f}, "
          f"{res.kappa.details['n_items']:,} argument pairs")
    print(f"type (encoding reused): {t_type:.2f} s CPU; F1 {lenient.f1.estimate:.4f}, "
          f"kappa {lenient.kappa.estimate:.4f}")
    print(f"counts (strict, summed over pairs): {res.counts.to_dict()}")
    print(f"Python {platform.python_version()}, numpy {np.__version__}")


if __name__ == "__main__":
    main()
