"""Pairwise judge annotations from files: AlpacaEval ``annotations.json``, JSONL or CSV.

Each record holds an instruction (``instruction`` or ``item``), two outputs
(``output_1``, ``output_2``), their generators (``generator_1``,
``generator_2``), the judge's ``preference`` and optionally the ``annotator``.
Preferences follow AlpacaEval's convention: ``1`` the first output, ``2`` the
second, ``1.5`` (or the legacy ``0``) a tie; a weighted judge's value in
between goes to the nearer output; ``None``/empty is no verdict (counted, not
used). ``A``/``B``/``tie`` are accepted as well.

The result is a long table (a mapping of columns) that
:func:`accord.preferences` reads with its defaults plus
``lengths=("len_first", "len_second")`` and ``generators=("first", "second")``
(the candidates are the generators), and :func:`accord.bradley_terry` reads by
``winner``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord.errors import FormatError

__all__ = ["PAIRWISE_KEYS", "PairwiseTable", "is_pairwise", "mixed_folder", "read_pairwise"]

ITEM_KEYS = ("instruction", "item")
MAX_BYTES = 512 * 1024 * 1024


@dataclass(frozen=True)
class PairwiseTable:
    """Columns for :func:`accord.preferences` and :func:`accord.bradley_terry`, plus counts."""

    columns: Mapping[str, list[Any]]
    n_records: int
    n_no_verdict: int
    n_weighted: int
    n_files: int = 1

    def notes(self) -> list[str]:
        """What was read, in words (for the CLI's first lines)."""
        out = [f"read {self.n_records} judged pair(s)"
               + (f" from {self.n_files} files" if self.n_files > 1 else "")]
        if self.n_no_verdict:
            out.append(f"{self.n_no_verdict} without a verdict (not counted)")
        if self.n_weighted:
            out.append(f"{self.n_weighted} weighted preference(s) given to the nearer output")
        return ["; ".join(out) + "."]

    def comparisons(self) -> list[tuple[Any, Any, Any]]:
        """(first, second, winner) of every pair with a verdict, for bradley_terry."""
        c = self.columns
        return [(a, b, w) for a, b, w in zip(c["first"], c["second"], c["winner"])
                if w is not None]


def read_pairwise(source: str | os.PathLike[str] | Sequence[Mapping[str, Any]], *,
                  judge: str | None = None) -> PairwiseTable:
    """Read pairwise judge annotations into columns.

    Parameters
    ----------
    source : path or list of records
        A ``.json`` list of records (AlpacaEval), ``.jsonl`` or ``.csv``; or a folder,
        whose ``.json``/``.jsonl``/``.csv`` files (in subfolders too, as AlpacaEval's
        ``results/<model>/<judge>/annotations.json``) are read in path order and joined.
    judge : str, optional
        The rater name when records carry no ``annotator`` (default ``"judge"``).

    Returns
    -------
    PairwiseTable

    Raises
    ------
    FormatError
        An unreadable file, or a record without the outputs, generators or preference.

    Examples
    --------
    >>> from accord.judge.pairs_io import read_pairwise
    >>> t = read_pairwise([{"instruction": "hi", "output_1": "hello", "output_2": "hey",
    ...                     "generator_1": "m1", "generator_2": "m2", "preference": 2}])
    >>> t.columns["verdict"], t.columns["winner"], t.columns["len_first"]
    (['B'], ['m2'], [5])
    """
    if isinstance(source, (str, os.PathLike)) and Path(source).is_dir():
        return _folder(Path(source), judge)
    records = _records(source)
    cols: dict[str, list[Any]] = {k: [] for k in (
        "unit", "rater", "first", "second", "verdict", "winner", "len_first", "len_second")}
    none = weighted = 0
    where = f"{source}: " if isinstance(source, (str, os.PathLike)) else ""
    for n, rec in enumerate(records, start=1):
        try:
            item, out1, out2, gen1, gen2 = _fields(rec, n)
            verdict, was_weighted = _verdict(rec.get("preference"), n)
        except FormatError as exc:
            raise FormatError(f"{where}{exc}") from None
        none += verdict is None
        weighted += was_weighted
        pair = sorted([str(gen1), str(gen2)])
        values = (f"{item}\x1f{pair[0]}\x1f{pair[1]}", rec.get("annotator") or judge or "judge",
                  gen1, gen2, verdict,
                  None if verdict is None else gen1 if verdict == "A" else
                  gen2 if verdict == "B" else "tie", len(out1), len(out2))
        for key, val in zip(cols, values):
            cols[key].append(val)
    return PairwiseTable(cols, len(records), none, weighted)


def mixed_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a folder holding pairwise-annotation files beside other data
    files (read as one it is neither kind: :func:`read_pairwise` says which file is not)."""
    p = Path(path)
    if not p.is_dir():
        return False
    kinds = {is_pairwise(f) for f in _data_files(p)}
    return kinds == {True, False}


def _data_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*")
                  if p.is_file() and p.suffix.lower() in (".json", ".jsonl", ".csv"))


def _folder(folder: Path, judge: str | None) -> PairwiseTable:
    """Every data file of ``folder``, each a pairwise file, joined in path order."""
    files = _data_files(folder)
    if not files:
        raise FormatError(f"{folder} holds no .json, .jsonl or .csv file of pairwise "
                          "judge annotations.")
    other = [p for p in files if not is_pairwise(p)]
    if other:
        raise FormatError(f"{other[0]} in {folder} is not a file of pairwise judge annotations "
                          f"(each record needs {', '.join(sorted(PAIRWISE_KEYS))}); "
                          f"{len(other)} of its {len(files)} data files "
                          f"{'is' if len(other) == 1 else 'are'} not: read the "
                          "pairwise files on their own.")
    tables = []
    for p in files:
        try:
            tables.append(read_pairwise(p, judge=judge))
        except FormatError as exc:
            raise FormatError(str(exc) if str(exc).startswith(str(p)) else f"{p}: {exc}"
                              ) from None
    cols = {k: [v for t in tables for v in t.columns[k]] for k in tables[0].columns}
    return PairwiseTable(cols, sum(t.n_records for t in tables),
                         sum(t.n_no_verdict for t in tables),
                         sum(t.n_weighted for t in tables), len(files))


def _records(source: Any) -> list[Mapping[str, Any]]:
    if not isinstance(source, (str, os.PathLike)):
        records = list(source)
        for n, rec in enumerate(records, start=1):
            if not isinstance(rec, Mapping):
                raise FormatError(f"record {n} is {type(rec).__name__} {_short(rec)}; expected "
                                  "a mapping of field names to values.")
        return records
    path = Path(source)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise FormatError(f"{path} is larger than {MAX_BYTES // 2**20} MB; split it.")
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read {path}: {exc}.") from None
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            return list(csv.DictReader(io.StringIO(text)))
        if suffix == ".jsonl":
            return _json_lines(path, text)
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{path} is not valid JSON (line {exc.lineno}): {exc.msg}.") from None
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise FormatError(f"{path} must hold a JSON list of records (AlpacaEval's "
                          "annotations.json layout).")
    return data


def _json_lines(path: Path, text: str) -> list[Mapping[str, Any]]:
    """The records of a JSON Lines file; a line that is not a JSON object is named."""
    out: list[Mapping[str, Any]] = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"{path} line {i} is not valid JSON: {exc.msg}.") from None
        if not isinstance(rec, dict):
            raise FormatError(f"{path} line {i} is {type(rec).__name__} {_short(rec)}; "
                              "expected one JSON object (a record) per line.")
        out.append(rec)
    return out


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _name(rec: Mapping[str, Any], key: str, n: int) -> Any:
    """A model's or judge's name: text or a number, never a list or an object."""
    x = rec[key]
    if isinstance(x, bool) or not isinstance(x, (str, int, float)):
        raise FormatError(f"record {n} has {key} {_short(x)}; expected a name (text).")
    return x


def _fields(rec: Mapping[str, Any], n: int) -> tuple[Any, str, str, Any, Any]:
    item = next((rec[k] for k in ITEM_KEYS if rec.get(k) not in (None, "")), None)
    missing = [k for k in ("output_1", "output_2", "generator_1", "generator_2")
               if rec.get(k) in (None, "")]
    if item is None:
        missing.insert(0, "instruction (or item)")
    if missing:
        raise FormatError(f"record {n} has no {', '.join(missing)}; each record needs the "
                          "item, both outputs (their text gives the lengths) and both "
                          "generators.")
    gen1, gen2 = _name(rec, "generator_1", n), _name(rec, "generator_2", n)
    if rec.get("annotator") not in (None, ""):
        _name(rec, "annotator", n)
    if str(gen1) == str(gen2):
        raise FormatError(f"record {n} compares {gen1!r} with itself (generator_1 and "
                          "generator_2 are the same); expected two different models.")
    return item, str(rec["output_1"]), str(rec["output_2"]), gen1, gen2


def _verdict(value: Any, n: int) -> tuple[str | None, bool]:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none",
                                                                               "nan")):
        return None, False
    if isinstance(value, str) and value.strip() in ("A", "B", "tie"):
        return value.strip(), False
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise FormatError(f"record {n} has preference {value!r}; expected 1, 2, 1.5 (a tie), "
                          "A, B or tie.") from None
    if math.isnan(x):
        return None, False
    if x == 0 or x == 1.5:
        return "tie", False
    if not 1 <= x <= 2:
        raise FormatError(f"record {n} has preference {value!r}; expected a value from 1 "
                          "(the first output) to 2 (the second).")
    return ("A" if x < 1.5 else "B"), x not in (1.0, 2.0)


#: The keys every record of a pairwise-preference file holds.
PAIRWISE_KEYS = frozenset({"output_1", "output_2", "generator_1", "generator_2", "preference"})


def is_pairwise(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` reads as pairwise judge annotations (a folder: all its
    data files do): a ``.json`` list,
    ``.jsonl`` or ``.csv`` whose first record holds output_1, output_2, generator_1,
    generator_2 and preference (only the first record or header line is read, except
    for a ``.json`` list, which is parsed whole)."""
    p = Path(path)
    if p.is_dir():  # a folder of them: every data file in it (and its subfolders)
        files = _data_files(p)
        return bool(files) and all(is_pairwise(f) for f in files)
    suffix = p.suffix.lower()
    if suffix not in (".json", ".jsonl", ".csv"):
        return False
    try:
        with open(p, encoding="utf-8-sig") as fh:
            if suffix == ".csv":
                first: Any = dict.fromkeys(next(csv.reader([fh.readline()]), []))
            elif suffix == ".jsonl":
                first = json.loads(fh.readline() or "null")
            else:
                data = json.load(fh)
                first = data[0] if isinstance(data, list) and data else None
    except (OSError, UnicodeDecodeError, ValueError):
        return False  # not for this reader: the ratings readers say what is wrong
    return isinstance(first, Mapping) and set(first) >= PAIRWISE_KEYS
