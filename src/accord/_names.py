"""Names shared by the data model and the command line, importable without numpy."""

from __future__ import annotations

LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")
RATER_KINDS: tuple[str, ...] = ("human", "model", "llm", "gold")

__all__ = ["LEVELS", "RATER_KINDS"]
