"""The report's span section: agreement on spans (pairwise F1), for data that hold spans.

Built from :func:`accord.span_agreement` in each of the four matching modes,
:func:`accord.spans.label_confusion` and :func:`accord.spans.span_disagreements`;
the renderers (:mod:`accord.report.render_spans`) show the text cells of
:func:`cells`, each escaping them for its medium.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from accord.data.annotations import Annotations
from accord.inference import Bootstrap
from accord.inference.results import AgreementResult
from accord.readers.spans import SpanTable
from accord.report.model import DataSummary, FigureRow, Report, Settings, UnitsSection
from accord.report.relations_section import RelationsSection, relations_section
from accord.report.unitizing_section import UnitizingSection, unitizing_section
from accord.spans.matching import MODES, Mode

__all__ = ["SpanDisagreementRow", "SpanMode", "SpanPairRow", "SpansSection", "cells",
           "has_spans", "span_annotations", "span_report", "spans_section"]

#: The mode whose label confusion is shown: same boundaries, any label.
CONFUSION_MODE: Mode = "exact"
#: The mode whose disagreements are listed: same boundaries and label.
DISAGREEMENT_MODE: Mode = "strict"
#: Characters of a span's text shown in a disagreement (the JSON has them all).
SNIPPET = 60
DEFAULT_RESAMPLES = 1999


@dataclass(frozen=True)
class SpanMode:
    """One matching mode: the mean over rater pairs of micro and macro F1, and of each
    label's F1, with bootstrap intervals over units."""

    mode: str
    f1: FigureRow
    macro_f1: FigureRow
    labels: tuple[FigureRow, ...]


@dataclass(frozen=True)
class SpanPairRow:
    """One pair of raters: units both annotated and the F1 in each mode (``MODES`` order)."""

    raters: tuple[str, str]
    n_units: int
    f1: tuple[float, ...]
    counts: dict[str, int]


@dataclass(frozen=True)
class SpanDisagreementRow:
    """One span two raters disagree on (spans as ``(start, end, label, text)``, None on the
    side that has none)."""

    unit: str
    raters: tuple[str, str]
    kind: str
    first: tuple[int, int, str, str] | None
    second: tuple[int, int, str, str] | None


