"""The registry: the single source of truth for coefficient names.

The CLI's choices, the report's names and citations, and the invariance tests
all read :data:`REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

Family = Literal["two_raters", "many_raters", "krippendorff", "intraclass", "classification",
                 "spans"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class CoefficientInfo:
    """What the rest of accord needs to know about a coefficient.

    ``bounds`` is the coefficient's usual range. A result's own
    :attr:`~accord.AgreementResult.bounds` is the one to trust: chance-corrected
    coefficients computed from ``p_e`` record their floor ``-p_e / (1 - p_e)``,
    which for the many-rater kappas and AC1/AC2 with weights or units rated once
    can lie below -1.
    """

    name: str
    title: str
    function: Callable[..., Any]
    family: Family
    citation: str
    raters: Literal["two", "many"] = "two"
    chance_corrected: bool = True
    weighted: bool = False
    bounds: tuple[float, float] = (-1.0, 1.0)
    levels: tuple[str, ...] = ("nominal",)


REGISTRY: dict[str, CoefficientInfo] = {}


def register(
    name: str,
    *,
    title: str,
    family: Family,
    citation: str,
    raters: Literal["two", "many"] = "two",
    chance_corrected: bool = True,
    weighted: bool = False,
    bounds: tuple[float, float] = (-1.0, 1.0),
    levels: tuple[str, ...] = ("nominal",),
) -> Callable[[F], F]:
    """Record a coefficient function in :data:`REGISTRY` under ``name``."""

    def deco(func: F) -> F:
        if name in REGISTRY:
            raise RuntimeError(f"coefficient {name!r} registered twice")
        REGISTRY[name] = CoefficientInfo(
            name, title, func, family, citation, raters, chance_corrected, weighted, bounds, levels
        )
        return func

    return deco
