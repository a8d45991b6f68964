"""The report's relations part of the span section: verdict, per-type table, disputes.

Built from :func:`accord.relation_agreement` (arguments matched strictly: same
offsets and label) when the spans were read with relations; the renderers
(:mod:`accord.report.render_spans`) show the text cells of :func:`relation_cells`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from accord.inference import Bootstrap
from accord.inference.results import AgreementResult
from accord.report.model import FigureRow

__all__ = ["RelationsSection", "relation_cells", "relations_section"]

#: The mode that identifies a relation's arguments in the report.
RELATION_MODE = "strict"
TYPE_HEAD = ["type", "F1", "CI"]
RELATION_PAIR_HEAD = ["raters", "correct", "other type", "first only", "second only",
             "arguments unmatched"]
DISPUTE_HEAD = ["unit", "head", "tail", "types"]


@dataclass(frozen=True)
class RelationsSection:
    """Agreement on relations: the verdict first, then the figures behind it.

    Attributes
    ----------
    sentence : str
        The verdict: F1 and kappa with their intervals, and where the disagreements lie.
    f1, kappa : FigureRow
    kappa_kind : str
        ``"cohen_kappa"`` (two raters) or ``"fleiss_kappa"``.
    types : tuple of FigureRow
        F1 per relation type.
    pairs : tuple of (str, str, dict)
        Each rater pair's counts.
    disputes : tuple of (unit, head, tail, {rater: type})
    notes : tuple of str
    confidence_level : float
        The intervals' nominal coverage.
    """

    sentence: str
    f1: FigureRow
    kappa: FigureRow
    kappa_kind: str
    types: tuple[FigureRow, ...]
    pairs: tuple[tuple[str, str, dict[str, int]], ...]
    disputes: tuple[tuple[str, str, str, dict[str, str]], ...]
    notes: tuple[str, ...]
    confidence_level: float = 0.95

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: each figure with its estimate, interval and undefined reason."""

        def fig(r: FigureRow, figure: str, typ: str | None) -> dict[str, Any]:
            ci = {"low": _num(r.ci_low), "high": _num(r.ci_high),
                  "confidence_level": self.confidence_level, "method": r.method}
            return {"coefficient": "relation_kappa" if figure == "kappa" else "relation_f1",
                    "figure": figure, "type": typ, "estimate": _num(r.estimate), "se": None,
                    "confidence_interval": ci, "undefined_reason": r.undefined_reason}

        return {
            "mode": RELATION_MODE, "sentence": self.sentence,
            "results": [fig(self.f1, "f1", None), fig(self.kappa, "kappa", None),
                        *(fig(r, "f1", r.name) for r in self.types)],
            "kappa_kind": self.kappa_kind,
            "pairs": [{"raters": [a, b], "counts": c} for a, b, c in self.pairs],
            "disputes": [{"unit": u, "head": h, "tail": t, "types": ty}
                         for u, h, t, ty in self.disputes],
            "notes": list(self.notes),
        }  # fmt: skip


def relations_section(ann: Any, raters: list[str] | None, level: float, boot: Bootstrap,
                      top: int) -> RelationsSection | None:  # fmt: skip
    """The section, or None when the spans came without relations."""
    from accord.spans import relation_agreement

    if getattr(ann.spans, "relations", None) is None:
        return None
    res = relation_agreement(ann, mode="strict", raters=raters, n_disputes=top)
    f1, kappa = _row("F1", res.f1, level, boot), _row("kappa", res.kappa, level, boot)
    types = tuple(_row(t or "(no type)", r, level, boot) for t, r in res.per_type.items())
    pairs = tuple((a, b, c.to_dict()) for (a, b), c in res.pairs.items())
    disputes = tuple((str(d.unit), d.head, d.tail, dict(d.types)) for d in res.disputes)
    kind = str(res.kappa.details.get("kind", "kappa"))
    return RelationsSection(_sentence(f1, kappa, kind, res.counts, level), f1, kappa, kind,
                            types, pairs, disputes, tuple(res.notes), level)  # fmt: skip


def _row(name: str, res: AgreementResult, level: float, boot: Bootstrap) -> FigureRow:
    if not res.defined:
        return FigureRow(name, res.estimate, math.nan, math.nan, "", res.undefined_reason)
    ci = res.confidence_interval(level, method=boot)
    return FigureRow(name, res.estimate, ci.low, ci.high, ci.method, None)


def _sentence(f1: FigureRow, kappa: FigureRow, kind: str, c: Any, level: float) -> str:
    def said(r: FigureRow) -> str:
        if r.undefined_reason:
            return f"undefined ({r.undefined_reason})"
        ci = (f" ({level * 100:g}% CI {_f(r.ci_low)} to {_f(r.ci_high)})"
              if math.isfinite(r.ci_low) else "")
        return f"{_f(r.estimate)}{ci}"

    who = "Cohen's" if kind == "cohen_kappa" else "Fleiss'"
    unmatched = c.missed_unmatched_arguments + c.spurious_unmatched_arguments
    return (f"Relations (arguments matched strictly): mean pairwise F1 = {said(f1)}; "
            f"{who} kappa on the type = {said(kappa)}. {c.correct} relation(s) agreed, "
            f"{c.incorrect} got another type, {c.missed + c.spurious} were drawn by one rater "
            f"only, {unmatched} of them because the other rater's spans did not match "
            "the arguments.")


def relation_cells(s: RelationsSection, level: str) -> dict[str, Any]:
    """The section as text (raw: each renderer escapes it)."""
    types = [[r.name, _fig(r), _ci(r)] for r in (s.f1, s.kappa, *s.types)]
    pairs = [[f"{a} / {b}", str(c["correct"]), str(c["incorrect"]), str(c["missed"]),
              str(c["spurious"]),
              str(c["missed_unmatched_arguments"] + c["spurious_unmatched_arguments"])]
             for a, b, c in s.pairs]  # fmt: skip
    disputes = [[u, h, t, ", ".join(f"{r}: {x}" for r, x in ty.items())]
                for u, h, t, ty in s.disputes]  # fmt: skip
    return {"type_head": ["figure / type", "F1 or kappa", f"{level} CI"], "types": types,
            "pairs": pairs, "disputes": disputes}


def _fig(r: FigureRow) -> str:
    return "undefined" if r.undefined_reason else _f(r.estimate)


def _ci(r: FigureRow) -> str:
    return f"{_f(r.ci_low)} to {_f(r.ci_high)}" if math.isfinite(r.ci_low) else "–"


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None
