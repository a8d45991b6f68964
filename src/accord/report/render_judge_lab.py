"""The judge-lab sections in HTML, Markdown and on the console.

Every renderer shows the same text cells (:func:`cells`), each escaping them for its
medium; numbers are rounded here only (the JSON keeps full precision). A section
opens with its sentence, then its table, its chart (HTML) and its notes.
"""

from __future__ import annotations

import math
from typing import Any

from accord.report.judge_lab_model import JudgeLabSection, LabFigure, LabPart

__all__ = ["cells", "console_parts", "html_sections", "markdown_lines", "nav_links",
           "section_id"]


def section_id(part: LabPart) -> str:
    """The HTML id of a part's section (``lab-position``, ``lab-ranking``, ...)."""
    return f"lab-{part.kind.replace('_', '-')}"


def _f(x: Any, digits: int = 3) -> str:
    if x is None or not isinstance(x, (int, float)) or not math.isfinite(x):
        return "undefined"
    return f"{x:.{digits}f}"


def _ci(f: LabFigure) -> str:
    if not (math.isfinite(f.ci_low) and math.isfinite(f.ci_high)):
        return "undefined" if not f.defined else "none"
    return f"{_f(f.ci_low)} to {_f(f.ci_high)}"


def cells(part: LabPart, level: float) -> dict[str, Any]:
    """The part as text: its table's head and rows (and the reliability bins)."""
    lvl = f"{level * 100:g}% CI"
    extra = [dict(f.extra) for f in part.figures]
    if part.kind == "position":
        head = ["rater", "pairs in both orders", "first shown wins", lvl,
                "same verdict when swapped"]
        rows = [[f.who, str(x.get("pairs_both_orders", 0)), _f(f.estimate), _ci(f),
                 (f"{_f(x['same_verdict_when_swapped'])} of {x['pairs_swapped']}"
                  if x.get("pairs_swapped") else "undefined")]
                for f, x in zip(part.figures, extra)]
    elif part.kind == "ranking":
        head = ["generator", "log-strength", lvl, "Elo"]
        rows = [[f.who or f.label, _f(f.estimate), _ci(f),
                 _f(x.get("elo"), 0) if f.key == "strength" else ""]
                for f, x in zip(part.figures, extra)]
    elif part.kind == "panel":
        return _panel_cells(part, lvl)
    else:
        head = ["figure", "estimate", lvl, "n"]
        rows = [[f.label, _f(f.estimate), _ci(f), str(f.n)] for f in part.figures]
    second = None
    if part.bins:
        second = {"caption": "Reliability bins",
                  "head": ["scores", "items", "mean score", "observed rate"],
                  "rows": [[f"{b.low:.2f}\u2013{b.high:.2f}", str(b.n), _f(b.mean_score),
                            _f(b.observed_rate)] for b in part.bins]}
    return {"head": head, "rows": rows, "second": second,
            "numeric": [False] + [True] * (len(head) - 1)}


def _panel_cells(part: LabPart, lvl: str) -> dict[str, Any]:
    """A panel: one row per judge and the panel (the alt-test), then the effective number
    of judges and the error correlations with the figure table's columns."""
    head = ["judge", "alt-test", "winning rate", "humans won", "advantage probability",
            "units"]
    rows = []
    for f in part.figures:
        if f.key != "winning_rate":
            continue
        x = dict(f.extra)
        rho = part.figure("advantage_probability", f.who)
        rows.append([f.who, "passes" if x["passed"] else "fails", _f(f.estimate, 2),
                     f"{x['humans_won']} of {x['humans_tested']}",
                     _f(None if rho is None else rho.estimate), str(f.n)])
    size = [[f.label, _f(f.estimate), _ci(f), str(f.n)] for f in part.figures
            if f.key not in ("winning_rate", "advantage_probability")]
    return {"head": head, "rows": rows, "numeric": [False, False] + [True] * 4,
            "second": {"caption": "Effective number of judges",
                       "head": ["figure", "estimate", lvl, "n"], "rows": size}}


