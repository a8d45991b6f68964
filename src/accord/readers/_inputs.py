"""What a reader is handed: regular files of UTF-8 text (or binary formats).

Files come as spreadsheets and tools write them. Before a format is detected:

* a byte-order mark (UTF-8, UTF-16 or UTF-32), or UTF-16 text without one
  (every other byte NUL, what "Unicode text" exports of spreadsheets write),
  is decoded to UTF-8 in a temporary copy, and the audit says so; text that is
  not valid in its encoding is refused with the encoding and line named;
* a pipe or a terminal (``cat data.csv | accord compute /dev/stdin``) is copied
  whole into a temporary file first, so that format detection does not consume
  bytes the reader then misses; a copy larger than :data:`PIPE_LIMIT` bytes,
  or a stream of NUL bytes, is refused, and so is any other device
  (``/dev/zero``, ``/dev/urandom``).

Audits and errors name the original file, never the temporary copy.
"""

from __future__ import annotations

import codecs
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from accord.data._files import decode_error, text_encoding
from accord.errors import AccordError, FormatError

T = TypeVar("T")

#: The most a pipe or a device is read (bytes): a file that big belongs on disk.
PIPE_LIMIT = 4 * 1024**3
_CHUNK = 1 << 20

__all__ = ["PIPE_LIMIT", "Prepared", "first_invalid_utf8", "on_copies", "prepared"]


def first_invalid_utf8(path: Path) -> str | None:
    """The sentence naming the first byte of ``path`` that is not UTF-8, if any."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    try:
        with open(path, "rb") as fh:
            while True:
                chunk = fh.read(_CHUNK)
                try:
                    line += decoder.decode(chunk, final=not chunk).count("\n")
                except UnicodeDecodeError as exc:
                    before = chunk[: exc.start].decode("utf-8", errors="ignore").count("\n")
                    bad = chunk[exc.start:exc.start + 1]
                    return decode_error(path, line + before, "UTF-8", bad)
                if not chunk:
                    return None
    except OSError:
        return None


@dataclass
class Prepared:
    """Paths to read, and how to name the originals in what comes out."""

    paths: list[Path]
    names: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def rename(self, obj: Any) -> Any:
        """``obj`` (text, audit, list, mapping) with temporary paths named as the originals."""
        if not self.names:
            return obj
        if isinstance(obj, str):
            for tmp, original in self.names.items():
                obj = obj.replace(tmp, original)
            return obj
        if isinstance(obj, list):
            return [self.rename(x) for x in obj]
        if isinstance(obj, tuple):
            return tuple(self.rename(x) for x in obj)
        if isinstance(obj, dict):
            return {self.rename(k): self.rename(x) for k, x in obj.items()}
        from accord.data.annotations import Audit

        if isinstance(obj, Audit):
            return replace(obj, source=self.rename(obj.source), notes=self.rename(obj.notes),
                           parts=self.rename(obj.parts))
        return obj

    def finish(self, result: T) -> T:
        """``result`` (Annotations, a reader's Collected, a summary) naming the originals."""
        from accord.data.annotations import Annotations
        from accord.readers._base import Collected

        if isinstance(result, Annotations):
            audit = self.rename(result.audit)
            result.audit = replace(audit, notes=(*self.notes, *audit.notes))
        elif isinstance(result, Collected):
            for part in result.parts:
                part.source = self.rename(part.source)
                part.notes = self.rename(part.notes)
            result.notes = [*self.notes, *self.rename(result.notes)]
        elif isinstance(result, dict):
            renamed: T = self.rename(result)
            if isinstance(renamed, dict) and "audit_lines" in renamed:
                lines = renamed["audit_lines"]
                renamed["audit_lines"] = [*lines[:1], *(f"  note: {n}" for n in self.notes),
                                          *lines[1:]]
            return renamed
        return result

    def error(self, exc: AccordError) -> AccordError:
        """The same error, naming the original files."""
        text = self.rename(str(exc))
        if text == str(exc):
            return exc
        try:
            return type(exc)(text)
        except TypeError:
            return FormatError(text)


def on_copies(prep: Prepared, call: Callable[[list[Path]], T]) -> T:
    """``call(prep.paths)``, its audit and errors naming the original files."""
    try:
        result = call(prep.paths)
    except AccordError as exc:
        raise prep.error(exc) from None
    return prep.finish(result)


@contextmanager
def prepared(paths: list[Path]) -> Iterator[Prepared]:
    """Regular UTF-8 copies of ``paths`` where needed, removed afterwards."""
    if not any(_needs_copy(p) for p in paths):
        yield Prepared(list(paths))
        return
    tmp = Path(tempfile.mkdtemp(prefix="accord-"))
    try:
        out = Prepared([])
        for i, p in enumerate(paths):
            out.paths.append(_prepare(p, tmp / str(i), out))
        yield out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _needs_copy(p: Path) -> bool:
    try:
        mode = p.stat().st_mode
    except OSError:
        return False  # the reader says why it cannot be read
    if stat.S_ISDIR(mode):
        return False
    if not stat.S_ISREG(mode):
        return True
    try:
        with open(p, "rb") as fh:
            return text_encoding(fh.read(4096)) is not None
    except OSError:
        return False


def _prepare(p: Path, folder: Path, out: Prepared) -> Path:
    if not _needs_copy(p):
        return p
    folder.mkdir()
    source = p
    mode = p.stat().st_mode
    if stat.S_ISCHR(mode) and not _is_terminal(p):
        raise FormatError(f"{p}: is a device (such as /dev/zero or /dev/urandom), not a file "
                          "of annotations; expected a file, or a pipe of one")
    if not stat.S_ISREG(mode):
        source = folder / ("raw-" + (p.name or "stdin"))
        _copy_stream(p, source)
        out.notes.append(f"{p}: read from a {_kind(p)} ({source.stat().st_size} bytes)")
    target = folder / (p.name or "stdin")
    with open(source, "rb") as fh:
        found = text_encoding(fh.read(4096))
    if found is None:
        target = source
    else:
        _transcode(source, target, found, p)
        out.notes.append(f"{p}: decoded from {found[2]}")
    out.names[str(target)] = str(p)
    out.names[str(source)] = str(p)
    return target


def _is_terminal(p: Path) -> bool:
    """True for a terminal (``/dev/stdin`` typed into): read until end of input."""
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)


