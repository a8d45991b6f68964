"""Parquet tables, long or wide, scanned lazily by Polars (ids are read as text)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from accord.readers import _sniff
from accord.readers._base import Reader
from accord.readers.csv import read_lazy


def scan(path: Path, opts: dict[str, Any]) -> pl.LazyFrame:
    """A lazy frame of the Parquet file ``path``."""
    return pl.scan_parquet(path, glob=False)  # [, * and ? are part of the file name


def read(paths: list[Path], opts: dict[str, Any]) -> Any:
    """Annotations from one or more Parquet files (see :func:`accord.read`)."""
    return read_lazy(paths, opts, scan)


PARQUET = Reader(
    "parquet", "Parquet table, long or wide (as CSV)", _sniff.parquet, read,
    ("timestamp", "start", "end", "names"),
)
