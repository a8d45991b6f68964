"""Sufficient statistics: every coefficient is computed from one of these.

Each is imported from its module on first use, so that a two-rater table does not load
the rating matrix; the imports under ``TYPE_CHECKING`` name them for type checkers.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accord.tables.coincidence import CoincidenceMatrix
    from accord.tables.contingency import ContingencyTable
    from accord.tables.rater_counts import RaterCounts
    from accord.tables.rating_matrix import RatingMatrix

__all__ = ["CoincidenceMatrix", "ContingencyTable", "RaterCounts", "RatingMatrix"]

_WHERE = {
    "CoincidenceMatrix": "accord.tables.coincidence",
    "ContingencyTable": "accord.tables.contingency",
    "RaterCounts": "accord.tables.rater_counts",
    "RatingMatrix": "accord.tables.rating_matrix",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        from importlib import import_module

        value = getattr(import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
