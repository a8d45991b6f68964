"""Files in and out: text decoded from its encoding, outputs never a fragment.

Small text files (a study, a list of item ids) are read by
:func:`read_small_text`: regular files only, with a size limit, decoded from
UTF-8 or from UTF-16/32 when a byte-order mark says so (:func:`decode`).

Every file accord writes (reports, review CSVs) goes through
:func:`write_atomic`: the text is written to a temporary file in the same
folder, flushed to disk, then renamed over the target in one step. When the
disk fills or the folder is read-only, the previous file (which may already
hold a reviewer's adjudications) is left as it was and the error names the
file. A symbolic link is followed (the file it points to is replaced, the link
kept); a device or a pipe (``/dev/stdout``) is written to directly, never
replaced.
"""

from __future__ import annotations

import contextlib
import errno as errno_codes
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from accord.errors import AccordError, FormatError

# (byte-order mark, codec, name); UTF-32 LE before UTF-16 LE, which its mark begins with
_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 (big-endian)"),
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 (little-endian)"),
    (b"\xef\xbb\xbf", "utf-8", "UTF-8 with a byte-order mark"),
    (b"\xfe\xff", "utf-16-be", "UTF-16 (big-endian)"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 (little-endian)"),
)

__all__ = ["decode", "decode_error", "read_small_text", "same_file", "text_encoding",
           "write_atomic"]


def write_atomic(path: str | os.PathLike[str], text: str | Iterable[str], *,
                 encoding: str = "utf-8") -> Path:
    """Write ``text`` (a string, or its pieces in order) to ``path`` all at once or not at
    all; return the path.

    Raises
    ------
    OSError
        One sentence naming ``path`` and the cause; the previous file is unchanged.
    """
    target = Path(path)
    if target.is_dir():
        raise OSError(errno_codes.EISDIR, f"could not write {target}: it is a folder")
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    if target.exists() and not target.is_file():
        _write_stream(target, text, encoding)
        return Path(path)
    if target.exists() and not os.access(target, os.W_OK):  # renaming would get round it
        raise OSError(errno_codes.EACCES, f"could not write {target}: permission denied (the "
                      "previous file is unchanged)")
    folder = target.parent if str(target.parent) else Path(".")
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
            for piece in ([text] if isinstance(text, str) else text):
                fh.write(piece)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        cause = exc.strerror or str(exc)
        kept = " (the previous file is unchanged)" if target.exists() else ""
        raise OSError(exc.errno, f"could not write {target}: {cause}{kept}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return Path(path)


def _write_stream(target: Path, text: str | Iterable[str], encoding: str) -> None:
    """Write to a device or a pipe as it is (there is no previous file to keep)."""
    try:
        with open(target, "w", encoding=encoding, newline="") as fh:
            for piece in ([text] if isinstance(text, str) else text):
                fh.write(piece)
    except OSError as exc:
        raise OSError(exc.errno, f"could not write {target}: {exc.strerror or exc}") from None


def _mode_for(target: Path) -> int:
    """The existing file's permissions, or the usual ones for a new file (0666 less umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def same_file(output: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]]) -> bool:
    """True when ``output`` names the same file as one of ``inputs`` (links followed)."""
    out = Path(output)
    try:
        out_real = out.resolve()
    except OSError:
        return False
    for item in inputs:
        p = Path(item)
        try:
            if out.exists() and p.exists() and os.path.samefile(out, p):
                return True
            real = p.resolve()
        except OSError:
            continue
        if out_real == real:
            return True
    return False


def text_encoding(head: bytes) -> tuple[str, int, str] | None:
    """``(codec, length of the byte-order mark, name)`` of a text that is not plain UTF-8.

    ``None`` for plain UTF-8 (or binary data). UTF-16 without a mark is
    recognised when the first bytes are ASCII text with every other byte NUL.

    Examples
    --------
    >>> text_encoding("id,a".encode("utf-16"))
    ('utf-16-le', 2, 'UTF-16 (little-endian)')
    >>> text_encoding("id,a".encode("utf-16-be"))
    ('utf-16-be', 0, 'UTF-16 (big-endian, no byte-order mark)')
    >>> text_encoding(b"id,a") is None
    True
    """
    for mark, codec, name in _BOMS:
        if head.startswith(mark):
            return codec, len(mark), name
    sample = head[:4096]
    if len(sample) >= 8:
        even, odd = sample[0::2], sample[1::2]
        if _ascii_with_nuls(even, odd):
            return "utf-16-be", 0, "UTF-16 (big-endian, no byte-order mark)"
        if _ascii_with_nuls(odd, even):
            return "utf-16-le", 0, "UTF-16 (little-endian, no byte-order mark)"
    return None


def _ascii_with_nuls(nuls: bytes, text: bytes) -> bool:
    return nuls.count(0) == len(nuls) and bool(re.fullmatch(rb"[\t\n\r\x20-\x7e]+", text))


def decode(data: bytes, path: Path | str, error: type[AccordError] = FormatError) -> str:
    """``data`` as text, from its encoding (see :func:`text_encoding`, else UTF-8).

    Raises ``error`` naming ``path``, the line and the encoding when ``data`` is
    not valid text in that encoding.
    """
    found = text_encoding(data[:4096])
    codec, skip, name = found if found is not None else ("utf-8", 0, "UTF-8")
    try:
        return data[skip:].decode(codec)
    except UnicodeDecodeError as exc:
        if codec == "utf-32-le":  # FF FE 00 00 is also UTF-16's mark and a NUL character
            try:
                return data[2:].decode("utf-16-le")
            except UnicodeDecodeError:
                pass
        start = exc.start + skip
        line = data[skip:start].decode(codec, errors="ignore").count("\n") + 1
        raise error(decode_error(path, line, name, data[start:start + 1])) from None


def decode_error(path: Path | str, line: int, name: str, byte: bytes) -> str:
    """The sentence for text that is not valid in its encoding."""
    shown = f" (byte 0x{byte[0]:02x})" if byte else ""
    return (f"{path}, line {line}: not valid {name} text{shown}; expected UTF-8 "
            "(save the file as UTF-8)")


def read_small_text(path: Path, limit: int, error: type[AccordError]) -> str:
    """The text of a small regular file (a study, a list of ids), at most ``limit`` bytes.

    A device, a pipe or a folder, a bigger file, or text not valid in its encoding
    raises ``error`` naming ``path``.
    """
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{path}: is not a regular file; expected a text file.")
        if st.st_size > limit:
            raise error(f"{path}: is {st.st_size} bytes, more than the {limit} bytes expected "
                        "of this file.")
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror or exc}).") from None
    if len(data) > limit:
        raise error(f"{path}: more than the {limit} bytes expected of this file.")
    return decode(data, path, error)
