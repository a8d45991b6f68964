"""The rich console of the command line, which spells out control characters.

Kept apart from :mod:`accord.cli._terminal` so that commands that print plain lines
start without importing rich.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, Group
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from accord.data._text import UNSAFE as _UNSAFE
from accord.data._text import visible

__all__ = ["SafeConsole", "fit", "stacked"]


class SafeConsole(Console):
    """A rich console that spells out control characters in every text it renders.

    Rich's own styling and cursor movement are control segments and pass
    unchanged; only the text (labels, names, notes) is made visible.
    """

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(_safe_segments(buffer))

    def render(self, renderable: Any, options: ConsoleOptions | None = None) -> Any:
        """Render; a table, at any depth, is laid out so that no figure is cut (see
        :func:`fit`)."""
        width = (options or self.options).max_width
        return super().render(fit(renderable, self, width), options)


def fit(table: Any, console: Console, width: int | None = None) -> Any:
    """``table`` laid out so that no word and no figure is cut: each column at least as
    wide as its longest word (its longest cell when it does not wrap), the room left
    given to the columns that want it; when even that is wider than the console, the
    table stacked, one line per cell (``header: value``). Anything but a table is
    returned as it is."""
    if not isinstance(table, Table):
        return table
    _one_line_cells(table)
    low, high = _widths(table, console)
    _, right, _, left = table.padding
    rules = (len(table.columns) - 1 + (2 if table.show_edge else 0)) if table.box else 0
    room = (console.width if width is None else width) - rules - (left + right) * len(table.columns)
    if sum(low) > room:
        return stacked(table)
    if sum(high) > room:  # rich would shrink columns below their longest word: set them
        widths = list(low)
        spare = room - sum(widths)
        for i in sorted(range(len(widths)), key=lambda i: high[i] - low[i]):
            grow = min(high[i] - low[i], spare // max(1, sum(1 for j in range(len(widths))
                                                              if high[j] > widths[j])))
            widths[i] += grow
            spare -= grow
        for column, width in zip(table.columns, widths):
            column.width = width
            column.overflow = "fold"
    return table


def _one_line_cells(table: Table) -> None:
    """Spell out line breaks and control characters in the table's cells before it is
    measured: a label, a unit id or a group name holding a newline would otherwise draw
    a row of its own (a fake verdict), and a spelled-out character would not fit its
    column."""
    for column in table.columns:
        cells = column._cells
        for i, cell in enumerate(cells):
            if isinstance(cell, str) and ("\n" in cell or _UNSAFE.search(cell)):
                cells[i] = visible(cell, keep="")
            elif isinstance(cell, Text) and ("\n" in cell.plain or _UNSAFE.search(cell.plain)):
                cells[i] = Text(visible(cell.plain, keep=""), style=cell.style)


def _widths(table: Table, console: Console) -> tuple[list[int], list[int]]:
    """Each column's narrowest (longest word; longest cell when it does not wrap) and
    widest (longest cell) content width."""
    options = console.options
    low, high = [], []
    for column in table.columns:
        cells = [Measurement.get(console, options, c) for c in (column.header, *column.cells)]
        widest = max(m.maximum for m in cells)
        low.append(widest if column.no_wrap else max(m.minimum for m in cells))
        high.append(widest)
    return low, high


def stacked(table: Table) -> Group:
    """The table as lines: its title, then per row the first cell, then each other
    ``header: value`` indented."""
    lines: list[Text] = [Text(_plain(table.title))] if table.title else []
    heads = [_plain(c.header) for c in table.columns]
    cells = [list(c.cells) for c in table.columns]
    for i in range(table.row_count):
        row = [_plain(col[i]) if i < len(col) else "" for col in cells]
        lines.append(Text(f"{heads[0]}: {row[0]}" if heads[0] else row[0]))
        lines += [Text(f"  {h}: {v}" if h else f"  {v}")
                  for h, v in zip(heads[1:], row[1:]) if v]
    return Group(*lines)


def _plain(x: Any) -> str:
    return x.plain if isinstance(x, Text) else str(x)


def _safe_segments(buffer: Iterable[Segment]) -> Iterable[Segment]:
    for segment in buffer:
        text, style, control = segment
        if control or not _UNSAFE.search(text):
            yield segment
        else:
            yield Segment(visible(text), style, control)
