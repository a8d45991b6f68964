"""accord.alt_test on the authors' ten data sets against the figures their notebook prints.

Calderon, Reichart & Dror publish their data and an example notebook
(github.com/nitaytech/AltTest, ``alt_test_example.ipynb``) whose saved output gives,
for 9 data sets x 4-6 LLMs, the winning rate and the advantage probability (two
decimals) with each data set's scoring and epsilon. The repository has no licence,
so its data are not copied here: clone it and pass its path.

This script runs ``accord.alt_test(..., min_units=30)`` (the authors skip humans
with fewer than 30 units) on the same data and settings, prints the lines in the
notebook's format and compares them with the notebook's saved output.

Usage: ``python benchmarks/check_alttest_reference.py PATH/TO/AltTest``. Exit 0
when every line is identical.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import accord

SETTINGS = {  # as in the notebook: scoring and epsilon per data set
    "wax": ("accuracy", 0.1), "lgbteen": ("accuracy", 0.2), "mtbench": ("accuracy", 0.2),
    "framing": ("accuracy", 0.15), "cebab_aspects": ("accuracy", 0.1),
    "summeval": ("neg_rmse", 0.2), "10k_prompts": ("neg_rmse", 0.15),
    "cebab_stars": ("neg_rmse", 0.1), "lesion": ("neg_rmse", 0.15),
}


def notebook_lines(root: Path) -> list[str]:
    """The result lines the notebook printed when the authors ran it."""
    nb = json.loads((root / "alt_test_example.ipynb").read_text(encoding="utf-8"))
    return [line.rstrip() for cell in nb["cells"] for out in cell.get("outputs", [])
            for line in out.get("text", []) if "Winning Rate" in line]


def accord_lines(root: Path) -> list[str]:
    """The same lines computed by accord."""
    out = []
    for name, (scoring, eps) in SETTINGS.items():
        humans = json.loads((root / "data" / name / "human_annotations.json").read_text())
        llms = json.loads((root / "data" / name / "llm_annotations.json").read_text())
        for llm, labels in llms.items():
            rows = [(u, h, x) for h, d in humans.items() for u, x in d.items()]
            rows += [(u, "__judge__", x) for u, x in labels.items()]
            ann = accord.Annotations.from_long(rows, unit=0, rater=1, value=2)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # humans below 30 units are not tested
                res = accord.alt_test(ann, judge="__judge__", humans=list(humans),
                                      scoring=scoring, epsilon=eps, min_units=30)
            verdict = "PASSED" if res.passed else "FAILED"
            out.append(f"{name} {llm} [{verdict}]:\tWinning Rate={res.winning_rate:.2f}"
                       f"\tAdvantage Probability={res.advantage_probability:.2f}")
    return out


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = Path(sys.argv[1])
    expected, got = notebook_lines(root), accord_lines(root)
    same = sum(a == b for a, b in zip(expected, got))
    for a, b in zip(expected, got):
        if a != b:
            print(f"differs:\n  notebook: {a}\n  accord:   {b}")
    print(f"{same} of {len(expected)} lines identical (accord computed {len(got)})")
    return 0 if same == len(expected) == len(got) else 1


if __name__ == "__main__":
    sys.exit(main())
