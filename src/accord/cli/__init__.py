"""The ``accord`` command line: a thin adapter over the public API.

Each command parses its options, calls the library and renders; library
errors become one line on stderr with exit status 1 (bad data), and usage
errors exit with status 2. A command's module is imported only when that command
runs (see :mod:`accord.cli._commands`).
"""

from accord.cli._app import main

__all__ = ["main"]
