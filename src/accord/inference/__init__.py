"""Estimates and their uncertainty: the result object, resampling, intervals, comparison.

:class:`~accord.inference.results.AgreementResult` and its intervals (asymptotic,
jackknife, bootstrap), the resampling of sufficient statistics, the paired and
independent comparison of results and the human ceiling. It knows no coefficient:
it imports only :mod:`accord.data` and :mod:`accord.errors`, and the tables resample
themselves through it.
"""

from accord.inference.bootstrap import Bootstrap
from accord.inference.resampling import Resampling

__all__ = ["Bootstrap", "Resampling"]
