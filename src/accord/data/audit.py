"""What a conversion read, used and dropped, and why: :class:`Audit`, and the names of
the choices every reader and builder shares (levels, rater kinds, duplicates).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from accord.data._names import GUESSED_LAYOUT, GUESSED_LEVEL

Level = Literal["nominal", "ordinal", "interval", "ratio"]
RaterKind = Literal["human", "model", "llm", "gold"]
Duplicates = Literal["error", "last"]


def reason_counts(counts: Mapping[str, int]) -> list[dict[str, Any]]:
    """``{"missing value": 4}`` as ``[{"reason": "missing value", "count": 4}]``: a
    reason is a sentence (it may name a column), so in JSON it is a value, never a key."""
    return [{"reason": str(why), "count": int(n)} for why, n in counts.items()]


@dataclass(frozen=True)
class Audit:
    """What a conversion read, used and dropped, and why.

    Attributes
    ----------
    source : str
        Where the data came from (a constructor name or a file path).
    rows_read : int
        Records read (rows of a long table, cells of a wide one, answers in an export).
    ratings_used : int
        Ratings kept in the annotations.
    dropped : mapping of str to int
        Records not used, by reason (``"missing value"``, ``"skipped"``, ...).
    notes : tuple of str
        Other things worth knowing (duplicates resolved, offsets converted, ...).
    parts : tuple of Audit
        Per-file audits when several files were read.
    caveats : tuple of str
        What accord had to guess (the layout of a table, its columns, the level
        of measurement) or dropped by a choice the user made (``duplicates="last"``),
        one sentence each, naming the option that makes it explicit. Every output
        states them on its first lines.
    """

    source: str
    rows_read: int
    ratings_used: int
    dropped: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    parts: tuple[Audit, ...] = ()
    caveats: tuple[str, ...] = ()

    @property
    def guessed_layout(self) -> bool:
        """Whether the layout or the columns of a table were guessed rather than named."""
        return any(c.startswith(GUESSED_LAYOUT) for c in self.caveats)

    @property
    def guessed_level(self) -> bool:
        """Whether many numeric values were read as nominal categories without a level."""
        return any(c.startswith(GUESSED_LEVEL) for c in self.caveats)

    def with_caveats(self, *caveats: str) -> Audit:
        """A copy with ``caveats`` added (each once, in order)."""
        return replace(self, caveats=tuple(dict.fromkeys((*self.caveats, *caveats))))

    def lines(self) -> list[str]:
        """Human-readable lines, one per fact; the caveats come first."""
        out = [f"caveat: {c}" for c in self.caveats]
        out += [f"{self.source}: {self.rows_read} read, {self.ratings_used} used"]
        out += [f"  dropped {n}: {why}" for why, n in self.dropped.items() if n]
        out += [f"  note: {note}" for note in self.notes]
        for part in self.parts:
            out += ["  " + line for line in part.lines()]
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; ``dropped`` is a list of ``{"reason", "count"}``."""
        return {
            "source": self.source,
            "rows_read": self.rows_read,
            "ratings_used": self.ratings_used,
            "dropped": reason_counts(self.dropped),
            "notes": list(self.notes),
            "parts": [p.to_dict() for p in self.parts],
            "caveats": list(self.caveats),
        }
