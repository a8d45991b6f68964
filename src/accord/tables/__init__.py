"""Sufficient statistics: every coefficient is computed from one of these."""

from accord.tables.coincidence import CoincidenceMatrix
from accord.tables.contingency import ContingencyTable
from accord.tables.rater_counts import RaterCounts
from accord.tables.rating_matrix import RatingMatrix

__all__ = ["CoincidenceMatrix", "ContingencyTable", "RaterCounts", "RatingMatrix"]
