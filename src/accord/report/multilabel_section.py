"""The report's multilabel section: agreement on set-valued ratings.

Built from :func:`accord.multilabel_agreement`: per label, the coefficient on
"did the rater give this label?" with its interval and the label's prevalence;
the macro mean and the pooled coefficient; Krippendorff's alpha with the MASI and
Jaccard distances; the mean pairwise Jaccard and Dice similarity and the
maximum-percentage agreement. The renderers show the same text cells
(:func:`cells`), each escaping them for its medium.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.errors import AccordError, DataError
from accord.inference.results import AgreementResult
from accord.report.model import FigureRow

__all__ = ["LabelRow", "MultilabelSection", "cells", "multilabel_section", "set_options"]

TITLE = "Multilabel agreement"
_SUMMARY = (("pooled over (unit, label) items", "pooled"),
            ("Krippendorff's alpha, MASI distance", "masi_alpha"),
            ("Krippendorff's alpha, Jaccard distance", "jaccard_alpha"),
            ("mean pairwise Jaccard similarity", "mean_jaccard"),
            ("mean pairwise Dice similarity", "mean_dice"),
            ("maximum-percentage agreement", "max_percentage"))


@dataclass(frozen=True)
class LabelRow:
    """One label: its prevalence among the ratings and the coefficient on its presence."""

    label: str
    n_present: int
    prevalence: float
    figure: FigureRow


@dataclass(frozen=True)
class MultilabelSection:
    """Agreement on set-valued ratings, per label and on the sets.

    Attributes
    ----------
    coefficient : str
        The per-label coefficient's title.
    n_units, n_raters, n_ratings, n_distinct_sets : int
    labels : tuple of LabelRow
    macro : FigureRow
        The mean of the defined per-label estimates (``macro_left_out`` names the
        undefined labels).
    summary : tuple of FigureRow
        Pooled, MASI and Jaccard alphas, mean Jaccard and Dice, maximum percentage.
    notes : tuple of str
    """

    coefficient: str
    n_units: int
    n_raters: int
    n_ratings: int
    n_distinct_sets: int
    labels: tuple[LabelRow, ...]
    macro: FigureRow
    macro_left_out: tuple[str, ...]
    summary: tuple[FigureRow, ...]
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (undefined numbers are made ``null`` by the JSON writer)."""
        return asdict(self)


def multilabel_section(ann: Annotations, confidence_level: float,
                       method: Any) -> MultilabelSection:
    """Compute the section on set-valued ``ann`` (``method`` as ``confidence_interval``)."""
    from accord.coefficients.multilabel import multilabel_agreement
    from accord.study import REGISTRY
    from accord.tables.indicators import LabelIndicators

    res = multilabel_agreement(ann)
    ind = LabelIndicators.from_annotations(ann, list(res.labels))
    present = ind.present_all().sum(axis=1)
    n_ratings = int(ind.n_rated.sum())
    rows = tuple(
        LabelRow(str(label), int(present[j]), float(present[j] / n_ratings) if n_ratings
                 else math.nan, _figure(str(label), res.per_label[label], confidence_level,
                                        method))
        for j, label in enumerate(res.labels))
    notes = [f"Each label is a yes/no rating (is it in the rater's set?); "
             f"{REGISTRY[res.coefficient].title} per label. Two empty sets are identical for "
             "the alphas and the similarities; maximum-percentage agreement counts them as "
             "sharing no label (as DKPro Agreement does)."]
    if res.macro_left_out:
        notes.append("Left out of the macro mean (undefined): "
                     + ", ".join(str(x) for x in res.macro_left_out) + ".")
    if res.masi_alpha is None:
        notes.append(f"The set alphas are {res.details['set_alpha']}.")
    notes.append("The pooled coefficient's interval treats the (unit, label) items as "
                 "independent, which the labels of one unit are not: read it as descriptive.")
    macro, note = _macro(res, confidence_level, method)
    notes.append(note)
    summary = tuple(_figure(name, getattr(res, key), confidence_level, method)
                    for name, key in _SUMMARY if getattr(res, key) is not None)
    return MultilabelSection(
        coefficient=REGISTRY[res.coefficient].title, n_units=res.n_units,
        n_raters=res.n_raters, n_ratings=n_ratings,
        n_distinct_sets=int(res.details["n_distinct_sets"]), labels=rows, macro=macro,
        macro_left_out=tuple(str(x) for x in res.macro_left_out), summary=summary,
        notes=tuple(notes))


def _macro(res: Any, level: float, method: Any) -> tuple[FigureRow, str]:
    """The macro mean with its unit bootstrap (the report's, else 1,999 resamples, seed 0)."""
    from accord.inference import Bootstrap

    name = "macro mean over labels"
    boot = method if isinstance(method, Bootstrap) else Bootstrap(n_resamples=1999, rng=0)
    note = (f"The macro mean's interval is a bootstrap over units ({boot.n_resamples} "
            "resamples), every label of a unit resampled together.")
    if not math.isfinite(res.macro):
        return FigureRow(name, math.nan, math.nan, math.nan, "",
                         "no label has a defined figure"), note
    try:
        ci = res.macro_interval(level, method=boot)
    except AccordError:
        return FigureRow(name, res.macro, math.nan, math.nan, "", None), note
    return FigureRow(name, res.macro, ci.low, ci.high, ci.method, None), note


