"""What every reader shares: the reader record, file access and one error sentence.

A reader turns a file (or several) into :class:`Collected` judgments, one per
(unit, rater, field), plus span records and per-file audits. :func:`finish`
(in :mod:`accord.readers._finish`) then picks the field, keeps the latest
answer per (unit, rater, field) and encodes the labels with
:func:`accord.data.annotations.build`.
"""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from accord.errors import DataError, FormatError

#: Cells that mean "no rating" in every table reader (``missing=`` adds more).
MISSING_MARKERS: tuple[str, ...] = ("", "NA", "N/A", "n/a", "NaN", "nan", "null", "NULL", ".", "-")

#: The built-in markers as matched: after trimming blanks, in any case (``" NA"``, ``NAN``).
MISSING_FOLDED: list[str] = sorted({m.lower() for m in MISSING_MARKERS})


#: Biggest text file a tool reader loads whole (tables are streamed by Polars instead).
MAX_TEXT_BYTES = 2 * 1024**3


@dataclass(frozen=True)
class Reader:
    """One registered format.

    ``sniff(path, head)`` returns a confidence in [0, 1] that ``path`` (whose
    first bytes are ``head``; a directory has an empty head) is in this format;
    ``read(paths, options)`` returns a :class:`Collected` or an ``Annotations``.
    """

    name: str
    description: str
    sniff: Callable[[Path, bytes], float]
    read: Callable[[list[Path], dict[str, Any]], Any]
    options: tuple[str, ...] = ()


@dataclass
class Part:
    """The audit of one file while it is being read."""

    source: str
    rows_read: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    used: int = 0


@dataclass(frozen=True)
class Skip:
    """An answer the rater declined to give (counted under ``reason``, never a label)."""

    reason: str


@dataclass(slots=True)
class Judgment:
    """One answer: ``value`` given by ``rater`` to ``unit`` on question ``field``."""

    unit: str
    rater: str
    field: str
    value: Any
    part: int
    time: float | str | None = None
    order: int = 0


@dataclass
class Collected:
    """Everything a tool reader found, before a field is chosen and labels are encoded."""

    format: str
    judgments: list[Judgment] = field(default_factory=list)
    spans: list[Any] = field(default_factory=list)
    span_origin: list[tuple[Any, int]] = field(default_factory=list)
    coverage: dict[tuple[str, str, str], str] = field(default_factory=dict)
    span_fields: set[str] = field(default_factory=set)
    #: relations between spans, each with the (time, origin) of its annotation
    relations: list[tuple[Any, tuple[Any, int]]] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    parts: list[Part] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    fields_seen: dict[str, None] = field(default_factory=dict)
    #: extra facts for ``Annotations.meta`` (e.g. CoNLL: ``tokens``, each unit's token count)
    meta: dict[str, Any] = field(default_factory=dict)

    def part(self, source: str) -> int:
        """Start the audit of a new file and return its index."""
        self.parts.append(Part(source))
        return len(self.parts) - 1

    def add(
        self,
        unit: Any,
        rater: Any,
        fld: str,
        value: Any,
        part: int,
        *,
        time: float | str | None = None,
        kind: str = "human",
    ) -> None:
        """Record one answer (the rater's kind is remembered on first sight)."""
        self.fields_seen.setdefault(fld, None)
        rater_s = str(rater)
        self.kinds.setdefault(rater_s, kind)
        self.judgments.append(
            Judgment(str(unit), rater_s, fld, value, part, time, len(self.judgments))
        )

    def add_spans(
        self, spans: list[Any], *, time: float | str | None = None, origin: int = 0
    ) -> None:
        """Record the spans of one annotation (``origin`` numbers the annotation)."""
        self.spans += spans
        self.span_origin += [(time, origin)] * len(spans)

    def add_relations(
        self, relations: list[Any], *, time: float | str | None = None, origin: int = 0
    ) -> None:
        """Record the relations of one annotation (numbered as its spans are)."""
        self.relations += [(r, (time, origin)) for r in relations]

    def drop(self, part: int, reason: str, n: int = 1) -> None:
        """Count ``n`` records of file ``part`` not used, for ``reason``."""
        self.parts[part].dropped[reason] += n

    def cover(self, unit: Any, rater: Any, fld: str, status: str, *, kind: str = "human") -> None:
        """Say that ``rater`` saw ``unit`` for span field ``fld``: annotated or skipped."""
        self.fields_seen.setdefault(fld, None)
        self.span_fields.add(fld)
        self.kinds.setdefault(str(rater), kind)
        key = (str(unit), str(rater), fld)
        if self.coverage.get(key) != "annotated":
            self.coverage[key] = status


def shown(value: Any) -> str:
    """A value as a message quotes it: at most 60 characters and three levels deep.

    >>> shown({"k": {"k": {"k": {"k": 1}}}})
    "{'k': {'k': {'k': {...}}}}"
    """
    import reprlib

    r = reprlib.Repr()
    r.maxlevel, r.maxstring, r.maxother = 3, 60, 60
    text = r.repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def format_error(path: Path | str, where: str | None, expected: str) -> FormatError:
    """One sentence: the file, the line or field, and what was expected."""
    at = f", {where}" if where else ""
    return FormatError(f"{path}{at}: {expected}")


