"""The registry: the single source of truth for coefficient names.

The CLI's choices, the report's names and citations, and the invariance tests
all read :data:`REGISTRY`. It names every figure from the start, the families' too
(``span_f1``), and imports a figure's module the first time its entry is read, so that
``cohen_kappa`` loads neither ICC nor the span family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import import_module
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


#: Where each figure registers itself, as the module's name (a family above this layer
#: too: nothing is imported until an entry is read). ``tests/test_registry_lazy.py``
#: checks this table against what the modules register.
WHERE: dict[str, str] = {
    name: f"accord.{module}"
    for module, names in {
        "coefficients.bangdiwala": "bangdiwala_b",
        "coefficients.classification": "accuracy balanced_accuracy precision recall f1 mcc",
        "coefficients.intraclass": "icc",
        "coefficients.iota": "janson_olsson_iota",
        "coefficients.krippendorff": "krippendorff_alpha",
        "coefficients.many_raters": "fleiss_kappa conger_kappa light_kappa",
        "coefficients.paradoxes": "pabak kappa_max",
        "coefficients.scores": "kendall_w mean_pearson mean_spearman finn robinson_a",
        "coefficients.two_raters": (
            "cohen_kappa scott_pi brennan_prediger gwet_ac1 percent_agreement"),
        "spans.span_f1": "span_f1",
    }.items()
    for name in names.split()
}


class Registry(Mapping[str, CoefficientInfo]):
    """Name to :class:`CoefficientInfo`, for every figure of :data:`WHERE` and any other
    that :func:`register` records; reading an entry imports the module that defines it."""

    def __init__(self, where: Mapping[str, str]) -> None:
        self._where = dict(where)
        self._entries: dict[str, CoefficientInfo] = {}

    def __getitem__(self, name: str) -> CoefficientInfo:
        if name not in self._entries and name in self._where:
            import_module(self._where[name])
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries or name in self._where

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._where), **self._entries})

    def __len__(self) -> int:
        return len(self._where.keys() | self._entries.keys())

    def __repr__(self) -> str:
        return f"Registry({sorted(self)!r})"

    def add(self, info: CoefficientInfo) -> None:
        """Record ``info`` (what :func:`register` does); a name is recorded once."""
        if info.name in self._entries:
            raise RuntimeError(f"coefficient {info.name!r} registered twice")
        self._entries[info.name] = info


REGISTRY = Registry(WHERE)


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
        REGISTRY.add(CoefficientInfo(
            name, title, func, family, citation, raters, chance_corrected, weighted, bounds, levels
        ))
        return func

    return deco
