"""Writing output files safely: never a fragment, never onto an input.

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
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["same_file", "write_atomic"]


def write_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` all at once or not at all; return the path.

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
    folder = target.parent if str(target.parent) else Path(".")
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
            fh.write(text)
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


def _write_stream(target: Path, text: str, encoding: str) -> None:
    """Write to a device or a pipe as it is (there is no previous file to keep)."""
    try:
        with open(target, "w", encoding=encoding, newline="") as fh:
            fh.write(text)
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
