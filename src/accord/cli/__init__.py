"""The ``accord`` command line: a thin adapter over the public API.

Each command parses its options, calls the library and renders; library
errors become one line on stderr with exit status 1 (bad data), and usage
errors exit with status 2.
"""

from accord.cli import (  # noqa: F401  (commands register on import)
    annotators,
    check,
    compare,
    compute,
    evaluate,
    history,
    inspect,
    judge,
    judge_lab,
    multilabel,
    plan,
    report,
    spans,
    table,
)
from accord.cli._app import main

__all__ = ["main"]
