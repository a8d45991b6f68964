"""A declared study: the protocol and its TOML, the acceptance decision, sample size.

``protocol`` holds :class:`Study` and the decision; ``planning`` and ``power`` size a
study before the data come in. Imports the families and the layers below; never the
report or the command line.
"""

from accord.coefficients import REGISTRY
from accord.spans import span_f1 as _span_f1  # noqa: F401  (registers span_f1 in REGISTRY)

#: Every registered figure, the families' included: what a study, the report and the
#: command line may name.
__all__ = ["REGISTRY"]
