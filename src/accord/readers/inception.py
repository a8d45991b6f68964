"""INCEpTION / WebAnno project exports with WebAnno TSV 3.3 annotation files.

Sources: inception-project/inception ``AnnotationDocumentExporter.java``
(project export layout), ``webannotsv.adoc`` (the TSV format, see
:mod:`accord.readers._webanno_tsv`), ``inception-ui-agreement`` ``agreement.adoc``.

Layout: ``annotation/<document>/<user>.tsv`` and
``curation/<document>/CURATION_USER.tsv``, in the unzipped project export
folder or the ``.zip`` itself; a folder of ``<document>/<user>.tsv`` or plain
``.tsv`` files (unit = their folder's name) also work.

* rater = the file name; ``INITIAL_CAS`` (the imported state, not a person) is
  skipped; ``CURATION_USER`` is the rater ``"CURATION_USER"`` of kind ``"gold"``;
* each span layer feature is a field (``NamedEntity.value``); choose with ``field=``;
* a user without a file for a document never started it (or ignored it): not
  covered; a file is "annotated" for every span layer in its header;
* offsets are UTF-16 units of the document, converted to code points;
* relation layers are read beside the spans of their base layer (the relations
  of a span field ``Layer.feature`` are those whose ``BT_`` column names ``Layer``).
"""

from __future__ import annotations

import zipfile
import zlib
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from accord.readers import _sniff
from accord.readers._base import (
    Collected,
    Reader,
    format_error,
    read_text,
    walk_files,
)
from accord.readers._webanno_tsv import header_columns, parse
from accord.readers._zip import archive_problem, check_declared, member_text
from accord.readers.relations import Relation
from accord.readers.spans import Span

INITIAL = "INITIAL_CAS"
CURATION = "CURATION_USER"
_MAX_FILES = 200_000

Entry = tuple[str, str, str, Callable[[], str]]  # unit, rater, source name, text loader


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Span layers of WebAnno TSV files in an INCEpTION project export."""
    col = Collected("inception")
    entries = [e for p in paths for e in _entries(p)]
    if not entries:
        raise format_error(paths[0], None, "expected annotation/<document>/<user>.tsv files")
    skipped = Counter(rater for _, rater, _, _ in entries if rater == INITIAL)
    stats: Counter[str] = Counter()
    for unit, rater, name, load in entries:
        if rater == INITIAL:
            continue
        _file(col, unit, rater, name, load(), stats)
    notes = [f"{n} {what}" for what, n in sorted(stats.items())]
    if skipped:
        notes.append(f"{skipped[INITIAL]} {INITIAL} file(s) skipped (the imported state)")
    col.notes += notes
    return col


def _entries(path: Path) -> list[Entry]:
    if path.suffix.lower() == ".zip":
        return _zip_entries(path)
    if path.is_file():
        return [(path.parent.name, path.stem, str(path), partial(read_text, path))]
    roots = [path / "annotation", path / "curation"]
    if not any(r.is_dir() for r in roots):
        roots = [path]
    out: list[Entry] = []
    for root in roots:
        if root.is_dir():
            for f in sorted(walk_files(root, ".tsv", _MAX_FILES)):
                unit = f.parent.relative_to(root).as_posix() if f.parent != root else f.stem
                out.append((unit, f.stem, str(f), partial(read_text, f)))
    return out


def _zip_entries(path: Path) -> list[Entry]:
    try:
        zf = zipfile.ZipFile(path)
        infos = [
            i
            for i in zf.infolist()
            if i.filename.lower().endswith(".tsv")
            and PurePosixPath(i.filename).parts[:1] in (("annotation",), ("curation",))
        ]
        check_declared(path, infos)
    except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError,
            EOFError) as exc:
        raise format_error(path, None, archive_problem(exc)) from None
    out: list[Entry] = []
    for info in sorted(infos, key=lambda i: i.filename):
        p = PurePosixPath(info.filename)
        name = f"{path}:{info.filename}"
        out.append(
            (
                "/".join(p.parts[1:-1]) or p.stem,
                p.stem,
                name,
                partial(_zip_text, zf, info, name),
            )
        )
    return out


def _zip_text(zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> str:
    return member_text(zf, info, name)


def _file(col: Collected, unit: str, rater: str, name: str, text: str, stats: Counter[str]) -> None:
    part = col.part(name)
    kind = "gold" if rater == CURATION else "human"
    parsed = parse(text, name)
    col.parts[part].rows_read += sum(len(v) for v in parsed.spans.values())
    for fld in _span_fields(text):
        col.cover(unit, rater, fld, "annotated", kind=kind)
    spans = [
        Span(unit, rater, b, e, label, field=fld, id=sid)
        for fld, items in parsed.spans.items()
        for b, e, label, sid in items
    ]
    col.add_spans(spans, origin=(part << 32))
    relations = [
        Relation(unit, rater, f"{layer}:{k + 1}", head, tail, typ, field=base.rsplit(".", 1)[-1])
        for k, (layer, base, head, tail, typ) in enumerate(parsed.relations)
    ]
    if relations:
        col.add_relations(relations, origin=(part << 32))
        stats["relations"] += len(relations)
    stats.update(parsed.stats)


def _span_fields(text: str) -> list[str]:
    fields: list[str] = []
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if line.startswith("#T_SP="):
            fields += [c.field for c in header_columns(line) if c.kind == "span"]
        elif line.startswith("#Text=") or (line and not line.startswith("#")):
            break
    return fields


INCEPTION = Reader(
    "inception",
    "INCEpTION/WebAnno project export: annotation/<doc>/<user>.tsv (WebAnno TSV 3.3 span layers)",
    _sniff.inception,
    read,
    (),
)
