"""doccano JSONL exports: one ``<username>.jsonl`` per project member (1.6+), or legacy 1.0-1.2.

Sources: doccano/doccano ``backend/data_export/pipeline/formatters.py``,
``celery_tasks.py`` and the examples under
``backend/data_export/pipeline/examples/``; legacy ``app/api/utils.py`` at
commit 94b1d805; issues doccano/doccano#2329, #1846, #956, #2290, #2484.

* rater = the file name (``alice.jsonl`` -> ``alice``); pass the files, the
  folder they were unzipped to, or the export ``.zip`` itself;
* text classification: ``"label": ["positive"]`` (several -> a sorted tuple);
* sequence labelling: ``"label": [[start, end, "LBL"], ...]``, or with
  relations ``"entities": [{"id", "label", "start_offset", "end_offset"}]`` and
  ``"relations": [{"id", "from_id", "to_id", "type"}]`` (``from_id`` the head);
* legacy exports: ``"annotations": [{"label": <label id>, "user": <user id>,
  "start_offset", "end_offset"}]``; raters and labels are then ids;
* **an unannotated example and one annotated with nothing are both ``[]``**;
  by default ``[]`` is missing (``empty="missing"``); ``empty="annotated"``
  reads it as "annotated, no label / no spans" (right for exports made with
  "export only approved documents");
* offsets are UTF-16 units (the browser's): converted to code points with
  the example's text (``offsets="code_points"`` turns this off).
"""

from __future__ import annotations

import zipfile
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from accord.data import _validation as v
from accord.readers import _sniff
from accord.readers._base import (
    Collected,
    Reader,
    as_label,
    format_error,
    json_kind,
    shown,
    text_id,
)
from accord.readers._zip import archive_problem, check_declared, member_text
from accord.readers.relations import Relation
from accord.readers.spans import Span, Utf16Index, locate

EMPTY_MISSING = "empty label list ([]: not annotated or nothing to mark; see empty=)"


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Examples from doccano per-user JSONL files (or a folder / zip of them)."""
    empty = opts.get("empty", "missing")
    if empty not in ("missing", "annotated"):
        raise v.fail("empty", "accord.read", "'missing' or 'annotated'", empty)
    offsets = opts.get("offsets", "utf16")
    if offsets not in ("utf16", "code_points"):
        raise v.fail("offsets", "accord.read", "'utf16' or 'code_points'", offsets)
    col = Collected("doccano")
    members = [m for p in paths for m in _members(p)]
    if not members:
        raise format_error(paths[0], None, "expected doccano .jsonl files (one per user)")
    kinds = {_kind(lines) for _, _, lines in members}
    kind = "spans" if "spans" in kinds else "entities" if "entities" in kinds else "label"
    for name, rater, lines in members:
        _member(col, name, rater, lines, kind, empty == "annotated", offsets == "utf16")
    if len(members) == 1 and members[0][1] == "all":
        col.notes.append(
            "all.jsonl is a collaborative export: every user's labels merged "
            "without attribution, so it cannot measure agreement"
        )
    return col


def _members(path: Path) -> list[tuple[str, str, list[tuple[int, Any]]]]:
    """(source name, rater, parsed lines) for a file, a folder of files, or a zip."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".jsonl", ".json"))
        return [m for f in files for m in _members(f)]
    if path.suffix.lower() == ".zip":
        return _zip_members(path)
    from accord.readers._base import iter_jsonl

    return [(str(path), path.stem, list(iter_jsonl(path)))]


def _zip_members(path: Path) -> list[tuple[str, str, list[tuple[int, Any]]]]:
    import json

    try:
        with zipfile.ZipFile(path) as zf:
            infos = [i for i in zf.infolist() if i.filename.lower().endswith(".jsonl")]
            check_declared(path, infos)
            out = []
            for info in sorted(infos, key=lambda i: i.filename):
                name = f"{path}:{info.filename}"
                text = member_text(zf, info, name)
                lines = []
                for n, line in enumerate(text.splitlines(), start=1):
                    if line.strip():
                        try:
                            lines.append((n, json.loads(line)))
                        except (ValueError, RecursionError):
                            raise format_error(
                                name, f"line {n}", "expected one JSON object"
                            ) from None
                out.append((name, Path(info.filename).stem, lines))
            return out
    except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError,
            EOFError) as exc:
        raise format_error(path, None, archive_problem(exc)) from None


def _kind(lines: list[tuple[int, Any]]) -> str | None:
    for _, obj in lines:
        if not isinstance(obj, dict):
            continue
        if obj.get("entities"):
            return "entities"
        label = obj.get("label")
        if isinstance(label, list) and label:
            return "spans" if isinstance(label[0], list) else "label"
    return None


def _member(
    col: Collected,
    name: str,
    rater: str,
    lines: list[tuple[int, Any]],
    kind: str,
    empty_annotated: bool,
    utf16: bool,
) -> None:
    part = col.part(name)
    stats: Counter[str] = Counter()
    labelled = 0
    for lineno, obj in lines:
        where = f"line {lineno}"
        if not isinstance(obj, dict):
            raise format_error(name, where, f"expected a JSON object, got {json_kind(obj)}")
        if "id" not in obj:
            raise format_error(name, where, "expected the example's 'id'")
        col.parts[part].rows_read += 1
        unit = text_id(obj["id"])
        if isinstance(obj.get("annotations"), list):
            labelled += _legacy(col, part, name, where, unit, obj, utf16, stats)
            continue
        labelled += _example(
            col, part, name, where, unit, rater, obj, kind, empty_annotated, utf16, stats
        )
    p = col.parts[part]
    p.notes += [f"{n} {what}" for what, n in sorted(stats.items())]
    if lines and not labelled:
        p.notes.append(f"member file with no labels (rater {rater!r}: e.g. an admin or approver)")


