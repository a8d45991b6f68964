"""A declared study: the protocol and its TOML, the acceptance decision, sample size.

``protocol`` holds :class:`Study` and the decision; ``planning`` and ``power`` size a
study before the data come in. Imports the families and the layers below; never the
report or the command line.
"""

from __future__ import annotations

from typing import Any

#: Every registered figure, the families' included: what a study, the report and the
#: command line may name.
__all__ = ["REGISTRY", "is_registered", "registered"]


def __getattr__(name: str) -> Any:
    # REGISTRY is the core registry once the span family has registered span_f1 in it;
    # loaded on first use, so that a protocol or a rule does not import the span family
    # (``accord check`` on a coefficient of the core)
    if name == "REGISTRY":
        from accord.coefficients import REGISTRY
        from accord.spans import span_f1  # noqa: F401  (registers span_f1 in REGISTRY)

        globals()["REGISTRY"] = REGISTRY
        return REGISTRY
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def registered(name: str) -> Any:
    """The registry entry of ``name`` (KeyError if none): the core registry's when it
    holds the name, so that only a family's figure loads the families."""
    from accord.coefficients import REGISTRY as core

    return core[name] if name in core else __getattr__("REGISTRY")[name]


def is_registered(name: object) -> bool:
    """Whether ``name`` is a registered figure (families loaded only on a miss)."""
    from accord.coefficients import REGISTRY as core

    if not isinstance(name, str):
        return False
    return name in core or name in __getattr__("REGISTRY")