@dataclass(frozen=True)
class SpansSection:
    """Agreement on spans, in every mode, with the label confusion and the disagreements.

    Attributes
    ----------
    field : str
        The export's span field.
    n_spans, n_units : int
    raters : tuple of str
    sentence : str
        The mean pairwise strict F1 in words.
    modes : tuple of SpanMode
        In the order strict, exact, partial, type.
    pairs : tuple of SpanPairRow
    confusion : tuple of (str, str, str, str, int)
        Rater pair (first, second), first rater's label, second's, matched spans
        (mode ``"exact"``: same boundaries, any label).
    disagreements : tuple of SpanDisagreementRow
        The first ones (mode ``"strict"``), units in data order.
    n_disagreements : int
        All of them.
    notes : tuple of str
    relations : RelationsSection or None
        Agreement on the relations read with the spans, if any.
    unitizing : UnitizingSection or None
        Krippendorff's alpha_U and Mathet's gamma (gamma only under its size budget).
    confidence_level : float
        Of the unitizing part's intervals.
    """

    field: str
    n_spans: int
    n_units: int
    raters: tuple[str, ...]
    sentence: str
    modes: tuple[SpanMode, ...]
    pairs: tuple[SpanPairRow, ...]
    confusion: tuple[tuple[str, str, str, str, int], ...]
    disagreements: tuple[SpanDisagreementRow, ...]
    n_disagreements: int
    notes: tuple[str, ...]
    relations: RelationsSection | None = None
    unitizing: UnitizingSection | None = None
    confidence_level: float = 0.95

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision (``None`` for undefined figures)."""

        def fig(r: FigureRow) -> dict[str, Any]:
            return {"name": r.name, "estimate": _num(r.estimate), "ci_low": _num(r.ci_low),
                    "ci_high": _num(r.ci_high), "method": r.method,
                    "undefined_reason": r.undefined_reason}

        def span(s: tuple[int, int, str, str] | None) -> dict[str, Any] | None:
            return None if s is None else dict(zip(("start", "end", "label", "text"), s))

        return {
            "field": self.field, "n_spans": self.n_spans, "n_units": self.n_units,
            "raters": list(self.raters), "sentence": self.sentence,
            "modes": [{"mode": m.mode, "f1": fig(m.f1), "macro_f1": fig(m.macro_f1),
                       "labels": [fig(x) for x in m.labels]} for m in self.modes],
            "pairs": [{"raters": list(p.raters), "n_units": p.n_units,
                       "f1": {k: _num(x) for k, x in zip(MODES, p.f1)}, "counts": p.counts}
                      for p in self.pairs],
            "confusion_mode": CONFUSION_MODE,
            "confusion": [{"raters": [a, b], "first": x, "second": y, "count": n}
                          for a, b, x, y, n in self.confusion],
            "disagreement_mode": DISAGREEMENT_MODE,
            "disagreements": [{"unit": d.unit, "raters": list(d.raters), "kind": d.kind,
                               "first": span(d.first), "second": span(d.second)}
                              for d in self.disagreements],
            "n_disagreements": self.n_disagreements, "notes": list(self.notes),
            **({} if self.relations is None else {"relations": self.relations.to_dict()}),
            **({} if self.unitizing is None
               else {"unitizing": self.unitizing.to_dict(self.confidence_level)}),
        }


def span_annotations(table: SpanTable) -> Annotations:
    """Annotations that hold ``table`` only (what a reader gives for a span export)."""
    import numpy as np

    from accord.data.annotations import Audit

    empty = np.zeros(0, dtype=np.int64)
    return Annotations(empty, empty, empty, units=(), raters=table.raters, categories=(),
                       field=table.field, audit=Audit("SpanTable", len(table), 0), spans=table)


def has_spans(ann: Annotations) -> bool:
    """Spans only (no label per unit and rater), from two raters or more."""
    table = ann.spans
    return ann.n_ratings == 0 and table is not None and len(table) > 0 \
        and len(table.raters) >= 2


def spans_section(ann: Annotations, confidence_level: float, method: Any, seed: int | None,
                  top: int) -> SpansSection:
    """Every figure of the section; intervals by bootstrap over units (``method`` when it
    is a :class:`~accord.inference.Bootstrap`, else 1999 percentile resamples)."""
    from accord.spans import label_confusion, span_agreement, span_disagreements

    table = ann.spans
    assert table is not None
    boot = method if isinstance(method, Bootstrap) else Bootstrap(
        n_resamples=DEFAULT_RESAMPLES, rng=seed)
    raters = [str(r) for r in ann.raters if r in table.raters] or None
    results = {m: span_agreement(ann, mode=m, raters=raters) for m in MODES}
    modes = tuple(SpanMode(m, _row("mean F1", r.f1, confidence_level, boot),
                           _row("macro F1", r.macro_f1, confidence_level, boot),
                           tuple(_row(lab, x, confidence_level, boot)
                                 for lab, x in sorted(r.per_label.items())))
                  for m, r in results.items())
    strict = results["strict"]
    pairs = tuple(SpanPairRow(k, p.n_units,
                              tuple(results[m].pairs[k].f1.estimate for m in MODES),
                              p.counts.to_dict())
                  for k, p in strict.pairs.items())
    confusion = tuple((a, b, x, y, n)
                      for (a, b), c in label_confusion(ann, mode=CONFUSION_MODE,
                                                       raters=raters).items()
                      for (x, y), n in sorted(c.items()))
    dis = span_disagreements(ann, mode=DISAGREEMENT_MODE, raters=raters)
    rows = tuple(SpanDisagreementRow(str(d.unit), d.raters, d.kind, _span(d.first),
                                     _span(d.second)) for d in dis[:top])
    notes = tuple(dict.fromkeys((*strict.notes, *_left_out(strict))))
    chosen = tuple(raters or table.raters)
    spans = [sp for sp in table if sp.rater in chosen]
    units = {u for (u, r) in table.coverage if r in chosen} | {sp.unit for sp in spans}
    relations = relations_section(ann, raters, confidence_level, boot, top)
    unitizing = unitizing_section(ann, raters, confidence_level, boot, seed)
    return SpansSection(str(table.field), len(spans), len(units), chosen,
                        _sentence(modes[0], len(pairs), confidence_level),
                        modes, pairs, confusion, rows, len(dis), notes, relations, unitizing,
                        confidence_level)


def span_report(ann: Annotations, settings: Settings, method: Any, top: int,
                title: str | None) -> Report:
    """The report of span-only data: the data summary and the span section."""
    from accord._version import __version__

    section = spans_section(ann, settings.confidence_level, method, settings.seed, top)
    if not isinstance(method, Bootstrap):
        settings = replace(settings, method="bootstrap-percentile",
                           n_resamples=DEFAULT_RESAMPLES)
    units = UnitsSection(section.raters, (), 0, 0)  # no labels per unit: see the span section
    return Report(
        title=title or "Agreement report", headline=_headline(section),
        accord_version=__version__, data=_data(ann, section), settings=settings,
        coefficients=(), primary=None, pairs=(), raters=(), loo_coefficient=None, matrix=None,
        units=units, bootstrap=None, study=None, notes=(), spans=section,
    )


def _headline(section: SpansSection) -> str:
    return (f"{len(section.raters)} raters marked {section.n_spans} spans in "
            f"{section.n_units} units. {section.sentence}")


def _data(ann: Annotations, section: SpansSection) -> DataSummary:
    table = ann.spans
    assert table is not None
    labels = Counter(s.label for s in table if s.rater in section.raters)
    covered = Counter(u for (u, r), st in table.coverage.items()
                      if st == "annotated" and r in section.raters)
    audit = ann.audit
    return DataSummary(
        source=audit.source, n_units=section.n_units, n_raters=len(section.raters),
        raters=section.raters,
        kinds=tuple(str(ann.kinds.get(r, "human")) for r in section.raters),
        categories=tuple(sorted(labels)), category_counts=tuple(labels[k] for k in
                                                                sorted(labels)),
        level="nominal", n_ratings=0, rows_read=audit.rows_read,
        dropped=tuple((str(k), int(n)) for k, n in audit.dropped.items()),
        notes=tuple(audit.notes), units_rated_once=sum(n == 1 for n in covered.values()),
        units_complete=sum(n == len(section.raters) for n in covered.values()),
        audit=tuple(audit.lines()), caveats=tuple(audit.caveats), ratings_reader_used=0,
    )


def _row(name: str, res: AgreementResult, level: float, boot: Bootstrap) -> FigureRow:
    if not res.defined:
        return FigureRow(name, res.estimate, math.nan, math.nan, "", res.undefined_reason)
    ci = res.confidence_interval(level, method=boot)
    return FigureRow(name, res.estimate, ci.low, ci.high, ci.method, None)


def _span(s: Any) -> tuple[int, int, str, str] | None:
    return None if s is None else (int(s.start), int(s.end), str(s.label),
                                   "" if s.text is None else str(s.text))


def _left_out(res: Any) -> list[str]:
    out = []
    for p in res.pairs.values():
        left = {k: n for k, n in p.left_out.items() if n}
        if left:
            why = ", ".join(f"{n} {k}" for k, n in left.items())
            out.append(f"{p.raters[0]} / {p.raters[1]}: units annotated by only one of them "
                       f"are left out of that pair ({why}).")
    return out


def _sentence(strict: SpanMode, n_pairs: int, level: float) -> str:
    r = strict.f1
    if r.undefined_reason:
        return f"The mean pairwise span F1 (strict) is undefined: {r.undefined_reason}."
    ci = (f" ({level * 100:g}% CI {_f(r.ci_low)} to {_f(r.ci_high)})"
          if math.isfinite(r.ci_low) else "")
    return (f"Mean pairwise span F1 (strict: same boundaries and label) = {_f(r.estimate)}"
            f"{ci} over {n_pairs} rater pair(s).")


# --------------------------------------------------------------------------- text cells
PAIR_HEAD = ["raters", "units", *(f"F1 {m}" for m in MODES)]
CONFUSION_HEAD = ["raters", "first rater's label", "second rater's label", "spans"]
DISAGREEMENT_HEAD = ["unit", "raters", "kind", "first rater's span", "second rater's span"]


def cells(section: SpansSection, level: str) -> dict[str, Any]:
    """The section as text: one per-label table per mode, the pairs, the confusion
    and the disagreements (raw text: each renderer escapes it)."""
    mode_head = ["label", "F1", f"{level} CI"]
    modes = [(m.mode, [[r.name, _fig(r), _ci(r)] for r in (m.f1, m.macro_f1, *m.labels)])
             for m in section.modes]
    pairs = [[" / ".join(p.raters), str(p.n_units), *(_f(x) for x in p.f1)]
             for p in section.pairs]
    confusion = [[f"{a} / {b}", x, y, str(n)] for a, b, x, y, n in section.confusion]
    dis = [[d.unit, " / ".join(d.raters), d.kind, span_text(d.first), span_text(d.second)]
           for d in section.disagreements]
    counts = Counter(d.kind for d in section.disagreements)
    return {"mode_head": mode_head, "modes": modes, "pairs": pairs, "confusion": confusion,
            "disagreements": dis, "kinds": dict(counts),
            "dis_title": f"Disagreements ({DISAGREEMENT_MODE}): the first "
                         f"{len(section.disagreements)} of {section.n_disagreements}",
            "confusion_title": f"Label confusion among matched spans ({CONFUSION_MODE}: "
                               "same boundaries, any label)"}


def span_text(s: tuple[int, int, str, str] | None) -> str:
    """``PER 0-13 "Caius Apicius"`` (text cut at 60 characters); ``-`` for no span."""
    if s is None:
        return "-"
    start, end, label, text = s
    text = text if len(text) <= SNIPPET else text[:SNIPPET - 1] + "…"
    return f'{label} {start}-{end} "{text}"' if text else f"{label} {start}-{end}"


def _fig(r: FigureRow) -> str:
    return "undefined" if r.undefined_reason else _f(r.estimate)


def _ci(r: FigureRow) -> str:
    return f"{_f(r.ci_low)} to {_f(r.ci_high)}" if math.isfinite(r.ci_low) else "–"


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None
