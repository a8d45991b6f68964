"""Reference figures for accord.gamma from pygamma-agreement, the established implementation.

Run by hand (needs ``pip install pygamma-agreement==0.5.9``; GLPK through cvxpy)::

    python tests/spans/data/gamma_reference.py

(it writes ``gamma_reference.json`` beside itself: GLPK prints its log on standard output).

For each data set of pygamma-agreement's own tests (``tests/data/AlexPaulSuzan.csv``,
``tests/data/3by100.csv``, ``tests/data/2by1000.csv``, copied here with a header),
``compute_gamma`` with the combined categorical dissimilarity (alpha = 3, beta = 1,
delta_empty = 1, as its tests use), 30 samples of its default statistical sampler, one
run per seed (``np.random.seed``): gamma, gamma-cat, gamma-k of each category, the
observed and expected disorders and the number of unitary alignments of the best
alignment. The spread over seeds is the sampling error a test allows accord's figure.
"""

from __future__ import annotations

import json
import logging
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pygamma_agreement as pa
from pyannote.core import Segment

HERE = Path(__file__).resolve().parent
SEEDS = {"gamma_AlexPaulSuzan.csv": 10, "gamma_3by100.csv": 3, "gamma_2by1000.csv": 3}


def _continuum(path: Path) -> pa.Continuum:
    c = pa.Continuum()
    for line in path.read_text().splitlines()[1:]:
        rater, label, start, end = line.split(",")
        c.add(rater, Segment(float(start), float(end)), label)
    return c


def main() -> None:
    logging.disable(logging.WARNING)
    out = {"pygamma_agreement": version("pygamma-agreement"), "numpy": np.__version__,
           "python": sys.version.split()[0], "alpha": 3.0, "beta": 1.0, "n_samples": 30,
           "data": {}}
    for name, n_seeds in SEEDS.items():
        c = _continuum(HERE / name)
        d = pa.CombinedCategoricalDissimilarity(alpha=3, beta=1, delta_empty=1)
        runs = []
        for seed in range(n_seeds):
            np.random.seed(seed)
            r = c.compute_gamma(d, n_samples=30)
            runs.append({"seed": seed, "gamma": float(r.gamma), "gamma_cat": float(r.gamma_cat),
                         "observed_disorder": float(r.observed_disorder),
                         "expected_disorder": float(r.expected_disorder),
                         "gamma_k": {k: float(r.gamma_k(k)) for k in c.categories},
                         "n_unitary_alignments": len(r.best_alignment.unitary_alignments)})
            print(name, runs[-1], file=sys.stderr, flush=True)
        out["data"][name] = runs
    with open(HERE / "gamma_reference.json", "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
