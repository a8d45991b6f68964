"""Files split into groups for the command line's ``--by``: a column, or each file.

``--by COLUMN`` splits a table (CSV, TSV, Parquet, JSON Lines) on the values of
one column and reads each group exactly as the whole file would be read (same
reader, same options), with the group column left out so that it is never taken
for a rater. ``--by file`` reads each file (a folder: each of its files) on its
own instead of pooling them.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from accord.data.annotations import Annotations
from accord.errors import AccordError, DataError

from .groups import MISSING_GROUP

__all__ = ["FILE", "Split", "pooled_note", "split_files"]

#: ``--by file``: one group per file.
FILE = "file"

Loader = Callable[[str], Annotations]
Split = tuple[list[tuple[str, Annotations]], Annotations, list[str]]

_TABLES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".txt": "csv", ".parquet": "parquet",
           ".jsonl": "jsonl", ".ndjson": "jsonl"}


def pooled_note(ann: Annotations) -> str | None:
    """The sentence that says several files were pooled into one analysis, if they were."""
    n = len(ann.audit.parts)
    if n < 2:
        return None
    return (f"pooled: {n} files analysed as one data set (--by file analyses each on its "
            "own)")


def split_files(paths: Sequence[str], by: str, loader: Loader, *, once: bool = False
                ) -> Split:
    """The groups of ``paths`` by ``by`` (a column name, or ``"file"``), and the pooled data.

    Returns ``(groups, pooled, notes)``: each group's name and annotations in the
    order they appear, all of the data read as one, and one sentence per decision
    taken (rows without a group value). With ``once``, a table split on a column is
    read once and its groups cut out of the pooled reading (:mod:`._split_pooled`;
    for loaders whose reading of a group is the pooled reading restricted to it).
    """
    if by == FILE:
        files = _files(paths)
        if len(files) < 2:
            raise DataError(f"--by file needs several files (or a folder of them); got "
                            f"{len(files)}: {', '.join(map(str, paths))}.")
        groups = [(Path(f).name, loader(f)) for f in files]
        return groups, loader(files if len(files) > 1 else files[0]), []  # type: ignore[arg-type]
    if len(paths) != 1 or os.path.isdir(paths[0]):
        raise DataError(f"--by {by} splits one table on its column {by!r}; give one file "
                        "(several files or a folder: --by file).")
    return _split_table(paths[0], by, loader, once)


def _files(paths: Sequence[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(str(f) for f in Path(p).iterdir()
                          if f.is_file() and not f.name.startswith("."))
        else:
            out.append(p)
    return out


def _split_table(path: str, column: str, loader: Loader, once: bool) -> Split:
    import polars as pl

    kind = _TABLES.get(Path(path).suffix.lower())
    if kind is None:
        raise DataError(f"{path}: --by {column} splits a table (CSV, TSV, Parquet or JSON "
                        "Lines) on one of its columns; for a tool export use --by file.")
    frame = _read(path, kind)
    if column not in frame.columns:
        raise DataError(f"{path}: group column {column!r} not found; the columns are "
                        f"{frame.columns!r}.")
    keys = frame[column].cast(pl.String)
    missing = keys.is_null() | (keys.str.strip_chars() == "")
    notes = []
    if int(missing.sum()):
        notes.append(f"{int(missing.sum())} row(s) have no value in {column!r}; they are "
                     f"analysed together as the group {MISSING_GROUP!r}")
    # one partition of the rows (in order of first appearance), not one scan per group
    rest = frame.drop(column).with_columns(
        pl.when(missing).then(pl.lit(MISSING_GROUP)).otherwise(keys).alias(_KEY))
    with tempfile.TemporaryDirectory(prefix="accord-by-") as tmp:
        if once:
            from ._split_pooled import cut

            pooled = _load(rest.drop(_KEY), kind, tmp, 0, path, loader)
            order = list(dict.fromkeys(rest[_KEY].to_list()))
            cuts = cut(pooled, rest.drop(_KEY), rest[_KEY], order, path, column)
            if cuts is not None:
                return cuts, pooled, notes
        parts = rest.partition_by(_KEY, maintain_order=True, include_key=False, as_dict=True)
        groups = []
        for j, ((name,), part) in enumerate(parts.items()):
            where = f"{path} ({column} = {name})"
            groups.append((name, _load(part, kind, tmp, j, where, loader)))
        if not once:
            pooled = _load(rest.drop(_KEY), kind, tmp, len(parts), path, loader)
    return groups, pooled, notes


#: The group key column while a table is split (a name no table has).
_KEY = "\x00accord-group"


def _read(path: str, kind: str) -> Any:
    import polars as pl

    if kind == "parquet":
        return pl.read_parquet(path, glob=False)  # [, * and ? are part of the file name
    if kind == "jsonl":
        return pl.read_ndjson(path)
    sep = "\t" if kind == "tsv" else ","
    # every cell as written: the reader decides types and missing markers on each part
    return pl.read_csv(path, separator=sep, infer_schema=False, glob=False)


def _load(frame: Any, kind: str, tmp: str, j: int, where: str, loader: Loader) -> Annotations:
    target = Path(tmp) / f"part{j}.{kind}"
    if kind == "parquet":
        frame.write_parquet(target)
    elif kind == "jsonl":
        frame.write_ndjson(target)
    else:
        frame.write_csv(target, separator="\t" if kind == "tsv" else ",")
    try:
        ann = loader(str(target))
    except AccordError as exc:
        raise type(exc)(str(exc).replace(str(target), where)) from None
    ann.audit = _renamed(ann.audit, str(target), where)
    return ann


def _renamed(audit: Any, old: str, new: str) -> Any:
    def fix(text: str) -> str:
        return text.replace(old, new)

    return replace(audit, source=fix(audit.source), notes=tuple(map(fix, audit.notes)),
                   caveats=tuple(map(fix, audit.caveats)),
                   parts=tuple(_renamed(p, old, new) for p in audit.parts))
