"""Console output that data cannot take over.

Labels, rater names and file names come from people and tools accord does not
control. Written to a terminal as they are, an escape sequence in a label could
clear the screen and print a fake verdict (``ESC [2J``), set the clipboard
(``ESC ]52``) or reorder the text (Unicode bidirectional overrides, the
"Trojan Source" attack, CVE-2021-42574). Every console line accord prints goes
through :func:`visible`, which spells such characters out (``\\x1b``,
``\\u202e``): the command line's rich console (:mod:`accord.cli._safe_console`) applies
it to every piece of text it renders, and :func:`echo` to plain lines.
"""

from __future__ import annotations

import re

import click

__all__ = ["echo", "visible"]

# C0 controls except line feed, DEL, C1 controls, bidirectional embeddings,
# overrides and isolates, and the line/paragraph separators.
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _spell(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, keep: str = "\n") -> str:
    """``text`` with control characters spelled out, except those in ``keep``.

    Examples
    --------
    >>> print(visible("pos\\x1b[2JACCEPTED"))
    pos\\x1b[2JACCEPTED
    >>> visible("a\\u202eb") == "a\\\\u202eb"
    True

    Without ``"\\n"`` in ``keep`` the text stays on one line (a label, a message):

    >>> print(visible("pos\\nACCEPTED", keep=""))
    pos\\nACCEPTED
    """
    if "\n" not in keep and "\n" in text:
        text = text.replace("\n", "\\n")
    if not _UNSAFE.search(text):
        return text
    if not keep:
        return _UNSAFE.sub(_spell, text)
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else _spell(m), text)


def echo(text: str, *, err: bool = False, nl: bool = True, keep: str = "\n") -> None:
    """``click.echo`` of :func:`visible` text."""
    click.echo(visible(text, keep=keep), err=err, nl=nl)
