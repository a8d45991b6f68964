"""Exceptions and warnings raised by accord.

Every error accord raises on purpose derives from :class:`AccordError`, so a
caller (or the command line) can catch one type and print one sentence::

    AccordError (ValueError)
     ├── InvalidParameterError      an argument is not one of the accepted values
     ├── DataError                  the data cannot be analysed as given
     │    ├── DuplicateRatingError  a rater gave one unit two different values
     │    ├── UnknownCategoryError  a value lies outside the declared categories
     │    ├── InsufficientDataError fewer than two raters, no unit rated twice, ...
     │    └── BudgetError           the work needs more memory than its budget (a
     │                              report leaves that part out and says why)
     ├── FormatError                a file is malformed or of an unknown layout
     ├── EngineError                an engine's package is missing, or its cluster
     │                              does not answer
     └── StudyError                 a study protocol file is invalid

    DegenerateDataWarning (UserWarning)
                                    the data are valid but a coefficient is undefined
                                    (0/0); the estimate is nan with a reason
    ConvergenceWarning (UserWarning)
                                    an iterative fit stopped at its iteration cap
                                    before its tolerance was met
    LayoutWarning (UserWarning)
                                    a table or array looks oriented or laid out other
                                    than accord expects (units x raters)
"""

from __future__ import annotations

__all__ = [
    "AccordError",
    "BudgetError",
    "ConvergenceWarning",
    "DataError",
    "DegenerateDataWarning",
    "DuplicateRatingError",
    "EngineError",
    "FormatError",
    "InsufficientDataError",
    "InvalidParameterError",
    "LayoutWarning",
    "StudyError",
    "UnknownCategoryError",
]


class AccordError(ValueError):
    """Base class of every error accord raises on purpose."""


class InvalidParameterError(AccordError):
    """An argument is not one of the values accepted for it."""


class DataError(AccordError):
    """The data cannot be analysed as given."""


class DuplicateRatingError(DataError):
    """A rater gave the same unit two different values."""


class UnknownCategoryError(DataError):
    """A value lies outside the declared categories."""


class InsufficientDataError(DataError):
    """Too little data to compute anything: one rater, no unit rated twice, ..."""


class BudgetError(DataError):
    """The work asked for needs more memory than its budget (e.g. a k x k table per
    annotator at thousands of categories); the message names what fits instead."""


class EngineError(AccordError):
    """An engine's package (or Spark's Java) is not installed, its scheduler or master does
    not answer, or its cluster lost the workers that ran a count."""


class FormatError(AccordError):
    """A file is malformed, or its layout is not one accord knows."""


class StudyError(AccordError):
    """A study protocol is invalid."""


class DegenerateDataWarning(UserWarning):
    """The data are valid but a coefficient is undefined on them (0/0)."""


class UndeclaredOrderWarning(UserWarning):
    """Weights or ordinal alpha used the sorted order of text labels, which nobody declared."""


class ConvergenceWarning(UserWarning):
    """An iterative fit (an EM consensus) stopped at ``max_iter`` before meeting ``tol``."""


class LayoutWarning(UserWarning):
    """A table or array looks laid out other than accord expects: one row per unit and one
    column per rater (units x raters). Far more columns than rows, or a shape that looks
    transposed (raters x units, as the ``krippendorff`` package takes it), is warned about."""
