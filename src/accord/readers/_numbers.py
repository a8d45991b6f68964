"""Text labels read as numbers only when nothing is lost on the way.

A table column whose every label is a number is read as numbers, so that
``1`` and ``1.0`` are one category and interval coefficients can measure
distances. A 64-bit float holds about 15 to 17 significant digits: the labels
``1234567890123456789`` and ``1234567890123456788`` are one float, and
``1e999`` and ``2e999`` are both infinite. Labels are therefore read as
numbers only when each is *exactly representable*: the float, printed back
with the fewest digits that identify it (``repr``), is the number written.
Otherwise they are compared as written (text), and the audit says why. An
infinity or NaN spelled among numbers (``inf``, ``-Infinity``, ``1e999``) is
refused, never a category; ``nan``, ``NA`` and the other markers are missing.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np
import polars as pl

from accord.errors import DataError

#: Written forms of an infinity or NaN (lower case, trimmed).
NON_FINITE = ("inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "nan", "+nan", "-nan")

__all__ = ["NON_FINITE", "check_finite", "float_labels", "refuse_non_finite_words"]

# a decimal string with at most 15 significant digits always survives float64 (DBL_DIG)
_SAFE_DIGITS = 15


def float_labels(distinct: pl.Series, s: pl.Series, level: str | None,
                 source: str) -> tuple[np.ndarray[Any, Any] | None, str]:
    """``s`` as floats with an audit note, or ``(None, note)`` to keep the labels as text.

    ``distinct`` are the distinct labels of ``s``, every one a decimal number.
    """
    values = distinct.cast(pl.Float64)
    if bool(values.is_infinite().any()):
        bad = _short(distinct.filter(values.is_infinite()).head(1).to_list()[0])
        raise DataError(f"{source}: value {bad} is beyond the range of a 64-bit float "
                        "(about 1.8e308); expected finite numbers.")
    inexact = _inexact(distinct)
    if not inexact:
        return s.cast(pl.Float64).to_numpy(), "labels read as numbers"
    shown = ", ".join(_short(t) for t in inexact[:3])
    if level in ("interval", "ratio"):
        return s.cast(pl.Float64).to_numpy(), (
            f"labels read as numbers; {shown} have more digits than a 64-bit float holds "
            "and were rounded to the nearest float")
    return None, (f"labels kept as written (text): {shown} have more digits than a 64-bit "
                  "float holds, so as numbers different labels could become one")


def _short(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut in the middle when long (a 5,000-digit number)."""
    if len(text) <= limit:
        return repr(text)
    return repr(f"{text[:limit // 2]}...{text[-8:]}") + f" ({len(text)} characters)"


def _inexact(distinct: pl.Series) -> list[str]:
    """The labels that do not survive a trip through float64."""
    digits = (distinct.str.replace(r"[eE].*$", "").str.replace_all(r"[^0-9]", "")
              .str.strip_chars_start("0").str.strip_chars_end("0").str.len_chars())
    candidates = distinct.filter(digits > _SAFE_DIGITS).to_list()
    return [t for t in candidates if not _exact(t)]


def _exact(text: str) -> bool:
    try:
        return Decimal(repr(float(text))) == Decimal(text)
    except (InvalidOperation, ValueError, OverflowError):
        return False


def refuse_non_finite_words(distinct: pl.Series, is_number: pl.Series, source: str) -> None:
    """Refuse ``inf``/``Infinity``/``nan`` spelled among labels that are otherwise numbers."""
    words = distinct.str.strip_chars().str.to_lowercase().is_in(list(NON_FINITE))
    if not bool(words.any()) or not bool((is_number | words).all()) or not bool(is_number.any()):
        return
    bad = _short(distinct.filter(words).head(1).to_list()[0])
    raise DataError(f"{source}: value {bad} is not a finite number, among labels that are "
                    "numbers; expected finite numbers (declare it a missing marker with "
                    "missing=[...] if it means no rating).")


def check_finite(values: np.ndarray[Any, Any], source: str) -> None:
    """Refuse an infinite value in a numeric column (NaN is missing, handled before)."""
    if values.dtype.kind == "f" and values.size and not bool(np.isfinite(values).all()):
        bad = float(values[~np.isfinite(values)][0])
        if not math.isnan(bad):
            raise DataError(f"{source}: the labels hold {bad!r}, not a finite number; "
                            "expected finite numbers.")
