"""Names shared by the data model and the command line, importable without numpy."""

from __future__ import annotations

LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")
RATER_KINDS: tuple[str, ...] = ("human", "model", "llm", "gold")

#: The seed of every resampling nobody seeded (bootstraps, splits, permutations,
#: simulations), in the library and on the command line: the same data and options give
#: the same figures on every run.
DEFAULT_SEED = 0
#: How a caveat about a guessed table layout (or its columns) begins.
GUESSED_LAYOUT = "guessed layout"
#: How a caveat about a guessed level of measurement begins.
GUESSED_LEVEL = "guessed level"

__all__ = ["DEFAULT_SEED", "GUESSED_LAYOUT", "GUESSED_LEVEL", "LEVELS", "RATER_KINDS"]
