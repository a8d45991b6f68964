"""The whole report inline in a notebook: its HTML without the page, its CSS scoped.

:func:`inline_html` is what ``accord.report(...)`` shows in a Jupyter cell: the same
header, navigation and sections as the HTML file (the same escaping and classes), inside
one ``<div class="accord-report">``. The report's stylesheet is rewritten so that each
rule applies inside that element only (the notebook's own page is left alone), and its
colours follow the notebook's theme: text in ``currentColor``, transparent backgrounds,
translucent greys for lines and bands. No script, as in the file.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from accord.report._html import _css

if TYPE_CHECKING:
    from accord.report.model import Report

__all__ = ["ROOT", "inline_html", "scoped_css"]

ROOT = ".accord-report"
_PAGE = {":root", "html", "body"}

#: Colours that read on light and dark notebook themes alike.
_THEME = (f"{ROOT} {{ --fg: currentColor; --bg: transparent; --muted: inherit; "
          "--line: rgba(127,127,127,.35); --band: rgba(127,127,127,.12); color: inherit; "
          "background: transparent; max-width: 100%; overflow-x: auto; }\n"
          f"{ROOT} .muted, {ROOT} .note {{ opacity: .75; }}\n"
          f"{ROOT} td.diag {{ background: rgba(59,130,246,.18); }}\n"
          f"{ROOT} header, {ROOT} main, {ROOT} nav {{ padding: 0; }}\n")


def _scope_selector(selector: str) -> str:
    sel = selector.strip()
    if sel in _PAGE:
        return ROOT
    for page in _PAGE:
        if sel.startswith(page + " "):
            return f"{ROOT} {sel[len(page) + 1:]}"
    return f"{ROOT} {sel}"


def scoped_css(css: str) -> str:
    """``css`` with every rule's selectors put inside :data:`ROOT` (``@media`` kept).

    >>> print(scoped_css("body { margin: 0; } @media print { th, td { padding: 0; } }"))
    .accord-report{ margin: 0; }@media print{.accord-report th, .accord-report td{ padding: 0; }}
    """
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out: list[str] = []
    i = 0
    while i < len(css):
        start = css.find("{", i)
        if start < 0:
            break
        prelude = css[i:start].strip()
        depth, j = 1, start + 1
        while depth and j < len(css):
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
        inner = css[start + 1:j - 1]
        if prelude.startswith("@media"):
            out.append(f"{prelude}{{{scoped_css(inner)}}}")
        elif prelude.startswith("@"):
            out.append(f"{prelude}{{{inner}}}")
        else:
            sels = ", ".join(_scope_selector(s) for s in prelude.split(","))
            out.append(f"{sels}{{{inner}}}")
        i = j
    return "".join(out)


def inline_html(report: Report) -> str:
    """The report as an HTML fragment for a notebook cell: scoped CSS, no page chrome."""
    from accord.report.html import body_html

    css = scoped_css(_css()) + "\n" + _THEME
    return f'<div class="accord-report"><style>\n{css}</style>\n{body_html(report)}</div>'
