"""The table engine's (Polars') and the csv module's errors, in the data's words.

An engine error names the engine's options (``truncate_ragged_lines``,
``infer_schema_length``, ``schema_overrides``...) that a user of accord cannot
pass; :func:`engine_problem` and :func:`csv_problem` say instead what in the file
is wrong and what was expected. Only plain substring tests are used, so a
message holding a huge cell is translated in linear time.
"""

from __future__ import annotations

__all__ = ["csv_problem", "engine_problem"]

_RAGGED = ("a row has more cells than the header has columns; expected the same number of "
           "cells on every row (a cell holding the separator must be in double quotes)")
_QUOTE = ("a double quote opens a cell that is never closed (a lone quote); expected every "
          "quoted cell to end with a quote, and a quote inside a cell to be doubled")
_UNPAIRED = ("the double quotes do not pair up into quoted cells (a quote inside a cell that "
             "is not quoted, or a quoted cell left open across lines), so the rows cannot be "
             "told apart; expected quotes only around whole cells, with a quote inside a cell "
             "doubled")
_PARQUET = ("not a valid Parquet file (damaged, cut short, or another kind of file); expected "
            "a complete Parquet file")


def engine_problem(exc: BaseException) -> str:
    """What the file holds that the engine refused, and what was expected: one sentence,
    with its full stop."""
    return _problem(str(exc), exc) + "."


def _problem(text: str, exc: BaseException) -> str:
    if "found more fields than defined" in text:
        return _RAGGED
    if "is not properly escaped" in text or "unclosed quote" in text.lower():
        return _QUOTE
    if text.startswith("CSV malformed: expected") and " rows, actual " in text:
        return _UNPAIRED  # Polars' chunks disagree on where the rows end
    if text.startswith("parquet:") or "out of specification" in text or (
            "parquet" in text.lower() and "magic" in text.lower()):
        return _PARQUET
    if text.startswith("could not parse `") and "` as dtype `" in text:
        cell, rest = text[len("could not parse `"):].split("` as dtype `", 1)
        column = rest.split("at column '", 1)[1].split("'", 1)[0] if "at column '" in rest else ""
        shown = cell if len(cell) <= 40 else cell[:37] + "..."
        where = f" in column {column!r}" if column else ""
        return (f"the cell {shown!r}{where} cannot be read like the cells above it; expected "
                "one kind of value per column")
    first = (text.strip().splitlines() or [type(exc).__name__])[0]
    first = first if len(first) < 300 else first[:297] + "..."
    return f"the table could not be read ({first})"


def csv_problem(exc: BaseException) -> str:
    """The csv module's error (``csv.Error``) as a sentence about the file."""
    text = str(exc)
    if "field larger than field limit" in text:
        limit = text.rsplit("(", 1)[-1].rstrip(")") if "(" in text else "131072"
        return (f"a cell is longer than the {int(limit):,} characters a CSV cell may hold "
                "here (is a quote left open?)" if limit.isdigit() else
                "a cell is longer than a CSV cell may be (is a quote left open?)")
    if "NUL" in text:
        return "the file holds a NUL byte (binary data, or a UTF-16 file); expected text"
    if "new-line character seen in unquoted field" in text:
        return "a line break (a lone carriage return) stands inside a cell that is not quoted"
    return f"not valid CSV ({text})"
