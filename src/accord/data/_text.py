"""Text from the data, made safe for where it is shown: a terminal or a spreadsheet cell.

Labels, rater names, unit ids and file names come from people and tools accord
does not control. Two places read them as commands:

- a **terminal** runs escape sequences: written as they are, a label could clear
  the screen and print a fake verdict (``ESC [2J``), set the clipboard (``ESC ]52``)
  or reorder the text (Unicode bidirectional overrides, the "Trojan Source"
  attack, CVE-2021-42574). :func:`visible` spells such characters out (``\\x1b``,
  ``\\u202e``); with ``keep=""`` a line feed too, so a name never starts a new line;
- a **spreadsheet** runs a cell that starts a formula (OWASP "CSV Injection";
  OWASP ASVS 5.0 requirement 1.2.10). :func:`neutralise_cell` prefixes a quote to
  a cell whose first character is a control character (NUL, tab, CR, ESC...) or
  which, after leading whitespace and control characters, starts with ``=``,
  ``+``, ``-``, ``@`` or their full-width forms (``＝`` ...). Plain numbers (``-1``,
  ``-2.5``, ``+3``, ``1e-3``) are kept, so they read back as numbers. Otherwise the
  cell is kept exact: a file holds the label as it was.

Every writer of the command line and of the library uses these two functions.

A label may also be any length (a pasted paragraph, a whole document by mistake):
:func:`short` is how every table, chart and sentence of the reports and the command line
shows one, cut to :data:`LIMIT` characters with an ellipsis (the data, the JSON and the
exported files keep it whole).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["ELLIPSIS", "LIMIT", "UNSAFE", "neutralise_cell", "short", "visible"]

#: C0 controls except line feed, DEL, C1 controls, bidirectional embeddings,
#: overrides and isolates, and the line/paragraph separators.
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
#: Characters that start a formula once leading blanks are skipped (with full-width forms).
_FORMULA_CHARS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\u2212")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


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
    if not UNSAFE.search(text):
        return text
    if not keep:
        return UNSAFE.sub(_spell, text)
    return UNSAFE.sub(lambda m: m.group() if m.group() in keep else _spell(m), text)


def neutralise_cell(text: str) -> str:
    """Prefix a quote to a cell a spreadsheet would read as a formula.

    A cell is neutralised when it starts with a control character, or when its
    first character after leading whitespace and control characters is ``=``,
    ``+``, ``-``, ``@`` or a full-width form of these; plain numbers are kept.

    Examples
    --------
    >>> neutralise_cell("=1+1"), neutralise_cell("-3"), neutralise_cell("spam")
    ("'=1+1", '-3', 'spam')
    >>> neutralise_cell(" \\uff1d1+1"), neutralise_cell(" @SUM(A1)"), neutralise_cell("+3")
    ("' \\uff1d1+1", "' @SUM(A1)", '+3')
    """
    if not text or _PLAIN_NUMBER.fullmatch(text):
        return text
    if unicodedata.category(text[0]) == "Cc":  # NUL, tab, CR, LF, ESC...
        return "'" + text
    i = 0
    while i < len(text) and _is_blank(text[i]):
        i += 1
    return "'" + text if text[i:i + 1] in _FORMULA_CHARS else text


def _is_blank(char: str) -> bool:
    """Whitespace, or a control or format character (NUL, ESC, zero-width space...)."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


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
