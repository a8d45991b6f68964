"""The pieces every Markdown section is made of: escaping and GitHub-flavoured tables."""

from __future__ import annotations

from collections.abc import Sequence

from accord.inference.display import escape_markdown

#: Text safe in a Markdown paragraph or table cell (one escaping for the report and the
#: notebook cards: :func:`accord.inference.display.escape_markdown`).
escape = escape_markdown


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], align: str = "") -> list[str]:
    """A table of already-escaped cells; ``align`` is one character per column (l or r)."""
    marks = [("---:" if a == "r" else ":---") for a in (align or "l" * len(head))]
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(marks) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out + [""]
