"""Reading members of a zip export with bounded memory and time.

A small zip can expand to gigabytes (a "zip bomb": 4.6 MB of compressed NUL
bytes is 1 GiB). Each member is checked before it is opened (the sizes the
archive declares) and while it is streamed (the bytes actually produced):

* no member, and no archive in total, expands beyond :data:`MAX_EXPANDED` bytes;
* past :data:`RATIO_FLOOR` bytes, a member may not expand more than
  :data:`MAX_RATIO` times its compressed size (JSON and TSV exports compress
  5 to 30 times; a bomb compresses a thousand times);
* a corrupted stream (``zlib.error``, a bad CRC) is one sentence naming the member.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Sequence

from accord.errors import FormatError
from accord.readers._base import MAX_TEXT_BYTES, format_error

#: The most bytes a member, or an archive in total, may expand to.
MAX_EXPANDED = MAX_TEXT_BYTES
#: The largest expansion ratio accepted past :data:`RATIO_FLOOR` bytes.
MAX_RATIO = 200
#: Below this many expanded bytes the ratio is not checked (tiny members compress oddly).
RATIO_FLOOR = 8 * 1024**2
_CHUNK = 1 << 20
#: What zipfile raises on a damaged archive or member.
ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError,
              EOFError, ValueError)

__all__ = ["MAX_EXPANDED", "MAX_RATIO", "RATIO_FLOOR", "ZIP_ERRORS", "archive_problem",
           "check_declared", "member_text"]


def check_declared(path: object, infos: Sequence[zipfile.ZipInfo]) -> None:
    """Refuse an archive whose declared sizes are beyond the limits, before reading."""
    if sum(i.file_size for i in infos) > MAX_EXPANDED:
        raise format_error(str(path), None, f"the zip expands to more than {MAX_EXPANDED} "
                           "bytes, more than a reader loads")
    for info in infos:
        _check_ratio(f"{path}:{info.filename}", info.file_size, info.compress_size)


def _check_ratio(name: str, expanded: int, compressed: int) -> None:
    if expanded > RATIO_FLOOR and expanded > MAX_RATIO * max(compressed, 1):
        raise format_error(name, None, f"expands more than {MAX_RATIO} times its compressed "
                           f"size ({compressed} bytes); expected an annotation export, not a "
                           "zip bomb")


def member_bytes(zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> bytes:
    """The bytes of one member, streamed with the size and ratio checks."""
    check_declared(zf.filename, [info])
    chunks: list[bytes] = []
    total = 0
    try:
        with zf.open(info) as fh:
            while chunk := fh.read(_CHUNK):
                total += len(chunk)
                if total > MAX_EXPANDED:
                    raise format_error(name, None, f"expands to more than {MAX_EXPANDED} bytes")
                _check_ratio(name, total, info.compress_size)
                chunks.append(chunk)
    except FormatError:
        raise
    except ZIP_ERRORS as exc:
        raise format_error(name, None, f"cannot be read from the zip ({_why(exc)})") from None
    return b"".join(chunks)


def member_text(zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> str:
    """The text of one member (UTF-8, or UTF-16/32 with a byte-order mark)."""
    from accord.data._files import decode

    return decode(member_bytes(zf, info, name), name)


def archive_problem(exc: BaseException) -> str:
    """Why a whole archive cannot be opened, said of the file (not in zipfile's words):
    the text after ``path:`` in the error."""
    if isinstance(exc, zipfile.BadZipFile) and "not a zip file" in str(exc):
        return ("is not a zip archive, or is cut short (its zip directory, at the end of "
                "the file, is missing); expected the whole zip export")
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot be read ({exc.strerror})"
    return f"cannot be read as a zip archive: {_why(exc)}"


def _why(exc: BaseException) -> str:
    """What is wrong with the member, in the archive's words rather than zipfile's."""
    text = str(exc).strip()
    if "CRC" in text:
        return "it is damaged: its checksum does not match its content; expected an intact zip"
    if isinstance(exc, zlib.error) or "decompressing" in text:
        return "its compressed data is damaged; expected an intact zip"
    if "encrypted" in text or "password" in text:
        return "it is encrypted; expected a zip without a password"
    if "compression method" in text:
        return ("it is compressed with a method Python cannot read; expected a zip made "
                "with the usual (deflate) compression")
    if isinstance(exc, EOFError) or "truncated" in text.lower():
        return "the archive is cut short; expected the whole zip"
    first = (text.splitlines() or [type(exc).__name__])[0][:200]
    return f"the archive is damaged: {first}"
