"""Long labels shortened for display, the same way in every renderer.

A label (a category, a rater, a unit id, a group) may be any length: a pasted paragraph,
or a whole document by mistake. Every place that shows one (HTML and Markdown tables,
the console, the charts, the command line's worksheets) shows :func:`short` of it
(:func:`accord.data._text.short`): at most :data:`LIMIT` characters, cut with an
ellipsis. The full text stays in the data and in the JSON report, and the HTML and
Markdown reports list each shortened label in full once, at the end
(:func:`for_display`), so a page grows with the data, not with a label's length times
the places it is shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields, is_dataclass, replace
from typing import Any

from accord.data._text import ELLIPSIS, LIMIT, short

__all__ = ["ELLIPSIS", "LIMIT", "console_note", "for_display", "glossary_html",
           "glossary_markdown", "long_labels", "report_labels", "short"]


def long_labels(labels: Iterable[object], limit: int = LIMIT) -> list[tuple[str, str]]:
    """``(shown, full)`` for each distinct label that :func:`short` cuts, in order."""
    seen = dict.fromkeys(str(x) for x in labels)
    return [(short(x, limit), x) for x in seen if len(x) > limit]


def _shown_labels(long: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each long label's shortened text, told apart when two begin alike (``… #2``)."""
    out: list[tuple[str, str]] = []
    used: set[str] = set()
    for shown, full in long:
        k = 1
        while shown in used:
            k += 1
            tag = f"{ELLIPSIS} #{k}"
            shown = short(full, LIMIT - len(tag) + 1)[:-1] + tag
        used.add(shown)
        out.append((shown, full))
    return out


def report_labels(report: Any) -> list[str]:
    """The labels a report shows: categories, raters, unit ids and their ratings, groups,
    label names of label sets."""
    d = report.data
    out = [*map(str, d.categories), *map(str, d.raters)]
    out += [str(r.unit) for r in report.units.rows]
    out += [str(x) for r in report.units.rows for x in r.labels if x is not None]
    if report.groups is not None:
        out += [r.group for r in report.groups.rows]
    if report.multilabel is not None:
        out += [str(r.label) for r in report.multilabel.labels]
    return out


def for_display(report: Any) -> tuple[Any, list[tuple[str, str]]]:
    """The report as shown: each label longer than :data:`LIMIT` replaced by its shortened
    text wherever it appears (tables, sentences, charts), and ``(shown, full)`` for each
    (the glossary a page lists once). The report itself is left as it is (its JSON keeps
    every label whole)."""
    pairs = _shown_labels(long_labels(report_labels(report)))
    if not pairs:
        return report, []
    swaps = sorted(((full, shown) for shown, full in pairs), key=lambda p: -len(p[0]))
    return _swap(report, swaps, LIMIT), pairs


def _swap(x: Any, swaps: list[tuple[str, str]], least: int) -> Any:
    """``x`` with every long label in its text replaced (only what changed is copied)."""
    if isinstance(x, str):
        if len(x) > least:
            for full, shown in swaps:
                if full in x:
                    x = x.replace(full, shown)
        return x
    if is_dataclass(x) and not isinstance(x, type):
        new = {f.name: _swap(getattr(x, f.name), swaps, least) for f in fields(x)
               if f.init and f.name != "results"}
        changed = {k: v for k, v in new.items() if v is not getattr(x, k)}
        return replace(x, **changed) if changed else x
    if isinstance(x, (tuple, list)):
        items = [_swap(v, swaps, least) for v in x]
        if all(a is b for a, b in zip(items, x)):
            return x
        return type(x)(items) if isinstance(x, list) or type(x) is tuple else x
    if isinstance(x, dict):
        out = {_swap(k, swaps, least): _swap(v, swaps, least) for k, v in x.items()}
        same = all(a is b for a, b in zip(out, x)) and all(out[k] is x[k] for k in x
                                                            if k in out)
        return x if same else out
    return x


def glossary_html(pairs: list[tuple[str, str]]) -> str:
    """The section that lists each shortened label in full, once."""
    if not pairs:
        return ""
    from html import escape

    items = "".join(f"<dt>{escape(s)}</dt><dd>{escape(f)}</dd>" for s, f in pairs)
    return (f'<section id="labels"><h2>Labels in full</h2><p class="note">Labels longer '
            f"than {LIMIT} characters are shortened with {ELLIPSIS} everywhere else on this "
            f"page; here is each in full.</p><dl>{items}</dl></section>")


def glossary_markdown(pairs: list[tuple[str, str]]) -> list[str]:
    """The Markdown section that lists each shortened label in full, once."""
    if not pairs:
        return []
    from accord.inference.display import escape_markdown as escape

    out = ["## Labels in full", "", f"Labels longer than {LIMIT} characters are shortened "
           f"with {ELLIPSIS} everywhere else in this report; here is each in full.", ""]
    for shown, full in pairs:
        out += [f"- {escape(shown)}: {escape(full)}"]
    return out + [""]


def console_note(pairs: list[tuple[str, str]]) -> str:
    """The console's line saying labels were shortened."""
    return (f"{len(pairs)} label(s) longer than {LIMIT} characters are shortened with "
            f"{ELLIPSIS}; the HTML, Markdown and JSON reports have them in full."
            if pairs else "")
