"""Span agreement speed: accord's sorted-sweep matching against nervaluate.

Run by hand::

    .venv/bin/python benchmarks/bench_spans.py [--docs 100000] [--quick]

Data: ``--docs`` documents (default 10^5), 3 raters, about 3.4 spans per document and
rater (about 10^6 spans in all), 4 labels.
Rater 1 is the base; raters 2 and 3 copy it with jitter: a span's boundaries move
by one character with probability 0.2, its label changes with probability 0.1, it
is dropped with probability 0.1, and a new span is added with probability 0.1.

Timed (CPU time of this process, best of ``--repeat``; wall time is printed for the
whole run), each with its peak memory: the ``tracemalloc`` peak of one more, untimed
call (the same for the peer; a call that encoded the table when timed encodes it again
when traced):

1. ``accord.span_agreement`` on the SpanTable of the 3 raters, each of the four
   modes in turn (3 pairs each, micro, macro, per label and per unit F1); the first
   call encodes the table's spans, the later ones reuse that encoding (kept for the
   table's lifetime), so the sum is what four modes cost a user;
2. ``accord.evaluate_spans`` of rater 2 against rater 1 from lists of
   (start, end, label) per document, each mode (overall and per label);
3. nervaluate 1.2 ``Evaluator(...).evaluate()`` on the same pair (all four modes
   and per label in one call): the peer. With ``--quick`` (or when the peer would
   run too long) it runs on the first 10^4 documents and its time is scaled
   linearly to all documents ("extrapolated"): its matching is a loop per document.

The counts of (2) and (3) are compared on the documents nervaluate ran on, and so is
their memory: accord's ``evaluate_spans`` is traced on those documents too.
"""

from __future__ import annotations

import argparse
import functools
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import measured, peak_mib

import accord
from accord.readers.spans import Span, SpanTable
from accord.spans import _inputs

LABELS = ("PER", "LOC", "ORG", "MISC")
MODES = ("strict", "exact", "partial", "type")
NERVALUATE = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}


def _base(rng: random.Random, n_docs: int, per_doc: float) -> list[list[tuple[int, int, str]]]:
    docs = []
    for _ in range(n_docs):
        k = max(0, int(rng.gauss(per_doc, 1.5)))
        pos, spans = 0, []
        for _ in range(k):
            start = pos + rng.randint(1, 30)
            end = start + rng.randint(1, 12)
            spans.append((start, end, rng.choice(LABELS)))
            pos = end
        docs.append(spans)
    return docs


def _jitter(rng: random.Random, docs: list[list[tuple[int, int, str]]]) -> list[list[Any]]:
    out = []
    for spans in docs:
        new = []
        for s, e, lab in spans:
            if rng.random() < 0.1:
                continue
            if rng.random() < 0.2:
                s, e = max(0, s + rng.choice((-1, 1))), e + rng.choice((-1, 1))
                e = max(e, s + 1)
            if rng.random() < 0.1:
                lab = rng.choice(LABELS)
            new.append((s, e, lab))
        if rng.random() < 0.1:
            start = (spans[-1][1] if spans else 0) + rng.randint(1, 20)
            new.append((start, start + rng.randint(1, 8), rng.choice(LABELS)))
        out.append(new)
    return out


