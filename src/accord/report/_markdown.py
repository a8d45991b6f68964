"""The pieces every Markdown section is made of: escaping and GitHub-flavoured tables."""

from __future__ import annotations

import re
from collections.abc import Sequence

_SPECIAL = re.compile(r"([\\`*\[\]|~])")
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_ENTITY_AMP = re.compile(r"&(?=#?\w+;)")
_LINE_START = ("#",)

def escape(text: object) -> str:
    """Text safe in a Markdown paragraph or table cell.

    HTML tags and entities are neutralised, Markdown emphasis, code, links and
    table pipes are backslash-escaped; an underscore inside a word (``rater_1``)
    is left as it is, since it cannot start emphasis there.

    Examples
    --------
    >>> escape("<script>alert(1)</script>")
    '&lt;script&gt;alert(1)&lt;/script&gt;'
    >>> print(escape("a|b *c* [d](e) _f_ g_h &amp;"))
    a\\|b \\*c\\* \\[d\\](e) \\_f\\_ g_h &amp;amp;
    """
    s = " ".join(str(text).split())
    s = _ENTITY_AMP.sub("&amp;", s).replace("<", "&lt;").replace(">", "&gt;")
    s = _SPECIAL.sub(r"\\\1", s)
    s = _EDGE_UNDERSCORE.sub(r"\\_", s)
    return "\\" + s if s.startswith(_LINE_START) else s


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], align: str = "") -> list[str]:
    """A table of already-escaped cells; ``align`` is one character per column (l or r)."""
    marks = [("---:" if a == "r" else ":---") for a in (align or "l" * len(head))]
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(marks) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out + [""]
