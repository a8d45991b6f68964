"""Linear time where hostile input used to make accord quadratic (issue 26).

Run by hand::

    .venv/bin/python benchmarks/bench_hardening.py [--quick]

1. Rewriting an error message into the command line's words (``cli_text``) that
   quotes a label of 10^4 to 10^6 characters built to make a pattern rescan the
   rest of the text (one long token; unclosed lists ``raters=[``). Peer: the
   pattern accord used before, on the same text (10^4 and 3 x 10^4 characters
   only: it is quadratic).
2. ``accord.evaluate`` of n units with n distinct labels (the shape of free text
   or ids taken for classes), n = 10^3 to 10^5: the evaluation, and its
   ``to_dict(method="asymptotic")`` (the JSON the command line prints); peak
   traced memory of the evaluation up to 10^4.
"""

from __future__ import annotations

import argparse
import re
import warnings
from functools import partial

import numpy as np
from _timing import best_of, peak_mib

import accord
from accord.cli._errors import cli_text
from accord.errors import DegenerateDataWarning

OLD_ROUTE = re.compile(r"[^\s(]+ \(accord CLI: ([^()]*)\)")


def formatting(sizes: list[int]) -> None:
    print("| text | characters | cli_text | per 10^6 characters | before (the old route pattern) |")
    print("|---|---|---|---|---|")
    for name, unit in (("one long token", "a"), ("unclosed lists", "raters=[")):
        for n in sizes:
            text = f"found values outside the declared categories: {unit * (n // len(unit))}"
            t, _ = best_of(3, partial(cli_text, text))
            old = "-"
            if n <= 30_000:
                t_old, _ = best_of(1, partial(OLD_ROUTE.sub, "", text))
                old = f"{t_old:.3f} s"
            print(f"| {name} | {n:,} | {t:.4f} s | {t / n * 1e6:.3f} s | {old} |")


def many_classes(sizes: list[int]) -> None:
    print("| classes (= units) | evaluate | to_dict | evaluate per 10^4 classes | peak traced |")
    print("|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    with warnings.catch_warnings():  # imports and caches outside the timings
        warnings.simplefilter("ignore", DegenerateDataWarning)
        accord.evaluate(["a", "b", "c"], ["a", "c", "c"]).to_dict(method="asymptotic")
    for n in sizes:
        ref = [f"l{i}" for i in range(n)]
        pred = [f"l{(i + int(rng.random() < 0.3)) % n}" for i in range(n)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            t_ev, ev = best_of(1, partial(accord.evaluate, ref, pred))
            t_js, _ = best_of(1, partial(ev.to_dict, method="asymptotic"))
            peak = "-"
            if n <= 10_000:
                peak = f"{peak_mib(partial(accord.evaluate, ref, pred)):.0f} MiB"
        print(f"| {n:,} | {t_ev:.2f} s | {t_js:.2f} s | {t_ev / n * 1e4:.2f} s | {peak} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    quick = parser.parse_args().quick
    formatting([10_000, 30_000, 100_000] if quick else [10_000, 30_000, 100_000, 1_000_000])
    print()
    many_classes([1_000, 10_000] if quick else [1_000, 10_000, 100_000])


if __name__ == "__main__":
    main()
