"""Precision, recall and F1 from match counts, as AgreementResults that resample units.

With ``C`` correct, ``P`` partial, ``ACT`` spans on the predicted side and
``POS`` on the reference side (SemEval-2013 task 9.1; nervaluate):

    precision = (C + P / 2) / ACT,   recall = (C + P / 2) / POS,
    F1 = 2 (C + P / 2) / (ACT + POS)

(the harmonic mean of precision and recall, written so that it is 0, not 0/0,
when nothing matches). ``P`` is 0 outside the partial mode. The per-unit counts
are the sufficient statistic: a bootstrap draws units and sums their counts,
never matching again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.inference.resampling import FloatArray, IntArray, Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.spans.matching import KINDS

# columns of a count row: correct, incorrect, partial, missed, spurious
_C, _I, _P, _M, _S = range(5)


@dataclass(frozen=True)
class SpanCounts:
    """How the spans of two sides were classified by the matching."""

    correct: int
    incorrect: int
    partial: int
    missed: int
    spurious: int

    @classmethod
    def of(cls, row: IntArray) -> SpanCounts:
        """From a row of the five counts."""
        return cls(*(int(x) for x in row))

    @property
    def possible(self) -> int:
        """Spans on the reference side: correct + incorrect + partial + missed."""
        return self.correct + self.incorrect + self.partial + self.missed

    @property
    def actual(self) -> int:
        """Spans on the predicted side: correct + incorrect + partial + spurious."""
        return self.correct + self.incorrect + self.partial + self.spurious

    def to_dict(self) -> dict[str, int]:
        """The five counts and ``possible``/``actual``."""
        out = {k: int(getattr(self, k)) for k in KINDS}
        out.update(possible=self.possible, actual=self.actual)
        return out


def _matched(s: FloatArray) -> FloatArray:
    return np.asarray(s[:, _C] + 0.5 * s[:, _P], dtype=np.float64)


def _actual(s: FloatArray) -> FloatArray:
    return np.asarray(s[:, _C] + s[:, _I] + s[:, _P] + s[:, _S], dtype=np.float64)


def _possible(s: FloatArray) -> FloatArray:
    return np.asarray(s[:, _C] + s[:, _I] + s[:, _P] + s[:, _M], dtype=np.float64)


STATISTICS: dict[str, Callable[[FloatArray], FloatArray]] = {
    "precision": lambda s: _matched(s) / _actual(s),
    "recall": lambda s: _matched(s) / _possible(s),
    "f1": lambda s: 2.0 * _matched(s) / (_actual(s) + _possible(s)),
}

WHY = {
    "precision": "the predicted side marked no span in the units compared",
    "recall": "the reference side marked no span in the units compared",
    "f1": "neither side marked a span in the units compared",
}


def score(
    name: str, per_unit: IntArray, *, mode: str, what: str, details: dict[str, Any] | None = None,
    unit_ids: tuple[Any, ...] | None = None,
) -> AgreementResult:
    """``name`` (precision, recall or f1) of the summed ``per_unit`` counts.

    ``what`` names the figure in warnings, e.g. ``"span_f1 (strict, label 'PER')"``;
    ``unit_ids`` label the rows of ``per_unit``, so that two results can be paired unit by
    unit (:func:`accord.compare`).
    """
    stat = STATISTICS[name]
    total = per_unit.sum(axis=0).astype(np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        est = float(stat(total)[0])
    reason = None if math.isfinite(est) else WHY[name]
    if reason is not None:
        v.warn_undefined(what, reason)
    counts = SpanCounts.of(per_unit.sum(axis=0))
    return AgreementResult(
        coefficient=f"span_{name}",
        estimate=est,
        observed=math.nan,
        expected=math.nan,
        se=math.nan,
        n_units=int(per_unit.shape[0]),
        n_raters=2,
        undefined_reason=reason,
        details={"mode": mode, **counts.to_dict(), **(details or {})},
        bounds=(0.0, 1.0),
        resampling=lambda: _resampling(per_unit, stat, unit_ids),
    )


def _resampling(per_unit: IntArray, stat: Callable[[FloatArray], FloatArray],
                unit_ids: tuple[Any, ...] | None = None) -> Resampling:
    patterns, counts, inverse = pattern_index(per_unit)
    return Resampling(np.asarray(patterns, dtype=np.float64), counts, stat, inverse, unit_ids)
