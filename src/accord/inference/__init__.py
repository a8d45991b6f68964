"""Confidence intervals: asymptotic, jackknife and bootstrap (see :mod:`accord.results`)."""

from accord.inference.bootstrap import Bootstrap
from accord.inference.resampling import Resampling

__all__ = ["Bootstrap", "Resampling"]
