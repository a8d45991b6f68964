"""brat standoff: ``doc.txt`` + ``doc.ann`` pairs, one folder per annotator.

Sources: the brat standoff format (https://brat.nlplab.org/standoff.html), and
the one-folder-per-annotator convention of kldtz/bratiaa (``README.md``,
``bratiaa/agree.py``; example project folders ``Maria/``, ``Max/``, ``Peter/``).

* pass the project folder (its first-level subfolders holding ``.ann`` files
  are the annotators when they repeat the same documents), several annotator
  folders, or one annotator's folder; ``annotators="subfolders"`` or
  ``"folder"`` settles it when the guess is wrong (the audit names the raters);
* unit = the document's path relative to the annotator folder, without the
  extension (the same relative paths across annotators);
* ``T`` lines are text-bound spans: ``T1<TAB>LABEL start end[;start end]<TAB>text``;
  discontinuous spans keep their fragments and their id (``T1``);
* ``R`` lines are relations, ``R1<TAB>Type Arg1:T1 Arg2:T2`` (``Arg1`` the head),
  and ``*<TAB>Equiv T1 T2 T3`` equivalence sets become one undirected relation per
  pair of their members (ids ``*<line>:T1-T2``); other lines (``A``, ``E``, ``N``,
  ``#``, ``M``) are counted and not read;
* offsets are code points into the ``.txt`` (end exclusive) and are checked
  against the stored text (fragments joined by one space);
* a missing ``.ann`` means the annotator never opened the document (not
  covered); an empty ``.ann`` means "annotated, nothing marked".
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from accord.data import _validation as v
from accord.readers import _sniff
from accord.readers._base import Collected, Reader, format_error, read_text, walk_files
from accord.readers.relations import Relation
from accord.readers.spans import Span

FIELD = "entities"
_MAX_FILES = 200_000


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Text-bound annotations from brat folders."""
    layout = opts.get("annotators")
    if layout not in (None, "subfolders", "folder"):
        raise v.fail("annotators", "accord.read", "'subfolders' or 'folder'", layout)
    annotators = _annotators(paths, layout)
    col = Collected("brat")
    col.notes.append(f"annotators: {[r for r, _ in annotators]!r} (one folder each)")
    docs = sorted({d for _, folder in annotators for d in _docs(folder)})
    col.fields_seen.setdefault(FIELD, None)
    col.span_fields.add(FIELD)
    for rater, folder in annotators:
        _annotator(col, rater, folder, docs)
    return col


def _annotators(paths: list[Path], layout: str | None) -> list[tuple[str, Path]]:
    for p in paths:
        if not p.is_dir():
            raise format_error(p, None, "expected a folder of brat .txt/.ann files")
    if len(paths) > 1:
        return [(p.name, p) for p in paths]
    root = paths[0]
    subs = sorted(d for d in root.iterdir() if d.is_dir() and _has_ann(d))
    if layout == "subfolders" or (layout is None and _look_like_annotators(root, subs)):
        if not subs:
            raise format_error(root, None, "expected one subfolder of .ann files per annotator")
        return [(d.name, d) for d in subs]
    if not _has_ann(root):
        raise format_error(
            root, None, "expected .ann files, or one subfolder of them per annotator"
        )
    return [(root.name, root)]


def _look_like_annotators(root: Path, subs: list[Path]) -> bool:
    """Annotator folders repeat the same documents; collection folders split them."""
    if any(p.is_file() for p in root.glob("*.ann")) or len(subs) < 2:
        return False
    docs = [{_doc_id(d, p) for p in _walk(d, ".ann")} for d in subs]
    return any(docs[i] & docs[j] for i in range(len(docs)) for j in range(i + 1, len(docs)))


def _has_ann(folder: Path) -> bool:
    return any(True for _ in _walk(folder, ".ann"))


def _walk(folder: Path, suffix: str) -> list[Path]:
    return walk_files(folder, suffix, _MAX_FILES)


def _docs(folder: Path) -> list[str]:
    return [_doc_id(folder, p) for p in _walk(folder, ".ann") + _walk(folder, ".txt")]


def _doc_id(folder: Path, p: Path) -> str:
    return p.relative_to(folder).with_suffix("").as_posix()


