"""The pieces every HTML section is made of: escaping, tables with a scroll cue, figures."""

from __future__ import annotations

import html
from collections.abc import Sequence
from importlib import resources

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
WIDE = 6  # tables with this many columns get a "scroll sideways" cue on a phone
PHONE = 358.0  # px a 390 px screen leaves for a table (1rem margins)
CHAR, PAD = 8.0, 14.0  # px per character at the phone's table type, and a cell's padding

def e(text: object) -> str:
    """Escape text from the data for HTML (quotes included)."""
    return html.escape(str(text), quote=True)


def _css() -> str:
    return resources.files("accord.report").joinpath("report.css").read_text(encoding="utf-8")


def _cell(text: str, *, num: bool = False, tag: str = "td", cls: str = "") -> str:
    classes = " ".join(c for c in ("num" if num else "", cls) if c)
    attr = f' class="{classes}"' if classes else ""
    return f"<{tag}{attr}>{e(text)}</{tag}>"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool],
           *, caption: str = "", total_last: bool = False, diagonal: bool = False,
           cls: str = "") -> str:
    """A table from text cells (escaped here); ``numeric`` aligns columns right."""
    cap = f"<caption>{e(caption)}</caption>" if caption else ""
    thead = "".join(_cell(h, num=n, tag="th") for h, n in zip(head, numeric))
    body = []
    for i, row in enumerate(rows):
        cells = [_cell(row[0], tag="th")] + [
            _cell(c, num=numeric[j + 1],
                  cls="diag" if diagonal and j == i and i < len(rows) - 1 else "")
            for j, c in enumerate(row[1:])]
        total = ' class="total"' if total_last and i == len(rows) - 1 else ""
        body.append(f"<tr{total}>{''.join(cells)}</tr>")
    attr = f' class="{cls}"' if cls else ""
    wide = len(head) >= WIDE or _min_width(head, rows, numeric) > PHONE
    return (f'{_cue(WIDE if wide else 0)}<div class="scroll"><table{attr}>{cap}<thead><tr>'
            f"{thead}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


def _cue(columns: int) -> str:
    """A line shown on narrow screens above a table too wide for them."""
    if columns < WIDE:
        return ""
    return '<p class="scroll-cue" aria-hidden="true">Wide table: scroll sideways for more →</p>'


def _min_width(head: Sequence[str], rows: Sequence[Sequence[str]],
               numeric: Sequence[bool]) -> float:
    """The narrowest the table can be on a phone, in px, estimated from its text: numbers
    do not wrap, words do (so a text column is as wide as its longest word); the first
    column keeps at least 6rem (it stays in view while scrolling)."""
    total = 0.0
    for j, title in enumerate(head):
        cells = [title, *(r[j] for r in rows if j < len(r))]
        if numeric[j]:
            chars = max(len(c) for c in cells)
        else:
            chars = max((len(w) for c in cells for w in c.split()), default=0)
        width = chars * CHAR + PAD
        total += max(width, 96.0) if j == 0 else width
    return total



def _figure(svg: str | None, caption: str) -> str:
    if not svg:
        return ""
    return f"<figure>{svg}<figcaption class=\"note\">{e(caption)}</figcaption></figure>"
