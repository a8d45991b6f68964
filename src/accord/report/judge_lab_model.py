"""The judge-lab sections' model: a figure with its interval, a question's part, the
sections of a report (built in :mod:`accord.report.judge_lab_section` and
:mod:`accord.report.judge_panel_section`, rendered by :mod:`accord.report.render_judge_lab`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from accord.inference.results import AgreementResult

__all__ = ["TITLES", "JudgeLabSection", "LabFigure", "LabPart", "PartKind", "ReliabilityBin",
           "figure"]

PartKind = Literal["position", "length", "self_preference", "ranking", "calibration",
                   "consistency", "ppi", "panel"]

TITLES: dict[str, str] = {
    "position": "Position bias", "length": "Length bias", "self_preference": "Self-preference",
    "ranking": "Ranking of the generators (Bradley-Terry)", "calibration": "Calibration",
    "consistency": "Repeat-run consistency", "ppi": "Judge rate corrected by human labels (PPI)",
    "panel": "Panel of judges",
}


@dataclass(frozen=True)
class LabFigure:
    """One figure with its interval, at full precision (``nan`` where undefined).

    ``key`` is the figure's stable name in the JSON (``"position_first_share"``,
    ``"length_bias"``, ``"strength"``, ``"brier"``, ...); ``who`` the rater or item it
    is about (empty when none); ``label`` the words the tables show.
    """

    key: str
    label: str
    who: str
    estimate: float
    ci_low: float
    ci_high: float
    confidence_level: float
    method: str
    n: int
    undefined_reason: str | None
    extra: tuple[tuple[str, Any], ...] = ()

    @property
    def defined(self) -> bool:
        """Whether the estimate is a number."""
        return self.undefined_reason is None and math.isfinite(self.estimate)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``estimate``, ``confidence_interval``, ``n`` and the rest."""
        ci = None if not (math.isfinite(self.ci_low) and math.isfinite(self.ci_high)) else {
            "low": self.ci_low, "high": self.ci_high, "confidence_level": self.confidence_level,
            "method": self.method}
        out = {"key": self.key, "label": self.label, "estimate": _num(self.estimate),
               "confidence_interval": ci, "n": self.n,
               "undefined_reason": self.undefined_reason}
        if self.who:
            out["who"] = self.who
        out.update({k: _num(x) if isinstance(x, float) else x for k, x in self.extra})
        return out


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of the reliability diagram: the score range, its items, mean score and
    the observed (human) rate."""

    low: float
    high: float
    n: int
    mean_score: float
    observed_rate: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (undefined numbers are ``None``)."""
        return {"low": self.low, "high": self.high, "n": self.n,
                "mean_score": _num(self.mean_score), "observed_rate": _num(self.observed_rate)}


@dataclass(frozen=True)
class LabPart:
    """One question's section: its sentence, figures, notes (and the reliability bins)."""

    kind: PartKind
    title: str
    sentence: str
    figures: tuple[LabFigure, ...]
    notes: tuple[str, ...] = ()
    bins: tuple[ReliabilityBin, ...] = ()

    def figure(self, key: str, who: str = "") -> LabFigure | None:
        """The figure named ``key`` (about ``who``), or ``None``."""
        return next((f for f in self.figures if f.key == key and (not who or f.who == who)),
                    None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        out: dict[str, Any] = {"title": self.title, "sentence": self.sentence,
                               "figures": [f.to_dict() for f in self.figures],
                               "notes": list(self.notes)}
        if self.kind == "calibration":
            out["bins"] = [b.to_dict() for b in self.bins]
        return out


@dataclass(frozen=True)
class JudgeLabSection:
    """The judge-lab sections of a report, in the order given.

    Attributes
    ----------
    judge : str or None
        The judge the pairwise figures are about (``None``: not pairwise preferences).
    parts : tuple of LabPart
    confidence_level : float
    """

    judge: str | None
    parts: tuple[LabPart, ...]
    confidence_level: float

    def part(self, kind: str) -> LabPart | None:
        """The section of ``kind`` (``"position"``, ``"ranking"``, ...), or ``None``."""
        return next((p for p in self.parts if p.kind == kind), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping: the parts under their kinds."""
        return {"judge": self.judge, "confidence_level": self.confidence_level,
                "parts": {p.kind: p.to_dict() for p in self.parts}}


def figure(key: str, label: str, res: AgreementResult, level: float, *, who: str = "",
           method: Any = None, extra: tuple[tuple[str, Any], ...] = ()) -> LabFigure:
    """``res`` with its interval: ``method`` if given, else the lab sentences' default."""
    from accord.errors import AccordError
    from accord.judge.sentences import interval

    low = high = math.nan
    how = ""
    if res.defined:
        try:
            ci = (interval(res, level) if method is None
                  else res.confidence_interval(level, method=method))
        except AccordError:
            ci = interval(res, level)
        low, high, how = ci.low, ci.high, ci.method
    return LabFigure(key, label, who, res.estimate, low, high, level, how, res.n_units,
                     res.undefined_reason, extra)


def _num(x: Any) -> Any:
    return None if isinstance(x, float) and not math.isfinite(x) else x