def _kind(p: Path) -> str:
    mode = p.stat().st_mode
    return "pipe" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode) else "device"


def _copy_stream(p: Path, target: Path) -> None:
    """Copy a pipe or device into ``target``, at most :data:`PIPE_LIMIT` bytes."""
    total = 0
    try:
        with open(p, "rb") as src, open(target, "wb") as dst:
            while chunk := src.read(_CHUNK):
                if total == 0 and chunk.count(0) == len(chunk):
                    raise FormatError(f"{p}: holds only NUL bytes; expected a table or an "
                                      "annotation export")
                total += len(chunk)
                if total > PIPE_LIMIT:
                    raise FormatError(f"{p}: more than {PIPE_LIMIT} bytes from a "
                                      f"{_kind(p)}; save the data to a file and read that")
                dst.write(chunk)
    except OSError as exc:
        raise FormatError(f"{p}: cannot be read ({exc.strerror or exc})") from None


def _transcode(source: Path, target: Path, found: tuple[str, int, str], original: Path) -> None:
    """Write ``source`` (in encoding ``found``) to ``target`` as UTF-8, chunk by chunk."""
    codec, skip, name = found
    decoder = codecs.getincrementaldecoder(codec)()
    line = 1
    with open(source, "rb") as src, open(target, "w", encoding="utf-8", newline="") as dst:
        src.seek(skip)
        while True:
            chunk = src.read(_CHUNK)
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                before = chunk[: exc.start].decode(codec, errors="ignore").count("\n")
                raise FormatError(decode_error(original, line + before, name,
                                            chunk[exc.start:exc.start + 1])) from None
            line += text.count("\n")
            dst.write(text)
            if not chunk:
                break
