"""One message format for every bad argument (after scikit-learn's).

``The 'weights' parameter of cohen_kappa must be one of {...}. Got 'quadratc' instead.``
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from accord.data._names import RATER_KINDS
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError

T = TypeVar("T")


def choice(value: T, allowed: Iterable[T], *, param: str, func: str) -> T:
    """Return ``value`` if it is one of ``allowed``, else raise one clear sentence."""
    options = list(allowed)
    if value not in options:
        shown = ", ".join(repr(o) for o in options)
        raise InvalidParameterError(
            f"The '{param}' parameter of {func} must be one of {{{shown}}}. Got {value!r} instead."
        )
    return value


def fail(param: str, func: str, expected: str, got: Any) -> InvalidParameterError:
    """Build the standard error for a parameter that is not what was expected."""
    return InvalidParameterError(
        f"The '{param}' parameter of {func} must be {expected}. Got {got!r} instead."
    )


def confidence_level(value: Any, *, func: str) -> float:
    """Validate a confidence level in the open interval (0, 1)."""
    try:
        if isinstance(value, (str, bytes, bool)):
            raise TypeError
        level = float(value)
    except (TypeError, ValueError):
        raise fail("confidence_level", func, "a number in (0, 1)", value) from None
    if not 0.0 < level < 1.0 or math.isnan(level):
        raise fail("confidence_level", func, "a number in (0, 1)", value)
    return level


def names(value: Any, *, param: str, func: str) -> list[Any]:
    """A list from a sequence of names; a bare string is refused (it is not split)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise fail(param, func, f"a list (e.g. [{value!r}])", value)
    return list(value)


def positive_int(value: Any, *, param: str, func: str) -> int:
    """Validate a strictly positive integer."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise fail(param, func, "a positive integer", value)
    return value


def warn_undefined(coefficient: str, reason: str) -> None:
    """Emit the one warning accord gives when a coefficient is undefined.

    The warning points at the caller's line outside accord, however deep inside
    the package it was raised.
    """
    warnings.warn(
        f"{coefficient} is undefined: {reason}", DegenerateDataWarning, stacklevel=user_level()
    )


def user_level() -> int:
    """The ``stacklevel`` of a warning raised by this function's caller that points at the
    first line outside accord."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # accord/
    frame = sys._getframe(1)  # the function that warns: stacklevel 1 of warnings.warn
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def check_kinds(kinds: Any, raters: Sequence[Any] | None, *, func: str) -> None:
    """``kinds={rater: kind}``: a mapping to known kinds, naming raters that exist."""
    if kinds is None:
        return
    if not isinstance(kinds, Mapping):
        raise fail("kinds", func, 'a mapping of rater to kind, e.g. {"gpt4": "llm"}', kinds)
    odd = {k: x for k, x in kinds.items() if x not in RATER_KINDS}
    if odd:
        raise fail("kinds", func, f"a mapping to kinds among {list(RATER_KINDS)!r}", odd)
    if raters is not None:
        names = {str(r) for r in raters}
        unknown = [k for k in kinds if str(k) not in names]
        if unknown:
            raise DataError(
                f"{func} was given kinds for {unknown!r}, which are not among the raters "
                f"{list(raters)!r}."
            )


def shapes_only(meta: Mapping[str, Any], source: str) -> str | None:
    """Why data holding image shapes only (``meta["boxes"]``, ``"polygons"`` or
    ``"keypoints"``, as :func:`accord.read` gives them) have nothing to compare as labels,
    naming the function and the command that compare them; None for other data."""
    for shape, noun in (("boxes", "box"), ("polygons", "polygon"), ("keypoints", "keypoint")):
        if meta.get(shape) is not None:
            return (f"{source}: the data hold {shape} only, no label per unit and rater; "
                    f"compare {shape} with accord.{noun}_agreement (accord CLI: accord "
                    f"{shape}).")
    return None
