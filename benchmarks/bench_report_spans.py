"""The report on span data: what ``accord.report`` costs on a span export, and its parts.

Run by hand::

    .venv/bin/python benchmarks/bench_report_spans.py [--docs 100000] [--resamples 1999]

Data: those of ``bench_spans.py`` (``--docs`` documents, 3 raters, about 3.4 spans per
document and rater, 4 labels, raters 2 and 3 jittered copies of rater 1).

Timed (CPU time of this process), each with its peak memory (the ``tracemalloc`` peak
of one more, untimed call; a call that encoded the table's spans when timed encodes
them again when traced):

1. ``accord.report(table, seed=1)``: the whole span section (four modes, each with
   the mean, macro and per-label F1 and their bootstrap intervals, the pairs, the
   label confusion and the disagreements) and the HTML, Markdown and JSON renderings;
2. its parts: ``span_agreement`` in the four modes (the figures, no interval), one
   bootstrap interval (the mean strict F1), ``label_confusion`` and
   ``span_disagreements``. The peer for the figures is nervaluate (see
   ``bench_spans.py``); no peer writes such a report.
"""

from __future__ import annotations

import argparse
import functools
import platform
import random

import numpy as np
from bench_spans import MODES, _base, _jitter, _table, cold, cpu

import accord


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--resamples", type=int, default=1999)
    args = parser.parse_args()
    rng = random.Random(12)
    base = _base(rng, args.docs, 4.1)
    raters = {"r1": base, "r2": _jitter(rng, base), "r3": _jitter(rng, base)}
    table = _table(raters)
    print(f"{platform.python_version()} numpy {np.__version__}; {args.docs} documents, "
          f"3 raters, {len(table)} spans, {args.resamples} resamples")
    boot = accord.Bootstrap(n_resamples=args.resamples, rng=1)
    sec, peak, rep = cpu(cold(lambda: accord.report(table, method=boot)))
    print(f"{'':44}{'CPU':>8} {'peak MiB':>9}")
    print(f"accord.report (the span section):          {sec:7.2f} s {peak:9.1f}")
    for fmt in ("html", "markdown", "json"):
        render = {"html": rep.to_html, "markdown": rep.to_markdown, "json": rep.to_json}[fmt]
        s, peak, text = cpu(render)
        print(f"  rendering {fmt:8s}                        {s:7.2f} s {peak:9.1f} "
              f"({len(text)} chars)")
    fresh = _table(raters)  # a new table: its spans are encoded again
    total, top = 0.0, 0.0
    for mode in MODES:
        call = functools.partial(accord.span_agreement, fresh, mode=mode)
        s, peak, res = cpu(cold(call) if mode == MODES[0] else call)
        total, top = total + s, max(top, peak)
    print(f"  span_agreement, four modes (no interval): {total:7.2f} s {top:9.1f} (largest)")
    s, peak, _ = cpu(lambda: res.f1.confidence_interval(0.95, method=boot))
    print(f"  one bootstrap interval (mean F1, type):   {s:7.2f} s {peak:9.1f}")
    s, peak, _ = cpu(lambda: accord.spans.label_confusion(fresh, mode="exact"))
    print(f"  label_confusion (exact):                  {s:7.2f} s {peak:9.1f}")
    s, peak, dis = cpu(lambda: accord.spans.span_disagreements(fresh, mode="strict"))
    print(f"  span_disagreements (strict):              {s:7.2f} s {peak:9.1f} ({len(dis)} rows)")


if __name__ == "__main__":
    main()
