"""A plain statement of the documented span matching rule, pair by pair, for tests, and
bratiaa's figures of a brat project."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Span = tuple[int, int, str]

KIND = {"correct": 0, "incorrect": 1, "partial": 2, "missed": 3, "spurious": 4}


def chars(span: tuple[Any, ...]) -> set[int]:
    """The characters a span covers (its fragments when it has a 4th item)."""
    frags = span[3] if len(span) == 4 else [(span[0], span[1])]
    return {c for a, b in frags for c in range(a, b)}


def shape(span: tuple[Any, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(span[3]) if len(span) == 4 else ((span[0], span[1]),)


def counts_for_unit(ref: list[Any], pred: list[Any], mode: str) -> list[int]:
    """correct, incorrect, partial, missed, spurious of one unit by the documented rule."""
    labels = sorted({s[2] for s in ref + pred})
    code = {lab: i for i, lab in enumerate(labels)}
    pairs = []
    for i, a in enumerate(ref):
        for j, b in enumerate(pred):
            ov = len(chars(a) & chars(b))
            if ov == 0:
                continue
            same_shape, same_label = shape(a) == shape(b), a[2] == b[2]
            correct = {
                "strict": same_shape and same_label,
                "exact": same_shape,
                "partial": same_shape,
                "type": same_label,
            }[mode]
            la, lb = code[a[2]], code[b[2]]
            key = (
                not correct, not same_shape, not same_label, -ov,
                min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1]),
                min(la, lb), max(la, lb),
            )  # fmt: skip
            pairs.append((key, i, j, correct))
    pairs.sort(key=lambda p: p[0])
    used_a, used_b, out = set(), set(), [0] * 5
    for _, i, j, correct in pairs:
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        out[0 if correct else (2 if mode == "partial" else 1)] += 1
    out[3] = len(ref) - len(used_a)
    out[4] = len(pred) - len(used_b)
    return out


def counts(ref: list[list[Any]], pred: list[list[Any]], mode: str) -> list[int]:
    total = [0] * 5
    for r, p in zip(ref, pred):
        total = [x + y for x, y in zip(total, counts_for_unit(r, p, mode))]
    return total


@dataclass(frozen=True)
class BratiaaFigures:
    """bratiaa's pairwise F1 of a brat project: the mean over pairs, the pair matrix (in
    ``annotators`` order) and the mean per label (nan when a pair has no span of it)."""

    total: float
    matrix: Any
    annotators: list[str]
    by_label: dict[str, float]

    def pair(self, a: str, b: str) -> float:
        return float(self.matrix[self.annotators.index(a), self.annotators.index(b)])


def bratiaa_figures(bratiaa: Any, root: Path) -> BratiaaFigures:
    """The figures of ``bratiaa.compute_f1_agreement`` on the project at ``root``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bratiaa's own numpy and matplotlib warnings
        theirs = bratiaa.compute_f1_agreement(str(root))
        return BratiaaFigures(float(theirs.mean_sd_total()[0]),
                              theirs.compute_total_f1_matrix(), list(theirs.annotators),
                              dict(zip(theirs.labels, theirs.mean_sd_per_label()[0])))