def _example(
    col: Collected,
    part: int,
    name: str,
    where: str,
    unit: str,
    rater: str,
    obj: dict[str, Any],
    kind: str,
    empty_annotated: bool,
    utf16: bool,
    stats: Counter[str],
) -> int:
    key = "entities" if kind == "entities" else "label"
    raw = obj.get(key, [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise format_error(name, f"{where}, '{key}'", f"expected a list, got {shown(raw)}")
    if kind == "label":
        if not raw:
            if empty_annotated:
                col.add(unit, rater, "label", (), part)
            else:
                col.drop(part, EMPTY_MISSING)
            return 0
        value = as_label(raw[0]) if len(raw) == 1 else as_label(raw)
        col.add(unit, rater, "label", value, part)
        return 1
    fld = "entities" if kind == "entities" else "spans"
    if not raw and not empty_annotated:
        col.fields_seen.setdefault(fld, None)
        col.span_fields.add(fld)
        col.drop(part, EMPTY_MISSING)
        return 0
    col.cover(unit, rater, fld, "annotated")
    text = obj.get("text") if isinstance(obj.get("text"), str) else None
    index = Utf16Index(text) if text is not None and utf16 else None
    spans = [
        _span(item, unit, rater, fld, text, index, utf16, name, f"{where}, span {k + 1}", stats)
        for k, item in enumerate(raw)
    ]
    origin = (part << 32) + col.parts[part].rows_read
    col.add_spans(spans, origin=origin)
    relations = obj.get("relations")
    if relations:
        if not isinstance(relations, list):
            raise format_error(name, where, f"expected 'relations' to be a list, got "
                               f"{json_kind(relations)}")
        col.add_relations([_relation(r, unit, rater, name, f"{where}, relation {k + 1}")
                           for k, r in enumerate(relations)], origin=origin)  # fmt: skip
        stats["relations"] += len(relations)
    return 1


def _relation(item: Any, unit: str, rater: str, name: str, where: str) -> Relation:
    keys = ("from_id", "to_id", "type")
    if not isinstance(item, dict) or any(item.get(k) is None for k in keys):
        raise format_error(name, where, f"expected a relation with 'from_id', 'to_id' and "
                           f"'type', got {shown(item)}")  # fmt: skip
    head, tail = str(item["from_id"]), str(item["to_id"])
    rid = str(item["id"]) if item.get("id") is not None else f"{head}->{tail}"
    return Relation(unit, rater, rid, head, tail, str(item["type"]))


def _span(
    item: Any,
    unit: str,
    rater: str,
    fld: str,
    text: str | None,
    index: Utf16Index | None,
    utf16: bool,
    name: str,
    where: str,
    stats: Counter[str],
) -> Span:
    if isinstance(item, list) and len(item) == 3:
        start, end, label = item
    elif isinstance(item, dict):
        start, end, label = item.get("start_offset"), item.get("end_offset"), item.get("label")
    else:
        raise format_error(
            name, where, f"expected [start, end, label] or an entity object, got {shown(item)}"
        )
    if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start <= end:
        raise format_error(
            name, where, "expected integer offsets 0 <= start <= end, got "
            f"{shown(start)}, {shown(end)}"
        )
    s, e, status = locate(text, start, end, None, utf16=utf16, index=index)
    if status == "converted":
        stats["span offsets converted from UTF-16 units to code points"] += 1
    elif text is not None and index is not None and e > len(text):
        stats["span offsets past the end of the text"] += 1
    sid = str(item["id"]) if isinstance(item, dict) and item.get("id") is not None else None
    return Span(
        unit, rater, s, e, str(label), field=fld, text=text[s:e] if text is not None else None,
        id=sid,
    )


def _legacy(
    col: Collected,
    part: int,
    name: str,
    where: str,
    unit: str,
    obj: dict[str, Any],
    utf16: bool,
    stats: Counter[str],
) -> int:
    """doccano 1.0-1.2: ``annotations`` carry the user id and a label id."""
    text = obj.get("text") if isinstance(obj.get("text"), str) else None
    index = Utf16Index(text) if text is not None and utf16 else None
    n = 0
    col.parts[part].rows_read += max(len(obj["annotations"]) - 1, 0)  # records = annotations
    for k, a in enumerate(obj["annotations"]):
        at = f"{where}, annotation {k + 1}"
        if not isinstance(a, dict) or "user" not in a or "label" not in a:
            raise format_error(name, at, "expected an object with 'user' and 'label'")
        rater = text_id(a["user"])
        if "start_offset" in a:
            col.cover(unit, rater, "spans", "annotated")
            col.add_spans(
                [_span(a, unit, rater, "spans", text, index, utf16, name, at, stats)],
                origin=(part << 32) + col.parts[part].rows_read,
            )
        else:
            col.add(unit, rater, "label", as_label(a["label"]), part)
        n += 1
    stats[
        "legacy annotations (user and label are ids; map them with the project's members "
        "and labels)"
    ] += n
    return n


DOCCANO = Reader(
    "doccano",
    "doccano JSONL export: one <user>.jsonl per member (or the zip); labels or spans",
    _sniff.doccano,
    read,
    ("empty", "offsets"),
)