def json_kind(value: Any) -> str:
    """What a JSON value is, in JSON's words (an array, null), not Python's (list, NoneType)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    kinds = ((dict, "an object"), (list, "an array"), (str, "a string"),
             ((int, float), "a number"), (type(None), "null"))
    return next((name for t, name in kinds if isinstance(value, t)), "a value of another kind")


def read_bytes(path: Path) -> bytes:
    """The bytes of ``path``; an unreadable or huge file becomes a FormatError."""
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise format_error(path, None, "is not a regular file (a device, a pipe or a "
                               "socket); expected a file of annotations")
        size = st.st_size
        if size > MAX_TEXT_BYTES:
            raise format_error(
                path,
                None,
                f"the file is {size} bytes, more than a tool export "
                "reader loads; convert it to CSV or Parquet",
            )
        return path.read_bytes()
    except OSError as exc:
        raise format_error(path, None, f"cannot be read ({exc.strerror or exc})") from None


def walk_files(folder: Path, suffix: str, limit: int) -> list[Path]:
    """The ``suffix`` files under ``folder``, at most ``limit``.

    A folder that cannot be listed, or a name that is not a regular file (a
    device, a pipe, a broken link), is an error naming it, never skipped.
    """
    out: list[Path] = []
    for where, _, names in os.walk(folder, onerror=_unreadable):
        for name in names:
            if not name.endswith(suffix):
                continue
            if len(out) >= limit:
                raise format_error(folder, None, f"more than {limit} {suffix} files")
            p = Path(where) / name
            if not p.is_file():
                raise format_error(p, None, "is not a regular file (a device, a pipe or a "
                                   "broken link); expected a file of annotations")
            out.append(p)
    return out


def _unreadable(exc: OSError) -> None:
    raise format_error(exc.filename, None, f"cannot be read ({exc.strerror or exc}); every "
                       "folder of the project must be readable, or moved out of it")


def read_text(path: Path) -> str:
    """The text of ``path``: UTF-8, or UTF-16/32 when a byte-order mark says so."""
    from accord.data._files import decode

    return decode(read_bytes(path), path)


def load_json(path: Path) -> Any:
    """Parse a whole JSON file; bad JSON names the line."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise format_error(
            path, f"line {exc.lineno}, column {exc.colno}", f"expected JSON ({_json_problem(exc)})"
        ) from None
    except RecursionError:
        raise format_error(path, None, "expected JSON nested less deeply") from None
    except ValueError:  # an integer beyond Python's 4300-digit conversion limit
        raise format_error(path, None, f"expected JSON ({_HUGE_INT})") from None


#: What the JSON parser refuses beyond JSON's grammar.
_HUGE_INT = "an integer of more than 4300 digits is not read"


def _json_problem(exc: json.JSONDecodeError) -> str:
    """The decoder's complaint without its dangling "at" (the position is given apart)."""
    msg = exc.msg.lower()
    for tail in (" starting at", " at"):
        msg = msg.removesuffix(tail)
    return msg


def iter_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, object)`` for each non-blank line of a JSON Lines file."""
    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as exc:
            raise format_error(
                path,
                f"line {lineno}, column {exc.colno}",
                f"expected one JSON object ({_json_problem(exc)})",
            ) from None
        except RecursionError:
            raise format_error(path, f"line {lineno}", "expected JSON nested less deeply") from None
        except ValueError:
            raise format_error(path, f"line {lineno}", f"expected JSON ({_HUGE_INT})") from None


def jsonl_objects(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Like :func:`iter_jsonl` but every line must be a JSON object."""
    for lineno, obj in iter_jsonl(path):
        if not isinstance(obj, dict):
            raise format_error(
                path, f"line {lineno}", f"expected a JSON object, got {json_kind(obj)}"
            )
        yield lineno, obj


def _single_object(path: Path) -> bool:
    lines = [ln for ln in read_text(path).splitlines() if ln.strip()]
    if len(lines) <= 1:
        return True
    try:
        json.loads(lines[0])
    except ValueError:
        return True
    return False


def text_id(value: Any) -> str:
    """An id as a string: ints stay digits, strings stay as written ("007")."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


#: Lists in lists deeper than this are not a label (a label set is one level deep).
MAX_LABEL_DEPTH = 32


def as_label(value: Any, _depth: int = 0) -> Any:
    """A label as stored: lists become sorted tuples (multi-label), dicts are refused."""
    if isinstance(value, list):
        if _depth >= MAX_LABEL_DEPTH:
            raise DataError(f"a label is nested more than {MAX_LABEL_DEPTH} lists deep; "
                            "expected text, a number or a list of them.")
        items = [as_label(v, _depth + 1) for v in value]
        try:
            return tuple(sorted(items))
        except TypeError:
            return tuple(sorted(items, key=repr))
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return value


def get_path(obj: Any, keys: Sequence[str]) -> Any:
    """``obj[k1][k2]...`` or None when any step is absent."""
    for k in keys:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(k)
    return obj


def expect_type(
    value: Any, kind: type | tuple[type, ...], path: Path, where: str, what: str
) -> Any:
    """Return ``value`` if it is of ``kind``, else raise one sentence naming ``where``."""
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise format_error(path, where, f"expected {what}, got {shown(value)}")
    if not isinstance(value, kind):
        raise format_error(path, where, f"expected {what}, got {shown(value)}")
    return value
