"""Where the command line may write: never onto a file it reads, never onto a store.

Every option that names a file to write (``-o``, ``--report``) goes through
:func:`writable_output` before anything is read, so a mistyped name fails at
once (bad usage, exit 2) instead of replacing the data or a history store with
a page. A history store is recognised by its content (the SQLite header), not
by its name, so ``-o runs.html`` onto a store renamed ``runs.html`` is refused
too.
"""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["is_store", "writable_output"]

_SQLITE_HEADER = b"SQLite format 3\x00"


def is_store(path: str | Path) -> bool:
    """True when ``path`` is an existing SQLite database (a history store, or any other)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        return False


def writable_output(output: str | Path | None, *inputs: str | Path | None,
                    option: str = "-o") -> None:
    """Refuse (``click.UsageError``) an output file that is one of ``inputs`` (DATA, given
    as one path or several, a study file, a store) or an existing SQLite database.

    ``None`` and ``"-"`` (standard output) pass.
    """
    from accord.data._files import same_file

    if output is None or str(output) == "-":
        return
    paths: list[str | Path] = []
    for item in inputs:
        if item is not None:
            paths.extend(getattr(item, "paths", (item,)))
    if same_file(output, paths):
        raise click.UsageError(f"{option} {output} is a file being read: write to another file.")
    if is_store(output):
        raise click.UsageError(f"{option} {output} is a database (an accord history store?): "
                               "write to another file.")