def _figure(name: str, res: AgreementResult, level: float, method: Any) -> FigureRow:
    if not res.defined:
        return FigureRow(name, math.nan, math.nan, math.nan, "", res.undefined_reason)
    try:
        ci = res.confidence_interval(level, method=method)
    except AccordError:
        ci = None
    if ci is None:
        return FigureRow(name, res.estimate, math.nan, math.nan, "", None)
    return FigureRow(name, res.estimate, float(ci.low), float(ci.high), ci.method, None)


def _num(x: float) -> str:
    return "-" if not np.isfinite(x) else f"{x:.4f}"


def _fig(row: FigureRow) -> str:
    return "undefined" if row.undefined_reason else _num(row.estimate)


def _span(row: FigureRow) -> str:
    if not (math.isfinite(row.ci_low) and math.isfinite(row.ci_high)):
        return "-"
    return f"{row.ci_low:.4f} to {row.ci_high:.4f}"


def cells(section: MultilabelSection) -> dict[str, Any]:
    """The section as text: the per-label and summary tables and the lead sentence."""
    label_head = ["label", "ratings with it", "prevalence", section.coefficient, "CI"]
    label_rows = [[r.label, str(r.n_present), f"{100 * r.prevalence:.1f}%"
                   if math.isfinite(r.prevalence) else "-", _fig(r.figure), _span(r.figure)]
                  for r in section.labels]
    summary_head = ["figure", "estimate", "CI", "interval"]
    summary_rows = [[r.name, _fig(r), _span(r), r.method]
                    for r in (section.macro, *section.summary)]
    lead = (f"{section.n_ratings} ratings are sets of labels ({len(section.labels)} labels, "
            f"{section.n_distinct_sets} distinct sets) from {section.n_raters} raters on "
            f"{section.n_units} units.")
    return {"label_head": label_head, "label_rows": label_rows,
            "summary_head": summary_head, "summary_rows": summary_rows, "lead": lead,
            "notes": list(section.notes)}


# --------------------------------------------------------------------------- renderers
def html_section(section: MultilabelSection | None, level: float) -> str:
    """The section as HTML (empty when there is none)."""
    if section is None:
        return ""
    from accord.report._html import _table, e

    c = cells(section)
    lvl = f"{level * 100:g}% CI"
    return "".join([
        f'<section id="multilabel"><h2>{TITLE}</h2><p>{e(c["lead"])}</p>',
        _table([*c["summary_head"][:2], lvl, c["summary_head"][3]], c["summary_rows"],
               [False, True, True, False], caption="On the sets and over all labels"),
        _table([*c["label_head"][:4], lvl], c["label_rows"], [False, True, True, True, True],
               caption="Per label"),
        *(f'<p class="note">{e(n)}</p>' for n in c["notes"]), "</section>"])


def markdown_lines(section: MultilabelSection | None, level: float) -> list[str]:
    """The section as Markdown lines (none when there is no section)."""
    if section is None:
        return []
    from accord.report._markdown import _table, escape

    c = cells(section)
    lvl = f"{level * 100:g}% CI"
    out = [f"## {TITLE}", "", escape(c["lead"]), ""]
    out += _table([*c["summary_head"][:2], lvl, c["summary_head"][3]],
                  [[escape(x) for x in row] for row in c["summary_rows"]], "lrrl")
    out += _table([escape(x) for x in [*c["label_head"][:4], lvl]],
                  [[escape(x) for x in row] for row in c["label_rows"]], "lrrrr")
    out += [f"- {escape(n)}" for n in c["notes"]] + [""]
    return out


def console_parts(section: MultilabelSection | None) -> list[Any]:
    """The two tables and the notes for the terminal."""
    if section is None:
        return []
    from rich.text import Text

    from accord.report._rich_table import text_table

    c = cells(section)
    out: list[Any] = [Text(""), Text(TITLE, style="bold"), Text(c["lead"])]
    for title, head, rows in (("On the sets and over all labels", c["summary_head"],
                               c["summary_rows"]),
                              ("Per label", c["label_head"], c["label_rows"])):
        out.append(text_table(title, head, rows))
    out += [Text(n, style="dim") for n in c["notes"]]
    return out


def set_options(ann: Annotations, coefficients: Sequence[str] | None, level: str | None,
                judge: Any, pairs: Any, func: str) -> tuple[Sequence[str] | None, str | None]:
    """On label sets the coefficient table holds Krippendorff's alpha on the sets (MASI
    distance unless ``level="jaccard"``); the rest goes to the multilabel section."""
    if not ann.set_valued:
        return coefficients, level
    if judge is not None or pairs:
        what = "the judge section" if judge is not None else "pair worksheets (pairs=)"
        raise DataError(f"{func}: {what} need(s) one label per rating, but these "
                        "ratings are sets of labels.")
    if coefficients is not None and list(coefficients) != ["krippendorff_alpha"]:
        raise DataError(f"{func}: these ratings are sets of labels; the report computes "
                        "Krippendorff's alpha on the sets and the multilabel section, not "
                        f"{', '.join(coefficients)} (one label per rating).")
    if level not in (None, "masi", "jaccard"):
        raise DataError(f"{func}: level {level!r} needs one label per rating, but these "
                        "ratings are sets of labels; use 'masi' or 'jaccard'.")
    return ["krippendorff_alpha"], level or "masi"
