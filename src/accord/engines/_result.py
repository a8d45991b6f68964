"""What an engine function returns: the statistic and the audit of how it was counted."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from accord.data.annotations import Audit

S = TypeVar("S")

__all__ = ["EngineResult"]


@dataclass(frozen=True)
class EngineResult(Generic[S]):
    """A sufficient statistic counted by a dataframe engine, with its audit.

    The statistic's own classes (:class:`~accord.ContingencyTable`,
    :class:`~accord.RaterCounts`) have no room for an audit, so the two travel
    together; the result unpacks as ``statistic, audit = ...``.

    Attributes
    ----------
    statistic : ContingencyTable or RaterCounts
        The counts, ready for any coefficient that accepts them.
    audit : Audit
        Rows read, used and dropped by reason. For every engine function
        ``rows_read == ratings_used + sum(dropped.values())``.
    """

    statistic: S
    audit: Audit

    def __iter__(self) -> Iterator[Any]:
        yield self.statistic
        yield self.audit
