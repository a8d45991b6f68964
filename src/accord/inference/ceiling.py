"""The human ceiling: a system's figure against the reference beside each human's.

Each human annotator's figure against the same reference, on the units the system
shares with it, and the paired difference system minus each human
(:func:`accord.compare`, a bootstrap over units); the outcome is worded in one
sentence. The evaluation families (classes, spans, label sets, a model's boxes) all
attach it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from accord.inference.bootstrap import Bootstrap
from accord.inference.compare import Comparison, compare
from accord.inference.results import AgreementResult, _num

__all__ = ["HumanCeiling", "Outcome", "ceiling_for"]

Outcome = Literal["near", "below", "above"]


@dataclass(frozen=True)
class HumanCeiling:
    """A system's figure against the reference beside each human annotator's.

    Attributes
    ----------
    figure : str
        The figure compared (a key of :meth:`Evaluation.results`, e.g. ``"accuracy"``).
    system : str
        The system's name.
    system_result : AgreementResult
        The system's figure on the units it shares with the reference.
    humans : mapping of str to AgreementResult
        Each human annotator's figure against the same reference, on those units.
    human_agreement : AgreementResult or None
        Percent agreement among the human annotators on those units (pairwise),
        when there are at least two.
    comparisons : mapping of str to Comparison
        The paired difference system minus each human (bootstrap over units).
    outcome : {"near", "below", "above"}
        ``"above"``: the system's estimate exceeds every human's; ``"below"``: every
        paired interval of the difference lies below 0; ``"near"`` otherwise.
    sentence : str
        The outcome in one sentence, with the figures.
    n_units : int
        Units the system and the reference both labelled.
    """

    figure: str
    system: str
    system_result: AgreementResult
    humans: Mapping[str, AgreementResult]
    human_agreement: AgreementResult | None
    comparisons: Mapping[str, Comparison]
    outcome: Outcome
    sentence: str
    n_units: int

    @property
    def human_range(self) -> tuple[float, float]:
        """The lowest and highest human estimate (nan when none is defined)."""
        est = [r.estimate for r in self.humans.values() if r.defined]
        return (min(est), max(est)) if est else (math.nan, math.nan)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        low, high = self.human_range
        return {
            "figure": self.figure, "system": self.system,
            "system_result": self.system_result.to_dict(),
            "humans": {str(h): r.to_dict() for h, r in self.humans.items()},
            "human_range": [_num(low), _num(high)],
            "human_agreement": None if self.human_agreement is None
            else self.human_agreement.to_dict(),
            "comparisons": {str(h): c.to_dict() for h, c in self.comparisons.items()},
            "outcome": self.outcome, "sentence": self.sentence, "n_units": self.n_units,
        }


def ceiling_for(
    system: str, system_result: AgreementResult, humans: Mapping[str, AgreementResult],
    human_agreement: AgreementResult | None, figure: str, method: Bootstrap,
) -> HumanCeiling:
    """Compare the system with each human and word the outcome."""
    comparisons = {h: compare(system_result, r, method=method)
                   for h, r in humans.items() if r.defined and system_result.defined}
    ceiling = HumanCeiling(figure, system, system_result, humans, human_agreement, comparisons,
                           "near", "", system_result.n_units)
    outcome, sentence = _words(ceiling, method)
    return HumanCeiling(figure, system, system_result, humans, human_agreement, comparisons,
                        outcome, sentence, system_result.n_units)


def _words(c: HumanCeiling, method: Bootstrap) -> tuple[Outcome, str]:
    res, (low, high) = c.system_result, c.human_range
    name = c.figure.replace("_", " ").replace(".", " ")
    if not res.defined or not math.isfinite(low):
        return "near", (f"{c.system}'s {name} cannot be set against the human annotators "
                        f"on these {c.n_units} units: a figure is undefined")
    # a figure without an analytic SE (span F1) takes the bootstrap of the comparisons
    ci = (res.confidence_interval(0.95) if math.isfinite(res.se)
          else res.confidence_interval(0.95, method=method))
    head = (f"{c.system}'s {name} ({res.estimate:.2f}, 95% CI {ci.low:.2f}-{ci.high:.2f})")
    span = f"{low:.2f}" if low == high else f"{low:.2f}-{high:.2f}"
    tail = f"on these {c.n_units} units"
    if res.estimate > high:
        return "above", (f"{head} is above every human annotator against the same reference "
                         f"({span}): the reference itself may be the limit {tail}")
    diffs = list(c.comparisons.values())
    if diffs and all(d.interval.high < 0 for d in diffs):
        return "below", (f"{head} is clearly below the human annotators against the same "
                         f"reference ({span}; every paired 95% interval of the difference lies "
                         f"below 0) {tail}")
    where = ("lies within" if low <= res.estimate else "is not clearly below")
    return "near", (f"{head} {where} the human annotators' range against the same reference "
                    f"({span}): near the human ceiling {tail}")