def _caption(part: LabPart, level: float) -> str:
    if part.kind == "ranking":
        return (f"Dots: each generator's log-strength; lines: its {level * 100:g}% "
                "confidence interval (Fisher information); grey line: the mean strength.")
    return ("Dots: the observed (human) rate of each score bin against its mean predicted "
            "score, larger for more items; dashed: perfect calibration; bars: items per bin.")


def _said(part: LabPart, verdict: str) -> str:
    """The part's sentence, or nothing when the verdict above already says it."""
    return "" if _end(part.sentence) == verdict else _end(part.sentence)


def html_sections(section: JudgeLabSection | None, verdict: str = "") -> list[str]:
    """One ``<section>`` per part (none when there is no section); a sentence equal to
    the report's ``verdict`` is not repeated."""
    if section is None:
        return []
    from accord.report import plots_judge
    from accord.report._html import _figure, _table, e

    out = []
    level = section.confidence_level
    for part in section.parts:
        c = cells(part, level)
        said = _said(part, verdict)
        body = [f'<section id="{section_id(part)}"><h2>{e(part.title)}</h2>'
                + (f"<p>{e(said)}</p>" if said else ""),
                _table(c["head"], c["rows"], c["numeric"])]
        if part.kind == "ranking":
            body.append(_figure(plots_judge.strength_intervals(
                [f for f in part.figures if f.key == "strength"]), _caption(part, level)))
        if part.kind == "calibration":
            body.append(_figure(plots_judge.reliability_diagram(part.bins),
                                _caption(part, level)))
        if c["second"]:
            two = c["second"]
            body.append(_table(two["head"], two["rows"],
                               [False] + [True] * (len(two["head"]) - 1),
                               caption=two["caption"]))
        body += [f'<p class="note">{e(n)}</p>' for n in part.notes]
        out.append("".join(body) + "</section>")
    return out


def nav_links(section: JudgeLabSection | None) -> list[tuple[str, str]]:
    """(id, title) of each part, for the page's navigation."""
    return [] if section is None else [(section_id(p), p.title) for p in section.parts]


def _end(sentence: str) -> str:
    return sentence if sentence.endswith(".") else sentence + "."


def markdown_lines(section: JudgeLabSection | None, verdict: str = "") -> list[str]:
    """The parts as Markdown lines (none when there is no section)."""
    if section is None:
        return []
    from accord.report._markdown import _table, escape

    out: list[str] = []
    for part in section.parts:
        c = cells(part, section.confidence_level)
        said = _said(part, verdict)
        out += [f"## {escape(part.title)}", ""] + ([escape(said), ""] if said else [])
        out += _table([escape(h) for h in c["head"]],
                      [[escape(x) for x in row] for row in c["rows"]],
                      "".join("r" if n else "l" for n in c["numeric"]))
        if c["second"]:
            two = c["second"]
            out += [escape(two["caption"]), ""]
            out += _table([escape(h) for h in two["head"]],
                          [[escape(x) for x in row] for row in two["rows"]],
                          "l" + "r" * (len(two["head"]) - 1))
        out += [f"- {escape(n)}" for n in part.notes] + ([""] if part.notes else [])
    return out


def console_parts(section: JudgeLabSection | None, verdict: str = "") -> list[Any]:
    """The parts as rich renderables (none when there is no section)."""
    if section is None:
        return []
    from rich.text import Text

    from accord.report._rich_table import text_table

    out: list[Any] = []
    for part in section.parts:
        c = cells(part, section.confidence_level)
        said = _said(part, verdict)
        table = text_table(part.title, c["head"], c["rows"])
        table.title = None  # the bold title above says it
        out += [Text(""), Text(part.title, style="bold"), *([Text(said)] if said else []),
                table]
        if c["second"]:
            two = c["second"]
            out.append(text_table(two["caption"], two["head"], two["rows"]))
        out += [Text(n, style="dim") for n in part.notes]
    return out
