"""Option types whose values come from modules that are slow to import.

The coefficient registry needs every coefficient module (and scipy); the weight
and scale names need numpy. The command line registers its commands without
them, so that ``accord --help`` and ``accord --version`` start at once; the
names are loaded when an option is parsed or its help is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

__all__ = ["LazyChoice", "ListedChoices", "coefficient_names", "coefficient_spec",
           "core_coefficient", "scale_names", "span_names", "weight_names"]


class LazyChoice(click.Choice):  # type: ignore[type-arg]
    """A :class:`click.Choice` whose choices are computed on first use.

    ``accept``, if given, vouches for a value without loading the list (a name the
    core registry holds, say): the list is loaded only for another value, to check it
    or to name the choices in the error.
    """

    def __init__(self, load: Callable[[], Sequence[str]], case_sensitive: bool = True,
                 accept: Callable[[str], bool] | None = None) -> None:
        self._load = load
        self._loaded: tuple[str, ...] | None = None
        self.accept = accept
        super().__init__((), case_sensitive=case_sensitive)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if self.accept is not None and isinstance(value, str) and self.accept(value):
            return value
        return super().convert(value, param, ctx)

    @property
    def choices(self) -> tuple[str, ...]:
        if self._loaded is None:
            self._loaded = tuple(self._load())
        return self._loaded

    @choices.setter
    def choices(self, value: Any) -> None:
        """Set by ``click.Choice.__init__``; the loader decides."""


class ListedChoices(click.Option):
    """An option whose help ends with the list of its (lazily loaded) choices."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None or not isinstance(self.type, click.Choice):
            return record
        return record[0], f"{record[1]} {', '.join(self.type.choices)}."


def coefficient_names() -> list[str]:
    """The registry's coefficient names, sorted."""
    from accord.study import REGISTRY

    return sorted(REGISTRY)


def coefficient_spec(name: str) -> Any:
    """The registry entry of one coefficient (a span figure's imports the span family)."""
    from accord.coefficients import REGISTRY

    return REGISTRY[name]


def core_coefficient(name: str) -> bool:
    """Whether ``name`` is a coefficient of :mod:`accord.coefficients` (none of them of
    the span family), answered without importing the span family."""
    from accord.coefficients._registry import REGISTRY, WHERE

    if name in WHERE:
        return WHERE[name].startswith("accord.coefficients.")
    return name in REGISTRY and REGISTRY[name].family != "spans"


def span_names() -> list[str]:
    """The span coefficients (read from --start/--end/--label columns), sorted."""
    from accord.study import REGISTRY

    return sorted(n for n, spec in REGISTRY.items() if spec.family == "spans")


def weight_names() -> tuple[str, ...]:
    """The names of the agreement weights."""
    from accord.data.weights import WEIGHT_NAMES

    return WEIGHT_NAMES


def scale_names() -> list[str]:
    """The interpretation scales, sorted."""
    from accord.interpret._scales import SCALES

    return sorted(SCALES)
