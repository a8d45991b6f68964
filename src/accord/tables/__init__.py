"""Sufficient statistics: every coefficient is computed from one of these."""

from accord.tables.contingency import ContingencyTable
from accord.tables.rater_counts import RaterCounts

__all__ = ["ContingencyTable", "RaterCounts"]
