"""Long labels shortened for display, the same way in every renderer.

A label (a category, a rater, a unit id, a group) may be any length: a pasted paragraph,
or a whole document by mistake. Every place that shows one (HTML and Markdown tables,
the console, the charts) shows :func:`short` of it: at most :data:`LIMIT` characters,
cut with an ellipsis. The full text stays in the data and in the JSON report, and the
HTML and Markdown reports list each shortened label in full once, at the end
(:func:`long_labels`), so a page grows with the data, not with a label's length times
the places it is shown.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ELLIPSIS", "LIMIT", "long_labels", "short"]

#: The most characters of a label shown in a table, a chart or a sentence.
LIMIT = 60
ELLIPSIS = "\u2026"


def short(text: object, limit: int = LIMIT) -> str:
    """``text`` as shown: whole when it has at most ``limit`` characters, else its first
    characters (blanks and line breaks folded to one space) and an ellipsis.

    >>> short("billing")
    'billing'
    >>> short("a very long label", 10)
    'a very lo…'
    """
    s = str(text)
    if len(s) <= limit:
        return s
    return " ".join(s[: 4 * limit].split())[: limit - 1] + ELLIPSIS


def long_labels(labels: Iterable[object], limit: int = LIMIT) -> list[tuple[str, str]]:
    """``(shown, full)`` for each distinct label that :func:`short` cuts, in order."""
    seen = dict.fromkeys(str(x) for x in labels)
    return [(short(x, limit), x) for x in seen if len(x) > limit]