def _annotator(col: Collected, rater: str, folder: Path, docs: list[str]) -> None:
    part = col.part(str(folder))
    stats: Counter[str] = Counter()
    missing = 0
    for doc in docs:
        ann = folder / f"{doc}.ann"
        if not ann.is_file():
            missing += 1
            continue
        col.parts[part].rows_read += 1
        col.cover(doc, rater, FIELD, "annotated")
        txt = folder / f"{doc}.txt"
        text = read_text(txt) if txt.is_file() else None
        origin = (part << 32) + col.parts[part].rows_read
        spans, relations = _lines(ann, doc, rater, text, stats)
        col.add_spans(spans, origin=origin)
        col.add_relations(relations, origin=origin)
    notes = col.parts[part].notes
    notes += [f"{n} {what}" for what, n in sorted(stats.items())]
    if missing:
        notes.append(f"{missing} document(s) without a .ann file (not opened by {rater!r})")


def _lines(
    ann: Path, doc: str, rater: str, text: str | None, stats: Counter[str]
) -> tuple[list[Span], list[Relation]]:
    spans, relations = [], []
    for lineno, line in enumerate(read_text(ann).splitlines(), start=1):
        if not line.strip():
            continue
        if line.startswith("T"):
            spans.append(_t_line(line, ann, lineno, doc, rater, text, stats))
        elif line.startswith("R"):
            relations.append(_r_line(line, ann, lineno, doc, rater))
        elif line.startswith("*"):
            relations += _equiv_line(line, ann, lineno, doc, rater)
        else:
            stats[f"{line[:1]!r} lines (attributes, events, notes; not read)"] += 1
    if relations:
        stats["relations (R lines and * equivalence pairs)"] += len(relations)
    return spans, relations


def _r_line(line: str, ann: Path, lineno: int, doc: str, rater: str) -> Relation:
    cells = line.split("\t")
    parts = cells[1].split() if len(cells) > 1 else []
    args = dict(p.split(":", 1) for p in parts[1:] if ":" in p)
    if len(parts) != 3 or set(args) != {"Arg1", "Arg2"}:
        raise format_error(
            ann, f"line {lineno}", "expected 'R<n><TAB>Type Arg1:T<n> Arg2:T<n>'"
        )
    return Relation(doc, rater, cells[0].strip(), args["Arg1"], args["Arg2"], parts[0])


def _equiv_line(line: str, ann: Path, lineno: int, doc: str, rater: str) -> list[Relation]:
    cells = line.split("\t")
    parts = cells[1].split() if len(cells) > 1 else []
    if len(parts) < 3:
        raise format_error(ann, f"line {lineno}", "expected '*<TAB>Type T<n> T<n> ...'")
    kind, members = parts[0], parts[1:]
    return [
        Relation(doc, rater, f"*{lineno}:{a}-{b}", a, b, kind, directed=False)
        for i, a in enumerate(members)
        for b in members[i + 1:]
    ]


def _t_line(
    line: str, ann: Path, lineno: int, doc: str, rater: str, text: str | None, stats: Counter[str]
) -> Span:
    where = f"line {lineno}"
    cells = line.split("\t")
    if len(cells) < 2 or " " not in cells[1]:
        raise format_error(ann, where, "expected 'T<n><TAB>LABEL start end[;start end]<TAB>text'")
    label, _, offsets = cells[1].partition(" ")
    fragments = []
    for piece in offsets.split(";"):
        bounds = piece.split()
        if len(bounds) != 2 or not all(b.isdigit() for b in bounds):
            raise format_error(ann, where, f"expected 'start end' offsets, got {piece!r}")
        s, e = int(bounds[0]), int(bounds[1])
        if s > e:
            raise format_error(ann, where, f"expected start <= end, got {s} > {e}")
        fragments.append((s, e))
    stored = cells[2] if len(cells) > 2 else None
    if text is not None and stored is not None:
        found = " ".join(text[s:e] for s, e in fragments)
        if found != stored:
            hint = " (the .txt has CRLF line ends)" if "\r\n" in text else ""
            stats[f"spans whose offsets do not match their stored text{hint}"] += 1
    if len(fragments) > 1:
        stats["discontinuous spans"] += 1
    return Span(
        doc,
        rater,
        fragments[0][0],
        fragments[-1][1],
        label,
        tuple(fragments),
        field=FIELD,
        text=stored,
        id=cells[0].strip(),
    )


BRAT = Reader(
    "brat",
    "brat standoff folders: one subfolder of .txt/.ann per annotator (spans)",
    _sniff.brat,
    read,
    ("annotators",),
)
