"""The textbook worksheet of a two-rater table: counts, totals, p_o, p_e, kappa."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accord.tables.contingency import ContingencyTable

MAX_SHOWN = 30


def _fmt_count(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.3f}"


def _line(label: object) -> str:
    """A label on one line of the worksheet: a line break in it is spelled out, a long
    label shortened (:func:`accord.data._text.short`)."""
    from accord.data._text import short

    return short(label).replace("\n", "\\n")


def worksheet_rows(table: ContingencyTable, names: tuple[str, str]) -> list[list[str]]:
    """Header and body rows (strings) of the worksheet, totals included."""
    counts = table.counts
    k = table.k
    header = [_line(f"{names[0]} \\ {names[1]}")] + [_line(c) for c in table.categories] + [
        "total"]
    rows = [header]
    rt, ct = table.row_totals, table.col_totals
    for i in range(k):
        rows.append(
            [_line(table.categories[i])] + [_fmt_count(x) for x in counts[i]] + [_fmt_count(rt[i])]
        )
    rows.append(["total"] + [_fmt_count(x) for x in ct] + [_fmt_count(table.n)])
    return rows


def summary_line(table: ContingencyTable) -> str:
    """``p_o = ...   p_e = ...   kappa = ...`` (kappa undefined when p_e = 1)."""
    po, pe = table.p_o, table.p_e
    if math.isnan(po):
        return "empty table: p_o, p_e and kappa are undefined"
    kappa = "undefined (p_e = 1)" if 1.0 - pe <= 1e-12 else f"{(po - pe) / (1.0 - pe):.4f}"
    return f"p_o = {po:.4f}   p_e = {pe:.4f}   kappa = {kappa}"


def worksheet_text(table: ContingencyTable, names: tuple[str, str]) -> str:
    """Plain-text worksheet (first column left-aligned, counts right-aligned)."""
    if table.k > MAX_SHOWN:
        return f"({table.k} categories: too many to print as a table)\n{summary_line(table)}"
    rows = worksheet_rows(table, names)
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    lines.append(summary_line(table))
    return "\n".join(lines)


def worksheet_rich(table: ContingencyTable, names: tuple[str, str]) -> Any:
    """A rich Table of the worksheet, with p_o, p_e and kappa as its caption."""
    from rich.table import Table
    from rich.text import Text

    if table.k > MAX_SHOWN:
        return Text(worksheet_text(table, names))
    rows = worksheet_rows(table, names)
    out = Table(caption=summary_line(table), show_lines=False)
    out.add_column(Text(rows[0][0]), style="bold")
    for head in rows[0][1:]:
        out.add_column(Text(head), justify="right")
    for r in rows[1:]:
        out.add_row(*[Text(c) for c in r], style="bold" if r[0] == "total" else None)
    return out
