"""The pieces every HTML section is made of: escaping, tables with a scroll cue, figures."""

from __future__ import annotations

import html
from collections.abc import Sequence
from importlib import resources

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
WIDE = 6  # tables with this many columns get a "scroll sideways" cue on a phone

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
    return (f'{_cue(len(head))}<div class="scroll"><table{attr}>{cap}<thead><tr>{thead}</tr>'
            f"</thead><tbody>{''.join(body)}</tbody></table></div>")


def _cue(columns: int) -> str:
    """A line shown on narrow screens above a table too wide for them."""
    if columns < WIDE:
        return ""
    return '<p class="scroll-cue" aria-hidden="true">Wide table: scroll sideways for more →</p>'



def _figure(svg: str | None, caption: str) -> str:
    if not svg:
        return ""
    return f"<figure>{svg}<figcaption class=\"note\">{e(caption)}</figcaption></figure>"
