"""Console output that data cannot take over.

Labels, rater names and file names come from people and tools accord does not
control. Written to a terminal as they are, an escape sequence in a label could
clear the screen and print a fake verdict (``ESC [2J``), set the clipboard
(``ESC ]52``) or reorder the text (Unicode bidirectional overrides, the
"Trojan Source" attack, CVE-2021-42574). Every console line accord prints goes
through :func:`visible` (:mod:`accord.data._text`), which spells such characters out (``\\x1b``,
``\\u202e``): the command line's rich console (:mod:`accord.cli._safe_console`) applies
it to every piece of text it renders, and :func:`echo` to plain lines.
"""

from __future__ import annotations

import click

from accord.data._text import visible

__all__ = ["echo", "one_line", "visible"]


def one_line(name: object) -> str:
    """A name from the data (a group, a label, a rater) for a console line: control
    characters and line breaks spelled out, so it cannot start a line of its own.

    >>> one_line("ok\\nevery group accepted")
    'ok\\\\nevery group accepted'
    """
    return visible(str(name), keep="")

def echo(text: str, *, err: bool = False, nl: bool = True, keep: str = "\n") -> None:
    """``click.echo`` of :func:`visible` text."""
    click.echo(visible(text, keep=keep), err=err, nl=nl)