def cpu(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """Best CPU time of ``repeat`` runs (the machine is shared: wall time says little),
    the tracemalloc peak (MiB) of one more run, and the result."""
    return measured(repeat, fn, clock=time.process_time)


def cold(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` with the tables' span encodings forgotten before each call, so that every
    call, timed or traced, pays for encoding as a first call on a table does."""
    def call() -> Any:
        _inputs._CACHE.clear()
        return fn()
    return call


def _table(raters: dict[str, list[list[Any]]]) -> SpanTable:
    spans = tuple(
        Span(f"d{u}", r, s, e, lab)
        for r, docs in raters.items()
        for u, unit in enumerate(docs)
        for s, e, lab in unit
    )
    cov = {(f"d{u}", r): "annotated" for r, docs in raters.items() for u in range(len(docs))}
    return SpanTable(spans, cov)


def _nervaluate(ref: list[list[Any]], pred: list[list[Any]]) -> Any:
    from nervaluate import Evaluator

    def dicts(side: list[list[Any]]) -> list[list[dict[str, Any]]]:
        return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in u] for u in side]

    return Evaluator(dicts(ref), dicts(pred), tags=list(LABELS), loader="dict").evaluate()


START = time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--peer-docs", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="runs of evaluate_spans")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rng = random.Random(12)
    base = _base(rng, args.docs, 4.1)
    raters = {"r1": base, "r2": _jitter(rng, base), "r3": _jitter(rng, base)}
    n_spans = sum(len(u) for docs in raters.values() for u in docs)
    print(f"{platform.python_version()} numpy {np.__version__}; {args.docs} documents, "
          f"3 raters, {n_spans} spans")  # fmt: skip
    t0 = time.perf_counter()
    table = _table(raters)
    print(f"building the SpanTable (not timed below): {time.perf_counter() - t0:.2f} s")
    print("CPU time, and peak = tracemalloc peak of one more call")
    total, top = 0.0, 0.0
    for mode in MODES:
        call = functools.partial(accord.span_agreement, table, mode=mode)
        sec, peak, res = cpu(cold(call) if mode == MODES[0] else call)
        total, top = total + sec, max(top, peak)
        print(f"span_agreement {mode:8s} {sec:6.2f} s  peak {peak:7.1f} MiB  "
              f"mean F1 {res.f1.estimate:.4f}")
    print(f"span_agreement, all four modes: {total:.2f} s, peak {top:.1f} MiB")
    ev_total, ev_top, ours = 0.0, 0.0, {}
    for mode in MODES:
        sec, peak, ours[mode] = cpu(lambda m=mode: accord.evaluate_spans(
            base, raters["r2"], mode=m), args.repeat)
        ev_total, ev_top = ev_total + sec, max(ev_top, peak)
    print(f"evaluate_spans r2 vs r1, all four modes: {ev_total:.2f} s, peak {ev_top:.1f} MiB")
    peer_docs = args.peer_docs or (10_000 if args.quick else args.docs)
    ref, pred = base[:peer_docs], raters["r2"][:peer_docs]
    sec, m_peer, theirs = cpu(lambda: _nervaluate(ref, pred))
    m_ours = max(peak_mib(lambda m=mode: accord.evaluate_spans(ref, pred, mode=m))
                 for mode in MODES)
    scale = args.docs / peer_docs
    label = "" if peer_docs == args.docs else f" (on {peer_docs} documents, extrapolated)"
    print(f"nervaluate r2 vs r1, all four modes: {sec * scale:.2f} s{label}")
    print(f"ratio nervaluate / accord evaluate_spans: {sec * scale / ev_total:.1f}x time")
    print(f"peak on the {peer_docs} documents: nervaluate {m_peer:.1f} MiB, accord "
          f"evaluate_spans (largest of the four modes) {m_ours:.1f} MiB, ratio "
          f"{m_peer / m_ours:.1f}x")
    _compare(ref, pred, theirs)
    print(f"wall time of the whole run: {time.perf_counter() - START:.1f} s")


def _compare(ref: list[list[Any]], pred: list[list[Any]], theirs: Any) -> None:
    differ = []
    for mode in MODES:
        ours = accord.evaluate_spans(ref, pred, mode=mode).counts  # type: ignore[arg-type]
        want = theirs["overall"][NERVALUATE[mode]]
        got = (ours.correct, ours.incorrect, ours.partial, ours.missed, ours.spurious)
        exp = (want.correct, want.incorrect, want.partial, want.missed, want.spurious)
        if got != exp:
            differ.append(f"{mode}: accord {got}, nervaluate {exp}")
    print("counts equal to nervaluate's in all four modes" if not differ else
          "counts differ (spans overlapping two spans of the other side): " + "; ".join(differ))


if __name__ == "__main__":
    main()
