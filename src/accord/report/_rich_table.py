"""A titled terminal table of plain text cells, shared by the report's console sections."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def text_table(title: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> Any:
    """A rich ``Table`` titled ``title`` whose every cell is ``Text`` (never markup, so a
    label such as ``[bold]`` is shown as written)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(title), title_justify="left")
    for col in head:
        table.add_column(Text(col))
    for row in rows:
        table.add_row(*(Text(x) for x in row))
    return table
