"""Several files, or a folder, of one tool's export: which files, and which reader.

A folder that a reader takes as a whole (a brat project, an INCEpTION export, a
doccano folder of per-user files) goes to that reader. Any other folder is read
as its files, which must all be of one format (names starting with "." or "_" are
bookkeeping, not data, and are left out as ``pyarrow.dataset`` leaves them out: Spark's
``_SUCCESS``, pyarrow's ``_metadata``, hidden files): two
MTurk batch results files become one set of annotations, with an audit per file.
Several files given together must be of one format too. CVAT exports are
recognised and refused with a sentence saying so, rather than a list of formats.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from accord.errors import FormatError
from accord.readers._base import format_error

__all__ = ["refuse_cvat", "resolve"]

#: Prefixes of the names in a folder that are not read (pyarrow.dataset's ignore_prefixes).
HIDDEN = (".", "_")

CVAT = ("CVAT exports (annotations.xml, 'CVAT for images/video') are not supported yet; "
        "write the labels as a table with one row per (image or object, annotator, label) "
        "and read it with unit=..., rater=..., value=... as a long table.")


def resolve(paths: Sequence[Path], format: str | None, detect: Callable[[Path], str],
            known: Sequence[str]) -> tuple[list[Path], str]:
    """The files to read and the reader's name.

    ``detect`` names the reader of one path (raising FormatError when none fits);
    ``known`` lists every reader, for the error about a folder no reader knows.
    """
    paths = list(paths)
    if format is not None:
        return paths, format
    if len(paths) == 1 and paths[0].is_dir():
        return _folder(paths[0], detect, known)
    names = {p: detect(p) for p in paths}
    if len(set(names.values())) > 1:
        listed = ", ".join(f"{p.name} ({n})" for p, n in names.items())
        raise FormatError(f"the files given together are of different formats: {listed}; "
                          "read one tool's files together (or pass format=...).")
    return paths, names[paths[0]]


def _folder(folder: Path, detect: Callable[[Path], str],
            known: Sequence[str]) -> tuple[list[Path], str]:
    try:
        return [folder], detect(folder)
    except FormatError:
        pass  # no reader takes the folder as a whole: read its files
    # names starting with "." or "_" are bookkeeping, not data (Spark's _SUCCESS, pyarrow's
    # _metadata): skipped as pyarrow.dataset skips them (its ignore_prefixes)
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(HIDDEN))
    if not files:
        raise format_error(folder, None, "the folder holds no files to read")
    names: dict[Path, str | None] = {}
    for p in files:
        try:
            names[p] = detect(p)
        except FormatError as exc:
            if CVAT in str(exc):
                raise
            names[p] = None
    formats = sorted({n for n in names.values() if n is not None})
    unknown = [p.name for p, n in names.items() if n is None]
    if not formats:
        raise format_error(
            folder, None,
            f"none of its {len(files)} file(s) is in a format accord knows; looked for "
            f"{', '.join(known)} (choose one with format=...).")
    if len(formats) > 1 or unknown:
        found = "; ".join(f"{n}: {', '.join(p.name for p, m in names.items() if m == n)}"
                          for n in formats)
        rest = f"; of no known format: {', '.join(unknown)}" if unknown else ""
        raise format_error(
            folder, None,
            f"its files are not all of one format ({found}{rest}); a folder is read as one "
            "tool's batches: move the others out or pass the files to read as a list.")
    return files, formats[0]


def refuse_cvat(path: Path, head: bytes) -> None:
    """Raise the CVAT sentence when ``path`` looks like a CVAT export."""
    if _cvat_xml(head) or _cvat_zip(path):
        raise format_error(path, None, CVAT)


def _cvat_xml(head: bytes) -> bool:
    text = head[:8192].lower()
    return b"<annotations" in text and b"<version>" in text and (
        b"<meta" in text or b"<image " in text or b"<track " in text)


def _cvat_zip(path: Path) -> bool:
    if path.is_dir() or not zipfile.is_zipfile(path):
        return False
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            if "annotations.xml" not in names:
                return False
            with zf.open("annotations.xml") as fh:
                return _cvat_xml(fh.read(8192))
    except (OSError, zipfile.BadZipFile):
        return False
