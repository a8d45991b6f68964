"""The report on span data: what ``accord.report`` costs on a span export, and its parts.

Run by hand::

    .venv/bin/python benchmarks/bench_report_spans.py [--docs 100000] [--resamples 1999]

Data: those of ``bench_spans.py`` (``--docs`` documents, 3 raters, about 3.4 spans per
document and rater, 4 labels, raters 2 and 3 jittered copies of rater 1).

Timed (CPU time of this process):

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
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_spans import MODES, _base, _jitter, _table

import accord


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


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
    sec, rep = _cpu(lambda: accord.report(table, method=boot))
    print(f"accord.report (the span section):          {sec:7.2f} s")
    for fmt in ("html", "markdown", "json"):
        render = {"html": rep.to_html, "markdown": rep.to_markdown, "json": rep.to_json}[fmt]
        s, text = _cpu(render)
        print(f"  rendering {fmt:8s}                        {s:7.2f} s ({len(text)} chars)")
    fresh = _table(raters)  # a new table: its spans are encoded again
    total = 0.0
    for mode in MODES:
        s, res = _cpu(lambda m=mode: accord.span_agreement(fresh, mode=m))
        total += s
    print(f"  span_agreement, four modes (no interval): {total:7.2f} s")
    s, _ = _cpu(lambda: res.f1.confidence_interval(0.95, method=boot))
    print(f"  one bootstrap interval (mean F1, type):   {s:7.2f} s")
    s, _ = _cpu(lambda: accord.spans.label_confusion(fresh, mode="exact"))
    print(f"  label_confusion (exact):                  {s:7.2f} s")
    s, dis = _cpu(lambda: accord.spans.span_disagreements(fresh, mode="strict"))
    print(f"  span_disagreements (strict):              {s:7.2f} s ({len(dis)} rows)")


if __name__ == "__main__":
    main()
