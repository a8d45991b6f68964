"""The elements of a JSON array file, one at a time, without the whole file in memory.

A tool export is often one JSON array written on a single line (100 MB and
more). Parsing it whole holds the file's bytes, its text and every element at
once; :func:`iter_json_array` reads the file in blocks, decodes each element
with :meth:`json.JSONDecoder.raw_decode` as soon as it is complete, and drops
the text behind it, so a reader that handles one element at a time holds one
element. The block grows (doubling) while one element does not fit, so an
element of any size is parsed a bounded number of times (linear time).

Anything that is not a well-formed array (a syntax error, text after the
array, a non-UTF-8 encoding, a value too deep or too large) is handed to
:func:`~accord.readers._base.load_json`, whose one sentence names the line
and the problem, exactly as before.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from accord.readers._base import (
    _single_object,
    format_error,
    json_kind,
    jsonl_objects,
    load_json,
    read_bytes,
    read_text,
)

__all__ = ["iter_json_array", "records_of"]

#: Bytes read at a time (the block doubles while one element does not fit).
BLOCK = 1 << 20
_SPACE = " \t\r\n"
#: What may follow a complete number inside an array.
_AFTER_NUMBER = _SPACE + ",]"


class _Fallback(Exception):
    """Not a plain UTF-8 array of values: let the whole-file parser say what it is."""


def iter_json_array(path: Path, what: str = "records") -> Iterator[Any]:
    """Each element of the JSON array in ``path``, in order.

    A file that holds one JSON object (not an array) yields that object; any
    other JSON value is refused ("expected a JSON array of ``what``").
    """
    done = 0
    try:
        for value in _stream(path):
            done += 1
            yield value
    except _Fallback:
        data = load_json(path)  # raises the sentence that says what is wrong
        if isinstance(data, list):  # a valid array the stream could not take: the rest
            yield from data[done:]
        elif isinstance(data, dict):
            yield data
        else:
            raise format_error(path, None, f"expected a JSON array of {what}") from None


def _stream(path: Path) -> Iterator[Any]:
    from accord.data._files import text_encoding

    read_bytes_limit(path)
    with open(path, "rb") as fh:
        found = text_encoding(fh.read(4096))
        if found is not None and found[0] != "utf-8":
            raise _Fallback
        fh.seek(0 if found is None else found[1])  # past a UTF-8 byte-order mark
        yield from _Blocks(fh).values()


class _Blocks:
    """The text of a file, read block by block, with a cursor."""

    def __init__(self, fh: Any) -> None:
        self.fh = fh
        self.text = codecs.getincrementaldecoder("utf-8")()
        self.buf, self.pos, self.block, self.eof = "", 0, BLOCK, False
        self.decoder = json.JSONDecoder()
        self.more()

    def more(self) -> None:
        """Read the next block (drop the text before the cursor)."""
        data = self.fh.read(self.block)
        self.eof = not data
        try:
            self.buf = self.buf[self.pos:] + self.text.decode(data, final=self.eof)
        except UnicodeDecodeError:
            raise _Fallback from None
        self.pos = 0

    def skip(self) -> str:
        """The next character that is not a blank ("" at the end of the file)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buf) or self.eof:
                return self.buf[self.pos] if self.pos < len(self.buf) else ""
            self.more()

    def value(self) -> Any:
        """The JSON value at the cursor, reading on until it is complete."""
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError:
                if self.eof:
                    raise _Fallback from None
                self.block *= 2  # the element is longer than the text at hand
                self.more()
                continue
            except (RecursionError, ValueError):
                raise _Fallback from None
            cut = end == len(self.buf) or self.buf[end] not in _AFTER_NUMBER
            if cut and not self.eof and _may_continue(value):
                self.block *= 2  # a number cut by the block's end: read on, parse again
                self.more()
                continue
            self.pos = end
            self.block = BLOCK  # the next element starts with one block again
            return value

    def values(self) -> Iterator[Any]:
        """The elements of the array that starts at the cursor; then only blanks."""
        if self.skip() != "[":
            raise _Fallback  # one object, or not JSON: the whole-file parser decides
        self.pos += 1
        if self.skip() == "]":
            self.pos += 1
        else:
            while True:
                yield self.value()
                c = self.skip()
                self.pos += 1
                if c == "]":
                    break
                if c != ",":
                    raise _Fallback
                self.skip()
        if self.skip() != "":
            raise _Fallback  # text after the array


def _may_continue(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_bytes_limit(path: Path) -> None:
    """The size and file-kind checks of :func:`read_bytes`, without reading the file."""
    import stat

    from accord.readers._base import MAX_TEXT_BYTES

    try:
        st = path.stat()
    except OSError as exc:
        raise format_error(path, None, f"cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_TEXT_BYTES:
        read_bytes(path)  # raises the sentence


def records_of(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """The objects of a JSON array file or a JSON Lines file, each with where it came from
    (an array is read one record at a time: a large export is never held whole)."""
    read_bytes_limit(path)  # a missing, special or huge file: one sentence
    try:
        with open(path, "rb") as fh:
            head = fh.read(64).lstrip()
    except OSError as exc:
        raise format_error(path, None, f"cannot be read ({exc.strerror or exc})") from None
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:].lstrip()
    if head.startswith(b"["):
        for i, obj in enumerate(iter_json_array(path)):
            if not isinstance(obj, dict):
                raise format_error(
                    path, f"record {i + 1}", f"expected a JSON object, got {json_kind(obj)}"
                )
            yield f"record {i + 1}", obj
        return
    if head.startswith(b"{") and _single_object(path):
        data = load_json(path)
        lines = [ln for ln in read_text(path).splitlines() if ln.strip()]
        yield ("line 1" if len(lines) == 1 else "record 1", data)
        return
    yield from ((f"line {n}", obj) for n, obj in jsonl_objects(path))
