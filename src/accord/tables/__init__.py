"""Sufficient statistics: every coefficient is computed from one of these."""

from accord.tables.contingency import ContingencyTable

__all__ = ["ContingencyTable"]
