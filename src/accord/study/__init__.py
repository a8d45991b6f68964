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
    # The registry names the families' figures without importing them (span_f1 loads the
    # span family when its entry is read), so a protocol on a core coefficient does not.
    if name == "REGISTRY":
        from accord.coefficients import REGISTRY

        globals()["REGISTRY"] = REGISTRY
        return REGISTRY
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def registered(name: str) -> Any:
    """The registry entry of ``name`` (KeyError if none)."""
    from accord.coefficients import REGISTRY

    return REGISTRY[name]


def is_registered(name: object) -> bool:
    """Whether ``name`` is a registered figure (nothing is imported to answer)."""
    from accord.coefficients import REGISTRY

    return isinstance(name, str) and name in REGISTRY
